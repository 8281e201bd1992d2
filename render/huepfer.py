"""Hüpfer positions as SVG: the diamond grid, pieces, reserves and markings.

The grid with its coordinates is built once per board size, orientation and
colour table; each frame adds pieces, highlights, the path of the last turn
and the status. Reads positions only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from hexhop.messages import _, language, wins
from hexhop.messages import to_move as to_move_caption
from hexhop.notation.boards import file_letter

from . import geometry as geo
from .last_action import LastAction
from .svg_parts import ColorKey, Point, cross, element, legible, polyline_arrow, text, tostring

PIECE_RADIUS = 33.0
RING_WIDTH = 9.0
# A captured piece: its own look, faded, with a dashed edge and a cross.
GHOST_OPACITY = 0.6
# The most a coordinate's font may grow to: labels stand one step apart
# along a diagonal edge, 0.71 steps across and 0.71 steps up, so that boxes
# 0.8 em high (digits) do not meet; 0.75 steps keeps a 12 x 12 board's
# labels at 10 px in a picture 250 px wide.
LABEL_ROOM = 0.75 * geo.STEP


def extent(size: int) -> float:
    """Width of the picture, and height without the status band."""
    return geo.huepfer_extent(size)


def scale(size: int) -> float:
    """Text beside the board grows with the board, so that it keeps its
    size in pixels for a picture of a given width."""
    return extent(size) / extent(6)


def status_band(size: int) -> float:
    return 60.0 * scale(size)


def height(size: int) -> float:
    return extent(size) + status_band(size)


def label_size(size: int) -> float:
    return 16.0 + 2 * size


def _xy(point: str, size: int, flip: bool) -> Point | None:
    return geo.huepfer_points(size, flip).get(point)


# ---------------------------------------------------------------------------
# The static board


@lru_cache(maxsize=32)
def board_static(size: int, flip: bool, key: ColorKey, least: float = 0.0) -> str:
    """Background, lines, points and coordinates; ``least`` is the legible
    font size in user units."""
    colors = dict(key)
    extent = geo.huepfer_extent(size)
    band = geo.title_band(extent)
    parts = [
        tostring(
            element(
                "rect",
                "background",
                x=0,
                y=-band,
                width=float(extent),
                height=float(height(size) + band),
                fill=colors["background"],
            )
        )
    ]
    parts.extend(tostring(node) for node in _lines(size, flip, colors))
    parts.extend(tostring(node) for node in _points(size, flip, colors))
    parts.extend(tostring(node) for node in _labels(size, flip, colors, least))
    return "".join(parts)


def _lines(size: int, flip: bool, colors: dict[str, str]) -> list[Any]:
    nodes = []
    last = size - 1
    for i in range(size):
        for cls, a, b in (
            (f"line file {file_letter(i)}", (i, 0), (i, last)),
            (f"line rank r{i + 1}", (0, i), (last, i)),
        ):
            (x1, y1), (x2, y2) = geo.huepfer_xy(*a, size, flip), geo.huepfer_xy(*b, size, flip)
            edge = i in (0, last)
            nodes.append(
                element(
                    "line",
                    cls,
                    x1=x1,
                    y1=y1,
                    x2=x2,
                    y2=y2,
                    stroke=colors["border" if edge else "line"],
                    stroke_width=4.0 if edge else 2.5,
                    stroke_linecap="round",
                )
            )
    return nodes


def _points(size: int, flip: bool, colors: dict[str, str]) -> list[Any]:
    return [
        element("circle", f"point {name}", cx=x, cy=y, r=6.0, fill=colors["point"])
        for name, (x, y) in geo.huepfer_points(size, flip).items()
    ]


def _labels(size: int, flip: bool, colors: dict[str, str], least: float) -> list[Any]:
    """File letters beyond rank 1 and rank numbers beyond file a, on the two
    lower edges (upper edges when flipped)."""
    nodes = []
    font = legible(label_size(size), least, LABEL_ROOM)
    push = (PIECE_RADIUS + 0.9 * font) / 1.4142135623730951
    sign = -1 if flip else 1
    for i in range(size):
        x, y = geo.huepfer_xy(i, 0, size, flip)
        nodes.append(
            text(
                x + sign * push,
                y + sign * push,
                file_letter(i),
                f"coord file {file_letter(i)}",
                size=font,
                fill=colors["coord"],
                weight="bold",
            )
        )
        x, y = geo.huepfer_xy(0, i, size, flip)
        nodes.append(
            text(
                x - sign * push,
                y + sign * push,
                str(i + 1),
                f"coord rank r{i + 1}",
                size=font,
                fill=colors["coord"],
                weight="bold",
            )
        )
    return nodes


# ---------------------------------------------------------------------------
# Pieces


@lru_cache(maxsize=8192)
def piece_svg(point: str, colour: str, size: int, flip: bool, key: ColorKey) -> str:
    xy = _xy(point, size, flip)
    if xy is None:
        return ""
    return tostring(
        _piece(
            xy[0],
            xy[1],
            colour,
            PIECE_RADIUS,
            dict(key),
            f"piece {colour.lower()} {point}",
            data_point=point,
        )
    )


def _piece(
    x: float, y: float, colour: str, radius: float, colors: dict[str, str], cls: str, **data: object
) -> Any:
    """Red is a filled disc, Turquoise a thick ring: apart also in black and white."""
    if colour == "Red":
        return element(
            "circle",
            cls,
            **data,
            cx=x,
            cy=y,
            r=radius,
            fill=colors["red"],
            stroke=colors["red-edge"],
            stroke_width=3.0,
        )
    ring = RING_WIDTH * radius / PIECE_RADIUS
    return element(
        "circle",
        cls,
        **data,
        cx=x,
        cy=y,
        r=radius - ring / 2,
        fill=colors["turquoise-fill"],
        stroke=colors["turquoise"],
        stroke_width=ring,
    )


def pieces_layer(position: Any, flip: bool, key: ColorKey) -> str:
    size = position.size
    return "".join(
        piece_svg(point, colour, size, flip, key)
        for point, colour in sorted(position.pieces.items(), key=lambda item: _order(item[0]))
    )


def _order(point: str) -> tuple[int, int]:
    index = geo.huepfer_index(point)
    return index if index is not None else (99, 99)


@lru_cache(maxsize=32)
def hit_layer(size: int, flip: bool) -> str:
    """A transparent disc on every point, ``data-point`` naming it, above
    everything else: what a page that takes clicks on points (empty ones
    too) listens to, and tints by class (``hit a1``)."""
    return "".join(
        tostring(
            element(
                "circle",
                f"hit {name}",
                data_point=name,
                cx=x,
                cy=y,
                r=PIECE_RADIUS + 9,
                fill="transparent",
            )
        )
        for name, (x, y) in geo.huepfer_points(size, flip).items()
    )


# ---------------------------------------------------------------------------
# Highlights, path, arrows


@lru_cache(maxsize=4096)
def halo_svg(point: str, cls: str, role: str, size: int, flip: bool, key: ColorKey) -> str:
    """A tinted, framed disc behind a point (the frame keeps it visible in
    black and white)."""
    xy = _xy(point, size, flip)
    if xy is None:
        return ""
    colors = dict(key)
    edge = colors["last-edge"] if cls.startswith("last") else colors["highlight"]
    return tostring(
        element(
            "circle",
            f"{cls} {point}",
            cx=xy[0],
            cy=xy[1],
            r=PIECE_RADIUS + 11,
            fill=colors[role],
            fill_opacity=0.75,
            stroke=edge,
            stroke_width=3.5,
        )
    )


def highlight_layer(
    last: LastAction | None, highlights: Iterable[str], size: int, flip: bool, key: ColorKey
) -> str:
    parts = [halo_svg(point, "highlight", "highlight", size, flip, key) for point in highlights]
    if last is not None:
        if last.origin:
            parts.append(halo_svg(last.origin, "last-from", "last-from", size, flip, key))
        if last.target and last.target != last.origin:
            parts.append(halo_svg(last.target, "last-to", "last-to", size, flip, key))
    return "".join(parts)


def marks_layer(last: LastAction | None, size: int, flip: bool, key: ColorKey) -> str:
    """Above the pieces: the turn's path, the captured pieces over it (the
    path jumped them) and the newborn's ring."""
    if last is None:
        return ""
    colors = dict(key)
    parts = []
    path = [xy for xy in (_xy(p, size, flip) for p in last.path) if xy is not None]
    if len(path) >= 2:
        parts.append(
            tostring(polyline_arrow(path, "path", color=colors["path"], width=8.0, shorten=18.0))
        )
    for point in last.captured:
        xy = _xy(point, size, flip)
        if xy is not None:
            parts.append(tostring(_ghost(point, xy, last.captured_side, colors)))
    if last.birth:
        xy = _xy(last.birth, size, flip)
        if xy is not None:
            parts.append(
                tostring(
                    element(
                        "circle",
                        f"birth {last.birth}",
                        cx=xy[0],
                        cy=xy[1],
                        r=PIECE_RADIUS + 9,
                        fill="none",
                        stroke=colors["birth"],
                        stroke_width=4.0,
                        stroke_dasharray="7 5",
                    )
                )
            )
    return "".join(parts)


