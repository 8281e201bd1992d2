"""Hexalit and Trigeo positions as SVG: the hexagon, dice and markings.

The board (cells, outline, labels, Trigeo jump fields) is built once per
orientation and colour table and reused; each frame adds only dice,
highlights, arrows and the status line. Reads positions only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from . import geometry as geo
from .last_action import LastAction
from .svg_parts import ColorKey, arrow, cross, element, inset, num, polygon, text, tostring

STATUS_BAND = 44.0
WIDTH = geo.DICE_WIDTH
HEIGHT = geo.DICE_HEIGHT + STATUS_BAND

DIE_HALF = 21.0
DIE_RADIUS = 6.0
PIP_RADIUS = 4.4
PIP_OFFSET = 10.5
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
def board_top(jump_fields: bool, flip: bool, key: ColorKey) -> str:
    """Outline, the jump fields if the game has them, and coordinates (above
    highlights)."""
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
    parts.extend(tostring(node) for node in _labels(flip, colors))
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


def _labels(flip: bool, colors: dict[str, str]) -> list[Any]:
    nodes = []
    for letter, left, right in geo.row_label_points(flip):
        for x, y in (left, right):
            nodes.append(
                text(
                    x,
                    y,
                    letter,
                    f"coord row {letter}",
                    size=24,
                    fill=colors["coord"],
                    weight="bold",
                )
            )
    for number, top, bottom in geo.column_label_points(flip):
        for x, y in (top, bottom):
            nodes.append(
                text(x, y, number, f"coord column c{number}", size=20, fill=colors["coord"])
            )
    return nodes


# ---------------------------------------------------------------------------
# Dice


@lru_cache(maxsize=8192)
def die_svg(
    cell_name: str, side: str, face: int, home: int | None, flip: bool, key: ColorKey
) -> str:
    """One die on its cell, centred on the cell's centroid; a rolled die
    carries ``→home`` towards its cell's apex."""
    cell = geo.cells(flip)[cell_name]
    colors = dict(key)
    tone = side.lower()
    cls = f"die {tone} face-{face}" + (" rolled" if home is not None else "")
    x, y = cell.centroid
    group = element(
        "g",
        cls,
        data_cell=cell_name,
        data_face=face,
        data_home=home,
        transform=f"translate({num(x)},{num(y)})",
    )
    group.append(
        element(
            "rect",
            "body",
            x=-DIE_HALF,
            y=-DIE_HALF,
            width=2 * DIE_HALF,
            height=2 * DIE_HALF,
            rx=DIE_RADIUS,
            fill=colors[tone],
            stroke=colors[f"{tone}-edge"],
            stroke_width=2.0,
        )
    )
    for dx, dy in PIPS.get(face, ()):
        group.append(
            element(
                "circle",
                "pip",
                cx=float(dx * PIP_OFFSET),
                cy=float(dy * PIP_OFFSET),
                r=PIP_RADIUS,
                fill=colors[f"{tone}-pip"],
            )
        )
    if face not in PIPS:
        group.append(text(0, 0, str(face), "face", size=26, fill=colors[f"{tone}-pip"]))
    if home is not None:
        group.append(_home_mark(cell, home, colors))
    return tostring(group)


def _apex_offset(cell: geo.Cell, distance: float) -> float:
    return distance if cell.apex_down else -distance


def _home_mark(cell: geo.Cell, home: int, colors: dict[str, str]) -> Any:
    """``→home`` towards the apex, with a halo so that it reads on any tint."""
    y = _apex_offset(cell, 31.5)
    group = element("g", "home")
    halo = text(0, y, f"\u2192{home}", "halo", size=17, fill=colors["background"], weight="bold")
    halo.set("stroke", colors["background"])
    halo.set("stroke-width", "4.5")
    halo.set("stroke-linejoin", "round")
    group.append(halo)
    group.append(
        text(0, y, f"\u2192{home}", "label", size=17, fill=colors["rolled"], weight="bold")
    )
    return group


def dice_layer(position: Any, flip: bool, key: ColorKey) -> str:
    cells = geo.cells(flip)
    parts = []
    for name, die in sorted(position.dice.items(), key=lambda item: _board_order(item[0])):
        if name in cells:
            parts.append(die_svg(name, die.side, die.face, die.home, flip, key))
    return "".join(parts)


def _board_order(name: str) -> tuple[int, int]:
    try:
        return geo.ROWS.index(name[0]), int(name[1:])
    except ValueError:
        return 99, 0


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
        parts.append(_roll_frame_svg(last.rolled, flip, key))
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
def _roll_frame_svg(cell_name: str, flip: bool, key: ColorKey) -> str:
    """The edge of the die just rolled, redrawn thick in the roll colour."""
    cell = geo.cells(flip)[cell_name]
    x, y = cell.centroid
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


def status_layer(position: Any, key: ColorKey) -> str:
    return _status_svg(str(position.to_move), position.winner, position.cube, key)


@lru_cache(maxsize=256)
def _status_svg(to_move: str, winner: str | None, cube: int | None, key: ColorKey) -> str:
    """The line under the board (who moves or who won) and the cube."""
    colors = dict(key)
    y = geo.DICE_HEIGHT + STATUS_BAND / 2 - 6
    side = winner if winner is not None else to_move
    caption = f"{side} wins" if winner is not None else f"{side} to move"
    tone = str(side).lower()
    parts = []
    if tone in ("north", "south"):
        parts.append(
            tostring(
                element(
                    "rect",
                    f"to-move {tone}",
                    x=WIDTH / 2 - 92,
                    y=y - 11,
                    width=22.0,
                    height=22.0,
                    rx=4.0,
                    fill=colors[tone],
                    stroke=colors[f"{tone}-edge"],
                    stroke_width=2.0,
                )
            )
        )
    cls = "status winner" if winner is not None else "status"
    parts.append(
        tostring(
            text(WIDTH / 2 - 62, y, caption, cls, size=22, fill=colors["title"], anchor="start")
        )
    )
    if cube is not None:
        parts.append(_cube_svg(cube, colors))
    return "".join(parts)


def _cube_svg(value: int, colors: dict[str, str]) -> str:
    x, y, half = 38.0, geo.MARGIN_Y + geo.BOARD_HEIGHT - 36, 22.0
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
            size=22 if value < 10 else 19,
            fill=colors["cube-edge"],
            weight="bold",
        )
    )
    return tostring(group)
