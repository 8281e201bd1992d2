"""What tells Hexalit and Trigeo apart, as the board reads it.

:class:`~.rules.DiceRules` (and its two games) carries these four class
constants; the board and the explainer read them through this protocol,
so that neither needs the rules object's module.
"""

from __future__ import annotations

from typing import Protocol


class Variant(Protocol):
    """One dice game: its name and the four rules that differ."""

    name: str
    rolling: bool  # dice showing 2 (and spare 1s) may be rolled
    doubling: bool  # the doubling cube is used
    jump_fields: bool  # Trigeo's six central cells
    promotion: bool  # a 2 reaching its last row may become a 6
