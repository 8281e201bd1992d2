"""The command line's words for the library's writer
(:mod:`hexhop.archive.writing`): ``--force`` to write over a file."""

from __future__ import annotations

import os
from collections.abc import Iterable

import click

from hexhop.archive.writing import (
    Check,
    Exists,
    Inputs,
    OverInputError,
    WriteError,
    make_folder,
    refuse_inputs,
    synced_together,
    write_file,
)
from hexhop.messages import _
from hexhop.records.text import counted

__all__ = [
    "Check",
    "ExistsError",
    "Inputs",
    "OverInputError",
    "WriteError",
    "make_folder",
    "refuse_existing",
    "refuse_inputs",
    "synced_together",
    "write_atomically",
]


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


def write_atomically(
    path: str,
    data: bytes | Iterable[bytes],
    *,
    overwrite: bool = False,
    check: Check | None = None,
    inputs: Iterable[str] | Inputs = (),
) -> None:
    """:func:`hexhop.archive.writing.write_file`, with a taken name told as
    :class:`ExistsError` (``use --force``)."""
    try:
        write_file(path, data, overwrite=overwrite, check=check, inputs=inputs)
    except Exists as exists:
        raise ExistsError([exists.path]) from None
