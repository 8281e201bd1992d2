"""find from the index lists its games in archive order (the files' seq,
then each file's games) as a plain ORDER BY over every game would, also
when the files' ids do not follow that order (files added and changed
since the first run), with and without a position looked for."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from archive_helpers import CLUB, make_archive, run

from hexhop.archive.query import Query, Target, find_in_index, open_to_search, player_pattern

PLAIN = (
    "SELECT f.path, g.number FROM games g JOIN files f ON f.id = g.file"
    " WHERE {where} ORDER BY f.seq, g.number"
)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    arch = make_archive(tmp_path)
    db = tmp_path / "x.sqlite"
    assert run("index", arch, "--db", db).exit_code == 0
    (arch / "aaa.hxl").write_bytes(CLUB.encode("utf-8"))  # first in the archive, last id
    shutil.copy(arch / "club.hxl", arch / "good" / "copy.hxl")
    (arch / "club.hxl").write_bytes(CLUB.replace("Anna", "Ann").encode("utf-8"))
    assert run("index", arch, "--db", db).exit_code == 0
    with sqlite3.connect(db) as connection:
        ids = [row[0] for row in connection.execute("SELECT id FROM files ORDER BY seq")]
    connection.close()
    assert ids != sorted(ids)
    return db


def _most_common_position(db: Path) -> Query:
    """A query for the position most games pass through (a start position)."""
    with sqlite3.connect(db) as connection:
        [(key,)] = connection.execute(
            "SELECT key FROM positions GROUP BY key ORDER BY count(DISTINCT game) DESC LIMIT 1"
        ).fetchall()
    connection.close()
    return Query(positions=(Target("?", None, key << 16),))


@pytest.mark.parametrize("kind", ["all", "player", "position"])
def test_the_order_of_a_plain_sort(db: Path, kind: str) -> None:
    query = {
        "all": Query(),
        "player": Query(players=(player_pattern("e"),)),
        "position": _most_common_position(db),
    }[kind]
    connection = open_to_search(str(db))
    try:
        found = [(hit.path, hit.number) for hit in find_in_index(connection, str(db), query)]
        where, args = query.sql()
        plain = connection.execute(PLAIN.format(where=where), args).fetchall()
    finally:
        connection.close()
    assert found == [tuple(row) for row in plain] and len(found) > 3
