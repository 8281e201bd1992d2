"""Archives to games: decoding, splitting into games, telling the game.

``read_archive`` decodes bytes (UTF-16 with a byte order mark, else UTF-8,
decided game by game: lines of a game plainly not UTF-8 are read as
Windows-1252 with a notice; or the encoding the user named),
splits the text into games at their headers (a comment never closed ends
where the next game's tags begin) and parses them one by one, lazily: a
broken game yields its findings and the next game is read as if nothing
happened; ``parse_action`` reads one
action alone.  Nothing here
knows the rules; the syntax itself is in the grammars read by :mod:`.parser`.
"""

from __future__ import annotations

import bisect
import codecs
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Final

from lark.exceptions import UnexpectedInput

from .before_error import read_before_error
from .findings import Finding, NotationError, make, words
from .flat import FlatLine
from .forced import FORCED_ENCODING, force_encoding, forced_codec
from .limits import DEFAULT_LIMITS, BeyondLimit, ReadLimits, refuse_too_many_games
from .model import GAMES, Item, Line, Node, ParsedGame, Record, Span, Tag
from .names import game_from_name, game_from_path, tag_name, tag_value
from .parser import Header, movetext_text, parse_header, parse_movetext, parse_movetext_flat
from .problems import EndsAtNextGame, SyntaxProblem
from .scanner import Rest
from .syntax_errors import explain
from .text import line_column, match_end, place, unescape

_GAP: Final = re.compile(r"\s*(?:\{[^}]*\}|;[^\n]*)?")  # blanks, then perhaps one comment
_SPACES: Final = re.compile(r"\s*")
_NOT_TAG_LINE: Final = re.compile(r"^(?![^\S\n]*\[)", re.MULTILINE)  # a line not starting with '['
# one tag pair on one line (the grammar's TAG_NAME and TAG_VALUE)
_TAG_PAIR: Final = r'\[[^\S\n]*\w+[^\S\n]*"[^"\\\n]*(?:\\[^\n][^"\\\n]*)*"[^\S\n]*\]'
# a result, then on the same line the next game's first tag pair: the result
# ends its game, and the next game begins at the '[' (this pattern's end)
_RESULT_THEN_TAG: Final = re.compile(
    r"(?:(?<![\w.-])(?:1-0|0-1)(?![\w-])|\*)[^\S\n]*(?=" + _TAG_PAIR + ")"
)
# the next line that starts with '[' (after blanks), the next '{', or a
# result followed by a tag pair
_TAG_LINE_OR_BRACE: Final = re.compile(r"^[^\S\n]*\[|\{|" + _RESULT_THEN_TAG.pattern, re.MULTILINE)
_SALVAGE_TAG: Final = re.compile(r'\[\s*(\w+)\s*"([^"\\\n]*(?:\\[^\n][^"\\\n]*)*)"\s*\]')
_COMMENT_CHARS: Final = re.compile(r"[{};]")
# a blank line, then a line that holds one tag pair and nothing else (the
# grammar's TAG_NAME and TAG_VALUE): where the next game plainly begins, even
# inside a comment that was never closed
_NEXT_GAME: Final = re.compile(
    r"\n[^\S\n]*\n"  # a blank line
    r'(?=[^\S\n]*\[[^\S\n]*\w+[^\S\n]*"[^"\\\n]*(?:\\[^\n][^"\\\n]*)*"[^\S\n]*\][^\S\n]*(?:\n|\Z))'
)
_BOM: Final = b"\xef\xbb\xbf"
# Windows Notepad's "Unicode" (and "Unicode big endian") start with these
_UTF16_BOMS: Final = {b"\xff\xfe": "utf-16-le", b"\xfe\xff": "utf-16-be"}
_UTF32_LE_BOM: Final = b"\xff\xfe\x00\x00"


# ---------------------------------------------------------------- decoding


def decode(data: bytes, encoding: str | None = None) -> tuple[str, bool]:
    """The text of ``data`` and whether some of it had to be read as
    Windows-1252 (:func:`decode_lines` tells where)."""
    text, guessed = decode_lines(data, encoding)
    return text, bool(guessed)


