"""Game names as people write them: a Game tag value or a file extension.

A leaf over :mod:`games`, the registry that holds the names.
"""

from __future__ import annotations

from .games import game_for_path, lookup_game


def game_from_name(value: str) -> str | None:
    """``Hexalit``, ``Trigeo`` or ``Hüpfer`` for a Game tag value, any case.

    ``Huepfer`` and ``Hupfer`` are read as Hüpfer; anything else is None.
    """
    game = lookup_game(value)
    return game.name if game else None


def game_from_path(path: str) -> str | None:
    """The game a file extension suggests (``.hxl``, ``.trg``, ``.hpf``), or None."""
    game = game_for_path(path)
    return game.name if game else None
