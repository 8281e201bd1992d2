"""``find``: which games match, from the index or straight from the archive.

A :class:`Query` holds the filters, already read and checked. It answers
both ways with one meaning: :meth:`Query.sql` narrows the index with SQL
(with the same Python functions registered in SQLite where SQL has no
equal), and :meth:`Query.matches` filters the facts of a scanned archive.
Every filter must hold; ``--player`` may be given more than once.

A player filter finds people, not spellings: a name looked for matches
the spellings of the archive (:func:`names_match`), and the games found
are every game of the players (by key, archive/players.py) that one of
the matching spellings names, however the others spell them. The index
answers with a search of its stored keys; a scanned archive is read whole
before its first game is given (:func:`find_in_archive`).
"""

from __future__ import annotations

import glob
import os
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from hexhop.messages import _
from hexhop.messages import side_name as side_label
from hexhop.notation.numbers import ascii_int
from hexhop.records.errors import RecordsError
from hexhop.records.globs import matches as glob_matches
from hexhop.records.small_files import read_small_text

from .index import (
    NUMBER,
    NUMBER_OR_NULL,
    OPENING,
    TEXT,
    TEXT_OR_NULL,
    IndexProblem,
    actions_of,
    check_index,
    container,
    distrust,
    guard,
    guarded_rows,
    open_index,
    path_of,
    place_of,
    read_only,
    sqlite_errors,
    stored_key,
)
from .keys import signed
from .names import fold, fold_ue
from .players import NO_NAMES, Names, key_form, plain_form, player_key

if TYPE_CHECKING:
    from hexhop.records.checking import CheckOptions

    from .facts import GameFacts
# The rules, the notation reader and the sources are imported where they
# are needed: a search of the index by player starts without them.

_GLOB_CHARS = re.compile(r"[*?\[]")
_DATE = re.compile(r"[0-9]{4}(?:\.[0-9]{2}(?:\.[0-9]{2})?)?")  # not \d: any Unicode digit
MAX_PATTERN = 1_000  # characters of a name, tag value or --glob pattern

# A tag value looked for, folded both ways (names.fold, names.fold_ue)
Pattern = tuple[str, str]
# A name looked for, in the three forms it is matched in: plain (``soren``),
# as the key writes it (``soeren``) and turned as the key is (``anna mueller``
# for ``Mueller, Anna``): players.plain_form, key_form, player_key
PlayerPattern = tuple[str, str, str]
_MOVE_NUMBER = re.compile(r"[0-9]+\.+")


class QueryError(RecordsError):
    """A filter that cannot be read (a malformed position, range, date...)."""

    exit_code = 2


# -- opening the index to search it ----------------------------------------------


def open_to_search(path: str) -> sqlite3.Connection:
    """The index at ``path`` for ``find``, ``dupes`` and ``stats``: as
    :func:`~hexhop.archive.index.open_index`, but an index that this user
    cannot change (a read-only file or folder, read-only media) and that
    nobody has open is read as it lies.  A reader of the write-ahead-log
    index would make ``-wal`` and ``-shm`` files beside it: in a folder that
    cannot be written that fails ("unable to open database file"), and
    beside a file that cannot be written they would be left behind."""
    if not os.path.isfile(path) or read_only(path) is None or _in_use(path):
        return open_index(path)
    address = "file:" + os.path.abspath(path).replace("%", "%25").replace("?", "%3f")
    address = address.replace("#", "%23") + "?mode=ro&immutable=1"
    with sqlite_errors(path):
        connection = sqlite3.connect(address, uri=True, isolation_level=None)
    try:
        distrust(connection, path)
        check_index(connection, path, False)
    except BaseException:
        connection.close()
        raise
    return connection


def _in_use(path: str) -> bool:
    """Whether SQLite's files of an open write-ahead log lie beside ``path``
    (another program has it open, or left changes in the log)."""
    return any(os.path.exists(path + suffix) for suffix in ("-wal", "-shm", "-journal"))


# -- matching, the same for SQL and for Python -----------------------------------


def name_matches(pattern: str, name: str) -> bool:
    """``pattern`` (folded) against a folded name: a glob matches the whole
    name, other text any part of it."""
    if _GLOB_CHARS.search(pattern):
        return glob_matches(pattern, name)
    return pattern in name


def names_match(pattern: PlayerPattern, name: str, key: str | None = None) -> bool:
    """A name as written (and the key of the player it names in its game,
    by default its own) against a name looked for: a match in any form
    (the index stores the same forms: ``first_folded``, ``first_ue``, ``first_key``)."""
    return (
        name_matches(pattern[0], plain_form(name))
        or name_matches(pattern[1], key_form(name))
        or name_matches(pattern[2], player_key(name) if key is None else key)
    )


