"""Small SVG building blocks shared by the board drawings.

Number formatting, element helpers over :mod:`xml.etree.ElementTree`, the
colour table and arrows. Nothing here knows a game.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from hexhop.notation.errors import ArgumentError

Point = tuple[float, float]
ColorKey = tuple[tuple[str, str], ...]

#: Every colour the drawings use, by role. ``colors=`` overrides entries.
DEFAULT_COLORS: dict[str, str] = {
    "background": "#ffffff",
    "light": "#f2e3c6",
    "dark": "#c9a77c",
    "border": "#4a3b2a",
    "grid": "#7d6a55",
    "coord": "#333333",
    "title": "#111111",
    "north": "#fdfcf7",
    "north-pip": "#1b1b1b",
    "north-edge": "#1b1b1b",
    "south": "#262626",
    "south-pip": "#fafafa",
    "south-edge": "#000000",
    "red": "#c62828",
    "red-edge": "#5a0d0d",
    "turquoise": "#0f9b9b",
    "turquoise-fill": "#ffffff",
    "point": "#4a3b2a",
    "line": "#6e5b46",
    "jump": "#3949ab",
    "last-from": "#f4d03f",
    "last-to": "#f1c40f",
    "last-edge": "#8a6d00",
    "highlight": "#5dade2",
    "captured": "#c0392b",
    "threat": "#d32f2f",
    "rolled": "#a01c10",
    "arrow": "#2e7d32",
    "path": "#2e7d32",
    "birth": "#2e7d32",
    "cube": "#ffffff",
    "cube-edge": "#111111",
}

FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
SVG_NS = "http://www.w3.org/2000/svg"

#: The smallest text, in pixels of the finished picture, that still reads in
#: print: a newsletter column is 250–300 pixels wide.
MIN_TEXT_PX = 10.0
#: The narrowest picture, in pixels, whose every part still reads: text of
#: :data:`MIN_TEXT_PX`, pips 2.5 px across, the column numbers 10 to 13
#: apart. The command line draws no smaller diagram.
MIN_SIZE = 250


def least_font(width: float, size: int) -> float:
    """The font size, in user units of a picture ``width`` units wide shown
    ``size`` pixels wide, that comes out as :data:`MIN_TEXT_PX` pixels
    (rounded up to one decimal: never below the minimum, short numbers)."""
    return math.ceil(MIN_TEXT_PX * width / max(size, 1) * 10) / 10


def legible(base: float, least: float, room: float) -> float:
    """A font size: ``base``, grown towards ``least`` (the legible minimum)
    but never beyond ``room``, the most its place on the board holds."""
    return max(base, min(least, room))


def color_key(colors: Mapping[str, str] | None) -> ColorKey:
    """The full colour table as a hashable value; unknown roles are an error."""
    table = dict(DEFAULT_COLORS)
    if colors:
        unknown = sorted(set(colors) - set(DEFAULT_COLORS))
        if unknown:
            known = ", ".join(sorted(DEFAULT_COLORS))
            raise ArgumentError(
                f"unknown colour role(s) {', '.join(unknown)}; known roles: {known}"
            )
        table.update(colors)
    return tuple(sorted(table.items()))


def num(value: float) -> str:
    """A coordinate with one decimal and no trailing ``.0``: fixed bytes per value."""
    text = f"{value:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def points_attr(points: Sequence[Point]) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in points)


def element(tag: str, cls: str | None = None, **attrs: object) -> ET.Element:
    """An element with ``class`` first, then the attributes in the order given.

    Attribute names use ``_`` for ``-`` (``stroke_width`` → ``stroke-width``);
    floats are formatted with :func:`num`.
    """
    node = ET.Element(tag)
    if cls:
        node.set("class", cls)
    for name, value in attrs.items():
        if value is None:
            continue
        text = num(value) if isinstance(value, float) else str(value)
        node.set(name.replace("_", "-"), text)
    return node


def die_group(cls: str, at: Point, cell: str, face: int, home: int | None) -> ET.Element:
    """The group of one die (or the chess piece standing for it) on
    ``cell``, placed at ``at``, with its face and home face as data."""
    x, y = at
    return element(
        "g",
        cls,
        data_cell=cell,
        data_face=face,
        data_home=home,
        transform=f"translate({num(x)},{num(y)})",
    )


def polygon(points: Sequence[Point], cls: str, **attrs: object) -> ET.Element:
    return element("polygon", cls, points=points_attr(points), **attrs)


def text(
    x: float,
    y: float,
    value: str,
    cls: str,
    *,
    size: float,
    fill: str,
    anchor: str = "middle",
    weight: str | None = None,
) -> ET.Element:
    """Text centred vertically on ``y`` (baseline moved by 0.35 em)."""
    node = element(
        "text",
        cls,
        x=float(x),
        y=float(y + 0.35 * size),
        font_size=float(size),
        text_anchor=anchor,
        fill=fill,
        font_weight=weight,
    )
    node.text = value
    return node


def tostring(node: ET.Element) -> str:
    """Serialize an element tree built here (no namespaces, no comments).

    The same bytes as ``ET.tostring(node, encoding="unicode")`` for these
    trees, several times faster because it skips the namespace pass.
    """
    parts: list[str] = []
    _write(node, parts)
    return "".join(parts)


def _write(node: ET.Element, parts: list[str]) -> None:
    parts.append(start_tag(node.tag, node.attrib.items())[:-1])
    if node.text is None and len(node) == 0:
        parts.append(" />")
    else:
        parts.append(">")
        if node.text:
            parts.append(escape_text(node.text))
        for child in node:
            _write(child, parts)
        parts.append(f"</{node.tag}>")
    if node.tail:
        parts.append(escape_text(node.tail))


#: Characters XML 1.0 cannot hold, not even as ``&#...;`` (control characters
#: but tab and line ends, lone surrogates, U+FFFE and U+FFFF), and those it
#: and HTML advise against: DEL and the C1 controls.
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def xml_chars(value: str) -> str:
    """``value`` with every character of :data:`NOT_XML` replaced by U+FFFD:
    every text from a record that reaches SVG, HTML or JUnit XML goes
    through here."""
    return NOT_XML.sub("\ufffd", value)


#: A tag: group 1 is "/" for an end tag, group 2 ends with "/" when it closes itself.
_TAG = re.compile(r"<(/?)([^<>]*)>")


@lru_cache(maxsize=4096)
def elements(svg: str) -> tuple[str, ...]:
    """``svg`` (elements one after the other) cut into its top-level elements;
    kept, as the same layers (the highlights of a move) recur in many games."""
    out, depth, start = [], 0, 0
    for tag in _TAG.finditer(svg):
        if tag.group(1):
            depth -= 1
        elif not tag.group(2).endswith("/"):
            depth += 1
        if depth == 0:
            out.append(svg[start : tag.end()])
            start = tag.end()
    if start < len(svg):
        out.append(svg[start:])
    return tuple(out)


#: How many characters of a record's text a picture or heading shows.
CLIP_CHARS = 120


def clip(value: str, limit: int = CLIP_CHARS) -> str:
    """``value`` cut to ``limit`` characters, the last one an ellipsis, so that
    a megabyte player name costs no more to draw than a short one."""
    return value if len(value) <= limit else value[: limit - 1] + "\u2026"


def escape_text(value: str) -> str:
    return xml_chars(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def escape_attr(value: str) -> str:
    return (
        xml_chars(value)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("\n", "&#10;")
        .replace("\r", "&#13;")
        .replace("\t", "&#09;")
    )


def start_tag(tag: str, attrs: Iterable[tuple[str, str]]) -> str:
    """``<tag a="..." ...>`` with every value escaped (for the root element,
    whose children are joined from cached strings)."""
    body = "".join(f' {name}="{escape_attr(value)}"' for name, value in attrs)
    return f"<{tag}{body}>"


def style_block(key: ColorKey) -> ET.Element:
    """The ``<style>`` element, scoped to ``.hexhop-board`` so that pictures
    inlined in a page touch nothing else: the font, and the colour table as
    CSS variables (``--hexhop-light`` …) for pages that restyle by class."""
    variables = ";".join(f"--hexhop-{name}:{value}" for name, value in key)
    node = element("style")
    node.text = f".hexhop-board{{font-family:{FONT};{variables}}}"
    return node


def arrow(
    start: Point, end: Point, cls: str, *, color: str, width: float, shorten: float = 0.0
) -> ET.Element:
    """A straight arrow as one ``<g>``: a line and a triangular head."""
    return polyline_arrow([start, end], cls, color=color, width=width, shorten=shorten)


def polyline_arrow(
    points: Sequence[Point], cls: str, *, color: str, width: float, shorten: float = 0.0
) -> ET.Element:
    """An arrow through every point of ``points``, its head on the last one."""
    group = element("g", cls)
    if len(points) < 2 or points[-1] == points[-2]:
        x, y = points[-1]
        group.append(
            element(
                "circle",
                None,
                cx=float(x),
                cy=float(y),
                r=float(width * 2),
                fill="none",
                stroke=color,
                stroke_width=float(width),
            )
        )
        return group
    (x1, y1), (x2, y2) = points[-2], points[-1]
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    tip = (x2 - ux * shorten, y2 - uy * shorten)
    head = width * 2.6
    base = (tip[0] - ux * head * 1.2, tip[1] - uy * head * 1.2)
    shaft = list(points[:-1]) + [base]
    group.append(
        element(
            "polyline",
            None,
            points=points_attr(shaft),
            fill="none",
            stroke=color,
            stroke_width=float(width),
            stroke_linecap="round",
            stroke_linejoin="round",
        )
    )
    left = (base[0] - uy * head, base[1] + ux * head)
    right = (base[0] + uy * head, base[1] - ux * head)
    group.append(polygon([tip, left, right], "head", fill=color))
    return group


def cross(x: float, y: float, half: float, cls: str, *, color: str, width: float) -> ET.Element:
    """An × made of two lines (no font needed)."""
    group = element("g", cls, stroke=color, stroke_width=float(width), stroke_linecap="round")
    group.append(
        element(
            "line",
            None,
            x1=float(x - half),
            y1=float(y - half),
            x2=float(x + half),
            y2=float(y + half),
        )
    )
    group.append(
        element(
            "line",
            None,
            x1=float(x - half),
            y1=float(y + half),
            x2=float(x + half),
            y2=float(y - half),
        )
    )
    return group


def inset(points: Sequence[Point], amount: float) -> list[Point]:
    """A polygon shrunk towards its centroid by ``amount`` (a fraction 0..1)."""
    cx = sum(p[0] for p in points) / len(points)
    cy = sum(p[1] for p in points) / len(points)
    return [(cx + (x - cx) * (1 - amount), cy + (y - cy) * (1 - amount)) for x, y in points]
