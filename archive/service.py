"""The archive service: what the web app's pages and the commands ask
the index, answered in one place. One connection per thread, the
searches of the archive page (the filters of ``hexhop find``, read by the
table of archive/filters.py, paged and sorted), games by id, players and
events, the games the standings count; :func:`query_of` reads the filters
for every surface, :func:`find` answers ``find --db``. ``serve/`` and
``cli/`` hold no SQL: they call this module.

The index is opened as ``find`` opens it (:func:`open_to_search`), so a
crafted or foreign index is refused the same way; SQLite's functions of
:mod:`hexhop.archive.query` are registered on each connection.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from .index import (
    OPENING,
    check_index,
    distrust,
    guard,
    guarded_rows,
    path_of,
    sqlite_errors,
)
from .players import player_key
from .query import Hit, Query, find_in_index, open_to_search, register
from .roster import PlayerRow, roster, sides_in_index

PAGE_SIZE = 50
# sort keys of the archive page: the ORDER BY of each (a game without the
# value comes last either way; equal ones in the index's order, or the other way round)
SORTS: dict[str, tuple[str, ...]] = {
    "": ("g.id",),
    "date": ("g.date IS NULL", "g.date", "g.id"),
    "player": ("g.first_folded", "g.second_folded", "g.id"),
    "event": ("g.event IS NULL", "g.event", "g.id"),
    "length": ("g.plies", "g.id"),
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
    first_key: str = ""  # the players' keys (archive/players.py, after the names file)
    second_key: str = ""


ROW_COLUMNS = (
    "g.id, g.game, g.board, g.first, g.second, g.result, g.winner, g.date, g.event, g.plies,"
    " g.valid, f.path, g.line, g.first_key, g.second_key"
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
    str,
    str,
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
        values[13],
        values[14],
    )


@contextmanager
def connection(db: str) -> Iterator[sqlite3.Connection]:
    """This thread's connection to the index ``db`` (opened once per
    thread), with the games' search table of :func:`light` attached as
    ``light`` for the block (let go after it, so that no idle thread
    keeps a table made before the index changed)."""
    connections: dict[str, sqlite3.Connection] = getattr(_local, "connections", {})
    _local.connections = connections
    con = connections.get(db)
    if con is None:
        con = connections[db] = _open(db)
        register(con)
    depth: dict[str, int] = getattr(_local, "depth", {})
    _local.depth = depth
    if not depth.get(db):
        with guard(con, db):
            con.execute("ATTACH DATABASE ? AS light", (light(db),))
    depth[db] = depth.get(db, 0) + 1
    try:
        yield con
    finally:
        depth[db] -= 1
        if not depth[db]:
            with guard(con, db):
                con.execute("DETACH DATABASE light")


# -- the search table ------------------------------------------------------------------
#
# The games table holds every game's actions: a search that reads it whole
# (a player, an event, an order) reads the whole index. The server keeps
# the columns the archive page searches and sorts by in a table of its
# own, in memory, shared by the threads' connections (SQLite's shared
# cache): the event's and the Site tag's values folded as the names are
# (for the event and site fields), the date written with dots (for the
# date range), with an index on each order. It is made from the index when
# the server starts and again when the index changed (a game saved).

LIGHT_COLUMNS = (
    "id INTEGER PRIMARY KEY, file INTEGER NOT NULL, number INTEGER NOT NULL,"
    " line INTEGER NOT NULL, game TEXT, board INTEGER, valid INTEGER NOT NULL,"
    " codes TEXT NOT NULL, result TEXT, winner TEXT, plies INTEGER NOT NULL,"
    " first TEXT NOT NULL, second TEXT NOT NULL, first_folded TEXT NOT NULL,"
    " second_folded TEXT NOT NULL, first_ue TEXT NOT NULL, second_ue TEXT NOT NULL,"
    " date TEXT, event TEXT, opening TEXT NOT NULL, date_dots TEXT, event_folded TEXT,"
    " event_ue TEXT, site TEXT, site_folded TEXT, site_ue TEXT, first_key TEXT NOT NULL,"
    " second_key TEXT NOT NULL"
)
LIGHT_INDEXES = (
    "CREATE INDEX by_date ON games (date IS NULL, date, id)",
    "CREATE INDEX by_date_reverse ON games (date IS NULL, date DESC, id DESC)",
    "CREATE INDEX by_event ON games (event IS NULL, event, id)",
    "CREATE INDEX by_event_reverse ON games (event IS NULL, event DESC, id DESC)",
    "CREATE INDEX by_date_dots ON games (date_dots)",
    "CREATE INDEX by_players ON games (first_folded, second_folded, id)",
    "CREATE INDEX by_plies ON games (plies, id)",
    "CREATE INDEX by_first ON games (first)",
    "CREATE INDEX by_second ON games (second)",
    "CREATE INDEX by_first_key ON games (first_key)",
    "CREATE INDEX by_second_key ON games (second_key)",
)
_light: dict[str, tuple[tuple[int, ...], str, sqlite3.Connection]] = {}
_light_lock = threading.Lock()
_light_made = [0]


def light(db: str) -> str:
    """The address of the search table's database for the index ``db`` as it is now."""
    state = state_of(db)
    found = _light.get(db)
    if found is not None and found[0] == state:
        return found[1]
    with _light_lock:
        found = _light.get(db)
        if found is not None and found[0] == state:
            return found[1]
        _light_made[0] += 1
        name = f"file:hexhop-serve-{os.getpid()}-{_light_made[0]}?mode=memory&cache=shared"
        keeper = sqlite3.connect(name, uri=True, isolation_level=None, check_same_thread=False)
        try:
            _fill(keeper, db, name)
        except BaseException:
            keeper.close()
            raise
        old = _light.get(db)
        _light[db] = (state, name, keeper)
    if old is not None:
        old[2].close()  # the memory goes once the last connection lets it go
    return name


