"""Where things are drawn: cells of the Hexalit/Trigeo hexagon and points of
the Hüpfer diamond, in SVG user units.

Pure geometry from the board descriptions of rules.md §1 and §6; it does not
know pieces, moves or rules (neighbours and lines live in the engines).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from hexhop.notation.boards import DICE_COLUMNS, FILE_LETTERS, HUEPFER_BOARDS
from hexhop.notation.boards import DICE_ROW_COLUMNS as ROW_COLUMNS
from hexhop.notation.boards import DICE_ROWS as ROWS
from hexhop.notation.boards import JUMP_FIELDS as JUMP_FIELDS
from hexhop.notation.numbers import ascii_int

from .svg_parts import Point

# ---------------------------------------------------------------------------
# Hexalit / Trigeo (the board's rows, columns and jump fields: hexhop.notation.boards)

SIDE = 100.0  # side of a triangle
ROW_HEIGHT = SIDE * math.sqrt(3) / 2
MARGIN_X = 64.0  # room for row letters
MARGIN_Y = 50.0  # room for column numbers
BOARD_WIDTH = 7 * SIDE
BOARD_HEIGHT = 6 * ROW_HEIGHT
DICE_WIDTH = BOARD_WIDTH + 2 * MARGIN_X
DICE_HEIGHT = BOARD_HEIGHT + 2 * MARGIN_Y
TITLE_SHARE = 0.075  # height of the title band, as a share of the width


def title_band(width: float) -> float:
    """Height of the band above the board that holds a title."""
    return TITLE_SHARE * width


@dataclass(frozen=True)
class Cell:
    """One triangle: its name, orientation as drawn, corners and centroid."""

    name: str
    row: int
    column: int
    up: bool  # up-pointing on the board (rules.md §1), whatever the flip
    corners: tuple[Point, Point, Point]
    centroid: Point
    apex_down: bool  # as drawn: True when the apex points down the picture


def _board_point(x: float, y: float, flip: bool) -> Point:
    """Board coordinates (origin at the top-left of the hexagon's box) to SVG."""
    if flip:
        x, y = BOARD_WIDTH - x, BOARD_HEIGHT - y
    return (MARGIN_X + x, MARGIN_Y + y)


def _cell(row: int, column: int, flip: bool) -> Cell:
    up = (row + column) % 2 == 1
    x = column * SIDE / 2
    top, bottom = row * ROW_HEIGHT, (row + 1) * ROW_HEIGHT
    if up:
        raw = [(x, top), (x + SIDE / 2, bottom), (x - SIDE / 2, bottom)]
        cy = top + 2 * ROW_HEIGHT / 3
    else:
        raw = [(x - SIDE / 2, top), (x + SIDE / 2, top), (x, bottom)]
        cy = top + ROW_HEIGHT / 3
    first, second, third = (_board_point(px, py, flip) for px, py in raw)
    name = f"{ROWS[row]}{column}"
    return Cell(
        name,
        row,
        column,
        up,
        (first, second, third),
        _board_point(x, cy, flip),
        apex_down=(not up) != flip,
    )


@lru_cache(maxsize=4)
def cells(flip: bool) -> dict[str, Cell]:
    """All 66 cells by name, in board order (A3 … F11)."""
    table: dict[str, Cell] = {}
    for row, letter in enumerate(ROWS):
        first, last = ROW_COLUMNS[letter]
        for column in range(first, last + 1):
            cell = _cell(row, column, flip)
            table[cell.name] = cell
    return table


def row_label_points(flip: bool) -> list[tuple[str, Point, Point]]:
    """For each row letter, where to write it left and right of the board."""
    out = []
    for row, letter in enumerate(ROWS):
        first, last = ROW_COLUMNS[letter]
        y = (row + 0.5) * ROW_HEIGHT
        left = (first * SIDE / 2 - SIDE / 4 - 30, y)
        right = (last * SIDE / 2 + SIDE / 4 + 30, y)
        if flip:
            left, right = right, left
        out.append((letter, _board_point(*left, flip), _board_point(*right, flip)))
    return out


def column_label_points(flip: bool) -> list[tuple[str, Point, Point]]:
    """For each column 1–13, where to write it above and below the board."""
    out = []
    for column in DICE_COLUMNS:
        x = column * SIDE / 2
        top, bottom = (x, -MARGIN_Y / 2), (x, BOARD_HEIGHT + MARGIN_Y / 2)
        if flip:
            top, bottom = bottom, top
        out.append((str(column), _board_point(*top, flip), _board_point(*bottom, flip)))
    return out


def outline(flip: bool) -> list[Point]:
    """The six corners of the hexagon (sides 4, 3, 3, 4, 3, 3 triangle sides)."""
    raw = [
        (1.5 * SIDE, 0.0),
        (5.5 * SIDE, 0.0),
        (7 * SIDE, 3 * ROW_HEIGHT),
        (5.5 * SIDE, BOARD_HEIGHT),
        (1.5 * SIDE, BOARD_HEIGHT),
        (0.0, 3 * ROW_HEIGHT),
    ]
    return [_board_point(x, y, flip) for x, y in raw]


# ---------------------------------------------------------------------------
# Hüpfer

STEP = 100.0  # distance between neighbouring points along a line
DIAG = STEP / math.sqrt(2)
HUEPFER_MARGIN = 120.0


def huepfer_extent(size: int) -> float:
    """Width (= height) of the Hüpfer picture for an N × N board."""
    return 2 * (size - 1) * DIAG + 2 * HUEPFER_MARGIN


def huepfer_xy(file: int, rank: int, size: int, flip: bool) -> Point:
    """SVG position of the point (file, rank), both 0-based; a1 at the bottom
    corner, files up to the right, ranks up to the left (turned 180° when
    ``flip``)."""
    if flip:
        file, rank = size - 1 - file, size - 1 - rank
    extent = huepfer_extent(size)
    return (extent / 2 + (file - rank) * DIAG, extent - HUEPFER_MARGIN - (file + rank) * DIAG)


@lru_cache(maxsize=16)
def huepfer_points(size: int, flip: bool) -> dict[str, Point]:
    """Every point by name (a1, b1, …) in file-major order."""
    return {
        f"{FILE_LETTERS[f]}{r + 1}": huepfer_xy(f, r, size, flip)
        for f in range(size)
        for r in range(size)
    }


def huepfer_index(name: str) -> tuple[int, int] | None:
    """(file, rank) 0-based of a point name, or None when it is not one (its
    file is on no board of the registry)."""
    files = FILE_LETTERS[: max(HUEPFER_BOARDS)]
    rank = ascii_int(name[1:], max_digits=3)
    if rank is None or name[0] not in files:
        return None
    return files.index(name[0]), rank - 1
