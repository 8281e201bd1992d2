"""Write output files so that a crash or Ctrl-C never leaves half a file."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterable

import click

from hexhop.messages import _
from hexhop.records.errors import RecordsError
from hexhop.records.text import counted

from .interrupt import signals_held


class ExistsError(click.ClickException):
    """Output files exist and overwriting was not asked for (``--force``).

    Exit 2, as for every other input or output problem: exit 1 means
    findings, or that nothing matched.
    """

    exit_code = 2

    def __init__(self, paths: list[str]) -> None:
        self.paths = paths
        if len(paths) == 1:
            message = _("{path} exists; use --force to overwrite it").format(path=paths[0])
        else:
            shown = ", ".join(paths[:3]) + (" ..." if len(paths) > 3 else "")
            message = _("{files} exist: {shown}; use --force to overwrite them").format(
                files=counted(len(paths), "file"), shown=shown
            )
        super().__init__(message)


def refuse_existing(paths: list[str], force: bool) -> None:
    """Raise :class:`ExistsError` for those of ``paths`` that exist, unless
    ``force``. A name that is taken counts, whatever it is: a symbolic link
    that leads nowhere too."""
    existing = [path for path in paths if os.path.lexists(path)]
    if existing and not force:
        raise ExistsError(existing)


class OverInputError(click.ClickException):
    """An output would be written over an input, or over the archive that
    holds one: refused even with ``--force`` (exit 2)."""

    exit_code = 2

    def __init__(self, path: str, given: str, holder: bool) -> None:
        message = (
            _("cannot write {path}: it is the archive that holds the input {input}")
            if holder
            else _("cannot write {path}: it is the input {input}")
        )
        super().__init__(
            message.format(path=path, input=given)
            + _(" (no command writes over its input, not even with --force)")
        )


def refuse_inputs(outputs: Iterable[str], inputs: Iterable[str]) -> None:
    """Raise :class:`OverInputError` when one of ``outputs`` is one of
    ``inputs``, or the archive that holds one (``club.zip`` for the input
    ``club.zip:a.hxl``), whatever ``--force`` says. Files are compared by
    their real paths and by device and inode, so another spelling, a
    symbolic link or a hard link is caught; a folder given as an input
    holds outputs, it is not written over."""
    from hexhop.archive.index import container

    known: dict[object, tuple[str, bool]] = {}
    for given in inputs:
        if given in ("-", "<stdin>"):
            continue
        archive = container(given)
        for path, is_holder in ((given, False), (archive, archive != given)):
            for key in _identities(path):
                known.setdefault(key, (given, is_holder))
    for path in outputs:
        for key in _identities(path):
            if key in known:
                raise OverInputError(path, *known[key])


def _identities(path: str) -> list[object]:
    """What tells the file ``path`` names: its real path, and its device
    and inode when it exists (a folder is not a file to write over)."""
    if "\0" in path:  # no file has such a name (an index written by hand can hold one)
        return [path]
    if os.path.isdir(path):
        return []
    found: list[object] = [os.path.realpath(path)]
    try:
        info = os.stat(path)
    except OSError:
        return found
    return [*found, (info.st_dev, info.st_ino)]


class WriteError(RecordsError):
    """A file or folder could not be written (a read-only folder, a full
    disk); what was there before is left as it was. A command that lets it
    through prints ``Error: cannot write PATH: REASON`` and exits with 2
    (the command group tells it as a click error)."""

    exit_code = 2

    def __init__(self, path: str, error: OSError, folder: bool = False) -> None:
        self.path = path
        self.reason = error.strerror or str(error)
        if isinstance(error, FileExistsError):  # makedirs: a file of that name is in the way
            self.reason = _("a file of that name is in the way")
        message = (
            _("cannot create the folder {path}: {reason}")
            if folder
            else _("cannot write {path}: {reason}")
        )
        super().__init__(message.format(path=path, reason=self.reason))


Check = Callable[[str], None]


def write_atomically(
    path: str,
    data: bytes | Iterable[bytes],
    *,
    overwrite: bool = False,
    check: Check | None = None,
) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it;
    missing folders on the way to ``path`` are created first.

    ``data`` is the file's bytes, or its pieces, written as they come (a
    large file is never held whole). ``check(temporary path)`` runs on the
    whole file before the rename: what it raises stops the write (a
    writer's read-back, :func:`hexhop.archive.verify.verify`).

    Raises :class:`ExistsError` when ``path`` exists (a dangling symbolic
    link too) and ``overwrite`` is False, :class:`WriteError` when it
    cannot be written; the temporary file is removed whatever happens.
    Without ``overwrite`` a name taken meanwhile is not written over either.
    Ctrl-C and SIGTERM are held back while bytes given whole are written,
    and while the file is put in place; pieces are written between them.
    """
    if not overwrite and os.path.lexists(path):
        raise ExistsError([path])
    make_folder(os.path.dirname(path) or ".")
    pieces = [data] if isinstance(data, bytes) else data
    # Ctrl-C or SIGTERM in the middle would leave a temporary file
    with signals_held() if isinstance(data, bytes) else contextlib.nullcontext():
        try:
            _write(path, pieces, overwrite, check)
        except OSError as error:
            raise WriteError(path, error) from None


def make_folder(path: str) -> None:
    """``os.makedirs(path, exist_ok=True)``, raising :class:`WriteError`
    (``cannot create the folder PATH: REASON``) when it cannot be made."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as error:
        raise WriteError(path, error, folder=True) from None


def _write(path: str, pieces: Iterable[bytes], overwrite: bool, check: Check | None) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    temp = None
    try:
        with signals_held():  # made and noted for removal, or not made
            fd, temp = tempfile.mkstemp(prefix=".hexhop-", suffix=".tmp", dir=folder)
            handle = os.fdopen(fd, "wb")
        with handle:
            for piece in pieces:
                handle.write(piece)
        if check is not None:
            check(temp)
        with signals_held():
            if os.path.exists(path):
                os.chmod(temp, os.stat(path).st_mode & 0o7777)
            else:  # what open() would have given: 0666 less the umask
                os.chmod(temp, 0o666 & ~_umask())
            _put_in_place(temp, path, overwrite)
    except BaseException:
        if temp is not None and os.path.exists(temp):
            os.unlink(temp)
        raise


def _put_in_place(temp: str, path: str, overwrite: bool) -> None:
    """Rename ``temp`` to ``path``; without ``overwrite`` by a hard link, so
    that a name taken since it was looked at is not written over."""
    if overwrite:
        os.replace(temp, path)
        return
    try:
        os.link(temp, path)
    except FileExistsError:
        raise ExistsError([path]) from None
    except OSError:  # a file system without hard links
        if os.path.lexists(path):
            raise ExistsError([path]) from None
        os.replace(temp, path)
    else:
        os.unlink(temp)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
