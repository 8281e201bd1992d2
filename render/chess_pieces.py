"""Trigeo's dice drawn as chess pieces: King 1, Pawn 2, Knight 3, Bishop 4,
Rook 5, Queen 6 (the rules allow a set of chess pieces for Trigeo).

The six figures are drawn for hexhop (no font, nothing copied): each is an
outline in a box 100 units wide and 100 high, its base on the box's bottom
edge and its middle at x = 50, made of straight lines and cubic curves only
(absolute ``M``, ``L``, ``C`` and ``Z``), so that the points of a path, its
curves' control points included, enclose everything it paints. On a cell a
figure is scaled to :data:`FIGURE_HEIGHT` units and stands upright on the
wide part of its triangle: low in a triangle whose apex points up, high in
one whose apex points down. A figure is filled in its side's colour (the
die's colour) with its side's edge colour round it and its inner lines in
the pip colour, so North's light and South's dark figures read as the dice
do, on light and on dark cells.

A die that was rolled (Hexalit's rule; a Trigeo record never rolls) keeps
its home face: a small disc on the figure's apex side carries the home
face's figure (a King or a Pawn), ringed in the colour of rolled dice, as
the small die of a rolled die does. Reads positions only.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from . import geometry as geo
from .svg_parts import ColorKey, die_group, element, num, tostring

__all__ = [
    "CHESS_GAMES",
    "FIGURES",
    "NAMES",
    "PIECES",
    "draws_chess",
    "figure_path",
    "piece_svg",
]

#: The ways a die can be drawn (``--pieces``).
PIECES = ("dice", "chess")
#: The games whose rules allow chess pieces instead of dice.
CHESS_GAMES = ("Trigeo",)
#: The figure for each face.
NAMES = {1: "king", 2: "pawn", 3: "knight", 4: "bishop", 5: "rook", 6: "queen"}

#: The height of a figure on the board, in user units (a triangle's side is
#: 100, a die 36 across).
FIGURE_HEIGHT = 47.0
#: Where a figure's base stands below the centroid: in a triangle with its
#: apex up (the wide side below) and with its apex down (wide side above).
BASE_APEX_UP = 24.8
BASE_APEX_DOWN = 22.0
#: The outline, in user units (as a die's edge).
EDGE = 2.0
#: The inner lines (the Bishop's cut, the Knight's eye), in user units.
DETAIL = 2.2
#: The disc with the home face of a rolled die, towards the apex.
HOME_RADIUS = 8.0
HOME_DISTANCE = 31.0  # from the centroid
HOME_FIGURE = 12.0  # height of the figure in it
HOME_EDGE = 1.6

Segment = tuple[tuple[float, float], ...]  # one point (a line) or three (a curve)


def _symmetric(top: tuple[float, float], right: list[Segment]) -> str:
    """A closed outline from its right half: ``right`` runs from ``top`` (on
    the middle line) clockwise down to the middle of the base; the left half
    is its mirror image, run backwards."""
    points = [top]
    for segment in right:
        points.append(segment[-1])
    parts = [f"M{_pt(top)}"]
    parts.extend(_segment(segment) for segment in right)
    # back up the left side: each segment mirrored and reversed
    for index in range(len(right) - 1, -1, -1):
        segment = right[index]
        start = points[index]
        mirrored = [(100.0 - x, y) for x, y in segment[:-1]]
        if len(segment) == 3:
            parts.append(_segment((mirrored[1], mirrored[0], (100.0 - start[0], start[1]))))
        else:
            parts.append(_segment(((100.0 - start[0], start[1]),)))
    parts.append("Z")
    return " ".join(parts)


def _pt(point: tuple[float, float]) -> str:
    return f"{num(point[0])},{num(point[1])}"


def _segment(segment: Segment) -> str:
    if len(segment) == 3:
        return "C" + " ".join(_pt(p) for p in segment)
    return f"L{_pt(segment[0])}"


def _circle(x: float, y: float, r: float) -> str:
    """A circle as four cubic curves (its control points lie within 1.15 r)."""
    k = 0.5523 * r
    return (
        f"M{_pt((x, y - r))} C{_pt((x + k, y - r))} {_pt((x + r, y - k))} {_pt((x + r, y))} "
        f"C{_pt((x + r, y + k))} {_pt((x + k, y + r))} {_pt((x, y + r))} "
        f"C{_pt((x - k, y + r))} {_pt((x - r, y + k))} {_pt((x - r, y))} "
        f"C{_pt((x - r, y - k))} {_pt((x - k, y - r))} {_pt((x, y - r))} Z"
    )


#: The foot every figure stands on: from the waist's flare to the base's middle.
_FOOT: list[Segment] = [
    ((80.0, 84.0),),
    ((84.5, 85.5), (84.5, 90.0), (84.5, 93.0)),
    ((84.5, 100.0),),
    ((50.0, 100.0),),
]


def _flare(x: float, y: float) -> list[Segment]:
    """From a collar's lower corner (x, y) out to the top of the foot."""
    return [((x + 1.0, y + 9.0), (71.0, 79.0), (80.0, 84.0)), *_FOOT]