def _ghost(point: str, xy: Point, side: str | None, colors: dict[str, str]) -> Any:
    """The captured piece where it stood: its own disc or ring, faded and
    dashed, under a cross with a light halo (so it reads on any piece)."""
    x, y = xy
    group = element("g", f"captured {point}")
    if side in ("Red", "Turquoise"):
        ghost = _piece(x, y, side, PIECE_RADIUS, colors, "ghost")
    else:
        ghost = element("circle", "ghost", cx=x, cy=y, r=PIECE_RADIUS - 4, fill=colors["line"])
    ghost.set("opacity", str(GHOST_OPACITY))
    ghost.set("stroke-dasharray", "14 7")
    group.append(ghost)
    group.append(cross(x, y, 16.0, "halo", color=colors["background"], width=11.0))
    group.append(cross(x, y, 16.0, "cross", color=colors["captured"], width=6.0))
    return group


def arrows_layer(arrows: Sequence[tuple[str, str]], size: int, flip: bool, key: ColorKey) -> str:
    parts = []
    for start, end in arrows:
        a, b = _xy(start, size, flip), _xy(end, size, flip)
        if a is not None and b is not None:
            parts.append(
                tostring(
                    polyline_arrow(
                        [a, b],
                        f"arrow {start}-{end}",
                        color=dict(key)["arrow"],
                        width=8.0,
                        shorten=18.0,
                    )
                )
            )
    return "".join(parts)


