"""Diagram colours from a file: a JSON object or ``role = colour`` lines
(and ``pieces = chess``: Trigeo's dice drawn as chess pieces)."""

from __future__ import annotations

import json
import re
from typing import TypeGuard

from hexhop.messages import _
from hexhop.render.chess_pieces import PIECES
from hexhop.render.svg_parts import DEFAULT_COLORS

from .errors import RecordsError
from .small_files import read_small_text

#: The largest colours file read (one that sets every role is about 500 bytes).
MAX_COLORS_BYTES = 1024 * 1024

#: ``#rgb``, ``#rrggbb`` (with alpha too: ``#rgba``, ``#rrggbbaa``); names
#: are in :data:`COLOR_NAMES`, ``rgb(…)`` and ``rgba(…)`` in :func:`_is_rgb`.
#: ASCII digits only, here and below (``[0-9]``, never ``\d``).
_HEX = re.compile(r"#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")
#: ``rgb(`` or ``rgba(``, what is between the parentheses, ``)``.
_RGB = re.compile(r"(rgba?)\(([^()]*)\)", re.IGNORECASE)
#: One channel of ``rgb()``: an integer 0–255, or a percentage 0–100 (a
#: decimal fraction allowed); the three are of one kind, as CSS has them.
_NUMBER = re.compile(r"[0-9]{1,3}")
_PERCENT = re.compile(r"([0-9]{1,3}(?:\.[0-9]{1,6})?)%")
#: The alpha of ``rgba()``: a number from 0 to 1 (``0.5``, ``.5``, ``1``).
_ALPHA = re.compile(r"[0-9](?:\.[0-9]{1,6})?|\.[0-9]{1,6}")

#: The 147 colour names of SVG and CSS (any case), and ``none`` and
#: ``transparent``: the names every renderer (browsers, cairosvg) paints as
#: named; any other word was painted black.
_NAMES = """
    aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue
    blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue
    cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey
    darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon
    darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet
    deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen
    fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew
    hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon
    lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey
    lightpink lightsalmon lightseagreen lightskyblue lightslategray lightslategrey
    lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine
    mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue
    mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream mistyrose
    moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid
    palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink
    plum powderblue purple red rosybrown royalblue saddlebrown salmon sandybrown
    seagreen seashell sienna silver skyblue slateblue slategray slategrey snow
    springgreen steelblue tan teal thistle tomato turquoise violet wheat white
    whitesmoke yellow yellowgreen
    none transparent
"""
COLOR_NAMES = frozenset(_NAMES.split())


#: Named sets of colours for ``--theme``; ``print`` is for black-and-white print.
THEMES: dict[str, dict[str, str]] = {
    "classic": {},
    "print": {
        "light": "#ffffff",
        "dark": "#d9d9d9",
        "border": "#000000",
        "grid": "#4d4d4d",
        "coord": "#000000",
        "title": "#000000",
        "red": "#3c3c3c",
        "red-edge": "#000000",
        "turquoise": "#000000",
        "point": "#000000",
        "line": "#4d4d4d",
        "jump": "#7a7a7a",
        "last-from": "#ededed",
        "last-to": "#bdbdbd",
        "last-edge": "#000000",
        "highlight": "#a6a6a6",
        "captured": "#000000",
        "threat": "#000000",
        "rolled": "#000000",
        "arrow": "#000000",
        "path": "#000000",
        "birth": "#000000",
    },
}


class ColorsError(RecordsError):
    """A colours file that cannot be read or holds something unknown."""

    exit_code = 2


#: How messages name a JSON object given inline to ``--colors``.
INLINE = "--colors"
#: The entry of a colours file that is no colour: how dice are drawn
#: (``pieces = chess``: Trigeo's dice as chess pieces), one of :data:`PIECES`.
PIECES_ENTRY = "pieces"


def split_pieces(table: dict[str, str]) -> tuple[dict[str, str], str | None]:
    """The colour roles of ``table`` (from :func:`read_colors`) and its
    :data:`PIECES_ENTRY` (None when it has none)."""
    colors = dict(table)
    return colors, colors.pop(PIECES_ENTRY, None)


def read_colors(path: str) -> dict[str, str]:
    """The colour roles set by ``path``: a JSON object given inline (text
    that starts with ``{``) or the file of that name.

    The file is either a JSON object (``{"dark": "#8b6b4a"}``) or lines of
    ``role = colour`` (``#`` starts a comment). Roles are those of
    :data:`~hexhop.render.svg_parts.DEFAULT_COLORS`; colours are checked
    by :func:`is_color`. The entry ``pieces`` (``dice`` or ``chess``) is
    kept as it is: :func:`split_pieces` takes it out of the roles.
    """
    if path.lstrip().startswith("{"):
        return _checked(INLINE, _from_json(INLINE, path))
    text = _text(path)
    if text.lstrip().startswith("{"):
        return _checked(path, _from_json(path, text))
    return _checked(path, _from_lines(path, text))


