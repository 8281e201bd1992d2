"""Several archives as one: the games one after another, their texts unchanged.

Games are separated by one blank line, as ``hexhop fmt`` writes an
archive; each keeps its own bytes and line ends. Two changes only, each so
that the merged file reads back as the same games: a game that had its game
only from its file's extension gets a ``[Game "…"]`` line before its text,
and a file read as Windows-1252 is written as UTF-8 (the same text).
With ``dedupe``, a game with the same actions as one before it is left
out (:func:`same_game_key`). Nothing here writes anywhere.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass, field
from typing import Literal

from hexhop.notation.model import DiceAction, HopAction, Item, ParsedGame

from .certainty import Uncertain, written_bytes
from .texts import GameText
from .verify import Written, game_tag_missing, standalone

Where = tuple[str, int, int]  # path, game number, line

#: Tags that set the start position: games only repeat each other from the same start.
START_TAGS = ("Board", "Reserve", "Position")


def same_game_key(parsed: ParsedGame) -> bytes | None:
    """A digest of what makes two records the same game: the game, the
    start tags and every action and cube event of the main line in
    canonical spelling (so ``b6xc6`` and ``B6XC6`` are one action, and move
    numbers, comments, glyphs and variations do not count), without the
    ``^`` and ``+`` marks. None for a game with a syntax error or no
    actions: it repeats nothing and is never left out."""
    record = parsed.record
    if record is None or record.game is None or not parsed.ok or not record.main.nodes:
        return None
    start = [(record.tag(name) or "").strip().casefold() for name in START_TAGS]
    actions = [str(_unmarked(node.item)) for node in record.main.nodes]
    text = "\n".join([record.game, *start, "", *actions])
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


def _unmarked(item: Item) -> Item:
    if isinstance(item, (DiceAction, HopAction)) and item.mark:
        return dataclasses.replace(item, mark="")
    return item


Outcome = Literal["added", "duplicate", "headless"]


@dataclass
class Merge:
    """The merged archive, built one game at a time with :meth:`add`, which
    gives the bytes to write next (the file is written as they come, never
    held whole).

    ``written`` notes the games added, for the read-back
    (:func:`.verify.verify`); ``dropped`` holds (left out, the game it
    repeats) as ``(path, game number, line)``; ``headless`` the games left
    out because they have no header and no game to give them one (in the
    merged file they would run on in the game before); ``tagged`` counts
    games that got a Game tag; ``transcoded`` the files read as UTF-16
    or with the encoding ``--encoding`` named (written as UTF-8), with that
    encoding's name; ``copied`` the games whose text is not certain
    (:func:`.certainty.written_bytes`), copied byte for byte as read.
    """

    dedupe: bool = False
    written: Written = field(default_factory=Written)
    dropped: list[tuple[Where, Where]] = field(default_factory=list)
    headless: list[Where] = field(default_factory=list)
    tagged: int = 0
    transcoded: dict[str, str] = field(default_factory=dict)
    copied: list[Uncertain] = field(default_factory=list)
    _seen: dict[bytes, Where] = field(default_factory=dict)

    @property
    def games(self) -> int:
        """How many games were added."""
        return len(self.written)

    def add(self, game: GameText) -> tuple[Outcome, bytes]:
        """Add ``game`` after the others: its bytes to write next (a blank
        line before them), or why it was left out (and no bytes)."""
        where = (game.path, game.index, game.line)
        written = written_bytes(game)  # an uncertain game is copied as it was read
        source = game.data if isinstance(written, Uncertain) else written
        if isinstance(written, Uncertain):
            self.copied.append(written)
        data = standalone(source, game.parsed)
        if data is None:
            self.headless.append(where)
            return "headless", b""
        if self.dedupe:
            key = same_game_key(game.parsed)
            first = self._seen.get(key) if key is not None else None
            if first is not None:
                self.dropped.append((where, first))
                return "duplicate", b""
            if key is not None:
                self._seen[key] = where
        end = _line_end(data)
        piece = (end if self.games else b"") + data + end
        self.written.add(game.parsed)
        self.tagged += game_tag_missing(game.parsed)
        if game.encoding.startswith("utf-16"):  # its data is already UTF-8
            self.transcoded[game.path] = "UTF-16"
        elif source is not game.data:  # read with the encoding --encoding named
            self.transcoded[game.path] = game.encoding
        return "added", piece


def _line_end(data: bytes) -> bytes:
    """The line end a game's text is written with."""
    return b"\r\n" if b"\r\n" in data else b"\n"
