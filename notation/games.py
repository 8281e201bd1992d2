"""The game registry: one entry per game, found by name, alias or file extension.

Everything that tells the games apart by name lives here; the rest of the
package asks :func:`find_game` and reads the entry (the family picks the
drawer and the terminal diagram, ``engine`` the rules module). A new game
is one entry here plus its rules module in ``engine`` (and a grammar file
and drawer when it starts a new family).

The boards' shapes and sizes are in :mod:`.boards`. It imports nothing of
the package but that leaf, so every module may use it.
"""

from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass
from typing import Literal

from .boards import huepfer_sizes
from .errors import Error

Family = Literal["dice", "huepfer"]


@dataclass(frozen=True)
class GameSpec:
    """What the package knows of a game apart from its rules."""

    name: str  # canonical name, the Game tag as written
    aliases: tuple[str, ...]  # other spellings, case-folded
    extension: str  # record file extension, lower case with the dot
    grammar: str  # movetext grammar file in hexhop.notation
    sides: tuple[str, str]  # in move order; the first is the one 1-0 favours
    family: Family  # the drawer, the terminal diagram and the action kind
    engine: str  # "module:OBJECT" of the rules in hexhop.engine
    upper_cells: bool  # cells are written upper case (A7), points lower (a1)
    jump_fields: bool = False  # the board shows the six central jump fields

    @property
    def board_sizes(self) -> tuple[int, ...]:
        """The sizes the Board tag may choose, smallest (the default) first;
        () for a game on one fixed board. Read from :mod:`.boards` at each
        call, so that a size added there counts."""
        return huepfer_sizes() if self.family == "huepfer" else ()

    def cell(self, name: str) -> str:
        """``name`` in the case this game writes its cells or points."""
        return name.upper() if self.upper_cells else name.lower()


HEXALIT = GameSpec(
    "Hexalit",
    (),
    ".hxl",
    "hexalit.lark",
    ("North", "South"),
    "dice",
    "dice.hexalit:HEXALIT",
    upper_cells=True,
)
TRIGEO = GameSpec(
    "Trigeo",
    (),
    ".trg",
    "trigeo.lark",
    ("North", "South"),
    "dice",
    "dice.trigeo:TRIGEO",
    upper_cells=True,
    jump_fields=True,
)
HUEPFER = GameSpec(
    "Hüpfer",
    ("huepfer", "hupfer"),
    ".hpf",
    "huepfer.lark",
    ("Red", "Turquoise"),
    "huepfer",
    "huepfer.rules:HUEPFER",
    upper_cells=False,
)

GAMES: tuple[GameSpec, ...] = (HEXALIT, TRIGEO, HUEPFER)
GAME_NAMES: tuple[str, ...] = tuple(g.name for g in GAMES)

_BY_NAME = {key: g for g in GAMES for key in (g.name.casefold(), *g.aliases)}
_BY_EXTENSION = {g.extension: g for g in GAMES}


def lookup_game(value: object) -> GameSpec | None:
    """The game of a name or alias in any case (``Huepfer`` is Hüpfer), or None."""
    if not isinstance(value, str):
        return None
    return _BY_NAME.get(unicodedata.normalize("NFC", value.strip()).casefold())


class UnknownGame(Error, ValueError):
    """A game name that is none of the games' names or aliases."""


def find_game(value: str) -> GameSpec:
    """The game of a name or alias; :class:`UnknownGame` (a ValueError) for
    an unknown game."""
    game = lookup_game(value)
    if game is None:
        raise UnknownGame(f"unknown game {value!r}: expected {game_list()}")
    return game


def game_for_path(path: object) -> GameSpec | None:
    """The game a file's extension suggests (``.hxl``, ``.trg``, ``.hpf``), or None."""
    if not isinstance(path, (str, os.PathLike)):
        return None
    return _BY_EXTENSION.get(os.path.splitext(os.fspath(path))[1].lower())


def record_extensions() -> tuple[str, ...]:
    """The file extensions of records, in registry order."""
    return tuple(g.extension for g in GAMES)


def game_list(last: str = "or") -> str:
    """The game names for a message: ``Hexalit, Trigeo or Hüpfer``."""
    return f"{', '.join(GAME_NAMES[:-1])} {last} {GAME_NAMES[-1]}"