def _text(path: str) -> str:
    """The text of the colours file ``path``, read as a record file is, at
    most :data:`MAX_COLORS_BYTES`."""
    text, why = read_small_text(path, MAX_COLORS_BYTES)
    if text is None:
        raise ColorsError(_("{path}: cannot read: {reason}").format(path=path, reason=why))
    return text


def _from_json(path: str, text: str) -> list[tuple[int, str, object]]:
    try:
        table = json.loads(text)
    except json.JSONDecodeError as error:
        raise ColorsError(
            _("{path}:{line}:{column}: not JSON: {reason}").format(
                path=path, line=error.lineno, column=error.colno, reason=error.msg
            )
        ) from None
    except RecursionError:  # arrays in arrays, deeper than Python's stack
        raise ColorsError(_("{path}: not JSON: nested too deeply").format(path=path)) from None
    if not isinstance(table, dict):
        raise ColorsError(_("{path}: expected a JSON object of role: colour").format(path=path))
    return [(0, str(role), value) for role, value in table.items()]


def _from_lines(path: str, text: str) -> list[tuple[int, str, object]]:
    pairs: list[tuple[int, str, object]] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):  # a comment
            continue
        role, equals, value = line.partition("=")
        if not equals:
            raise ColorsError(
                _("{where}: expected role = colour, e.g. dark = #8b6b4a").format(
                    where=f"{path}:{number}"
                )
            )
        pairs.append((number, role.strip(), value.strip().split(" #", 1)[0].strip()))
    return pairs


def is_color(value: object) -> TypeGuard[str]:
    """Whether ``value`` is a colour every renderer paints as meant (the
    one parser of colours): a :data:`COLOR_NAMES` name, ``#rgb``/``#rrggbb``
    (alpha too), ``rgb(R, G, B)`` of integers 0–255 or of percentages
    0–100%, or ``rgba(R, G, B, A)`` with an alpha from 0 to 1. Anything
    else is refused here rather than painted black, or failing in the PNG
    writer (``rgb(%,%,%)``, ``rgb(1,1,1,...,)``, ``rgba(1,2,3)``)."""
    if not isinstance(value, str):
        return False
    if value.lower() in COLOR_NAMES or _HEX.fullmatch(value) is not None:
        return True
    found = _RGB.fullmatch(value)
    return found is not None and _is_rgb(found.group(1).lower(), found.group(2))


def _is_rgb(function: str, inside: str) -> bool:
    """Whether ``inside`` is what ``rgb(…)`` (three channels) or ``rgba(…)``
    (and an alpha) hold, blanks around each part allowed."""
    parts = [part.strip(" \t") for part in inside.split(",")]
    if len(parts) != (4 if function == "rgba" else 3):
        return False
    channels = parts[:3]
    if all(_NUMBER.fullmatch(c) for c in channels):
        fine = all(int(c) <= 255 for c in channels)
    else:
        percents = [_PERCENT.fullmatch(c) for c in channels]
        fine = all(p is not None and float(p.group(1)) <= 100 for p in percents)
    if function == "rgb" or not fine:
        return fine
    alpha = parts[3]
    return _ALPHA.fullmatch(alpha) is not None and float(alpha) <= 1


def _checked(path: str, pairs: list[tuple[int, str, object]]) -> dict[str, str]:
    colors: dict[str, str] = {}
    for number, role, value in pairs:
        where = f"{path}:{number}" if number else path
        if role == PIECES_ENTRY:
            if value not in PIECES:
                raise ColorsError(
                    _("{where}: pieces: {value} is neither dice nor chess").format(
                        where=where, value=repr(value)
                    )
                )
            colors[role] = value
            continue
        if role not in DEFAULT_COLORS:
            known = ", ".join(sorted([*DEFAULT_COLORS, PIECES_ENTRY]))
            raise ColorsError(
                _("{where}: unknown colour role {role}; known roles: {known}").format(
                    where=where, role=repr(role), known=known
                )
            )
        if not is_color(value):
            raise ColorsError(
                _(
                    "{where}: {role}: {value} is not a colour (a CSS colour name such as "
                    "saddlebrown, #rgb or #rrggbb)"
                ).format(where=where, role=role, value=repr(value))
            )
        colors[role] = value
    return colors
