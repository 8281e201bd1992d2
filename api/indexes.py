"""An archive's index as a library object: ``hexhop index``, ``find``,
``dupes`` and ``stats`` as calls, and a crosstable of the players.

A thin layer over :mod:`hexhop.archive.index` (making the index),
:mod:`hexhop.archive.query` (the filters and the search),
:mod:`hexhop.archive.dupes` and :mod:`hexhop.archive.stats`: the answers
are the commands' answers (``find --format json`` writes
``[hit.as_json() for hit in index.find(...)]``, ``stats --format json``
writes ``index.stats(...)``).

    >>> summary = hexhop.index_paths("samples/good", db=f"{tmp}/good.sqlite")
    >>> summary.indexed, summary.games, summary.verdict
    (6, 6, 0)
    >>> with hexhop.open_index(f"{tmp}/good.sqlite") as index:
    ...     [hit.players for hit in index.find(player="Anna Berger")]
    [['Anna Berger', 'Jonas Keller']]
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import Any

from hexhop.archive.dupes import Group
from hexhop.archive.index import Summary
from hexhop.archive.query import Hit, Query
from hexhop.archive.standings import Crosstable, Ratings
from hexhop.messages import _

SIDE_FILTERS = ("north", "south", "red", "turquoise")  # find's --north ... --turquoise


def index_paths(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    db: str | os.PathLike[str] | None = None,
    game: str | None = None,
    globs: Iterable[str] = (),
    jobs: int = 1,
    names: str | os.PathLike[str] | None = None,
) -> Summary:
    """Index ``paths`` (what ``hexhop check`` takes) into ``db`` (default:
    ``hexhop.sqlite`` beside the first path), as ``hexhop index`` does: new
    and changed files are read, unchanged ones kept, gone ones dropped.
    Returns the run's :class:`~hexhop.archive.index.Summary` (``indexed``,
    ``unchanged``, ``games``, ``problems``…; ``verdict`` is the command's
    exit status). ``names`` is the club's names file (default:
    ``hexhop-names.txt`` beside the first path, as ``hexhop index --names``).

    >>> first = hexhop.index_paths("samples/good", db=f"{tmp}/again.sqlite")
    >>> again = hexhop.index_paths("samples/good", db=f"{tmp}/again.sqlite")
    >>> (first.indexed, first.games), (again.indexed, again.unchanged, again.games)
    ((6, 6), (0, 6, 0))
    """
    from hexhop.archive.index import Indexer, default_path, open_index
    from hexhop.archive.players import load_names
    from hexhop.archive.query import bounded
    from hexhop.records.checking import CheckOptions
    from hexhop.records.jobs import cores

    names_file = os.fspath(names) if names is not None else None
    sources = _names(paths)
    globs = tuple(globs)
    for pattern in globs:
        bounded(pattern, "--glob")
    path = os.fspath(db) if db is not None else default_path(sources[0])
    who = load_names(names_file, sources[:1])
    connection = open_index(path, create=True)
    try:
        options = CheckOptions(game=game)
        indexer = Indexer(connection, path, options, jobs or cores(), names=who)
        for _summary in indexer.run(sources, globs):
            pass  # the summary grows as each source is indexed
        summary = indexer.summary
    finally:
        connection.close()
    return summary


def open_index(db: str | os.PathLike[str]) -> Index:
    """The index ``db`` (made by ``hexhop index`` or :func:`index_paths`),
    opened to search; close it, or use it in a ``with`` block. An index
    that cannot be used raises :class:`~hexhop.archive.index.IndexProblem`
    (a :class:`hexhop.Error`) saying why.

    >>> made = hexhop.index_paths("samples/good", db=f"{tmp}/good.sqlite")
    >>> index = hexhop.open_index(f"{tmp}/good.sqlite")
    >>> [hit.number for hit in index.find(game="Hüpfer", board="8x8")], index.stale()
    ([1], [])
    >>> index.close()
    """
    return Index(os.fspath(db))


class Index:
    """An open index: :meth:`find`, :meth:`dupes`, :meth:`stats`,
    :meth:`crosstable` and :meth:`stale`, each answering as its command does
    from ``--db``.

    The filters of :meth:`find`, :meth:`stats` and :meth:`crosstable` are
    ``find``'s options, written as there: ``player`` (a name, part of one
    or a glob; a list for several players who all took part), ``north``,
    ``south``, ``red``, ``turquoise``, ``tag`` (``"Event=*Kassel*"``, or a
    list), ``game``, ``board`` (``"8x8"``), ``result`` (``"1-0"``),
    ``winner`` (``"South"``), ``date`` (``"1998..1999.06"``), ``plies``
    (``"20..60"``), ``valid`` (True/False), ``finding`` (a code, or a
    list), ``position`` (Position text), ``after`` (``"B4W3 D7W1"``);
    ``under`` (a list of paths) keeps the games of the files under them, as
    the ARCHIVE paths beside ``--db`` do. A
    filter that cannot be read raises
    :class:`~hexhop.archive.query.QueryError` (a :class:`hexhop.Error`).
    """

    def __init__(self, path: str):
        from hexhop.archive.query import open_to_search

        self.path = path
        self._db: sqlite3.Connection | None = open_to_search(path)

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            from hexhop.archive.index import IndexProblem

            raise IndexProblem(_("{path}: the index is closed").format(path=self.path))
        return self._db

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> Index:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Index {self.path!r}{'' if self._db is not None else ' (closed)'}>"

    # -- the commands ----------------------------------------------------------------------

    def find(self, *, under: Iterable[str | os.PathLike[str]] = (), **filters: Any) -> list[Hit]:
        """The games the filters match, in archive order, as ``hexhop find
        --db`` lists them: each :class:`~hexhop.archive.query.Hit` has the
        ``path``, ``number``, ``line``, ``players``, ``result``, ``date``,
        ``event``, ``plies``, ``valid`` (and ``ply`` with ``position``);
        ``as_json()`` is find's JSON object.

        >>> with hexhop.open_index(f"{tmp}/good.sqlite") as index:
        ...     [(h.game, h.players[1], h.result) for h in index.find(winner="south")]
        [('Hexalit', 'Jonas Keller', '0-1'), ('Trigeo', 'Karl Brandt', '0-1')]
        """
        from hexhop.archive import service

        hits = service.find(self.db, self.path, query(**filters))
        inside = _within(under)
        return [hit for hit in hits if inside(hit.real)]

    def players(self, *, under: Iterable[str | os.PathLike[str]] = ()) -> dict[str, Any]:
        """Each player (by key) and the players that may be one person, as
        ``hexhop players --db --format json`` gives them: ``{"players":
        [{"key", "name", "games", "first", "last", "spellings": [{"name",
        "games"}]}], "suggestions": [{"players": [{"key", "name"}], "why"}]}``.

        >>> with hexhop.open_index(f"{tmp}/good.sqlite") as index:
        ...     [(p["name"], p["games"]) for p in index.players()["players"]][:2]
        [('Anna Berger', 1), ('Jonas Keller', 1)]
        """
        from hexhop.archive.roster import roster, roster_json, sides_in_index, suggest

        inside = _within(under)
        rows = roster(side for side in sides_in_index(self.db, self.path) if inside(side.real))
        return roster_json(rows, suggest(rows))

    def dupes(
        self,
        *,
        same_players: bool = False,
        game: str | None = None,
        under: Iterable[str | os.PathLike[str]] = (),
    ) -> list[Group]:
        """The groups of games with the same actions, as ``hexhop dupes
        --db`` finds them (``same_players``: and the same players); each
        :class:`~hexhop.archive.dupes.Group` has the ``game``, the
        ``actions`` and the ``games`` (hits, the first the one kept).

        >>> with hexhop.open_index(f"{tmp}/good.sqlite") as index:
        ...     index.dupes()
        []
        """
        from hexhop.archive.dupes import groups, index_entries
        from hexhop.notation.games import find_game

        name = find_game(game).name if game is not None else None
        entries = index_entries(self.db, self.path, same_players)
        inside = _within(under)
        found = groups(e for e in entries if inside(e.hit.real or e.hit.path))
        return [group for group in found if name is None or group.game == name]

    def stats(
        self,
        *,
        depth: int = 4,
        top: int = 3,
        limit: int = 20,
        under: Iterable[str | os.PathLike[str]] = (),
        names_file: str | None = None,
        keep_duplicates: bool = False,
        **filters: Any,
    ) -> Any:
        """What ``hexhop stats --db --format json`` writes, as plain data:
        ``games``, ``by_game``, ``lengths``, ``players`` (``limit`` of them,
        0: all; a player is a person, by the player key and the names file
        ``names_file``, else ``hexhop-names.txt`` beside the index),
        ``openings`` (the ``top`` actions of each branch, ``depth`` actions
        deep), ``findings`` and ``set_aside`` (the copies of games counted
        once; ``keep_duplicates``: every copy counted), of the games the
        filters match.

        >>> with hexhop.open_index(f"{tmp}/good.sqlite") as index:
        ...     counts = index.stats(game="Hüpfer")
        >>> counts["games"], [p["name"] for p in counts["players"]][:2]
        (3, ['Paul Ohlsen', 'Mira Hansen'])
        """
        from hexhop.archive.stats import MAX_DEPTH, collect, index_rows, plain, row_table

        if not 1 <= depth <= MAX_DEPTH:
            from hexhop.archive.query import QueryError

            raise QueryError(
                _("depth {depth}: expected 1 to {most}").format(depth=depth, most=MAX_DEPTH)
            )
        from hexhop.archive.counting import Once, People, condition_tags, identified
        from hexhop.archive.players import load_names
        from hexhop.archive.stats import by_person

        names = load_names(names_file, (self.path,))
        people, once = People(names), Once(keep_duplicates)
        rows = index_rows(self.db, self.path, query(**filters), depth, condition_tags(names))
        inside = _within(under)
        table = row_table(
            identified((row for row in rows if inside(row.path)), people, once), depth
        )
        try:
            counts = plain(collect(table, depth, top, limit))
        finally:
            table.close()
        counts["players"] = by_person(counts["players"], people)
        counts["set_aside"] = once.set_aside
        return counts

    def crosstable(
        self,
        event: str | None = None,
        *,
        under: Iterable[str | os.PathLike[str]] = (),
        names_file: str | None = None,
        keep_duplicates: bool = False,
        **filters: Any,
    ) -> Crosstable:
        """Every player against every other, of the games of ``event`` (a
        glob of the Event tag; default: every game) that the filters match:
        games won, lost and open, the winner counted as ``stats`` counts it
        (on the board, else by the written result), the players in the
        order of the standings (points, Sonneborn-Berger, head-to-head,
        name; see :mod:`hexhop.archive.standings`). A player is a person
        (the player key and the names file, as ``hexhop crosstable``), and
        a game the index holds twice is counted once (``keep_duplicates``:
        every copy). Games of an unnamed player (``?``) are left out.

        >>> with hexhop.open_index(f"{tmp}/good.sqlite") as index:
        ...     table = index.crosstable("Hüpfer-Abend")
        >>> print(table)
                         1    2    3 points   SB  won lost open
        1 Mira Hansen    .  2-0    .      2    2    2    0    0
        2 Paul Ohlsen  0-2    .  1-0      1    0    1    2    0
        3 Lena Voss      .  0-1    .      0    0    0    1    0
        >>> table.score("Paul Ohlsen", "Mira Hansen")
        (0, 2, 0)
        """
        from hexhop.archive.stats import index_rows

        if event is not None:
            tags = filters.get("tag", ())
            filters["tag"] = [*([tags] if isinstance(tags, str) else tags), f"Event={event}"]
        from hexhop.archive.counting import condition_tags, count_once
        from hexhop.archive.players import load_names

        names = load_names(names_file, (self.path,))
        rows = index_rows(self.db, self.path, query(**filters), 1, condition_tags(names))
        inside = _within(under)
        counted = count_once((row for row in rows if inside(row.path)), names, keep_duplicates)
        return Crosstable.of(counted.games)

    def ratings(
        self,
        event: str | None = None,
        *,
        under: Iterable[str | os.PathLike[str]] = (),
        names_file: str | None = None,
        keep_duplicates: bool = False,
        **filters: Any,
    ) -> list[Ratings]:
        """The Elo lists of the games the filters match, one per game (and
        Hüpfer board), as ``hexhop ratings`` gives them: a player is a
        person, each game is rated once. With ``event``, the ratings after
        that event: over the whole index up to and including the event's
        last game in date order, of its players, each with their ``change``
        over it (what ``hexhop ratings --event`` and the web app's event
        page show).

        >>> with hexhop.open_index(f"{tmp}/good.sqlite") as index:
        ...     lists = index.ratings("Hüpfer-Abend", board="6x6")
        >>> [(r.kind, r.after, r.players()) for r in lists]
        [('Hüpfer 6x6', 'Hüpfer-Abend', ['Mira Hansen', 'Paul Ohlsen'])]
        """
        from hexhop.archive.counting import condition_tags, count_once
        from hexhop.archive.players import load_names
        from hexhop.archive.standings import event_matcher, index_games, rate_lists

        names = load_names(names_file, (self.path,))
        games = index_games(self.db, self.path, query(**filters), condition_tags(names))
        inside = _within(under)
        counted = count_once((game for game in games if inside(game.path)), names, keep_duplicates)
        return rate_lists(counted.games, event=None if event is None else event_matcher(event))

    def stale(self, *under: str) -> list[str]:
        """The files of the index (under the paths ``under``, when given)
        that changed or are gone since they were indexed: ``find`` and
        ``stats`` warn of them, and ``hexhop index`` brings them up to date."""
        from hexhop.archive.query import stale_files

        return stale_files(self.db, self.path, under)


def query(**filters: Any) -> Query:
    """The :class:`~hexhop.archive.query.Query` of ``find``'s filters, read
    as ``hexhop find`` reads its options: the filters of the table
    :data:`hexhop.archive.filters.FILTERS`, by name (``plies`` for
    ``length`` too; see :class:`Index`)."""
    from hexhop.archive import service
    from hexhop.archive.filters import by_name, known_names, unknown
    from hexhop.archive.query import QueryError
    from hexhop.notation.games import find_game

    wrong = unknown(filters)
    if wrong:
        raise QueryError(
            _("unknown filter {names}: expected one of {known}").format(
                names=", ".join(wrong), known=", ".join(sorted(known_names()))
            )
        )
    values = by_name(filters)
    if values.get("game") is not None:
        values["game"] = find_game(values["game"]).name
    if values.get("board") is not None:
        values["board"] = str(values["board"])
    return service.query_of(
        values, label=lambda item: "plies" if item.name == "length" else item.name
    )


def _within(under: Iterable[str | os.PathLike[str]]) -> Callable[[str], bool]:
    """Whether a file of the index (by its identity, the real path) lies
    under one of the paths ``under`` (any spelling of them); every file
    when ``under`` is empty: the ARCHIVE paths that ``find``, ``dupes``
    and ``stats`` take beside ``--db``."""
    from hexhop.archive.query import real_roots, under_any

    paths = [os.fspath(path) for path in under]
    if not paths:
        return lambda real: True
    roots = real_roots(paths)
    return lambda real: under_any(real, roots)


def _listed(value: str | Iterable[str] | None) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def _names(paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]) -> list[str]:
    if isinstance(paths, (str, os.PathLike)):
        return [os.fspath(paths)]
    return [os.fspath(path) for path in paths]
