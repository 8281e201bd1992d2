"""The in-place boards the search works on, one kind per game.

:func:`search_board` makes the board of an immutable position:
:class:`.dice.inplace.DiceBoard` for Hexalit and Trigeo,
:class:`.huepfer.inplace.HopBoard` for Hüpfer. Both offer the same calls
(:class:`SearchBoard`): the legal moves in the rules' order, the search's
choices, push and pop, the Zobrist key, the winner, a shortcut for "a win
at once" and the conversions to and from the notation's actions.
"""

from __future__ import annotations

from typing import Protocol

from hexhop.notation.model import Action

from .base import Position, Rules
from .dice.inplace import DiceBoard
from .dice.rules import DicePosition, DiceRules
from .huepfer.inplace import HopBoard
from .huepfer.position import HuepferPosition


class SearchBoard(Protocol):
    """A position changed in place (the calls the solver uses)."""

    key: int
    ply: int

    @property
    def to_move(self) -> int: ...
    @property
    def winner(self) -> int: ...

    def moves(self) -> list[object]: ...
    def choices(self) -> list[tuple[object, ...]]: ...
    def ordered(self) -> list[object]: ...
    def wins_at_once(self) -> bool: ...
    def push(self, move: object) -> None: ...
    def pop(self) -> None: ...
    def action(self, move: object) -> Action: ...
    def move_of(self, action: Action) -> object: ...
    def position(self) -> Position: ...


def search_board(rules: Rules, position: Position) -> DiceBoard | HopBoard:
    """The in-place board of ``position`` (a position ``rules`` made)."""
    if isinstance(position, DicePosition):
        assert isinstance(rules, DiceRules)
        return DiceBoard(rules, position)
    assert isinstance(position, HuepferPosition)
    return HopBoard(position)
