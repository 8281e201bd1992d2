"""Standings: the crosstable of an event and Elo ratings over an archive.

The games come from an index or from an archive read now (the same
answer); a game is won by the side that won on the board, else by the
side its written result names, as ``stats`` counts it (a dropped cube is
a loss); the rules have no draws, and a game with no winner (``*``) is
open: it is shown in the crosstable but scores nothing, and the ratings
leave it out.

The crosstable's order: points (one per game won), then the
Sonneborn-Berger score (for each game won, the points of the opponent
beaten), then the points in the games among the players still level
(head-to-head), then the name.

The ratings: Elo, every player starting at :data:`START`, each game
moving both ratings by ``K * (score - expected)`` with
``expected = 1 / (1 + 10 ** ((other - own) / 400))`` and ``K`` =
:data:`K_FACTOR`; the games in the order of their Date tag (games of the
same date in archive order); games without a date are left out.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from hexhop.messages import _
from hexhop.notation.games import lookup_game
from hexhop.records.checking import CheckOptions

from .index import TEXT, TEXT_OR_NULL, guarded_rows, path_of
from .query import Query, archive_games, register

START = 1500.0  # every player's first rating
K_FACTOR = 20.0  # how far one game moves a rating
#: The most players a crosstable shows as a full table, a row and a column
#: each. The table grows with the square of its players (3,000 players who
#: played twice each made 45 MB of text and a PDF that never ended); 50 still
#: fits a page of paper. Beyond it the crosstable is a listing
#: (:meth:`Crosstable.listing_rows`): each player's standing and games, as
#: long as the games.
MAX_TABLE_PLAYERS = 50
#: The widest the name column of a text table is padded to: a longer name
#: makes its own line longer, not every line.
MAX_NAME_WIDTH = 40


class Played(Protocol):
    """What a crosstable needs of a game (a :class:`Game`, or a stats row)."""

    @property
    def game(self) -> str | None: ...
    @property
    def winner(self) -> str | None: ...
    @property
    def first(self) -> str: ...
    @property
    def second(self) -> str: ...


@dataclass(frozen=True)
class Game:
    """One game as the standings see it."""

    path: str
    game: str | None
    winner: str | None  # the side that won (on the board, else by the written result)
    first: str  # the player of the game's first side (North, Red)
    second: str
    date: str | None
    event: str | None


def listing_note(players: int) -> str:
    """Why a crosstable of ``players`` players is a listing of their games."""
    return _(
        "{players} players: more than the {limit} a crosstable shows as a table; "
        "each player's games are listed instead"
    ).format(players=players, limit=MAX_TABLE_PLAYERS)


def winner_of(game: str | None, result: str | None, board_winner: str | None) -> str | None:
    """The side that won: on the board, else by the written result."""
    spec = lookup_game(game)
    if board_winner is None and spec is not None and result in ("1-0", "0-1"):
        return spec.sides[0] if result == "1-0" else spec.sides[1]
    return board_winner


def index_games(db: sqlite3.Connection, path: str, query: Query) -> Iterator[Game]:
    """The index's games that ``query`` matches, in archive order; each
    game's path is the file's identity (its real path)."""
    register(db)
    where, args = query.sql()
    sql = (
        "SELECT f.real, g.game, g.result, g.winner, g.first, g.second, g.date, g.event"
        f" FROM games g JOIN files f ON f.id = g.file WHERE {where} ORDER BY f.seq, g.number"
    )
    types = (TEXT, TEXT_OR_NULL, TEXT_OR_NULL, TEXT_OR_NULL, TEXT, TEXT) + (TEXT_OR_NULL,) * 2
    for row in guarded_rows(db, path, sql, args, types):
        yield Game(
            path_of(row[0], path),
            row[1],
            winner_of(row[1], row[2], row[3]),
            row[4],
            row[5],
            row[6],
            row[7],
        )


def archive_standing_games(
    paths: list[str],
    query: Query,
    options: CheckOptions,
    globs: tuple[str, ...],
    on_games: Callable[[int], None] | None = None,
) -> Iterator[Game | str]:
    """The games of an archive read now that ``query`` matches; a source
    that cannot be read comes as its message."""
    for found in archive_games(paths, options, globs, on_games):
        if isinstance(found, str):
            yield found
        elif query.matches(found[0])[0]:
            facts, hit = found
            first, second = (facts.players + ["?", "?"])[:2]
            yield Game(
                hit.path,
                facts.game,
                winner_of(facts.game, facts.result, facts.winner),
                first,
                second,
                hit.date,
                hit.event,
            )


def _sides(row: Played) -> tuple[int, int] | None:
    """(first won, second won) of a game between two named players, else None."""
    spec = lookup_game(row.game)
    if spec is None or "?" in (row.first, row.second) or row.first == row.second:
        return None
    return int(row.winner == spec.sides[0]), int(row.winner == spec.sides[1])


# -- the crosstable ------------------------------------------------------------


@dataclass
class Crosstable:
    """Players against players: ``results[a][b]`` is ``[won, lost, open]``
    of ``a``'s games against ``b``; ``players`` in the order of the
    standings (points, Sonneborn-Berger, head-to-head, name). ``str()``
    is a table."""

    players: list[str] = field(default_factory=list)
    results: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    # each player's (won, lost, open), worked out once: the order and the
    # tie-break ask for them once per game
    _totals: dict[str, tuple[int, int, int]] = field(
        default_factory=dict, repr=False, compare=False
    )
    _number: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, rows: Iterable[Played]) -> Crosstable:
        """The table of some games (:class:`Game` or stats rows); games of
        an unnamed player (``?``) are left out."""
        table = cls()
        for row in rows:
            sides = _sides(row)
            if sides is None:
                continue
            first, second = sides
            open_ = 1 - first - second
            table._add(row.first, row.second, (first, second, open_))
            table._add(row.second, row.first, (second, first, open_))
        table.players = table._ordered()
        table._number = {name: i for i, name in enumerate(table.players, 1)}
        return table

    def _add(self, player: str, other: str, counts: tuple[int, int, int]) -> None:
        self._totals.pop(player, None)
        cell = self.results.setdefault(player, {}).setdefault(other, [0, 0, 0])
        for i, n in enumerate(counts):
            cell[i] += n

    def _ordered(self) -> list[str]:
        names = sorted(self.results, key=lambda n: (-self.points(n), -self.tie_break(n), n))
        ordered: list[str] = []
        start = 0
        while start < len(names):
            key = (self.points(names[start]), self.tie_break(names[start]))
            end = start
            while end < len(names) and (self.points(names[end]), self.tie_break(names[end])) == key:
                end += 1
            level = set(names[start:end])
            ordered += sorted(level, key=lambda n: (-self.head_to_head(n, level), n))
            start = end
        return ordered

    def score(self, player: str, other: str) -> tuple[int, int, int]:
        """Games ``player`` won, lost and left open against ``other``."""
        won, lost, open_ = self.results.get(player, {}).get(other, [0, 0, 0])
        return won, lost, open_

    def total(self, player: str) -> tuple[int, int, int]:
        """Games ``player`` won, lost and left open in all."""
        found = self._totals.get(player)
        if found is None:
            cells = self.results.get(player, {}).values()
            won, lost, open_ = (sum(cell[i] for cell in cells) for i in range(3))
            found = self._totals[player] = (won, lost, open_)
        return found

    def points(self, player: str) -> int:
        """One point per game won (no draws; open games score nothing)."""
        return self.total(player)[0]

    def tie_break(self, player: str) -> int:
        """Sonneborn-Berger: for each game won, the points of the player beaten."""
        return sum(
            cell[0] * self.points(other) for other, cell in self.results.get(player, {}).items()
        )

    def head_to_head(self, player: str, level: Collection[str]) -> int:
        """Points in the games against the players of ``level`` (a set, so
        that the work is that of ``player``'s opponents, not of the level)."""
        return sum(
            cell[0]
            for other, cell in self.results.get(player, {}).items()
            if other != player and other in level
        )

    @property
    def full(self) -> bool:
        """Whether the table is shown whole, a column per player: at most
        :data:`MAX_TABLE_PLAYERS` players (else as :meth:`listing_rows`)."""
        return len(self.players) <= MAX_TABLE_PLAYERS

    def opponents(self, player: str) -> list[tuple[int, str]]:
        """The number (rank) of each player ``player`` met, in that order,
        and :meth:`cell` against them; the work is that of the games."""
        number = self._number or {name: i for i, name in enumerate(self.players, 1)}
        met = sorted((number[other], other) for other in self.results.get(player, {}))
        return [(n, self.cell(player, other)) for n, other in met]

    def as_json(self) -> list[dict[str, Any]]:
        """The standings as plain data: each player's rank, name, points
        (a number), tie-break, won, lost, open, and the games against each
        opponent met."""
        rows = []
        for rank, name in enumerate(self.players, 1):
            won, lost, open_ = self.total(name)
            rows.append(
                {
                    "rank": rank,
                    "player": name,
                    "points": self.points(name),
                    "sonneborn_berger": self.tie_break(name),
                    "won": won,
                    "lost": lost,
                    "open": open_,
                    "against": {
                        self.players[number - 1]: dict(
                            zip(("won", "lost", "open"), self.score(name, self.players[number - 1]))
                        )
                        for number, _cell in self.opponents(name)
                    },
                }
            )
        return rows

    def cell(self, player: str, other: str) -> str:
        """``won-lost`` of ``player`` against ``other`` (``+`` after it: and
        open games), ``.`` when they did not meet."""
        won, lost, open_ = self.score(player, other)
        if not won + lost + open_:
            return "."
        return f"{won}-{lost}" + ("+" * bool(open_))

    def rows(self) -> list[list[str | int]]:
        """The table as rows of cells, heading first: a column per player
        (:attr:`full`), else the listing (:meth:`listing_rows`)."""
        if not self.full:
            return self.listing_rows()
        head: list[str | int] = ["#", _("player"), *range(1, len(self.players) + 1)]
        head += [_("points"), "SB", _("won"), _("lost"), _("open")]
        rows = [head]
        for rank, name in enumerate(self.players, 1):
            cells: list[str | int] = [rank, name]
            cells += [self.cell(name, other) for other in self.players]
            cells += [self.points(name), self.tie_break(name), *self.total(name)]
            rows.append(cells)
        return rows

    def listing_rows(self) -> list[list[str | int]]:
        """The crosstable of many players, as long as their games: a row
        per player (number, name, points, SB, won, lost, open) whose last
        cell is the games, ``number:won-lost`` against each opponent met
        (:meth:`cell`), in the opponents' order; heading first."""
        head: list[str | int] = ["#", _("player"), _("points"), "SB", _("won"), _("lost")]
        rows = [[*head, _("open"), _("games")]]
        for rank, name in enumerate(self.players, 1):
            counts = (self.points(name), self.tie_break(name), *self.total(name))
            rows.append([rank, name, *counts, self.games_cell(name)])
        return rows

    def games_cell(self, player: str) -> str:
        """``2:1-0 7:0-1+``: won-lost against each opponent met, by number."""
        return " ".join(f"{number}:{cell}" for number, cell in self.opponents(player))

    def __str__(self) -> str:
        """Won-lost against each player and won, lost, open in all (the
        listing beyond :data:`MAX_TABLE_PLAYERS`)."""
        if not self.full:
            return self.listing()
        return self._text(self.cell_won_lost, (_("won"), _("lost"), _("open")), self.total)

    def standings(self) -> str:
        """The newsletter's table: won-lost against each player (``+``:
        and open games), points, tie-break (SB), won, lost, open; beyond
        :data:`MAX_TABLE_PLAYERS` players, :meth:`listing`."""
        if not self.full:
            return self.listing()
        words = (_("points"), "SB", _("won"), _("lost"), _("open"))
        return self._text(
            self.cell,
            words,
            lambda n: (self.points(n), self.tie_break(n), *self.total(n)),
        )

    def listing(self) -> str:
        """:meth:`listing_rows` as text: a line per player, the games last."""
        words = (_("points"), "SB", _("won"), _("lost"), _("open"))
        text = self._text(
            lambda name, other: "",
            words,
            lambda n: (self.points(n), self.tie_break(n), *self.total(n)),
            columns=(),
            tail=lambda name: "  " + self.games_cell(name),
        )
        head, _line, rest = text.partition("\n")
        return f"{head}  {_('games')}\n{rest}"

    def cell_won_lost(self, player: str, other: str) -> str:
        won, lost, open_ = self.score(player, other)
        return f"{won}-{lost}" if won + lost + open_ else "."

    def _text(
        self,
        cell: Callable[[str, str], str],
        words: tuple[str, ...],
        counts: Callable[[str], tuple[int, ...]],
        columns: Iterable[str] | None = None,
        tail: Callable[[str], str] = lambda name: "",
    ) -> str:
        """Rows of ``number name``, ``cell`` against each of ``columns``
        (the players), ``counts`` under ``words``, then ``tail``."""
        others = self.players if columns is None else list(columns)
        number = {name: i + 1 for i, name in enumerate(self.players)}
        width = max((len(f"{number[n]} {n}") for n in self.players), default=1)
        width = min(width, MAX_NAME_WIDTH)
        head = " " * width + "".join(f"{number[n]:>5}" for n in others)
        widths = [max(5, len(word) + 1) for word in words]
        lines = [head + "".join(f"{word:>{w}}" for word, w in zip(words, widths))]
        for name in self.players:
            cells = "".join(f"{cell(name, other):>5}" for other in others)
            label = f"{number[name]} {name}"
            columns_ = "".join(f"{n:>{w}}" for n, w in zip(counts(name), widths))
            lines.append(f"{label:<{width}}{cells}{columns_}{tail(name)}")
        return "\n".join(line.rstrip() for line in lines)


# -- the ratings ---------------------------------------------------------------

_DATED = re.compile(r"^[0-9]{4}")


def expected(own: float, other: float) -> float:
    """The score Elo expects of a player rated ``own`` against ``other``."""
    return 1 / (1 + 10 ** ((other - own) / 400))


@dataclass
class Ratings:
    """Elo ratings over games in date order: ``ratings`` after all games,
    ``games`` played by each, ``events`` (in the order their last game
    was rated) with each of their players' rating after it; ``undated``
    and ``open`` count the games left out (no date; no winner)."""

    start: float = START
    k: float = K_FACTOR
    ratings: dict[str, float] = field(default_factory=dict)
    games: dict[str, int] = field(default_factory=dict)
    events: dict[str, dict[str, float]] = field(default_factory=dict)
    rated: int = 0
    undated: int = 0
    open: int = 0

    def players(self) -> list[str]:
        """The players, the highest rated first (then by name)."""
        return sorted(self.ratings, key=lambda n: (-self.ratings[n], n))

    def as_json(self) -> dict[str, Any]:
        return {
            "start": self.start,
            "k": self.k,
            "games": self.rated,
            "undated": self.undated,
            "open": self.open,
            "players": [
                {"player": n, "rating": round(self.ratings[n], 2), "games": self.games[n]}
                for n in self.players()
            ],
            "events": [
                {
                    "event": event,
                    "ratings": {n: round(r, 2) for n, r in sorted(after.items())},
                }
                for event, after in self.events.items()
            ],
        }


def date_key(date: str | None) -> str | None:
    """The order of a Date tag (``1998.06.12``; unknown parts, ``??``,
    before the known ones of the same year), None when it has no year."""
    if date is None or not _DATED.match(date.strip()):
        return None
    return date.strip().replace("?", "0")


def rate(games: Iterable[Played], start: float = START, k: float = K_FACTOR) -> Ratings:
    """The Elo ratings of ``games`` (:class:`Game`, each with ``date`` and
    ``event``), taken in date order."""
    ratings = Ratings(start, k)
    dated: list[tuple[str, int, Any]] = []
    for number, game in enumerate(games):
        sides = _sides(game)
        if sides is None:
            continue
        if sides == (0, 0):
            ratings.open += 1
            continue
        key = date_key(getattr(game, "date", None))
        if key is None:
            ratings.undated += 1
            continue
        dated.append((key, number, game))
    dated.sort(key=lambda item: (item[0], item[1]))
    for _key, _number, game in dated:
        first, second = game.first, game.second
        score = 1.0 if game.winner == lookup_game(game.game).sides[0] else 0.0  # type: ignore[union-attr]
        own = ratings.ratings.setdefault(first, start)
        other = ratings.ratings.setdefault(second, start)
        change = k * (score - expected(own, other))
        ratings.ratings[first] = own + change
        ratings.ratings[second] = other - change
        for name in (first, second):
            ratings.games[name] = ratings.games.get(name, 0) + 1
        event = getattr(game, "event", None) or "?"
        after = ratings.events.pop(event, {})  # the event moves to where its last game is
        after[first], after[second] = ratings.ratings[first], ratings.ratings[second]
        ratings.events[event] = after
        ratings.rated += 1
    return ratings
