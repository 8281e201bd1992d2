"""The fast path: well-formed games read by regexes compiled from the grammars.

The lark grammars define the language.  Running lark's LALR parser on every
token costs about 10 µs per action, so well-formed text is read here
instead: one regular expression made of the grammar's own terminals (in
lark's lexer order), and a loop that follows the grammar's structure (a
flat movetext, nested variations, the result last).  Whenever the text is
not plainly well formed this module gives up (``None``) and the LALR
parser reads the game, which also explains the error.  A property test
checks that both paths give the same records.  Nothing here knows the rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from lark import Lark

from .model import NO_SPAN, Line, Node, Span, Tag

_EMPTY: tuple = ()
_ACTIONS = frozenset({"MOVE", "CAPTURE", "ROLL", "HOP", "CUBE_OFFER", "CUBE_ANSWER"})
_ESCAPE = re.compile(r"\\([\\\"])")
_new = object.__new__
_set = object.__setattr__


def _span(line: int, column: int, end_line: int, end_column: int) -> Span:
    """``Span(...)`` without the frozen dataclass's slower ``__init__``."""
    span = _new(Span)
    _set(span, "__dict__", {"line": line, "column": column,
                            "end_line": end_line, "end_column": end_column})
    return span


def _node(item: Any, span: Span, text: str, number: int | None, dots: int,
          number_span: Span | None, glyphs: Any, comments: Any, variations: Any) -> Node:
    """``Node(...)`` without the frozen dataclass's slower ``__init__``."""
    node = _new(Node)
    _set(node, "__dict__", {
        "item": item, "span": span, "text": text, "number": number, "number_dots": dots,
        "number_span": number_span,
        "glyphs": tuple(glyphs) if glyphs else _EMPTY,
        "comments": tuple(comments) if comments else _EMPTY,
        "variations": tuple(variations) if variations else _EMPTY})
    return node


def comment_text(token: str) -> str:
    """The text of a ``{ … }`` or ``; …`` comment, without its marks."""
    return token[1:-1].strip() if token[0] == "{" else token[1:].strip()


@dataclass(frozen=True)
class Rest:
    """The movetext of a game: its text and where it starts and ends."""

    text: str
    line: int
    column: int
    end_line: int
    end_column: int


def terminal_regex(lark: Lark, names: set[str] | None = None) -> str:
    """The grammar's terminals as one alternation, in the order lark's lexer tries them."""
    terminals = [t for t in lark.terminals if names is None or t.name in names]
    terminals.sort(key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name))
    return "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terminals)


