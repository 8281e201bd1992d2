"""The limits of a check run as the notation reader applies them.

The byte limits are applied while reading (:mod:`.sources`); the limits of
one game (actions, items, comment, tag value and word length, variation
depth) by the notation reader while it scans the game's text, before
anything grows with it.  A game beyond a limit gets one finding and is not
replayed.
"""

from __future__ import annotations

from hexhop.notation.limits import ReadLimits
from hexhop.notation.model import Record

from .sources import Limits

#: The actions of one game, variations included, that a viewer page or a
#: JSON document (``render --format html``, ``convert --to json``) holds:
#: each keeps every position of the walk, 5 to 7 KB an action, so that a
#: game of 98,000 actions under 1 MiB of text took 514 MB and 676 MB. A
#: game with more is refused by those two, with a message; every other
#: command reads it (up to ``--max-plies``).
MAX_SHOWN_ACTIONS = 20_000


def read_limits(limits: Limits) -> ReadLimits:
    """The per-game part of ``limits``."""
    return ReadLimits(
        max_games=limits.max_games,
        max_actions=limits.max_actions,
        max_comment=limits.max_comment,
        max_tag_value=limits.max_tag_value,
        max_token=limits.max_token,
        max_depth=limits.max_depth,
    )


def actions_in(record: Record | None) -> int:
    """The nodes of ``record`` (actions and cube events), in every line and
    variation; counted without recursion (lines nest up to the depth limit)."""
    if record is None:
        return 0
    count, lines = 0, [record.main]
    while lines:
        line = lines.pop()
        count += len(line.nodes)
        for node in line.nodes:
            lines.extend(node.variations)
    return count
