"""What the pages read from the index: one connection per thread, the
searches of the archive page (the filters of ``hexhop find``, paged and
sorted), games by id, players and events.

The index is opened as ``find`` opens it (:func:`open_to_search`), so a
crafted or foreign index is refused the same way; SQLite's functions of
:mod:`hexhop.archive.query` are registered on each connection.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from hexhop.archive.index import guard, guarded_rows, path_of
from hexhop.archive.query import Hit, Query, open_to_search, register

PAGE_SIZE = 50
# sort keys of the archive page: the ORDER BY of each (a game without the
# value comes last either way; equal ones keep the index's order)
SORTS: dict[str, tuple[str, ...]] = {
    "": ("g.id",),
    "date": ("g.date IS NULL", "g.date", "g.id"),
    "players": ("g.first_folded", "g.second_folded", "g.id"),
    "event": ("g.event IS NULL", "g.event", "g.id"),
    "plies": ("g.plies", "g.id"),
}
_local = threading.local()
T = TypeVar("T")


@dataclass(frozen=True)
class Row:
    """One game of a list."""

    id: int
    game: str | None
    board: int | None
    first: str
    second: str
    result: str | None
    winner: str | None
    date: str | None
    event: str | None
    plies: int
    valid: bool
    path: str
    line: int


ROW_COLUMNS = (
    "g.id, g.game, g.board, g.first, g.second, g.result, g.winner, g.date, g.event, g.plies,"
    " g.valid, f.path, g.line"
)
_ROW_TYPES = (int, (str, type(None)), (int, type(None)), str, str) + (
    (str, type(None)),
    (str, type(None)),
    (str, type(None)),
    (str, type(None)),
    int,
    int,
    str,
    int,
)


def _row(values: tuple[Any, ...], db: str) -> Row:
    game_id, game, board, first, second, result, winner, date, event, plies = values[:10]
    return Row(
        game_id,
        game,
        board,
        first,
        second,
        result,
        winner,
        date,
        event,
        plies,
        bool(values[10]),
        path_of(values[11], db),
        values[12],
    )


@contextmanager
def connection(db: str) -> Iterator[sqlite3.Connection]:
    """This thread's connection to the index ``db`` (opened once per thread)."""
    connections: dict[str, sqlite3.Connection] = getattr(_local, "connections", {})
    _local.connections = connections
    found = connections.get(db)
    if found is None:
        found = open_to_search(db)
        register(found)
        connections[db] = found
    yield found


def state_of(db: str) -> tuple[int, ...]:
    """What changes when the index changes (for caches of what is read from it)."""
    marks: list[int] = []
    for suffix in ("", "-wal"):
        try:
            info = os.stat(db + suffix)
        except OSError:
            marks += [0, 0]
            continue
        marks += [info.st_mtime_ns, info.st_size]
    return tuple(marks)


def _rows(db: str, sql: str, args: list[Any]) -> list[Row]:
    with connection(db) as con:
        return [_row(values, db) for values in guarded_rows(con, db, sql, args, _ROW_TYPES)]


def search(db: str, query: Query, sort: str, reverse: bool, page: int) -> tuple[int, list[Row]]:
    """The total of games ``query`` matches, and page ``page`` (from 1) of
    them in the order of ``sort`` (a key of :data:`SORTS`)."""
    where, args = query.sql()
    order = ", ".join(
        f"{term} DESC" if reverse and not term.endswith("IS NULL") and term != "g.id" else term
        for term in SORTS[sort]
    )
    if reverse and sort == "":
        order = "g.id DESC"
    with connection(db) as con, guard(con, db):
        total = con.execute(f"SELECT count(*) FROM games g WHERE {where}", args).fetchone()[0]
    sql = (
        f"SELECT {ROW_COLUMNS} FROM games g JOIN files f ON f.id = g.file WHERE {where}"
        f" ORDER BY {order} LIMIT ? OFFSET ?"
    )
    rows = _rows(db, sql, [*args, PAGE_SIZE, (page - 1) * PAGE_SIZE])
    return int(total), rows


