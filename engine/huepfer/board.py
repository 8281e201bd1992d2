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
    return Board(size, names, index, tuple(neighbours), tuple(jumps), between)
