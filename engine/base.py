"""The small interface every game module implements, and its shared values.

A game module (``hexalit``/``trigeo`` in :mod:`dice`, ``huepfer``) knows
its board, positions and rules. It never reads records and never writes
findings: :mod:`replay` does that, using only this interface.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeAlias, TypeVar

from hexhop.notation.errors import Error
from hexhop.notation.model import Action, CubeAnswer, CubeOffer, Item, Mark
from hexhop.notation.numbers import ASCII_DIGITS

P = TypeVar("P", bound="Position")  # the position type of one game


class HeaderError(Error):
    """A tag value the game cannot use; ``code`` is an HD.. catalogue code."""

    def __init__(self, code: str, tag: str, **params: Any):
        super().__init__(code)
        self.code = code
        self.tag = tag
        self.params = params  # the values of the finding's message template


@dataclass(frozen=True)
class Illegal:
    """Why an action or cube event is not allowed.

    ``code`` is ``IL01`` (an action the rules forbid), ``IL02`` (a cell or
    point off the board; ``params`` then has ``cell``) or ``IL03`` (a cube
    event). ``reason`` is in a player's words and already names the way out,
    e.g. "the 2 on E6 captures only on D5 or D7 when a North die stands
    there, and D5 is empty; this die can play E6XD6".
    """

    code: str
    reason: str
    cell: str | None = None


class IllegalAction(Error, ValueError):
    """An action that cannot be played, raised by ``play`` (and by ``check``
    for text that is not an action of the game).

    ``action`` is what was given (text or an action value); ``code`` is the
    rules' ``IL01``/``IL02``/``IL03`` (see :class:`Illegal`) or, for text
    that is not one action of the game, the notation finding's code
    (``SY..``); ``reason`` says why in a player's words; ``illegal`` is the
    rules' :class:`Illegal` (None for text that is not an action).
    """

    def __init__(self, action: object, code: str, reason: str, illegal: Illegal | None = None):
        super().__init__(reason if illegal is None else f"{action} is not legal: {reason}")
        self.action = action
        self.code = code
        self.reason = reason
        self.illegal = illegal


def read_action(action: Item | str, game: str) -> Item:
    """``action`` itself, or the action its text names in ``game``'s notation
    (``"C7°D6"``, ``"a1-c1@d1"``); :class:`IllegalAction` when the text is not
    one action of the game."""
    if not isinstance(action, str):
        return action
    from hexhop.notation.findings import NotationError
    from hexhop.notation.reader import parse_action

    try:
        return parse_action(action, game)
    except NotationError as error:
        raise IllegalAction(action, error.finding.code, error.finding.message) from None


def refuse(action: object, illegal: Illegal) -> IllegalAction:
    """The exception that says why ``action`` cannot be played."""
    return IllegalAction(action, illegal.code, illegal.reason, illegal)


class Played(Generic[P]):
    """What an action did.

    ``position`` is the new position (the old one is untouched); ``mark`` is
    the annotation the action must carry (``""``, ``"^"`` or ``"+"``);
    ``threatened`` is the side whose One is attacked after it (for
    messages), or None. A plain slotted class: one is made every ply.
    """

    __slots__ = ("position", "mark", "threatened")

    def __init__(self, position: P, mark: Mark = "", threatened: str | None = None):
        self.position = position
        self.mark: Mark = mark
        self.threatened = threatened

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Played):
            return NotImplemented
        return (self.position, self.mark, self.threatened) == (
            other.position,
            other.mark,
            other.threatened,
        )

    def __hash__(self) -> int:
        return hash((self.position, self.mark, self.threatened))

    def __repr__(self) -> str:
        return f"Played({self.position!r}, {self.mark!r}, {self.threatened!r})"


class Position(Protocol):
    """A position of one game; immutable from the outside.

    ``game`` is the game's name; ``to_move`` is a side name
    (``North``/``South``/``Red``/``Turquoise``); ``winner`` is the side that
    won on the board, or None while the game goes on; ``ply`` counts the
    actions played since the start of the record (0 at the start, cube
    events not counted); ``end_ply`` is the ply at which the game ended
    (None while it goes on).
    """

    @property
    def game(self) -> str: ...
    @property
    def to_move(self) -> str: ...
    @property
    def winner(self) -> str | None: ...
    @property
    def ply(self) -> int: ...
    @property
    def end_ply(self) -> int | None: ...

    def text(self) -> str:
        """The ``Position`` tag text of notation.md; reading it back gives an
        equal position (``end_ply``/``ply`` aside)."""
        ...

    def zobrist_parts(self) -> tuple[str, bytes, tuple[int, ...]]:
        """What makes the position's Zobrist key (:mod:`.zobrist`): the name
        of its tables (game and board), one code byte per cell (0 empty) and
        the other state (side to move, cube, reserves) as small numbers."""
        ...


class Board(Protocol):
    """A position of one game changed in place: the one home of its rules.

    A move is the board's own small value (:meth:`legal` gives it for an
    action); :meth:`push` plays it and :meth:`pop` takes it back; a
    position to keep is a :meth:`snapshot`. ``winner`` is 0 while the game
    goes on, else 1 or 2 (the first or second of ``GameRules.sides``), as
    it stands after :meth:`settle`.
    """

    ply: int
    key: int

    @property
    def winner(self) -> int: ...
    @property
    def end_ply(self) -> int | None: ...
    @property
    def to_move(self) -> str: ...

    def legal(self, action: Any) -> Any:
        """The move of ``action`` when it may be played now, else None
        (its mark is ignored); a move given means the side to move is not stuck."""
        ...

    def play(self, action: Any) -> bool:
        """Push the move of ``action`` when it may be played now, as
        ``push(legal(action), False)`` does, in one step; False (the board
        as it was) when it may not."""
        ...

    def push(self, move: Any, settle: bool = True) -> None:
        """Play ``move``; without ``settle``, the verdicts that cost a search
        (is the side to move stuck?) wait for :meth:`settle`, and no undo is kept."""
        ...

    def pop(self) -> None: ...
    def settle(self) -> None: ...

    def required_mark(self) -> Mark:
        """The mark (``""``, ``"^"``, ``"+"``) the action last pushed must carry."""
        ...

    def threatened(self) -> str | None:
        """The side whose One the action last pushed attacks, or None."""
        ...

    def cube_event(self, item: CubeOffer | CubeAnswer) -> bool:
        """Play a cube offer or answer when it is allowed now; False (and
        nothing changed) when not."""
        ...

    def problem(self, item: Item) -> Illegal | None:
        """None when ``item`` may be played now, else why not, in a player's
        words (the read-only explainer; the board's own verdict decides)."""
        ...

    def snapshot(self) -> Any:
        """The immutable position the board stands for now."""
        ...

    def copy(self) -> Any:
        """An independent board at the same position."""
        ...

    # -- what the solver asks (:mod:`.solver`) --------------------------------

    @property
    def mover(self) -> int:
        """The side to move: 1 or 2."""
        ...

    def moves(self) -> list[Any]:
        """Every legal move of the side to move, in the rules' order."""
        ...

    def choices(self) -> list[tuple[Any, ...]]:
        """The search's choices: single moves, and a roll's six faces as one."""
        ...

    def replies(self) -> Iterator[Any]:
        """The legal moves, made as they are asked for (a defence usually
        stops at its first); the board may be pushed and popped between two."""
        ...

    def win_candidates(self) -> list[tuple[Any, ...]] | None:
        """The choices that may win with their very action (None: a win is sure)."""
        ...

    def wins_by(self, move: Any) -> bool:
        """Whether ``move`` wins at once."""
        ...

    def action(self, move: Any) -> Action:
        """The notation value of ``move`` (without a mark)."""
        ...

    def move_of(self, action: Any) -> Any:
        """The move of a legal action's notation value."""
        ...


class LegalActions(Protocol):
    """A lazy view of the legal actions, as python-chess's ``board.legal_moves``:
    iterable (action values), sized, and answers ``in`` for an action value
    or its text (``"C7W1" in rules.legal_actions(p)``)."""

    def __iter__(self) -> Iterator[Action]: ...
    def __contains__(self, action: object) -> bool: ...
    def __len__(self) -> int: ...


class GameRules(Protocol[P]):
    """One game's rules, on its own kind of position ``P``.

    Actions passed in are the notation values (``DiceAction``,
    ``HopAction``, ``CubeOffer``, ``CubeAnswer``) or their text
    (``"C7°D6"``, read with the game's notation); their ``mark`` is ignored
    by ``check`` and ``play``: annotations are compared by the replay with
    ``Played.mark``.
    """

    name: str  # "Hexalit", "Trigeo" or "Hüpfer"
    sides: tuple[str, str]  # first side is the one the result 1-0 favours

    def start(self, tags: Mapping[str, str], first: Item | None) -> P:
        """The start position of a record: the ``Position`` tag if given,
        else the standard start (Board/Reserve/First tags honoured).
        ``first`` is the record's first action, used when ``First`` is
        missing. Raises :class:`HeaderError` for a tag it cannot use. Applies
        rules.md §8.10 (a side to move with no legal action has lost at ply
        0)."""
        ...

    def parse_position(self, text: str, tags: Mapping[str, str]) -> P:
        """A position from ``Position`` text; raises HeaderError(HD05...)."""
        ...

    def legal_actions(self, position: P) -> LegalActions:
        """Every legal action (moves, captures, rolls, whole Hüpfer turns) of
        the side to move, without marks; cube events are not included."""
        ...

    def check(self, position: P, item: Item | str) -> Illegal | None:
        """None when ``item`` may be played now, else why not. Raises
        :class:`IllegalAction` for text that is not an action of the game."""
        ...

    def play(self, position: P, item: Item | str) -> Played[P]:
        """Play ``item`` (an action value or its text) and return the result.
        It is checked first: :class:`IllegalAction` (with the reason
        :meth:`check` gives) when it may not be played now. Cube events
        return a position with the same ``ply``; a dropped cube ends the game."""
        ...

    def apply(self, position: P, item: Item) -> Played[P]:
        """:meth:`play` for an action that :meth:`check` accepted or
        :meth:`legal_actions` gave, without checking it again (the replay,
        the solver and the generator use it); any other action gives an
        undefined result."""
        ...

    def board(self, position: P, keyed: bool = True) -> Board:
        """The in-place board standing at ``position``: what checks, plays
        and searches. Without ``keyed`` its ``key`` means nothing (a check
        that stores no keys need not keep it)."""
        ...

    def diagram(self, position: P) -> str:
        """A plain-text picture of the position, for tests and ``show``."""
        ...


# The rules of a game looked up by name (see :func:`~hexhop.engine.games.rules_for`),
# seen through the Position protocol: pass them only positions they made.
Rules: TypeAlias = "GameRules[Position]"


def action_sort_key(text: str) -> tuple[tuple[int, int, str], ...]:
    """Sort actions by their text the way people read them (A2 before A10)."""
    parts: list[tuple[int, int, str]] = []
    number = ""
    for ch in text:
        if ch in ASCII_DIGITS:
            number += ch
            continue
        if number:
            parts.append((1, int(number), ""))
            number = ""
        parts.append((0, 0, ch))
    if number:
        parts.append((1, int(number), ""))
    return tuple(parts)


def sorted_texts(actions: Sequence[object]) -> list[str]:
    return sorted((str(a) for a in actions), key=action_sort_key)
