"""Where records come from: files, directories, zip and tar archives, stdin.

Tar archives may be compressed with gzip, bzip2 or xz (``.tar.gz``,
``.tgz``, ``.tar.bz2``, ``.tar.xz``…), and a single record file with one of
them too (``club.hxl.gz``, ``club.trg.bz2``, ``club.hpf.xz``).

Everything is read in place: archives are never extracted to disk, and
nothing here writes anywhere. A source that cannot be read becomes a
:class:`Source` with an ``error`` instead of stopping the run. Every read
stops at its limit, whatever a file's size or an archive's header claims,
and nothing here blocks on a FIFO.
"""

from __future__ import annotations

import bz2
import glob
import gzip
import io
import lzma
import os
import stat
import sys
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from typing import IO, Any, Literal

from hexhop.messages import _
from hexhop.notation.forced import FORCED_ENCODING
from hexhop.notation.games import record_extensions
from hexhop.notation.limits import DEFAULT_LIMITS

from .errors import ReadError
from .globs import matches as glob_matches

RECORD_EXTENSIONS = record_extensions()
ARCHIVE_EXTENSIONS = (
    ".zip",
    ".tar",
    ".tar.gz",
    ".tgz",
    ".tar.bz2",
    ".tbz2",
    ".tbz",
    ".tar.xz",
    ".txz",
)
# one record file compressed: club.hxl.gz (its game is told from .hxl)
COMPRESSORS: dict[str, Callable[[IO[bytes]], io.BufferedIOBase]] = {
    ".gz": lambda raw: gzip.GzipFile(fileobj=raw, mode="rb"),  # noqa: SIM115  # closed by the reader
    ".bz2": lambda raw: bz2.BZ2File(raw, "rb"),  # noqa: SIM115
    ".xz": lambda raw: lzma.LZMAFile(raw, "rb"),  # noqa: SIM115
}
COMPRESSED_EXTENSIONS = tuple(e + c for e in RECORD_EXTENSIONS for c in COMPRESSORS)


@dataclass(frozen=True)
class Limits:
    """Upper bounds that keep hostile input from eating the machine.

    The byte limits are applied here, while reading; the others while each
    game is scanned, by the notation reader (:func:`.limits.read_limits`;
    README, "Safety and limits").
    """

    max_file_bytes: int = 64 * 1024 * 1024
    max_member_bytes: int = 64 * 1024 * 1024
    max_archive_bytes: int = 1024 * 1024 * 1024
    # the bounds of a file's games and of one game: the notation reader's,
    # the one place that gives them
    max_games: int = DEFAULT_LIMITS.max_games  # per file
    max_actions: int = DEFAULT_LIMITS.max_actions  # per game, variations included
    max_comment: int = DEFAULT_LIMITS.max_comment  # characters in one comment
    max_depth: int = DEFAULT_LIMITS.max_depth  # variations inside variations (MAX_DEPTH at most)
    max_tag_value: int = DEFAULT_LIMITS.max_tag_value  # characters in one tag value
    max_token: int = DEFAULT_LIMITS.max_token  # characters in one action, move number or tag name


_BLOCK = 64 * 1024  # bytes an OpenFile gives at a time
_PREAD = hasattr(os, "pread")  # not on Windows: files are read whole there


class OpenFile:
    """A large regular record file kept open, to be read a block at a time
    instead of held whole (what ``iter_sources(..., blocks=True)`` gives
    ``check``: its memory then stays flat however large one file is).

    Its size is the one the file had when it was opened; bytes written to
    it later are not read. The descriptor is closed with the object.
    """

    __slots__ = ("fd", "size")

    def __init__(self, fd: int, size: int):
        self.fd = fd
        self.size = size

    def __len__(self) -> int:
        return self.size

    def head(self, count: int) -> bytes:
        """The first ``count`` bytes (fewer in a shorter file)."""
        return os.pread(self.fd, min(count, self.size), 0)

    def blocks(self, start: int = 0, block: int = _BLOCK) -> Iterator[bytes]:
        """The bytes from ``start`` to the size it was opened with, a block at a time."""
        pos = start
        while pos < self.size:
            data = os.pread(self.fd, min(block, self.size - pos), pos)
            if not data:  # the file shrank
                return
            yield data
            pos += len(data)

    def read(self) -> bytes:
        """The bytes whole (to send the file to another process)."""
        return b"".join(self.blocks())

    def __del__(self) -> None:
        with suppress(OSError):
            os.close(self.fd)


