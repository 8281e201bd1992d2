"""Hexalit and Trigeo positions as SVG: the hexagon, dice and markings.

The board (cells, outline, labels, Trigeo jump fields) is built once per
orientation and colour table and reused; each frame adds only dice,
highlights, arrows and the status line. Reads positions only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from hexhop.messages import language, wins
from hexhop.messages import to_move as to_move_caption
from hexhop.notation.numbers import ascii_int

from . import chess_pieces
from . import geometry as geo
from .last_action import LastAction
from .svg_parts import (
    ColorKey,
    arrow,
    cross,
    die_group,
    element,
    inset,
    legible,
    polygon,
    text,
    tostring,
)

STATUS_BAND = 44.0
WIDTH = geo.DICE_WIDTH
HEIGHT = geo.DICE_HEIGHT + STATUS_BAND

# A die is a square on its cell's centroid, small enough that its corners
# (with the edge line) keep 2.9 units off the triangle's sides; at 21 they
# touched the sides and the dice of a row looked staggered.
DIE_HALF = 18.0
DIE_RADIUS = 5.0
DIE_EDGE = 2.0
# Pips stay 2.5 pixels across at the smallest picture (render.MIN_SIZE,
# 250 px: 3.3 units a pixel): 8.8 units, 2.2 apart in a column of three.
PIP_RADIUS = 4.4
PIP_OFFSET = 11.0
# The home face of a rolled die: a small die on the big one's edge towards
# the apex, overlapping it a little, so that it reads as part of that die.
# The pair is centred on the cell: the big die moves ROLLED_SHIFT towards
# the triangle's base, which leaves the small one room where the triangle
# narrows.
HOME_HALF = 11.4
HOME_OVERLAP = 3.0
HOME_EDGE = 1.6
ROLLED_SHIFT = 7.5
# Home faces are 1 or 2: pips as large as the big die's, the two of a 2 on
# the small die's diagonal.
HOME_PIP = 4.3
HOME_PIP_OFFSET = 5.2
# Fonts in user units: (as designed, the most the place holds); at small
# output sizes they grow towards the legible minimum (``least``).
ROW_FONT = (24.0, 40.0)
COLUMN_FONT = (20.0, 34.0)
STATUS_FONT = (22.0, 34.0)
CUBE_FONT = (22.0, 36.0)  # 19 for two digits
# Column numbers stand half a side apart; DejaVu Sans digits are 0.636 em
# wide. Two-digit numbers are drawn narrower where a gap of COLUMN_GAP em
# between them would not fit (at 250 px their gap is 2 px, their digits'
# 1 px: they ran together).
DIGIT_EM = 0.64
COLUMN_GAP = 0.45
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


def _c(key: ColorKey, role: str) -> str:
    return dict(key)[role]


# ---------------------------------------------------------------------------
# The static board


@lru_cache(maxsize=32)
def board_base(jump_fields: bool, flip: bool, key: ColorKey) -> str:
    """Cells in two shades (below highlights); with ``jump_fields`` (Trigeo)
    the jump fields carry the class ``jump-field``."""
    colors = dict(key)
    band = geo.title_band(WIDTH)
    parts = [
        tostring(
            element(
                "rect",
                "background",
                x=0,
                y=-band,
                width=float(WIDTH),
                height=float(HEIGHT + band),
                fill=colors["background"],
            )
        )
    ]
    for cell in geo.cells(flip).values():
        parts.append(tostring(_cell_polygon(cell, jump_fields, colors)))
    return "".join(parts)


def _cell_polygon(cell: geo.Cell, jump_fields: bool, colors: dict[str, str]) -> Any:
    shade = "light" if cell.up else "dark"
    orientation = "up" if cell.up else "down"
    jump = " jump-field" if jump_fields and cell.name in geo.JUMP_FIELDS else ""
    cls = f"cell {orientation} {shade}{jump} {cell.name}"
    return polygon(
        cell.corners,
        cls,
        data_cell=cell.name,
        fill=colors[shade],
        stroke=colors["grid"],
        stroke_width=1.2,
        stroke_linejoin="round",
    )


@lru_cache(maxsize=32)
def board_top(jump_fields: bool, flip: bool, key: ColorKey, least: float = 0.0) -> str:
    """Outline, the jump fields if the game has them, and coordinates (above
    highlights); ``least`` is the legible font size in user units."""
    colors = dict(key)
    parts = [
        tostring(
            polygon(
                geo.outline(flip),
                "outline",
                fill="none",
                stroke=colors["border"],
                stroke_width=4,
                stroke_linejoin="round",
            )
        )
    ]
    if jump_fields:
        parts.extend(
            tostring(_jump_mark(geo.cells(flip)[name], colors)) for name in geo.JUMP_FIELDS
        )
    parts.extend(tostring(node) for node in _labels(flip, colors, least))
    return "".join(parts)


def _jump_mark(cell: geo.Cell, colors: dict[str, str]) -> Any:
    return polygon(
        inset(cell.corners, 0.22),
        f"jump {cell.name}",
        fill="none",
        stroke=colors["jump"],
        stroke_width=3.5,
        stroke_dasharray="9 5",
        stroke_linejoin="round",
    )


def _labels(flip: bool, colors: dict[str, str], least: float) -> list[Any]:
    nodes = []
    row_font, column_font = legible(*ROW_FONT, least), legible(*COLUMN_FONT, least)
    for letter, left, right in geo.row_label_points(flip):
        for x, y in (left, right):
            nodes.append(
                text(
                    x,
                    y,
                    letter,
                    f"coord row {letter}",
                    size=row_font,
                    fill=colors["coord"],
                    weight="bold",
                )
            )
    squeeze = _squeeze(column_font)
    for number, top, bottom in geo.column_label_points(flip):
        for x, y in (top, bottom):
            node = text(
                x, y, number, f"coord column c{number}", size=column_font, fill=colors["coord"]
            )
            if len(number) > 1 and squeeze < 1:
                node.set("transform", f"matrix({squeeze:.2f} 0 0 1 {x * (1 - squeeze):.2f} 0)")
            nodes.append(node)
    return nodes


def _squeeze(font: float) -> float:
    """How much narrower the numbers 10 to 13 are drawn, so that a gap of
    :data:`COLUMN_GAP` em keeps them apart where the font has grown (at the
    smallest pictures); 1 (not at all) where they have room."""
    natural = 2 * DIGIT_EM * font
    return min(1.0, round((geo.SIDE / 2 - COLUMN_GAP * font) / natural, 2))


# ---------------------------------------------------------------------------
# Dice


@lru_cache(maxsize=8192)
def die_svg(
    cell_name: str, side: str, face: int, home: int | None, flip: bool, key: ColorKey
) -> str:
    """One die on its cell, centred on the cell's centroid. A rolled die
    shows the rolled face big and, between it and its cell's apex, a small
    die with its home face: the face it turns back to."""
    cell = geo.cells(flip)[cell_name]
    colors = dict(key)
    tone = side.lower()
    cls = f"die {tone} face-{face}" + (" rolled" if home is not None else "")
    group = die_group(cls, cell.centroid, cell_name, face, home)
    fill, pip = colors[tone], colors[f"{tone}-pip"]
    shift = 0.0 if home is None else _apex_offset(cell, -ROLLED_SHIFT)
    group.extend(
        _die_parts(
            0.0,
            shift,
            face,
            DIE_HALF,
            (PIP_RADIUS, PIP_OFFSET),
            fill,
            pip,
            colors[f"{tone}-edge"],
            DIE_EDGE,
        )
    )
    if home is not None:
        small = element("g", "home", data_face=home)
        middle = shift + _apex_offset(cell, DIE_HALF + DIE_EDGE / 2 + HOME_HALF - HOME_OVERLAP)
        small.extend(
            _die_parts(
                0.0,
                middle,
                home,
                HOME_HALF,
                _home_pips(home),
                fill,
                pip,
                colors["rolled"],
                HOME_EDGE,
            )
        )
        group.append(small)
    return tostring(group)


def _home_pips(face: int) -> tuple[float, float]:
    """Pip radius and offset on the small die: a 1 or 2 as large as the big
    die's pips, other faces (no rule makes them) scaled down."""
    if face <= 2:
        return HOME_PIP, HOME_PIP_OFFSET
    k = HOME_HALF / DIE_HALF
    return PIP_RADIUS * k, PIP_OFFSET * k