def _open(db: str) -> sqlite3.Connection:
    """A connection that reads the index ``db`` (checked as :func:`open_to_search`
    checks it) and can attach the search table by its address."""
    open_to_search(db).close()  # a missing, foreign or crafted index: IndexProblem
    address = os.path.abspath(db).replace("%", "%25").replace("?", "%3f").replace("#", "%23")
    with sqlite_errors(db):
        con = sqlite3.connect(f"file:{address}?mode=ro", uri=True, isolation_level=None)
    try:
        distrust(con, db)
        check_index(con, db, False)
    except BaseException:
        con.close()
        raise
    return con


def _fill(keeper: sqlite3.Connection, db: str, name: str) -> None:
    """The search table of the index ``db``, read and written a batch at a time."""
    from .names import fold, fold_ue

    folded: dict[str, tuple[str, str]] = {}  # events and sites recur: each folded once

    def both(text: object) -> tuple[str | None, str | None]:
        if not isinstance(text, str):
            return None, None
        found = folded.get(text)
        if found is None:
            found = folded[text] = (fold(text), fold_ue(text))
        return found

    keeper.execute(f"CREATE TABLE games ({LIGHT_COLUMNS})")
    keeper.execute("BEGIN")
    source = open_to_search(db)
    try:
        sql = "SELECT game, value FROM tags WHERE lower(name) = 'site'"
        sites = {game: value for game, value in guarded_rows(source, db, sql, (), None, "tags")}
        sql = (
            "SELECT id, file, number, line, game, board, valid, codes, result, winner,"
            " plies, first, second, first_folded, second_folded, first_ue, second_ue, date,"
            " event, opening, first_key, second_key FROM games"
        )
        batch: list[tuple[object, ...]] = []
        insert = f"INSERT INTO games VALUES ({', '.join('?' * 28)})"
        for row in guarded_rows(source, db, sql):
            date, event, site = row[17], row[18], sites.get(row[0])
            dots = (
                date.strip().replace("-", ".").replace("/", ".") if isinstance(date, str) else None
            )
            site = site if isinstance(site, str) else None
            batch.append((*row[:20], dots, *both(event), site, *both(site), *row[20:]))
            if len(batch) >= 5_000:
                keeper.executemany(insert, batch)
                batch.clear()
        keeper.executemany(insert, batch)
    finally:
        source.close()
    for statement in LIGHT_INDEXES:
        keeper.execute(statement)
    keeper.execute("COMMIT")


def state_of(db: str) -> tuple[int, ...]:
    """What changes when the index changes (for caches of what is read from it)."""
    marks: list[int] = []
    for suffix in ("", "-wal"):
        try:
            info = os.stat(db + suffix)
        except OSError:
            marks += [0, 0]
            continue
        # an empty log (a reader opened the index) is no change, nor is
        # its going when the last connection closes
        empty = suffix and not info.st_size
        marks += [0, 0] if empty else [info.st_mtime_ns, info.st_size]
    return tuple(marks)


def _rows(db: str, sql: str, args: list[Any]) -> list[Row]:
    with connection(db) as con:
        return [_row(values, db) for values in guarded_rows(con, db, sql, args, _ROW_TYPES)]


