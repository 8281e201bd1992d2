"""Hexalit: the dice game with rolling and the doubling cube (rules.md §1–3, §5)."""

from __future__ import annotations

from .rules import DiceRules


class Hexalit(DiceRules):
    """Everything is in :class:`DiceRules`; Hexalit is its default."""

    name = "Hexalit"
    rolling = True
    doubling = True
    jump_fields = False
    promotion = False


HEXALIT = Hexalit()
