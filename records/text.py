"""Record text and file names made safe to show on a terminal, a window
of a long source line, and ANSI colour, without any terminal library."""

from __future__ import annotations

import codecs
import csv
import io
import json
import re
import unicodedata
from collections.abc import Callable, Iterable

from hexhop.messages import ngettext

#: The ANSI codes of the colours the text report uses.
_COLOURS = {"red": 31, "green": 32, "yellow": 33}
_RESET = "\x1b[0m"


def counted(number: int, word: str) -> str:
    """``1 file``, ``2 files`` (``word``: file, game, ply, legal action), in
    the language spoken now: ``2 Dateien``."""
    return _COUNTED[word](number).format(n=number)


# written out, so that every form is in the catalogue
_COUNTED: dict[str, Callable[[int], str]] = {
    "file": lambda n: ngettext("{n} file", "{n} files", n),
    "game": lambda n: ngettext("{n} game", "{n} games", n),
    "ply": lambda n: ngettext("{n} ply", "{n} plies", n),
    "legal action": lambda n: ngettext("{n} legal action", "{n} legal actions", n),
    "duplicate": lambda n: ngettext("{n} duplicate", "{n} duplicates", n),
}


def style(text: str, fg: str | None = None, bold: bool | None = None) -> str:
    """``text`` in colour ``fg`` (red, green or yellow) and/or bold, as ANSI
    escape codes, the way ``click.style`` writes them."""
    codes = f"\x1b[{_COLOURS[fg]}m" if fg else ""
    if bold is not None:
        codes += f"\x1b[{1 if bold else 22}m"
    return codes + text + _RESET


#: What must not reach a terminal raw, beyond the C0 controls: DEL and the
#: C1 controls (escape sequences start with ESC or CSI), line and paragraph
#: separators, the bidirectional marks, embeddings, overrides and isolates
#: that can make text read differently from what it is, and lone surrogates
#: (bytes of file names that are not UTF-8).
_UNSAFE_ABOVE_C0 = "\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff"
_UNSAFE = re.compile(f"[\x00-\x1f{_UNSAFE_ABOVE_C0}]")
#: The same in the text of ``json.dumps``, which escapes the C0 controls
#: itself (its only raw ones are the line ends of ``indent``).
_UNSAFE_IN_JSON = re.compile(f"[{_UNSAFE_ABOVE_C0}]")


def printable(text: str) -> str:
    """``text`` with every character a terminal could act on written as an
    escape (``\\x1b``, ``\\u202e``); a byte of a name that is not UTF-8
    (kept by Python as a surrogate) is written as ``\\xff``."""
    return _UNSAFE.sub(_escape, text)


def utf8_safe(text: str) -> str:
    """``text`` as UTF-8 can hold it: a byte of a name that is not UTF-8
    (kept by Python as a lone surrogate) becomes U+FFFD, as in the JSON
    and CSV reports."""
    return _SURROGATES.sub("\ufffd", text)


_SURROGATES = re.compile("[\ud800-\udfff]")

#: What a spreadsheet takes for the start of a formula, as OWASP lists it
#: ("CSV Injection"): ``=HYPERLINK(...)``, ``+cmd|...``, ``@SUM(...)``, ``-2+3``.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> str:
    """One cell of a CSV report: nothing for None, true or false as in
    JSON, a number as Python writes it (``-12`` stays a number: the program
    counted it); any text as :func:`printable` writes it, a byte of a name
    that is not UTF-8 as U+FFFD, and a single quote before it when it starts
    as a formula does (:data:`FORMULA_STARTS`), so that a spreadsheet shows
    ``'=HYPERLINK(...)`` instead of running it. Every CSV hexhop writes is
    made of these cells (:func:`csv_line`)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    text = str(value)
    quote = "'" if text.startswith(FORMULA_STARTS) else ""
    return quote + printable(utf8_safe(text))


def csv_line(row: Iterable[object]) -> str:
    """One line of CSV (no line end) of :func:`csv_cell` cells."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="").writerow([csv_cell(value) for value in row])
    return buffer.getvalue()


def json_text(value: object, indent: int | None = None, *, ascii_only: bool = False) -> str:
    """``value`` as JSON (``json.dumps`` with ``ensure_ascii=False``) in
    which every character a terminal could act on is a ``\\uXXXX``
    escape, so that it parses back to the same text; a byte of a name that
    is not UTF-8 becomes U+FFFD (as :func:`utf8_safe` makes it), since a
    lone surrogate is not text that every JSON reader takes. With
    ``ascii_only`` (for an output that is not Unicode, see
    :func:`writes_unicode`) every other character beyond ASCII is an
    escape too. The JSON and JSON Lines of check, find, dupes and stats are
    written with it."""
    text = _UNSAFE_IN_JSON.sub(_json_escape, json.dumps(value, ensure_ascii=False, indent=indent))
    return _BEYOND_ASCII.sub(_json_escape, text) if ascii_only else text


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xD800 <= code <= 0xDFFF:
        return "\ufffd"
    if code > 0xFFFF:  # as a surrogate pair, as JSON writes it
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


_BEYOND_ASCII = re.compile("[^\x00-\x7f]")


def writes_unicode(stream: object) -> bool:
    """Whether ``stream`` can hold every character: its encoding is one of
    Unicode's (UTF-8, UTF-16, UTF-32), or it has none (``io.StringIO``)."""
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return True
    try:
        return codecs.lookup(encoding).name.startswith("utf")
    except LookupError:
        return False


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape: the undecodable byte
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _cell(char: str) -> tuple[str, int]:
    """How one character of a source line is shown, and how many columns it takes."""
    if char == "\t":
        return " ", 1  # one column, so that the caret stays under its character
    if _UNSAFE.match(char):
        shown = printable(char)
        return shown, len(shown)
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return char, 0
    return char, 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def source_window(line: str, column: int, length: int, width: int = 100) -> tuple[str, int, int]:
    """At most about ``width`` columns of ``line`` around the characters
    ``column`` (1-based) to ``column + length - 1``, as a compiler shows
    them: ``…`` where the line is cut, wide characters taking two columns,
    control characters escaped.

    Returns (the text, the columns before the marked characters, the
    columns they take), so a caret line can be put under them. Only the
    window is looked at, whatever the length of the line.
    """
    start = min(max(column - 1, 0), len(line))
    end = min(start + max(length, 1), len(line))
    marked: list[str] = []
    marked_width = 0
    for char in line[start:end]:
        shown, cells = _cell(char)
        if marked and marked_width + cells > width // 2:
            break  # a very long mark is cut too
        marked.append(shown)
        marked_width += cells
    end = start + len(marked)
    room = width - marked_width
    right, right_width = _take(line, end, 1, room)
    left, left_width = _take(line, start - 1, -1, max(room - right_width, room * 2 // 5))
    if left_width + right_width > room:  # both sides cut: give the rest back to the right
        right, right_width = _take(line, end, 1, room - left_width)
    cut_left = start - len(left) > 0
    cut_right = end + len(right) < len(line)
    head = "…" * cut_left + "".join(reversed(left))
    text = head + "".join(marked) + "".join(right) + "…" * cut_right
    return text, left_width + cut_left, max(marked_width, 1)


def _take(line: str, index: int, step: int, room: int) -> tuple[list[str], int]:
    """Characters from ``index`` on (towards ``step``) while they fit in ``room`` columns."""
    taken: list[str] = []
    used = 0
    while 0 <= index < len(line) and len(taken) < 4 * room + 8:
        shown, cells = _cell(line[index])
        if used + cells > room:
            break
        taken.append(shown)
        used += cells
        index += step
    return taken, used