@dataclass(frozen=True)
class Source:
    """One record file's bytes, or why they could not be read.

    ``too_large`` is (size, limit) for a file larger than the limit.
    ``opened`` (then ``data`` is None) is a large file left open to be
    read a block at a time; it is only given when asked for
    (:func:`iter_sources`), and a copy sent to another process holds the
    bytes instead. ``encoding`` is the codec the user named to read it
    with (``--encoding``), None to tell it from the bytes.
    """

    path: str
    data: bytes | None = None
    error: str | None = None
    too_large: tuple[int, int] | None = None
    opened: OpenFile | None = field(default=None, compare=False, repr=False)
    encoding: str | None = None

    @property
    def size(self) -> int:
        """How many bytes there are to read (0 for a source that cannot be read)."""
        if self.data is not None:
            return len(self.data)
        return self.opened.size if self.opened is not None else 0

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        data = self.data if self.opened is None else self.opened.read()
        return (Source, (self.path, data, self.error, self.too_large, None, self.encoding))


def iter_sources(
    paths: list[str],
    *,
    globs: tuple[str, ...] = (),
    limits: Limits = Limits(),
    blocks: bool = False,
) -> Iterator[Source]:
    """Every record file named by ``paths``, in a stable order.

    A path may name one member of an archive as the reports name it:
    ``club.zip:games/a.hxl``. With ``blocks``, a regular uncompressed file
    of at least ``BLOCKS_FROM`` bytes is left open (:class:`OpenFile`) for
    a reader that takes it a block at a time, instead of being read whole.
    Each source carries the encoding named for this run
    (:func:`hexhop.notation.reader.force_encoding`), if any."""
    forced = FORCED_ENCODING[0]
    for source in _sources(paths, globs, limits, blocks):
        yield source if forced is None else replace(source, encoding=forced)


def _sources(
    paths: list[str], globs: tuple[str, ...], limits: Limits, blocks: bool
) -> Iterator[Source]:
    least = BLOCKS_FROM if blocks else None
    for path in paths:
        member = _member_path(path)
        if path == "-":
            yield read_source(path, limits.max_file_bytes)
        elif member is not None:
            yield from list(_members_named(*member, limits)) or [_member(*member, limits)]
        elif os.path.isdir(path):
            yield from _directory(path, globs, limits, least)
        elif is_archive(path):
            yield from _archive(path, globs, limits)
        else:
            yield read_source(path, limits.max_file_bytes, least)


BLOCKS_FROM = 1024 * 1024  # a file this large is read a block at a time when asked


def read_source(
    path: str, limit: int = Limits.max_file_bytes, open_from: int | None = None
) -> Source:
    """The bytes of one file named by the user (``-``: standard input), at
    most ``limit`` of them.

    A FIFO or a device is read too (``<(zcat games.gz)`` is a pipe), but a
    FIFO that nobody writes to reads as empty instead of blocking, and
    ``/dev/zero`` stops at the limit.

    A compressed record file (``club.hxl.gz``, also ``.bz2`` and ``.xz``)
    is unpacked as it is read: ``limit`` bounds both the file and what it
    unpacks to, so a compression bomb stops at the limit too.

    A regular uncompressed file of at least ``open_from`` bytes is left
    open (:class:`OpenFile`) instead of read.
    """
    if path == "-":
        data = _read_limited(sys.stdin.buffer, limit)
        return Source("<stdin>", data, None if data is not None else _beyond(limit))
    if "\0" in path:  # no file has such a name (a path from an index written by hand)
        return Source(path, error=_("the name holds a NUL character"))
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | _NOCTTY)
    except OSError as error:
        return Source(path, error=_reason(error))
    try:
        with open(fd, "rb") as handle:
            info = os.fstat(fd)
            if stat.S_ISREG(info.st_mode) and info.st_size > limit:
                return Source(
                    path,
                    error=_("too large: {size} bytes (limit {limit})").format(
                        size=info.st_size, limit=limit
                    ),
                    too_large=(info.st_size, limit),
                )
            if _NONBLOCK:  # opened without waiting for a writer; now read as usual
                os.set_blocking(fd, True)
            compressor = compressor_of(path)
            if compressor is not None:
                return _unpacked(path, compressor(handle), limit)
            if (
                open_from is not None
                and _PREAD
                and stat.S_ISREG(info.st_mode)
                and info.st_size >= open_from
            ):
                return Source(path, opened=OpenFile(os.dup(fd), info.st_size))
            size = info.st_size if stat.S_ISREG(info.st_mode) else 0
            data = _read_limited(handle, limit, size)
    except OSError as error:
        return Source(path, error=_reason(error))
    return Source(path, data, None if data is not None else _beyond(limit))


