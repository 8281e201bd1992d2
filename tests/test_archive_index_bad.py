"""Bad input for index, find and dupes: a corrupt
or foreign SQLite file, a newer schema, a locked database, an archive that
changes while it is indexed, malformed filters. Each is a clear message and
exit 2, never a traceback, and the index is left as it was."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from archive_helpers import GOOD, make_archive, run

import hexhop.archive.facts as facts_module
import hexhop.archive.index as index_module


@pytest.fixture
def arch(tmp_path: Path) -> Path:
    arch = tmp_path / "arch"
    shutil.copytree(GOOD, arch)
    return arch


@pytest.fixture
def db(arch: Path, tmp_path: Path) -> Path:
    db = tmp_path / "x.sqlite"
    assert run("index", arch, "--db", db).exit_code == 0
    return db


def _refused(args: list[object], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def _intact(db: Path) -> None:
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert connection.execute("SELECT count(*) FROM games").fetchone() == (6,)


def test_a_file_that_is_not_sqlite_is_left_alone(arch: Path, tmp_path: Path) -> None:
    bad = tmp_path / "notes.sqlite"
    bad.write_bytes(b"my notes, not a database\n" * 100)
    before = bad.read_bytes()
    message = "is damaged or not an SQLite database (file is not a database)"
    _refused(["index", arch, "--db", bad], message)
    _refused(["find", "--db", bad, "--player", "x"], message)
    _refused(["dupes", "--db", bad], message)
    assert bad.read_bytes() == before


def test_a_damaged_index_is_told_not_trusted(db: Path) -> None:
    data = bytearray(db.read_bytes())
    page = 4096
    data[page : len(data) - page] = b"\xff" * (len(data) - 2 * page)
    db.write_bytes(bytes(data))
    _refused(["find", "--db", db, "--player", "anna"], "is damaged or not an SQLite database")
    _refused(["dupes", "--db", db], "is damaged or not an SQLite database")


def test_a_foreign_database_is_refused(arch: Path, tmp_path: Path) -> None:
    foreign = tmp_path / "shop.sqlite"
    with sqlite3.connect(foreign) as connection:
        connection.execute("CREATE TABLE orders (id INTEGER)")
    before = foreign.read_bytes()
    message = "shop.sqlite is an SQLite database but not a hexhop index"
    _refused(["index", arch, "--db", foreign], message)
    _refused(["find", "--db", foreign, "--player", "x"], message)
    assert foreign.read_bytes() == before


def test_an_index_of_a_newer_hexhop_is_refused(arch: Path, db: Path) -> None:
    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA user_version = 9")
    before = db.read_bytes()
    message = "was written by a newer hexhop (index schema 9; this hexhop reads schema 6)"
    _refused(["index", arch, "--db", db], message)
    _refused(["find", "--db", db, "--player", "anna"], message)
    assert db.read_bytes() == before


@pytest.mark.parametrize("version", [1, 2, 3])
def test_an_index_of_an_older_schema_is_refused_with_what_to_do(
    arch: Path, db: Path, version: int
) -> None:
    """Schema 2 keeps the actions after the opening as plain text (schema 1
    kept them all compressed); schema 3 adds the positions_new table (schema
    2 has none, and a hexhop reading schema 2 would not see the positions
    waiting there): an older index is told to be rebuilt in a new file, by
    every command, and is left as it was."""
    with sqlite3.connect(db) as connection:
        connection.execute(f"PRAGMA user_version = {version}")
    before = db.read_bytes()
    message = f"was written by an older hexhop (index schema {version}): index into a new file"
    for args in (
        ["index", arch, "--db", db],
        ["find", "--db", db, "--player", "anna"],
        ["dupes", "--db", db],
        ["stats", "--db", db],
    ):
        _refused(args, message)
    assert db.read_bytes() == before


def test_a_locked_index(arch: Path, db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(index_module, "BUSY_SECONDS", 0.05)
    (arch / "new.hxl").write_bytes((GOOD / "hexalit-kassel-1998.hxl").read_bytes())
    other = sqlite3.connect(db, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another indexer is writing
        _refused(["index", arch, "--db", db], "is locked by another program")
        other.execute("ROLLBACK")
        other.execute("PRAGMA journal_mode = DELETE")
        other.execute("BEGIN EXCLUSIVE")  # no reader gets in either
        _refused(["find", "--db", db, "--player", "anna"], "is locked by another program")
        other.execute("ROLLBACK")
    finally:
        other.close()
    _intact(db)
    assert run("index", arch, "--db", db).exit_code == 0


def test_a_file_that_changes_while_it_is_indexed(
    arch: Path, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trigeo = arch / "trigeo-goettingen-1999.trg"
    trigeo.write_bytes(trigeo.read_bytes().replace(b"Ute Sommer", b"Ute Sommerfeld"))
    replay = facts_module.part_facts

    def replay_while_it_changes(part, options):  # type: ignore[no-untyped-def]
        if part.path == str(trigeo):
            with trigeo.open("ab") as file:
                file.write(b"\n")
        return replay(part, options)

    monkeypatch.setattr(facts_module, "part_facts", replay_while_it_changes)
    _refused(
        ["index", arch, "--db", db],
        f"{trigeo} changed while it was indexed: its games were not written; "
        "run hexhop index again",
    )
    _intact(db)  # the old games of the file are still there
    found = run("find", "--db", db, "--player", "Ute Sommer", "--format", "jsonl")
    assert len(found.stdout.splitlines()) == 1
    monkeypatch.undo()
    assert run("index", arch, "--db", db).exit_code == 0
    found = run("find", "--db", db, "--player", "sommerfeld", "--format", "jsonl")
    assert len(found.stdout.splitlines()) == 1


def test_export_from_a_file_changed_since_it_was_indexed(
    db: Path, arch: Path, tmp_path: Path
) -> None:
    kassel = arch / "hexalit-kassel-1998.hxl"
    kassel.write_bytes(kassel.read_bytes() + b"\n")
    out = tmp_path / "out.hxl"
    _refused(
        ["find", "--db", db, "--player", "berger", "--export", out],
        f"{kassel} changed or is gone since it was indexed: run hexhop index again",
    )
    assert not out.exists()


def test_no_index_where_one_is_asked_for(tmp_path: Path) -> None:
    _refused(["find", "--db", tmp_path / "none.sqlite", "--player", "x"], "no index at")
    _refused(["find", "--db", tmp_path, "--player", "x"], "is not a file")


BAD_FILTERS = [
    (
        ["--position", "N: A7=1; turn: N", "--game", "Hexalit"],
        "--position 'N: A7=1; turn: N' is not a position: the South dice are missing",
    ),
    (["--position", "R: z9; T: a1"], "is not a position: Hexalit, Trigeo: expected 'N:'"),
    (
        ["--position", "R: a1", "--game", "Hüpfer", "--board", "7x7"],
        "--board '7x7': expected one of 6x6, 8x8, 10x10",
    ),
    (["--length", "10..x"], "--length '10..x': expected MIN..MAX, e.g. 20..60"),
    (["--length", "60..20"], "--length '60..20': expected MIN..MAX with 0 <= MIN <= MAX"),
    (["--date", "1998.3..1999"], "--date '1998.3..1999': expected FROM..TO with dates like 1998"),
    (["--date", "2001..1999"], "--date '2001..1999': FROM is after TO"),
    (["--date", ".."], "--date '..': give at least one date"),
    (["--tag", "Event"], "--tag 'Event': expected KEY=VALUE"),
    (["--result", "2-0"], "--result '2-0': expected 1-0, 0-1 or *"),
    (["--winner", "Blue"], "--winner 'Blue': expected one of"),
    (["--finding", "ZZ99"], "--finding 'ZZ99': no such code"),
    (["--after", "B4W3 ("], "--after 'B4W3 (':"),
    (["--after", "{just a comment}"], "give at least one action"),
    (["--player", " "], "--player: give a name"),
]


@pytest.mark.parametrize(
    ("args", "message"), BAD_FILTERS, ids=[" ".join(a) for a, _ in BAD_FILTERS]
)
def test_malformed_filters(db: Path, args: list[str], message: str) -> None:
    before = db.read_bytes()
    _refused(["find", "--db", db, *args], message)
    assert db.read_bytes() == before


def test_a_whole_archive_with_one_unreadable_member(tmp_path: Path) -> None:
    arch = make_archive(tmp_path)
    (arch / "broken.zip").write_bytes(b"PK\x03\x04 not really a zip")
    result = run("index", arch, "--db", tmp_path / "x.sqlite")
    assert result.exit_code == 2
    assert "broken.zip: cannot read the archive" in result.stderr
    found = run("find", "--db", tmp_path / "x.sqlite", "--player", "muller", "--format", "jsonl")
    assert len(found.stdout.splitlines()) == 2
