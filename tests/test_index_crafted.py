"""An index file made by someone else, to break hexhop (README "Safety and
limits"): values hexhop never writes, tables without constraints, views
and triggers that never end, a huge value. Each command ends in seconds
with exit 2 and a message, never a traceback, and the index stays as it was.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest
from archive_helpers import GOOD, run
from safety_runner import shared

from hexhop.archive.index import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    IndexProblem,
    guard,
    guarded_rows,
)

SECONDS = 30  # generous: each command must end long before
COMMANDS = {
    "find": ["find", "--player", "a"],
    "find-export": ["find", "--player", "a", "--export", "{tmp}/out.hxl"],
    "stats": ["stats"],
    "dupes": ["dupes"],
    "dupes-export": ["dupes", "--export", "{tmp}/out.hxl"],
    "index": ["index", str(GOOD)],
}
DAMAGED = "is damaged or was not made by hexhop"
FOREVER = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"
# every game's actions hashed alike: dupes (without --export) reads the
# rows of the games whose hash another shares, so now every row
SHARED = "UPDATE games SET moves = 1"


@pytest.fixture(scope="module")
def good_index(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    db = tmp_path_factory.mktemp("index") / "x.sqlite"
    assert run("index", GOOD, "--db", db).exit_code == 0
    return db.read_bytes()


def _craft(tmp_path: Path, good_index: bytes, *statements: str) -> Path:
    db = tmp_path / "x.sqlite"
    db.write_bytes(good_index)
    connection = sqlite3.connect(db, isolation_level=None)
    try:
        for statement in statements:
            connection.execute(statement)
    finally:
        connection.close()
    return db


def _hexhop(*args: str, timeout: float = SECONDS) -> subprocess.CompletedProcess[str]:
    return shared().complete(list(args), text=True, timeout=timeout)


def _refused(db: Path, commands: list[str], message: str = DAMAGED) -> None:
    before = db.read_bytes()
    files = sorted(os.listdir(db.parent))
    for name in commands:
        args = [a.format(tmp=db.parent) for a in COMMANDS[name]]
        done = _hexhop(*args, "--db", str(db))
        assert done.returncode == 2, (name, done.stdout, done.stderr)
        assert message in done.stderr, (name, done.stderr)
        assert "Traceback" not in done.stderr, (name, done.stderr)
        assert db.read_bytes() == before, name
        assert sorted(os.listdir(db.parent)) == files, name  # no export, no temporary file


def _loosened(db: Path, table: str, *statements: str) -> Path:
    """``db`` with ``statements`` run on ``table`` as though it had no NOT
    NULL constraints: its text in the schema is changed by hand without
    them, the statements run, and hexhop's own text is written back. The
    schema reads as hexhop's (its tables, indexes and their SQL), the rows
    are not."""
    with closing(sqlite3.connect(db, isolation_level=None)) as connection:
        [original] = connection.execute(
            "SELECT sql FROM sqlite_master WHERE name = ?", (table,)
        ).fetchone()
        connection.execute("PRAGMA writable_schema = ON")
        connection.execute(
            "UPDATE sqlite_master SET sql = replace(sql, ' NOT NULL', '') WHERE name = ?",
            (table,),
        )
    with closing(sqlite3.connect(db, isolation_level=None)) as connection:
        for statement in statements:
            connection.execute(statement)
        connection.execute("PRAGMA writable_schema = ON")
        connection.execute("UPDATE sqlite_master SET sql = ? WHERE name = ?", (original, table))
    return db


@pytest.mark.slow  # several commands a case: the whole suite runs it
def test_a_path_hexhop_never_writes(tmp_path: Path, good_index: bytes) -> None:
    db = _craft(tmp_path, good_index, SHARED, "UPDATE files SET path = char(0) || 'zz'")
    _refused(db, ["find", "stats", "dupes", "dupes-export"])
    db = _craft(tmp_path, good_index, SHARED, "UPDATE files SET real = char(0) || 'zz' || id")
    _refused(db, ["find", "stats", "index", "dupes", "dupes-export"])


def test_tables_without_constraints_and_a_null_path(tmp_path: Path, good_index: bytes) -> None:
    statements = [
        "CREATE TABLE loose AS SELECT * FROM files",
        "DROP TABLE files",
        "ALTER TABLE loose RENAME TO files",
        "UPDATE files SET path = NULL",
    ]
    db = _craft(tmp_path, good_index, *statements)
    _refused(
        db, ["find", "find-export", "stats", "dupes", "dupes-export", "index"], "its schema is not"
    )


@pytest.mark.slow  # several commands a case: the whole suite runs it
def test_a_null_path_under_hexhops_own_schema_text(tmp_path: Path, good_index: bytes) -> None:
    db = _loosened(_craft(tmp_path, good_index, SHARED), "files", "UPDATE files SET path = NULL")
    _refused(db, ["find", "find-export", "stats", "dupes", "dupes-export"])
    db = _loosened(_craft(tmp_path, good_index, SHARED), "files", "UPDATE files SET real = NULL")
    _refused(db, ["find", "find-export", "stats", "index", "dupes", "dupes-export"])


def test_the_right_ids_and_no_tables(tmp_path: Path) -> None:
    db = tmp_path / "x.sqlite"
    with sqlite3.connect(db) as connection:
        connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        connection.execute("CREATE TABLE other (x)")
        connection.execute("DROP TABLE other")
    connection.close()
    _refused(db, ["index", "find", "stats", "dupes"], "its schema is not the one hexhop makes")


def test_numbers_that_are_text(tmp_path: Path, good_index: bytes) -> None:
    db = _craft(tmp_path, good_index, SHARED, "UPDATE games SET number = 'abc', plies = 'x'")
    _refused(db, ["stats", "find", "dupes", "dupes-export"])


@pytest.mark.slow  # several commands a case: the whole suite runs it
@pytest.mark.parametrize(
    "table, statement",
    [
        ("games", "UPDATE games SET valid = 'yes'"),
        ("games", "UPDATE games SET length = 2.5"),
        ("games", "UPDATE games SET actions = NULL"),
        ("games", "UPDATE games SET first_key = x'00ff'"),
        ("games", "UPDATE games SET moves = 'x'"),
        ("files", "UPDATE files SET digest = x'00'"),
    ],
    ids=["valid", "length", "actions", "key", "moves", "digest"],
)
def test_values_dupes_reads(tmp_path: Path, good_index: bytes, table: str, statement: str) -> None:
    db = _loosened(_craft(tmp_path, good_index, SHARED), table, statement)
    _refused(db, ["dupes", "dupes-export"])


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(sqlite3.Connection, "setlimit"), reason="Python 3.11+")
def test_a_value_larger_than_any_hexhop_writes(tmp_path: Path, good_index: bytes) -> None:
    db = _craft(
        tmp_path,
        good_index,
        SHARED,
        "UPDATE games SET first = printf('%.*c', 70000000, 'x') WHERE id = 1",
    )
    _refused(db, ["find", "stats", "dupes", "dupes-export"], "larger than 64 MiB")


def test_a_view_that_never_ends_instead_of_games(tmp_path: Path, good_index: bytes) -> None:
    db = _craft(
        tmp_path,
        good_index,
        "CREATE TABLE kept AS SELECT * FROM games",
        "DROP TABLE games",
        f"CREATE VIEW games AS {FOREVER} SELECT kept.* FROM c, kept",
    )
    _refused(db, ["find", "stats", "dupes", "index"], "its schema is not the one hexhop makes")


def test_a_trigger_that_never_ends(tmp_path: Path, good_index: bytes) -> None:
    db = _craft(
        tmp_path,
        good_index,
        "CREATE TABLE junk (x)",
        "CREATE TRIGGER grow AFTER INSERT ON files BEGIN"
        f" INSERT INTO junk {FOREVER} SELECT x FROM c; END",
        "CREATE TRIGGER grow2 AFTER UPDATE ON files BEGIN"
        f" INSERT INTO junk {FOREVER} SELECT x FROM c; END",
    )
    _refused(db, ["index", "find", "stats"], "its schema is not the one hexhop makes")
    assert not os.path.exists(f"{db}-wal") or os.path.getsize(f"{db}-wal") < 1 << 20


def test_a_search_that_takes_too_long_is_stopped() -> None:
    connection = sqlite3.connect(":memory:")
    with (
        pytest.raises(IndexProblem, match="a search took more than 0.2 s"),
        guard(connection, "x.sqlite", 0.2),
    ):
        connection.execute(f"{FOREVER} SELECT count(*) FROM c").fetchone()


# find, with its search of the index made one that never ends (an index
# with hexhop's schema answers fast; a large one may take its time)
CHILD = f"""
import sys
from hexhop.archive.query import Query
from hexhop.cli.main import cli

