"""Positions as Unicode diagrams for the terminal.

Reads positions only (``dice`` or ``pieces``/``size``). Sides are told apart
by letter case (North and Red upper case, South and Turquoise lower case)
and, where the terminal allows, by colour.
"""

from __future__ import annotations

from collections.abc import Callable

import click

from hexhop.messages import _, side_name
from hexhop.notation.boards import (
    DICE_COLUMNS,
    DICE_ROW_COLUMNS,
    DICE_ROWS,
    JUMP_FIELDS,
    file_letter,
)
from hexhop.notation.games import lookup_game

# the commands show record text and names through this module
from hexhop.records.text import printable, source_window  # noqa: F401

COLOURS = {"North": "blue", "South": "red", "Red": "red", "Turquoise": "cyan"}
CELL = 4  # characters per column of the dice board


def diagram(position, *, color: bool = False, letters: dict[int, str] | None = None) -> str:
    """The position as text: the hexagon of triangles or the Hüpfer diamond;
    ``letters`` writes a die's face as a letter (a chess piece's)."""
    paint = _painter(color)
    game = lookup_game(getattr(position, "game", ""))
    if game is not None and game.family == "huepfer":
        return huepfer_diagram(position, paint)
    return dice_diagram(
        position, paint, jump_fields=game is not None and game.jump_fields, letters=letters
    )


def _painter(color: bool) -> Callable[[str, str], str]:
    if not color:
        return lambda text, side: text
    return lambda text, side: click.style(text, fg=COLOURS.get(side), bold=True)


def dice_diagram(
    position,
    paint: Callable[[str, str], str],
    *,
    jump_fields: bool = False,
    letters: dict[int, str] | None = None,
) -> str:
    """Rows A–F, columns 1–13 aligned: ``N5`` a North 5, ``s2`` a South 2,
    ``N5'`` a rolled die, ``▲``/``▽`` empty up/down triangles, ``◆`` jump
    fields (with ``jump_fields``: Trigeo); with ``letters`` a face is its
    letter (``NK`` a North King)."""
    header = "   " + "".join(f"{c:^{CELL}}" for c in DICE_COLUMNS)
    lines = [header]
    for r, row in enumerate(DICE_ROWS):
        low, high = DICE_ROW_COLUMNS[row]
        cells = []
        for c in DICE_COLUMNS:
            text = _dice_cell(position, row, r, c, jump_fields, letters) if low <= c <= high else ""
            cells.append(_centre(text, paint, position, f"{row}{c}"))
        lines.append(f" {row} " + "".join(cells) + f" {row}")
    lines.append(header)
    return "\n".join(lines)


def _dice_cell(
    position, row: str, r: int, c: int, jump_fields: bool, letters: dict[int, str] | None = None
) -> str:
    die = position.dice.get(f"{row}{c}")
    if die is None:
        if jump_fields and f"{row}{c}" in JUMP_FIELDS:
            return "◆"
        return "▲" if (r + c) % 2 else "▽"
    letter = "N" if die.side == "North" else "s"
    face = letters.get(die.face, die.face) if letters else die.face
    return f"{letter}{face}" + ("'" if die.home is not None else "")


def _centre(text: str, paint, position, cell: str) -> str:
    padded = f"{text:^{CELL}}"
    die = position.dice.get(cell)
    if die is None or not text:
        return padded
    left = (CELL - len(text)) // 2
    return padded[:left] + paint(text, die.side) + padded[left + len(text) :]


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
            point = f"{file_letter(f)}{r + 1}"
            side = position.pieces.get(point)
            canvas[y][x] = {"Red": "R", "Turquoise": "t"}.get(side, "·")
            if side:
                colours[(y, x)] = side
            if f + 1 < n:
                canvas[y + 1][x + 1] = "╱"
            if r + 1 < n:
                canvas[y + 1][x - 1] = "╲"
        x, y = place(f, -1)
        canvas[y][x] = file_letter(f)
    for r in range(n):
        x, y = place(-1, r)
        label = str(r + 1)
        for i, ch in enumerate(label):  # right-aligned: "10" ends where "9" stands
            canvas[y][x - len(label) + 1 + i] = ch
    rows = []
    for y in range(span - 1, -1, -1):
        text = "".join(
            paint(ch, colours[(y, x)]) if (y, x) in colours else ch
            for x, ch in enumerate(canvas[y])
        )
        if text.strip():
            rows.append(text.rstrip())
    return "\n".join(rows)


def reserves_line(position) -> str:
    reserves = getattr(position, "reserves", None)
    if not reserves:
        return ""
    return _("Reserves: {reserves}").format(
        reserves=", ".join(f"{side_name(side)} {count}" for side, count in reserves.items())
    )