def compressor_of(path: str) -> Callable[[IO[bytes]], io.BufferedIOBase] | None:
    """How to unpack the record file ``path`` when its name says it is
    compressed (``club.hxl.gz``), else None."""
    name = path.lower()
    if not name.endswith(COMPRESSED_EXTENSIONS):
        return None
    return COMPRESSORS[os.path.splitext(name)[1]]


def _unpacked(path: str, stream: io.BufferedIOBase, limit: int) -> Source:
    """The unpacked bytes of ``stream``, at most ``limit`` of them."""
    try:
        with stream:
            data = _read_limited(stream, limit)
    except _DAMAGE as error:
        return Source(path, error=_("damaged compressed file: {error}").format(error=error))
    if data is None:
        return Source(path, error=_("unpacks to more than {limit} bytes").format(limit=limit))
    return Source(path, data)


_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # not on Windows, which has no FIFOs to wait on
_NOCTTY = getattr(os, "O_NOCTTY", 0)


def read_input(path: str, limit: int = Limits.max_file_bytes) -> bytes:
    """The bytes of ``path`` (``-`` for standard input), at most ``limit``
    of them; :class:`ReadError` when it cannot be read."""
    source = read_source(path, limit)
    if source.data is None:
        raise ReadError(_("cannot read {path}: {reason}").format(path=path, reason=source.error))
    return source.data


def read_record(path: str, limit: int = Limits.max_file_bytes) -> tuple[str, bytes]:
    """The name and bytes of the one record file ``path`` names, for the
    commands that work on one file: a file, ``-`` (standard input), a
    member of an archive written as the check report names it
    (``club.zip:games/a.hxl``), or an archive that holds one record file.

    :class:`ReadError` when it cannot be read, for binary data (as check
    tells it, IO02), and for a folder or an archive of several record
    files, with the names to choose from.
    """
    from hexhop.notation.findings import make
    from hexhop.notation.reader import looks_binary

    name, data = _one_record(path, limit)
    if looks_binary(data):
        raise ReadError(make("IO02", None, path=name).message)
    return name, data


def _one_record(path: str, limit: int) -> tuple[str, bytes]:
    member = _member_path(path)
    if member is not None:
        source = _member(*member, Limits(max_file_bytes=limit, max_member_bytes=limit))
        return source.path, _data(source)
    if os.path.isdir(path):
        raise ReadError(_("{path} is a folder: name one record file in it").format(path=path))
    if path != "-" and is_archive(path):
        return _only_member(path, limit)
    return path, read_input(path, limit)


def _member_path(path: str) -> tuple[str, str] | None:
    """(archive, member) when ``path`` is ``ARCHIVE:MEMBER`` and no file of that name exists."""
    if path == "-" or os.path.lexists(path):
        return None
    archive, _, member = path.partition(":")
    if member and is_archive(archive) and os.path.isfile(archive):
        return archive, member
    return None


def _member(archive: str, member: str, limits: Limits) -> Source:
    """One member of an archive, or why it cannot be read (of an archive
    inside it, ``outer.zip:inner.zip``: its one record file)."""
    sources = list(_members_named(archive, member, limits))
    if len(sources) == 1 or sources and sources[0].path in (archive, f"{archive}:{member}"):
        return sources[0]
    name = f"{archive}:{member}"
    if sources:
        return Source(
            name,
            error=_(
                "{archive} holds {count} record files: name one as ARCHIVE:MEMBER, like {example}"
            ).format(archive=name, count=len(sources), example=sources[0].path),
        )
    return Source(
        name, error=_("{archive} holds no file {member}").format(archive=archive, member=member)
    )


