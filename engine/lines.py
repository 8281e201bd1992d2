"""Actions played one after the other from a position: a line as a game
built from code adds it (``hexhop.Game.play`` and ``variation``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from hexhop.notation.model import DiceAction, HopAction, Item

from .base import Position, Rules, read_action


def play_line(
    rules: Rules, position: Position, items: Iterable[Item | str]
) -> list[tuple[Item, Position]]:
    """Each of ``items`` (action values, cube events or their text) played
    in turn from ``position``: the item as it is to be written, with the
    mark the rules require (``^``, ``+``), and the position after it.
    :class:`~hexhop.engine.base.IllegalAction` for the first one that cannot
    be played; nothing is returned then."""
    line: list[tuple[Item, Position]] = []
    for given in items:
        item = read_action(given, rules.name)
        played = rules.play(position, item)
        if isinstance(item, (DiceAction, HopAction)) and item.mark != played.mark:
            item = replace(item, mark=played.mark)
        position = played.position
        line.append((item, position))
    return line
