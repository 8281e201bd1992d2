"""Diagram colours from a file: a JSON object or ``role = colour`` lines."""

from __future__ import annotations

import json
import re

from hexhop.render.svg_parts import DEFAULT_COLORS

from .errors import RecordsError

#: ``#rgb``, ``#rrggbb`` (with alpha too), ``rgb(…)`` or a colour name.
_COLOR = re.compile(
    r"#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})|rgba?\([0-9., %]+\)|[a-zA-Z]+"
)


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


def read_colors(path: str) -> dict[str, str]:
    """The colour roles set by the file at ``path``.

    The file is either a JSON object (``{"dark": "#8b6b4a"}``) or lines of
    ``role = colour`` (``#`` starts a comment). Roles are those of
    :data:`~hexhop.render.svg_parts.DEFAULT_COLORS`.
    """
    try:
        with open(path, encoding="utf-8-sig") as handle:
            text = handle.read(1_000_000)
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise ColorsError(f"{path}: cannot read: {reason}") from None
    if text.lstrip().startswith("{"):
        return _checked(path, _from_json(path, text))
    return _checked(path, _from_lines(path, text))


def _from_json(path: str, text: str) -> list[tuple[int, str, object]]:
    try:
        table = json.loads(text)
    except json.JSONDecodeError as error:
        raise ColorsError(f"{path}:{error.lineno}:{error.colno}: not JSON: {error.msg}") from None
    if not isinstance(table, dict):
        raise ColorsError(f"{path}: expected a JSON object of role: colour")
    return [(0, str(role), value) for role, value in table.items()]


def _from_lines(path: str, text: str) -> list[tuple[int, str, object]]:
    pairs: list[tuple[int, str, object]] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):  # a comment
            continue
        role, equals, value = line.partition("=")
        if not equals:
            raise ColorsError(f"{path}:{number}: expected role = colour, e.g. dark = #8b6b4a")
        pairs.append((number, role.strip(), value.strip().split(" #", 1)[0].strip()))
    return pairs


def _checked(path: str, pairs: list[tuple[int, str, object]]) -> dict[str, str]:
    colors: dict[str, str] = {}
    for number, role, value in pairs:
        where = f"{path}:{number}" if number else path
        if role not in DEFAULT_COLORS:
            known = ", ".join(sorted(DEFAULT_COLORS))
            raise ColorsError(f"{where}: unknown colour role {role!r}; known roles: {known}")
        if not isinstance(value, str) or not _COLOR.fullmatch(value):
            raise ColorsError(f"{where}: {role}: {value!r} is not a colour (e.g. #8b6b4a)")
        colors[role] = value
    return colors