def _members_named(archive: str, member: str, limits: Limits) -> Iterator[Source]:
    """The sources that ``archive:member`` names: the member, the record
    files of an archive inside it, or the archive's damage."""
    name = f"{archive}:{member}"
    if is_archive(member):
        for source in _archive(archive, (), limits):
            if source.path == archive or source.path.startswith(name + ":"):
                yield source
        return
    for source in _archive(archive, (glob.escape(member),), limits):
        if source.path in (name, archive):  # the member, or the archive's damage
            yield source
            return


def _only_member(archive: str, limit: int) -> tuple[str, bytes]:
    limits = Limits(max_file_bytes=limit, max_member_bytes=limit)
    sources = list(iter_sources([archive], limits=limits))
    if len(sources) == 1:
        return sources[0].path, _data(sources[0])
    if not sources:
        raise ReadError(
            _("{archive} holds no record file ({globs})").format(
                archive=archive, globs=", ".join(f"*{e}" for e in record_extensions())
            )
        )
    raise ReadError(
        _(
            "{archive} holds {count} record files: name one as ARCHIVE:MEMBER, "
            "like {example} (hexhop ls {archive} lists them)"
        ).format(archive=archive, count=len(sources), example=sources[0].path)
    )


def _data(source: Source) -> bytes:
    if source.data is None:
        raise ReadError(
            _("cannot read {path}: {reason}").format(path=source.path, reason=source.error)
        )
    return source.data


def wanted(name: str, globs: tuple[str, ...]) -> bool:
    """Whether a file inside a directory or archive is a record to check."""
    base = name.rsplit("/", 1)[-1]
    if globs:
        return any(glob_matches(g, base) or glob_matches(g, name) for g in globs)
    return base.lower().endswith(RECORD_EXTENSIONS)


def is_archive(path: str) -> bool:
    """Whether ``path`` names a zip or a tar archive (perhaps compressed:
    .tar.gz, .tgz, .tar.bz2, .tbz2, .tar.xz, .txz), by its name."""
    return path.lower().endswith(ARCHIVE_EXTENSIONS)


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def _beyond(limit: int) -> str:
    return _("more than {limit} bytes (limit {limit})").format(limit=limit)


