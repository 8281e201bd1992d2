"""The archive index: one SQLite file holding the facts of every game.

Schema version :data:`SCHEMA_VERSION` is kept in ``PRAGMA user_version``
and the file is marked as hexhop's by ``PRAGMA application_id``, so that a
foreign database or one written by a newer hexhop is refused before
anything is written to it. Every source (a file or an archive member) is
written in a transaction of its own: an interrupted run leaves each file
either as it was or fully indexed. docs/archive.md describes the tables.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import sqlite3
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

from hexhop.messages import _
from hexhop.notation.errors import Error
from hexhop.records.errors import RecordsError

from .keys import signed
from .players import NO_NAMES, Names, key_form, plain_form, player_key

if TYPE_CHECKING:  # what find needs of this module must not load the notation reader
    from hexhop.records.checking import CheckOptions
    from hexhop.records.jobs import Call, Workers

    from .facts import FactsPart, GameFacts, SourceFacts

SCHEMA_VERSION = 6
ANALYSED_SINCE = 5  # the first schema with the tables of the stored analysis
KEYED_SINCE = 6  # the first schema with each side's player key and the names file
APPLICATION_ID = 0x68786870  # "hxhp"
DEFAULT_NAME = "hexhop.sqlite"
BUSY_SECONDS = 2.0  # how long to wait for another program's lock
# larger pages than SQLite's 4 KiB: a file's commit writes fewer of them
PAGE_SIZE = 16 * 1024
# SQLite's page cache while indexing: enough for the tree's random inserts
# while it is small (DIRECT_POSITIONS); a larger cache only fills up as the
# index grows and makes the memory follow the archive's size
CACHE_KIB = 8 * 1024
# and while positions_new goes into the tree; the sort takes as much again
# (at least 250 pages: 4 MiB)
SETTLE_CACHE_KIB = 4 * 1024
# positions a run puts straight into the tree (while it is small enough to
# stay in the cache); the rest wait in positions_new and go in sorted at the end
DIRECT_POSITIONS = 500_000
OPENING = 16  # actions kept in a column of their own, for --after and the opening tree
# with -j, the games of a file are indexed in parts of this many: the index's
# own part size, set apart from check's (records.jobs.GAMES_PER_PART)
INDEX_PART_GAMES = 200
PART_SECONDS = 60.0  # the time a part's games may take (check's --max-seconds default)
# the largest value read from an index: a file's bytes are at most 64 MiB
# (Limits.max_file_bytes), and no column holds more than one file's text
MAX_VALUE = 64 * 1024 * 1024
MAX_WRITTEN = 1024 * 1024 * 1024  # SQLite's own limit: the JSON of a part's tags and keys
# the time SQLite may take for one step of a search (a batch of rows): a
# hexhop index answers in well under a second, even from a million games
STEP_SECONDS = 60.0
REKEY_BATCH = 5_000  # games whose keys are made again at a time (a changed names file)
PROGRESS_STEPS = 20_000  # SQLite's instructions between two looks at the clock and signals

BASE_SCHEMA = """
CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    real TEXT NOT NULL UNIQUE,
    seq INTEGER NOT NULL,
    size INTEGER NOT NULL,
    mtime INTEGER,
    disk_size INTEGER,
    dev INTEGER,
    ino INTEGER,
    digest TEXT NOT NULL,
    error TEXT
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    file INTEGER NOT NULL,
    number INTEGER NOT NULL,
    line INTEGER NOT NULL,
    offset INTEGER NOT NULL,
    length INTEGER NOT NULL,
    game TEXT,
    board INTEGER,
    valid INTEGER NOT NULL,
    codes TEXT NOT NULL,
    result TEXT,
    winner TEXT,
    end_ply INTEGER,
    plies INTEGER NOT NULL,
    first TEXT NOT NULL,
    second TEXT NOT NULL,
    first_folded TEXT NOT NULL,
    second_folded TEXT NOT NULL,
    first_ue TEXT NOT NULL,
    second_ue TEXT NOT NULL,
    date TEXT,
    event TEXT,
    opening TEXT NOT NULL,
    actions TEXT NOT NULL,
    moves INTEGER NOT NULL
);
CREATE INDEX games_file ON games (file, number);
CREATE INDEX games_moves ON games (moves);
CREATE TABLE tags (
    game INTEGER NOT NULL,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (game, name)
) WITHOUT ROWID;
CREATE TABLE positions (
    key INTEGER NOT NULL,
    game INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    PRIMARY KEY (key, game, ply)
) WITHOUT ROWID;
CREATE TABLE positions_new (
    key INTEGER NOT NULL,
    game INTEGER NOT NULL,
    ply INTEGER NOT NULL
);
"""
# schema 5: the analysis of ``index --analyse`` (archive/analysed.py); a
# schema 4 index is brought up to 5 by adding these tables, empty
ANALYSIS_SCHEMA = """
CREATE TABLE analyses (
    game INTEGER PRIMARY KEY,
    depth INTEGER NOT NULL,
    max_nodes INTEGER NOT NULL,
    max_seconds REAL NOT NULL,
    analysed INTEGER NOT NULL
);
CREATE TABLE notes (
    game INTEGER NOT NULL,
    kind TEXT NOT NULL,
    ply INTEGER NOT NULL,
    side TEXT NOT NULL,
    depth INTEGER NOT NULL,
    first TEXT NOT NULL,
    played TEXT NOT NULL,
    line INTEGER NOT NULL,
    col INTEGER NOT NULL,
    PRIMARY KEY (game, kind, ply)
) WITHOUT ROWID;
CREATE TABLE solved (
    game INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    status TEXT NOT NULL,
    depth INTEGER NOT NULL,
    PRIMARY KEY (game, ply)
) WITHOUT ROWID;
"""
# schema 6: each side's player key (archive/players.py, after the club's
# names file) and the name that file shows, and which names file the keys
# were made with; a schema 4 or 5 index is brought up to 6 by these
# statements, and ``index`` then writes the keys (a new index is made with
# them too: one schema, however it was reached). ``first_folded`` and
# ``first_ue`` hold the spelling's plain and key forms since schema 6
KEYS_SCHEMA = """
ALTER TABLE games ADD COLUMN first_key TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN second_key TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN first_shown TEXT;
ALTER TABLE games ADD COLUMN second_shown TEXT;
CREATE INDEX games_first_key ON games (first_key);
CREATE INDEX games_second_key ON games (second_key);
CREATE TABLE names_file (
    path TEXT NOT NULL,
    digest TEXT NOT NULL
);
"""
SCHEMA = BASE_SCHEMA + ANALYSIS_SCHEMA + KEYS_SCHEMA
# the puzzles of the stored analysis (archive/analysed.py): made by the
# first ``index --analyse`` that needs it, in any index of schema 5 or 6; an
# index without it is whole, and its puzzles are searched again
PUZZLE_SCHEMA = """
CREATE TABLE IF NOT EXISTS puzzle_facts (
    game INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    winners TEXT NOT NULL,
    solution TEXT NOT NULL,
    defences INTEGER NOT NULL,
    decoys INTEGER NOT NULL,
    motifs TEXT NOT NULL,
    PRIMARY KEY (game, ply)
) WITHOUT ROWID;
"""
OPTIONAL_TABLES = ("puzzle_facts",)


class IndexProblem(RecordsError):
    """The index file cannot be used (not an index, too new, locked, damaged);
    nothing was written to it. Commands exit with 2."""

    exit_code = 2


def default_path(archive: str) -> str:
    """``hexhop.sqlite`` in a folder, or beside a file."""
    folder = archive if os.path.isdir(archive) else os.path.dirname(archive)
    return os.path.join(folder, DEFAULT_NAME)


def open_index(path: str, *, create: bool = False) -> sqlite3.Connection:
    """The index at ``path``, checked to be one this hexhop can use; with
    ``create``, a new one when there is no file (or an empty one).
    :class:`IndexProblem` otherwise, before anything is written."""
    exists = os.path.exists(path)
    if not exists and not create:
        raise IndexProblem(
            _("no index at {path}: run `hexhop index ARCHIVE --db {path}` first").format(path=path)
        )
    if exists and not os.path.isfile(path):
        raise IndexProblem(_("{path} is not a file").format(path=path))
    if create:  # SQLite would fail only at the first write, with its log files made
        reason = read_only(path)
        if reason is not None:
            raise IndexProblem(reason)
    try:
        connection = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
    except sqlite3.Error as error:
        raise IndexProblem(
            _("cannot open {path}: {error}").format(path=path, error=error)
        ) from None
    try:
        distrust(connection, path)
        check_index(connection, path, create)
    except BaseException:
        connection.close()
        raise
    return connection


def distrust(connection: sqlite3.Connection, path: str) -> None:
    """Treat the file as hostile: no function of its schema runs (views,
    triggers), and no value larger than :data:`MAX_VALUE` is read (with
    Python 3.11 or later, which can set SQLite's limits)."""
    with sqlite_errors(path):
        connection.execute("PRAGMA trusted_schema = OFF")
    length_limit(connection, MAX_VALUE)
    if hasattr(connection, "setconfig"):  # Python 3.12: no writing to the schema by hand
        connection.setconfig(getattr(sqlite3, "SQLITE_DBCONFIG_DEFENSIVE"), True)  # noqa: B009


def length_limit(connection: sqlite3.Connection, size: int) -> None:
    """SQLite's limit on the length of a value (Python 3.11 or later can set it)."""
    if hasattr(connection, "setlimit"):
        connection.setlimit(_LIMIT_LENGTH, size)


_LIMIT_LENGTH = 0  # sqlite3.SQLITE_LIMIT_LENGTH, which Python 3.10 does not name


def read_only(path: str) -> str | None:
    """Why the index at ``path``, or the folder that holds its write-ahead
    log, cannot be written; None when both can (or the folder is missing)."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.exists(path) and not os.access(path, os.W_OK):
        return _("cannot write {path}: it is read-only").format(path=path)
    if os.path.isdir(folder) and not os.access(folder, os.W_OK):
        return _("cannot write {path}: its folder is read-only").format(path=path)
    return None


def check_index(connection: sqlite3.Connection, path: str, create: bool) -> None:
    with sqlite_errors(path):
        application = connection.execute("PRAGMA application_id").fetchone()[0]
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        tables = connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if application == 0 and tables == 0 and version == 0:
            if not create:
                raise IndexProblem(
                    _("{path} is an empty database, not a hexhop index").format(path=path)
                )
            connection.executescript(
                # incremental vacuum: the pages of positions_new go back when it is emptied
                f"PRAGMA page_size = {PAGE_SIZE};\nPRAGMA auto_vacuum = INCREMENTAL;\n"
                f"BEGIN IMMEDIATE;\n{SCHEMA}\n"
                f"PRAGMA application_id = {APPLICATION_ID};\n"
                f"PRAGMA user_version = {SCHEMA_VERSION};\nCOMMIT;"
            )
            return
        if application != APPLICATION_ID:
            raise IndexProblem(
                _("{path} is an SQLite database but not a hexhop index").format(path=path)
            )
        if version > SCHEMA_VERSION:
            raise IndexProblem(
                _(
                    "{path} was written by a newer hexhop (index schema {version}; this hexhop "
                    "reads schema {known}): upgrade hexhop, or index into a new file"
                ).format(path=path, version=version, known=SCHEMA_VERSION)
            )
        if version < ANALYSED_SINCE - 1:
            raise IndexProblem(
                _(
                    "{path} was written by an older hexhop (index schema {version}): "
                    "index into a new file"
                ).format(path=path, version=version)
            )
        differ = schema_differences(connection, version)
        if differ:
            raise damaged(
                path,
                _("its schema is not the one hexhop makes: {names}").format(
                    names=", ".join(differ)
                ),
            )
        if version < SCHEMA_VERSION:
            _upgrade(connection, version, create)


def _upgrade(connection: sqlite3.Connection, version: int, write: bool) -> None:
    """Schema 4 (no stored analysis) or 5 (no player keys) brought up to 6:
    the tables and columns added, empty, and the version set, in one
    transaction, when the index is opened to be written (``index``, which
    then writes the keys: :meth:`Indexer.rekey`); a reader gets them as
    temporary tables of its own connection, the keys worked out as it
    reads (a view of the games), and leaves the file as it is."""
    missing = (ANALYSIS_SCHEMA if version < ANALYSED_SINCE else "") + KEYS_SCHEMA
    if write:
        connection.executescript(
            f"BEGIN IMMEDIATE;\n{missing}\nPRAGMA user_version = {SCHEMA_VERSION};\nCOMMIT;"
        )
        return
    if version < ANALYSED_SINCE:
        connection.executescript(ANALYSIS_SCHEMA.replace("CREATE TABLE", "CREATE TEMP TABLE"))
    connection.create_function("hx_plain", 1, _plain, deterministic=True)
    connection.create_function("hx_key_form", 1, _key_form, deterministic=True)
    connection.create_function("hx_player_key", 1, player_key, deterministic=True)
    connection.executescript(
        "CREATE TEMP TABLE names_file (path TEXT NOT NULL, digest TEXT NOT NULL);\n"
        f"CREATE TEMP VIEW games AS SELECT {_KEYED_VIEW} FROM main.games;"
    )


# the games of a schema 4 or 5 index as schema 6 has them (the keys without
# a names file: the index does not say which one there was)
_KEYED_VIEW = (
    "id, file, number, line, offset, length, game, board, valid, codes, result, winner,"
    " end_ply, plies, first, second, hx_plain(first) AS first_folded,"
    " hx_plain(second) AS second_folded, hx_key_form(first) AS first_ue,"
    " hx_key_form(second) AS second_ue, date, event, opening, actions, moves,"
    " hx_player_key(first) AS first_key, hx_player_key(second) AS second_key,"
    " NULL AS first_shown, NULL AS second_shown"
)


def damaged(path: str, reason: str) -> IndexProblem:
    """The problem of an index that holds what hexhop never writes."""
    return IndexProblem(
        _("{path} is damaged or was not made by hexhop ({reason}): index into a new file").format(
            path=path, reason=reason
        )
    )


def _normalised(sql: str | None) -> str | None:
    return " ".join(sql.split()) if sql is not None else None


@lru_cache(maxsize=3)
def _schema_made(version: int = SCHEMA_VERSION) -> frozenset[tuple[str, str, str, str | None]]:
    """(type, name, table, normalised SQL) of everything the schema of
    ``version`` (4, 5 or 6) makes, read from a database made with it (SQLite's
    own indexes included)."""
    with closing(sqlite3.connect(":memory:")) as made:
        made.executescript(
            SCHEMA + PUZZLE_SCHEMA
            if version >= KEYED_SINCE
            else BASE_SCHEMA + ANALYSIS_SCHEMA + PUZZLE_SCHEMA
            if version >= ANALYSED_SINCE
            else BASE_SCHEMA
        )
        return _schema_of(made)


def _schema_of(connection: sqlite3.Connection) -> frozenset[tuple[str, str, str, str | None]]:
    rows = connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    if not all(
        isinstance(kind, str)
        and isinstance(name, str)
        and isinstance(table, str)
        and isinstance(sql, (str, type(None)))
        for kind, name, table, sql in rows
    ):
        return frozenset({("?", "?", "?", None)})
    return frozenset((kind, name, table, _normalised(sql)) for kind, name, table, sql in rows)


def schema_differences(connection: sqlite3.Connection, version: int = SCHEMA_VERSION) -> list[str]:
    """The names of the tables, indexes, views and triggers that differ from
    what hexhop makes for schema ``version`` (missing, changed or added);
    none for hexhop's own. ``sqlite_sequence`` (made at the first game) may
    be missing."""
    made = _schema_made(version)
    found = _schema_of(connection)
    if found == made:
        return []
    optional = {item for item in made if item[1] == "sqlite_sequence" or item[2] in OPTIONAL_TABLES}
    differ = (made - found - optional) | (found - made)
    return sorted({printable_name(item[1]) for item in differ})


def printable_name(name: str) -> str:
    """A name from the file, short and without control characters."""
    shown = "".join(c if c.isprintable() else "?" for c in name[:40])
    return shown + ("…" if len(name) > 40 else "")


@contextmanager
def sqlite_errors(path: str) -> Iterator[None]:
    """SQLite's errors told as :class:`IndexProblem`, with what they mean here."""
    try:
        yield
    except sqlite3.Error as error:
        raise IndexProblem(_meaning(path, error)) from None
    except UnicodeDecodeError:  # SQLite's own message quotes a schema that is not UTF-8
        raise damaged(path, _("its schema is not UTF-8 text")) from None


def _meaning(path: str, error: sqlite3.Error) -> str:
    text = str(error)
    if "locked" in text or "busy" in text:
        return _(
            "{path} is locked by another program (another hexhop index?): try again later"
        ).format(path=path)
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return _(
            "{path} is damaged or not an SQLite database ({error}): index into a new file"
        ).format(path=path, error=text)
    if "too big" in text:
        reason = _("it holds a value larger than {size} MiB").format(size=MAX_VALUE >> 20)
        return str(damaged(path, reason))
    if "Could not decode to UTF-8" in text:  # Python's own message, with the bytes in it
        return str(damaged(path, _("it holds text that is not UTF-8")))
    if "readonly" in text or "read-only" in text:
        return _("cannot write {path}: it is read-only").format(path=path)
    return f"{path}: {text}"


# -- bounded queries ---------------------------------------------------------


@dataclass
class _Watch:
    """What the progress handler of a query looks at: its deadline (None:
    none) and the signal that came while it ran."""

    deadline: float | None
    signum: int | None = None
    late: bool = False


# The progress handler is defined in a namespace that is not hexhop's: a
# signal handler that finds it running knows that an exception raised
# there would be lost (SQLite calls it from C), and waits for a safe place;
# the handler stops the query instead, and the query's caller passes the
# signal on (:func:`guard`).
_HANDLER = """
def progress(watch, clock):
    def look():
        if watch.signum is not None:
            return 1
        if watch.deadline is not None and clock() > watch.deadline:
            watch.late = True
            return 1
        return 0
    return look
"""
_HANDLER_SPACE: dict[str, Any] = {"__name__": "sqlite-progress"}
exec(_HANDLER, _HANDLER_SPACE)  # noqa: S102 (constant text)


class guard:  # noqa: N801 (used as a function: ``with guard(db, path):``)
    """Run the block's SQLite calls bounded: at most ``seconds`` (None: no
    bound), and stopped by Ctrl-C or SIGTERM, which are then passed on to
    their handlers (or, without one, to the process). SQLite's errors
    become :class:`IndexProblem`, as in :func:`sqlite_errors`.

    A class, not a generator: a signal's handler raises its exception only
    where every frame below is hexhop's (cli/interrupt.py), and a
    ``contextlib`` frame is not."""

    def __init__(self, db: sqlite3.Connection, path: str, seconds: float | None = STEP_SECONDS):
        self.db, self.path, self.seconds = db, path, seconds
        self.watch = _Watch(None)
        self.previous: dict[int, _Handler] = {}

    def __enter__(self) -> None:
        seconds = self.seconds
        self.watch = _Watch(time.monotonic() + seconds if seconds is not None else None)
        handler = _HANDLER_SPACE["progress"](self.watch, time.monotonic)
        self.db.set_progress_handler(handler, PROGRESS_STEPS)
        self.previous = _watch_signals(self.watch)

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: Any
    ) -> None:
        _restore(self.previous)
        self.db.set_progress_handler(None, 0)
        if isinstance(error, UnicodeDecodeError):  # SQLite's message quotes bytes not UTF-8
            raise damaged(self.path, _("its schema is not UTF-8 text")) from None
        if not isinstance(error, sqlite3.Error):
            return
        if self.watch.signum is not None:
            _pass_on(self.watch.signum)
        if self.watch.late:
            seconds = f"{self.seconds:g}"
            raise damaged(
                self.path, _("a search took more than {seconds} s").format(seconds=seconds)
            ) from None
        raise IndexProblem(_meaning(self.path, error)) from None


