"""What a writer may write for a game: never a misreading.

The reader decides an encoding where a file's bytes are not UTF-8
(:func:`hexhop.notation.reader.decode_lines`); a game some of whose lines
were read as Windows-1252 by a guess, or that holds bytes that could not be
read (U+FFFD), is not *certain*: its text may not be what was written.
:func:`written_bytes` is the one question every writer asks of a game: the
UTF-8 it may write, or why it may not. A writer that copies games (merge,
split, the exports) then copies the bytes the game was read from, byte for
byte, so that nothing is lost or changed; one that writes a new text of the
game (``fmt``, ``analyse --annotate``) refuses it and names it. Nothing
here writes anywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

from hexhop.messages import _
from hexhop.notation.reader import FORCED_ENCODING, same_line_ends
from hexhop.records.sources import Source

from .texts import GameText, UnreadableSource, game_texts


@dataclass(frozen=True)
class Uncertain:
    """A game whose text is not certainly the one its bytes hold."""

    path: str
    index: int
    line: int
    guessed: bool  # lines read as Windows-1252 by a guess; else bytes lost (U+FFFD)

    def __str__(self) -> str:
        why = (
            _("read as Windows-1252 by a guess (name the encoding with --encoding)")
            if self.guessed
            else _("holds bytes that could not be read as text (U+FFFD)")
        )
        return _("{path}: game {index} (line {line}) {why}").format(
            path=self.path, index=self.index, line=self.line, why=why
        )


def written_bytes(game: GameText) -> bytes | Uncertain:
    """The UTF-8 bytes a writer may write for ``game``, or :class:`Uncertain`.

    A certain game (:attr:`GameText.certain`) is its text in UTF-8: its own
    bytes when they are UTF-8, re-encoded when it was read as UTF-16 or
    with the encoding ``--encoding`` named. Any other game is
    :class:`Uncertain`: copy ``game.data`` (the bytes it was read from) or
    refuse it with its message, never write its text."""
    if not game.certain:
        return Uncertain(game.path, game.index, game.line, game.windows_1252)
    codec = game.encoding
    if codec == "utf-8" or codec.startswith("utf-16") or not same_line_ends(codec):
        return game.data  # UTF-8 already (a UTF-16 game's data is its text in UTF-8)
    return game.data.decode(codec, errors="replace").encode("utf-8")


def certain_or_as_read(game: GameText) -> bytes:
    """What a writer that copies games writes for ``game``: the UTF-8 of
    :func:`written_bytes`, else the bytes it was read from."""
    written = written_bytes(game)
    return game.data if isinstance(written, Uncertain) else written


def uncertain_games(path: str, data: bytes, game: str | None = None) -> list[Uncertain]:
    """The games of a file's bytes that :func:`written_bytes` would not
    write as text (for the writers that write a new text of a whole file:
    ``fmt --in-place``, ``analyse --annotate``); none for a file that cannot
    be read (its reader says why)."""
    source = Source(path, data, encoding=FORCED_ENCODING[0])
    try:
        return [
            answer
            for text in game_texts(source, game=game)
            if isinstance(answer := written_bytes(text), Uncertain)
        ]
    except UnreadableSource:
        return []