def decode_lines(data: bytes, encoding: str | None = None) -> tuple[str, tuple[int, ...]]:
    """The text of ``data`` and the lines (counted from 1, as
    :func:`game_chunks` counts them) that were read as Windows-1252.

    ``encoding`` (a codec name, :func:`forced_codec`) reads the file with
    it, whatever its bytes; None reads it with the one ``--encoding`` named
    for the run (:func:`force_encoding`), if any; ``""`` never. Else
    UTF-16 with a byte order mark (either byte order); else UTF-8, with or
    without a byte order mark, decided where the bytes are not UTF-8 rather
    than for the whole file
    (:func:`_mixed`): every line that is UTF-8 is read as UTF-8, so good
    games stay good whatever follows them. Bytes that the codec cannot
    read become U+FFFD, which :func:`parse_game` reports (NT04).
    """
    if encoding is None:
        encoding = FORCED_ENCODING[0] or ""
    if encoding:
        return forced_text(data, encoding), ()
    codec = utf16_encoding(data)
    if codec is not None:
        return data[2:].decode(codec, errors="replace"), ()
    start = len(_BOM) if data.startswith(_BOM) else 0
    try:
        return data[start:].decode("utf-8"), ()
    except UnicodeDecodeError:
        return _mixed(bytes(data[start:]))


def _mixed(data: bytes) -> tuple[str, tuple[int, ...]]:
    """The text of bytes that are not all UTF-8, decided region by region.

    A region runs from one game's first tag line to the next's (a tag line
    after a line that is not one), so damage in one game never changes how
    another is read. In a region that is mostly UTF-8 (:func:`mostly_utf8`)
    the bytes that are not become U+FFFD; in one that is plainly not, each
    line that is not UTF-8 is read as Windows-1252 (and noted), and every
    line that is UTF-8 stays UTF-8. Line ends are one byte in both codecs,
    so the text has the lines, and each line the place, of the bytes.
    """
    parts: list[str] = []
    guessed: list[int] = []
    _decode_span(data, _region_starts(data), 0, 1, parts, guessed)
    return "".join(parts), tuple(guessed)


def _decode_span(
    data: bytes, cuts: list[int], first: int, line: int, parts: list[str], guessed: list[int]
) -> None:
    """Decode the regions from ``cuts[first]`` to the end of ``data`` (the
    span starting at ``line``) as :func:`_decode_region` decodes each one,
    many at a time where that gives the same: all UTF-8, or not one
    character UTF-8 writes with several bytes (then every line beyond
    ASCII is Windows-1252). Only a span with both is halved again."""
    stack = [(first, len(cuts), line)]
    while stack:
        low, high, at = stack.pop()
        span = data[cuts[low] : cuts[high] if high < len(cuts) else len(data)]
        if high - low > 1 and not (span.isascii() or _utf8(span) or not _has_wide(span)):
            middle = (low + high) // 2
            stack.append((middle, high, at + _line_ends(data, cuts[low], cuts[middle])))
            stack.append((low, middle, at))
            continue
        text, lines = _decode_region(span)
        parts.append(text)
        guessed.extend(at + n for n in lines)


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


_LINE_END: Final = re.compile(rb"\r\n|\r|\n")  # the reader's line ends
# a line that is not a tag line, then one that is: the next game's first tag line
_HEADER_START: Final = re.compile(rb"^(?![ \t]*\[).*\n(?=[ \t]*\[)", re.MULTILINE)


def _region_starts(data: bytes) -> list[int]:
    """Where the regions of ``data`` start: at 0, and at every line that
    starts a game's tags (a tag line whose line before is not one)."""
    return [0, *(m.end() for m in _HEADER_START.finditer(data) if m.end() < len(data))]


