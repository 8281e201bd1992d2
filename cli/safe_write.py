"""Write output files so that a crash or Ctrl-C never leaves half a file."""

from __future__ import annotations

import os
import tempfile

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
    """Raise :class:`ExistsError` for those of ``paths`` that exist, unless ``force``."""
    existing = [path for path in paths if os.path.exists(path)]
    if existing and not force:
        raise ExistsError(existing)


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


def write_atomically(path: str, data: bytes, *, overwrite: bool = False) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it;
    missing folders on the way to ``path`` are created first.

    Raises :class:`ExistsError` when ``path`` exists and ``overwrite`` is
    False, :class:`WriteError` when it cannot be written; the temporary
    file is removed whatever happens. Ctrl-C and SIGTERM are held back
    while the file is written.
    """
    if not overwrite and os.path.exists(path):
        raise ExistsError([path])
    make_folder(os.path.dirname(path) or ".")
    with signals_held():  # Ctrl-C or SIGTERM in the middle would leave a temporary file
        try:
            _write(path, data)
        except OSError as error:
            raise WriteError(path, error) from None


def make_folder(path: str) -> None:
    """``os.makedirs(path, exist_ok=True)``, raising :class:`WriteError`
    (``cannot create the folder PATH: REASON``) when it cannot be made."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as error:
        raise WriteError(path, error, folder=True) from None


def _write(path: str, data: bytes) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    fd, temp = tempfile.mkstemp(prefix=".hexhop-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        if os.path.exists(path):
            os.chmod(temp, os.stat(path).st_mode & 0o7777)
        else:  # what open() would have given: 0666 less the umask
            os.chmod(temp, 0o666 & ~_umask())
        os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