_KING = _symmetric(
    (50.0, 0.0),
    [
        ((55.0, 0.0),),
        ((55.0, 7.0),),
        ((62.0, 7.0),),
        ((62.0, 15.0),),
        ((55.0, 15.0),),
        ((55.0, 22.0),),
        ((70.0, 19.0), (84.0, 25.0), (82.0, 36.0)),
        ((80.0, 46.0), (70.0, 52.0), (64.0, 56.0)),
        ((69.0, 57.0),),
        ((69.0, 64.0),),
        ((62.0, 65.0),),
        *_flare(62.0, 65.0),
    ],
)

_PAWN = _symmetric(
    (50.0, 18.0),
    [
        ((59.0, 18.0), (65.0, 25.0), (65.0, 33.0)),
        ((65.0, 39.0), (62.0, 43.0), (58.0, 46.0)),
        ((66.0, 48.0),),
        ((66.0, 55.0),),
        ((59.0, 56.0),),
        ((60.0, 66.0), (70.0, 78.0), (80.0, 84.0)),
        *_FOOT,
    ],
)

_ROOK = _symmetric(
    (50.0, 8.0),
    [
        ((57.0, 8.0),),
        ((57.0, 18.0),),
        ((66.0, 18.0),),
        ((66.0, 8.0),),
        ((79.0, 8.0),),
        ((79.0, 31.0),),
        ((70.0, 37.0),),
        ((70.0, 70.0),),
        ((78.0, 76.0),),
        ((78.0, 84.0),),
        ((80.0, 84.0),),
        *_FOOT,
    ],
)

_BISHOP = _symmetric(
    (50.0, 13.0),
    [
        ((61.0, 21.0), (70.0, 31.0), (69.0, 41.0)),
        ((68.0, 48.0), (63.0, 52.0), (59.0, 54.0)),
        ((67.0, 56.0),),
        ((67.0, 63.0),),
        ((60.0, 64.0),),
        *_flare(60.0, 64.0),
    ],
)

_QUEEN = _symmetric(
    (50.0, 10.0),
    [
        ((57.0, 31.0),),
        ((66.0, 10.0),),
        ((69.0, 33.0),),
        ((82.0, 15.0),),
        ((73.0, 49.0),),
        ((69.0, 52.0), (64.0, 55.0), (63.0, 56.0)),
        ((69.0, 58.0),),
        ((69.0, 65.0),),
        ((62.0, 66.0),),
        *_flare(62.0, 66.0),
    ],
)

#: The Knight faces left, as in chess diagrams; it is not symmetric.
_KNIGHT = (
    "M47,2 L57,14 C73,17 85,36 83,58 C82,69 79,77 80,84 "
    "C84.5,85.5 84.5,90 84.5,93 L84.5,100 L15.5,100 L15.5,93 C15.5,90 15.5,85.5 20,84 "
    "L30,84 C29,74 37,64 49,56 C41,55 31,60 24,60 "
    "C16,60 10,54 13,47 C17,38 32,26 41,16 Z"
)

