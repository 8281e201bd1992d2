"""The limits of a check run as the notation reader applies them.

The byte limits are applied while reading (:mod:`.sources`); the limits of
one game (actions, items, comment, tag value and word length, variation
depth) by the notation reader while it scans the game's text, before
anything grows with it.  A game beyond a limit gets one finding and is not
replayed.
"""

from __future__ import annotations

from hexhop.notation.limits import ReadLimits

from .sources import Limits


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