def value_matches(pattern: str, ue_pattern: str, value: str) -> bool:
    """A tag value against a glob folded both ways (the whole value, case
    and accents aside, ü as ü or ue)."""
    return glob_matches(pattern, fold(value)) or glob_matches(ue_pattern, fold_ue(value))


def _dots(date: str) -> str:
    """A date written with ``-`` or ``/`` as the record format writes it, with dots."""
    return date.strip().replace("-", ".").replace("/", ".")


def date_matches(date: str | None, low: str, high: str) -> bool:
    """Whether ``date`` (``1998.03.14``, ``1998.??.??``) lies in ``low..high``,
    compared to each bound's precision; a date not known that far never does."""
    if not date:
        return False
    date = _dots(date)
    low_part, high_part = date[: len(low)], date[: len(high)]
    for bound, part in ((low, low_part), (high, high_part)):
        if bound and (len(part) < len(bound) or "?" in part):
            return False
    return (not low or low_part >= low) and (not high or high_part <= high)


def _actions_start(opening: str, rest: str, prefix: str) -> bool:
    return " ".join(actions_of(opening, rest)[: prefix.count(" ") + 1]) == prefix


def register(db: sqlite3.Connection) -> None:
    """The Python matchers as SQL functions."""
    db.create_function("hx_name", 2, name_matches, deterministic=True)
    db.create_function("hx_value", 3, value_matches, deterministic=True)
    db.create_function("hx_date", 3, date_matches, deterministic=True)
    db.create_function("hx_start", 3, _actions_start, deterministic=True)


# -- the query ---------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """A position to look for: the game, and its key."""

    game: str
    board: int | None
    key: int  # signed 64-bit


@dataclass(frozen=True)
class Opening:
    game: str
    actions: tuple[str, ...]


@dataclass(frozen=True)
class Extra:
    """A filter added to the table of filters (archive/filters.py) with
    its own matchers, and its value read."""

    name: str
    value: Any
    python: Callable[[GameFacts, Any], bool] = field(compare=False)
    sql: Callable[[Any], tuple[str, list[Any]]] = field(compare=False)