#: Every figure's outline and the balls on its top (a path each).
FIGURES: dict[int, tuple[str, ...]] = {
    1: (_KING,),
    2: (_PAWN,),
    3: (_KNIGHT,),
    4: (_BISHOP, _circle(50.0, 8.0, 5.5)),
    5: (_ROOK,),
    6: (
        _QUEEN,
        *(_circle(x, y, 5.5) for x, y in ((50.0, 6.0), (66.0, 6.5), (34.0, 6.5))),
        *(_circle(x, y, 5.5) for x, y in ((83.0, 11.0), (17.0, 11.0))),
    ),
}

#: Inner lines in the pip colour: the Bishop's cut, the Knight's eye and
#: mane, the Rook's and the Queen's band, the King's collar.
DETAILS: dict[int, tuple[str, ...]] = {
    1: ("M38,57 L62,57",),
    2: (),
    3: (_circle(37.0, 30.0, 3.0), "M60,24 C70,32 74,44 72,60"),
    4: ("M57,25 L45,39",),
    5: ("M28,33 L72,33", "M30,72 L70,72"),
    6: ("M36,57 L64,57",),
}


def figure_path(face: int) -> tuple[str, ...]:
    """The paths of the figure of ``face`` in its 100 × 100 box."""
    return FIGURES[face]


def draws_chess(game: str, pieces: str) -> bool:
    """Whether dice of ``game`` are drawn as chess pieces for ``pieces``:
    only ``chess`` and only for a game whose rules allow it (Trigeo)."""
    return pieces == "chess" and game in CHESS_GAMES


@lru_cache(maxsize=8192)
def piece_svg(
    cell_name: str, side: str, face: int, home: int | None, flip: bool, key: ColorKey
) -> str:
    """The die of :func:`hexhop.render.dice.die_svg` as a chess piece, with
    the same class names (``die north face-1 rolled``) and data, plus the
    class ``chess`` and the figure's name (``king``)."""
    cell = geo.cells(flip)[cell_name]
    colors = dict(key)
    tone = side.lower()
    name = NAMES.get(face, "")
    cls = f"die chess {tone} face-{face} {name}".rstrip() + (" rolled" if home is not None else "")
    group = die_group(cls, cell.centroid, cell_name, face, home)
    base = BASE_APEX_DOWN if cell.apex_down else BASE_APEX_UP
    fill, pip, edge = colors[tone], colors[f"{tone}-pip"], colors[f"{tone}-edge"]
    group.append(_figure(face, 0.0, base, FIGURE_HEIGHT, fill, edge, pip, EDGE))
    if home is not None:
        middle = HOME_DISTANCE if cell.apex_down else -HOME_DISTANCE
        small = element("g", "home", data_face=home)
        small.append(
            element(
                "path",
                "disc",
                d=_circle(0.0, middle, HOME_RADIUS),
                fill=fill,
                stroke=colors["rolled"],
                stroke_width=HOME_EDGE,
            )
        )
        small.append(
            _figure(home, 0.0, middle + HOME_FIGURE / 2, HOME_FIGURE, pip, None, None, 0.0)
        )
        group.append(small)
    return tostring(group)


def _figure(
    face: int,
    x: float,
    base: float,
    height: float,
    fill: str,
    edge: str | None,
    detail: str | None,
    edge_width: float,
) -> Any:
    """The figure of ``face`` ``height`` units high, its base's middle at
    (x, base); a face without a figure (none is drawn by the rules) is its
    number on a disc."""
    k = height / 100.0
    group = element(
        "g",
        "figure",
        transform=f"translate({num(x - 50 * k)},{num(base - height)}) scale({k:g})",
    )
    paths = FIGURES.get(face, (_circle(50.0, 60.0, 38.0),))
    for d in paths:
        group.append(
            element(
                "path",
                "body",
                d=d,
                fill=fill,
                stroke=edge,
                stroke_width=f"{edge_width / k:.2f}" if edge else None,
                stroke_linejoin="round" if edge else None,
            )
        )
    if detail is not None:
        for d in DETAILS.get(face, ()):
            group.append(
                element(
                    "path",
                    "detail",
                    d=d,
                    fill="none",
                    stroke=detail,
                    stroke_width=f"{DETAIL / k:.2f}",
                    stroke_linecap="round",
                )
            )
    return group
