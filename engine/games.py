"""Find a game's rules by name, through the game registry."""

from __future__ import annotations

from importlib import import_module

from hexhop.notation.games import find_game

from .base import Rules


def rules_for(game: str) -> Rules:
    """The rules object of ``game`` (a name or alias: Hexalit, Trigeo, Hüpfer;
    :class:`~hexhop.notation.games.UnknownGame` for another name).

    Its ``check`` and ``play`` take an action value or its text; ``play``
    refuses what may not be played now with :class:`~hexhop.IllegalAction`
    (a ``ValueError``, with the rules' ``code`` and ``reason``):

    >>> rules = hexhop.rules_for("Hexalit")
    >>> p = hexhop.position("Hexalit", "N: A7=1 C7=2; S: F7=1 D6=2; turn: N")
    >>> rules.check(p, "C7W1") is None
    True
    >>> rules.check(p, "C7XD6").code
    'IL01'
    >>> rules.play(p, "C7°D6").position.text()
    'N: A7=1 D6=2; S: F7=1; turn: S'
    >>> rules.play(p, "C7XD6")
    Traceback (most recent call last):
    ...
    hexhop.engine.base.IllegalAction: C7XD6 is not legal: D6 holds a South die, ...
    >>> "C7°D6" in rules.legal_actions(p), len(rules.legal_actions(p))
    (True, 17)
    """
    rules = _FOUND.get(game)
    if rules is None:
        module, name = find_game(game).engine.split(":")
        rules = getattr(import_module(f"{__package__}.{module}"), name)
        _FOUND[game] = rules
    return rules


_FOUND: dict[str, Rules] = {}  # looked up by every replay: found once per name
