"""Positions as Unicode diagrams for the terminal.

Reads positions only (``dice`` or ``pieces``/``size``). Sides are told apart
by letter case (North and Red upper case, South and Turquoise lower case)
and, where the terminal allows, by colour.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Callable

import click

ROWS = "ABCDEF"
ROW_COLUMNS = {"A": (3, 11), "B": (2, 12), "C": (1, 13), "D": (1, 13), "E": (2, 12),
               "F": (3, 11)}
JUMP_FIELDS = {"C6", "C7", "C8", "D6", "D7", "D8"}
COLOURS = {"North": "blue", "South": "red", "Red": "red", "Turquoise": "cyan"}
CELL = 4  # characters per column of the dice board


def diagram(position, *, color: bool = False) -> str:
    """The position as text: the hexagon of triangles or the Hüpfer diamond."""
    paint = _painter(color)
    if getattr(position, "game", "") == "Hüpfer":
        return huepfer_diagram(position, paint)
    return dice_diagram(position, paint)


def _painter(color: bool) -> Callable[[str, str], str]:
    if not color:
        return lambda text, side: text
    return lambda text, side: click.style(text, fg=COLOURS.get(side), bold=True)


def dice_diagram(position, paint: Callable[[str, str], str]) -> str:
    """Rows A–F, columns 1–13 aligned: ``N5`` a North 5, ``s2`` a South 2,
    ``N5'`` a rolled die, ``▲``/``▽`` empty up/down triangles, ``◆`` jump
    fields (Trigeo)."""
    header = "   " + "".join(f"{c:^{CELL}}" for c in range(1, 14))
    lines = [header]
    for r, row in enumerate(ROWS):
        low, high = ROW_COLUMNS[row]
        cells = []
        for c in range(1, 14):
            text = _dice_cell(position, row, r, c) if low <= c <= high else ""
            cells.append(_centre(text, paint, position, f"{row}{c}"))
        lines.append(f" {row} " + "".join(cells) + f" {row}")
    lines.append(header)
    return "\n".join(lines)


def _dice_cell(position, row: str, r: int, c: int) -> str:
    die = position.dice.get(f"{row}{c}")
    if die is None:
        if getattr(position, "game", "") == "Trigeo" and f"{row}{c}" in JUMP_FIELDS:
            return "◆"
        return "▲" if (r + c) % 2 else "▽"
    letter = "N" if die.side == "North" else "s"
    return f"{letter}{die.face}" + ("'" if die.home is not None else "")


def _centre(text: str, paint, position, cell: str) -> str:
    padded = f"{text:^{CELL}}"
    die = position.dice.get(cell)
    if die is None or not text:
        return padded
    left = (CELL - len(text)) // 2
    return padded[:left] + paint(text, die.side) + padded[left + len(text):]


def huepfer_diagram(position, paint: Callable[[str, str], str]) -> str:
    """The grid turned 45°: a1 at the bottom, files up to the right, ranks up
    to the left. ``R`` Red, ``t`` Turquoise, ``·`` an empty point."""
    n = position.size
    span = 4 * (n - 1) + 5  # points, the lines between them, and a label margin
    canvas = [[" "] * (span + 1) for _ in range(span)]
    colours: dict[tuple[int, int], str] = {}

    def place(f: int, r: int) -> tuple[int, int]:
        return 2 * (f - r + n - 1) + 3, 2 * (f + r) + 2

    for f in range(n):
        for r in range(n):
            x, y = place(f, r)
            point = f"{chr(97 + f)}{r + 1}"
            side = position.pieces.get(point)
            canvas[y][x] = {"Red": "R", "Turquoise": "t"}.get(side, "·")
            if side:
                colours[(y, x)] = side
            if f + 1 < n:
                canvas[y + 1][x + 1] = "╱"
            if r + 1 < n:
                canvas[y + 1][x - 1] = "╲"
        x, y = place(f, -1)
        canvas[y][x] = chr(97 + f)
    for r in range(n):
        x, y = place(-1, r)
        label = str(r + 1)
        for i, ch in enumerate(label):  # right-aligned: "10" ends where "9" stands
            canvas[y][x - len(label) + 1 + i] = ch
    rows = []
    for y in range(span - 1, -1, -1):
        text = "".join(paint(ch, colours[(y, x)]) if (y, x) in colours else ch
                       for x, ch in enumerate(canvas[y]))
        if text.strip():
            rows.append(text.rstrip())
    return "\n".join(rows)


def reserves_line(position) -> str:
    reserves = getattr(position, "reserves", None)
    if not reserves:
        return ""
    return "Reserves: " + ", ".join(f"{side} {count}" for side, count in reserves.items())


# -- record text and names on a terminal -------------------------------------

#: What must not reach a terminal raw: control characters (escape sequences
#: start with ESC or CSI), line and paragraph separators, the bidirectional
#: overrides that can make text read differently from what it is, and lone
#: surrogates (bytes of file names that are not UTF-8).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
                     "\ud800-\udfff]")


def printable(text: str) -> str:
    """``text`` with every character a terminal could act on written as an
    escape (``\\x1b``, ``\\u202e``); a byte of a name that is not UTF-8
    (kept by Python as a surrogate) is written as ``\\xff``."""
    return _UNSAFE.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape: the undecodable byte
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _cell(char: str) -> tuple[str, int]:
    """How one character of a source line is shown, and how many columns it takes."""
    if char == "\t":
        return " ", 1  # one column, so that the caret stays under its character
    if _UNSAFE.match(char):
        shown = printable(char)
        return shown, len(shown)
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return char, 0
    return char, 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def source_window(line: str, column: int, length: int, width: int = 100
                  ) -> tuple[str, int, int]:
    """At most about ``width`` columns of ``line`` around the characters
    ``column`` (1-based) to ``column + length - 1``, as a compiler shows
    them: ``…`` where the line is cut, wide characters taking two columns,
    control characters escaped.

    Returns (the text, the columns before the marked characters, the
    columns they take), so a caret line can be put under them. Only the
    window is looked at, whatever the length of the line.
    """
    start = min(max(column - 1, 0), len(line))
    end = min(start + max(length, 1), len(line))
    marked = []
    marked_width = 0
    for char in line[start:end]:
        shown, cells = _cell(char)
        if marked and marked_width + cells > width // 2:
            break  # a very long mark is cut too
        marked.append(shown)
        marked_width += cells
    end = start + len(marked)
    room = width - marked_width
    right, right_width = _take(line, end, 1, room)
    left, left_width = _take(line, start - 1, -1, max(room - right_width, room * 2 // 5))
    if left_width + right_width > room:  # both sides cut: give the rest back to the right
        right, right_width = _take(line, end, 1, room - left_width)
    cut_left = start - len(left) > 0
    cut_right = end + len(right) < len(line)
    head = "…" * cut_left + "".join(reversed(left))
    text = head + "".join(marked) + "".join(right) + "…" * cut_right
    return text, left_width + cut_left, max(marked_width, 1)


def _take(line: str, index: int, step: int, room: int) -> tuple[list[str], int]:
    """Characters from ``index`` on (towards ``step``) while they fit in ``room`` columns."""
    taken: list[str] = []
    used = 0
    while 0 <= index < len(line) and len(taken) < 4 * room + 8:
        shown, cells = _cell(line[index])
        if used + cells > room:
            break
        taken.append(shown)
        used += cells
        index += step
    return taken, used