@dataclass(frozen=True)
class Query:
    players: tuple[PlayerPattern, ...] = ()  # each must find a side's player
    sides: tuple[tuple[str, PlayerPattern], ...] = ()  # (side name, pattern)
    tags: tuple[tuple[str, Pattern], ...] = ()  # (tag name, glob)
    result: str | None = None
    winner: str | None = None
    game: str | None = None
    board: int | None = None  # the board's size (Hüpfer 6x6: 6)
    date: tuple[str, str] | None = None
    plies: tuple[int, int] | None = None
    valid: bool | None = None
    findings: tuple[str, ...] = ()
    positions: tuple[Target, ...] = ()  # any of them: the readings of one Position text
    openings: tuple[Opening, ...] = ()  # any of them: the readings of one --after text
    # the stored analysis (index --analyse): notes of these kinds (missed,
    # allows), of wins in at least ``min_depth`` own actions
    notes: tuple[str, ...] = ()
    min_depth: int = 1
    # the filters added to the table with their own matchers (archive/filters.py)
    extra: tuple[Extra, ...] = ()
    # who is who in a scanned archive (an index holds the keys it was made with)
    names: Names = field(default=NO_NAMES, compare=False)

    @property
    def analysed(self) -> bool:
        """Whether the query asks the stored analysis (an index only)."""
        return bool(self.notes)

    @property
    def by_player(self) -> bool:
        """Whether a filter names a player (whose games are found by key)."""
        return bool(self.players or self.sides)

    def keys(self, game: GameFacts) -> tuple[str, str]:
        """The keys of the players of ``game`` (first, second), after the names file."""
        players = (game.players + ["?", "?"])[:2]
        return (
            self.names.identify(players[0], game.tags).key,
            self.names.identify(players[1], game.tags).key,
        )

    def spelled(self, game: GameFacts) -> list[set[str]]:
        """For each player filter (``players``, then ``sides``), the keys of
        the players of ``game`` whose spelling it matches."""
        players = (game.players + ["?", "?"])[:2]
        keys = self.keys(game)
        patterns = [*self.players, *(pattern for _side, pattern in self.sides)]
        return [
            {key for name, key in zip(players, keys) if names_match(pattern, name, key)}
            for pattern in patterns
        ]

    def keys_match(self, game: str | None, keys: tuple[str, str], found: list[set[str]]) -> bool:
        """Whether the players ``keys`` of a game of ``game`` are those the
        player filters found (``found``: the keys each one's spellings name)."""
        from hexhop.notation.games import lookup_game

        if not all(keys[0] in some or keys[1] in some for some in found[: len(self.players)]):
            return False
        spec = lookup_game(game)
        for (side, _pattern), some in zip(self.sides, found[len(self.players) :]):
            if spec is None or side not in spec.sides:
                return False
            if keys[spec.sides.index(side)] not in some:
                return False
        return True

    def matches(self, game: GameFacts) -> tuple[bool, int | None]:
        """Whether ``game`` matches, the player filters by its own spellings
        (:func:`select_players` finds every game of the players), and the
        first ply at the position looked for."""
        if self.by_player and not self.keys_match(game.game, self.keys(game), self.spelled(game)):
            return False, None
        return self.matches_but_players(game)

    def matches_but_players(self, game: GameFacts) -> tuple[bool, int | None]:
        """Whether ``game`` matches every filter but the players', and the
        first ply at the position looked for."""
        for name, pattern in self.tags:
            values = [v for k, v in game.tags.items() if k.lower() == name.lower()]
            if not any(value_matches(*pattern, value) for value in values):
                return False, None
        if self.board is not None and game.board != self.board:
            return False, None
        if self.result is not None and game.result != self.result:
            return False, None
        if self.winner is not None and game.winner != self.winner:
            return False, None
        if self.game is not None and game.game != self.game:
            return False, None
        if self.date is not None and not date_matches(game.tags.get("Date"), *self.date):
            return False, None
        if self.plies is not None and not self.plies[0] <= game.plies <= self.plies[1]:
            return False, None
        if self.valid is not None and game.valid != self.valid:
            return False, None
        if not all(code in game.codes for code in self.findings):
            return False, None
        if self.openings and not any(
            o.game == game.game and tuple(game.actions[: len(o.actions)]) == o.actions
            for o in self.openings
        ):
            return False, None
        if not all(item.python(game, item.value) for item in self.extra):
            return False, None
        if self.notes:  # the command refuses this before any game is read
            raise QueryError(_("--missed-win and --blunder answer from an analysed index"))
        if not self.positions:
            return True, None
        wanted = {t.key for t in self.positions if t.game == game.game}
        ply = next((i for i, key in enumerate(game.keys) if key in wanted), None)
        return ply is not None, ply

    def sql(self) -> tuple[str, list[Any]]:
        """The WHERE clause over ``games g`` and its parameters."""
        where: list[str] = []
        args: list[Any] = []
        for player in self.players:
            found, found_args = _players_found(player)
            where.append(f"(g.first_key IN {found} OR g.second_key IN {found})")
            args += found_args + found_args
        for side, player in self.sides:
            from hexhop.notation.games import GAMES

            either = []
            found, found_args = _players_found(player)
            for spec in GAMES:
                if side in spec.sides:
                    which = ("first", "second")[spec.sides.index(side)]
                    either.append(f"(g.game = ? AND g.{which}_key IN {found})")
                    args += [spec.name, *found_args]
            where.append("(" + (" OR ".join(either) or "0") + ")")
        for name, pattern in self.tags:
            where.append(
                "EXISTS (SELECT 1 FROM tags t WHERE t.game = g.id AND lower(t.name) = lower(?)"
                " AND hx_value(?, ?, t.value))"
            )
            args += [name, *pattern]
        if self.board is not None:
            where.append("g.board = ?")
            args.append(self.board)
        for column, value in (("result", self.result), ("winner", self.winner)):
            if value is not None:
                where.append(f"g.{column} = ?")
                args.append(value)
        if self.game is not None:
            where.append("g.game = ?")
            args.append(self.game)
        if self.date is not None:
            where.append("hx_date(g.date, ?, ?)")
            args += list(self.date)
        if self.plies is not None:
            where.append("g.plies BETWEEN ? AND ?")
            args += list(self.plies)
        if self.valid is not None:
            where.append("g.valid = ?")
            args.append(int(self.valid))
        for code in self.findings:
            where.append("instr(' ' || g.codes || ' ', ?) > 0")
            args.append(f" {code} ")
        if self.openings:
            either = []
            for opening in self.openings:
                head = " ".join(opening.actions[:OPENING])
                test = "(g.opening = ? OR substr(g.opening, 1, ?) = ?)"
                params: list[Any] = [head, len(head) + 1, head + " "]
                if len(opening.actions) > OPENING:
                    test = "(g.opening = ? AND hx_start(g.opening, g.actions, ?))"
                    params = [head, " ".join(opening.actions)]
                either.append(f"(g.game = ? AND {test})")
                args += [opening.game, *params]
            where.append("(" + " OR ".join(either) + ")")
        if self.positions:
            keys = sorted({stored_key(t.key) for t in self.positions})
            marks = ", ".join("?" * len(keys))
            where.append(
                f"g.id IN (SELECT game FROM positions WHERE key IN ({marks})"
                f" UNION ALL SELECT game FROM positions_new WHERE key IN ({marks}))"
            )
            args += keys + keys
        for kind in self.notes:  # the stored analysis: one search of the notes' key per game
            where.append(
                "EXISTS (SELECT 1 FROM notes n WHERE n.game = g.id AND n.kind = ? AND n.depth >= ?)"
            )
            args += [kind, self.min_depth]
        for item in self.extra:
            clause, clause_args = item.sql(item.value)
            where.append(f"({clause})")
            args += clause_args
        return " AND ".join(where) or "1", args