def _decode_region(region: bytes) -> tuple[str, list[int]]:
    """The text of one region and its lines (from 0) read as Windows-1252."""
    try:
        return region.decode("utf-8"), []
    except UnicodeDecodeError:
        pass
    if not _has_wide(region):  # then every line with a byte beyond ASCII is not UTF-8
        return region.decode("cp1252", errors="replace"), _high_lines(region)
    if mostly_utf8((region,)):
        return region.decode("utf-8", errors="replace"), []
    parts: list[str] = []
    guessed: list[int] = []
    for n, line in enumerate(region.splitlines(keepends=True)):
        try:
            parts.append(line.decode("utf-8"))
        except UnicodeDecodeError:
            parts.append(line.decode("cp1252", errors="replace"))
            guessed.append(n)
    return "".join(parts), guessed


def _has_wide(data: bytes) -> bool:
    """Whether ``data`` holds a character UTF-8 writes with several bytes:
    read with every byte that is not UTF-8 as one escape, only such a
    character makes the text shorter than the bytes."""
    return len(data.decode("utf-8", errors="surrogateescape")) != len(data)


def _high_lines(data: bytes) -> list[int]:
    """The lines (from 0) of ``data`` that hold a byte beyond ASCII."""
    return [n for n, line in enumerate(data.splitlines()) if not line.isascii()]


def _line_ends(data: bytes, start: int, end: int) -> int:
    """How many lines end in ``data[start:end]`` (CR LF, LF or CR alone)."""
    count = data.count
    return count(b"\n", start, end) + count(b"\r", start, end) - count(b"\r\n", start, end)


def forced_text(data: bytes, encoding: str) -> str:
    """``data`` read with ``encoding`` (a byte order mark of it dropped);
    bytes it cannot read become U+FFFD."""
    codec = forced_codec(encoding)
    if codec in ("utf-8", "utf-8-sig") and data.startswith(_BOM):
        data = data[len(_BOM) :]
    elif codec == "utf-16" and utf16_encoding(data) is None:
        codec = "utf-16-le"  # no byte order mark: Windows' order
    return data.decode(codec, errors="replace").removeprefix("\ufeff")


def same_line_ends(encoding: str) -> bool:
    """Whether ``encoding`` writes line ends and tags as ASCII does, so a
    game's offsets count the file's own bytes."""
    sample = "\r\n[ ]{}"
    try:
        return sample.encode(forced_codec(encoding)) == sample.encode("ascii")
    except (LookupError, UnicodeError):
        return False


def encoding_notices(
    chunks: Iterable[tuple[int, int, str]], guessed: Sequence[int], notices: dict[int, int]
) -> Iterator[tuple[int, int, str]]:
    """``chunks`` as they are, noting in ``notices`` (game number: line)
    the games that carry an NT03 finding: the first game of a run of games
    read as Windows-1252 (in part), at its first such line. So a file read
    as Windows-1252 is told once, and damage after good games at its place."""
    before = False  # the game before had lines read as Windows-1252
    for index, first_line, chunk in chunks:
        line = guessed_line(guessed, first_line, chunk)
        if line and not before:
            notices[index] = line
        before = bool(line)
        yield index, first_line, chunk


def guessed_line(guessed: Sequence[int], first_line: int, chunk: str) -> int:
    """The first line of a game's text (from ``first_line`` on) that is
    in ``guessed`` (read as Windows-1252), or 0."""
    at = bisect.bisect_left(guessed, first_line)
    last = first_line + chunk.count("\n") - chunk.endswith("\n")
    return guessed[at] if at < len(guessed) and guessed[at] <= last else 0


def text_encoding(data: bytes) -> tuple[str, int]:
    """(codec, offset where the text starts) of a record file's bytes.

    UTF-16 when a byte order mark says so; else UTF-8 (after its byte order
    mark, if any) unless the bytes are plainly not UTF-8: more of their
    sequences are not UTF-8 than are UTF-8 sequences of several bytes
    (``ü`` or ``°``, say). Then Windows-1252. So one bad byte in a UTF-8 file
    never makes its other characters read as Windows-1252. Looked at a block
    at a time: the text is never held whole.
    """
    encoding = utf16_encoding(data)
    if encoding is not None:
        return encoding, 2
    start = len(_BOM) if data.startswith(_BOM) else 0
    if data.isascii():
        return "utf-8", start
    view = memoryview(data)
    blocks = (view[pos : pos + _BLOCK] for pos in range(start, len(data), _BLOCK))
    return ("utf-8" if mostly_utf8(blocks) else "cp1252"), start


