"""Numbers written as text, for every layer: ASCII digits ``0``-``9`` only.

Python reads more as a number than a record, an option or a URL should:
``str.isdigit()`` is true for ``²``, ``int()`` reads ``٣`` (Arabic-Indic
three) as 3 and ``" 7 "``, ``"+7"`` and ``"1_000"`` as numbers, and ``\\d``
in a regular expression matches every Unicode decimal digit.  A reader that
checks with one of them and converts with another ends in a traceback
(``"²".isdigit()`` but ``int("²")`` raises), and one that converts with
``int()`` alone reads a record differently from every other program.  So
text becomes a number in hexhop through :func:`ascii_int` only (and
:func:`ascii_decimal`, built on it, for seconds), and regular expressions
and grammars spell digits ``[0-9]``, a bounded count of them, so that what
they match (a die's face, a move number the scanner bounds) is ready for
``int()``.

This module knows nothing of records, options or web pages: every layer
may import it.
"""

from __future__ import annotations

from typing import Final

#: The most digits :func:`ascii_int` reads unless told otherwise: every such
#: number fits SQLite's signed 64-bit integer, and converting it costs
#: nothing (``int()`` is quadratic in the digits, and refuses more than
#: 4,300 of them).
MAX_DIGITS: Final = 18

#: The only characters that are digits here (``[0-9]`` in a regular expression).
ASCII_DIGITS: Final = "0123456789"


def ascii_int(text: str, *, max_digits: int = MAX_DIGITS) -> int | None:
    """The number ``text`` writes in ASCII digits, or None if it writes none.

    ``text`` must be one to ``max_digits`` of the characters ``0``-``9`` and
    nothing else: no sign, no blank around it, no ``_``, no other digit
    (``²``, ``٣``, ``Ⅻ``, ``½``).  Leading zeros are kept out of the value
    (``"07"`` is 7), as dates and rounds are written so.  A caller that
    allows blanks or a sign strips them first, where the reader can see it.

    >>> ascii_int("07"), ascii_int("²"), ascii_int("٣"), ascii_int(" 7"), ascii_int("")
    (7, None, None, None, None)
    >>> ascii_int("9" * 19), ascii_int("9" * 19, max_digits=19)
    (None, 9999999999999999999)
    """
    if not 0 < len(text) <= max_digits or not text.isascii() or not text.isdigit():
        return None
    return int(text)


def ascii_decimal(text: str, *, max_digits: int = MAX_DIGITS) -> float | None:
    """The number ``text`` writes as ASCII digits with at most one point
    (``2``, ``0.5``, ``.5``, ``2.``), or None.

    Each side of the point is read by :func:`ascii_int` (one side may be
    empty, not both); no exponent, ``inf`` or ``nan``.

    >>> ascii_decimal("0.5"), ascii_decimal(".5"), ascii_decimal("1e3"), ascii_decimal("٠.٥")
    (0.5, 0.5, None, None)
    """
    whole, _, fraction = text.partition(".")
    parts = [part for part in (whole, fraction) if part]
    if not parts:
        return None
    if any(ascii_int(part, max_digits=max_digits) is None for part in parts):
        return None
    return float(text)
