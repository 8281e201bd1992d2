"""The games ``find`` and ``dupes`` export, as the pieces of one record archive.

Each game is written in its own bytes (with a Game tag first when its game
came from its file's name, see :func:`.verify.standalone`; a game read
with ``--encoding`` in UTF-8, the same text, as ``merge`` writes it, and
one whose text is not certain as it was read, :mod:`.certainty`), or with
``canonical`` as ``fmt`` writes it, and separated from the next by a blank
line. The pieces come one game at a time, so the archive is never held
whole; each game written is noted for the read-back. Nothing here writes
anywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from hexhop.notation.model import ParsedGame
from hexhop.notation.reader import (
    FORCED_ENCODING,
    decode,
    game_chunks,
    parse_game,
    same_line_ends,
)
from hexhop.records.limits import read_limits
from hexhop.records.sources import Limits, Source

from .query import Hit, game_texts
from .verify import Written, standalone


def export_pieces(
    hits: Iterable[Hit],
    written: Written,
    left_out: Callable[[Hit], None],
    *,
    canonical: bool = False,
) -> Iterator[bytes]:
    """The bytes of the hits' games one after another, each noted in
    ``written``; a game that cannot stand alone is passed to
    ``left_out(hit)`` instead (see :func:`.verify.standalone`).
    :class:`.query.IndexProblem` when a file changed since it was indexed."""
    current: list[Hit] = []

    def noted() -> Iterator[Hit]:
        for hit in hits:
            current[:] = [hit]
            yield hit

    for data in game_texts(noted()):
        hit = current[0]
        text = decode(data)[0]
        data, certain = written_form(hit.path, data)  # never the text of a guess
        games = _parsed(text, hit.game)
        piece = standalone(data, games[0]) if games else None
        if piece is None:
            left_out(hit)
            continue
        if canonical and certain:  # as fmt writes an archive: a blank line between games
            first = not written
            piece, games = _canonical(piece, games[0].record.game if games[0].record else None)
            piece = piece if first or not piece else b"\n" + piece
        else:
            piece = separated(piece)
        for parsed in games:
            written.add(parsed)
        yield piece


def written_form(path: str, data: bytes) -> tuple[bytes, bool]:
    """A hit's bytes as they are written (:func:`.certainty.written_bytes`),
    and whether their text is certain: in UTF-8 when it is; else the bytes
    as read (and never written anew, not even with ``--canonical``)."""
    from .certainty import Uncertain, written_bytes
    from .texts import game_texts as texts_of

    forced = FORCED_ENCODING[0] or ""
    if forced and not same_line_ends(forced):
        forced = ""  # the index cut such a file's games from its text in UTF-8
    answers = [written_bytes(text) for text in texts_of(Source(path, data, encoding=forced))]
    if any(isinstance(answer, Uncertain) for answer in answers):
        return data, False
    if forced:  # certain, in the encoding --encoding named: in UTF-8, its line ends kept
        return data.decode(forced, errors="replace").encode("utf-8"), True
    return data, True


def _parsed(text: str, game: str | None) -> list[ParsedGame]:
    """The games ``text`` holds read alone (one, as a rule), its game
    ``game`` unless a Game tag says otherwise."""
    limits = read_limits(Limits())
    return [
        parse_game(chunk, line, index, game, limits) for index, line, chunk in game_chunks(text)
    ]


def _canonical(data: bytes, game: str | None) -> tuple[bytes, list[ParsedGame]]:
    """The game's text as ``fmt`` writes it, and the games it holds."""
    from hexhop.notation import format_archive

    games = _parsed(decode(data)[0], game)
    return format_archive(games).encode("utf-8"), games


def separated(text: bytes) -> bytes:
    """A game's bytes, with a blank line after it when it lacks one (the
    last of its file), so that the next game starts on a line of its own."""
    if text.endswith((b"\n\n", b"\r\n\r\n", b"\r\r")):
        return text
    return text + (b"\n" if text.endswith((b"\n", b"\r")) else b"\n\n")