def mostly_utf8(blocks: Iterable[bytes | memoryview]) -> bool:
    """Whether the bytes of ``blocks`` (in order, after any byte order mark)
    are UTF-8 as :func:`text_encoding` decides: they hold no more places
    that are not UTF-8 (a run of bad bytes is one place) than characters
    UTF-8 writes with several bytes."""
    lost = runs = wide = written = 0
    tail = b""  # the end of the block before: a U+FFFD written may span two
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    for block in blocks:
        text = decoder.decode(block)
        if not text.isascii():
            lost += text.count("\ufffd")
            runs += len(_LOST.findall(text))
            wide += len(text) - len(text.encode("ascii", "ignore"))
            written += (tail + bytes(block)).count(_REPLACEMENT)
        tail = (tail + bytes(block[-2:]))[-2:]
    runs += bool(decoder.decode(b"", True))  # a sequence cut off at the very end
    # a U+FFFD written as such is a character UTF-8 read
    return max(0, runs - written) <= wide - lost + written


_BLOCK: Final = 64 * 1024  # bytes decoded at a time to tell the encoding
_REPLACEMENT: Final = "\ufffd".encode()
_LOST: Final = re.compile("\ufffd+")  # one place where bytes could not be read


def looks_binary(data: bytes) -> bool:
    """Whether ``data`` is no text: NUL bytes in the first block (an image or
    program), unless the file is UTF-16 (by its byte order mark, or as
    ``--encoding`` says), where every other byte of plain text is NUL."""
    forced = FORCED_ENCODING[0]
    if forced and not same_line_ends(forced):  # --encoding utf-16 without a byte order mark
        return False
    return utf16_encoding(data) is None and b"\x00" in data[:8192]


def utf16_encoding(data: bytes) -> str | None:
    """The UTF-16 codec a byte order mark at the start of ``data`` names, or None."""
    if data.startswith(_UTF32_LE_BOM):
        return None
    return _UTF16_BOMS.get(bytes(data[:2]))


def offset_bytes(data: bytes, encoding: str | None = None) -> bytes:
    """The bytes that game offsets count in: ``data`` itself, or for a
    UTF-16 file (or one read with an ``encoding`` that does not write line
    ends as ASCII does) the UTF-8 of its text (so the archive tools cut,
    store and copy such a game as UTF-8 text, with the lines check counts)."""
    if encoding is None:
        encoding = FORCED_ENCODING[0] or ""
    if encoding:
        if same_line_ends(encoding):
            return data
        return forced_text(data, encoding).encode("utf-8", errors="surrogatepass")
    if utf16_encoding(data) is None:
        return data
    return decode(data)[0].encode("utf-8", errors="surrogatepass")