def _players_found(pattern: PlayerPattern) -> tuple[str, list[Any]]:
    """A subquery of the keys of the players that a spelling matching
    ``pattern`` names (as :func:`names_match`), and its parameters: SQLite
    makes its list once per search."""
    tests = []
    args: list[Any] = []
    for side in ("first", "second"):
        either = []
        for column, form in (("folded", pattern[0]), ("ue", pattern[1]), ("key", pattern[2])):
            test = "hx_name(?, {})" if _GLOB_CHARS.search(form) else "instr({}, ?) > 0"
            either.append(test.format(f"{side}_{column}"))
            args.append(form)
        tests.append(f"SELECT {side}_key FROM games WHERE {' OR '.join(either)}")
    return "(" + " UNION ".join(tests) + ")", args


def select_players(query: Query, games: Iterable[tuple[GameFacts, T]]) -> Iterator[T]:
    """The items of the games that match ``query``, in their order, the
    player filters finding every game of the players a matching spelling
    names (as :meth:`Query.sql` does in the index). With a player filter,
    every game is read before the first item is given (a later game may
    spell a player as asked); the items of the games that match the other
    filters are held until then."""
    if not query.by_player:
        for game, item in games:
            if query.matches(game)[0]:
                yield item
        return
    found: list[set[str]] = [set() for _ in range(len(query.players) + len(query.sides))]
    held: list[tuple[str | None, tuple[str, str], T]] = []
    for game, item in games:
        for some, spelled in zip(found, query.spelled(game)):
            some.update(spelled)
        if query.matches_but_players(game)[0]:
            held.append((game.game, query.keys(game), item))
    for name, keys, item in held:
        if query.keys_match(name, keys, found):
            yield item


T = TypeVar("T")


# -- reading the options ----------------------------------------------------------


def player_pattern(text: str, option: str = "--player") -> PlayerPattern:
    """A name (or part of one, or a glob) in the forms it is matched in."""
    if not text.strip():
        raise QueryError(_("{option}: give a name (or part of one)").format(option=option))
    bounded(text, option)
    return plain_form(text), key_form(text), player_key(text)


def bounded(pattern: str, option: str) -> str:
    """``pattern``, unless it is longer than :data:`MAX_PATTERN` (a usage error)."""
    if len(pattern) > MAX_PATTERN:
        raise QueryError(
            _("{option}: the pattern is {length} characters long; at most {limit} are read").format(
                option=option, length=len(pattern), limit=MAX_PATTERN
            )
        )
    return pattern


def tag_filter(text: str) -> tuple[str, Pattern]:
    """``KEY=VALUE``: the tag's name as the reader keeps it (English, in
    its usual case, for German names too: ``Turnier`` is ``Event``) and
    the value's glob folded both ways."""
    from hexhop.engine.replay import KNOWN_TAGS
    from hexhop.notation.names import tag_name

    name, equals, value = text.partition("=")
    name = name.strip()
    if not equals or not name:
        raise QueryError(
            _("--tag {text!r}: expected KEY=VALUE, e.g. Event='*Kassel*'").format(text=text)
        )
    bounded(value, "--tag")
    canonical = {known.lower(): known for known in KNOWN_TAGS}
    name = tag_name(name)
    return canonical.get(name.lower(), name), (fold(value), fold_ue(value))


def board_size(text: str) -> int:
    """``--board NxN`` (or ``N``): a board size some game is played on."""
    from hexhop.notation.games import GAMES

    sizes = sorted({n for spec in GAMES for n in spec.board_sizes})
    first, cross, second = text.strip().lower().partition("x")
    size = ascii_int(first)
    if size in sizes and (not cross or second == first):
        return size
    raise QueryError(
        _("--board {text!r}: expected one of {sizes}").format(
            text=text, sizes=", ".join(f"{n}x{n}" for n in sizes)
        )
    )


