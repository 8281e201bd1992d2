"""Position text (the Position tag), the rules' listing and plain-text
diagrams of dice positions.

Reads and writes the board bytes of :mod:`dice_board`; the positions
themselves are built by :mod:`dice`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hexhop.notation.findings import words
from hexhop.notation.numbers import ascii_int

from ..base import HeaderError
from .board import CUBE_VALUES, MAX_DICE, SIDE_LETTERS, die_code
from .geometry import CELL_COUNT, CELLS, INDEX, NORTH, ROW_SPAN, ROWS, SIDE_NAMES, SOUTH


def _die_text(i: int, v: int) -> str:
    home = v >> 3 & 7
    return f"{CELLS[i]}={v & 7}" + (f"/{home}" if home else "")


def position_text(board: Sequence[int], side: int, cube: int | None) -> str:
    """The Position text of notation.md: ``N: A7=1 ...; S: ...; turn: N[; cube: 4]``."""
    parts = []
    for s in (NORTH, SOUTH):
        dice = " ".join(_die_text(i, v) for i, v in enumerate(board) if v >> 6 == s)
        parts.append(f"{SIDE_LETTERS[s]}: {dice}".rstrip())
    parts.append(f"turn: {SIDE_LETTERS[side]}")
    if cube is not None:
        parts.append(f"cube: {cube}")
    return "; ".join(parts)


def _listed_die(i: int, v: int) -> str:
    home = v >> 3 & 7
    return f"{CELLS[i]}-{v & 7}" + (f"-{home}" if home else "")


def listing_text(board: Sequence[int], side: int, cube: int | None) -> str:
    """The rules' own listing (cell-face, slash-separated, one line per side,
    North first), then ``turn: N`` and, with a cube, ``cube: 4``: lines that
    :func:`read_position_text` reads back. A side without dice is ``-``;
    a rolled die is ``C5-4-2`` (it turns back to 2)."""
    lines = []
    for s in (NORTH, SOUTH):
        dice = " / ".join(_listed_die(i, v) for i, v in enumerate(board) if v >> 6 == s)
        lines.append(dice or "-")
    lines.append(f"turn: {SIDE_LETTERS[side]}")
    if cube is not None:
        lines.append(f"cube: {cube}")
    return "\n".join(lines)


# --- reading Position text --------------------------------------------------------

# [0-9], not \d, which matches every Unicode digit (see hexhop.notation.numbers)
_DIE_TOKEN = re.compile(r"([A-Za-z])([0-9]{1,2})=([0-9])(?:/([0-9]))?")
_LISTED_DIE = re.compile(r"([A-Za-z])([0-9]{1,2})-([0-9])(?:-([0-9]))?")
_LISTING_LINE = re.compile(r"[A-Za-z][0-9]{1,2}-")
_NO_DICE = ("-", "\u2013", "\u2014")
_SIDE_KEYS = {"n": NORTH, "north": NORTH, "s": SOUTH, "south": SOUTH}


def _bad_position(reason: str) -> HeaderError:
    return HeaderError("HD05", "Position", reason=reason)


def side_value(text: str, what: str) -> int:
    side = _SIDE_KEYS.get(text.strip().lower())
    if side is None:
        raise _bad_position(
            words("{what} must be N or S, not {value!r}", what=what, value=text.strip())
        )
    return side


def _read_die(
    token: str, side: int, rolling: bool, game: str, listed: bool = False
) -> tuple[int, int]:
    match = (_LISTED_DIE if listed else _DIE_TOKEN).fullmatch(token)
    if not match and listed:
        raise _bad_position(
            words(
                "{token!r} is not a die of a listing: write cell-face, e.g. A4-5, "
                "or C5-4-2 for a rolled die",
                token=token,
            )
        )
    if not match:
        raise _bad_position(
            words(
                "{token!r} is not a die: write cell=face, e.g. C5=4, or C5=4/2 for a rolled die",
                token=token,
            )
        )
    cell = match[1].upper() + match[2]
    if cell not in INDEX:
        raise _bad_position(words("{token!r}: {cell} is not on the board", token=token, cell=cell))
    face, home = int(match[3]), int(match[4] or 0)
    if not 1 <= face <= 6:
        raise _bad_position(words("{token!r}: a die shows 1 to 6", token=token))
    if home == face:
        home = 0
    if home and not rolling:
        raise _bad_position(
            words(
                "{token!r}: dice are never rolled in {game}, so no die shows a rolled face",
                token=token,
                game=game,
            )
        )
    if home not in (0, 1, 2):
        raise _bad_position(
            words(
                "{token!r}: a rolled die turns back to 1 or 2, not {home}", token=token, home=home
            )
        )
    return INDEX[cell], die_code(side, face, home)


def _read_dice(
    value: str, side: int, board: bytearray, rolling: bool, game: str, listed: bool = False
) -> None:
    if listed:
        tokens = [] if value.strip() in _NO_DICE else [t.strip() for t in value.split("/")]
        if "" in tokens:
            raise _bad_position(
                words("{line!r}: a listing has one die between two slashes", line=value.strip())
            )
    else:
        tokens = value.replace(",", " ").split()
    if len(tokens) > MAX_DICE:
        raise _bad_position(
            words(
                "{side} has {count} dice; a side has at most {limit}",
                side=SIDE_NAMES[side],
                count=len(tokens),
                limit=MAX_DICE,
            )
        )
    for token in tokens:
        i, code = _read_die(token, side, rolling, game, listed)
        if board[i]:
            raise _bad_position(words("{cell} is given twice", cell=CELLS[i]))
        board[i] = code


def _read_cube(value: str, cube_game: bool, game: str) -> int:
    if not cube_game:
        raise _bad_position(words("there is no doubling cube in {game}", game=game))
    number = ascii_int(value.strip())
    if number is None or number not in CUBE_VALUES:
        raise _bad_position(
            words("cube must be 2, 4, 8, 16, 32 or 64, not {value!r}", value=value.strip())
        )
    return number


def read_position_text(
    text: str, game: str, rolling: bool, cube_game: bool
) -> tuple[bytearray, int | None, int | None]:
    """(board, side to move or None, cube or None) from Position text; HeaderError if bad.

    Parts are separated by ``;`` or line breaks. A part without a colon is a
    line of the rules' listing (``A4-5 / A5-4 / …``): the first such line
    holds North's dice, the second South's (a side already given by ``N:``
    or ``S:`` is skipped)."""
    board = bytearray(CELL_COUNT)
    seen: dict[str, str] = {}
    turn = cube = None
    for part in (p.strip() for p in text.replace("\n", ";").split(";")):
        if not part:
            continue
        key, colon, value = part.partition(":")
        key = key.strip().lower()
        if not colon and (_LISTING_LINE.match(part) or part in _NO_DICE):
            # a listing line: the dice of the first side not yet given
            side = next((s for s in (NORTH, SOUTH) if SIDE_LETTERS[s] not in seen), 0)
            if not side:
                raise _bad_position(
                    words(
                        "a listing has one line per side, North's then South's; "
                        "a third line {part!r}",
                        part=part,
                    )
                )
            seen[SIDE_LETTERS[side]] = part
            _read_dice(part, side, board, rolling, game, listed=True)
            continue
        if key not in ("n", "s", "north", "south", "turn", "cube"):
            raise _bad_position(
                words("expected 'N:', 'S:', 'turn:' or 'cube:', found {part!r}", part=part)
            )
        canonical = SIDE_LETTERS[_SIDE_KEYS[key]] if key in _SIDE_KEYS else key
        if canonical in seen:
            raise _bad_position(words("'{key}:' is given twice", key=canonical))
        seen[canonical] = value
        if key in _SIDE_KEYS:
            _read_dice(value, _SIDE_KEYS[key], board, rolling, game)
        elif key == "turn":
            turn = side_value(value, "turn")
        else:
            cube = _read_cube(value, cube_game, game)
    for letter, side in (("N", NORTH), ("S", SOUTH)):
        if letter not in seen:
            raise _bad_position(
                words(
                    "the {side} dice are missing: expected '{letter}: cell=face ...'",
                    side=SIDE_NAMES[side],
                    letter=letter,
                )
            )
    return board, turn, cube


# --- diagrams -----------------------------------------------------------------------


def _cell_token(v: int) -> str:
    if not v:
        return "."
    letter = "N" if v >> 6 == NORTH else "s"
    home = v >> 3 & 7
    return f"{letter}{v & 7}" + (f"/{home}" if home else "")


def diagram_text(board: Sequence[int], side: int, cube: int | None, winner: int) -> str:
    """Rows A..F, each cell five characters wide at its column: ``N5`` North,
    ``s2`` South, ``N4/2`` a rolled die, ``.`` empty."""
    lines = ["   " + "".join(f"{c:<5}" for c in range(1, 14)).rstrip()]
    for r, (low, high) in enumerate(ROW_SPAN):
        cells = "".join(
            f"{_cell_token(board[INDEX[f'{ROWS[r]}{c}']]):<5}" for c in range(low, high + 1)
        )
        lines.append((f"{ROWS[r]}  " + " " * 5 * (low - 1) + cells).rstrip())
    status = f"{SIDE_NAMES[side]} to move"
    if cube is not None:
        status += f", cube {cube}"
    if winner:
        status += f", {SIDE_NAMES[winner]} has won"
    return "\n".join(lines + [status])


# --- describing dice in messages ----------------------------------------------------