def _die_parts(
    x: float,
    y: float,
    face: int,
    half: float,
    pips: tuple[float, float],
    fill: str,
    pip: str,
    edge: str,
    edge_width: float,
) -> list[Any]:
    """The square and the pips of a die centred on (x, y), ``half`` units
    from its centre to each side, ``pips`` the radius of a pip and its
    distance (along x and y) from the centre; a face without pips is written."""
    k = half / DIE_HALF
    radius, offset = pips
    nodes = [
        element(
            "rect",
            "body",
            x=x - half,
            y=y - half,
            width=2 * half,
            height=2 * half,
            rx=DIE_RADIUS * k,
            fill=fill,
            stroke=edge,
            stroke_width=edge_width,
        )
    ]
    for dx, dy in PIPS.get(face, ()):
        nodes.append(
            element(
                "circle",
                "pip",
                cx=x + dx * offset,
                cy=y + dy * offset,
                r=radius,
                fill=pip,
            )
        )
    if face not in PIPS:
        nodes.append(text(x, y, str(face), "face", size=24 * k, fill=pip))
    return nodes


def _apex_offset(cell: geo.Cell, distance: float) -> float:
    return distance if cell.apex_down else -distance


def dice_layer(position: Any, flip: bool, key: ColorKey, chess: bool = False) -> str:
    """Every die on the board; with ``chess`` as chess pieces (Trigeo)."""
    cells = geo.cells(flip)
    draw = chess_pieces.piece_svg if chess else die_svg
    parts = []
    for name, die in sorted(position.dice.items(), key=lambda item: _board_order(item[0])):
        if name in cells:
            parts.append(draw(name, die.side, die.face, die.home, flip, key))
    return "".join(parts)