def search(
    db: str, query: Query, sort: str, reverse: bool, page: int, size: int = PAGE_SIZE
) -> tuple[int, list[Row]]:
    """The total of games ``query`` matches, and page ``page`` (from 1, of
    ``size`` games) of them in the order of ``sort`` (a key of :data:`SORTS`)."""
    table, where, args = where_of(query)
    # the other way round: games without the value still last
    order = ", ".join(
        f"{term} DESC" if reverse and not term.endswith("IS NULL") else term for term in SORTS[sort]
    )
    with connection(db) as con, guard(con, db):
        total = con.execute(f"SELECT count(*) FROM {table} g WHERE {where}", args).fetchone()[0]
    sql = (
        f"SELECT {ROW_COLUMNS} FROM {table} g JOIN main.files f ON f.id = g.file WHERE {where}"
        f" ORDER BY {order} LIMIT ? OFFSET ?"
    )
    rows = _rows(db, sql, [*args, size, (page - 1) * size])
    return int(total), rows


_GLOB = re.compile(r"[*?\[]")


def where_of(query: Query) -> tuple[str, str, list[Any]]:
    """The table to search (``light.games``, else the index's own games
    when an opening is longer than the search table keeps), and the WHERE
    clause of ``query`` over it (``g``), with its parameters: the
    query's own clause (:meth:`Query.sql`), but the Event and Site tags
    and the date range read from the search table's columns (the same
    test: the tag's value folded holds the text, or matches the glob; the
    date compared to each bound's precision)."""
    if any(len(opening.actions) > OPENING for opening in query.openings):
        where, args = query.sql()
        return "main.games", where, args
    fast = [(name, pattern) for name, pattern in query.tags if name in ("Event", "Site")]
    rest = tuple(tag for tag in query.tags if tag not in fast)
    where, args = replace(query, tags=rest, date=None).sql()
    clauses, more = [where], list[Any]()
    for name, (pattern, ue) in fast:
        column = name.lower()
        inner, inner_ue = pattern[1:-1], ue[1:-1]
        plain = pattern.startswith("*") and pattern.endswith("*") and len(pattern) > 1
        if plain and not _GLOB.search(inner) and not _GLOB.search(inner_ue):
            clauses.append(f"(instr(g.{column}_folded, ?) > 0 OR instr(g.{column}_ue, ?) > 0)")
            more += [inner, inner_ue]
        else:
            clauses.append(f"(g.{column} IS NOT NULL AND hx_value(?, ?, g.{column}))")
            more += [pattern, ue]
    if query.date is not None:
        low, high = query.date
        for bound, test in ((low, ">="), (high, "<=")):
            if bound:
                clauses.append(
                    "(length(g.date_dots) >= ? AND instr(substr(g.date_dots, 1, ?), '?') = 0"
                    f" AND substr(g.date_dots, 1, ?) {test} ?)"
                )
                more += [len(bound), len(bound), len(bound), bound]
        # the same bounds as a range of the index on date_dots (implied by
        # the tests above: a date whose first characters are at least LOW
        # is at least LOW; one whose first characters are at most HIGH
        # sorts before HIGH followed by the last character there is)
        if low:
            clauses.append("g.date_dots >= ?")
            more.append(low)
        if high:
            clauses.append("g.date_dots <= ?")
            more.append(high + "\U0010ffff")
    return "light.games", " AND ".join(clauses), [*args, *more]


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
    number, offset, length, digest, real = values[15:]
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


def solved_of(db: str, game_id: int) -> list[tuple[int, str, int]]:
    """The solver's stored answers for a game's positions: (ply, status, depth)."""
    sql = "SELECT ply, status, depth FROM solved WHERE game = ? ORDER BY ply"
    with connection(db) as con:
        return list(guarded_rows(con, db, sql, [game_id], (int, str, int), "solved"))


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


def players(db: str) -> list[PlayerRow]:
    """Every player of the index (by key: named, not ``?``), by the name
    shown, as ``hexhop players`` lists them."""

    def make() -> list[PlayerRow]:
        with connection(db) as con:
            return roster(sides_in_index(con, db))

    return cached(db, "players", make)


def player_of(db: str, name: str) -> PlayerRow | None:
    """The player of the key ``name``; else of the key of the spelling
    ``name`` (a link made from a game's names), else the player that
    spelling names in the games (through the names file); None when none."""
    by_key = cached(db, "players_by_key", lambda: {row.key: row for row in players(db)})
    found = by_key.get(name) or by_key.get(player_key(name))
    if found is not None:
        return found
    sql = (
        "SELECT first_key FROM light.games WHERE first = ?"
        " UNION SELECT second_key FROM light.games WHERE second = ? LIMIT 1"
    )
    with connection(db) as con:
        keys = [key for (key,) in guarded_rows(con, db, sql, [name, name], (str,))]
    return by_key.get(keys[0]) if keys else None