def read_archive(
    data: bytes,
    *,
    path: str = "",
    default_game: str | None = None,
    limits: ReadLimits = DEFAULT_LIMITS,
    encoding: str | None = None,
) -> Iterator[ParsedGame]:
    """Every game of an archive file's bytes, parsed lazily, numbered from 1.

    Lines that are not UTF-8 where their game is plainly not UTF-8 are
    read as Windows-1252 (:func:`decode_lines`), and the game carries an
    NT03 finding at the first of them (once for a run of such games).
    ``encoding`` reads the file with that codec instead. A game beyond
    ``limits`` gets one finding and an empty movetext; a file of more
    games than ``limits.max_games`` is refused whole (IO04), before its
    first game.  Raises only :class:`NotationError`.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise NotationError(make("IO01", path=path or "<input>", reason=words("expected bytes")))
    text, guessed = decode_lines(bytes(data), encoding)
    refuse_too_many_games(game_chunks(text), path, limits)
    fallback = fallback_game(path, default_game)
    notices: dict[int, int] = {}
    for index, first_line, chunk in encoding_notices(game_chunks(text), guessed, notices):
        game = parse_game(chunk, first_line, index, fallback, limits)
        yield with_encoding_notice(game, notices.get(index, 0))


def with_encoding_notice(game: ParsedGame, line: int = 1) -> ParsedGame:
    """The game with an NT03 finding at ``line`` (some of its lines were
    read as Windows-1252); the game as it is for line 0."""
    if not line:
        return game
    return ParsedGame(game.index, game.record, (make("NT03", Span(line, 1)), *game.findings))


def parse_text(
    text: str,
    *,
    path: str = "",
    default_game: str | None = None,
    limits: ReadLimits = DEFAULT_LIMITS,
) -> Iterator[ParsedGame]:
    """Every game of an archive's text, parsed lazily, numbered from 1.

    The game of each record comes from its Game tag, else from ``path``'s
    extension, else from ``default_game``.  Raises only
    :class:`NotationError` (for a ``default_game`` that names no game).
    """
    if not isinstance(text, str):
        raise NotationError(make("IO01", path=path or "<input>", reason=words("expected text")))
    fallback = fallback_game(path, default_game)
    for index, first_line, chunk in game_chunks(text):
        yield parse_game(chunk, first_line, index, fallback, limits)


def game_chunks(text: str) -> Iterator[tuple[int, int, str]]:
    """(game number, first line, text) of every game of an archive's text,
    unparsed: what :func:`parse_game` reads, for callers that parse games
    elsewhere (in worker processes, say)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:  # CRLF, and CR alone (old Mac files): a ';' comment ends there
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    index = 0
    for first_line, chunk, has_tags in split_games(text):
        if not has_tags and only_comments(chunk):
            continue
        index += 1
        yield index, first_line, chunk


def fallback_game(path: str, default_game: str | None) -> str | None:
    if default_game is not None:
        game = game_from_name(default_game)
        if game is None:
            raise NotationError(make("HD01", value=default_game))
    else:
        game = None
    return game_from_path(_COMPRESSED.sub("", path)) or game if path else game


_COMPRESSED: Final = re.compile(r"\.(?:gz|bz2|xz)\Z", re.IGNORECASE)  # club.hxl.gz: .hxl


def only_comments(text: str) -> bool:
    """Whether ``text`` holds nothing but blanks and comments."""
    pos, size = 0, len(text)
    while pos < size:
        end = match_end(_GAP.match(text, pos), pos)
        if end == pos:
            return False
        pos = end
    return True


# ---------------------------------------------------------------- splitting


def split_games(text: str) -> Iterator[tuple[int, str, bool]]:
    """(first line, text, has tags) of every game of an archive, in order.

    A line that starts with '[' starts the next game when movetext came
    before it, or a blank line after the current header; a '[' inside an
    open ``{`` comment does not.  Runs of blank lines, and the lines of
    movetext between one game's start and the next, are skipped at the
    speed of ``str.find`` rather than looked at one by one.

    A result followed on its line by a tag pair (``… D7XE7 * [Game
    "Hexalit"]``) ends its game there, and the next game begins at the
    ``[``: its text is that line from the ``[`` on, the part before it
    blanked (so that its columns are the file's), and the line is read as
    a tag line. A game that ends so is the only one whose text does not
    end with a line end (unless it is the last).
    """
    pos = start = pad = 0
    line_no = first_line = 1
    tags = blank = moves = in_comment = False
    size = len(text)
    while pos < size:
        if moves and not in_comment:
            # only a '[' line or a '{' can change anything now
            found = _TAG_LINE_OR_BRACE.search(text, pos)
            if found is None:
                break
            at = found.start()
            line_start = text.rfind("\n", pos, at) + 1 or pos
            line_no += text.count("\n", pos, line_start)
            pos = line_start
        elif in_comment:  # nothing counts until its '}', or the next game's tags
            close = text.find("}", pos)
            stop = size if close < 0 else text.find("\n", close) + 1 or size  # its line's end
            after = _NEXT_GAME.search(text, pos - 1, stop)
            if after is not None:  # the game ends here, damaged: the next one begins
                line_no += text.count("\n", pos, after.end())
                pos = after.end()
                yield first_line, EndsAtNextGame(" " * pad + text[start:pos]), tags
                start, first_line, pad = pos, line_no, 0
                tags = blank = moves = in_comment = False
                continue
            if close < 0:
                break
            line_start = text.rfind("\n", pos, close) + 1 or pos
            line_no += text.count("\n", pos, line_start)
            pos = line_start
        else:
            blanks = match_end(_SPACES.match(text, pos), pos)
            lines = text.count("\n", pos, blanks)
            if lines:  # whole blank lines
                blank = blank or tags
                line_no += lines
                pos = text.rindex("\n", pos, blanks) + 1
            if blanks == size:
                break
        end = text.find("\n", pos)
        if end < 0:
            end = size
        line = text[pos:end]
        head = line.lstrip()
        if head.startswith("[") and not in_comment:
            if moves or (tags and blank):
                yield first_line, " " * pad + text[start:pos], tags
                start, first_line, pad = pos, line_no, 0
                blank = moves = False
            tags = True
            # the tag lines right after it change nothing: skipped in one go
            after = _NOT_TAG_LINE.search(text, end + 1)
            if after is not None and after.start() > end + 1:
                line_no += text.count("\n", end + 1, after.start())
                end = after.start() - 1
        elif not head:
            blank = blank or tags
        else:
            moves = True
            next_game = _next_game_in(line, in_comment)
            if next_game is not None:  # a result, then the next game's tags
                yield first_line, " " * pad + text[start : pos + next_game], tags
                start, first_line, pad = pos + next_game, line_no, next_game
                tags, blank, moves, in_comment = True, False, False, False
            elif in_comment or "{" in line:
                in_comment = _still_in_comment(line, in_comment)
        pos = end + 1
        line_no += 1
    if start < size:
        yield first_line, " " * pad + text[start:], tags


