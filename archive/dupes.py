"""``dupes``: games played twice, the same actions after normalising.

Two games are duplicates when they are of the same game and their main
lines have the same actions in canonical spelling, without annotations
(what :func:`.facts.action_text` gives), whatever their move numbers,
comments or tags; with ``same_players`` their players must be the same
on the same sides too: the same player keys (archive/players.py, after the
club's names file), however the names are spelled. Games without any action
are never duplicates.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .index import NUMBER, TEXT, TEXT_OR_NULL, actions_of, guarded_rows, moves_key, path_of
from .players import NO_NAMES, Names
from .query import Hit, archive_games

if TYPE_CHECKING:
    from hexhop.records.checking import CheckOptions

Key = tuple[object, ...]


@dataclass
class Group:
    """Games with the same actions, in archive order (the first is the one kept)."""

    game: str | None
    actions: list[str]
    games: list[Hit]


@dataclass
class Entry:
    """A game for grouping: its hit, what groups it and its actions."""

    hit: Hit
    key: Key
    actions: str


def groups(entries: Iterable[Entry]) -> list[Group]:
    """The groups of two or more games with equal keys and actions, in the
    archive order of their first games. The hits are kept without their
    games' bytes (a listing does not need them)."""
    found: dict[tuple[Key, str], list[Hit]] = {}
    for entry in entries:
        if entry.actions:
            entry.hit.text = None
            found.setdefault((entry.key, entry.actions), []).append(entry.hit)
    return [
        Group(hits[0].game, actions.split(" "), hits)
        for (_, actions), hits in found.items()
        if len(hits) > 1
    ]


def kept(entries: Iterable[Entry]) -> Iterator[Hit]:
    """Every game but the second and later of each group of duplicates.
    Of each game before, only a 16-byte digest of its key and actions is
    remembered (an export of many games stays small)."""
    seen: set[bytes] = set()
    for entry in entries:
        if entry.actions:
            mark = hashlib.blake2b(repr((entry.key, entry.actions)).encode(), digest_size=16)
            if mark.digest() in seen:
                continue
            seen.add(mark.digest())
        yield entry.hit


def archive_entries(
    paths: list[str],
    options: CheckOptions,
    globs: tuple[str, ...],
    same_players: bool,
    on_games: Callable[[int], None] | None = None,
    names: Names = NO_NAMES,
) -> Iterator[Entry | str]:
    """The entries of an archive read now, its players keyed by ``names``; a
    source that cannot be read comes as its message (``on_games``: as
    :func:`.query.archive_games` tells it)."""
    for found in archive_games(paths, options, globs, on_games):
        if isinstance(found, str):
            yield found
            continue
        game, hit = found
        players = (
            tuple(names.identify(name, game.tags).key for name in game.players)
            if same_players
            else ()
        )
        yield Entry(hit, (moves_key(game.game, game.actions), *players), " ".join(game.actions))


def index_entries(
    db: sqlite3.Connection, path: str, same_players: bool, every_game: bool = False
) -> Iterator[Entry]:
    """The entries of an index: the games whose actions another game shares
    (by their hash), or with ``every_game`` all games (for an export: read
    file by file in the order of the games' index, so that SQLite need not
    sort every game first). Each row is read bounded and its values
    checked (:func:`.index.guarded_rows`): a value hexhop never writes is
    a :func:`.index.damaged` index, not a wrong answer."""
    if every_game:
        files = "SELECT id FROM files ORDER BY seq"
        for (file,) in guarded_rows(db, path, files, (), (NUMBER,), "files"):
            rows = guarded_rows(
                db, path, f"{_COLUMNS} WHERE g.file = ? ORDER BY g.number", (file,), _ENTRY_TYPES
            )
            yield from (_entry(row, path, same_players) for row in rows)
        return
    shared = (
        " WHERE g.moves IN (SELECT moves FROM games WHERE opening != ''"
        " GROUP BY moves HAVING count(*) > 1) ORDER BY f.seq, g.number"
    )
    for row in guarded_rows(db, path, _COLUMNS + shared, (), _ENTRY_TYPES):
        yield _entry(row, path, same_players)


_COLUMNS = (
    "SELECT f.path, g.number, g.line, g.offset, g.length, g.game, g.first, g.second,"
    " g.result, g.date, g.event, g.plies, g.valid, f.digest, g.moves, g.first_key,"
    " g.second_key, g.actions, g.opening, f.real"
    " FROM games g JOIN files f ON f.id = g.file"
)
# the types of the values of a row of _COLUMNS
_ENTRY_TYPES = (TEXT, NUMBER, NUMBER, NUMBER, NUMBER, TEXT_OR_NULL, TEXT, TEXT) + (
    TEXT_OR_NULL,
    TEXT_OR_NULL,
    TEXT_OR_NULL,
    NUMBER,
    NUMBER,
    TEXT,
    NUMBER,
    TEXT,
    TEXT,
    TEXT,
    TEXT,
    TEXT,
)


def _entry(row: tuple[Any, ...], index: str, same_players: bool) -> Entry:
    """The entry of a row of :func:`index_entries` (its values checked);
    ``index`` is the index's path, for a path it cannot have written."""
    path, number, line, offset, length, game, first, second = row[:8]
    result, date, event, plies, valid, digest = row[8:14]
    hit = Hit(
        path_of(path, index), number, line, offset, length, game, [first, second], result, date
    )
    hit.event, hit.plies, hit.valid, hit.digest = event, plies, bool(valid), digest
    hit.real = path_of(row[19], index)
    players = (row[15], row[16]) if same_players else ()
    actions = " ".join(actions_of(row[18], row[17])) if row[18] else ""
    return Entry(hit, (row[14], *players), actions)
