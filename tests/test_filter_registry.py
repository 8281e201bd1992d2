"""A search filter is one entry of ``hexhop.archive.filters.FILTERS``.

The fixture adds a filter to the table for one test (and takes it away
after): the games of an even or odd number of plies. It is then an option
of ``find`` (and ``stats``), a field of the web app's search form and a
keyword of ``Index.find``, matched in a scanned archive and in the index,
without any other module knowing of it.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from serve_helpers import client

import hexhop
from hexhop.archive import filters
from hexhop.archive.query import QueryError
from hexhop.cli.main import cli
from hexhop.notation.numbers import ascii_int

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "good"
PARITIES = {"even": 0, "odd": 1}


def parity(text: Any) -> int:
    """``even`` or ``odd`` (or 0 or 1): the remainder of the plies by two."""
    value = PARITIES.get(str(text).strip().lower())
    if value is None:
        value = ascii_int(str(text))
    if value not in (0, 1):
        raise QueryError(f"--parity {text!r}: expected even or odd")
    return value


@pytest.fixture
def added(monkeypatch: pytest.MonkeyPatch) -> filters.Filter:
    entry = filters.Filter(
        "parity",
        "--parity",
        "Games of an even or odd number of plies.",
        metavar="EVEN|ODD",
        label="Plies even or odd",
        parse=parity,
        python=lambda game, value: game.plies % 2 == value,
        sql=lambda value: ("g.plies % 2 = ?", [value]),
    )
    monkeypatch.setitem(filters.FILTERS, entry.name, entry)
    return entry


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("parity")
    arch = root / "good"
    shutil.copytree(SAMPLES, arch)
    db = root / "good.sqlite"
    result = CliRunner().invoke(cli, ["index", str(arch), "--db", str(db), "-q"])
    assert result.exit_code == 0, result.output
    return arch, db


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def every_game(arch: Path) -> list[dict[str, Any]]:
    code, out = run("find", str(arch), "--scan", "--format", "json")
    assert code == 0, out
    games: list[dict[str, Any]] = json.loads(out)
    return games


def test_without_the_entry_there_is_no_parity_filter(archive: tuple[Path, Path]) -> None:
    code, out = run("find", str(archive[0]), "--parity", "even")
    assert code == 2
    assert "Error: No such option '--parity'." in out
    with hexhop.open_index(archive[1]) as index, pytest.raises(QueryError) as caught:
        index.find(parity="even")
    assert str(caught.value).startswith("unknown filter parity: expected one of ")


@pytest.mark.parametrize("command", ["find", "stats", "crosstable", "ratings"])
def test_the_commands_help_lists_it(added: filters.Filter, command: str) -> None:
    code, out = run(command, "--help")
    assert code == 0
    assert re.search(r"--parity EVEN\|ODD\s+Games of an even or odd number of plies\.", out)


@pytest.mark.parametrize("where", ["--scan", "--db"])
def test_find_finds_its_games(
    added: filters.Filter, archive: tuple[Path, Path], where: str
) -> None:
    arch, db = archive
    expected = [game for game in every_game(arch) if game["plies"] % 2 == 1]
    assert 0 < len(expected) < len(every_game(arch))
    source = ["--scan"] if where == "--scan" else ["--db", str(db)]
    code, out = run("find", str(arch), *source, "--parity", "odd", "--format", "json")
    assert code == 0, out
    assert json.loads(out) == expected


def test_a_value_it_cannot_read_is_a_usage_error(
    added: filters.Filter, archive: tuple[Path, Path]
) -> None:
    code, out = run("find", str(archive[0]), "--scan", "--parity", "sometimes")
    assert (code, out) == (2, "Error: --parity 'sometimes': expected even or odd\n")


def test_stats_counts_its_games(added: filters.Filter, archive: tuple[Path, Path]) -> None:
    arch, db = archive
    even = [game for game in every_game(arch) if game["plies"] % 2 == 0]
    code, out = run("stats", str(arch), "--db", str(db), "--parity", "even", "--format", "json")
    assert code == 0, out
    assert json.loads(out)["games"] == len(even)


def test_the_api_finds_its_games(added: filters.Filter, archive: tuple[Path, Path]) -> None:
    arch, db = archive
    expected = [game for game in every_game(arch) if game["plies"] % 2 == 0]
    with hexhop.open_index(db) as index:
        found = [hit.as_json() for hit in index.find(parity="even")]
    assert [(g["path"], g["index"]) for g in found] == [(g["path"], g["index"]) for g in expected]


def test_the_web_form_has_it_and_finds_its_games(
    added: filters.Filter, archive: tuple[Path, Path]
) -> None:
    arch, db = archive
    expected = sorted(
        (game["plies"], game["players"][0]) for game in every_game(arch) if game["plies"] % 2
    )
    app = client(db)
    form = app.get("/")
    assert form.status_code == 200
    assert re.search(
        r'<label>Plies even or odd<input type="text" name="parity" value=""', form.text
    )
    page = app.get("/", params={"parity": "odd", "sort": "length"})
    assert page.status_code == 200
    assert f'<p class="count" id="count">{len(expected)} games</p>' in page.text
    assert 'name="parity" value="odd"' in page.text
    plies = [int(n) for n in re.findall(r'<td class="number">(\d+)</td>', page.text)]
    assert plies == [n for n, _name in expected]
    bad = app.get("/", params={"parity": "sometimes"})
    assert bad.status_code == 400
    assert "--parity &#39;sometimes&#39;: expected even or odd" in bad.text


@pytest.mark.parametrize(("old", "key"), [("players", "player"), ("plies", "length")])
def test_one_set_of_sort_keys_with_the_old_spellings(
    archive: tuple[Path, Path], old: str, key: str
) -> None:
    arch, db = archive
    assert filters.SORT_KEYS == ("archive", "date", "player", "event", "length")
    assert filters.sort_key(old) == key
    by_key = run("find", "--db", str(db), "--sort", key, "--format", "json")
    assert by_key == run("find", "--db", str(db), "--sort", old, "--format", "json")
    assert by_key[0] == 0
    app = client(db)
    body = re.compile(r"<tbody>.*</tbody>", re.S)
    old_page, new_page = (app.get("/", params={"sort": name}).text for name in (old, key))
    assert body.search(old_page).group() == body.search(new_page).group()  # type: ignore[union-attr]
    assert 'class="sorted"' in new_page.split(f"sort=-{key}")[1][:40]


def test_the_forms_own_filters_are_keywords_of_the_api(archive: tuple[Path, Path]) -> None:
    arch, db = archive

    def places(hits: list[Any]) -> list[tuple[str, int]]:
        return [(hit.path, hit.number) for hit in hits]

    with hexhop.open_index(db) as index:
        assert places(index.find(event="kassel")) == places(index.find(tag="Event=*kassel*"))
        assert places(index.find(site="bremen")) == places(index.find(tag="Site=*bremen*"))
        assert places(index.find(opponent="keller")) == places(index.find(player="keller"))
        assert places(index.find(length="..30")) == places(index.find(plies="..30"))
        assert len(index.find(event="kassel")) == 1
        with pytest.raises(QueryError) as caught:
            index.find(plies="many")
    assert str(caught.value) == "plies 'many': expected MIN..MAX, e.g. 20..60"
