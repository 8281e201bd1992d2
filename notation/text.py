"""Plain facts about record text: where an offset is, what a tag value or a
comment says, where the parentheses are.

Used by the scanner, the parser, the reader and the error messages alike;
it imports only the record model.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from .model import Span

_ESCAPE: Final = re.compile(r"\\([\\\"])")
_PARENS_OR_COMMENTS: Final = re.compile(r"[(){};]")


def match_end(found: re.Match[str] | None, pos: int) -> int:
    """The end of ``found``, the match at ``pos`` of a pattern that may match
    nothing (so it never fails; ``pos`` if it did)."""
    return pos if found is None else found.end()


def line_column(text: str, pos: int) -> tuple[int, int]:
    """The line and column (both from 1) of offset ``pos`` in ``text``."""
    return text.count("\n", 0, pos) + 1, pos - text.rfind("\n", 0, pos)


def place(text: str, pos: int, first_line: int) -> Span:
    """Where ``pos`` of ``text`` (whose line 1 is ``first_line``) is."""
    line, column = line_column(text, pos)
    return Span(first_line - 1 + line, column)


def unescape(value: str) -> str:
    """A tag value's text: ``\\"`` and ``\\\\`` read as ``"`` and ``\\``."""
    return _ESCAPE.sub(r"\1", value) if "\\" in value else value


def comment_text(token: str) -> str:
    """The text of a ``{ … }`` or ``; …`` comment, without its marks."""
    return token[1:-1].strip() if token[0] == "{" else token[1:].strip()


def open_parens(text: str) -> Iterator[tuple[int, int]]:
    """(depth, position) of every '(' outside comments, in order."""
    depth = 0
    for pos, char in parens(text):
        if char == "(":
            depth += 1
            yield depth, pos
        elif depth:
            depth -= 1


def parens(text: str) -> Iterator[tuple[int, str]]:
    """(position, character) of the parentheses outside comments."""
    pos = 0
    while True:
        m = _PARENS_OR_COMMENTS.search(text, pos)
        if m is None:
            return
        char, pos = m.group(), m.end()
        if char == "{":
            pos = _after(text, "}", pos)
        elif char == ";":
            pos = _after(text, "\n", pos)
        elif char in "()":
            yield m.start(), char


def _after(text: str, char: str, pos: int) -> int:
    end = text.find(char, pos)
    return len(text) if end < 0 else end + 1
