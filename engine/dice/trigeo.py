"""Trigeo: Hexalit without rolling or cube, with jump fields and promotion (rules.md §4)."""

from __future__ import annotations

from .rules import DiceRules


class Trigeo(DiceRules):
    """No die is ever rolled; C6 C7 C8 D6 D7 D8 are jump fields; a 2 may become a 6
    in the move that reaches its last row."""

    name = "Trigeo"
    rolling = False
    doubling = False
    jump_fields = True
    promotion = True


TRIGEO = Trigeo()