def _board_order(name: str) -> tuple[int, int]:
    column = ascii_int(name[1:])
    if column is None or name[0] not in geo.ROWS:
        return 99, 0
    return geo.ROWS.index(name[0]), column


# ---------------------------------------------------------------------------
# Highlights, arrows and marks


@lru_cache(maxsize=4096)
def overlay_svg(
    cell_name: str, cls: str, role: str, opacity: float, flip: bool, key: ColorKey
) -> str:
    """A cell tinted in ``role``'s colour and framed (the frame keeps it
    visible in black and white), below the dice."""
    cell = geo.cells(flip)[cell_name]
    edge = _c(key, "last-edge") if cls.startswith("last") else _c(key, "highlight")
    group = element("g", f"{cls} {cell_name}")
    group.append(polygon(cell.corners, "tint", fill=_c(key, role), fill_opacity=opacity))
    group.append(
        polygon(
            inset(cell.corners, 0.07),
            "frame",
            fill="none",
            stroke=edge,
            stroke_width=3.5,
            stroke_linejoin="round",
        )
    )
    return tostring(group)


def highlight_layer(
    last: LastAction | None, highlights: Iterable[str], flip: bool, key: ColorKey
) -> str:
    cells = geo.cells(flip)
    parts = []
    for name in highlights:
        if name in cells:
            parts.append(overlay_svg(name, "highlight", "highlight", 0.55, flip, key))
    if last is not None:
        if last.origin in cells:
            cls = "last-from last-roll" if last.rolled else "last-from"
            parts.append(overlay_svg(last.origin, cls, "last-from", 0.6, flip, key))
        if last.target in cells:
            parts.append(overlay_svg(last.target, "last-to", "last-to", 0.7, flip, key))
        for name in last.threatened:
            if name in cells:
                parts.append(_threat_svg(name, last.win, flip, key))
    return "".join(parts)


@lru_cache(maxsize=512)
def _threat_svg(cell_name: str, win: bool, flip: bool, key: ColorKey) -> str:
    cell = geo.cells(flip)[cell_name]
    color = _c(key, "threat")
    cls = f"threat win {cell_name}" if win else f"threat {cell_name}"
    return tostring(
        polygon(
            inset(cell.corners, 0.12),
            cls,
            fill=color if win else "none",
            fill_opacity=0.35 if win else None,
            stroke=color,
            stroke_width=5.0,
            stroke_linejoin="round",
        )
    )


def marks_layer(last: LastAction | None, flip: bool, key: ColorKey) -> str:
    """Marks above the dice: captures (×) and the rolled die's frame."""
    if last is None:
        return ""
    cells = geo.cells(flip)
    parts = []
    for name in last.captured:
        if name in cells:
            parts.append(_captured_svg(name, flip, key))
    if last.rolled in cells:
        parts.append(_roll_frame_svg(last.rolled, last.rolled_home, flip, key))
    return "".join(parts)