def _not_regular(path: str) -> str | None:
    """Why ``path`` is not read from a folder or as an archive, or None
    when it is a regular file (or cannot be looked at: opening it says why)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode):
        return None
    kind = (
        _("a FIFO")
        if stat.S_ISFIFO(mode)
        else _("a device")
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
        else _("a socket")
        if stat.S_ISSOCK(mode)
        else _("a special file")
    )
    return _("not a regular file ({kind})").format(kind=kind)


def _directory(
    root: str, globs: tuple[str, ...], limits: Limits, open_from: int | None = None
) -> Iterator[Source]:
    """Regular files under ``root``, sorted; symlinks that lead outside it are
    skipped, and FIFOs and devices are reported, not read."""
    real_root = os.path.realpath(root)
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            if not _inside(path, real_root):
                continue
            archive = is_archive(name)
            record = wanted(path.replace(os.sep, "/"), globs)
            if not (
                archive or record or not globs and name.lower().endswith(COMPRESSED_EXTENSIONS)
            ):
                continue
            special = _not_regular(path)
            if special is not None:
                yield Source(path, error=special)
            elif archive:
                yield from _archive(path, globs, limits)
            else:
                yield read_source(path, limits.max_file_bytes, open_from)


def _inside(path: str, real_root: str) -> bool:
    real = os.path.realpath(path)
    return real == real_root or real.startswith(real_root + os.sep)


# What the standard library's zip and tar readers raise on damaged input.
_DAMAGE = (
    OSError,
    EOFError,
    ValueError,
    RuntimeError,
    NotImplementedError,
    IndexError,
    KeyError,
    OverflowError,
    zipfile.BadZipFile,
    tarfile.TarError,
    zlib.error,
    lzma.LZMAError,
)


MAX_NESTING = 3  # archives read inside one another: the outer one and two levels in it


@dataclass
class _Budget:
    """The bytes an archive may still unpack, across every archive inside it."""

    left: int


@dataclass(frozen=True)
class _Nest:
    """Where an archive is: its name as reports give it (``outer.zip`` or
    ``outer.zip:inner.zip``), its member path inside the outermost archive
    (``inner.zip:``, for ``--glob``), how deep it is (the outer one: 1) and
    the budget they all share."""

    name: str
    prefix: str
    depth: int
    budget: _Budget


def _archive(path: str, globs: tuple[str, ...], limits: Limits) -> Iterator[Source]:
    special = _not_regular(path)
    if special is not None:  # zip and tar are read with seeks: a FIFO would block
        yield Source(path, error=special)
        return
    nest = _Nest(path, "", 1, _Budget(limits.max_archive_bytes))
    try:
        yield from _members(path, nest, globs, limits)
    except _DAMAGE as error:
        yield Source(path, error=_("cannot read the archive: {error}").format(error=error))


def _members(
    file: str | IO[bytes], nest: _Nest, globs: tuple[str, ...], limits: Limits
) -> Iterator[Source]:
    """The record files of the zip or tar archive ``file`` (a path, or the
    bytes of an archive inside another), told by its name."""
    if nest.name.lower().endswith(".zip"):
        yield from _zip_members(file, nest, globs, limits)
    else:
        yield from _tar_members(file, nest, globs, limits)


_Kind = Literal["archive", "compressed", "record"]  # what a member is read as, by its name


def _kind(member: str, nest: _Nest, globs: tuple[str, ...]) -> _Kind | None:
    """How to read the member ``member`` of an archive, or None to pass it
    over: an archive inside is always read (its members are chosen by
    ``globs``), a compressed record file (``a.hxl.gz``) as a folder's is."""
    if is_archive(member):
        return "archive"
    chosen = wanted(member, globs) or bool(globs) and wanted(nest.prefix + member, globs)
    if member.lower().endswith(COMPRESSED_EXTENSIONS) and (chosen or not globs):
        return "compressed"
    return "record" if chosen else None


def _too_deep(name: str, nest: _Nest) -> Source | None:
    """The note for an archive inside archives deeper than :data:`MAX_NESTING`."""
    if nest.depth < MAX_NESTING:
        return None
    return Source(
        name,
        error=_(
            "an archive inside {depth} archives: not read (archives are read {limit} deep)"
        ).format(depth=nest.depth, limit=MAX_NESTING),
    )


def _read_member(
    name: str, data: bytes, kind: _Kind, nest: _Nest, globs: tuple[str, ...], limits: Limits
) -> Iterator[Source]:
    """The sources of one member's bytes: itself, its unpacked bytes, or
    the members of the archive it is."""
    if kind == "record":
        yield Source(name, data)
        return
    if kind == "compressed":
        limit = min(limits.max_member_bytes, nest.budget.left)
        source = _unpacked(
            name, COMPRESSORS[os.path.splitext(name.lower())[1]](io.BytesIO(data)), limit
        )
        nest.budget.left -= source.size
        yield source
        return
    inner = _Nest(name, f"{nest.prefix}{name.rsplit(':', 1)[-1]}:", nest.depth + 1, nest.budget)
    try:
        yield from _members(io.BytesIO(data), inner, globs, limits)
    except _DAMAGE as error:
        yield Source(name, error=_("cannot read the archive: {error}").format(error=error))


def _zip_members(
    file: str | IO[bytes], nest: _Nest, globs: tuple[str, ...], limits: Limits
) -> Iterator[Source]:
    """The members, each read on its own: a damaged one is one error and
    the others are still read (the central directory says where they are)."""
    budget = nest.budget
    with _zip_file(file) as archive:
        for info in sorted(archive.infolist(), key=lambda i: i.filename):
            if not info.filename or info.is_dir():
                continue
            kind = _kind(info.filename, nest, globs)
            if kind is None:
                continue
            name = f"{nest.name}:{info.filename}"
            deep = _too_deep(name, nest) if kind == "archive" else None
            if deep is not None:
                yield deep
                continue
            limit = min(limits.max_member_bytes, budget.left)
            if info.file_size > limit:
                yield Source(
                    name,
                    error=_("too large when unpacked: {size} bytes (limit {limit})").format(
                        size=info.file_size, limit=limit
                    ),
                )
                continue
            try:
                with archive.open(info) as member:
                    data = _read_limited(member, limit)
            except _DAMAGE as error:
                yield Source(name, error=_("damaged archive member: {error}").format(error=error))
                continue
            if data is None:
                yield Source(
                    name, error=_("unpacks to more than {limit} bytes").format(limit=limit)
                )
                continue
            budget.left -= len(data)
            yield from _read_member(name, data, kind, nest, globs, limits)


