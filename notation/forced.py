"""The encoding ``--encoding`` names for a run: one setting every reader
reads (:func:`.reader.decode_lines`), kept apart from the reader so that
a command that reads no record does not load its grammars to set it."""

from __future__ import annotations

import codecs

from .findings import words

FORCED_ENCODING: list[str | None] = [None]  # the codec --encoding named for this run


def force_encoding(codec: str | None) -> None:
    """Read every file of this run with ``codec`` (``--encoding``; None:
    tell each file's encoding from its bytes, as :func:`decode_lines`
    does). Set by the option of every reading command each time it runs;
    a :class:`hexhop.records.sources.Source` sent to another process
    carries it."""
    FORCED_ENCODING[0] = None if codec is None else forced_codec(codec)


def forced_codec(name: str) -> str:
    """The codec ``name`` names (``--encoding``), as Python knows it;
    :class:`LookupError` with a message to show when there is none, or it
    is no text encoding (``rot13``, ``zlib``)."""
    try:
        info = codecs.lookup(name)
    except LookupError:
        raise LookupError(words("unknown encoding {name!r}", name=name)) from None
    if not getattr(info, "_is_text_encoding", True):
        raise LookupError(words("{name!r} is not a text encoding", name=name))
    return info.name