def result_filter(text: str) -> str:
    from hexhop.engine.replay import RESULTS

    if text not in RESULTS:
        raise QueryError(_("--result {text!r}: expected 1-0, 0-1 or *").format(text=text))
    return text


# the German names of the sides, as German records and clubs write them,
# with the spellings of a keyboard without umlauts
GERMAN_SIDES = {
    "nord": "North",
    "süd": "South",
    "sued": "South",
    "rot": "Red",
    "türkis": "Turquoise",
    "tuerkis": "Turquoise",
}


def side_name(text: str) -> str:
    """The side ``--winner`` names: English (``South``) or German (``Süd``,
    ``Sued``) in any case, whatever language the messages speak."""
    from hexhop.notation.games import GAMES

    sides = {side.lower(): side for spec in GAMES for side in spec.sides}
    wanted = text.strip().lower()
    side = sides.get(wanted) or GERMAN_SIDES.get(wanted)
    if side is None:
        names = sorted({side_label(side) for side in sides.values()})
        raise QueryError(
            _("--winner {text!r}: expected one of {sides}").format(
                text=text, sides=", ".join(names)
            )
        )
    return side


def int_range(text: str, option: str) -> tuple[int, int]:
    """``MIN..MAX``, ``MIN..``, ``..MAX`` or ``N``."""
    low, dots, high = (part.strip() for part in text.partition(".."))
    first = ascii_int(low) if low else 0
    last = ascii_int(high) if high else (1 << 62) if dots else first
    if first is None or last is None:
        raise QueryError(
            _("{option} {text!r}: expected MIN..MAX, e.g. 20..60").format(option=option, text=text)
        )
    if last < first:
        raise QueryError(
            _("{option} {text!r}: expected MIN..MAX with 0 <= MIN <= MAX").format(
                option=option, text=text
            )
        )
    return first, last


def date_range(text: str) -> tuple[str, str]:
    """``FROM..TO`` (each YYYY, YYYY.MM or YYYY.MM.DD, either may be left out) or one date."""
    low, dots, high = (_dots(part) for part in text.partition(".."))
    if not dots:
        high = low
    for bound in (low, high):
        if bound and not _DATE.fullmatch(bound):
            raise QueryError(
                _(
                    "--date {text!r}: expected FROM..TO with dates like 1998, 1998.03 or 1998.03.14"
                ).format(text=text)
            )
        month, day = (int(part) for part in (bound.split(".") + ["01", "01"])[1:3])
        if bound and not (1 <= month <= 12 and 1 <= day <= 31):
            raise QueryError(
                _("--date {text!r}: {date} is not a date (months 01-12, days 01-31)").format(
                    text=text, date=bound
                )
            )
    if not low and not high:
        raise QueryError(_("--date {text!r}: give at least one date").format(text=text))
    if low and high and low[: len(high)] > high[: len(low)]:
        raise QueryError(_("--date {text!r}: FROM is after TO").format(text=text))
    return low, high


def finding_code(text: str) -> str:
    from hexhop.notation.findings import CATALOGUE

    code = text.strip().upper()
    if code not in CATALOGUE:
        raise QueryError(
            _("--finding {text!r}: no such code (see docs/errors.md)").format(text=text)
        )
    return code


def position_targets(text: str, game: str | None, board: str | None) -> tuple[Target, ...]:
    """Every reading of a Position text: in ``game`` (else in each game), on
    ``board`` (else on each board size)."""
    from hexhop.engine.base import HeaderError
    from hexhop.engine.games import rules_for
    from hexhop.engine.zobrist import position_key
    from hexhop.notation.findings import make
    from hexhop.notation.games import GAMES, lookup_game

    specs = [lookup_game(game)] if game else list(GAMES)
    targets: list[Target] = []
    reasons: list[tuple[str, str]] = []
    for spec in specs:
        assert spec is not None
        rules = rules_for(spec.name)
        sizes: Iterable[str | None] = (
            [board] if board else [f"{n}x{n}" for n in spec.board_sizes] or [None]
        )
        for size in sizes:
            tags = {"Game": spec.name, **({"Board": size} if size else {})}
            try:
                position = rules.parse_position(text, tags)
            except HeaderError as error:
                reason = (
                    error.params.get("reason") or make(error.code, None, **error.params).message
                )
                reasons.append((f"{spec.name}{' ' + size if size else ''}", reason))
                continue
            targets.append(
                Target(spec.name, getattr(position, "size", None), signed(position_key(position)))
            )
    if not targets:
        raise QueryError(
            _("--position {text!r} is not a position: {reasons}").format(
                text=text, reasons=_reasons(reasons)
            )
        )
    return tuple(targets)