class MovetextScanner:
    """Reads a well-formed movetext of one game, or returns None."""

    def __init__(self, lark: Lark, item: Any) -> None:
        self.regex = re.compile(terminal_regex(lark) + r"|(?P<BAD>[\s\S])")
        self.item = item  # text of an action token -> Item (cached)

    def scan(self, text: str, first_line: int) -> Any:
        """(Line, result, result span) of ``text`` whose line 1 is ``first_line``, or None."""
        item_of = self.item
        line_no, line_start = first_line, 0
        stack: list[tuple] = []
        nodes: list[Node] = []
        lead: list[str] = []
        item = span = words = number = number_span = None
        dots = 0
        glyphs: Any = None
        comments: Any = None
        variations: Any = None
        pending = None
        lpar = None
        result = result_span = None
        for m in self.regex.finditer(text):
            kind = m.lastgroup
            if kind == "WS":
                ws = m.group()
                if "\n" in ws:
                    line_no += ws.count("\n")
                    line_start = m.start() + ws.rindex("\n") + 1
                continue
            value = m.group()
            start = m.start()
            column = start - line_start + 1
            if "\n" in value:
                end_line = line_no + value.count("\n")
                end_column = len(value) - value.rindex("\n")
            else:
                end_line, end_column = line_no, column + len(value)
            here = _span(line_no, column, end_line, end_column)
            if end_line != line_no:
                line_no, line_start = end_line, start + value.rindex("\n") + 1
            if result is not None and kind != "COMMENT" and kind != "LINE_COMMENT":
                return None
            if kind in _ACTIONS:
                if item is not None:
                    nodes.append(_node(item, span, words, number, dots, number_span,
                                      glyphs, comments, variations))
                item, span, words = item_of(kind, value), here, value
                glyphs = comments = variations = None
                if pending is None:
                    number, dots, number_span = None, 0, None
                else:
                    number, dots, number_span = pending
                    pending = None
            elif kind == "MOVE_NUMBER":
                if pending is not None:
                    return None
                bare = value.rstrip(".")
                pending = (int(bare), len(value) - len(bare), here)
            elif kind == "COMMENT" or kind == "LINE_COMMENT":
                note = comment_text(value)
                if item is None:
                    lead.append(note)
                elif comments is None:
                    comments = [note]
                else:
                    comments.append(note)
            elif kind == "GLYPH" or kind == "NAG":
                if pending is not None or item is None:
                    return None
                if glyphs is None:
                    glyphs = [value]
                else:
                    glyphs.append(value)
            elif kind == "LPAR":
                if pending is not None or item is None:
                    return None
                stack.append((nodes, lead, item, span, words, number, dots, number_span,
                              glyphs, comments, variations, lpar))
                nodes, lead, lpar = [], [], here
                item = None
            elif kind == "RPAR":
                if not stack or pending is not None:
                    return None
                if item is not None:
                    nodes.append(_node(item, span, words, number, dots, number_span,
                                      glyphs, comments, variations))
                assert lpar is not None
                done = Line(tuple(nodes), tuple(lead),
                            Span(lpar.line, lpar.column, end_line, end_column))
                (nodes, lead, item, span, words, number, dots, number_span,
                 glyphs, comments, variations, lpar) = stack.pop()
                if variations is None:
                    variations = [done]
                else:
                    variations.append(done)
            elif kind == "RESULT":
                if stack or pending is not None:
                    return None
                result, result_span = value, here
            else:
                return None
        if stack or pending is not None:
            return None
        if item is not None:
            nodes.append(_node(item, span, words, number, dots, number_span,
                                      glyphs, comments, variations))
        return Line(tuple(nodes), tuple(lead), NO_SPAN), result, result_span


class HeaderScanner:
    """Reads well-formed tag pairs and finds the movetext, or returns None."""

    def __init__(self, lark: Lark) -> None:
        name = lark.get_terminal("TAG_NAME").pattern.to_regexp()
        value = lark.get_terminal("TAG_VALUE").pattern.to_regexp()
        self.tag = re.compile(rf"(\s*)\[\s*({name})\s*({value})\s*\]")
        self.space = re.compile(r"\s*")

    def scan(self, text: str, first_line: int) -> tuple[tuple[Tag, ...], Rest | None] | None:
        tags = []
        pos = 0
        line_no, line_start = first_line, 0
        match = self.tag.match
        while True:
            m = match(text, pos)
            if m is None:
                break
            lead = m.group(1)
            if "\n" in lead:
                line_no += lead.count("\n")
                line_start = pos + lead.rindex("\n") + 1
            start = m.start() + len(lead)
            body = m.group()[len(lead):]
            column = start - line_start + 1
            if "\n" in body:
                return None  # tags across lines: let the grammar read them
            raw = m.group(3)[1:-1]
            value = _ESCAPE.sub(r"\1", raw) if "\\" in raw else raw
            tags.append(Tag(m.group(2), value, Span(line_no, column, line_no, column + len(body))))
            pos = m.end()
        gap = self.space.match(text, pos).group()  # type: ignore[union-attr]
        if "\n" in gap:
            line_no += gap.count("\n")
            line_start = pos + gap.rindex("\n") + 1
        pos += len(gap)
        if pos >= len(text):
            return tuple(tags), None
        if text[pos] == "[":
            return None
        rest = text[pos:]
        end_line = line_no + rest.count("\n")
        end_column = len(rest) - rest.rindex("\n") if end_line != line_no \
            else pos - line_start + 1 + len(rest)
        return tuple(tags), Rest(rest, line_no, pos - line_start + 1, end_line, end_column)
