"""Hüpfer positions: the immutable value, its Position text and diagrams.

Reads and writes the ``Position`` tag text of notation.md
(``R: a1 b1 c3; T: e5 f6; reserve: 10/12; turn: R``) and the ``Board``
and ``Reserve`` tags. A position is a snapshot of :class:`.inplace.HopBoard`,
which knows the rules: whether the side to move is stuck (and has lost) is
the board's answer, asked only when someone wants ``winner``, as most
positions are left by a legal turn that shows it is not.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Final

from hexhop.notation.boards import (
    DEFAULT_HUEPFER_SIZE,
    file_letter,
    huepfer_board,
    huepfer_board_named,
)
from hexhop.notation.errors import ArgumentError
from hexhop.notation.findings import words
from hexhop.notation.model import HopAction
from hexhop.notation.numbers import ascii_int

from ..base import HeaderError
from .board import Board, board

GAME: Final = "Hüpfer"  # the game's name, as the Game tag spells it
SIDES: Final = ("Red", "Turquoise")
LETTERS: Final = ("R", "T")
_SIDE_WORDS: Final = {"r": 0, "red": 0, "rot": 0, "t": 1, "turquoise": 1, "türkis": 1}
_UNKNOWN: Final = object()
_TABLES: Final[dict[int, str]] = {}  # Zobrist table names by board size


class HuepferPosition:
    """A Hüpfer position; immutable from the outside.

    ``pieces`` maps point names to ``"Red"``/``"Turquoise"``; ``reserves``
    maps each side to the pieces left beside the board. Equality compares
    the board, pieces, reserves, side to move and winner, not ``ply`` or
    ``end_ply``. ``cells`` holds the pieces by point index (0 empty, 1 Red,
    2 Turquoise) for code that wants speed.

    ``winner`` may be left to be found out (:func:`unresolved`): the rules
    settle it when they see a legal turn, else the first reader asks the
    board's verdict.
    """

    __slots__ = (
        "_board",
        "_cells",
        "_reserve",
        "_turn",
        "_winner",
        "_ply",
        "_end_ply",
        "_pieces",
        "_memo",
        "_zkey",
        "_bitboards",
        "_judge",
    )
    game = GAME

    def __init__(
        self,
        tables: Board,
        cells: bytes,
        reserve: tuple[int, int],
        turn: int,
        winner: str | None = None,
        ply: int = 0,
        end_ply: int | None = None,
    ):
        self._board = tables
        self._cells = cells
        self._reserve = reserve
        self._turn = turn
        self._winner: object = winner
        self._ply = ply
        self._end_ply = end_ply
        self._pieces: Mapping[str, str] | None = None
        # the last turn checked legal and the position after it (see
        # HuepferRules.check), for the apply that usually follows
        self._memo: tuple[HopAction, HuepferPosition] | None = None
        self._zkey: int | None = None  # the Zobrist key, when a board gave it
        # Red's and Turquoise's bit boards, when a board gave them (see inplace)
        self._bitboards: tuple[int, int] | None = None
        self._judge: Judge | None = None  # who settles ``winner`` (see unresolved)

    # -- public attributes ------------------------------------------------

    @property
    def board(self) -> Board:
        return self._board

    @property
    def size(self) -> int:
        return self._board.size

    @property
    def cells(self) -> bytes:
        return self._cells

    @property
    def pieces(self) -> Mapping[str, str]:
        if self._pieces is None:
            names = self._board.names
            self._pieces = MappingProxyType(
                {names[p]: SIDES[c - 1] for p, c in enumerate(self._cells) if c}
            )
        return self._pieces

    @property
    def reserves(self) -> Mapping[str, int]:
        return MappingProxyType(dict(zip(SIDES, self._reserve, strict=True)))

    @property
    def reserve(self) -> tuple[int, int]:
        """Red's and Turquoise's reserve."""
        return self._reserve

    @property
    def turn(self) -> int:
        """0 when Red is to move, 1 for Turquoise."""
        return self._turn

    @property
    def to_move(self) -> str:
        return SIDES[self._turn]

    @property
    def winner(self) -> str | None:
        if self._winner is _UNKNOWN:
            self._resolve()
        return self._winner  # type: ignore[return-value]  # resolved now

    @property
    def ply(self) -> int:
        return self._ply

    @property
    def end_ply(self) -> int | None:
        if self._winner is _UNKNOWN:
            self._resolve()
        return self._end_ply

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # pickled and copied settled: the markers of what is not known yet
        # are objects of this process
        args = (self._board, self._cells, self._reserve, self._turn, self.winner)
        return HuepferPosition, (*args, self._ply, self.end_ply)

    def _resolve(self) -> None:
        """Settle ``winner`` by the board's verdict (§6.4, §8.10), asked of
        the judge the position was made with."""
        judge = self._judge
        assert judge is not None  # an unresolved position is made with one
        self._judge = None
        won = judge(self)
        if won:
            self._winner, self._end_ply = SIDES[won - 1], self._ply
        else:
            self._winner = None

    # -- values -------------------------------------------------------------

    def zobrist_parts(self) -> tuple[str, bytes, tuple[int, ...]]:
        """The board size, pieces, reserves and side to move, for
        :mod:`..zobrist` (``winner`` follows from them)."""
        red, turquoise = self._reserve
        table = _TABLES.get(self._board.size)
        if table is None:
            table = _TABLES[self._board.size] = f"Hüpfer {self._board.label}"
        return table, self._cells, (self._turn, red, turquoise)

    def _key(self) -> tuple[object, ...]:
        return (self._board.size, self._cells, self._reserve, self._turn, self.winner)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HuepferPosition):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"HuepferPosition({self.text()!r}, size={self.size})"

    def _repr_svg_(self) -> str:
        """Jupyter and IPython show a position as its diagram."""
        from hexhop.render.svg import board_svg

        return board_svg(self)

    def text(self) -> str:
        """The Position tag text; reading it back gives an equal position."""
        names = self._board.names
        parts = []
        for code, letter in ((1, "R"), (2, "T")):
            points = " ".join(names[p] for p, c in enumerate(self._cells) if c == code)
            parts.append(f"{letter}: {points}" if points else f"{letter}:")
        red, turquoise = self._reserve
        parts.append(f"reserve: {red}/{turquoise}")
        parts.append(f"turn: {LETTERS[self._turn]}")
        return "; ".join(parts)


#: what settles a position's end: 0 (none), 1 (Red won) or 2 (Turquoise
#: won); the in-place board's verdict (``inplace.verdict``)
Judge = Callable[[HuepferPosition], int]


def unresolved(
    tables: Board, cells: bytes, reserve: tuple[int, int], turn: int, ply: int, judge: Judge
) -> HuepferPosition:
    """A position whose ``winner`` is found out when needed, by ``judge``."""
    position = HuepferPosition(tables, cells, reserve, turn, ply=ply)
    position._winner = _UNKNOWN
    position._judge = judge
    return position


def known_winner(position: HuepferPosition) -> int | None:
    """What ``position`` knows of its end without asking a board: 0 (none),
    1 (Red won), 2 (Turquoise won), or None (not found out yet)."""
    winner = position._winner
    if winner is _UNKNOWN:
        return None
    return 0 if winner is None else (1 if winner == SIDES[0] else 2)


def not_stuck(position: HuepferPosition) -> None:
    """Note that the side to move has a turn (a board found one legal)."""
    if position._winner is _UNKNOWN:
        position._winner = None
        position._judge = None


# -- tags ---------------------------------------------------------------------


def tag(tags: Mapping[str, str], name: str) -> str | None:
    """The value of tag ``name`` in ``tags``, whatever the case of its name."""
    if name in tags:
        return tags[name]
    lower = name.lower()
    for key, value in tags.items():
        if key.lower() == lower:
            return value
    return None


def board_size(tags: Mapping[str, str]) -> int:
    """The board size of the ``Board`` tag (6 without it); HD03 otherwise."""
    value = tag(tags, "Board")
    if value is None:
        return DEFAULT_HUEPFER_SIZE
    entry = huepfer_board_named(value)
    if entry is None:
        raise HeaderError("HD03", "Board", value=value)
    return entry.size


def parse_reserve(value: str) -> tuple[int, int]:
    """``12`` or ``12/10`` (Red/Turquoise); ValueError with a reason otherwise."""
    parts = value.split("/")
    numbers = [number for number in map(ascii_int, parts) if number is not None]
    if len(parts) > 2 or len(numbers) < len(parts):
        raise ArgumentError(
            words(
                "expected a number of pieces such as 12, "
                "or one for each side such as 12/10 (Red/Turquoise)"
            )
        )
    return numbers[0], numbers[-1]


def tag_reserve(tags: Mapping[str, str], size: int) -> tuple[int, int]:
    """The reserves of the ``Reserve`` tag, or the default for ``size``; HD04."""
    value = tag(tags, "Reserve")
    if value is None:
        entry = huepfer_board(size)
        if entry is None:
            raise ArgumentError(f"no Hüpfer board of size {size}")
        return entry.reserve, entry.reserve
    try:
        return parse_reserve(value)
    except ValueError as error:
        raise HeaderError("HD04", "Reserve", value=value, reason=str(error)) from None


def start_cells(tables: Board) -> bytes:
    """The standard start: 2 x 2 blocks in the a1 and opposite corners."""
    size = tables.size
    cells = bytearray(size * size)
    for file in (0, 1):
        for rank in (0, 1):
            cells[file * size + rank] = 1
            cells[(size - 1 - file) * size + (size - 1 - rank)] = 2
    return bytes(cells)


# -- Position text --------------------------------------------------------------


def _bad(reason: str) -> HeaderError:
    return HeaderError("HD05", "Position", reason=reason)


def parse_text(text: str, size: int, reserve: tuple[int, int]) -> HuepferPosition:
    """A position from Position text on a ``size`` board (HeaderError HD05).

    ``reserve`` is used when the text has no ``reserve:`` part; a missing
    ``turn:`` part means Red. Both ``R:`` and ``T:`` must be present (either
    may list no point). ``winner`` is left None.
    """
    tables = board(size)
    cells = bytearray(size * size)
    seen: set[str] = set()
    turn = 0
    for part in text.split(";"):
        if not part.strip():
            continue
        key, colon, value = part.partition(":")
        key = key.strip().lower()
        if not colon:
            raise _bad(
                words(
                    "'{part}' has no ':'; expected parts like "
                    "'R: a1 b1', 'T: e5', 'reserve: 12/12' and 'turn: R'",
                    part=part.strip(),
                )
            )
        if key in seen or (key in _SIDE_WORDS and LETTERS[_SIDE_WORDS[key]] in seen):
            raise _bad(words("the part '{key}:' is given twice", key=key))
        if key in _SIDE_WORDS:
            side = _SIDE_WORDS[key]
            seen.add(LETTERS[side])
            _place(tables, cells, value, side + 1)
        elif key == "reserve":
            seen.add(key)
            try:
                reserve = parse_reserve(value.strip())
            except ValueError as error:
                raise _bad(f"reserve: {error}") from None
        elif key == "turn":
            seen.add(key)
            word = value.strip().lower()
            if word not in _SIDE_WORDS:
                raise _bad(words("turn must be R or T, not '{value}'", value=value.strip()))
            turn = _SIDE_WORDS[word]
        else:
            raise _bad(words("unknown part '{key}:'; expected R:, T:, reserve: and turn:", key=key))
    missing = [letter for letter in LETTERS if letter not in seen]
    if missing:
        raise _bad(
            words(
                "the part '{key}:' is missing (write '{key}:' "
                "alone for a side with no piece on the board)",
                key=missing[0],
            )
        )
    return HuepferPosition(tables, bytes(cells), reserve, turn)


def _place(tables: Board, cells: bytearray, value: str, code: int) -> None:
    for name in value.replace(",", " ").split():
        point = tables.point(name)
        if point is None:
            if tables.is_point_name(name):
                raise _bad(
                    words(
                        "{name} is not a point of the {board} board", name=name, board=tables.label
                    )
                )
            raise _bad(
                words("'{name}' is not a point; points are written like a1 or f6", name=name)
            )
        if cells[point]:
            raise _bad(words("{name} is listed twice", name=tables.names[point]))
        cells[point] = code


# -- pictures -------------------------------------------------------------------

_SYMBOL: Final = ".RT"


def _caption(position: HuepferPosition) -> str:
    red, turquoise = position.reserve
    line = (
        f"Hüpfer {position.board.label}, {position.to_move} to move, "
        f"reserve R {red} / T {turquoise}"
    )
    if position.winner is not None:
        line += f"; {position.winner} won at ply {position.end_ply}"
    return line


def diamond(position: HuepferPosition) -> str:
    """The board as a diamond: a1 at the bottom, files rising to the right,
    ranks rising to the left; rank numbers and file letters on the two
    lower edges."""
    size = position.size
    cells = position.cells
    width = 4 + (2 * size - 1) * 2 + 3
    lines = [_caption(position)]
    for y in range(2 * size - 2, -1, -1):
        row = [" "] * width
        for file in range(max(0, y - size + 1), min(size - 1, y) + 1):
            rank = y - file
            column = 4 + (file - rank + size - 1) * 2
            row[column] = _SYMBOL[cells[file * size + rank]]
            if file == 0:
                label = str(rank + 1)
                row[column - 1 - len(label) : column - 1] = list(label)
            if rank == 0:
                row[column + 2] = file_letter(file)
        lines.append("".join(row).rstrip())
    return "\n".join(lines)