def _next_game_in(line: str, in_comment: bool) -> int | None:
    """Where in a movetext ``line`` the next game begins: the ``[`` of a tag
    pair right after a result, outside comments (``in_comment``: a ``{``
    comment is open at its start); None when it holds none."""
    found = _RESULT_THEN_TAG.search(line) if "[" in line else None
    if found is None:
        return None
    pos = 0  # the comments are followed from here on, once each
    while found is not None:
        for m in _COMMENT_CHARS.finditer(line, pos, found.start()):
            char = m.group()
            if in_comment:
                in_comment = char != "}"
            elif char == "{":
                in_comment = True
            elif char == ";":
                return None  # the rest of the line is a comment
        pos = found.start()
        if not in_comment:
            return found.end()
        found = _RESULT_THEN_TAG.search(line, found.end())
    return None


def _still_in_comment(line: str, in_comment: bool) -> bool:
    """Whether a ``{`` comment is still open at the end of ``line``."""
    for m in _COMMENT_CHARS.finditer(line):
        char = m.group()
        if in_comment:
            in_comment = char != "}"
        elif char == "{":
            in_comment = True
        elif char == ";":
            break
    return in_comment


# ---------------------------------------------------------------- one game


def parse_game(
    chunk: str,
    first_line: int,
    index: int,
    fallback: str | None,
    limits: ReadLimits = DEFAULT_LIMITS,
) -> ParsedGame:
    """One game's text (starting at ``first_line`` of the file) to a ParsedGame.

    A game that :func:`split_games` ended inside an open comment, where the
    next game's tags begin, says so in its SY02 finding. A U+FFFD in the
    text (bytes the file's encoding cannot read) gives an NT04 finding at
    the first one.
    """
    if isinstance(chunk, EndsAtNextGame):
        parsed = parse_game(str(chunk), first_line, index, fallback, limits)
        return _ended_at_next_game(parsed, first_line + chunk.count("\n"))
    parsed = _read_game(chunk, first_line, index, fallback, limits)
    lost = chunk.find("\ufffd")  # at once for a text of Latin-1 characters only
    if lost < 0:
        return parsed
    finding = make("NT04", place(chunk, lost, first_line))
    return ParsedGame(parsed.index, parsed.record, (finding, *parsed.findings))


