"""A Hexalit or Trigeo position kept as a value: the board's snapshot.

:class:`DicePosition` is what :meth:`.inplace.DiceBoard.snapshot` gives and
what the public calls take and return. It holds the board's cells, masks and
state (and, when the board knew it, its Zobrist key, so that a new board
standing on it starts without a loop over the cells); it knows no rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from .board import Die
from .geometry import CELLS, INDEX, SIDE_NAMES
from .text import listing_text, position_text

#: The safe moves (origin, target, capture) of attacked Ones, as escapes() gives them.
Escapes = tuple[tuple[int, int, bool], ...]


# (a module constant: a class compiled with mypyc has no __slots__ to read back)
_SLOTS: Final = (
    "_game",
    "_board",
    "_masks",
    "_side",
    "_first",
    "_cube",
    "_offer",
    "_offered",
    "_winner",
    "_ply",
    "_end_ply",
    "_forced",
    "_threat",
    "_rolled",
    "_zkey",
    "_dice",
)


class DicePosition:
    """A Hexalit or Trigeo position; immutable (``play`` returns a new one),
    made by a board (:meth:`.inplace.DiceBoard.snapshot`).

    Equality compares what the Position text shows: game, dice, side to move
    and cube. The game's history (``ply``, ``end_ply``, ``winner``, the side
    that moved first, a pending offer) is kept but not compared.
    """

    __slots__ = _SLOTS

    def __init__(
        self,
        game: str,
        board: bytes,
        masks: tuple[int, ...],
        side: int,
        first: int,
        cube: int | None,
        offer: int | None,
        offered: bool,
        winner: int,
        ply: int,
        end_ply: int | None,
        forced: Escapes,
        threat: bool,
        rolled: tuple[int, ...],
        zkey: int | None = None,
    ):
        self._game, self._board, self._masks = game, board, masks
        self._side, self._first = side, first
        self._cube, self._offer, self._offered = cube, offer, offered
        self._winner, self._ply, self._end_ply = winner, ply, end_ply
        self._forced, self._threat, self._rolled = forced, threat, rolled
        self._zkey = zkey  # the board's Zobrist key, when the board that made it knew it
        self._dice: Mapping[str, Die] | None = None

    @property
    def game(self) -> str:
        return self._game

    @property
    def dice(self) -> Mapping[str, Die]:
        """Cell name -> :class:`Die`, in board order."""
        if self._dice is None:
            self._dice = MappingProxyType(
                {CELLS[i]: die_value(v) for i, v in enumerate(self._board) if v}
            )
        return self._dice

    @property
    def to_move(self) -> str:
        return SIDE_NAMES[self._side]

    @property
    def first(self) -> str:
        """The side that moved first (it alone may make the first cube offer)."""
        return SIDE_NAMES[self._first]

    @property
    def cube(self) -> int | None:
        return self._cube

    @property
    def offer(self) -> int | None:
        """The cube value offered by the side to move and not yet answered."""
        return self._offer

    @property
    def winner(self) -> str | None:
        return SIDE_NAMES[self._winner] if self._winner else None

    @property
    def ply(self) -> int:
        return self._ply

    @property
    def end_ply(self) -> int | None:
        return self._end_ply

    @property
    def forced_escape(self) -> bool:
        """Whether the One rule binds the side to move this turn (§3.3)."""
        return bool(self._forced)

    @property
    def one_attacked(self) -> bool:
        """Whether a One of the side to move is attacked."""
        return self._threat

    def die(self, cell: str) -> Die | None:
        i = INDEX.get(cell.upper())
        return die_value(self._board[i]) if i is not None and self._board[i] else None

    def _repr_svg_(self) -> str:
        """Jupyter and IPython show a position as its diagram."""
        from hexhop.render.svg import board_svg

        return board_svg(self)

    def text(self) -> str:
        return position_text(self._board, self._side, self._cube)

    def listing(self) -> str:
        """The rules' own listing of the position (``A4-5 / A5-4 / …``, one
        line per side, North first), then the ``turn:`` line and, with a
        cube, the ``cube:`` line; reading it back gives an equal position."""
        return listing_text(self._board, self._side, self._cube)

    def zobrist_parts(self) -> tuple[str, bytes, tuple[int, ...]]:
        """What :meth:`__eq__` compares, for :mod:`..zobrist`."""
        return self._game, self._board, (self._side, self._cube or 0)

    def _key(self) -> tuple[object, ...]:
        return (self._game, self._board, self._side, self._cube)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DicePosition) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<DicePosition {self._game} ply {self._ply}: {self.text()!r}>"


def die_value(v: int) -> Die:
    """The :class:`Die` of a cell's code (not 0)."""
    return Die(SIDE_NAMES[v >> 6], v & 7, (v >> 3 & 7) or None)