def openings(text: str, game: str | None) -> tuple[Opening, ...]:
    """The actions of ``--after`` text (move numbers allowed), read in
    ``game`` or in each game that can read them."""
    from hexhop.notation.games import GAMES, lookup_game
    from hexhop.notation.reader import parse_text

    from .facts import action_text

    specs = [lookup_game(game)] if game else list(GAMES)
    found: list[Opening] = []
    reasons: list[tuple[str, str]] = []
    for spec in specs:
        assert spec is not None
        parsed = next(iter(parse_text(text, default_game=spec.name)), None)
        if parsed is None:
            continue
        errors = [f.message for f in parsed.findings if f.severity == "error"]
        if errors or parsed.record is None:
            reasons.append((spec.name, errors[0] if errors else _("not readable")))
            continue
        record = parsed.record
        if record.result is not None or any(n.variations for n in record.main.nodes):
            reasons.append((spec.name, _("give actions only")))
            continue
        actions = tuple(action_text(node.item) for node in record.main.nodes)
        if actions:
            found.append(Opening(spec.name, actions))
    if not found:
        why = _reasons(reasons) if reasons else _("give at least one action, e.g. 'B4W3 D7W1'")
        raise QueryError(_("--after {text!r}: {why}").format(text=text, why=why))
    return tuple(found)


def _reasons(reasons: list[tuple[str, str]]) -> str:
    """``(where, why)`` pairs told once per reason: ``Hexalit, Trigeo: why``."""
    by_reason: dict[str, list[str]] = {}
    for where, why in reasons:
        by_reason.setdefault(why, []).append(where)
    if len(by_reason) == 1:
        return next(iter(by_reason))
    return "; ".join(f"{', '.join(where)}: {why}" for why, where in by_reason.items())


# -- answering ---------------------------------------------------------------------


@dataclass
class Hit:
    """One matching game and where it is."""

    path: str
    number: int
    line: int
    offset: int
    length: int
    game: str | None
    players: list[str]
    result: str | None
    date: str | None
    event: str | None = None
    plies: int = 0
    valid: bool = True
    ply: int | None = None  # the first ply at the position looked for
    digest: str = ""
    text: bytes | None = field(default=None, repr=False)  # the game's own bytes, when at hand
    real: str = ""  # the index's identity of the file (its real path), read from there
    # the stored analysis's notes that matched (find --missed-win, --blunder):
    # records.analysis.Note, each as its as_dict() gives it
    notes: list[dict[str, Any]] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        data = {
            "path": self.path,
            "index": self.number,
            "line": self.line,
            "game": self.game,
            "players": self.players,
            "result": self.result,
            "date": self.date,
            "event": self.event,
            "plies": self.plies,
            "valid": self.valid,
        }
        if self.ply is not None:
            data["ply"] = self.ply
        if self.notes:
            data["notes"] = self.notes
        return data


def find_in_index(db: sqlite3.Connection, path: str, query: Query) -> Iterator[Hit]:
    """The matching games of an index, in archive order."""
    register(db)
    where, args = query.sql()
    ply = "NULL"
    if query.positions:
        keys = sorted({stored_key(t.key) for t in query.positions})
        marks = ", ".join(str(k) for k in keys)
        # positions_new: the rows of an interrupted run not yet in the tree
        ply = (
            "(SELECT min(ply) FROM (SELECT ply FROM positions WHERE game = g.id AND key IN"
            f" ({marks}) UNION ALL SELECT ply FROM positions_new WHERE game = g.id AND key IN"
            f" ({marks})))"
        )
    elif query.notes:  # the first ply with such a note (the kinds are hexhop's own words)
        kinds = ", ".join(f"'{kind}'" for kind in query.notes if kind in ("missed", "allows"))
        ply = (
            f"(SELECT min(n.ply) FROM notes n WHERE n.game = g.id AND n.kind IN ({kinds})"
            f" AND n.depth >= {int(query.min_depth)})"
        )
    # file by file in the files' order (a small table of their own, its
    # rowid the order), each file's games in the order of its index
    # (file, number): SQLite never sorts every matching game
    sql = (
        "SELECT f.path, g.number, g.line, g.offset, g.length, g.game, g.first, g.second,"
        f" g.result, g.date, g.event, g.plies, g.valid, {ply}, f.digest, f.real"
        " FROM temp.hx_file_order o CROSS JOIN games g ON g.file = o.file"
        f" JOIN files f ON f.id = g.file WHERE {where} ORDER BY o.rowid, g.number"
    )
    with guard(db, path):
        db.execute("CREATE TEMP TABLE IF NOT EXISTS hx_file_order (file INTEGER)")
        db.execute("DELETE FROM temp.hx_file_order")
        db.execute("INSERT INTO temp.hx_file_order SELECT id FROM files ORDER BY seq")
    for row in guarded_rows(db, path, sql, args, HIT_TYPES):
        yield Hit(
            path_of(row[0], path),
            row[1],
            row[2],
            row[3],
            row[4],
            row[5],
            [row[6], row[7]],
            row[8],
            row[9],
            row[10],
            row[11],
            bool(row[12]),
            row[13],
            row[14],
            real=path_of(row[15], path),
        )