@lru_cache(maxsize=512)
def _captured_svg(cell_name: str, flip: bool, key: ColorKey) -> str:
    cell = geo.cells(flip)[cell_name]
    x, y = cell.centroid
    return tostring(
        cross(
            x,
            y + _apex_offset(cell, 32.0),
            6.0,
            f"captured {cell_name}",
            color=_c(key, "captured"),
            width=3.5,
        )
    )


@lru_cache(maxsize=512)
def _roll_frame_svg(cell_name: str, home: bool, flip: bool, key: ColorKey) -> str:
    """The edge of the die just rolled, redrawn thick in the roll colour
    (moved with the die when it shows its ``home`` face too)."""
    cell = geo.cells(flip)[cell_name]
    x, y = cell.centroid
    y += _apex_offset(cell, -ROLLED_SHIFT) if home else 0.0
    return tostring(
        element(
            "rect",
            f"roll-frame {cell_name}",
            x=x - DIE_HALF,
            y=y - DIE_HALF,
            width=2 * DIE_HALF,
            height=2 * DIE_HALF,
            rx=DIE_RADIUS,
            fill="none",
            stroke=_c(key, "rolled"),
            stroke_width=4.0,
        )
    )


def arrows_layer(arrows: Sequence[tuple[str, str]], flip: bool, key: ColorKey) -> str:
    cells = geo.cells(flip)
    parts = []
    for start, end in arrows:
        if start in cells and end in cells:
            parts.append(
                tostring(
                    arrow(
                        cells[start].centroid,
                        cells[end].centroid,
                        f"arrow {start}-{end}",
                        color=_c(key, "arrow"),
                        width=7.0,
                        shorten=14.0,
                    )
                )
            )
    return "".join(parts)


# ---------------------------------------------------------------------------
# Status: side to move, winner, cube


def status_layer(position: Any, key: ColorKey, least: float = 0.0) -> str:
    """Who moves or who won, and the cube; ``least`` is the legible font size."""
    return _status_svg(
        str(position.to_move), position.winner, position.cube, key, least, language()
    )


@lru_cache(maxsize=256)
def _status_svg(
    to_move: str, winner: str | None, cube: int | None, key: ColorKey, least: float, lang: str
) -> str:
    """The line under the board (who moves or who won) and the cube."""
    colors = dict(key)
    font = legible(*STATUS_FONT, least)
    k = font / STATUS_FONT[0]
    y = geo.DICE_HEIGHT + STATUS_BAND / 2 - 6
    side = winner if winner is not None else to_move
    caption = wins(side) if winner is not None else to_move_caption(side)  # in ``lang``
    tone = str(side).lower()
    parts = []
    if tone in ("north", "south"):
        parts.append(
            tostring(
                element(
                    "rect",
                    f"to-move {tone}",
                    x=WIDTH / 2 - 92 * k,
                    y=y - 11 * k,
                    width=22 * k,
                    height=22 * k,
                    rx=4 * k,
                    fill=colors[tone],
                    stroke=colors[f"{tone}-edge"],
                    stroke_width=2.0,
                )
            )
        )
    cls = "status winner" if winner is not None else "status"
    parts.append(
        tostring(
            text(
                WIDTH / 2 - 62 * k, y, caption, cls, size=font, fill=colors["title"], anchor="start"
            )
        )
    )
    if cube is not None:
        parts.append(_cube_svg(cube, colors, least))
    return "".join(parts)


def _cube_svg(value: int, colors: dict[str, str], least: float) -> str:
    font = legible(22.0 if value < 10 else 19.0, least, CUBE_FONT[1])
    half = max(22.0, font * (0.55 if value < 10 else 0.95))
    x, y = max(38.0, half + 8), geo.MARGIN_Y + geo.BOARD_HEIGHT - 36
    group = element("g", "cube", data_value=value)
    group.append(
        element(
            "rect",
            "body",
            x=x - half,
            y=y - half,
            width=2 * half,
            height=2 * half,
            rx=5.0,
            fill=colors["cube"],
            stroke=colors["cube-edge"],
            stroke_width=2.5,
        )
    )
    group.append(
        text(
            x,
            y,
            str(value),
            "value",
            size=font,
            fill=colors["cube-edge"],
            weight="bold",
        )
    )
    return tostring(group)
