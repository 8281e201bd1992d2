"""The Hexalit/Trigeo board: 66 triangular cells and their relations, as tables.

Every table is computed once, at import, from the board's shape in
:mod:`hexhop.notation.boards` (rows, columns, jump fields) and the rules
of rules.md §1: the orientation of each cell, its neighbours, the six
straight directions and the rays along them. Cells are integer indices
0..65 in board order (row A first, lower column first); ``CELLS[i]`` is the
name and ``INDEX[name]`` the index. This module knows the two sides only as
far as geometry goes (which way is forward, which row is last); it knows
nothing about faces, turns or legality.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from hexhop.notation import boards

ROWS: Final = boards.DICE_ROWS
ROW_SPAN: Final[tuple[tuple[int, int], ...]] = tuple(boards.DICE_ROW_COLUMNS[row] for row in ROWS)
JUMP_FIELD_NAMES: Final = boards.JUMP_FIELDS

NORTH: Final = 1
SOUTH: Final = 2
SIDE_NAMES: Final[Mapping[int, str]] = {NORTH: "North", SOUTH: "South"}
LAST_ROW: Final[Mapping[int, int]] = {NORTH: 5, SOUTH: 0}
AHEAD: Final[Mapping[int, int]] = {NORTH: +1, SOUTH: -1}

DIRECTIONS: Final = ("N", "NE", "SE", "S", "SW", "NW")
N, NE, SE, S, SW, NW = range(6)
ALL_DIRECTIONS: Final = (N, NE, SE, S, SW, NW)

# One step (row, column) along each direction, from an up- or a down-pointing cell.
_STEP_FROM_UP: Final = ((-1, 0), (0, +1), (+1, +2), (+1, 0), (+1, -2), (0, -1))
_STEP_FROM_DOWN: Final = ((-1, 0), (-1, +2), (0, +1), (+1, 0), (0, -1), (-1, -2))
_SIDE_DIRS_UP, _CORNER_DIRS_UP = (S, NE, NW), (N, SE, SW)
_SIDE_DIRS_DOWN, _CORNER_DIRS_DOWN = (N, SE, SW), (S, NE, NW)


def is_up(row: int, column: int) -> bool:
    """Up-pointing (apex toward row A) when row + column is odd."""
    return (row + column) % 2 == 1


def _cells() -> tuple[tuple[int, int], ...]:
    return tuple(
        (r, c) for r in range(len(ROWS)) for c in range(ROW_SPAN[r][0], ROW_SPAN[r][1] + 1)
    )


COORDS: Final[tuple[tuple[int, int], ...]] = _cells()
CELL_COUNT: Final = len(COORDS)
CELLS: Final[tuple[str, ...]] = tuple(f"{ROWS[r]}{c}" for r, c in COORDS)
INDEX: Final[Mapping[str, int]] = {name: i for i, name in enumerate(CELLS)}
_AT: Final[Mapping[tuple[int, int], int]] = {rc: i for i, rc in enumerate(COORDS)}
ROW: Final[tuple[int, ...]] = tuple(r for r, _ in COORDS)
UP: Final[tuple[bool, ...]] = tuple(is_up(r, c) for r, c in COORDS)


def cell_at(row: int, column: int) -> int:
    """The index of (row, column), or -1 when that is off the board."""
    return _AT.get((row, column), -1)


def _step(i: int, direction: int) -> int:
    r, c = COORDS[i]
    dr, dc = (_STEP_FROM_UP if UP[i] else _STEP_FROM_DOWN)[direction]
    return cell_at(r + dr, c + dc)


STEP: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_step(i, d) for d in ALL_DIRECTIONS) for i in range(CELL_COUNT)
)


def _ray(i: int, direction: int) -> tuple[int, ...]:
    out: list[int] = []
    j = STEP[i][direction]
    while j >= 0:
        out.append(j)
        j = STEP[j][direction]
    return tuple(out)


RAYS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(_ray(i, d) for d in ALL_DIRECTIONS) for i in range(CELL_COUNT)
)
SIDE_DIRS: Final[tuple[tuple[int, ...], ...]] = tuple(
    _SIDE_DIRS_UP if UP[i] else _SIDE_DIRS_DOWN for i in range(CELL_COUNT)
)
CORNER_DIRS: Final[tuple[tuple[int, ...], ...]] = tuple(
    _CORNER_DIRS_UP if UP[i] else _CORNER_DIRS_DOWN for i in range(CELL_COUNT)
)


def _neighbours(i: int) -> tuple[int, ...]:
    r, c = COORDS[i]
    apex_row, base_row = (r - 1, r + 1) if UP[i] else (r + 1, r - 1)
    spans = ((r, 2), (apex_row, 1), (base_row, 2))
    found = {
        _AT[(row, c + dc)]
        for row, reach in spans
        for dc in range(-reach, reach + 1)
        if (row, c + dc) in _AT
    }
    found.discard(i)
    return tuple(sorted(found))


NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = tuple(_neighbours(i) for i in range(CELL_COUNT))


def _leaps(i: int) -> tuple[int, ...]:
    """Where a 3 on ``i`` lands: 1st and 2nd cell along each corner direction."""
    return tuple(sorted(j for d in CORNER_DIRS[i] for j in RAYS[i][d][:2]))


LEAPS: Final[tuple[tuple[int, ...], ...]] = tuple(_leaps(i) for i in range(CELL_COUNT))


def _between(i: int) -> dict[int, tuple[int, int]]:
    """Target -> (direction, distance) for every cell on a straight line from ``i``."""
    return {j: (d, k) for d in ALL_DIRECTIONS for k, j in enumerate(RAYS[i][d], 1)}


LINE_TO: Final[tuple[Mapping[int, tuple[int, int]], ...]] = tuple(
    _between(i) for i in range(CELL_COUNT)
)


def _forward(side: int, i: int) -> int:
    r, c = COORDS[i]
    return cell_at(r + AHEAD[side], c)


def _pawn_captures(side: int, i: int) -> tuple[int, ...]:
    r, c = COORDS[i]
    row = r + AHEAD[side]
    return tuple(j for j in (cell_at(row, c - 1), cell_at(row, c + 1)) if j >= 0)


FORWARD: Final[Mapping[int, tuple[int, ...]]] = {
    side: tuple(_forward(side, i) for i in range(CELL_COUNT)) for side in (NORTH, SOUTH)
}
PAWN_CAPTURES: Final[Mapping[int, tuple[tuple[int, ...], ...]]] = {
    side: tuple(_pawn_captures(side, i) for i in range(CELL_COUNT)) for side in (NORTH, SOUTH)
}


def _reverse(table: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """For each cell x, the cells y whose entry in ``table`` holds x."""
    found: list[list[int]] = [[] for _ in range(CELL_COUNT)]
    for y, targets in enumerate(table):
        for x in targets:
            found[x].append(y)
    return tuple(tuple(sorted(ys)) for ys in found)


LEAPS_FROM: Final = _reverse(LEAPS)
PAWN_ATTACKERS: Final[Mapping[int, tuple[tuple[int, ...], ...]]] = {
    side: _reverse(PAWN_CAPTURES[side]) for side in (NORTH, SOUTH)
}

JUMP_FIELDS: Final[frozenset[int]] = frozenset(INDEX[name] for name in JUMP_FIELD_NAMES)
JUMP_OTHERS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sorted(JUMP_FIELDS - {i})) if i in JUMP_FIELDS else () for i in range(CELL_COUNT)
)


def name(i: int) -> str:
    return CELLS[i]


def names(cells: Iterable[int]) -> list[str]:
    """Cell names of an iterable of indices, in the given order."""
    return [CELLS[i] for i in cells]
