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
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from hexhop.messages import _
from hexhop.notation.errors import ArgumentError
from hexhop.notation.games import lookup_game
from hexhop.notation.numbers import ascii_int
from hexhop.records.checking import CheckOptions

from .counting import tags_of, tags_sql
from .facts import GameFacts
from .index import NUMBER_OR_NULL, TEXT, TEXT_OR_NULL, actions_of, guarded_rows, path_of
from .query import Hit, Query, matching_games, register

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
    board: int | None = None
    moves: str = ""  # the canonical actions, space separated (what the same game shares)
    tags: tuple[tuple[str, str], ...] = ()  # the Site, Round and names file's tags asked for


#: The tags a standings game brings along besides those a names file's
#: conditions ask for: the crosstable's heading and rounds
STANDING_TAGS = ("Round", "Site")


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


def index_games(
    db: sqlite3.Connection, path: str, query: Query, tags: Collection[str] = ()
) -> Iterator[Game]:
    """The index's games that ``query`` matches, in archive order; each
    game's path is the file's identity (its real path); each brings its
    :data:`STANDING_TAGS` and ``tags`` (a names file's conditions)."""
    register(db)
    where, args = query.sql()
    sql = (
        "SELECT f.real, g.game, g.result, g.winner, g.first, g.second, g.date, g.event,"
        f" g.board, g.opening, g.actions, {tags_sql({*STANDING_TAGS, *tags})}"
        f" FROM games g JOIN files f ON f.id = g.file WHERE {where} ORDER BY f.seq, g.number"
    )
    types = (TEXT, TEXT_OR_NULL, TEXT_OR_NULL, TEXT_OR_NULL, TEXT, TEXT, TEXT_OR_NULL) + (
        TEXT_OR_NULL,
        NUMBER_OR_NULL,
        TEXT,
        TEXT,
        TEXT,
    )
    for row in guarded_rows(db, path, sql, args, types):
        yield Game(
            path_of(row[0], path),
            row[1],
            winner_of(row[1], row[2], row[3]),
            row[4],
            row[5],
            row[6],
            row[7],
            row[8],
            " ".join(actions_of(row[9], row[10])),
            tags_of(row[11]),
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

    def game_of(facts: GameFacts, hit: Hit) -> Game:
        first, second = (facts.players + ["?", "?"])[:2]
        return Game(
            hit.path,
            facts.game,
            winner_of(facts.game, facts.result, facts.winner),
            first,
            second,
            hit.date,
            hit.event,
            facts.board,
            " ".join(facts.actions),
            tuple(facts.tags.items()),
        )

    yield from matching_games(paths, query, options, globs, game_of, on_games)


def _sides(row: Played) -> tuple[int, int] | None:
    """(first won, second won) of a game between two named players, else None."""
    spec = lookup_game(row.game)
    if spec is None or "?" in (row.first, row.second) or row.first == row.second:
        return None
    return int(row.winner == spec.sides[0]), int(row.winner == spec.sides[1])


# -- the crosstable ------------------------------------------------------------


#: The tie-breaks a crosstable knows (``--tie-break``), each with its
#: column's heading and what it counts; higher is better for each.
TIE_BREAKS: dict[str, tuple[str, str]] = {
    "sb": (
        "SB",
        "Sonneborn-Berger: for each game won, the points of the player beaten",
    ),
    "buchholz": ("Bu", "Buchholz: for each game played, the points of the opponent"),
    "h2h": ("H2H", "head-to-head: the points in the games among the players still level"),
    "lost": ("-L", "fewer games lost (a game without a winner is not lost)"),
    "decided": ("Dec", "more games decided (fewer games without a winner)"),
}
DEFAULT_TIE_BREAKS = ("sb", "h2h")


def tie_breaks_of(text: str) -> tuple[str, ...]:
    """``sb,buchholz,h2h`` as the tie-breaks to apply in that order;
    :class:`ArgumentError` naming the first word that is not one."""
    chosen: list[str] = []
    for word in (part.strip().lower() for part in text.split(",")):
        if word == "wins":
            raise ArgumentError(
                _("wins: the points are the games won (the rules have no draws), not a tie-break")
            )
        if word not in TIE_BREAKS:
            raise ArgumentError(
                _("{word}: not a tie-break (one of {known})").format(
                    word=word or '""', known=", ".join(TIE_BREAKS)
                )
            )
        if word not in chosen:
            chosen.append(word)
    return tuple(chosen)


def legend(tie_breaks: Iterable[str] = DEFAULT_TIE_BREAKS) -> list[str]:
    """What a crosstable's cells and columns count, a line each (printed
    under the table)."""
    lines = [
        _("won-lost: the games won and lost against that player"),
        _("(n): and n games without a winner (not counted as won or lost)"),
        _(".: did not meet"),
        _("points: one per game won (the rules have no draws; a dropped cube is a loss)"),
    ]
    for name in tie_breaks:
        label, meaning = TIE_BREAKS[name]
        if name == "h2h":  # not a column: the order says it
            lines.append(
                _("level players are then ordered by {meaning}").format(meaning=_(meaning))
            )
        else:
            lines.append(f"{label}: {_(meaning)}")
    return lines


@dataclass
class Crosstable:
    """Players against players: ``results[a][b]`` is ``[won, lost, open]``
    of ``a``'s games against ``b``; ``players`` in the order of the
    standings (points, then each of ``tie_breaks`` in turn, then the
    name). ``str()`` is a table."""

    players: list[str] = field(default_factory=list)
    results: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    tie_breaks: tuple[str, ...] = DEFAULT_TIE_BREAKS
    # each player's (won, lost, open), worked out once: the order and the
    # tie-break ask for them once per game
    _totals: dict[str, tuple[int, int, int]] = field(
        default_factory=dict, repr=False, compare=False
    )
    _number: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    _level: dict[str, frozenset[str]] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(
        cls, rows: Iterable[Played], tie_breaks: tuple[str, ...] = DEFAULT_TIE_BREAKS
    ) -> Crosstable:
        """The table of some games (:class:`Game` or stats rows); games of
        an unnamed player (``?``) are left out."""
        table = cls(tie_breaks=tie_breaks)
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
        """Points, then each tie-break among the players still level (so
        that head-to-head counts the games among exactly them), then the name."""
        groups = [sorted(self.results)]
        for criterion in ("points", *self.tie_breaks):
            refined: list[list[str]] = []
            for group in groups:
                level = frozenset(group)
                if criterion == "h2h":
                    for name in group:
                        self._level[name] = level
                value = {name: self.value(criterion, name, level) for name in group}
                for score in sorted(set(value.values()), reverse=True):
                    refined.append([name for name in group if value[name] == score])
            groups = refined
        return [name for group in groups for name in sorted(group)]

    def value(self, criterion: str, player: str, level: Collection[str] = ()) -> int:
        """``player``'s points or tie-break ``criterion`` (``h2h``: among ``level``)."""
        if criterion == "points":
            return self.points(player)
        if criterion == "sb":
            return self.sonneborn_berger(player)
        if criterion == "buchholz":
            return sum(
                sum(cell) * self.points(other)
                for other, cell in self.results.get(player, {}).items()
            )
        if criterion == "h2h":
            return self.head_to_head(player, level or self._level.get(player, ()))
        if criterion == "lost":
            return -self.total(player)[1]
        if criterion == "decided":
            return -self.total(player)[2]
        raise ArgumentError(criterion)

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

    def sonneborn_berger(self, player: str) -> int:
        """Sonneborn-Berger: for each game won, the points of the player beaten."""
        return sum(
            cell[0] * self.points(other) for other, cell in self.results.get(player, {}).items()
        )

    def tie_break(self, player: str) -> int:
        """The first tie-break's value (Sonneborn-Berger by default)."""
        return self.value(self.tie_breaks[0], player) if self.tie_breaks else 0

    def head_to_head(self, player: str, level: Collection[str]) -> int:
        """Points in the games against the players of ``level`` (a set, so
        that the work is that of ``player``'s opponents, not of the level)."""
        return sum(
            cell[0]
            for other, cell in self.results.get(player, {}).items()
            if other != player and other in level
        )

    @property
    def columns(self) -> tuple[str, ...]:
        """The tie-breaks shown as columns: all but head-to-head, whose
        value depends on who is level (it orders, the cells show it)."""
        return tuple(name for name in self.tie_breaks if name != "h2h")

    def tie_break_values(self, player: str) -> list[int]:
        """``player``'s value of each tie-break shown (:attr:`columns`)."""
        return [self.value(name, player) for name in self.columns]

    def tie_break_labels(self) -> list[str]:
        return [TIE_BREAKS[name][0] for name in self.columns]

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
        (a number), Sonneborn-Berger, the tie-breaks chosen, won, lost,
        open, and the games against each opponent met."""
        rows = []
        for rank, name in enumerate(self.players, 1):
            won, lost, open_ = self.total(name)
            rows.append(
                {
                    "rank": rank,
                    "player": name,
                    "points": self.points(name),
                    "sonneborn_berger": self.sonneborn_berger(name),
                    "tie_breaks": dict(zip(self.columns, self.tie_break_values(name))),
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
        """``won-lost`` of ``player`` against ``other``, `` (n)`` after it
        for n games without a winner; ``.`` when they did not meet."""
        won, lost, open_ = self.score(player, other)
        if not won + lost + open_:
            return "."
        return f"{won}-{lost}" + (f" ({open_})" if open_ else "")

    def _counts(self, name: str) -> list[str | int]:
        return [self.points(name), *self.tie_break_values(name), *self.total(name)]

    def _words(self) -> list[str]:
        return [_("points"), *self.tie_break_labels(), _("won"), _("lost"), _("open")]

    def rows(self) -> list[list[str | int]]:
        """The table as rows of cells, heading first: a column per player
        (:attr:`full`), else the listing (:meth:`listing_rows`)."""
        if not self.full:
            return self.listing_rows()
        head: list[str | int] = ["#", _("player"), *range(1, len(self.players) + 1)]
        rows = [head + self._words()]
        for rank, name in enumerate(self.players, 1):
            cells: list[str | int] = [rank, name]
            cells += [self.cell(name, other) for other in self.players]
            rows.append(cells + self._counts(name))
        return rows

    def listing_rows(self) -> list[list[str | int]]:
        """The crosstable of many players, as long as their games: a row
        per player (number, name, points, tie-breaks, won, lost, open)
        whose last cell is the games, ``number:won-lost`` against each
        opponent met (:meth:`cell`), in the opponents' order; heading first."""
        rows: list[list[str | int]] = [["#", _("player"), *self._words(), _("games")]]
        for rank, name in enumerate(self.players, 1):
            rows.append([rank, name, *self._counts(name), self.games_cell(name)])
        return rows

    def games_cell(self, player: str) -> str:
        """``2:1-0 7:0-1(1)``: won-lost against each opponent met, by number."""
        return " ".join(
            f"{number}:{cell.replace(' ', '')}" for number, cell in self.opponents(player)
        )

    def __str__(self) -> str:
        """:meth:`standings`."""
        return self.standings()

    def standings(self) -> str:
        """The newsletter's table: won-lost against each player, points,
        the tie-breaks, won, lost, open; beyond :data:`MAX_TABLE_PLAYERS`
        players, :meth:`listing`."""
        if not self.full:
            return self.listing()
        return self._text(self.cell, tuple(self._words()), self._counts)

    def listing(self) -> str:
        """:meth:`listing_rows` as text: a line per player, the games last."""
        text = self._text(
            lambda name, other: "",
            tuple(self._words()),
            self._counts,
            columns=(),
            tail=lambda name: "  " + self.games_cell(name),
        )
        head, _line, rest = text.partition("\n")
        return f"{head}  {_('games')}\n{rest}"

    def _text(
        self,
        cell: Callable[[str, str], str],
        words: tuple[str, ...],
        counts: Callable[[str], Sequence[object]],
        columns: Iterable[str] | None = None,
        tail: Callable[[str], str] = lambda name: "",
    ) -> str:
        """Rows of ``number name``, ``cell`` against each of ``columns``
        (the players), ``counts`` under ``words``, then ``tail``."""
        others = self.players if columns is None else list(columns)
        number = {name: i + 1 for i, name in enumerate(self.players)}
        width = max((len(f"{number[n]} {n}") for n in self.players), default=1)
        width = min(width, MAX_NAME_WIDTH)
        cells = {name: [cell(name, other) for other in others] for name in self.players}
        column = max([4, *(len(c) for row in cells.values() for c in row)]) + 1
        head = " " * width + "".join(f"{number[n]:>{column}}" for n in others)
        widths = [max(5, len(word) + 1) for word in words]
        lines = [head + "".join(f"{word:>{w}}" for word, w in zip(words, widths))]
        for name in self.players:
            row = "".join(f"{c:>{column}}" for c in cells[name])
            label = f"{number[name]} {name}"
            columns_ = "".join(f"{n:>{w}}" for n, w in zip(counts(name), widths))
            lines.append(f"{label:<{width}}{row}{columns_}{tail(name)}")
        return "\n".join(line.rstrip() for line in lines)


def heading(games: Iterable[Game], event: str | None) -> str:
    """A crosstable's heading: the event (the one the games share, else
    the pattern given), the site(s), and the first and last date."""
    events: set[str] = set()
    sites: set[str] = set()
    dates: list[str] = []
    for game in games:
        if game.event:
            events.add(game.event)
        site = dict(game.tags).get("Site")
        if site:
            sites.add(site)
        if date_key(game.date) is not None and game.date:
            dates.append(game.date.strip())
    parts = [
        next(iter(events)) if len(events) == 1 else (event or _("Crosstable")),
    ]
    if sites:
        parts.append(", ".join(sorted(sites)[:3]) + (" …" if len(sites) > 3 else ""))
    if dates:
        first = min(dates, key=lambda d: date_key(d) or "")
        last = max(dates, key=lambda d: date_key(d) or "")
        parts.append(first if first == last else f"{first}\u2013{last}")
    return " \u00b7 ".join(parts)


def round_table(games: Iterable[Game], players: list[str]) -> list[list[str]] | None:
    """The round-by-round table: a row per player (in ``players``' order),
    a column per round (by the Round tag, in its numeric order), each cell
    the opponent's number and ``+`` (won), ``-`` (lost) or ``=`` (no
    winner); None when a counted game has no Round tag or a player plays
    twice in one round (the Round tag does not allow a table)."""
    number = {name: i for i, name in enumerate(players, 1)}
    cells: dict[tuple[str, str], str] = {}
    rounds: set[str] = set()
    for game in games:
        sides = _sides(game)
        if sides is None or game.first not in number or game.second not in number:
            continue
        round_ = dict(game.tags).get("Round", "").strip()
        if not round_ or round_ in ("?", "-"):
            return None
        rounds.add(round_)
        marks = {1: "+", 0: "-"}
        for me, other, won in (
            (game.first, game.second, sides[0]),
            (game.second, game.first, sides[1]),
        ):
            if (me, round_) in cells:
                return None
            outcome = "=" if sides == (0, 0) else marks[won]
            cells[me, round_] = f"{number[other]}{outcome}"
    if not rounds:
        return None
    order = sorted(rounds, key=_round_order)
    rows = [["#", _("player"), *order]]
    for name in players:
        rows.append([str(number[name]), name, *(cells.get((name, r), "") for r in order)])
    return rows


def _round_order(value: str) -> tuple[tuple[int, str], ...]:
    """``2`` before ``10``, ``1.2`` before ``1.10``."""
    numbers = [(ascii_int(part), part) for part in value.split(".")]
    return tuple((n, "") if n is not None else (1 << 62, part) for n, part in numbers)


# -- the ratings ---------------------------------------------------------------

_DATED = re.compile(r"^[0-9]{4}")


def expected(own: float, other: float) -> float:
    """The score Elo expects of a player rated ``own`` against ``other``."""
    return 1 / (1 + 10 ** ((other - own) / 400))


@dataclass
class Ratings:
    """Elo ratings of one list (one game, or Hüpfer on one board) over
    games in date order: ``ratings`` after the games rated, ``games``
    played by each, ``events`` (in the order their last game was rated)
    with each of their players' rating after their last game of it;
    ``change`` each listed player's change over the event the list is after
    (:attr:`after`: the given event, else the event of the last game
    rated); ``undated`` and ``open`` count the games left out (no date; no
    winner). With an event given, the list holds that event's players."""

    start: float = START
    k: float = K_FACTOR
    ratings: dict[str, float] = field(default_factory=dict)
    games: dict[str, int] = field(default_factory=dict)
    events: dict[str, dict[str, float]] = field(default_factory=dict)
    rated: int = 0
    undated: int = 0
    open: int = 0
    game: str | None = None
    board: int | None = None
    after: str | None = None
    change: dict[str, float] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        """The list's name: ``Hexalit``, ``Hüpfer 8x8``."""
        name = self.game or "?"
        return f"{name} {self.board}x{self.board}" if self.board else name

    def players(self) -> list[str]:
        """The players, the highest rated first (then by name)."""
        return sorted(self.ratings, key=lambda n: (-self.ratings[n], n))

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "board": f"{self.board}x{self.board}" if self.board else None,
            "after": self.after,
            "start": self.start,
            "k": self.k,
            "games": self.rated,
            "undated": self.undated,
            "open": self.open,
            "players": [
                {
                    "player": n,
                    "rating": round(self.ratings[n], 2),
                    "games": self.games[n],
                    "change": round(self.change.get(n, 0.0), 2),
                }
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


def event_matcher(pattern: str) -> Callable[[str | None], bool]:
    """Whether an Event tag is the event ``pattern`` names: its whole value
    or a glob, case and accents aside, as ``--event`` matches (at most
    1,000 characters: :func:`.query.bounded`)."""
    from hexhop.records.globs import matches

    from .names import fold
    from .query import bounded

    bounded(pattern, "--event")
    folded = fold(pattern)
    return lambda value: value is not None and matches(folded, fold(value))


def rating_kind(game: str | None, board: int | None) -> tuple[str | None, int | None]:
    """The list a game is rated in: its game, and its board where the game
    is played on boards of more than one size (Hüpfer)."""
    spec = lookup_game(game)
    if spec is None:
        return game, None
    return spec.name, board if len(spec.board_sizes) > 1 else None


def rate_lists(
    games: Iterable[Played],
    start: float = START,
    k: float = K_FACTOR,
    event: Callable[[str | None], bool] | None = None,
) -> list[Ratings]:
    """One list per game (and Hüpfer board), as :func:`rate` rates each,
    in the order of the games' registry; with ``event``: the lists after
    that event (:func:`rate`), only those it was played in."""
    kinds: dict[tuple[str | None, int | None], list[Played]] = {}
    for game in games:
        kinds.setdefault(rating_kind(game.game, getattr(game, "board", None)), []).append(game)
    lists = [rate(chosen, start, k, event) for chosen in kinds.values()]
    for ratings, (name, board) in zip(lists, kinds):
        ratings.game, ratings.board = name, board
    lists = [r for r in lists if r.rated or r.open or r.undated]
    if event is not None:
        lists = [r for r in lists if r.ratings]
    return sorted(lists, key=lambda r: (_registry_order(r.game), r.board or 0))


def _registry_order(game: str | None) -> int:
    from hexhop.notation.games import GAMES

    names = [spec.name for spec in GAMES]
    return names.index(game) if game in names else len(names)


def rate(
    games: Iterable[Played],
    start: float = START,
    k: float = K_FACTOR,
    event: Callable[[str | None], bool] | None = None,
) -> Ratings:
    """The Elo ratings of ``games`` (:class:`Game`, each with ``date`` and
    ``event``), taken in date order (games of one date in archive order).

    *The ratings after an event* (``event``: whether an Event tag is that
    event) are the ratings over the games up to and including the event's
    last game in that order, of the event's players, each with the change
    since before their first game of the event; without ``event``, the
    ratings after every game, each player's change over the event of the
    last game rated."""
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
    if event is None:
        ratings.after = (getattr(dated[-1][2], "event", None) or "?") if dated else None
        chosen: Callable[[str | None], bool] = lambda name: (name or "?") == ratings.after  # noqa: E731
    else:
        chosen = event
        last = [i for i, item in enumerate(dated) if event(getattr(item[2], "event", None))]
        dated = dated[: last[-1] + 1] if last else []
        if dated:
            ratings.after = getattr(dated[-1][2], "event", None)
    before: dict[str, float] = {}
    for _key, _number, game in dated:
        _rate_one(ratings, game, chosen, before)
    if event is not None:  # the list after an event: its players
        ratings.ratings = {n: r for n, r in ratings.ratings.items() if n in before}
    ratings.change = {n: ratings.ratings[n] - r for n, r in before.items() if n in ratings.ratings}
    return ratings


def _rate_one(
    ratings: Ratings, game: Any, chosen: Callable[[str | None], bool], before: dict[str, float]
) -> None:
    """One game moves both ratings; ``before`` keeps the players' ratings
    before their first game of the event ``chosen`` says is the list's."""
    first, second = game.first, game.second
    score = 1.0 if game.winner == lookup_game(game.game).sides[0] else 0.0  # type: ignore[union-attr]
    own = ratings.ratings.setdefault(first, ratings.start)
    other = ratings.ratings.setdefault(second, ratings.start)
    event = getattr(game, "event", None) or "?"
    if chosen(getattr(game, "event", None)):
        before.setdefault(first, own)
        before.setdefault(second, other)
    change = ratings.k * (score - expected(own, other))
    ratings.ratings[first] = own + change
    ratings.ratings[second] = other - change
    for name in (first, second):
        ratings.games[name] = ratings.games.get(name, 0) + 1
    after = ratings.events.pop(event, {})  # the event moves to where its last game is
    after[first], after[second] = ratings.ratings[first], ratings.ratings[second]
    ratings.events[event] = after
    ratings.rated += 1