_Handler = Callable[[int, Any], Any] | int | None


def _watch_signals(watch: _Watch) -> dict[int, _Handler]:
    """Note SIGINT and SIGTERM in ``watch`` (then call the handler set before)."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    previous: dict[int, _Handler] = {}
    for signum in (signal.SIGINT, signal.SIGTERM):
        before = signal.getsignal(signum)
        if before is None or before == signal.SIG_IGN:
            continue

        def noted(number: int, frame: Any, before: _Handler = before) -> None:
            watch.signum = number
            if callable(before):
                before(number, frame)

        previous[signum] = before
        signal.signal(signum, noted)
    return previous


def _restore(previous: dict[int, _Handler]) -> None:
    for signum, handler in previous.items():
        signal.signal(signum, handler)


def _pass_on(signum: int) -> None:
    """The signal that stopped a query, to its handler (from here, where an
    exception it raises reaches the callers), else to the process."""
    handler = signal.getsignal(signum)
    if callable(handler):
        handler(signum, sys._getframe())
    else:
        os.kill(os.getpid(), signum)
    raise KeyboardInterrupt  # a handler that let it pass: stop all the same


def guarded_rows(
    db: sqlite3.Connection,
    path: str,
    sql: str,
    args: Iterable[Any] = (),
    types: tuple[type | tuple[type, ...], ...] | None = None,
    table: str = "games",
) -> Iterator[tuple[Any, ...]]:
    """The rows of a search, each batch fetched within :func:`guard`; with
    ``types``, each row's values checked to be of those types (a
    :func:`damaged` index otherwise)."""
    with guard(db, path):
        cursor = db.execute(sql, tuple(args))
    while True:
        with guard(db, path):
            rows = cursor.fetchmany(256)
        if not rows:
            return
        for row in rows:
            if types is not None and not all(map(isinstance, row, types)):
                raise damaged(path, _wrong_value(row, types, cursor, table))
            yield row


def _wrong_value(
    row: tuple[Any, ...],
    types: tuple[type | tuple[type, ...], ...],
    cursor: sqlite3.Cursor,
    table: str,
) -> str:
    names = [column[0] for column in cursor.description or ()]
    for i, (value, kind) in enumerate(zip(row, types)):
        if not isinstance(value, kind):
            name = names[i] if i < len(names) else str(i)
            return _("{table}.{column} holds {value}").format(
                table=table, column=name, value=_shown(value)
            )
    return ""


def _shown(value: object) -> str:
    if value is None:
        return "NULL"
    text = repr(value)
    return printable_name(text)


# the types of values read: text, text or NULL, a number, a number or NULL
TEXT, TEXT_OR_NULL, NUMBER, NUMBER_OR_NULL = str, (str, type(None)), int, (int, type(None))


# -- building ----------------------------------------------------------------


@dataclass
class Summary:
    """What an indexing run did."""

    files: int = 0  # sources seen
    indexed: int = 0  # sources (re)indexed
    unchanged: int = 0
    dropped: int = 0  # sources gone since the last run
    games: int = 0  # games written
    positions: int = 0
    problems: list[str] = field(default_factory=list)  # unreadable or changed sources
    failed: int = 0  # sources not indexed: unreadable, failed or changed while read
    held: int = 0  # games the sources seen hold (written now or before)
    rekeyed: int = 0  # games whose players' keys a changed names file changed
    empty: list[str] = field(default_factory=list)  # notes on the sources that hold no game

    @property
    def verdict(self) -> int:
        """The exit status, as ``check`` decides: 2 when some source could
        not be indexed or no source held a game, else 0. A source without a
        game beside others with games is only noted, as in ``check``."""
        return 2 if self.problems or not self.held else 0


@dataclass
class _Job:
    """One source on its way into the index: its facts, listing order, the
    stat it had when it was read and whether it is unchanged."""

    facts: SourceFacts
    seq: int
    stat: tuple[int, int] | None
    place: Place
    key: str  # the identity the index knows the file by (Place.real, or a hard link's)
    unchanged: bool = False


@dataclass(eq=False)
class _Sent:
    """A part sent to a worker, and the call of the worker service that
    brings its answer."""

    part: FactsPart
    call: Call


# the indexer's stream of work, in archive order: a source's start, its
# parts (their games worked out when they are written, or in a worker) and its end
_BEGIN, _PART, _END = range(3)
_Work = Iterator[tuple[int, _Job, "FactsPart | _Sent | None"]]


class _SourceChanged(Error):
    """The source changed while it was read: roll its transaction back."""


class _SourceFailed(Error):
    """The source's games could not be worked out (the message says why):
    roll its transaction back."""


class Indexer:
    """Index sources into an open index: ``run`` yields after each source
    so that the caller can show progress and stop between files."""

    def __init__(
        self,
        connection: sqlite3.Connection,
        path: str,
        options: CheckOptions,
        jobs: int = 1,
        changed: Callable[[str], None] | None = None,
        seconds: float = PART_SECONDS,
        names: Names = NO_NAMES,
    ):
        self.db = connection
        self.names = names  # the club's names file: the players' keys
        self.path = path
        self.options = options
        self.jobs = jobs
        self.seconds = seconds  # the time a part's games may take
        self._workers: Workers | None = None
        self._flight: list[_Sent] = []  # parts sent to the workers, not written yet
        self.summary = Summary()
        self.changed = changed  # called after a source's games are read (tests use it)
        with sqlite_errors(path):
            # a commit per file: the write-ahead log keeps each one atomic
            # without waiting for the disk every time
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = NORMAL")
            # positions arrive in random key order: keep more of the tree at hand
            self.db.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
        # each file known, by its identity (Place.real): (id, digest, error?, inode)
        self._known: dict[str, tuple[int, str, bool, tuple[int, int] | None]] = {}
        self._inodes: dict[tuple[int, int, str], str] = {}  # (dev, ino, member) -> identity
        for row in guarded_rows(
            self.db,
            path,
            "SELECT real, id, digest, error, dev, ino FROM files",
            (),
            (TEXT, NUMBER, TEXT, TEXT_OR_NULL, NUMBER_OR_NULL, NUMBER_OR_NULL),
            "files",
        ):
            real = path_of(row[0], path)
            inode = (row[4], row[5]) if row[4] is not None and row[5] is not None else None
            self._known[real] = (row[1], row[2], row[3] is not None, inode)
            if inode is not None:
                self._inodes[inode[0], inode[1], _member(real)] = real
        self._seen: set[str] = set()
        self._replaced = False  # games were deleted: their positions need the sweep
        self._next_game = 0  # the id of the next game written
        self._direct = DIRECT_POSITIONS  # positions still to put straight into the tree
        with sqlite_errors(path):  # rows left by an interrupted run go in at the end of this one
            self._staged = (
                self.db.execute("SELECT 1 FROM positions_new LIMIT 1").fetchone() is not None
            )

    def run(self, paths: list[str], globs: tuple[str, ...] = ()) -> Iterator[Summary]:
        """Index every source of ``paths``; then drop the sources under
        ``paths`` that are gone. Yields the summary after each source.

        A source's games are read a part at a time and written a part at a
        time inside the source's one transaction; with ``jobs`` > 1 the
        parts are replayed in worker processes, a few of them ahead."""
        self.rekey()
        if self.jobs > 1:
            from hexhop.records.jobs import Workers

            self._workers = Workers(self.jobs)
        try:
            work = self._ahead(self._work(paths, globs, self._workers is not None))
            for kind, job, part in work:
                if kind == _BEGIN:
                    if job.unchanged:
                        self._keep(job)
                    else:
                        self._write_source(job, work)
                    yield self.summary
                elif isinstance(part, _Sent):  # a part of a source that failed
                    part.call.future.cancel()
                    self._flight.remove(part)
        finally:
            if self._workers is not None:
                self._workers.close()
                self._workers = None
        self._settle()
        self._drop_gone(paths)
        yield self.summary

    def rekey(self) -> None:
        """The players' keys (and spellings' forms) of every game made again
        when the names file is not the one they were made with (changed,
        added or removed) or were never made (an index upgraded from an
        older schema), in one transaction; then the names file remembered."""
        names = self.names
        now = (names.path and os.path.abspath(names.path), names.digest)
        if names_of_index(self.db, self.path) == now:
            return
        with guard(self.db, self.path, None), _transaction(self.db):
            last = -1
            while batch := self._rekeyed(last):
                self.db.executemany(
                    "UPDATE games SET first_folded = ?, second_folded = ?, first_ue = ?,"
                    " second_ue = ?, first_key = ?, first_shown = ?, second_key = ?,"
                    " second_shown = ? WHERE id = ?",
                    batch,
                )
                last = batch[-1][-1]
            self.db.execute("DELETE FROM names_file")
            self.db.execute(
                "INSERT INTO names_file (path, digest) VALUES (?, ?)", (stored_path(now[0]), now[1])
            )

    def _rekeyed(self, after: int) -> list[tuple[Any, ...]]:
        """The new forms and keys of the next :data:`REKEY_BATCH` games after id ``after``."""
        names = self.names
        rows = list(
            guarded_rows(
                self.db,
                self.path,
                "SELECT id, first, second, first_key, first_shown, second_key, second_shown"
                " FROM games WHERE id > ? ORDER BY id LIMIT ?",
                (after, REKEY_BATCH),
                (NUMBER, TEXT, TEXT, TEXT, TEXT_OR_NULL, TEXT, TEXT_OR_NULL),
            )
        )
        batch: list[tuple[Any, ...]] = []
        for game_id, first, second, *before in rows:
            tags = self._tags(game_id) if names.players else {}
            keys = _sides(names, first, second, tags)
            forms = (_plain(first), _plain(second), _key_form(first), _key_form(second))
            batch.append((*forms, *keys, game_id))
            self.summary.rekeyed += tuple(before) != keys
        return batch

    def _tags(self, game_id: int) -> dict[str, str]:
        """The tags of a game (for the names file's conditions)."""
        sql = "SELECT name, value FROM tags WHERE game = ?"
        return dict(guarded_rows(self.db, self.path, sql, (game_id,), (TEXT, TEXT), "tags"))

    def _work(self, paths: list[str], globs: tuple[str, ...], parallel: bool) -> _Work:
        """(kind, source, part or None) for every source, in order; a source's
        parts are cut from its bytes only as they are asked for."""
        from hexhop.records.sources import iter_sources

        from . import facts as reading

        sources = iter_sources(paths, globs=globs, limits=self.options.limits)
        seq = -1  # (enumerate's tuple would hold the source while the next one is read)
        for source in sources:
            place = place_of(source.path)
            key = self._identity(place)
            if key in self._seen:  # the same file again (another spelling, a link)
                continue
            self._seen.update((key, place.real))
            seq += 1
            self.summary.files += 1
            stat = _stat(source.path)
            size = INDEX_PART_GAMES if parallel else reading.BATCH
            facts, parts = reading.prepare(source, self.options, size)
            known = self._known.get(key)
            unchanged = (
                known is not None and known[1] == facts.digest and not known[2] and not facts.error
            )
            job = _Job(facts, seq, stat, place, key, unchanged)
            yield _BEGIN, job, None
            if not unchanged:
                for part in parts:
                    yield _PART, job, part
            yield _END, job, None
            del source, parts  # not held while the next file is read

    def _identity(self, place: Place) -> str:
        """The identity the index knows a file by: its real path, or that of
        a file with the same device and inode (a hard link to it, or the
        file before it was moved) that is gone or is that inode still."""
        if place.real in self._known or place.inode is None:
            return place.real
        other = self._inodes.get((*place.inode, _member(place.real)))
        if other is None or other == place.real:
            return place.real
        now = place_of(other).inode
        return other if now is None or now == place.inode else place.real

    def _ahead(self, work: _Work) -> _Work:
        """``work``, each part sent to the workers as soon as it is listed, at
        most two parts a worker ahead of the one being written."""
        if self._workers is None:
            yield from work
            return
        window: deque[tuple[int, _Job, FactsPart | _Sent | None]] = deque()
        parts = 0
        for kind, job, part in work:
            if part is not None and not isinstance(part, _Sent):
                part = self._send(part)
                parts += 1
            window.append((kind, job, part))
            while parts > self.jobs * 2:
                item = window.popleft()
                parts -= item[0] == _PART
                yield item
        yield from window

    def _send(self, part: FactsPart) -> _Sent:
        assert self._workers is not None
        sent = _Sent(part, self._workers.call(self._replay(), part, self.seconds))
        self._flight.append(sent)
        return sent

    def _replay(self) -> Callable[[FactsPart], list[GameFacts]]:
        """What a worker does with a part: its games worked out."""
        from . import facts as reading

        return partial(reading.part_facts, options=self.options)

    def _games(self, part: FactsPart | _Sent | None) -> list[GameFacts]:
        """The games of a part: the worker's answer, or replayed now; raises
        :class:`_SourceFailed` when they cannot be had in time."""
        from . import facts as reading

        if isinstance(part, _Sent):
            path = part.part.path
            games = self._answer(part)
        else:
            assert part is not None
            path = part.path
            games = reading.timed_part_facts(part, self.options, self.seconds)
        if games is None:
            raise _SourceFailed(_timed_out(path, self.seconds))
        return games

    def _answer(self, sent: _Sent) -> list[GameFacts] | None:
        """A worker's answer for the oldest part in flight, from the worker
        service (:meth:`~hexhop.records.jobs.Workers.take`): a worker that
        dies takes every call in flight with it; the part is then sent alone
        to new workers, and if it kills them too, it was the cause and its
        source fails; the other parts are sent again. None when it is stuck
        past its deadline where no checkpoint is reached (in C code): then
        the workers are replaced."""
        self._flight.remove(sent)
        workers = self._workers
        assert workers is not None
        flight = [other.call for other in self._flight]
        try:
            ok, games = workers.take(sent.call, flight, self._replay(), self.seconds, _died)
        except _SourceFailed:
            raise
        except Exception as error:  # the call failed: its answer did not come back
            raise _SourceFailed(_worker_failed(sent.part.path, repr(error))) from error
        return games if ok else None

    def _keep(self, job: _Job) -> None:
        """An unchanged source: only its place in the listing and its mtime."""
        known = self._known[job.key]
        place = job.place
        with guard(self.db, self.path, None):
            self.db.execute(
                "UPDATE files SET path = ?, real = ?, seq = ?, mtime = ?, disk_size = ?, dev = ?,"
                " ino = ? WHERE id = ?",
                (
                    stored_path(job.facts.path),
                    stored_path(place.real),
                    job.seq,
                    place.mtime,
                    place.size,
                    *(place.inode or (None, None)),
                    known[0],
                ),
            )
        self._now_known(job, known)
        self.summary.unchanged += 1
        with guard(self.db, self.path):
            held = self.db.execute(
                "SELECT count(*) FROM games WHERE file = ?", (known[0],)
            ).fetchone()[0]
        self._held(job.facts.path, held)

    def _held(self, path: str, games: int) -> None:
        self.summary.held += games
        if not games:
            self.summary.empty.append(
                _("{path}: this file holds no game (it is empty, or holds only comments)").format(
                    path=path
                )
            )

    def _now_known(self, job: _Job, known: tuple[int, str, bool, tuple[int, int] | None]) -> None:
        """Remember the file under its real path (a moved file's changes)."""
        if job.key != job.place.real:
            self._known.pop(job.key, None)
        self._known[job.place.real] = (*known[:3], job.place.inode)
        if job.place.inode is not None:
            device, inode = job.place.inode
            self._inodes[device, inode, _member(job.place.real)] = job.place.real

    def _write_source(self, job: _Job, work: _Work) -> None:
        """Write one source's games, a part at a time, in one transaction
        (or nothing at all when the file changed while it was read)."""
        facts = job.facts
        games = positions = 0
        try:
            with guard(self.db, self.path, None), _transaction(self.db):
                file_id = self._write_file(job)
                for kind, _job, part in work:
                    if kind == _END:
                        break
                    written = self._games(part)
                    self._write_games(file_id, written)
                    games += len(written)
                    positions += sum(len(game.keys) for game in written)
                if self.changed is not None:
                    self.changed(facts.path)
                if job.stat is not None and _stat(facts.path) != job.stat:
                    raise _SourceChanged
                if facts.error is not None:
                    error = json.dumps(facts.error, ensure_ascii=False)
                    self.db.execute("UPDATE files SET error = ? WHERE id = ?", (error, file_id))
        except _SourceChanged:
            self.summary.problems.append(
                _(
                    "{path} changed while it was indexed: its games were not written; "
                    "run hexhop index again"
                ).format(path=facts.path)
            )
            self.summary.failed += 1
            return
        except _SourceFailed as failure:
            self.summary.problems.append(
                _("{problem}: its games were not written").format(problem=failure)
            )
            self.summary.failed += 1
            return
        self._now_known(job, (file_id, facts.digest, facts.error is not None, None))
        self.summary.games += games
        self.summary.positions += positions
        self.summary.held += games
        if facts.error is not None:
            self.summary.problems.append(facts.error["message"])
            self.summary.failed += 1
            return
        self.summary.indexed += 1
        if not games:
            self._held(facts.path, 0)

    def _write_file(self, job: _Job) -> int:
        db = self.db
        facts = job.facts
        known = self._known.get(job.key)
        if known is not None:
            _delete_file(db, known[0])
            self._replaced = True
        place = job.place
        cursor = db.execute(
            "INSERT INTO files (path, real, seq, size, mtime, disk_size, dev, ino, digest)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                stored_path(facts.path),
                stored_path(place.real),
                job.seq,
                facts.size,
                place.mtime,
                place.size,
                *(place.inode or (None, None)),
                facts.digest,
            ),
        )
        assert cursor.lastrowid is not None
        # game ids are given here, in order, never one used before (AUTOINCREMENT's rule)
        last = db.execute(
            "SELECT coalesce(max(seq), 0) FROM sqlite_sequence WHERE name = 'games'"
        ).fetchone()[0]
        # written by hand: text, or an id so large that the next ones overflow
        if not isinstance(last, int) or not 0 <= last < 1 << 62:
            raise damaged(self.path, f"sqlite_sequence.seq holds {str(last)[:40]!r}")
        self._next_game = 1 + last
        return cursor.lastrowid

    def _write_games(self, file_id: int, games: list[GameFacts]) -> None:
        """One part's games with their tags and positions: three statements
        (SQLite reads the tags and keys of all of them from JSON)."""
        if not games:
            return
        db = self.db
        length_limit(db, MAX_WRITTEN)  # the JSON of a part's keys may be larger than a value read
        try:
            self._insert_games(file_id, games)
        finally:
            length_limit(db, MAX_VALUE)

    def _insert_games(self, file_id: int, games: list[GameFacts]) -> None:
        db = self.db
        first_id = self._next_game
        self._next_game += len(games)
        rows = []
        for game_id, game in enumerate(games, first_id):
            first, second = (game.players + ["?", "?"])[:2]
            tags = game.tags
            rows.append(
                (
                    game_id,
                    file_id,
                    game.number,
                    game.line,
                    game.offset,
                    game.length,
                    game.game,
                    game.board,
                    int(game.valid),
                    " ".join(game.codes),
                    game.result,
                    game.winner,
                    game.end_ply,
                    game.plies,
                    first,
                    second,
                    _plain(first),
                    _plain(second),
                    _key_form(first),
                    _key_form(second),
                    tags.get("Date"),
                    tags.get("Event"),
                    " ".join(game.actions[:OPENING]),
                    " ".join(game.actions[OPENING:]),
                    moves_key(game.game, game.actions),
                    *_sides(self.names, first, second, tags),
                )
            )
        db.executemany(
            "INSERT INTO games (id, file, number, line, offset, length, game, board, valid,"
            " codes, result, winner, end_ply, plies, first, second, first_folded,"
            " second_folded, first_ue, second_ue, date, event, opening, actions, moves,"
            " first_key, first_shown, second_key, second_shown)"
            f" VALUES ({', '.join('?' * 29)})",
            rows,
        )
        # the n-th object or list of the JSON belongs to game first_id + n
        db.execute(
            "INSERT OR IGNORE INTO tags (game, name, value)"
            " SELECT ? + g.key, t.key, t.value FROM json_each(?) g, json_each(g.value) t",
            (first_id, json.dumps([game.tags for game in games], ensure_ascii=False)),
        )
        keys = (first_id, json.dumps([game.keys for game in games]))
        if self._direct > 0:
            self._direct -= sum(len(game.keys) for game in games)
            # a tree larger than the page cache takes the rows in key order: one
            # walk along it instead of a jump per row; while the whole file fits
            # in the cache, sorting them costs more than the jumps
            order = " ORDER BY 1" if self._beyond_cache() else ""
            db.execute(
                "INSERT OR IGNORE INTO positions (key, game, ply)"
                " SELECT p.value >> 16, ? + g.key, p.key FROM json_each(?) g, json_each(g.value) p"
                + order,
                keys,
            )
        else:
            # a large tree takes random rows slowly, and each file's commit
            # would write most of it again: append them, sort them once at the end
            self._staged = True
            db.execute(
                "INSERT INTO positions_new (key, game, ply)"
                " SELECT p.value >> 16, ? + g.key, p.key FROM json_each(?) g, json_each(g.value) p",
                keys,
            )

    def _beyond_cache(self) -> bool:
        """Whether the index file is larger than half the page cache while indexing."""
        size = self.db.execute(
            "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()"
        ).fetchone()[0]
        return not isinstance(size, int) or size > CACHE_KIB * 512

    def _settle(self) -> None:
        """Move the positions waiting in ``positions_new`` into the tree, in
        key order, and give their pages back to the file."""
        if not self._staged:
            return
        with guard(self.db, self.path, None):
            # a sorted pass needs few pages at hand; SQLite's sort takes as
            # much memory as the page cache may
            self.db.execute(f"PRAGMA cache_size = -{SETTLE_CACHE_KIB}")
            with _transaction(self.db):
                self.db.execute(
                    "INSERT OR IGNORE INTO positions (key, game, ply)"
                    " SELECT key, game, ply FROM positions_new ORDER BY key, game, ply"
                )
                self.db.execute("DELETE FROM positions_new")
            # (executescript: the pragma frees one page per step until it is done)
            self.db.executescript("BEGIN IMMEDIATE; PRAGMA incremental_vacuum; COMMIT;")
            self.db.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
        self._staged = False

    def _drop_gone(self, paths: list[str]) -> None:
        """Drop the sources under ``paths`` that this run did not see."""
        roots = [place_of(root).real for root in paths]
        gone = [
            (path, known[0])
            for path, known in self._known.items()
            if path not in self._seen and any(_under(path, root) for root in roots)
        ]
        for path, file_id in gone:
            with guard(self.db, self.path, None), _transaction(self.db):
                _delete_file(self.db, file_id)
            del self._known[path]
            self.summary.dropped += 1
        if self._replaced or gone:
            with guard(self.db, self.path, None), _transaction(self.db):
                # positions of games replaced or dropped (queries join them away until now)
                self.db.execute("DELETE FROM positions WHERE game NOT IN (SELECT id FROM games)")


