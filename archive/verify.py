"""Writers verify: a file written is read back with the reader and must hold
the games the writer put into it, in order.

A writer notes each game it writes (:meth:`Written.add`); :func:`verify`
then reads the file again a block at a time, as ``check`` reads it, and
compares the number of games and, game by game, a digest of the game and
its main-line actions (what :func:`.index.moves_key` hashes: comments,
tags, move numbers and spelling do not count). Only the 8-byte digests are
kept, never the texts. :func:`standalone` makes a game's text one that
reads the same after another game. Nothing here writes or renames a file.
"""

from __future__ import annotations

from collections.abc import Iterator

from hexhop.messages import _
from hexhop.notation.model import ParsedGame
from hexhop.notation.reader import fallback_game, parse_game
from hexhop.notation.streaming import file_chunks
from hexhop.records.errors import RecordsError
from hexhop.records.limits import read_limits
from hexhop.records.sources import Limits

from .facts import action_text
from .index import moves_key

DIGEST = 8  # bytes of each game's digest


class WrittenDiffers(RecordsError):
    """A file written does not read back as the games written: exit 2; the
    writer leaves nothing of it behind."""

    exit_code = 2

    def __init__(self, path: str, index: int, written: int, read: int) -> None:
        self.path, self.index = path, index
        super().__init__(
            _(
                "cannot write {path}: it does not read back as written: game {index} differs "
                "({written} written, {read} read back); nothing was written"
            ).format(path=path, index=index, written=written, read=read)
        )


def game_digest(parsed: ParsedGame) -> bytes:
    """The digest of a game as read: its game and its main line's actions
    and cube events in canonical spelling, without ``^`` and ``+``."""
    record = parsed.record
    if record is None:
        return b"\0" * DIGEST  # a header that could not be read
    actions = (action_text(node.item) for node in record.main.nodes)
    return moves_key(record.game, actions).to_bytes(DIGEST, "little", signed=True)


class Written:
    """The games a writer put into a file, in order: a digest of each
    (8 bytes a game, in one ``bytearray``)."""

    def __init__(self) -> None:
        self.digests = bytearray()

    def __len__(self) -> int:
        return len(self.digests) // DIGEST

    def add(self, parsed: ParsedGame) -> None:
        """Note ``parsed`` as the next game written."""
        self.digests += game_digest(parsed)

    def digest(self, index: int) -> bytes:
        """The digest of game ``index`` (counted from 1)."""
        return bytes(self.digests[(index - 1) * DIGEST : index * DIGEST])


def verify(
    path: str, written: Written, *, shown: str | None = None, default_game: str | None = None
) -> None:
    """Read the file at ``path`` back (its game from its name as ``shown``,
    else ``default_game``, as a reader of the file will tell it) and raise
    :class:`WrittenDiffers` naming ``shown`` and the first game that is not
    the one written (or is missing, or was not written)."""
    shown = shown if shown is not None else path
    fallback = fallback_game(shown.rsplit(":", 1)[-1], default_game)
    read = 0
    for index, digest in read_back(path, fallback):
        read = index
        if index > len(written) or digest != written.digest(index):
            raise WrittenDiffers(shown, index, len(written), _count(path, fallback))
    if read != len(written):
        raise WrittenDiffers(shown, read + 1, len(written), read)


def _count(path: str, fallback: str | None) -> int:
    return sum(1 for _game in read_back(path, fallback))


def read_back(path: str, fallback: str | None) -> Iterator[tuple[int, bytes]]:
    """(number, digest) of every game of the file at ``path``, read a block
    at a time as ``check`` reads it (:func:`.streaming.file_chunks`)."""
    limits = read_limits(Limits())
    chunks, _windows_1252 = file_chunks(path)
    for index, first_line, chunk in chunks:
        yield index, game_digest(parse_game(chunk, first_line, index, fallback, limits))


def standalone(data: bytes, parsed: ParsedGame) -> bytes | None:
    """A game's bytes as they go into a file of several games, so that it
    reads back as the same game after any other: with a ``[Game "…"]``
    line first when its game came from elsewhere (its file's name,
    ``--game``). None when it does not start with a tag line (after
    another game it would be read as part of that game) or its game
    cannot be told (it would be read as the game of the file's name)."""
    record = parsed.record
    if record is not None and record.game is None:
        return None
    if record is not None and game_tag_missing(parsed):
        end = b"\r\n" if b"\r\n" in data else b"\n"
        data = f'[Game "{record.game}"]'.encode() + end + data
    return data if data.startswith(b"[") else None


def game_tag_missing(parsed: ParsedGame) -> bool:
    """Whether the game was told from elsewhere than its Game tag (its
    file's name, ``--game``): written among other games, it needs one."""
    record = parsed.record
    return record is not None and record.game is not None and record.tag("Game") is None


def left_out_message(path: str, line: int, index: int) -> str:
    """What a writer tells of a game :func:`standalone` leaves out."""
    return _(
        "{where}: game {index} left out: it has no header, "
        "and its game cannot be told (--game names it)"
    ).format(where=f"{path}:{line}", index=index)
