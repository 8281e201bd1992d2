"""Each game of a record file as the bytes it was written with.

The bytes are decoded as every command decodes them
(:func:`hexhop.notation.reader.decode_lines`) and the games are cut where the
notation reader cuts them (:func:`hexhop.notation.reader.game_chunks`);
their bytes are taken from the file itself, so a game's text is copied byte
for byte, whatever its encoding and line ends. The one exception is a UTF-16
file: its games are given as their text in UTF-8. Nothing here writes
anywhere.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from hexhop.messages import _
from hexhop.notation.errors import Error
from hexhop.notation.findings import NotationError, make
from hexhop.notation.limits import refuse_too_many_games
from hexhop.notation.model import ParsedGame
from hexhop.notation.reader import (
    decode_lines,
    encoding_notices,
    fallback_game,
    game_chunks,
    guessed_line,
    looks_binary,
    offset_bytes,
    parse_game,
    same_line_ends,
    utf16_encoding,
    with_encoding_notice,
)
from hexhop.records.limits import read_limits
from hexhop.records.sources import COMPRESSORS, Limits, Source, iter_sources

_LINE_END = re.compile(rb"\r\n|\r|\n")  # the reader's line ends (one byte in UTF-8 and cp1252)
_BLANKS = b" \t\r\n\f\v"
_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class GameText:
    """One game of a source: where it is, its bytes and what the reader made of it.

    ``data`` runs from the game's first to its last non-blank byte;
    ``line`` and ``offset`` are where that is in the file (or archive
    member), the offset in bytes;
    ``windows_1252`` says lines of the game were not UTF-8 and were read
    as Windows-1252 (a guess); ``encoding`` is the game's (``utf-8``,
    ``cp1252``, ``utf-16-le``, ``utf-16-be``, or the one ``--encoding``
    named). The games of a UTF-16 file cannot be copied byte for byte into
    a UTF-8 file: their ``data`` is their text in UTF-8, and ``offset``
    counts the bytes of the whole file's text in UTF-8.

    ``certain`` is whether the text is the one the bytes hold: no line was
    guessed and no byte was lost (U+FFFD). A writer may re-encode only a
    certain game (:func:`hexhop.archive.certainty.game_bytes`).
    """

    path: str
    index: int
    line: int
    offset: int
    data: bytes
    parsed: ParsedGame
    windows_1252: bool = False
    encoding: str = "utf-8"
    certain: bool = True


class UnreadableSource(Error):
    """A source whose games cannot be read; the message says why."""


def archive_games(
    paths: list[str],
    unreadable: Callable[[str, str], None],
    *,
    globs: tuple[str, ...] = (),
    game: str | None = None,
    limits: Limits = Limits(),
) -> Iterator[GameText]:
    """Every game of the record files, folders and zip or tar archives in
    ``paths`` (as ``hexhop check`` reads them), in order. A source that
    cannot be read is passed to ``unreadable(path, why)`` and the rest are
    read on."""
    for source in iter_sources(paths, globs=globs, limits=limits):
        try:
            yield from game_texts(source, game=game, limits=limits)
        except UnreadableSource as error:
            unreadable(source.path, str(error))


def game_texts(
    source: Source, *, game: str | None = None, limits: Limits = Limits()
) -> Iterator[GameText]:
    """Every game of ``source`` in order; :class:`UnreadableSource` when it
    cannot be read, or holds more games than ``limits.max_games`` (IO04:
    a copy of its first games would not be the file; raised before the
    first game).

    ``game`` is the game of records without a Game tag whose file
    extension does not say it either (like ``--game``).
    """
    data = _readable(source)
    forced = source.encoding
    text, guessed = decode_lines(data, forced)
    reading = read_limits(limits)
    try:
        refuse_too_many_games(game_chunks(text), source.path, reading)
    except NotationError as error:
        raise UnreadableSource(f"{error.finding.code} {error.finding.message}") from None
    encoding = forced or utf16_encoding(data) or "utf-8"
    data = offset_bytes(data, forced)  # a UTF-16 file's lines cut as the UTF-8 of its text
    fallback = fallback_game(source.path.rsplit(":", 1)[-1], game)
    lines = _LineStarts(data)
    notices: dict[int, int] = {}
    guessed_lines = set(guessed)
    own_bytes = bool(forced) and same_line_ends(forced or "")  # ``data`` in the forced codec

    def codec_of(line: int) -> str:  # of ``data``'s bytes on ``line``
        if own_bytes:
            return forced or "utf-8"
        return "cp1252" if line in guessed_lines else "utf-8"

    before = 0  # characters of the first line that belong to the game before
    for index, first_line, chunk in encoding_notices(game_chunks(text), guessed, notices):
        guess = bool(guessed_line(guessed, first_line, chunk))
        start = lines.start_of(first_line)
        if before:  # the game begins on the line where the one before ends
            start = lines.after_chars(start, before, codec_of(first_line))
        last = first_line + chunk.count("\n")
        end = lines.start_of(last)
        before = len(chunk) - (chunk.rfind("\n") + 1)  # of its last line
        if before:  # it ends inside its last line (the last game of the file, say)
            end = lines.after_chars(end, before, codec_of(last))
        body = data[start:end]
        lead = len(body) - len(body.lstrip(_BLANKS))
        yield GameText(
            source.path,
            index,
            first_line + _line_ends(body, 0, lead),
            start + lead,
            body.strip(_BLANKS),
            with_encoding_notice(
                parse_game(chunk, first_line, index, fallback, reading), notices.get(index, 0)
            ),
            guess,
            "cp1252" if guess else encoding,
            not guess and "\ufffd" not in chunk,
        )


def _readable(source: Source) -> bytes:
    """The bytes of ``source``, or :class:`UnreadableSource` saying why not."""
    if source.too_large is not None:
        size, limit = source.too_large
        finding = make("IO03", None, path=source.path, size=size, limit=limit)
    elif source.data is None:
        finding = make("IO01", None, path=source.path, reason=source.error or _("unknown error"))
    elif looks_binary(source.data):  # as check tells an image or a program from a record
        finding = make("IO02", None, path=source.path)
    else:
        return source.data
    raise UnreadableSource(f"{finding.code} {finding.message}")


class _LineStarts:
    """Byte offsets of line starts, found going forward through the file
    (games come in order). Runs of lines are skipped by counting line ends
    in ever larger blocks, then halving the block that holds the one
    wanted: a file of millions of blank lines is crossed at C speed."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.cr = b"\r" in data  # else every line ends with \n alone: one count
        self.line = 1
        self.offset = len(_BOM) if data.startswith(_BOM) else 0

    def start_of(self, line: int, guess: int = -1) -> int:
        """Where ``line`` (counted from 1) starts; the end of the file past the last line.

        ``guess``: where it is thought to start (the last line asked for and
        the bytes of the lines between); one count of line ends tells
        whether it does, as it will unless the text had CRs."""
        if line > self.line:
            if self._starts(line, guess):
                self.offset = guess
            else:
                self.offset = self._after_ends(self.offset, line - self.line)
            self.line = line
        return self.offset

    def after_chars(self, start: int, chars: int, codec: str) -> int:
        """The offset after the first ``chars`` characters of the line that
        starts at ``start`` (its end at most): where a game ends and the
        next begins, when a result and the next game's tags share a line."""
        found = _LINE_END.search(self.data, start)
        stop = len(self.data) if found is None else found.start()
        if not codec:  # the line's own: UTF-8, else read as Windows-1252 (as decode_lines does)
            try:
                self.data[start:stop].decode("utf-8")
                codec = "utf-8"
            except UnicodeDecodeError:
                codec = "cp1252"
        line = self.data[start:stop].decode(codec, errors="surrogateescape")
        return start + len(line[:chars].encode(codec, errors="surrogateescape"))

    def _starts(self, line: int, guess: int) -> bool:
        """Whether ``line`` starts at ``guess`` (only said of a text without CRs)."""
        data = self.data
        return (
            not self.cr
            and self.offset < guess <= len(data)
            and data[guess - 1] == 10  # just after a line end
            and data.count(b"\n", self.offset, guess) == line - self.line
        )

    def _after_ends(self, pos: int, n: int) -> int:
        """The offset after the ``n``-th line end from ``pos`` (or the end of the file)."""
        size, step = len(self.data), 4096
        while True:
            end = self._cut(min(pos + step, size))
            found = self._count(pos, end)
            if found >= n:
                break
            if end >= size:
                return size
            n, pos, step = n - found, end, step * 2
        while end - pos > 256:
            middle = self._cut((pos + end) // 2)
            found = self._count(pos, middle)
            if found >= n:
                end = middle
            else:
                n, pos = n - found, middle
        for _line in range(n):
            match = _LINE_END.search(self.data, pos, end)
            pos = match.end() if match else end
        return pos

    def _count(self, start: int, end: int) -> int:
        if not self.cr:
            return self.data.count(b"\n", start, end)
        return _line_ends(self.data, start, end)

    def _cut(self, pos: int) -> int:
        """``pos``, or one on when it would cut a CR LF pair in two."""
        data = self.data
        if self.cr and 0 < pos < len(data) and data[pos - 1 : pos + 1] == b"\r\n":
            return pos + 1
        return pos


def _line_ends(data: bytes, start: int, end: int) -> int:
    """How many lines end in ``data[start:end]`` (CR LF, LF or CR alone)."""
    count = data.count
    return count(b"\n", start, end) + count(b"\r", start, end) - count(b"\r\n", start, end)


def extension_of(path: str) -> str:
    """The lower-case extension of a file or archive member's name (``""``
    for none); of a compressed record file, the record's (``.hxl`` of
    ``club.hxl.gz``)."""
    stem, extension = os.path.splitext(path.rsplit(":", 1)[-1].rsplit("/", 1)[-1].lower())
    if extension in COMPRESSORS:
        stem, extension = os.path.splitext(stem)
    return extension
