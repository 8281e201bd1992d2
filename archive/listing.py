"""What an archive holds: its record files as the commands read them, with their games."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from hexhop.records.sources import Limits, iter_sources

from .texts import UnreadableSource, game_texts


@dataclass(frozen=True)
class Listed:
    """One record file: its name as the reports give it (``club.zip:games/a.hxl``),
    its size in bytes, its games and its encoding."""

    path: str
    size: int
    games: int
    encoding: str

    def as_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "bytes": self.size,
            "games": self.games,
            "encoding": self.encoding,
        }


@dataclass(frozen=True)
class Unlisted:
    """A file that cannot be read, and why (a finding's code and message)."""

    path: str
    message: str


def listing(
    paths: list[str],
    *,
    globs: tuple[str, ...] = (),
    game: str | None = None,
    limits: Limits = Limits(),
) -> Iterator[Listed | Unlisted]:
    """Every record file of ``paths`` (files, folders, zip and tar archives,
    compressed files, standard input) in the order every command reads
    them, with the number of games the reader finds in it."""
    for source in iter_sources(paths, globs=globs, limits=limits):
        games, encoding = 0, "utf-8"
        try:
            for text in game_texts(source, game=game, limits=limits):
                games, encoding = games + 1, text.encoding
        except UnreadableSource as error:
            yield Unlisted(source.path, str(error))
            continue
        yield Listed(source.path, len(source.data or b""), games, encoding)
