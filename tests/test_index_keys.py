"""The index keeps each side's player key (schema 6): an index of schema 5
is read as it lies, its keys worked out as it is read, and ``index``
brings it up to 6 in place, with the keys of the names file."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from archive_helpers import run
from people_archive import ANNA, games_of, make_people_archive


def as_schema_5(db: Path) -> None:
    """The index as hexhop made it before the player keys."""
    connection = sqlite3.connect(db, isolation_level=None)
    try:
        connection.execute("DROP INDEX games_first_key")
        connection.execute("DROP INDEX games_second_key")
        connection.execute("DROP TABLE names_file")
        for column in ("first_key", "second_key", "first_shown", "second_shown"):
            connection.execute(f"ALTER TABLE games DROP COLUMN {column}")
        connection.execute("PRAGMA user_version = 5")
    finally:
        connection.close()


def _version(db: Path) -> int:
    with sqlite3.connect(db) as connection:
        return int(connection.execute("PRAGMA user_version").fetchone()[0])


def test_a_schema_5_index_is_read_as_it_lies_and_upgraded_by_index(tmp_path: Path) -> None:
    folder = make_people_archive(tmp_path)
    names = folder / "hexhop-names.txt"
    db = tmp_path / "old.sqlite"
    assert run("index", folder, "--db", db, "-q").exit_code == 0
    as_schema_5(db)
    before = db.read_bytes()
    read = run("find", folder, "--db", db, "--player", "Muller", "--format", "json")
    # the keys without the names file (the index never had one): Muller,
    # Anna is her own player, found by Muller too; the names file is told
    assert len(json.loads(read.stdout)) == len(games_of(ANNA))
    assert read.exit_code == 2 and f"({names})" in read.stderr
    players = json.loads(run("players", folder, "--db", db, "--format", "json").stdout)
    assert [row["name"] for row in players["players"]][:4] == [
        "Anna Müller",
        "Deniz Yılmaz",
        "Käthe Weiß",
        "Muller, Anna",
    ]
    assert db.read_bytes() == before and _version(db) == 5  # readers leave it as it is
    done = run("index", folder, "--db", db)
    assert done.exit_code == 0, done.output
    assert f"The players of 56 games are named anew by {names}" in done.stderr
    assert _version(db) == 6
    now = run("find", folder, "--db", db, "--player", "Muller, Anna", "--format", "json")
    assert now.exit_code == 0 and now.stderr == ""
    assert len(json.loads(now.stdout)) == len(games_of(ANNA))
    again = run("index", folder, "--db", db)
    assert "named anew" not in again.stderr  # the same names file: nothing to do


def test_index_names_gives_the_names_file_and_a_new_one_rekeys(tmp_path: Path) -> None:
    folder = make_people_archive(tmp_path)
    (folder / "hexhop-names.txt").rename(tmp_path / "club-names.txt")
    db = tmp_path / "club.sqlite"
    assert run("index", folder, "--db", db, "-q").exit_code == 0
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT path, digest FROM names_file").fetchall() == [("", "")]
    done = run("index", folder, "--db", db, "--names", tmp_path / "club-names.txt")
    # Muller, Anna joins Anna Müller, shown now by the names file (her 20
    # games); the two Peter Schmidts part (32 games, 8 of them against her)
    assert f"The players of 44 games are named anew by {tmp_path / 'club-names.txt'}" in (
        done.stderr
    )
    with sqlite3.connect(db) as connection:
        keys = connection.execute(
            "SELECT DISTINCT first_key FROM games UNION SELECT second_key FROM games"
        ).fetchall()
    assert sorted(key for (key,) in keys) == [
        "anna mueller",
        "deniz yilmaz",
        "kaethe weiss",
        "peter schmidt (bremen)",
        "peter schmidt (kassel)",
        "soeren kjaer",
    ]
    given = run("find", folder, "--db", db, "--player", "x", "--names", tmp_path / "club-names.txt")
    assert given.stderr == "no game matched\n"  # the names file it was made with
