"""Hüpfer's :class:`~hexhop.engine.base.GameRules`: positions in, positions out.

``HUEPFER`` is a thin facade over :class:`.inplace.HopBoard`, which alone
knows the rules (rules.md §6, §8.10, §8.11, §8.13): ``check`` plays the
turn on a board made from the position and, only when the board refuses
it, returns the board's words (:mod:`.explain`); ``play`` and ``apply``
return the board's snapshot after the turn. Geometry lives in
:mod:`.board`, positions and their text in :mod:`.position`. Nothing here
reads records or makes findings.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Final

from hexhop.notation.boards import DEFAULT_HUEPFER_SIZE, board_label
from hexhop.notation.model import HopAction, Item

from ..base import (
    GameRules,
    Illegal,
    IllegalAction,
    Played,
    read_action,
    refuse,
)
from .board import board
from .inplace import HopBoard, verdict
from .position import (
    GAME,
    SIDES,
    HuepferPosition,
    board_size,
    diamond,
    not_stuck,
    parse_text,
    start_cells,
    tag,
    tag_reserve,
    unresolved,
)

__all__ = ["HUEPFER", "HuepferRules", "HuepferPosition", "LegalTurns"]

_STARTS: Final[dict[tuple[int, tuple[int, int]], HuepferPosition]] = {}  # by size and reserves


class LegalTurns:
    """The legal turns of a position: iterable, sized, answers ``in``.

    ``in`` and truth are answered without listing every turn; iteration and
    ``len`` list them once (the board's moves) and keep the list.
    """

    __slots__ = ("_rules", "_position", "_actions")

    def __init__(self, rules: HuepferRules, position: HuepferPosition):
        self._rules = rules
        self._position = position
        self._actions: list[HopAction] | None = None

    def _list(self) -> list[HopAction]:
        if self._actions is None:
            on = self._rules.board(self._position, False)
            self._actions = [on.action(t) for t in on.moves()]
        return self._actions

    def __iter__(self) -> Iterator[HopAction]:
        return iter(self._list())

    def __len__(self) -> int:
        return len(self._list())

    def __bool__(self) -> bool:
        return self._position.winner is None  # stuck is lost, and a side not stuck has a turn

    def __contains__(self, action: object) -> bool:
        """True for a legal turn, given as a value or as its text (``"a1-c1@d1"``)."""
        if isinstance(action, str):
            try:
                action = read_action(action, self._rules.name)
            except IllegalAction:
                return False
        return isinstance(action, HopAction) and self._rules.check(self._position, action) is None

    def __repr__(self) -> str:
        return f"<LegalTurns {' '.join(sorted(str(a) for a in self._list()))}>"


class HuepferRules(GameRules[HuepferPosition]):
    """Hüpfer on 6 x 6, 8 x 8 and 10 x 10 boards."""

    name = GAME
    sides = SIDES

    # -- positions -----------------------------------------------------------

    def start(self, tags: Mapping[str, str], first: Item | None = None) -> HuepferPosition:
        """The Position tag's position, else the standard start for the Board
        and Reserve tags; Red moves first. ``first`` is not needed here."""
        size = board_size(tags)
        reserve = tag_reserve(tags, size)
        text = tag(tags, "Position")
        if text is not None:
            return self.parse_position(text, tags)
        # the standard start is the same value every time: made once
        found = _STARTS.get((size, reserve))
        if found is None:
            found = unresolved(board(size), start_cells(board(size)), reserve, 0, 0, verdict)
            if len(_STARTS) < 100:
                _STARTS[(size, reserve)] = found
        return found

    def standard(
        self, size: int = DEFAULT_HUEPFER_SIZE, reserve: tuple[int, int] | None = None
    ) -> HuepferPosition:
        """The standard start on a ``size`` board (default reserves by size)."""
        tags = {"Board": board_label(size)}
        if reserve is not None:
            tags["Reserve"] = f"{reserve[0]}/{reserve[1]}"
        return self.start(tags)

    def parse_position(self, text: str, tags: Mapping[str, str]) -> HuepferPosition:
        """The position of ``text`` on the Board tag's board; the Reserve tag
        applies unless the text has ``reserve:``. A side to move with no
        legal turn has lost at ply 0 (rules.md §8.10)."""
        size = board_size(tags)
        parsed = parse_text(text, size, tag_reserve(tags, size))
        return unresolved(parsed.board, parsed.cells, parsed.reserve, parsed.turn, 0, verdict)

    def diagram(self, position: HuepferPosition) -> str:
        return diamond(position)

    def board(self, position: HuepferPosition, keyed: bool = True) -> HopBoard:
        """A new in-place board standing at ``position`` (``keyed``: whether
        it keeps the Zobrist key; a check does without)."""
        return HopBoard(position, keyed)

    # -- legality ------------------------------------------------------------

    def legal_actions(self, position: HuepferPosition) -> LegalTurns:
        return LegalTurns(self, position)

    def check(self, position: HuepferPosition, item: Item | str) -> Illegal | None:
        """None when ``item`` is a legal turn now, else why not (and the way out);
        text is read as a Hüpfer action (IllegalAction when it is none)."""
        if isinstance(item, str):
            item = read_action(item, self.name)
        on = self.board(position, False)
        if type(item) is HopAction and on.play(item, False):
            # kept for the apply that usually follows (one walk for both)
            position._memo = (item, on.snapshot())
            not_stuck(position)
            return None
        return on.problem(item)

    def play(self, position: HuepferPosition, item: Item | str) -> Played[HuepferPosition]:
        """Play a legal turn; IllegalAction (a ValueError) when ``item`` is not one."""
        given = item
        if isinstance(item, str):
            item = read_action(item, self.name)
        memo = position._memo
        if memo is None or not (memo[0] is item or memo[0] == item):
            illegal = self.check(position, item)
            if illegal is not None:
                raise refuse(given, illegal)
            memo = position._memo
        assert memo is not None  # check() keeps the position after a legal turn
        position._memo = None
        return Played(memo[1])

    def apply(self, position: HuepferPosition, item: Item) -> Played[HuepferPosition]:
        """:meth:`play`, which costs little after :meth:`check` (its answer is kept)."""
        return self.play(position, item)


HUEPFER: Final = HuepferRules()
