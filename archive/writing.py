"""Every file hexhop writes, written whole by one writer (docs/safety.md, "Writing").

:func:`write_file` is the writer of every command that writes a file
(records, pictures, reports) and of the web app's editor. It promises:

- **whole or not at all**: the bytes go to a temporary file in the
  target's own folder (``.hexhop-….tmp``), which is put in place by one
  rename; a full disk, an error or Ctrl-C leaves what was there before,
  and no temporary file;
- **read back**: ``check(temporary path)`` reads the written file as a
  reader would (:func:`hexhop.archive.verify.verify` for records) before
  it is put in place; what it raises stops the write;
- **never over an input**: ``inputs`` are refused as the target, and so is
  the archive that holds one (:func:`refuse_inputs`), whatever
  ``overwrite`` says;
- **never over a file unless asked**: without ``overwrite`` the file is
  created, never replaced: a name taken meanwhile (a dangling symbolic
  link too) is :class:`Exists`;
- **permissions like every other file**: a new file has the mode ``open()``
  gives, 0666 less the umask; a file written over keeps its mode;
- **on the disk**: the file is flushed to the disk (fsync) before it is
  put in place, and its folder after, so that a power cut leaves the old
  file or the new one; a command that writes many new files flushes them
  together at the end (:func:`synced_together`);
- **no half file on a signal**: Ctrl-C and SIGTERM are held back while
  bytes given whole are written and while the file is put in place
  (:func:`hexhop.records.raising.held`).

Nothing here knows of the command line or the web: each says in its own
words what :class:`Exists`, :class:`OverInputError` and :class:`WriteError`
mean.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import threading
from collections.abc import Callable, Iterable, Iterator

from hexhop.messages import _
from hexhop.records.errors import RecordsError
from hexhop.records.raising import held

#: A read-back: called with the temporary file's path, raises to stop the write.
Check = Callable[[str], None]

NEW_MODE = 0o666  # less the umask, as open() makes every file
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
_TEMPORARY = ".hexhop-{}.tmp"  # the prefix every test and the safety suite look for
_batch = threading.local()  # .written: the new files of a synced_together() block


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


class Exists(RecordsError):
    """The target's name is taken (by a file, a folder or a symbolic link,
    one that leads nowhere too) and it was not to be written over."""

    exit_code = 2

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(_("{path} exists").format(path=path))


class OverInputError(RecordsError):
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


def write_file(
    path: str,
    data: bytes | Iterable[bytes],
    *,
    overwrite: bool = False,
    check: Check | None = None,
    inputs: Iterable[str] | Inputs = (),
) -> None:
    """Write ``data`` as the file ``path``, with the promises of this module;
    missing folders on the way to ``path`` are made first.

    ``data`` is the file's bytes, or its pieces, written as they come (a
    large file is never held whole; Ctrl-C may stop the write between two
    pieces, leaving nothing). Raises :class:`OverInputError` when ``path``
    is one of ``inputs`` or holds one, :class:`Exists` when its name is
    taken and ``overwrite`` is False, :class:`WriteError` when it cannot be
    written, and what ``check`` raises.
    """
    refuse_inputs([path], inputs)
    if not overwrite and os.path.lexists(path):
        raise Exists(path)
    make_folder(os.path.dirname(path) or ".")
    pieces = [data] if isinstance(data, bytes) else data
    with held() if isinstance(data, bytes) else contextlib.nullcontext():
        try:
            _write(path, pieces, overwrite, check)
        except OSError as error:
            raise WriteError(path, error) from None


@contextlib.contextmanager
def synced_together() -> Iterator[None]:
    """Write many files in the block and flush the new ones to the disk
    together when it ends (each file, then each folder once), not one by
    one: each flush forces a commit of the file system's journal, and
    ``split`` of 3,000 games spent 23 s in 6,000 flushes one by one on a
    busy test machine, 7 s in 3,001 together (0.5 s on an idle one, where
    the run took 2 s without any). A file written over is still flushed before it
    replaces the old one, so a power cut never costs an old file; it may
    leave a new file of the block empty, as if the run had stopped before it."""
    outer = getattr(_batch, "written", None)
    _batch.written = outer if outer is not None else []
    try:
        yield
    finally:
        if outer is None:
            written, _batch.written = _batch.written, None
            _sync_all(written)


def _sync_all(paths: list[str]) -> None:
    for path in paths:
        with contextlib.suppress(OSError):  # gone since: nothing to flush
            handle = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            try:
                os.fsync(handle)
            finally:
                os.close(handle)
    for folder in dict.fromkeys(os.path.dirname(path) for path in paths):
        _sync_folder(folder)


def make_folder(path: str) -> None:
    """``os.makedirs(path, exist_ok=True)``, raising :class:`WriteError`
    (``cannot create the folder PATH: REASON``) when it cannot be made.
    Its folders get the mode the umask leaves, as ``mkdir`` gives."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as error:
        raise WriteError(path, error, folder=True) from None