def events(db: str) -> list[Named]:
    """Every event of the index, by name."""

    def make() -> list[Named]:
        sql = "SELECT event, count(*) FROM light.games WHERE event IS NOT NULL GROUP BY event"
        with connection(db) as con:
            rows = guarded_rows(con, db, sql, [], (str, int))
            found = [Named(name, count) for name, count in rows if name.strip()]
        return sorted(found, key=lambda n: (n.name.casefold(), n.name))

    return cached(db, "events", make)


def games_of_player(db: str, key: str) -> list[Row]:
    """The games of the player ``key``, however spelled, by date."""
    sql = (
        f"SELECT {ROW_COLUMNS} FROM light.games g JOIN main.files f ON f.id = g.file"
        " WHERE g.first_key = ? OR g.second_key = ? ORDER BY g.date IS NULL, g.date, g.id"
    )
    return _rows(db, sql, [key, key])


def games_of_event(db: str, name: str) -> list[Row]:
    sql = (
        f"SELECT {ROW_COLUMNS} FROM light.games g JOIN main.files f ON f.id = g.file"
        " WHERE g.event = ? ORDER BY g.date IS NULL, g.date, g.id"
    )
    return _rows(db, sql, [name])


# -- the standings: players by key, each game once ---------------------------------


def names_of(db: str) -> Any:
    """The club's names file beside the index (``hexhop-names.txt``), as
    the commands find it; none when it is missing or cannot be read (the
    commands say why)."""
    from .players import NO_NAMES, NamesFileError, load_names

    try:
        return load_names(None, (db,))
    except NamesFileError:
        return NO_NAMES


def standing_games(db: str) -> list[Any]:
    """Every game of the index as ``crosstable`` and ``ratings`` read it
    (:func:`hexhop.archive.standings.index_games`, in archive order), with
    the tags the names file's conditions ask for."""
    from .counting import condition_tags
    from .standings import index_games

    def make() -> list[Any]:
        wanted = condition_tags(names_of(db))
        with connection(db) as con:
            return list(index_games(con, db, Query(), wanted))

    return cached(db, "standing_games", make)


# -- the searches of every surface -------------------------------------------------


def query_of(
    values: Mapping[str, Any], label: Callable[[Any], str] | None = None, names: Any = None
) -> Query:
    """The query of the filters' values (by the names of the table of
    filters, archive/filters.py), as ``find``, the web app's search and
    :meth:`hexhop.Index.find` read them (``label``: how a filter is named
    in a message; ``names``: the names file of a scanned archive)."""
    from .filters import query_of as read

    if label is None:
        return read(values, names=names)
    return read(values, label=label, names=names)


def find(connection: sqlite3.Connection, db: str, query: Query) -> Iterator[Hit]:
    """The games of the index that ``query`` matches, in archive order
    (``find --db``, :meth:`hexhop.Index.find`)."""
    return find_in_index(connection, db, query)


def games_in_index(db: str) -> int:
    """How many games the index ``db`` holds (read as ``find`` reads it: a
    crafted index is refused)."""
    reader = open_to_search(db)
    try:
        with guard(reader, db):
            row = reader.execute("SELECT count(*) FROM games").fetchone()
    finally:
        reader.close()
    return int(row[0])


def first_game_of_last_file(db: str, real: str) -> int | None:
    """The index's id of the first game of the file indexed last, when
    that file is ``real`` (a real path); None when it is not, or the index
    cannot be read (the editor's link to a game it just saved)."""
    from .index import path_of

    try:
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as con:
            rows = con.execute(
                "SELECT g.id, f.real FROM files f JOIN games g ON g.file = f.id"
                " WHERE f.id = (SELECT max(id) FROM files) ORDER BY g.number LIMIT 1"
            ).fetchall()
    except sqlite3.Error:
        return None
    for game_id, stored in rows:
        if isinstance(game_id, int) and isinstance(stored, str) and path_of(stored, db) == real:
            return game_id
    return None


# -- index or scan, stale files, order -------------------------------------------------


def index_to_use(paths: tuple[str, ...], db: str | None, scan: bool) -> str | None:
    """The index to answer from: ``db``, else the hexhop.sqlite beside the
    first ARCHIVE when there is one; None with ``scan`` (read the archive)."""
    from .index import default_path

    if scan:
        return None
    if db is None and paths and os.path.isfile(default_path(paths[0])):
        db = default_path(paths[0])
    return db


