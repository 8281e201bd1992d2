"""The boards: every fact of a board's shape, written once.

The Hüpfer boards are a registry (:data:`HUEPFER_BOARDS`, size → entry):
the sizes the ``Board`` tag may choose, their names (``8x8``), file letters
and default reserves. The Hexalit/Trigeo board is one shape: its row
letters, the columns of each row and the six jump fields. The engines,
the drawers, the terminal diagrams, the command line and the messages all
read these; a new Hüpfer size is one entry here.

Nothing in this module knows pieces, sides, turns or rules: the engines
build their neighbour and jump tables from these facts. A leaf: it
imports nothing of the package, so every module may use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

# -- Hüpfer ---------------------------------------------------------------------

FILE_LETTERS = "abcdefghijklmnopqrstuvwxyz"  # a board has the first `size` (so 26 at most)


@dataclass(frozen=True)
class HuepferBoard:
    """One Hüpfer board: ``size`` × ``size`` points and each side's
    default reserve (the pieces beside the board without a ``Reserve`` tag)."""

    size: int
    reserve: int

    @property
    def label(self) -> str:
        """The ``Board`` tag value: ``8x8``."""
        return board_label(self.size)


# The boards Hüpfer is played on, by size. Code reads it when it needs it
# (through the functions below), so that an entry added later counts.
HUEPFER_BOARDS: dict[int, HuepferBoard] = {
    6: HuepferBoard(6, reserve=12),
    8: HuepferBoard(8, reserve=24),
    10: HuepferBoard(10, reserve=40),
}
DEFAULT_HUEPFER_SIZE = 6  # the board of a record without a Board tag


def board_label(size: int) -> str:
    """How the ``Board`` tag writes a ``size`` × ``size`` board: ``8x8``."""
    return f"{size}x{size}"


def huepfer_sizes() -> tuple[int, ...]:
    """The Hüpfer board sizes, smallest first: ``(6, 8, 10)``."""
    return tuple(sorted(HUEPFER_BOARDS))


def huepfer_board(size: int) -> HuepferBoard | None:
    """The entry of a ``size`` × ``size`` board, or None when there is none."""
    return HUEPFER_BOARDS.get(size)


def huepfer_board_named(label: str) -> HuepferBoard | None:
    """The entry whose ``Board`` tag value is ``label`` (``8x8``), or None."""
    for entry in HUEPFER_BOARDS.values():
        if entry.label == label:
            return entry
    return None


def huepfer_labels() -> tuple[str, ...]:
    """The ``Board`` tag values, smallest first: ``("6x6", "8x8", "10x10")``."""
    return tuple(HUEPFER_BOARDS[size].label for size in huepfer_sizes())


def file_letter(file: int) -> str:
    """The letter of 0-based file ``file`` (``a`` for 0)."""
    return FILE_LETTERS[file]


# -- Hexalit and Trigeo ---------------------------------------------------------

DICE_ROWS = "ABCDEF"  # row letters, North's home row first
# the first and last column of each row (rules.md §1): 66 triangles in all
DICE_ROW_COLUMNS: Mapping[str, tuple[int, int]] = {
    "A": (3, 11),
    "B": (2, 12),
    "C": (1, 13),
    "D": (1, 13),
    "E": (2, 12),
    "F": (3, 11),
}
DICE_COLUMNS = range(1, 14)  # every column some row has
JUMP_FIELDS: tuple[str, ...] = ("C6", "C7", "C8", "D6", "D7", "D8")  # Trigeo's centre
