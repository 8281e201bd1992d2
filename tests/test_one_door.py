"""One door to the archive: ``cli/`` and ``serve/`` hold no SQL and never
open SQLite themselves (the library's archive service does), and a web
search and ``hexhop find`` with the same filters pass through the same
library calls and give the same games."""

from __future__ import annotations

import ast
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from serve_helpers import client

from hexhop.archive import service
from hexhop.archive.query import Query
from hexhop.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples" / "good"
# SQL's keywords in capitals, as the library writes them (a message may say "Select")
SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE|CREATE|PRAGMA|ATTACH|DETACH|DROP)\b")


def sources() -> list[Path]:
    return sorted(p for folder in ("cli", "serve") for p in (ROOT / folder).rglob("*.py"))


def sql_in(path: Path) -> list[str]:
    """Where the file imports sqlite3, calls it, or holds SQL in a string."""
    text = path.read_text("utf-8")
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for number, line in enumerate(text.splitlines(), 1)
        if re.search(r"\bimport sqlite3\b|\bsqlite3\.", line)
    ]
    for node in ast.walk(ast.parse(text)):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and SQL.search(node.value)
        ):
            found.append(f"{path.name}:{node.lineno}: {node.value[:60]!r}")
    return found


def test_the_scan_finds_sql_where_there_is_some(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import sqlite3\n"
        'rows = db.execute("SELECT count(*) FROM games")\n'
        'db.execute(f"PRAGMA {name}")\n'
        'text = "Select a game to see it"\n'
    )
    assert sql_in(sample) == [
        "sample.py:1: import sqlite3",
        "sample.py:2: 'SELECT count(*) FROM games'",
        "sample.py:3: 'PRAGMA '",
    ]


def test_cli_and_serve_hold_no_sql_and_never_open_sqlite() -> None:
    assert len(sources()) > 40
    found = [where for path in sources() for where in sql_in(path)]
    assert found == []


# -- a web search and find: the same calls, the same games --------------------------


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("door")
    arch = root / "good"
    shutil.copytree(SAMPLES, arch)
    db = root / "good.sqlite"
    result = CliRunner().invoke(cli, ["index", str(arch), "--db", str(db), "-q"])
    assert result.exit_code == 0, result.output
    return arch, db


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How often the service reads filters, finds and pages games, and how
    often a query's SQL is made."""
    counted = {"query_of": 0, "find": 0, "search": 0, "sql": 0}

    def counting(name: str, function: Any) -> Any:
        def counted_call(*args: Any, **kwargs: Any) -> Any:
            counted[name] += 1
            return function(*args, **kwargs)

        return counted_call

    for name in ("query_of", "find", "search"):
        monkeypatch.setattr(service, name, counting(name, getattr(service, name)))
    monkeypatch.setattr(Query, "sql", counting("sql", Query.sql))
    return counted


@pytest.mark.parametrize(
    ("cli_filters", "form"),
    [
        (["--game", "Hüpfer"], {"game": "Hüpfer"}),
        (["--result", "0-1", "--length", "10..60"], {"result": "0-1", "plies": "10..60"}),
        (["--player", "hansen"], {"player": "hansen"}),
        (["--date", "2003..2003.02"], {"date_from": "2003", "date_to": "2003.02"}),
    ],
)
def test_a_web_search_and_find_go_through_the_service(
    archive: tuple[Path, Path], calls: dict[str, int], cli_filters: list[str], form: dict[str, str]
) -> None:
    arch, db = archive
    result = CliRunner().invoke(
        cli, ["find", "--db", str(db), *cli_filters, "--sort", "length", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    by_find = [
        (game["plies"], game["players"][0], game["players"][1])
        for game in json.loads(result.output)
    ]
    assert by_find
    assert calls == {"query_of": 1, "find": 1, "search": 0, "sql": 1}
    page = client(db).get("/", params={**form, "sort": "length"})
    assert page.status_code == 200
    assert calls == {"query_of": 2, "find": 1, "search": 1, "sql": 2}
    cells = re.findall(
        r'<a href="/games/\d+">([^<]*) – ([^<]*)</a>.*?<td class="number">(\d+)</td>',
        page.text,
        re.S,
    )
    by_web = [(int(plies), first, second) for first, second, plies in cells]
    assert sorted(by_web) == sorted(by_find)


# -- stats, crosstable and ratings choose a player's games as find does --------------


@pytest.fixture(scope="module")
def people(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    from people_archive import make_people_archive

    folder = make_people_archive(tmp_path_factory.mktemp("door-people"))
    db = folder.parent / "people.sqlite"
    result = CliRunner().invoke(cli, ["index", str(folder), "--db", str(db), "-q"])
    assert result.exit_code == 0, result.output
    return folder, db


def answer(*args: str) -> Any:
    """The JSON a command writes, and its exit status (1: nothing to count)."""
    result = CliRunner().invoke(cli, [*args, "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout), result.exit_code


@pytest.mark.parametrize("typed", ["Muller", "mueller", "Anna Mu\u0308ller", "Soren", "Yilmaz"])
@pytest.mark.parametrize("command", ["stats", "crosstable", "ratings"])
def test_a_scan_and_the_index_choose_the_same_games_of_a_player(
    people: tuple[Path, Path], typed: str, command: str
) -> None:
    folder, db = people
    by_find = answer("find", str(folder), "--scan", "--player", typed)
    assert by_find == answer("find", str(folder), "--db", str(db), "--player", typed)
    scanned = answer(command, str(folder), "--scan", "--player", typed)
    indexed = answer(command, str(folder), "--db", str(db), "--player", typed)
    assert scanned == indexed
    if command == "stats":
        assert scanned[0]["games"] == len(by_find[0]) > 0


def test_dupes_warns_of_a_changed_file_as_find_does(tmp_path: Path) -> None:
    arch = tmp_path / "good"
    shutil.copytree(SAMPLES, arch)
    db = tmp_path / "good.sqlite"
    assert CliRunner().invoke(cli, ["index", str(arch), "--db", str(db), "-q"]).exit_code == 0
    changed = arch / "hexalit-kassel-1998.hxl"
    changed.write_bytes(changed.read_bytes() + b"\n")
    warning = (
        f"warning: 1 file changed or gone since {db} was indexed ({changed}): the answers are "
        f"what the index holds; run `hexhop index {arch} --db {db}` again\n"
    )
    for command in ("find", "dupes"):
        result = CliRunner().invoke(cli, [command, str(arch), "--db", str(db), "-q"])
        assert result.stderr == warning, command
