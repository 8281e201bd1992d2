"""Names as the archive tools compare them: accents and case aside.

A name has two folded forms: :func:`fold` drops the accents (``Müller``
-> ``muller``), :func:`fold_ue` first writes the German umlauts and ß as
a German keyboard without them does (``Müller`` -> ``mueller``). A query
matches a name when it matches in either form, so ``Muller``, ``Mueller``,
``MUELLER`` and ``Müller`` all find a ``Müller``; ``Muller`` does not find
a name written ``Mueller`` (nothing can tell the ``ue`` of ``Mueller``
from that of ``Manuel``).
"""

from __future__ import annotations

import unicodedata

_UE = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"})


def fold(name: str) -> str:
    """A name for matching: accents dropped, case folded (``Müller`` -> ``muller``)."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", plain.casefold())


def fold_ue(name: str) -> str:
    """:func:`fold` after writing ä, ö, ü as ae, oe, ue and ß as ss
    (``Müller`` -> ``mueller``, ``Weiß`` -> ``weiss``)."""
    return fold(unicodedata.normalize("NFC", name).translate(_UE))
