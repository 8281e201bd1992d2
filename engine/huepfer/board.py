"""Hüpfer board geometry: point names, neighbours and jumps as tables.

One :class:`Board` per size of :mod:`hexhop.notation.boards`, built once
and shared. A point is
an integer index ``file * size + rank`` (both 0-based), so sorting indices
sorts points the way positions are written (``a1 a2 … b1 …``). Nothing in
this module knows about pieces, sides or turns.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Final

from hexhop.notation.boards import FILE_LETTERS, board_label, huepfer_board
from hexhop.notation.errors import ArgumentError

_POINT: Final = re.compile(r"([a-z])([0-9]{1,3})")


@dataclass(frozen=True)
class Board:
    """The tables of one board size.

    ``neighbours[p]`` are the points one step from ``p`` along a line;
    ``jumps[p]`` the pairs ``(over, landing)`` of every jump from ``p``
    whose landing is on the board; ``between[(a, b)]`` the point jumped
    over when going from ``a`` to ``b`` (only for points two apart on a
    line).
    """

    size: int
    names: tuple[str, ...]
    index: Mapping[str, int]
    neighbours: tuple[tuple[int, ...], ...]
    jumps: tuple[tuple[tuple[int, int], ...], ...]
    between: Mapping[tuple[int, int], int]
    # byte boards (see ``byte_boards``): the points a jump can start from, one
    # mask per direction, with the shift that moves a point onto its neighbour
    rays: tuple[tuple[int, int], ...]

    @property
    def label(self) -> str:
        return board_label(self.size)

    def point(self, name: str) -> int | None:
        """The index of ``name`` (any case), or None when it is not a point here."""
        index = self.index.get(name)
        if index is None:
            index = self.index.get(name.strip().lower())
        return index

    def is_point_name(self, name: str) -> bool:
        """Whether ``name`` looks like a point (``g1``, ``z99``) on some board."""
        return _POINT.fullmatch(name.strip().lower()) is not None


def board(size: int) -> Board:
    """The shared tables for a ``size`` x ``size`` board of the registry."""
    if huepfer_board(size) is None:
        raise ArgumentError(f"no Hüpfer board of size {size}")
    return _tables(size)


@cache
def _tables(size: int) -> Board:
    names = tuple(f"{FILE_LETTERS[p // size]}{p % size + 1}" for p in range(size * size))
    index = {name: p for p, name in enumerate(names)}
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1))

    def at(file: int, rank: int) -> int | None:
        if 0 <= file < size and 0 <= rank < size:
            return file * size + rank
        return None

    neighbours = []
    jumps = []
    between: dict[tuple[int, int], int] = {}
    for p in range(size * size):
        file, rank = divmod(p, size)
        near = []
        far = []
        for df, dr in steps:
            over = at(file + df, rank + dr)
            if over is None:
                continue
            near.append(over)
            landing = at(file + 2 * df, rank + 2 * dr)
            if landing is not None:
                far.append((over, landing))
                between[(p, landing)] = over
        neighbours.append(tuple(near))
        jumps.append(tuple(far))
    rays = []
    for step in (1, -1, size, -size):  # rank up, rank down, file up, file down
        starts = [p for p in range(size * size) if (p, p + 2 * step) in between]
        rays.append((8 * step, sum(1 << 8 * p for p in starts)))
    return Board(size, names, index, tuple(neighbours), tuple(jumps), between, tuple(rays))


def byte_boards(cells: bytes | bytearray) -> tuple[int, int, int]:
    """Red's, Turquoise's and the empty points as "byte boards".

    A byte board is an int with one byte per point (point ``p`` is bits
    ``8p`` to ``8p + 7``), 1 where the point is in the set and 0 elsewhere:
    ``int.from_bytes`` reads the cells (0, 1 or 2 a byte) in one go, bit 0
    of each byte is Red and bit 1 Turquoise. Shifting by ``8 * d`` moves
    every point ``d`` points on, so a test over the whole board is a few
    operations on ints, as python-chess does with its bitboards.
    """
    whole = int.from_bytes(cells, "little")
    low = _LOW.get(len(cells))  # bit 0 of every byte
    if low is None:
        low = _LOW[len(cells)] = sum(1 << 8 * p for p in range(len(cells)))
    red = whole & low
    turquoise = whole >> 1 & low
    return red, turquoise, low ^ red ^ turquoise


_LOW: Final[dict[int, int]] = {}  # points -> bit 0 of each of their bytes
