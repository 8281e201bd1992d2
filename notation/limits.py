"""Bounds on what a file's games and one game's text may hold, applied while they are read.

A record from a stranger can hold a tag value, a word or a comment of
millions of characters, millions of actions, or millions of games (a
compressed file of 100 KB unpacks to two million empty games).  The reader
measures each while it scans and stops at the first one beyond its bound,
so that time and memory never grow with what lies beyond a limit.  Every
command reads with these bounds: the defaults here are the only ones
(:class:`hexhop.records.sources.Limits` takes its own from them);
``hexhop check`` passes its options.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import islice

from hexhop.notation.errors import ArgumentError

from .errors import Error
from .findings import Finding, NotationError, make

MAX_DEPTH = 64  # variations nested deeper than this are refused (SY06)
MAX_TOKEN = 4_000  # the longest token limit: longer digit strings do not convert to int


@dataclass(frozen=True)
class ReadLimits:
    """Upper bounds for one game, beyond which the game gets one finding and
    is not read, and the games of one file (IO04)."""

    max_games: int = 100_000  # games of one file (IO04)
    max_actions: int = 100_000  # actions, variations included (IO05)
    max_comment: int = 100_000  # characters in one comment (IO06)
    max_tag_value: int = 10_000  # characters in one tag value (IO07)
    max_token: int = 1_000  # characters in one action, move number, NAG or tag name (IO08)
    max_depth: int = MAX_DEPTH  # variations inside variations (SY06)

    def __post_init__(self) -> None:
        if not 1 <= self.max_depth <= MAX_DEPTH:
            raise ArgumentError(f"max_depth must be 1 to {MAX_DEPTH}")
        if not 1 <= self.max_token <= MAX_TOKEN:
            raise ArgumentError(f"max_token must be 1 to {MAX_TOKEN}")
        if min(self.max_games, self.max_actions, self.max_comment, self.max_tag_value) < 1:
            raise ArgumentError("limits must be positive")

    @property
    def max_items(self) -> int:
        """Movetext items of one game (actions, move numbers, glyphs, comments,
        parentheses): a game within the action limit has far fewer, and a
        flood of them is refused before it is held in memory."""
        return 4 * self.max_actions + 1_000


DEFAULT_LIMITS = ReadLimits()


class BeyondLimit(Error):
    """A game's text goes beyond a :class:`ReadLimits` bound; carries the finding."""

    def __init__(self, finding: Finding):
        super().__init__(finding.message)
        self.finding = finding


def refuse_too_many_games(chunks: Iterable[object], path: str, limits: ReadLimits) -> None:
    """:class:`NotationError` (IO04) when ``chunks``, the games of one file
    as they are cut, are more than ``limits.max_games``.

    Cuts at most one game beyond the limit, parsing none: what a reader
    calls before the first game of a file it reads whole (to write it, to
    draw or analyse every game), so that such a file is refused in the
    time it takes to cut the games up to the limit, not read up to it."""
    if next(islice(chunks, limits.max_games, None), None) is not None:
        raise NotationError(too_many_games(path, limits.max_games))


def too_many_games(path: str, limit: int) -> Finding:
    """The IO04 finding of a file of more than ``limit`` games."""
    return make("IO04", None, path=path or "<input>", limit=limit)
