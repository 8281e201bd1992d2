"""Where records come from: files, directories, zip and tar archives, stdin.

Everything is read in place: archives are never extracted to disk, and
nothing here writes anywhere. A source that cannot be read becomes a
:class:`Source` with an ``error`` instead of stopping the run.
"""

from __future__ import annotations

import fnmatch
import os
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from typing import BinaryIO, Iterator

RECORD_EXTENSIONS = (".hxl", ".trg", ".hpf")
ARCHIVE_EXTENSIONS = (".zip", ".tar", ".tar.gz", ".tgz")


@dataclass(frozen=True)
class Limits:
    """Upper bounds that keep hostile input from eating the machine.

    The byte limits are applied here, while reading; the others while each
    game is scanned, by the notation reader (:func:`.record_limits.read_limits`;
    README, "Safety and limits").
    """

    max_file_bytes: int = 64 * 1024 * 1024
    max_member_bytes: int = 64 * 1024 * 1024
    max_archive_bytes: int = 1024 * 1024 * 1024
    max_games: int = 100_000  # per file
    max_actions: int = 100_000  # per game, variations included
    max_comment: int = 100_000  # characters in one comment
    max_depth: int = 64  # variations inside variations (the parser's MAX_DEPTH at most)
    max_tag_value: int = 10_000  # characters in one tag value
    max_token: int = 1_000  # characters in one action, move number or tag name (4000 at most)


@dataclass(frozen=True)
class Source:
    """One record file's bytes, or why they could not be read.

    ``too_large`` is (size, limit) for a file larger than the limit.
    """

    path: str
    data: bytes | None = None
    error: str | None = None
    too_large: tuple[int, int] | None = None


def iter_sources(paths: list[str], *, globs: tuple[str, ...] = (),
                 limits: Limits = Limits()) -> Iterator[Source]:
    """Every record file named by ``paths``, in a stable order."""
    for path in paths:
        if path == "-":
            data = _read_limited(sys.stdin.buffer, limits.max_file_bytes)
            yield Source("<stdin>", data, None if data is not None else
                         f"more than {limits.max_file_bytes} bytes")
        elif os.path.isdir(path):
            yield from _directory(path, globs, limits)
        elif _is_archive(path):
            yield from _archive(path, globs, limits)
        else:
            yield _file(path, limits)


def wanted(name: str, globs: tuple[str, ...]) -> bool:
    """Whether a file inside a directory or archive is a record to check."""
    base = name.rsplit("/", 1)[-1]
    if globs:
        return any(fnmatch.fnmatch(base, g) or fnmatch.fnmatch(name, g) for g in globs)
    return base.lower().endswith(RECORD_EXTENSIONS)


def _is_archive(path: str) -> bool:
    return path.lower().endswith(ARCHIVE_EXTENSIONS)


def _file(path: str, limits: Limits) -> Source:
    try:
        size = os.path.getsize(path)
        if size > limits.max_file_bytes:
            return Source(path, error=f"too large: {size} bytes (limit {limits.max_file_bytes})",
                          too_large=(size, limits.max_file_bytes))
        with open(path, "rb") as handle:
            return Source(path, handle.read())
    except OSError as error:
        return Source(path, error=error.strerror or str(error))


def _directory(root: str, globs: tuple[str, ...], limits: Limits) -> Iterator[Source]:
    """Files under ``root``, sorted; symlinks that lead outside it are skipped."""
    real_root = os.path.realpath(root)
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            if not _inside(path, real_root):
                continue
            if _is_archive(name):
                yield from _archive(path, globs, limits)
            elif wanted(path.replace(os.sep, "/"), globs):
                yield _file(path, limits)


def _inside(path: str, real_root: str) -> bool:
    real = os.path.realpath(path)
    return real == real_root or real.startswith(real_root + os.sep)


def _archive(path: str, globs: tuple[str, ...], limits: Limits) -> Iterator[Source]:
    try:
        if path.lower().endswith(".zip"):
            yield from _zip_members(path, globs, limits)
        else:
            yield from _tar_members(path, globs, limits)
    except (OSError, zipfile.BadZipFile, tarfile.TarError, EOFError) as error:
        yield Source(path, error=f"cannot read the archive: {error}")


def _zip_members(path: str, globs: tuple[str, ...], limits: Limits) -> Iterator[Source]:
    budget = limits.max_archive_bytes
    with zipfile.ZipFile(path) as archive:
        for info in sorted(archive.infolist(), key=lambda i: i.filename):
            if info.is_dir() or not wanted(info.filename, globs):
                continue
            name = f"{path}:{info.filename}"
            limit = min(limits.max_member_bytes, budget)
            if info.file_size > limit:
                yield Source(name, error=f"too large when unpacked: {info.file_size} bytes "
                                         f"(limit {limit})")
                continue
            with archive.open(info) as member:
                data = _read_limited(member, limit)
            if data is None:
                yield Source(name, error=f"unpacks to more than {limit} bytes")
                continue
            budget -= len(data)
            yield Source(name, data)


def _tar_members(path: str, globs: tuple[str, ...], limits: Limits) -> Iterator[Source]:
    budget = limits.max_archive_bytes
    with tarfile.open(path) as archive:
        for info in archive:  # in archive order: tar files are streams
            if not info.isfile() or not wanted(info.name, globs):
                continue
            name = f"{path}:{info.name}"
            limit = min(limits.max_member_bytes, budget)
            if info.size > limit:
                yield Source(name, error=f"too large: {info.size} bytes (limit {limit})")
                continue
            member = archive.extractfile(info)
            data = _read_limited(member, limit) if member else None
            if data is None:
                yield Source(name, error="cannot read this member")
                continue
            budget -= len(data)
            yield Source(name, data)


def _read_limited(stream: BinaryIO, limit: int) -> bytes | None:
    """Read at most ``limit`` bytes; None when there is more (a bomb, say)."""
    data = stream.read(limit + 1)
    return None if len(data) > limit else data