def parse_game_flat(
    chunk: str,
    first_line: int,
    index: int,
    fallback: str | None,
    limits: ReadLimits = DEFAULT_LIMITS,
) -> tuple[Record, FlatLine] | None:
    """One game's text read for checking: the record without its main line
    (tags, game, result, spans) and the main line as a :class:`.flat.FlatLine`
    (its variations flat lines of their own); None when the game is not
    plainly well formed (a header or syntax problem, a limit near, bytes
    that could not be decoded):
    then :func:`parse_game` reads it and says what is wrong."""
    if isinstance(chunk, EndsAtNextGame) or "\ufffd" in chunk:
        return None
    try:
        header = parse_header(chunk, first_line, limits=limits)
        game, problem = _game_of(header.tags, fallback)
        rest = header.rest
        if game is None or rest is None:
            return None
        flat = parse_movetext_flat(game, rest, limits)
    except Exception:  # noqa: BLE001 - the tree path reads it again and tells why
        return None
    if flat is None:
        return None
    span = record_span(chunk, first_line)
    main = Line((), (), Span(rest.line, rest.column, rest.end_line, rest.end_column))
    return Record(header.tags, game, main, flat.result, flat.result_span, index, span), flat


def _read_game(
    chunk: str, first_line: int, index: int, fallback: str | None, limits: ReadLimits
) -> ParsedGame:
    try:
        return _parse_game(chunk, first_line, index, fallback, limits)
    except BeyondLimit as beyond:
        record = empty_record((), None, index, record_span(chunk, first_line))
        return ParsedGame(index, record, (beyond.finding,))
    except Exception as error:  # a bug must not stop the rest of the archive
        finding = make(
            "SY01",
            Span(first_line, 1),
            message=words(
                "this game could not be read (internal error: {error})", error=repr(error)
            ),
        )
        return ParsedGame(index, None, (finding,))


def _ended_at_next_game(parsed: ParsedGame, end: int) -> ParsedGame:
    """``parsed`` with its SY02 finding telling that the game ends at line
    ``end``, where the next game begins."""
    findings = list(parsed.findings)
    for i, finding in enumerate(findings):
        if finding.code == "SY02" and finding.span is not None:
            message = words(
                "unclosed comment started at {line}:{column}; "
                "the game ends at line {end}, where the next game's tags begin",
                line=finding.span.line,
                column=finding.span.column,
                end=end,
            )
            findings[i] = Finding("SY02", message, finding.span, finding.ply, finding.action)
    return ParsedGame(parsed.index, parsed.record, tuple(findings))


def _parse_game(
    chunk: str, first_line: int, index: int, fallback: str | None, limits: ReadLimits
) -> ParsedGame:
    span = record_span(chunk, first_line)
    try:
        header = parse_header(chunk, first_line, limits=limits)
    except UnexpectedInput as error:
        finding = explain(error, chunk, first_line - 1, None)
        tags = _salvage_tags(chunk, error.pos_in_stream or 0, first_line)
        record = empty_record(tags, _game_of(tags, fallback)[0], index, span)
        return ParsedGame(index, record, (finding,))
    game, problem = _game_of(header.tags, fallback, span)
    if game is None or header.rest is None:
        record = empty_record(header.tags, game, index, span)
        return ParsedGame(index, record, (problem,) if problem else ())
    return _with_movetext(header, game, index, span, limits)


def _with_movetext(
    header: Header, game: str, index: int, span: Span, limits: ReadLimits
) -> ParsedGame:
    rest = header.rest
    assert rest is not None
    try:
        movetext = parse_movetext(game, rest, limits=limits)
    except (UnexpectedInput, SyntaxProblem) as error:
        text = movetext_text(rest)
        finding = explain(error, text, rest.line - 1, game)
        # the actions before the error stand: the record keeps them, the
        # finding says where reading stopped
        before = read_before_error(game, text, rest.line, error, finding, limits)
        if before is None:
            return ParsedGame(index, empty_record(header.tags, game, index, span), (finding,))
        movetext = before
        findings: tuple[Finding, ...] = (finding,)
    except BeyondLimit as beyond:
        record = empty_record(header.tags, game, index, span)
        return ParsedGame(index, record, (beyond.finding,))
    else:
        findings = ()
    main = Line(
        movetext.line.nodes,
        movetext.line.comments,
        Span(rest.line, rest.column, rest.end_line, rest.end_column),
    )
    record = Record(header.tags, game, main, movetext.result, movetext.result_span, index, span)
    return ParsedGame(index, record, findings)


