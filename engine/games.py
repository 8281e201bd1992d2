"""Find a game's rules by name, through the game registry."""

from __future__ import annotations

from importlib import import_module

from hexhop.notation.games import find_game

from .base import Rules


def rules_for(game: str) -> Rules:
    """The rules object of ``game`` (a name or alias: Hexalit, Trigeo, Hüpfer)."""
    rules = _FOUND.get(game)
    if rules is None:
        module, name = find_game(game).engine.split(":")
        rules = getattr(import_module(f"{__package__}.{module}"), name)
        _FOUND[game] = rules
    return rules


_FOUND: dict[str, Rules] = {}  # looked up by every replay: found once per name