def _write(path: str, pieces: Iterable[bytes], overwrite: bool, check: Check | None) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    batch: list[str] | None = getattr(_batch, "written", None)
    new = not os.path.lexists(path)
    deferred = batch is not None and new  # flushed with the others at the end of the block
    temporary = None
    try:
        with held():  # made and noted for removal, or not made
            handle, temporary = _temporary(folder)
        with os.fdopen(handle, "wb") as out:
            for piece in pieces:
                out.write(piece)
            out.flush()
            if not deferred:
                os.fsync(out.fileno())
        if check is not None:
            check(temporary)
        with held():
            if overwrite and os.path.exists(path):  # written over: it keeps its mode
                os.chmod(temporary, os.stat(path).st_mode & 0o7777)
            _put_in_place(temporary, path, overwrite)
            temporary = None
            if batch is not None and deferred:
                batch.append(os.path.join(folder, os.path.basename(path)))
            else:
                _sync_folder(folder)
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


def _temporary(folder: str) -> tuple[int, str]:
    """A new temporary file in ``folder``: its handle and path. Made with
    :data:`NEW_MODE`, which the umask reduces (not ``mkstemp``'s 0600, which
    the file would keep: it is renamed, not copied); the umask is never
    read, which would change it for a moment for every thread."""
    for _attempt in range(100):
        path = os.path.join(folder, _TEMPORARY.format(secrets.token_hex(6)))
        try:
            return os.open(path, _NEW_FILE, NEW_MODE), path
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name in {folder}")


def _put_in_place(temporary: str, path: str, overwrite: bool) -> None:
    """Rename ``temporary`` to ``path``. Without ``overwrite`` it is linked
    to its name instead, which fails when anything has the name: a name
    taken since it was looked at is not written over. Where the file system
    has no hard links, the name is first taken by an empty file made with
    ``O_EXCL`` and ``O_NOFOLLOW``, which the rename then replaces."""
    if overwrite:
        os.replace(temporary, path)
        return
    try:
        os.link(temporary, path)
    except FileExistsError:
        raise Exists(path) from None
    except OSError:  # a file system without hard links
        _claim(path)
        try:
            os.replace(temporary, path)
        except BaseException:  # the empty file that took the name is not left
            with contextlib.suppress(OSError):
                os.unlink(path)
            raise
    else:
        os.unlink(temporary)


def _claim(path: str) -> None:
    """Take the name ``path`` with an empty file, or raise :class:`Exists`."""
    try:
        os.close(os.open(path, _NEW_FILE, NEW_MODE))
    except FileExistsError:
        raise Exists(path) from None


def _sync_folder(folder: str) -> None:
    """Flush ``folder``'s entries (the new name) to the disk; a system
    that cannot open or sync a folder (Windows) is left to its own cache."""
    try:
        handle = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


# -- never over an input -------------------------------------------------------------------


class Inputs:
    """The files a command reads, each known by its identities (real path,
    device and inode) and by the archive that holds it, looked up once: a
    command that writes many files (``render`` of a folder) asks for each
    of them without looking at every input again."""

    def __init__(self, paths: Iterable[str]) -> None:
        from .index import container

        self.known: dict[object, tuple[str, bool]] = {}
        for given in paths:
            if given in ("-", "<stdin>"):
                continue
            archive = container(given)
            for path, is_holder in ((given, False), (archive, archive != given)):
                for key in _identities(path):
                    self.known.setdefault(key, (given, is_holder))

    def refuse(self, outputs: Iterable[str]) -> None:
        """Raise :class:`OverInputError` for the first of ``outputs`` that
        is one of the inputs or holds one."""
        if not self.known:
            return
        for path in outputs:
            for key in _identities(path):
                if key in self.known:
                    raise OverInputError(path, *self.known[key])


def refuse_inputs(outputs: Iterable[str], inputs: Iterable[str] | Inputs) -> None:
    """Raise :class:`OverInputError` when one of ``outputs`` is one of
    ``inputs``, or the archive that holds one (``club.zip`` for the input
    ``club.zip:a.hxl``). Files are compared by their real paths and by
    device and inode, so another spelling, a symbolic link or a hard link
    is caught; a folder given as an input holds outputs, it is not written
    over."""
    (inputs if isinstance(inputs, Inputs) else Inputs(inputs)).refuse(outputs)


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
