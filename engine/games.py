"""Find a game's rules by name."""

from __future__ import annotations

from importlib import import_module

from .base import Rules

_MODULES = {"Hexalit": ("hexalit", "HEXALIT"), "Trigeo": ("trigeo", "TRIGEO"),
            "Hüpfer": ("huepfer", "HUEPFER")}


def rules_for(game: str) -> Rules:
    """The rules object of ``game`` (a canonical name: Hexalit, Trigeo, Hüpfer)."""
    module, name = _MODULES[game]
    return getattr(import_module(f"{__package__}.{module}"), name)