def game_row(db: str, game_id: int) -> tuple[Row, Hit] | None:
    """The game of id ``game_id``, and where its text is; None when there is none."""
    sql = (
        f"SELECT {ROW_COLUMNS}, g.number, g.offset, g.length, f.digest, f.real"
        " FROM games g JOIN files f ON f.id = g.file WHERE g.id = ?"
    )
    types = _ROW_TYPES + (int, int, int, str, str)
    with connection(db) as con:
        found = list(guarded_rows(con, db, sql, [game_id], types))
    if not found:
        return None
    values = found[0]
    row = _row(values, db)
    number, offset, length, digest, real = values[13:]
    hit = Hit(
        row.path,
        number,
        row.line,
        offset,
        length,
        row.game,
        [row.first, row.second],
        row.result,
        row.date,
        row.event,
        row.plies,
        row.valid,
        digest=digest,
        real=path_of(real, db),
    )
    return row, hit


def notes_of(db: str, game_id: int) -> list[dict[str, Any]]:
    """The stored analysis of a game (``hexhop index --analyse``): its notes, by ply."""
    sql = (
        "SELECT kind, ply, side, depth, first, played, line, col FROM notes"
        " WHERE game = ? ORDER BY ply, kind"
    )
    types = (str, int, str, int, str, str, int, int)
    with connection(db) as con:
        rows = guarded_rows(con, db, sql, [game_id], types, "notes")
        return [
            dict(zip(("kind", "ply", "side", "depth", "first", "played", "line", "col"), row))
            for row in rows
        ]


def analysed(db: str, game_id: int) -> int | None:
    """The depth a game was analysed to, None when it was not."""
    with connection(db) as con:
        found = list(
            guarded_rows(
                con, db, "SELECT depth FROM analyses WHERE game = ?", [game_id], (int,), "analyses"
            )
        )
    return found[0][0] if found else None


# -- players and events ------------------------------------------------------------

_cache: dict[tuple[str, str], tuple[tuple[int, ...], Any]] = {}
_cache_lock = threading.Lock()


def cached(db: str, name: str, make: Callable[[], T]) -> T:
    """``make()``, kept until the index changes."""
    state = state_of(db)
    with _cache_lock:
        found = _cache.get((db, name))
    if found is not None and found[0] == state:
        return found[1]  # type: ignore[no-any-return]
    value = make()
    with _cache_lock:
        _cache[(db, name)] = (state, value)
    return value


@dataclass(frozen=True)
class Named:
    """A player or an event, and how many games it has."""

    name: str
    games: int


def players(db: str) -> list[Named]:
    """Every player of the index (named, not ``?``), by name."""

    def make() -> list[Named]:
        sql = (
            "SELECT name, count(*) FROM (SELECT first AS name FROM games UNION ALL"
            " SELECT second FROM games) WHERE name NOT IN ('', '?') GROUP BY name"
        )
        with connection(db) as con:
            rows = guarded_rows(con, db, sql, [], (str, int))
            found = [Named(name, count) for name, count in rows]
        return sorted(found, key=lambda n: (n.name.casefold(), n.name))

    return cached(db, "players", make)


def events(db: str) -> list[Named]:
    """Every event of the index, by name."""

    def make() -> list[Named]:
        sql = "SELECT event, count(*) FROM games WHERE event IS NOT NULL GROUP BY event"
        with connection(db) as con:
            rows = guarded_rows(con, db, sql, [], (str, int))
            found = [Named(name, count) for name, count in rows if name.strip()]
        return sorted(found, key=lambda n: (n.name.casefold(), n.name))

    return cached(db, "events", make)


def games_of_player(db: str, name: str) -> list[Row]:
    sql = (
        f"SELECT {ROW_COLUMNS} FROM games g JOIN files f ON f.id = g.file"
        " WHERE g.first = ? OR g.second = ? ORDER BY g.date IS NULL, g.date, g.id"
    )
    return _rows(db, sql, [name, name])


def games_of_event(db: str, name: str) -> list[Row]:
    sql = (
        f"SELECT {ROW_COLUMNS} FROM games g JOIN files f ON f.id = g.file"
        " WHERE g.event = ? ORDER BY g.date IS NULL, g.date, g.id"
    )
    return _rows(db, sql, [name])


def every_game(db: str) -> list[Row]:
    """Every game (for the ratings, which take the whole index in date order)."""
    sql = f"SELECT {ROW_COLUMNS} FROM games g JOIN files f ON f.id = g.file ORDER BY g.id"
    return _rows(db, sql, [])