def _sides(
    names: Names, first: str, second: str, tags: dict[str, str]
) -> tuple[str, str | None, str, str | None]:
    """(key, shown) of the first player, then of the second."""
    return (*_identity(names, first, tags), *_identity(names, second, tags))


def _timed_out(path: str, seconds: float) -> str:
    from hexhop.notation.findings import make

    return make("IO09", None, path=path, limit=f"{seconds:g}").message


def _died(part: FactsPart, error: BaseException) -> None:
    """A part that killed its worker twice fails its source."""
    raise _SourceFailed(_worker_failed(part.path, _("a worker process died")))


def _worker_failed(path: str, reason: str) -> str:
    from hexhop.notation.findings import make

    reason = _("the checker failed: {reason}").format(reason=reason)
    return make("IO01", None, path=path, reason=reason).message


@lru_cache(maxsize=4096)
def _plain(name: str) -> str:
    """:func:`~.players.plain_form`, remembered: an archive names the same
    players many times."""
    return plain_form(name)


@lru_cache(maxsize=4096)
def _key_form(name: str) -> str:
    """:func:`~.players.key_form`, remembered."""
    return key_form(name)


def _identity(names: Names, name: str, tags: dict[str, str]) -> tuple[str, str | None]:
    """(key, name shown or None) of the player ``name`` names in a game with ``tags``."""
    found = names.identify(name, tags)
    return found.key, found.shown