# ---------------------------------------------------------------------------
# Reserves and status


def status_layer(position: Any, flip: bool, key: ColorKey, least: float = 0.0) -> str:
    """Both reserves and who moves or who won; ``least`` is the legible font size."""
    reserves = tuple(sorted(position.reserves.items()))
    return _status_svg(
        position.size,
        reserves,
        str(position.to_move),
        position.winner,
        flip,
        key,
        least,
        language(),
    )


@lru_cache(maxsize=1024)
def _status_svg(
    size: int,
    reserves: tuple[tuple[str, int], ...],
    to_move: str,
    winner: str | None,
    flip: bool,
    key: ColorKey,
    least: float,
    lang: str,
) -> str:
    """Both reserves in the right-hand corners and the status line."""
    colors = dict(key)
    k = scale(size)
    full = extent(size)
    bottom, top = ("Turquoise", "Red") if flip else ("Red", "Turquoise")
    counts = dict(reserves)
    parts = [
        _reserve(bottom, counts.get(bottom, 0), full - 110 * k, full - 90 * k, k, colors, least),
        _reserve(top, counts.get(top, 0), full - 110 * k, 70 * k, k, colors, least),
    ]
    side = winner if winner is not None else to_move
    caption = wins(side) if winner is not None else to_move_caption(side)  # in ``lang``
    font = legible(28 * k, least, 40 * k)
    g = font / (28 * k)
    y = full + status_band(size) / 2 - 12 * k
    if side in ("Red", "Turquoise"):
        parts.append(
            tostring(
                _piece(
                    full / 2 - 95 * k * g, y, side, 15 * k * g, colors, f"to-move {side.lower()}"
                )
            )
        )
    parts.append(
        tostring(
            text(
                full / 2 - 70 * k * g,
                y,
                caption,
                "status winner" if winner is not None else "status",
                size=font,
                fill=colors["title"],
                anchor="start",
            )
        )
    )
    return "".join(parts)


def _reserve(
    side: str, count: int, x: float, y: float, k: float, colors: dict[str, str], least: float
) -> str:
    """The reserve of ``side``: a piece, the count and, centred under both,
    the word "reserve"."""
    number = legible(34 * k, least, 44 * k)
    word = legible(20 * k, least, 40 * k)
    g = number / (34 * k)
    group = element("g", f"reserve {side.lower()}", data_side=side, data_count=count)
    group.append(_piece(x - 20 * k * g, y, side, 22 * k * g, colors, "icon"))
    group.append(
        text(
            x + 10 * k * g,
            y,
            str(count),
            "count",
            size=number,
            fill=colors["title"],
            anchor="start",
            weight="bold",
        )
    )
    below = y + max(40 * k, 0.55 * (number + word))
    group.append(
        text(x + 8 * k * g, below, _("reserve"), "caption", size=word, fill=colors["coord"])
    )
    return tostring(group)
