"""The actions written before a movetext's first syntax error.

A record typed by hand or cut off by a full disk is damaged somewhere after
many good actions; those actions stand. Every line keeps what it holds
before its own first syntax error: an error inside a closed variation ends
that variation there (the main line goes on after its ``)``), an error in
the main line, or in a variation never closed, ends the text there (the
variations still open are closed where it ends). The finding stays the
one the whole text gave; this module only finds what can be read.

The text is cut and blanked, never moved: blanked characters become spaces
(newlines stay), so every kept action keeps its line and column.
"""

from __future__ import annotations

import re
from typing import Final

from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from .findings import Finding
from .limits import DEFAULT_LIMITS, BeyondLimit, ReadLimits
from .parser import Movetext, parse_movetext
from .problems import SyntaxProblem
from .scanner import Rest
from .syntax_errors import explain
from .text import parens

# readings of the cut text at most: each one a parse of the movetext, so a
# record with many errors costs a few parses, never one per error
_ATTEMPTS: Final = 6
_WORD_END: Final = " \t\n(){};"
# a move number (and blanks) that ends the text searched, as a word of its own
_NUMBER_BEFORE: Final = re.compile(r"(?<![^\s(){}])[0-9]+\.(?:\.\.)?\s*\Z")


def read_before_error(
    game: str,
    text: str,
    first_line: int,
    error: Exception,
    finding: Finding,
    limits: ReadLimits = DEFAULT_LIMITS,
) -> Movetext | None:
    """The movetext ``text`` (as :func:`.parser.movetext_text` pads it; its
    line 1 is line ``first_line`` of the file) read up to the syntax error
    ``error`` that ``finding`` explains; None when nothing before it reads."""
    original = text
    stop = _word_start(
        text, min(_raw_offset(error, text), _finding_offset(finding, text, first_line))
    )
    first = stop
    for _attempt in range(_ATTEMPTS):
        cut = _cut(text, stop)
        if cut is None:
            break
        try:
            return parse_movetext(game, Rest(cut, first_line, 1, first_line, 1), limits=limits)
        except (UnexpectedInput, SyntaxProblem) as again:
            later = _finding_offset(explain(again, cut, first_line - 1, game), cut, first_line)
            found = _word_start(cut, min(_raw_offset(again, cut), later))
            # another error (a later one, or a move number left dangling
            # before the cut) is cut in its turn; the same one again means
            # the word before the cut does not read alone: it goes too
            stop = found if found != stop else _back(cut, stop)
            text = cut
        except BeyondLimit:
            return None
    return _main_line_before(game, original, first, first_line, limits)


def _main_line_before(
    game: str, text: str, stop: int, first_line: int, limits: ReadLimits
) -> Movetext | None:
    """The main line before the first error alone (cut before the variation
    the error is in): for a record whose errors were too many to cut out
    one by one. None when even that does not read."""
    cut = _cut(text, _outermost_open(text, stop))
    if cut is None:
        return None
    try:
        return parse_movetext(game, Rest(cut, first_line, 1, first_line, 1), limits=limits)
    except (UnexpectedInput, SyntaxProblem, BeyondLimit):
        return None


def _outermost_open(text: str, stop: int) -> int:
    """The ``(`` of the outermost variation open at ``stop``; ``stop`` in the main line."""
    depth, outer = 0, stop
    for pos, char in parens(text):
        if pos >= stop:
            break
        if char == "(":
            if not depth:
                outer = pos
            depth += 1
        elif depth:
            depth -= 1
    return outer if depth else stop


def _cut(text: str, stop: int) -> str | None:
    """``text`` without the error at ``stop``: blanked to the end of the
    closed variation it is in, else cut there with the variations still
    open closed; None when that changes nothing. A move number right
    before ``stop`` goes too: its action is the one cut."""
    stop = max(0, min(stop, len(text)))
    number = _NUMBER_BEFORE.search(text, max(0, stop - 64), stop)
    if number is not None:
        stop = number.start()
    close = _closing(text, stop)
    if close is not None:
        return text[:stop] + _blank(text[stop:close]) + text[close:]
    depth = _open_at(text, stop)
    cut = text[:stop].rstrip()
    if depth:  # closed where the reading ends (on a line of its own after a ';' comment)
        cut += ("\n" if ";" in cut[cut.rfind("\n") + 1 :] else "") + ")" * depth
    return None if cut == text else cut


def _closing(text: str, stop: int) -> int | None:
    """Where the innermost variation open at ``stop`` closes, when it is
    closed after ``stop`` (None in the main line or a variation never
    closed)."""
    opened = 0  # variations open at the place reached
    depth = None  # the innermost open at ``stop``, once it is passed
    for pos, char in parens(text):
        if depth is None and pos >= stop:
            if not opened:
                return None
            depth = opened
        if char == "(":
            opened += 1
        elif opened:
            opened -= 1
            if depth is not None and opened < depth:
                return pos if pos > stop else None
    return None


def _open_at(text: str, stop: int) -> int:
    """How many variations are open just before ``stop``."""
    depth = 0
    for _pos, char in parens(text[:stop]):
        if char == "(":
            depth += 1
        elif depth:
            depth -= 1
    return depth


def _blank(text: str) -> str:
    """``text`` as spaces, its newlines kept (so lines and columns stay)."""
    return "".join("\n" if char == "\n" else " " for char in text)


def _word_start(text: str, stop: int) -> int:
    """Where the word that ``stop`` falls in starts: a word cut by the error
    (``C7XD7=²``, ``A5XB2^x``) is damaged as a whole, not an action and a
    remainder. A ``(``, ``)``, ``{`` or ``;`` at ``stop`` starts a word of
    its own."""
    stop = min(stop, len(text))
    if stop < len(text) and text[stop] in _WORD_END:
        return stop
    while stop > 0 and text[stop - 1] not in _WORD_END:
        stop -= 1
    return stop


def _back(text: str, stop: int) -> int:
    """Where the word before ``stop`` starts (one character back at least,
    so that every attempt reads less)."""
    return _word_start(text, max(stop - 1, 0))


def _raw_offset(error: Exception, text: str) -> int:
    """Where in ``text`` the parser stopped."""
    if isinstance(error, SyntaxProblem):
        return error.token.start_pos if error.token.start_pos is not None else len(text)
    if isinstance(error, UnexpectedCharacters):
        return error.pos_in_stream if error.pos_in_stream is not None else len(text)
    if isinstance(error, UnexpectedToken) and error.token.start_pos is not None:
        return int(error.token.start_pos)
    return len(text)


def _finding_offset(finding: Finding, text: str, first_line: int) -> int:
    """The offset in ``text`` of the place ``finding`` points at."""
    span = finding.span
    if span is None:
        return len(text)
    pos = 0
    for _line in range(span.line - first_line):
        found = text.find("\n", pos)
        if found < 0:
            return len(text)
        pos = found + 1
    return min(pos + max(span.column - 1, 0), len(text))