@contextmanager
def _zip_file(file: str | IO[bytes]) -> Iterator[zipfile.ZipFile]:
    """The zip archive ``file`` (a path or bytes); one whose names flagged
    UTF-8 are not all UTF-8 is read with those names as names without the
    flag are (:mod:`.zip_names`), instead of not at all."""
    try:
        archive = zipfile.ZipFile(file)
    except UnicodeDecodeError:
        from .zip_names import FlagCleared, utf8_flag_patches

        with open(file, "rb") if isinstance(file, str) else _kept_open(file) as handle:
            handle.seek(0)
            patches = utf8_flag_patches(handle)
            if not patches:
                raise
            with zipfile.ZipFile(FlagCleared(handle, patches)) as archive:
                yield archive
        return
    with archive:
        yield archive


@contextmanager
def _kept_open(file: IO[bytes]) -> Iterator[IO[bytes]]:
    yield file


def _tar_members(
    file: str | IO[bytes], nest: _Nest, globs: tuple[str, ...], limits: Limits
) -> Iterator[Source]:
    budget, path = nest.budget, nest.name
    mode = _tar_mode(file)
    opened = (
        _TarFile.open(file, mode)
        if isinstance(file, str)
        else _TarFile.open(fileobj=file, mode=mode)
    )
    with opened as archive:
        archive.scan_limit = limits.max_member_bytes
        while True:  # in archive order: tar files are streams
            try:
                info = archive.next()
            except _DAMAGE as error:  # the stream itself is damaged: nothing more to read
                yield from _tar_damage(path, archive)
                yield Source(
                    path,
                    error=_("cannot read the rest of the archive: {error}").format(error=error),
                )
                return
            archive.members.clear()  # type: ignore[attr-defined]  # only the current member is needed
            yield from _tar_damage(path, archive)
            if info is None:
                return
            kind = _kind(info.name, nest, globs) if info.isfile() else None
            if kind is None:
                continue
            name = f"{path}:{info.name}"
            deep = _too_deep(name, nest) if kind == "archive" else None
            if deep is not None:
                yield deep
                continue
            limit = min(limits.max_member_bytes, budget.left)
            if info.size > limit:
                yield Source(
                    name,
                    error=_("too large: {size} bytes (limit {limit})").format(
                        size=info.size, limit=limit
                    ),
                )
                continue
            try:
                member = archive.extractfile(info)
                data = _read_limited(member, limit) if member else None
            except _DAMAGE as error:
                yield Source(name, error=_("damaged archive member: {error}").format(error=error))
                continue
            if data is None:
                yield Source(name, error=_("cannot read this member"))
                continue
            budget.left -= len(data)
            yield from _read_member(name, data, kind, nest, globs, limits)


def _tar_mode(file: str | IO[bytes]) -> _TarMode:
    """How to open a tar archive, from its first bytes (a ``.tar`` may be
    compressed): tried blindly, a compressed archive would first be read
    as a plain one with a damaged first header."""
    if isinstance(file, str):
        with open(file, "rb") as handle:
            magic = handle.read(6)
    else:
        magic = file.read(6)
        file.seek(0)
    for start, mode in _COMPRESSED:
        if magic.startswith(start):
            return mode
    return "r:"


_TarMode = Literal["r:", "r:gz", "r:bz2", "r:xz"]
_COMPRESSED: tuple[tuple[bytes, _TarMode], ...] = (
    (b"\x1f\x8b", "r:gz"),
    (b"BZh", "r:bz2"),
    (b"\xfd7zXZ\x00", "r:xz"),
)


def _tar_damage(path: str, archive: _TarFile) -> Iterator[Source]:
    while archive.damage:
        offset, reason = archive.damage.pop(0)
        yield Source(f"{path}:<byte {offset}>", error=reason)