def names_of_index(db: sqlite3.Connection, path: str) -> tuple[str, str] | None:
    """(path, digest) of the names file the index's keys were made with
    (``("", "")``: none); None when the keys were never made (an index of an
    older schema)."""
    sql = "SELECT path, digest FROM names_file"
    rows = list(guarded_rows(db, path, sql, (), (TEXT, TEXT), "names_file"))
    if not rows:
        return None
    return path_of(rows[0][0], path), rows[0][1]


def stored_path(path: str) -> str:
    """``path`` as the index keeps it: itself, or for a name that is not
    UTF-8 (which Python holds with surrogates, and SQLite cannot take) NUL
    and the hex of its bytes; NUL is in no file name, so the two never meet."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return "\x00" + path.encode("utf-8", "surrogateescape").hex()
    return path


def path_of(stored: str, index: str = "") -> str:
    """The path that :func:`stored_path` gave ``stored`` for; a
    :func:`damaged` ``index`` when it cannot have come from there."""
    if not isinstance(stored, str):
        raise damaged(index or _("the index"), _("a path is {value}").format(value=_shown(stored)))
    if stored.startswith("\x00"):
        try:
            return bytes.fromhex(stored[1:]).decode("utf-8", "surrogateescape")
        except ValueError:
            raise damaged(
                index or _("the index"), _("a path is {value}").format(value=_shown(stored))
            ) from None
    return stored


def stored_key(key: int) -> int:
    """The part of a signed 64-bit position key the index stores: its top
    48 bits (SQLite stores them in 6 bytes instead of 8)."""
    return key >> 16


def actions_of(opening: str, rest: str) -> list[str]:
    """The normalised actions of a game from the index's ``opening`` (the
    first :data:`OPENING`) and ``actions`` (the others) columns."""
    text = f"{opening} {rest}" if rest else opening
    return text.split(" ") if text else []


def moves_key(game: str | None, actions: Iterable[str]) -> int:
    """A signed 64-bit hash of the game type and its normalised actions
    (what ``dupes`` groups by)."""
    text = "\n".join([game or "", *actions]).encode()
    return signed(int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little"))


@contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.set_progress_handler(None, 0)  # a signal that came must not stop the rollback
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _delete_file(db: sqlite3.Connection, file_id: int) -> None:
    """A file and its games and tags; its positions go in the sweep at the
    end of the run (they are joined away until then)."""
    db.execute(
        "DELETE FROM tags WHERE game BETWEEN (SELECT min(id) FROM games WHERE file = ?)"
        " AND (SELECT max(id) FROM games WHERE file = ?)",
        (file_id, file_id),
    )
    for table in ("analyses", "notes", "solved"):  # the file's stored analysis
        db.execute(
            f"DELETE FROM {table} WHERE game IN (SELECT id FROM games WHERE file = ?)",
            (file_id,),
        )
    db.execute("DELETE FROM games WHERE file = ?", (file_id,))
    db.execute("DELETE FROM files WHERE id = ?", (file_id,))


def container(path: str) -> str:
    """The file on disk that holds the source ``path`` (``a.zip:x.hxl`` is in ``a.zip``)."""
    from hexhop.records.sources import ARCHIVE_EXTENSIONS

    if os.path.exists(path):
        return path
    start = 0
    while (colon := path.find(":", start)) >= 0:
        head = path[:colon]
        if head.lower().endswith(ARCHIVE_EXTENSIONS) and os.path.isfile(head):
            return head
        start = colon + 1
    return path


@dataclass(frozen=True)
class Place:
    """Where a source is on disk: its identity (the real path of the file
    holding it, symbolic links resolved, and for an archive's member
    ``:member``), that file's device and inode, size and mtime (None when
    it cannot be found: standard input, a file gone)."""

    real: str
    inode: tuple[int, int] | None = None
    size: int | None = None
    mtime: int | None = None


def place_of(path: str) -> Place:
    """The :class:`Place` of the source ``path`` (``a.zip:x.hxl``: in ``a.zip``)."""
    holder = container(path)
    try:
        info = os.stat(holder)
    except (OSError, ValueError):
        return Place(path)
    real = os.path.realpath(holder) + path[len(holder) :]
    return Place(real, (info.st_dev, info.st_ino), info.st_size, info.st_mtime_ns)


def _member(real: str) -> str:
    """The member part of an identity (``:x.hxl`` of ``/a/b.zip:x.hxl``), else ''."""
    holder = container(real)
    return real[len(holder) :] if holder != real else ""


def _stat(path: str) -> tuple[int, int] | None:
    """(size, mtime in ns) of the file holding ``path``; None when there is none."""
    try:
        info = os.stat(container(path))
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns


def _under(path: str, root: str) -> bool:
    root = root.rstrip("/") or "/"
    return path == root or path.startswith((root + "/", root + ":", root + os.sep))