# the types of the values of a hit's row (find_in_index)
HIT_TYPES = (TEXT, NUMBER, NUMBER, NUMBER, NUMBER, TEXT_OR_NULL, TEXT, TEXT) + (
    TEXT_OR_NULL,
    TEXT_OR_NULL,
    TEXT_OR_NULL,
    NUMBER,
    NUMBER,
    NUMBER_OR_NULL,
    TEXT,
    TEXT,
)


def stale_files(
    db: sqlite3.Connection, path: str, roots: Iterable[str] = (), names: str | None = None
) -> list[str]:
    """The files of the index (under ``roots``, when given) that changed or
    are gone since they were indexed, as the index names them: those whose
    file on disk has another size or modification time now, or none. One
    ``stat`` per file on disk (an archive's members share theirs); files
    added since are not looked for. Last, the names file when it is not the
    one the players' keys were made with (:func:`stale_names`)."""
    roots = list(roots)
    stale = _stale_records(db, path, roots)
    changed = stale_names(db, path, roots, names)
    return stale + ([changed] if changed is not None else [])


def stale_names(
    db: sqlite3.Connection, path: str, roots: Iterable[str] = (), names: str | None = None
) -> str | None:
    """The names file (``names``, else the one the index was made with, else
    ``hexhop-names.txt`` beside the first of ``roots`` or beside the index)
    when its text is not the one the index's keys were made with (changed,
    gone, or added since); None when it is."""
    from .index import names_of_index
    from .players import MAX_NAMES_BYTES, NAMES_FILE, names_digest

    stored_path, stored_digest = names_of_index(db, path) or ("", "")
    now = names or stored_path
    if not now:
        for folder in [*(p if os.path.isdir(p) else os.path.dirname(p) for p in roots), ""]:
            candidate = os.path.join(folder or os.path.dirname(path), NAMES_FILE)
            if os.path.isfile(candidate):
                now = candidate
                break
        else:
            return None
    text, _why = read_small_text(now, MAX_NAMES_BYTES)
    digest = names_digest(text) if text is not None else "?"
    return None if digest == stored_digest else now


def _stale_records(db: sqlite3.Connection, path: str, roots: list[str]) -> list[str]:
    under = [place_of(root).real for root in roots]
    now: dict[str, tuple[int, int] | None] = {}
    stale = []
    sql = "SELECT path, real, disk_size, mtime FROM files ORDER BY seq"
    types = (TEXT, TEXT, NUMBER_OR_NULL, NUMBER_OR_NULL)
    for shown, real, size, mtime in guarded_rows(db, path, sql, (), types, "files"):
        real, shown = path_of(real, path), path_of(shown, path)
        if size is None or mtime is None:
            continue  # nothing on disk was there to compare (standard input)
        if under and not any(_under(real, root) for root in under):
            continue
        holder = container(real)
        if holder not in now:
            now[holder] = _stat_of(holder)
        if now[holder] != (size, mtime):
            stale.append(shown)
    return stale