Query.sql = lambda self: ("({FOREVER} SELECT count(*) FROM c) > 0", [])
print("ready", flush=True)
cli(sys.argv[1:], prog_name="hexhop")
"""
# dupes, with its search of the index made one that never ends (every game
# joined to endless rows, and sorted)
DUPES_CHILD = f"""
import sys
from hexhop.archive import dupes
from hexhop.cli.main import cli

dupes._COLUMNS = "{FOREVER} " + dupes._COLUMNS.replace("FROM games g", "FROM c, games g")
print("ready", flush=True)
cli(sys.argv[1:], prog_name="hexhop")
"""
SEARCHES = {
    "find": (CHILD, ["find", "--player", "a"], "interrupted after 0 games"),
    "dupes": (DUPES_CHILD, ["dupes"], "interrupted before anything was written"),
}


@pytest.mark.slow  # several commands a case: the whole suite runs it
@pytest.mark.parametrize("command", SEARCHES)
@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_stops_a_long_search(
    tmp_path: Path, good_index: bytes, signum: int, code: int, command: str
) -> None:
    db = _craft(tmp_path, good_index)
    program, args, told = SEARCHES[command]
    child = subprocess.Popen(
        [sys.executable, "-c", program, *args, "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "ready\n"
        time.sleep(1.0)  # inside SQLite by now
        child.send_signal(signum)
        _out, err = child.communicate(timeout=SECONDS)
    finally:
        child.kill()
    assert child.returncode == code, err
    assert told in err
    assert "Traceback" not in err


def test_guarded_rows_check_the_types() -> None:
    connection = sqlite3.connect(":memory:")
    rows = guarded_rows(connection, "x.sqlite", "SELECT 'abc'", (), (int,), "games")
    with pytest.raises(IndexProblem, match=r"x.sqlite is damaged .*games\..* holds 'abc'"):
        list(rows)


# ---------------------------------------------------------------- found by fuzz.py --target index


def test_a_schema_whose_text_is_not_utf8(tmp_path: Path, good_index: bytes) -> None:
    """SQLite's message quoted the schema's bytes, and Python could not decode it."""
    db = _craft(tmp_path, good_index)
    with closing(sqlite3.connect(db, isolation_level=None)) as connection:
        [sql] = connection.execute("SELECT sql FROM sqlite_master WHERE name = 'files'").fetchone()
        broken = sql.encode().replace(b" NOT NULL", b" NULL\xff", 1)
        connection.execute("PRAGMA writable_schema = ON")
        connection.execute(
            "UPDATE sqlite_master SET sql = CAST(? AS TEXT) WHERE name = 'files'", (broken,)
        )
    _refused(db, ["find", "stats", "dupes", "index"])


@pytest.mark.parametrize(("seq", "shown"), [("'x'", "'x'"), ("9223372036854775807", "'9223")])
def test_a_sequence_hexhop_never_writes(
    tmp_path: Path, good_index: bytes, seq: str, shown: str
) -> None:
    """index took the next game id from sqlite_sequence: text, or the largest id."""
    db = _craft(
        tmp_path, good_index, f"UPDATE sqlite_sequence SET seq = {seq} WHERE name = 'games'"
    )
    changed = tmp_path / "changed"
    changed.mkdir()
    (changed / "a.hxl").write_bytes((GOOD / "hexalit-kassel-1998.hxl").read_bytes())
    before = db.read_bytes()
    done = _hexhop("index", str(changed), "--db", str(db))
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert DAMAGED in done.stderr and f"sqlite_sequence.seq holds {shown}" in done.stderr
    assert "Traceback" not in done.stderr and db.read_bytes() == before


def test_an_export_beside_a_path_with_nul(tmp_path: Path, good_index: bytes) -> None:
    """--export compares its output with every input, a file of the index too."""
    db = _craft(tmp_path, good_index, "UPDATE files SET path = 'a' || char(0) || 'b'")
    done = _hexhop("find", "--db", str(db), "--player", "a*", "--export", str(tmp_path / "o.hxl"))
    assert done.returncode in (0, 2) and "Traceback" not in done.stderr, done.stderr


def test_a_real_path_with_nul_inside(tmp_path: Path, good_index: bytes) -> None:
    """find --export read the game again from a path no file can have."""
    db = _craft(tmp_path, good_index, "UPDATE files SET real = real || char(0) || 'x'")
    out = tmp_path / "o.hxl"
    done = _hexhop("find", "--db", str(db), "--player", "a*", "--export", str(out))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "changed or is gone since it was indexed" in done.stderr and not out.exists()
