"""An archive's games from its bytes, decoded a block at a time.

:func:`stream_chunks` gives what ``game_chunks(decode(data)[0])`` gives,
without ever holding the whole text next to the bytes: the text of a
block is split into games, and only the last game of a block (perhaps
cut off) is kept for the next one, and so is a last line not ended yet. A
game starts at a ``[`` line, where :func:`.reader.split_games` starts
afresh, so splitting again from the start of the last game gives what
splitting the whole text gives.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterator

from .reader import (
    FORCED_ENCODING,
    decode_lines,
    encoding_notices,
    only_comments,
    split_games,
    utf16_encoding,
)

BLOCK = 64 * 1024  # bytes decoded at a time (larger blocks leave the heap larger)

_BOM = b"\xef\xbb\xbf"
Chunk = tuple[int, int, str]  # (game number, first line, text), as game_chunks gives them


def stream_chunks(
    data: bytes, block: int = BLOCK, encoding: str | None = None
) -> tuple[Iterator[Chunk], dict[int, int]]:
    """The games of ``data`` as ``game_chunks`` gives them, and the games
    that carry an NT03 notice (game number: line), filled in as the games
    are given (:func:`.reader.encoding_notices`); ``encoding`` as
    :func:`block_chunks` takes it."""
    notices: dict[int, int] = {}
    if encoding is None:
        encoding = FORCED_ENCODING[0] or ""
    if encoding or not _utf8(data):
        text, guessed = decode_lines(data, encoding)
        return encoding_notices(_chunks(iter([text]), block), guessed, notices), notices
    codec, start = utf16_encoding(data), 2
    if codec is None:
        codec, start = "utf-8", len(_BOM) if data.startswith(_BOM) else 0
    texts = _texts(data, codec, "replace", start, block)
    return _chunks(texts, block), notices


def _utf8(data: bytes) -> bool:
    """Whether ``data`` (after a byte order mark) is UTF-8 without a fault,
    or UTF-16: then it is read a block at a time."""
    if data.isascii() or utf16_encoding(data) is not None:
        return True
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    view = memoryview(data)
    try:
        for pos in range(0, len(data), BLOCK):
            decoder.decode(view[pos : pos + BLOCK])
        decoder.decode(b"", True)
    except UnicodeDecodeError:
        return False
    return True


def file_chunks(path: str, block: int = BLOCK) -> tuple[Iterator[Chunk], dict[int, int]]:
    """What :func:`stream_chunks` gives for the bytes of the file at
    ``path``, read a block at a time, so that the file is never held whole
    (to read back a file just written, say: its encoding is told from its
    bytes, whatever ``--encoding`` named for the files read). Raises OSError."""
    with open(path, "rb") as handle:
        head = handle.read(4)
    return block_chunks(head, lambda start: _file_blocks(path, start, block), block, "")


def block_chunks(
    head: bytes,
    blocks: Callable[[int], Iterator[bytes]],
    block: int = BLOCK,
    encoding: str | None = None,
) -> tuple[Iterator[Chunk], dict[int, int]]:
    """What :func:`stream_chunks` gives for bytes that start with ``head``
    (their first four, or all of fewer) and that ``blocks(start)`` gives a
    block at a time from ``start`` on (as often as asked: once to tell the
    encoding, once to read), so that they are never held whole when they
    are UTF-8 (or UTF-16); bytes that are not, or read with a named
    ``encoding``, are decoded whole (:func:`.reader.decode_lines`: None
    for the run's ``--encoding``, ``""`` to tell it from the bytes whatever
    was named)."""
    if encoding is None:
        encoding = FORCED_ENCODING[0] or ""
    codec = utf16_encoding(head)
    start = 2
    if codec is None or encoding:
        start = len(_BOM) if head.startswith(_BOM) else 0
        codec = "utf-8"
        if encoding or not _utf8_blocks(blocks(start)):
            return stream_chunks(b"".join(blocks(0)), block, encoding)
    return _chunks(_block_texts(blocks(start), codec), block), {}


def _utf8_blocks(blocks: Iterator[bytes]) -> bool:
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    try:
        for data in blocks:
            decoder.decode(data)
        decoder.decode(b"", True)
    except UnicodeDecodeError:
        return False
    return True


def _file_blocks(path: str, start: int, block: int) -> Iterator[bytes]:
    with open(path, "rb") as handle:
        handle.seek(start)
        while data := handle.read(block):
            yield data


def _block_texts(blocks: Iterator[bytes], codec: str) -> Iterator[str]:
    decoder = codecs.getincrementaldecoder(codec)("replace")
    for data in blocks:
        yield decoder.decode(data)
    yield decoder.decode(b"", final=True)


def _texts(data: bytes, codec: str, errors: str, start: int, block: int) -> Iterator[str]:
    """The text of ``data[start:]``, a block at a time."""
    decoder = codecs.getincrementaldecoder(codec)(errors)
    view = memoryview(data)
    for pos in range(start, len(data), block):
        yield decoder.decode(view[pos : pos + block], final=pos + block >= len(data))


def _chunks(texts: Iterator[str], block: int) -> Iterator[Chunk]:
    """The games of the text of ``texts``, numbered, as ``game_chunks`` does."""
    index = 0
    lines_before = 0  # lines of the text before ``rest``
    rest = ""  # the last game so far, perhaps not whole
    cr = ""  # a CR at the end of a block: a CRLF may go on in the next
    pending: list[str] = []
    size = 0
    begun = False
    for text in texts:
        text = cr + text
        cr = "\r" if text.endswith("\r") else ""
        pending.append(text[:-1] if cr else text)
        size += len(text)
        # a block at least as long as the last game: splitting it again stays linear
        if size < max(block, len(rest)):
            continue
        joined = _joined(rest, pending, begun)
        begun, pending, size = True, [], 0
        # a line not ended yet waits for the rest of it: cut off after a tag,
        # it would look like a whole tag line (the next game, even in a comment)
        cut = joined.rfind("\n") + 1
        pieces = list(split_games(joined[:cut])) if cut else []
        if not pieces:
            rest = joined
            continue
        for first_line, chunk, tags in pieces[:-1]:
            if tags or not only_comments(chunk):
                index += 1
                yield index, lines_before + first_line, chunk
        first_line, rest, _tags = pieces[-1]
        rest += joined[cut:]
        lines_before += first_line - 1
    pending.append(cr)
    for first_line, chunk, tags in split_games(_joined(rest, pending, begun)):
        if tags or not only_comments(chunk):
            index += 1
            yield index, lines_before + first_line, chunk


def _joined(rest: str, pending: list[str], begun: bool) -> str:
    """``rest`` and the new text, CRs made line ends (and a byte order mark
    at the very start dropped), as ``game_chunks`` does."""
    text = "".join(pending)
    if not begun and text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:  # CRLF, and CR alone (old Mac files)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return rest + text