def _game_of(
    tags: tuple[Tag, ...], fallback: str | None, span: Span | None = None
) -> tuple[str | None, Finding | None]:
    """The game a header names (or the fallback) and the header finding if none."""
    for tag in tags:
        if tag.name.lower() == "game":
            game = _GAME_NAMES.get(tag.value)
            if game is None:
                game = game_from_name(tag.value)
                if game is not None and len(_GAME_NAMES) < 100:
                    _GAME_NAMES[tag.value] = game
            if game is None:
                return None, make("HD01", tag.span, value=tag.value)
            return game, None
    if fallback is not None:
        return fallback, None
    return None, make("HD02", span)


_GAME_NAMES: Final[dict[str, str]] = {}  # Game tag values seen, and the game each names


def _salvage_tags(chunk: str, stop: int, first_line: int) -> tuple[Tag, ...]:
    """The well-formed tags before a header syntax error at ``stop``."""
    tags = []
    for m in _SALVAGE_TAG.finditer(chunk, 0, stop):
        line, column = line_column(chunk, m.start())
        end_line, end_column = line_column(chunk, m.end())
        name = tag_name(m.group(1))
        span = Span(first_line - 1 + line, column, first_line - 1 + end_line, end_column)
        tags.append(Tag(name, tag_value(name, unescape(m.group(2))), span))
    return tuple(tags)


def record_span(text: str, first_line: int) -> Span:
    """Where a game's text starts and ends in the file."""
    line, column = line_column(text, len(text) - len(text.lstrip()))
    body = text.rstrip()
    end_line, end_column = line_column(body, len(body))
    return Span(first_line - 1 + line, column, first_line - 1 + end_line, end_column)


def empty_record(tags: tuple[Tag, ...], game: str | None, index: int, span: Span) -> Record:
    return Record(tags, game, _NO_MOVES, None, None, index, span)


_NO_MOVES: Final = Line()  # a value: one serves every record without movetext


# ---------------------------------------------------------------- one action


def parse_action(text: str, game: str) -> Item:
    """One action or cube token of ``game``; raises :class:`NotationError`.

    ``parse_action(str(a), game) == a`` for every action ``a`` of that game.
    Move numbers, glyphs, comments and results are not actions.
    """
    name = game_from_name(game) if isinstance(game, str) else None
    if name is None:
        raise NotationError(make("HD01", value=game))
    if not isinstance(text, str):
        raise NotationError(
            make(
                "SY01",
                message=words("expected an action as text, not {type}", type=type(text).__name__),
            )
        )
    try:
        movetext = parse_movetext(name, Rest(text, 1, 1, 1, 1))
    except (UnexpectedInput, SyntaxProblem) as error:
        raise NotationError(explain(error, text, 0, name)) from None
    except BeyondLimit as beyond:
        raise NotationError(beyond.finding) from None
    nodes = movetext.line.nodes
    if len(nodes) != 1 or movetext.result or movetext.line.comments or _extras(nodes[0]):
        raise NotationError(
            make(
                "SY01",
                Span(1, 1),
                message=words("{text} is not one action of {game}", text=repr(text), game=name),
            )
        )
    return nodes[0].item


def _extras(node: Node) -> bool:
    return bool(node.number is not None or node.glyphs or node.comments or node.variations)


__all__ = [
    "FORCED_ENCODING",
    "GAMES",
    "ReadLimits",
    "decode",
    "decode_lines",
    "encoding_notices",
    "force_encoding",
    "forced_codec",
    "guessed_line",
    "offset_bytes",
    "game_from_name",
    "game_from_path",
    "looks_binary",
    "mostly_utf8",
    "only_comments",
    "parse_action",
    "parse_game_flat",
    "parse_text",
    "read_archive",
    "split_games",
    "text_encoding",
    "utf16_encoding",
]
