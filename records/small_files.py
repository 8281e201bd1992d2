"""Small text files the user names beside the records (colours, names): read
as a record file is read, but whole and only as UTF-8 text."""

from __future__ import annotations

import os

from hexhop.messages import _

from .sources import _not_regular, read_source


def read_small_text(path: str, most: int) -> tuple[str | None, str]:
    """The text of ``path`` and "", or None and why it cannot be read: a
    regular file only (never a FIFO, a device, a folder or standard input),
    at most ``most`` bytes, in UTF-8 (a byte order mark is skipped)."""
    why = _special_kind(path)
    if why is not None:
        return None, why
    source = read_source(path, most)
    if source.data is None:
        return None, source.error or _("cannot be read")
    try:
        return source.data.decode("utf-8-sig"), ""
    except UnicodeDecodeError:
        return None, _("not UTF-8 text")


def _special_kind(path: str) -> str | None:
    """Why ``path`` is not read as a file, or None for a regular file (or
    one that cannot be looked at: reading it says why)."""
    if path == "-":
        return _("not a regular file ({kind})").format(kind=_("standard input"))
    if os.path.isdir(path):
        return _("not a regular file ({kind})").format(kind=_("a folder"))
    return _not_regular(path)
