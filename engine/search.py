"""The in-place boards the search works on, one kind per game.

:func:`search_board` makes the board of an immutable position:
:class:`.dice.inplace.DiceBoard` for Hexalit and Trigeo,
:class:`.huepfer.inplace.HopBoard` for Hüpfer. Both offer the same calls
(:class:`SearchBoard`): the legal moves in the rules' order, the search's
choices, push and pop, the Zobrist key, the winner, the shortcut to "a win
at once" and the conversions to and from the notation's actions.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

from hexhop.notation.model import Action

from .base import Position, Rules
from .dice.inplace import DiceBoard
from .dice.rules import DicePosition, DiceRules
from .huepfer.inplace import HopBoard
from .huepfer.position import HuepferPosition


class SearchBoard(Protocol):
    """A position changed in place (the calls the solver uses). A move is
    the board's own small tuple; ``win_candidates`` gives the choices that
    may win at once (None: a win is sure), ``wins_by`` checks one of them."""

    key: int
    ply: int

    @property
    def mover(self) -> int: ...
    @property
    def winner(self) -> int: ...

    def moves(self) -> list[Any]: ...
    def choices(self) -> list[tuple[Any, ...]]: ...
    def ordered(self) -> list[Any]: ...
    def replies(self) -> Iterator[Any]: ...
    def win_candidates(self) -> list[tuple[Any, ...]] | None: ...
    def wins_by(self, move: Any) -> bool: ...
    def push(self, move: Any) -> None: ...
    def pop(self) -> None: ...
    def action(self, move: Any) -> Action: ...
    def move_of(self, action: Any) -> Any: ...
    def position(self) -> Position: ...


def search_board(rules: Rules, position: Position) -> DiceBoard | HopBoard:
    """The in-place board of ``position`` (a position ``rules`` made)."""
    if isinstance(position, DicePosition):
        assert isinstance(rules, DiceRules)
        return DiceBoard(rules, position)
    assert isinstance(position, HuepferPosition)
    return HopBoard(position)


def _conforms(board: DiceBoard | HopBoard) -> SearchBoard:
    """(For the type checker: both boards offer every call of SearchBoard.)"""
    return board
