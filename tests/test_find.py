"""``hexhop find``: every filter, from the index and
straight from the archive with the same results, the output formats and
--export byte for byte."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from archive_helpers import make_archive, run

import hexhop


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("find")
    arch = make_archive(root)
    db = root / "arch.sqlite"
    assert run("index", arch, "--db", db).exit_code == 0
    return arch, db


def _found(arch: Path, db: Path | None, *query: str) -> tuple[int, list[dict]]:
    source = ("--db", db) if db else ("--scan",)
    result = run("find", arch, *source, *query, "--format", "jsonl")
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, [json.loads(line) for line in result.stdout.splitlines()]


def _where(games: list[dict]) -> list[str]:
    return [f"{Path(g['path'].split(':')[0]).name}#{g['index']}" for g in games]


RANDOM_2 = "R: a1 b1 c3 d1 d2; T: e3 e4 e5 f5 f6; reserve: 11/11; turn: R"

QUERIES = [
    (("--player", "muller"), ["club.hxl#1", "club.hxl#2"]),
    (("--player", "MÜLLER"), ["club.hxl#1", "club.hxl#2"]),
    (
        ("--player", "brandt", "--player", "sommer"),
        ["club.hxl#3", "old.zip#1", "trigeo-goettingen-1999.trg#1"],
    ),
    (("--player", "brandt", "--player", "berger"), []),
    (("--player", "jü*"), ["club.hxl#1", "club.hxl#2"]),
    (("--player", "j*r"), ["hexalit-kassel-1998.hxl#1", "club.hxl#1", "club.hxl#2"]),
    (("--player", "anna"), ["hexalit-kassel-1998.hxl#1", "club.hxl#1"]),
    (("--north", "karl brandt"), ["club.hxl#3"]),
    (("--south", "karl brandt"), ["old.zip#1", "trigeo-goettingen-1999.trg#1"]),
    (("--red", "karl brandt"), []),
    (
        ("--turquoise", "ohlsen"),
        [
            "huepfer-10x10-bremen-2003.hpf#1",
            "huepfer-6x6-bremen-2003.hpf#1",
            "huepfer-8x8-bremen-2003.hpf#1",
        ],
    ),
    (("--tag", "Event=verein*"), ["club.hxl#1", "club.hxl#2"]),
    (("--tag", "site=kassel"), ["hexalit-kassel-1998.hxl#1"]),
    (("--tag", "Event=Verein"), []),
    (
        ("--result", "0-1", "--game", "Hüpfer", "--length", "..12"),
        ["random.hpf#3", "random.hpf#7", "random.hpf#11"],
    ),
    (
        ("--winner", "red", "--length", "13..25"),
        ["huepfer-6x6-bremen-2003.hpf#1", "random.hpf#6", "random.hpf#9"],
    ),
    (("--date", "2004.06..2005"), ["club.hxl#2", "club.hxl#3"]),
    (("--date", "2001"), ["hexalit-newsletter-study.hxl#1"]),
    (("--date", "2001.05..2001.12"), []),
    (("--game", "trigeo"), ["club.hxl#3", "old.zip#1", "trigeo-goettingen-1999.trg#1"]),
    (("--invalid",), []),
    (("--finding", "NT01", "--valid"), []),
    (("--after", "1. a2-c2@c3 e6-e4@e3"), ["random.hpf#1", "random.hpf#5"]),
    (("--after", "B4W3 D7W1 2. A5XB2"), ["hexalit-kassel-1998.hxl#1", "club.hxl#1", "club.hxl#2"]),
    (
        ("--after", "C7°D7", "--player", "sommer"),
        ["club.hxl#3", "old.zip#1", "trigeo-goettingen-1999.trg#1"],
    ),
]


@pytest.mark.parametrize(("query", "expected"), QUERIES, ids=[" ".join(q) for q, _ in QUERIES])
def test_index_and_archive_find_the_same_games(
    indexed: tuple[Path, Path], query: tuple[str, ...], expected: list[str]
) -> None:
    arch, db = indexed
    code, from_index = _found(arch, db, *query)
    scan_code, from_archive = _found(arch, None, *query)
    assert from_index == from_archive
    assert sorted(_where(from_index)) == sorted(expected)
    assert code == scan_code == (0 if expected else 1)


def test_position_search_gives_the_ply(indexed: tuple[Path, Path]) -> None:
    arch, db = indexed
    games = list(hexhop.read_games(arch / "random.hpf"))
    text = games[0].positions[2].text()
    for source in (db, None):
        code, found = _found(arch, source, "--position", text)
        assert code == 0
        assert [(g["index"], g["ply"]) for g in found] == [(1, 2), (5, 2)]
    start = rules_start = "R: a1 a2 b1 b2; T: e5 e6 f5 f6; reserve: 12/12; turn: R"
    code, found = _found(arch, db, "--position", start, "--board", "6x6")
    assert {g["ply"] for g in found} == {0} and len(found) == 13
    assert rules_start == start
    code, found = _found(arch, db, "--position", games[0].positions[5].text(), "--board", "8x8")
    assert (code, found) == (1, [])


def test_table_and_csv_output(indexed: tuple[Path, Path]) -> None:
    arch, db = indexed
    table = run("find", "--db", db, "--player", "muller").stdout.splitlines()
    assert table[0].split() == ["players", "result", "date", "event", "plies", "where"]
    assert table[1].startswith("Jürgen Müller – Anna Berger")
    assert table[1].endswith("arch/club.hxl:1")
    rows = list(
        csv.reader(
            io.StringIO(run("find", "--db", db, "--player", "muller", "--format", "csv").stdout)
        )
    )
    assert rows[0][:6] == ["path", "index", "line", "game", "first", "second"]
    assert rows[2][1:6] == ["2", "10", "Hexalit", "Jurgen Muller", "Zoë Brandt"]
    whole = json.loads(run("find", "--db", db, "--game", "Trigeo", "--format", "json").stdout)
    assert [g["game"] for g in whole] == ["Trigeo"] * 3
    none = run("find", "--db", db, "--player", "nobody")
    assert (none.exit_code, none.stdout, none.stderr) == (1, "", "no game matched\n")


def test_export_writes_each_games_own_bytes(indexed: tuple[Path, Path], tmp_path: Path) -> None:
    arch, db = indexed
    club = (arch / "club.hxl").read_bytes()
    out = tmp_path / "muller.hxl"
    result = run("find", "--db", db, "--player", "muller", "--export", out)
    assert result.exit_code == 0 and "wrote 2 games to" in result.stderr
    assert out.read_bytes() == club[: club.index(b'[Game "Trigeo"]')]
    scanned = tmp_path / "scanned.hxl"
    run("find", arch, "--scan", "--player", "muller", "--export", scanned)
    assert scanned.read_bytes() == out.read_bytes()
    # from a zip member, and games of several files one after the other
    trigeo = tmp_path / "trigeo.trg"
    assert run("find", "--db", db, "--game", "Trigeo", "--export", trigeo).exit_code == 0
    sample = (arch / "good" / "trigeo-goettingen-1999.trg").read_bytes()
    third = club[club.index(b'[Game "Trigeo"]') :]
    # a blank line after a game that has none, so that the next one starts cleanly
    assert trigeo.read_bytes() == third + b"\n" + sample + b"\n" + sample + b"\n"
    assert len(list(hexhop.read_games(trigeo))) == 3
    again = run("find", "--db", db, "--game", "Trigeo", "--export", trigeo)
    assert again.exit_code == 2 and "exists; use --force" in again.output
    canonical = tmp_path / "canonical.hxl"
    run("find", "--db", db, "--player", "muller", "--export", canonical, "--canonical")
    text = canonical.read_text("utf-8")
    assert "\r" not in text and "1. B4W3 D7W1 2. A5XB2 *" in text and "{same moves}" in text


def test_a_search_of_the_index_by_player_starts_without_the_reader(
    indexed: tuple[Path, Path],
) -> None:
    """The 0.2 s answer needs a light start: no grammar, no rules."""
    _, db = indexed
    code = (
        "import sys\n"
        "from hexhop.cli.main import cli\n"
        "try:\n"
        f"    cli(['find', '--db', {str(db)!r}, '--player', 'muller'])\n"
        "except SystemExit as done:\n"
        "    print(done.code, sorted(m for m in ('lark', 'hexhop.engine.replay') if m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.splitlines()[-1] == "0 []"
