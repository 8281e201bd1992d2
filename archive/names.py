"""Names as the archive tools compare them: accents and case aside."""

from __future__ import annotations

import unicodedata


def fold(name: str) -> str:
    """A name for matching: accents dropped, case folded (``Müller`` -> ``muller``)."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", plain.casefold())
