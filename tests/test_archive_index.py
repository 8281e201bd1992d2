"""``hexhop index``: the SQLite index, incremental runs,
a transaction per file, -j, and the Zobrist keys of positions."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from archive_helpers import make_archive, run

import hexhop
from hexhop.archive.facts import signed
from hexhop.archive.index import APPLICATION_ID, SCHEMA_VERSION, Indexer, open_index
from hexhop.engine.games import rules_for
from hexhop.engine.zobrist import position_key, position_keys
from hexhop.records.checking import CheckOptions


@pytest.fixture
def arch(tmp_path: Path) -> Path:
    return make_archive(tmp_path)


def _games(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as connection:
        return connection.execute(
            "SELECT f.path, g.number, g.line, g.offset, g.length, g.game, g.board, g.valid,"
            " g.codes, g.winner, g.end_ply, g.plies, g.first, g.second, g.opening"
            " FROM games g JOIN files f ON f.id = g.file ORDER BY f.seq, g.number"
        ).fetchall()


def test_index_holds_every_game_with_its_facts(arch: Path, tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite"
    result = run("index", arch, "--db", db)
    assert result.exit_code == 0, result.output
    assert "Indexed 9 of 9 files (0 unchanged, 0 gone): 22 games" in result.output
    games = _games(db)
    assert len(games) == 22
    club = [g for g in games if g[0].endswith("club.hxl")]
    assert [(g[1], g[2], g[12], g[13], g[14]) for g in club] == [
        (1, 1, "Jürgen Müller", "Anna Berger", "B4W3 D7W1 A5XB2"),
        (2, 10, "Jurgen Muller", "Zoë Brandt", "B4W3 D7W1 A5XB2"),
        (3, 19, "Karl Brandt", "Ute Sommer", "C7°D7 E6°D7"),
    ]
    data = (arch / "club.hxl").read_bytes()
    # offsets and lengths cut the file into the games' own bytes (CRLF kept)
    assert b"".join(data[g[3] : g[3] + g[4]] for g in club) == data
    kassel = next(g for g in games if g[0].endswith("hexalit-kassel-1998.hxl"))
    assert kassel[5:12] == ("Hexalit", None, 1, "", "South", 42, 42)
    member = next(g for g in games if g[0].endswith("old.zip:1999/trigeo.trg"))
    assert member[5] == "Trigeo"
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert connection.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_index_keeps_a_key_of_every_position_of_the_main_line(arch: Path, tmp_path: Path) -> None:
    db = tmp_path / "x.sqlite"
    run("index", arch / "good" / "huepfer-8x8-bremen-2003.hpf", "--db", db)
    game = next(iter(hexhop.read_games(arch / "good" / "huepfer-8x8-bremen-2003.hpf")))
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT ply, key FROM positions ORDER BY ply").fetchall()
    assert rows == [(ply, signed(position_key(p)) >> 16) for ply, p in enumerate(game.positions)]
    assert len(rows) == 34


def test_zobrist_keys_are_fixed_and_found_incrementally_the_same() -> None:
    hexalit = rules_for("Hexalit").start({}, None)
    # the documented scheme (docs/archive.md) pins the numbers
    assert position_key(hexalit) == 0x13CAB41990889431
    assert position_key(rules_for("Trigeo").start({}, None)) != position_key(hexalit)
    for path in sorted(Path(__file__).resolve().parent.parent.glob("samples/good/*")):
        for game in hexhop.read_games(path):
            full = [position_key(p) for p in game.positions]
            assert position_keys(game.positions) == full
            assert len(set(full)) == len(full)  # no game repeats a position here


def test_a_second_run_reads_only_what_changed_and_drops_what_is_gone(
    arch: Path, tmp_path: Path
) -> None:
    db = tmp_path / "x.sqlite"
    assert run("index", arch, "--db", db).exit_code == 0
    again = run("index", arch, "--db", db)
    assert "Indexed 0 of 9 files (9 unchanged, 0 gone): 0 games" in again.output
    club = arch / "club.hxl"
    club.write_bytes(club.read_bytes().replace(b"Karl Brandt", b"Karla Brandt"))
    (arch / "good" / "hexalit-kassel-1998.hxl").unlink()
    third = run("index", arch, "--db", db)
    assert "Indexed 1 of 8 files (7 unchanged, 1 gone): 3 games" in third.output
    names = [g[12] for g in _games(db)]
    assert "Karla Brandt" in names and "Karl Brandt" not in names
    assert len(names) == 21
    with sqlite3.connect(db) as connection:
        orphans = connection.execute(
            "SELECT count(*) FROM positions WHERE game NOT IN (SELECT id FROM games)"
        ).fetchone()
        tags = connection.execute(
            "SELECT count(*) FROM tags WHERE game NOT IN (SELECT id FROM games)"
        ).fetchone()
    assert orphans == (0,) and tags == (0,)


def test_default_database_is_in_the_archive_folder(arch: Path) -> None:
    result = run("index", arch)
    assert result.exit_code == 0
    assert (arch / "hexhop.sqlite").is_file()
    # and find uses it by itself
    found = run("find", arch, "--player", "ohlsen", "--format", "jsonl")
    assert found.exit_code == 0
    assert len(found.stdout.splitlines()) == 3


def test_an_interrupted_run_keeps_the_files_written_before(arch: Path, tmp_path: Path) -> None:
    db = tmp_path / "x.sqlite"
    connection = open_index(str(db), create=True)
    seen: list[str] = []

    def stop_at_third(path: str) -> None:
        seen.append(path)
        if len(seen) == 3:
            raise KeyboardInterrupt

    indexer = Indexer(connection, str(db), CheckOptions(), changed=stop_at_third)
    with pytest.raises(KeyboardInterrupt):
        for _ in indexer.run([str(arch)]):
            pass
    connection.close()
    with sqlite3.connect(db) as check:
        assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        files = [row[0] for row in check.execute("SELECT path FROM files ORDER BY seq")]
    assert files == seen[:2]
    # the next run completes it
    assert "Indexed 7 of 9 files (2 unchanged" in run("index", arch, "--db", db).output


def test_two_processes_give_the_same_index(arch: Path, tmp_path: Path) -> None:
    run("index", arch, "--db", tmp_path / "one.sqlite")
    result = run("index", "-j", "2", arch, "--db", tmp_path / "two.sqlite")
    assert result.exit_code == 0, result.output
    assert _games(tmp_path / "one.sqlite") == _games(tmp_path / "two.sqlite")
    queries = "SELECT key, ply FROM positions ORDER BY key, ply"
    with (
        sqlite3.connect(tmp_path / "one.sqlite") as a,
        sqlite3.connect(tmp_path / "two.sqlite") as b,
    ):
        assert a.execute(queries).fetchall() == b.execute(queries).fetchall()


def test_unreadable_files_are_told_and_the_rest_indexed(arch: Path, tmp_path: Path) -> None:
    (arch / "binary.hxl").write_bytes(b"\x00\x01 not a record")
    result = run("index", arch, "--db", tmp_path / "x.sqlite")
    assert result.exit_code == 2
    assert "binary.hxl is not a text file (it contains binary data)" in result.output
    assert len(_games(tmp_path / "x.sqlite")) == 22
    with sqlite3.connect(tmp_path / "x.sqlite") as connection:
        error = connection.execute(
            "SELECT error FROM files WHERE path LIKE '%binary.hxl'"
        ).fetchone()
    assert json.loads(error[0])["code"] == "IO02"