def _stat_of(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_size, info.st_mtime_ns


def _under(path: str, root: str) -> bool:
    root = root.rstrip("/") or "/"
    return path == root or path.startswith((root + "/", root + ":", root + os.sep))


def real_roots(paths: Iterable[str]) -> list[str]:
    """ARCHIVE paths as the index knows files (real paths), for :func:`under_any`."""
    return [place_of(path).real for path in paths]


def under_any(real: str, roots: list[str]) -> bool:
    """Whether the file of identity ``real`` lies under one of ``roots`` (:func:`real_roots`)."""
    return any(_under(real, root) for root in roots)


def find_in_archive(
    paths: list[str],
    query: Query,
    options: CheckOptions,
    globs: tuple[str, ...] = (),
    on_games: Callable[[int], None] | None = None,
) -> Iterator[Hit | str]:
    """The matching games of an archive read now (no index), in archive
    order; a source that cannot be read comes as its message (``on_games``:
    as :func:`archive_games` tells it)."""

    def hit_of(game: GameFacts, hit: Hit) -> Hit:
        hit.ply = query.matches_but_players(game)[1]
        if query.by_player and _again(hit.path):
            # held until the archive is read: the bytes are read again
            # (their file's digest checked) only if they are written out
            hit.text = None
        return hit

    return matching_games(paths, query, options, globs, hit_of, on_games)


def matching_games(
    paths: list[str],
    query: Query,
    options: CheckOptions,
    globs: tuple[str, ...],
    make: Callable[[GameFacts, Hit], T],
    on_games: Callable[[int], None] | None = None,
) -> Iterator[T | str]:
    """``make(facts, hit)`` of each game of an archive read now that
    ``query`` matches, in archive order, the player filters as
    :func:`select_players` (and the index) choose: every game of the
    players a matching spelling names. A source that cannot be read comes
    as its message. What ``stats``, ``crosstable`` and ``ratings`` read
    from the ARCHIVE paths, as ``find`` does."""
    messages: list[str] = []

    def games() -> Iterator[tuple[GameFacts, T]]:
        for found in archive_games(paths, options, globs, on_games):
            if isinstance(found, str):
                messages.append(found)
                continue
            yield found[0], make(*found)

    for item in select_players(query, games()):
        yield from messages
        messages.clear()
        yield item
    yield from messages


def archive_games(
    paths: list[str],
    options: CheckOptions,
    globs: tuple[str, ...] = (),
    on_games: Callable[[int], None] | None = None,
) -> Iterator[tuple[GameFacts, Hit] | str]:
    """Every game of an archive read now, with its facts, in archive order;
    a source that cannot be read comes as its message. ``on_games`` is told
    the games read so far as each part of a file is read (a file's games
    come once the whole file is read)."""
    from hexhop.notation.reader import offset_bytes  # the reader only when a file is read
    from hexhop.records.sources import iter_sources

    from .facts import part_facts, prepare

    read = 0
    for source in iter_sources(paths, globs=globs, limits=options.limits):
        facts, parts = prepare(source, options)  # as source_facts, told part by part
        for part in parts:
            facts.games.extend(part_facts(part, options))
            if on_games is not None:
                on_games(read + len(facts.games))
        read += len(facts.games)
        if facts.error is not None:
            yield facts.error["message"]
        data = offset_bytes(source.data or b"")  # a UTF-16 file's offsets count its UTF-8
        for game in facts.games:
            hit = Hit(
                facts.path,
                game.number,
                game.line,
                game.offset,
                game.length,
                game.game,
                game.players,
                game.result,
                game.tags.get("Date"),
                game.tags.get("Event"),
                game.plies,
                game.valid,
                None,
                facts.digest,
                data[game.offset : game.offset + game.length],
            )
            yield game, hit


def _again(path: str) -> bool:
    """Whether the source ``path`` can be read again: a regular file, or a
    member of one (not standard input, nor a pipe)."""
    return path != "<stdin>" and os.path.isfile(container(path))


def game_texts(hits: Iterable[Hit]) -> Iterator[bytes]:
    """The own bytes of each hit's game, read again from its file when the
    hit does not carry them; :class:`IndexProblem` when a file changed
    since it was indexed."""
    import hashlib

    from hexhop.notation.reader import offset_bytes  # the reader only when a game is read

    cache: tuple[str, bytes] | None = None
    for hit in hits:
        if hit.text is not None:
            yield hit.text
            continue
        if cache is None or cache[0] != hit.path:
            data = _read_again(hit.real or hit.path)
            digest = hashlib.blake2b(data or b"", digest_size=16).hexdigest()
            if data is None or digest != hit.digest:
                raise IndexProblem(
                    _(
                        "{path} changed or is gone since it was indexed: run hexhop index again"
                    ).format(path=hit.path)
                )
            cache = hit.path, offset_bytes(data)
        yield cache[1][hit.offset : hit.offset + hit.length]


def _read_again(path: str) -> bytes | None:
    from hexhop.records.sources import iter_sources, read_source

    holder = container(path)
    if holder == path:
        return read_source(path).data
    member = path[len(holder) + 1 :]
    for source in iter_sources([holder], globs=(glob.escape(member),)):
        if source.path == path:
            return source.data
    return None