# Long names and pax records are a few kilobytes; tarfile would read any
# size claimed into memory.
MAX_EXTENDED_HEADER = 1024 * 1024
_EXTENDED = (
    tarfile.GNUTYPE_LONGNAME,
    tarfile.GNUTYPE_LONGLINK,
    tarfile.XHDTYPE,
    tarfile.XGLTYPE,
    tarfile.SOLARIS_XHDTYPE,
)
_BLOCK = tarfile.BLOCKSIZE


class _TarFile(tarfile.TarFile):
    """A tar archive that notes, in ``damage``, what its headers got wrong."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.damage: list[tuple[int, str]] = []  # (offset, what was wrong)
        self.scan_limit = Limits.max_member_bytes  # how far to look for a good header
        super().__init__(*args, **kwargs)


class _TarInfo(tarfile.TarInfo):
    """A tar header read with bounds: an extended header larger than
    :data:`MAX_EXTENDED_HEADER` is skipped, and after a damaged header the
    archive is searched for the next good one, as ``tar --ignore-zeros``
    does. Both are noted in the archive's ``damage``."""

    @classmethod
    def fromtarfile(cls, archive: tarfile.TarFile) -> _TarInfo:
        top = archive.offset == archive.fileobj.tell()  # not one after an extended header
        try:
            return super().fromtarfile(archive)
        except tarfile.InvalidHeaderError as error:  # type: ignore[attr-defined]
            if not top or not isinstance(archive, _TarFile):
                raise
            return cls._next_good(archive, error)

    @classmethod
    def _next_good(cls, archive: _TarFile, error: tarfile.HeaderError) -> _TarInfo:
        start = archive.offset
        why = _("damaged tar header ({error})").format(error=error)
        end = start + archive.scan_limit
        while archive.fileobj.tell() < end:
            buf = archive.fileobj.read(_BLOCK)
            if len(buf) < _BLOCK:
                break
            if buf.count(0) == _BLOCK:
                continue
            try:
                found = cls.frombuf(buf, archive.encoding, archive.errors)
            except tarfile.HeaderError:
                continue
            found.offset = archive.fileobj.tell() - _BLOCK
            skipped = _("{why}: {count} bytes skipped").format(why=why, count=found.offset - start)
            archive.damage.append((start, skipped))
            return found._proc_member(archive)
        if start == 0:
            raise error  # not a tar archive at all
        archive.damage.append((start, _("{why}: no good header after it").format(why=why)))
        # ends the archive quietly (tarfile's own, private, end of the archive)
        raise tarfile.EmptyHeaderError("end of the archive")  # type: ignore[attr-defined]

    def _proc_member(self, archive: tarfile.TarFile) -> _TarInfo:
        if (
            self.type in _EXTENDED
            and self.size > MAX_EXTENDED_HEADER
            and isinstance(archive, _TarFile)
        ):
            archive.damage.append(
                (
                    self.offset,
                    _("extended tar header of {size} bytes (limit {limit}): skipped").format(
                        size=self.size, limit=MAX_EXTENDED_HEADER
                    ),
                )
            )
            self.offset_data = archive.fileobj.tell()
            archive.offset = self.offset_data + self._block(self.size)  # type: ignore[attr-defined]
            return self  # neither a file nor a link: passed over
        member: _TarInfo = super()._proc_member(archive)  # type: ignore[misc]
        return member


_TarFile.tarinfo = _TarInfo


def _read_limited(stream: IO[bytes] | io.BufferedIOBase, limit: int, size: int = 0) -> bytes | None:
    """Read at most ``limit`` bytes; None when there is more (a bomb, say).

    Read in chunks, so that memory grows with what is there, not with the
    limit; ``size`` (at most ``limit``), the size a regular file has, is
    read in one go, so that its bytes are not held twice (the chunks and
    the whole)."""
    first = stream.read(size) if 0 < size <= limit else b""
    if len(first) < size:  # the file shrank: that was all
        return first
    chunks = [first] if first else []
    left = limit + 1 - len(first)
    while left > 0:
        chunk = stream.read(min(left, _CHUNK))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    if left <= 0:
        return None
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


_CHUNK = 1024 * 1024