def answers(
    paths: tuple[str, ...],
    db: str | None,
    *,
    game: str | None,
    globs: tuple[str, ...],
    names_file: str | None,
    analysed: str | None,
    in_index: Callable[[sqlite3.Connection, str], Iterable[T]],
    where: Callable[[T], str],
    in_archive: Callable[
        [list[str], Any, tuple[str, ...], Callable[[int], None]], Iterable[T | str]
    ],
    tell: Callable[[str], None],
    problems: list[str] | None,
    progress: Callable[[], tuple[Callable[[int], None], Callable[[], None]]],
) -> Iterator[T]:
    """What find, stats, crosstable, ratings and players read: from the
    index ``db`` (:func:`index_to_use`: ``in_index(connection, db)``, kept
    when ``where(item)`` is under the ARCHIVE ``paths``), else from the
    ARCHIVE paths read now (``in_archive(paths, check options, globs,
    on_games)``, ``progress()`` giving the progress' update and end). The
    index's files that changed or are gone are told first (``tell``), and
    added to ``problems``, as are the files that cannot be read.
    ``analysed``: the option that asks the stored analysis (an index made
    with ``index --analyse`` only)."""
    from .analysed import NotAnalysed, require_analysis
    from .query import real_roots, stale_files, under_any

    if db is None and analysed:
        from hexhop.messages import _

        raise NotAnalysed(
            _(
                "--missed-win and --blunder answer from an index made with `hexhop index "
                "ARCHIVE --analyse` (give it with --db)"
            )
        )
    if db is not None:
        connection = open_to_search(db)
        try:
            if analysed:
                missing = require_analysis(connection, db, analysed)
                if missing is not None:
                    tell(missing)
            found = stale_files(connection, db, paths, names_file)
            if found:
                if problems is not None:
                    problems.extend(found)
                tell(stale_warning(found, db, paths, names_file))
            roots = real_roots(paths)
            for item in in_index(connection, db):
                if not paths or under_any(where(item), roots):
                    yield item
        finally:
            connection.close()
        return
    from hexhop.records.checking import CheckOptions

    update, done = progress()
    for found_item in in_archive(list(paths), CheckOptions(game=game), globs, update):
        if isinstance(found_item, str):  # a file that cannot be read: exit 2, as check
            tell(found_item)
            if problems is not None:
                problems.append(found_item)
        else:
            yield found_item
    done()


STALE_NAMED = 5  # the changed files a warning names


def stale_warning(
    found: list[str], db: str, paths: tuple[str, ...], names_file: str | None = None
) -> str:
    """The warning of the index's files that changed or are gone (``found``,
    :func:`~hexhop.archive.query.stale_files`), and the run of ``index``
    that brings it up to date."""
    import shlex

    from hexhop.messages import _
    from hexhop.records.text import counted

    names = ", ".join(found[:STALE_NAMED]) + (", …" if len(found) > STALE_NAMED else "")
    archives = " ".join(shlex.quote(p) for p in paths) if paths else "ARCHIVE"
    if names_file is not None:
        archives += " --names " + shlex.quote(names_file)
    return _(
        "warning: {files} changed or gone since {db} was indexed ({names}): the answers "
        "are what the index holds; run `hexhop index {archives} --db {db}` again"
    ).format(files=counted(len(found), "file"), db=db, names=names, archives=archives)


def ordered(hits: Iterator[Hit], sort: str, reverse: bool, limit: int) -> Iterator[Hit]:
    """The hits in the order ``sort`` names (``archive``: as they come,
    streamed), at most ``limit`` of them (0: all). Games without the value
    sorted by come last either way; equal ones keep the archive's order."""
    if sort != "archive":
        keyed = [(_sort_value(hit, sort), hit) for hit in hits]
        present = sorted(
            (pair for pair in keyed if pair[0] is not None),
            key=lambda pair: pair[0],
            reverse=reverse,
        )
        absent = [hit for value, hit in keyed if value is None]
        hits = iter([hit for _value, hit in present] + absent)
    elif reverse:
        hits = reversed(list(hits))
    return itertools.islice(hits, limit or None)


def _sort_value(hit: Hit, sort: str) -> Any:
    if sort == "date":
        return hit.date or None
    if sort == "player":
        return hit.players[0].casefold() if hit.players and hit.players[0] else None
    if sort == "event":
        return hit.event.casefold() if hit.event else None
    if sort == "length":
        return hit.plies
    return None
