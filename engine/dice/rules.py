"""The rules shared by Hexalit and Trigeo, as the public calls ask for them.

A :class:`DiceRules` object is one game; Hexalit and Trigeo differ only in
class constants (rolling, cube, jump fields, promotion), see ``hexalit.py``
and ``trigeo.py``. It knows no rule of its own: every answer comes from the
in-place board (:class:`.inplace.DiceBoard`) standing on the position, and a
refusal's words from the board's explainer (:mod:`.explain`). Position text
and diagrams come from :mod:`.text`; this module does not read records,
write findings or draw anything.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Final

from hexhop.notation.model import CubeAnswer, CubeOffer, DiceAction, Item

from ..base import (
    GameRules,
    HeaderError,
    Illegal,
    IllegalAction,
    Played,
    action_sort_key,
    read_action,
    refuse,
)
from .board import HOME_BITS, START_TEXT, attacked, cells_of, masks_of, ones, targets
from .geometry import CELLS, INDEX, NORTH, SOUTH
from .inplace import DiceBoard
from .position import DicePosition
from .text import diagram_text, read_position_text

# (the board primitives stay importable from here, where tests and tools found them)
__all__ = [
    "DiceLegalActions",
    "DicePosition",
    "DiceRules",
    "attacked",
    "cells_of",
    "masks_of",
    "ones",
    "targets",
]


# --- the legal actions view ---------------------------------------------------------


class DiceLegalActions:
    """The legal actions of a position: iterable, sized; ``in`` asks the board."""

    __slots__ = ("_rules", "_position", "_list")

    def __init__(self, rules: DiceRules, position: DicePosition):
        self._rules, self._position = rules, position
        self._list: list[DiceAction] | None = None

    def _all(self) -> list[DiceAction]:
        if self._list is None:
            self._list = self._rules.generate(self._position)
        return self._list

    def __iter__(self) -> Iterator[DiceAction]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __bool__(self) -> bool:
        return bool(self._all())

    def __contains__(self, action: object) -> bool:
        """True for a legal action, given as a value or as its text (``"C7W1"``)."""
        if isinstance(action, str):
            try:
                action = read_action(action, self._rules.name)
            except IllegalAction:
                return False
        if not isinstance(action, DiceAction):
            return False
        return self._rules.board(self._position).legal(action) is not None

    def texts(self) -> list[str]:
        return sorted((str(a) for a in self._all()), key=action_sort_key)

    def __repr__(self) -> str:
        return f"<DiceLegalActions ({', '.join(self.texts())})>"


# --- the rules ------------------------------------------------------------------------


def _side_tag(tags: Mapping[str, str], name: str) -> str | None:
    lower = name.lower()
    return next((v for k, v in tags.items() if k.lower() == lower), None)


# the standard start by (game, side to move, side that moved first)
_STARTS: Final[dict[tuple[str, int, int], DicePosition]] = {}
_START_BOARD: Final = bytes(read_position_text(START_TEXT, "Hexalit", True, True)[0])


class DiceRules(GameRules[DicePosition]):
    """The rules of Hexalit, answered by the board; Trigeo overrides the class constants."""

    name = "Hexalit"
    sides = ("North", "South")
    rolling = True  # dice showing 2 (and spare 1s) may be rolled
    doubling = True  # the doubling cube is used
    jump_fields = False  # Trigeo's six central cells
    promotion = False  # a 2 reaching its last row may become a 6

    # -- positions ------------------------------------------------------------------

    def start(self, tags: Mapping[str, str], first: Item | None = None) -> DicePosition:
        """The record's start position (rules.md §8.8, §8.10, §8.15)."""
        first_side = self._first_tag(tags)
        text = _side_tag(tags, "Position")
        if text is None:
            mover = first_side or self._owner(_START_BOARD, first) or NORTH
            # the standard start is the same value every time: made once
            key = (self.name, mover, first_side or mover)
            found = _STARTS.get(key)
            if found is None:
                found = _STARTS[key] = self._standard(mover, first_side or mover)
            return found
        board, turn, cube = self._read(text)
        turn = turn or first_side or self._owner(board, first) or NORTH
        return self._position(board, turn, first_side or turn, cube, True)

    def _standard(self, turn: int, first: int) -> DicePosition:
        board, _, cube = read_position_text(START_TEXT, self.name, True, True)
        return self._position(board, turn, first, cube, True)

    def parse_position(self, text: str, tags: Mapping[str, str] | None = None) -> DicePosition:
        """A position from Position text (turn defaults to the First tag, else North)."""
        first_side = self._first_tag(tags or {})
        board, turn, cube = self._read(text)
        turn = turn or first_side or NORTH
        return self._position(board, turn, first_side or turn, cube, False)

    def attacked_ones(self, position: DicePosition) -> list[str]:
        """The cells of the side to move's Ones that the other side attacks
        (what a ``^`` or ``+`` points at)."""
        p = position
        return [
            CELLS[x]
            for x in ones(p._masks, p._side)
            if attacked(p._masks, x, 3 - p._side, self.jump_fields)
        ]

    def diagram(self, position: DicePosition) -> str:
        p = position
        return diagram_text(p._board, p._side, p._cube, p._winner)

    def _read(self, text: str) -> tuple[bytearray, int | None, int | None]:
        return read_position_text(text, self.name, self.rolling, self.doubling)

    def _first_tag(self, tags: Mapping[str, str]) -> int | None:
        value = _side_tag(tags, "First")
        if value is None:
            return None
        side = {"north": NORTH, "south": SOUTH}.get(value.strip().lower())
        if side is None:
            raise HeaderError("HD06", "First", value=value)
        return side

    @staticmethod
    def _owner(board: Sequence[int], first: Item | None) -> int | None:
        if isinstance(first, DiceAction) and first.origin in INDEX:
            return board[INDEX[first.origin]] >> 6 or None
        return None

    def _position(
        self, board: bytearray, side: int, first: int, cube: int | None, verdict: bool
    ) -> DicePosition:
        """The position read from text, with the board's verdicts at ply 0
        (:meth:`.inplace.DiceBoard.begin`)."""
        cells = bytes(board)
        rolled = tuple(i for i, v in enumerate(cells) if v & HOME_BITS)
        masks = tuple(masks_of(board))
        raw = DicePosition(
            self.name, cells, masks, side, first, cube, None, False, 0, 0, None, (), False, rolled
        )
        b = self.board(raw)
        b.begin(verdict)
        return b.snapshot()

    # -- the board ------------------------------------------------------------------------

    def board(self, position: DicePosition, keyed: bool = True) -> DiceBoard:
        """A new in-place board standing at ``position`` (the rules' one home);
        a dice board always keeps its key, which costs it little."""
        return DiceBoard(self, position)

    # -- legal actions, check, play ---------------------------------------------------------

    def legal_actions(self, position: DicePosition) -> DiceLegalActions:
        return DiceLegalActions(self, position)

    def generate(self, position: DicePosition) -> list[DiceAction]:
        """Every legal action of the side to move, in board order (no cube events)."""
        b = self.board(position)
        return [b.action(m) for m in b.moves()]

    def check(self, position: DicePosition, item: Item | str) -> Illegal | None:
        """None when ``item`` may be played now, else why not (marks are ignored);
        text is read as an action of the game (IllegalAction when it is none)."""
        if isinstance(item, str):
            item = read_action(item, self.name)
        return self.board(position).problem(item)

    def play(self, position: DicePosition, item: Item | str) -> Played[DicePosition]:
        """Play ``item`` (an action, a cube event or its text) and return the
        result; the old position is untouched. Everything is checked first:
        IllegalAction, with :meth:`check`'s reason, when it may not be played now."""
        action = read_action(item, self.name)
        b = self.board(position)
        if isinstance(action, DiceAction):
            move = b.legal(action)
            if move is None:
                raise _refused(b, action, item)
            return self._pushed(b, move)
        return self._cube(b, action, item)

    def apply(self, position: DicePosition, item: Item) -> Played[DicePosition]:
        """Play an action that :meth:`check` accepted or :meth:`legal_actions`
        gave, without checking it again (the replay, the solver and the
        generator do); cube events are checked as by :meth:`play`."""
        b = self.board(position)
        if isinstance(item, DiceAction):
            return self._pushed(b, b.move_of(item))
        return self._cube(b, item, item)

    @staticmethod
    def _pushed(b: DiceBoard, move: tuple[int, int, bool, int, int]) -> Played[DicePosition]:
        b.push(move, False)
        return Played(b.snapshot(), b.required_mark(), b.threatened())

    @staticmethod
    def _cube(b: DiceBoard, item: Item, given: Item | str) -> Played[DicePosition]:
        """Play a cube event when the board allows it, else refuse it in its
        words (``given``: the text or value it was given as)."""
        if not isinstance(item, (CubeOffer, CubeAnswer)) or not b.cube_event(item):
            raise _refused(b, item, given)
        return Played(b.snapshot())


def _refused(b: DiceBoard, item: Item, given: Item | str) -> IllegalAction:
    """The refusal of ``item`` (given as ``given``, a value or its text),
    which ``b`` found not playable, in the explainer's words."""
    illegal = b.problem(item)
    assert illegal is not None, "the board refused it"
    return refuse(given, illegal)
