"""Where a command's text goes: standard output, or the file given with
``--out`` (written by the library's writer, :mod:`hexhop.archive.writing`);
messages go to standard error."""

from __future__ import annotations

import sys
from collections.abc import Iterable

import click

from hexhop.records.text import json_text, writes_unicode

from .options import force_option, shared
from .progress import clear
from .safe_write import Check, write_atomically
from .terminal import printable

out_option = shared(
    "--out",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write to this file instead of standard output.",
)
force_out_option = force_option("Overwrite --out if it exists.")


def emit(
    text: str,
    out: str | None,
    force: bool,
    check: Check | None = None,
    inputs: Iterable[str] = (),
) -> None:
    """Print ``text``, or write it with the library's writer to ``out``
    (never over an existing file unless ``force``, never over one of
    ``inputs``), after ``check`` of what was written (a record read back, say)."""
    if out is None:
        click.echo(text, nl=False)
        return
    write_atomically(out, text.encode("utf-8"), overwrite=force, check=check, inputs=inputs)


def tell(message: str) -> None:
    """A message to the user on standard error, with any control characters
    from records or file names in it shown escaped."""
    clear()  # the progress bar's line, drawn again at its next step
    click.echo(printable(message), err=True)


def stdout_json(value: object, indent: int | None = None) -> str:
    """``value`` as JSON for standard output (:func:`~hexhop.records.text.json_text`):
    ASCII with ``\\u`` escapes when standard output is not Unicode, so that
    what its encoding cannot hold stays JSON."""
    return json_text(value, indent, ascii_only=not writes_unicode(sys.stdout))
