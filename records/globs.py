"""Shell globs (``*``, ``?``, ``[...]``) matched in time linear in the
pattern and the text, as :func:`fnmatch.fnmatchcase` matches them.

:mod:`fnmatch` turns a pattern into a regular expression, and turning
``[a-[a-[a-…`` into one takes time quadratic in the pattern (each ``[``
looks for its ``]`` again), inside C code that no signal interrupts. Here
a pattern is read once, left to right (where each ``[`` closes is looked up
in a table made in one pass from the right), into pieces separated by
``*``. A text matches when the first piece matches at its start, the last
at its end and each other piece at the leftmost place after the one
before: with ``*`` as the only way to skip text, the leftmost place is
never worse, so nothing is tried twice. Pieces of plain text are found
with :meth:`str.find`; the others are tried at each place, so the worst
case is the text's length times the pattern's, which the callers bound.

Case matters, as in :func:`fnmatch.fnmatchcase`: callers fold both sides.
This module does not know file names or records.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

_ANY = ""  # a piece's item that matches any one character (``?``)


@dataclass(frozen=True)
class _Class:
    """``[...]``: characters and ranges, or (``[!...]``) anything but them."""

    negated: bool
    chars: frozenset[str]
    ranges: tuple[tuple[str, str], ...]

    def has(self, char: str) -> bool:
        inside = char in self.chars or any(low <= char <= high for low, high in self.ranges)
        return inside != self.negated


_Item = str | _Class  # a literal run of text, _ANY, or a class


@dataclass(frozen=True)
class Glob:
    """A pattern read into pieces: the parts between its ``*``."""

    pieces: tuple[tuple[_Item, ...], ...]
    starred: bool  # at least one ``*``

    def matches(self, text: str) -> bool:
        """Whether the whole of ``text`` matches."""
        pieces = self.pieces
        if not self.starred:
            return _length(pieces[0]) == len(text) and _at(pieces[0], text, 0)
        first, last = pieces[0], pieces[-1]
        start, end = _length(first), len(text) - _length(last)
        if start > end or not _at(first, text, 0) or not _at(last, text, end):
            return False
        for piece in pieces[1:-1]:
            found = _find(piece, text, start, end)
            if found < 0:
                return False
            start = found + _length(piece)
        return True


def matches(pattern: str, text: str) -> bool:
    """Whether ``text`` matches the glob ``pattern`` (case matters)."""
    return compile_glob(pattern).matches(text)


@lru_cache(maxsize=256)
def compile_glob(pattern: str) -> Glob:
    """``pattern`` read into pieces, in one pass."""
    closing = _closing(pattern)
    pieces: list[tuple[_Item, ...]] = []
    piece: list[_Item] = []
    text: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        char = pattern[i]
        if char in "*?[" and text:
            piece.append("".join(text))
            text = []
        if char == "*":
            pieces.append(tuple(piece))
            piece = []
            while i < n and pattern[i] == "*":
                i += 1
            continue
        if char == "?":
            piece.append(_ANY)
        elif char == "[" and (end := _class_end(pattern, i, closing)) >= 0:
            piece.append(_read_class(pattern[i + 1 : end]))
            i = end
        else:  # a character, or a ``[`` that never closes (itself)
            text.append(char)
        i += 1
    if text:
        piece.append("".join(text))
    pieces.append(tuple(piece))
    return Glob(tuple(pieces), len(pieces) > 1)


def _closing(pattern: str) -> list[int]:
    """For each place, the place of the first ``]`` at or after it (len: none)."""
    after = [len(pattern)] * (len(pattern) + 1)
    for i in range(len(pattern) - 1, -1, -1):
        after[i] = i if pattern[i] == "]" else after[i + 1]
    return after


def _class_end(pattern: str, start: int, closing: list[int]) -> int:
    """Where the class opened at ``start`` closes, as fnmatch reads it; -1 if never."""
    j = start + 1
    if j < len(pattern) and pattern[j] == "!":
        j += 1
    if j < len(pattern) and pattern[j] == "]":  # a ``]`` first is a character of the class
        j += 1
    end = closing[j] if j <= len(pattern) else len(pattern)
    return end if end < len(pattern) else -1


def _read_class(body: str) -> _Class:
    negated = body.startswith("!")
    if negated:
        body = body[1:]
    chars: set[str] = set()
    ranges: list[tuple[str, str]] = []
    i = 0
    while i < len(body):
        if i + 2 < len(body) and body[i + 1] == "-":
            if body[i] <= body[i + 2]:  # a range backwards matches nothing, as in fnmatch
                ranges.append((body[i], body[i + 2]))
            i += 3
        else:
            chars.add(body[i])
            i += 1
    return _Class(negated, frozenset(chars), tuple(ranges))


def _length(piece: tuple[_Item, ...]) -> int:
    return sum(len(item) if isinstance(item, str) and item else 1 for item in piece)


def _at(piece: tuple[_Item, ...], text: str, start: int) -> bool:
    """Whether ``piece`` matches ``text`` at ``start`` (which leaves room for it)."""
    for item in piece:
        if isinstance(item, _Class):
            if not item.has(text[start]):
                return False
            start += 1
        elif item == _ANY:
            start += 1
        else:
            if not text.startswith(item, start):
                return False
            start += len(item)
    return True


def _find(piece: tuple[_Item, ...], text: str, start: int, end: int) -> int:
    """The leftmost place from ``start`` where ``piece`` matches and ends by
    ``end``; -1 when there is none."""
    size = _length(piece)
    if size == 0:
        return start
    head = piece[0]
    plain = isinstance(head, str) and head != _ANY
    while start + size <= end:
        if plain:
            assert isinstance(head, str)
            start = text.find(head, start, end)
            if start < 0 or start + size > end:
                return -1
        if _at(piece, text, start):
            return start
        start += 1
    return -1
