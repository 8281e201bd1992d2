"""The fast path: well-formed games read by regexes compiled from the grammars.

The lark grammars define the language.  Running lark's LALR parser on every
token costs about 10 µs per action, so well-formed text is read here
instead: one regular expression made of the grammar's own terminals (in
lark's lexer order), and a loop that follows the grammar's structure (a
flat movetext, nested variations, the result last) and hands the tokens to
the :class:`.LineAccumulator` the LALR parser's callbacks use too.  Whenever the text is
not plainly well formed this module gives up (``None``) and the LALR
parser reads the game, which also explains the error.  A property test
checks that both paths give the same records.  Nothing here knows the rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final, cast

from lark import Lark

from .accumulator import ACTION_TOKENS, LineAccumulator, Misplaced
from .findings import make, words
from .flat import FlatLine
from .limits import DEFAULT_LIMITS, BeyondLimit, ReadLimits
from .model import NO_SPAN, Span, Tag
from .names import tag_name, tag_value
from .numbers import ascii_int
from .text import comment_text, match_end, place, unescape

_new = object.__new__


def _span(line: int, column: int, end_line: int, end_column: int) -> Span:
    """``Span(...)`` without the frozen dataclass's slower ``__init__``: its
    ``__dict__`` is filled in place (cheaper than setting a new one)."""
    span = _new(Span)
    fields = span.__dict__
    fields["line"] = line
    fields["column"] = column
    fields["end_line"] = end_line
    fields["end_column"] = end_column
    return span


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
    """Reads a well-formed movetext of one game, or tells how far the LALR
    parser may read to explain why it is not well formed.

    Tokens are matched one at a time in a window a little longer than the
    longest token or comment the limits allow, so that no regular
    expression runs over more text than that; actions, items, token and
    comment lengths and the nesting depth are measured on the way and the
    first one beyond its limit raises :class:`BeyondLimit`.
    """

    def __init__(self, lark: Lark, item: Any, items: dict[str, Any] | None = None) -> None:
        self.regex = re.compile(terminal_regex(lark) + r"|(?P<BAD>[\s\S])")
        # blanks, then a token: one match a token (the lookahead and back
        # reference take the blanks whole, so they are never given back)
        self.token = re.compile(r"(?=(\s*))\1(?:" + self.regex.pattern + ")")
        self.item = item  # text of an action token -> Item (cached)
        self.items = {} if items is None else items  # that cache, looked into first

    def scan(self, text: str, first_line: int, limits: ReadLimits = DEFAULT_LIMITS) -> Any:
        """(Line, result, result span) of ``text`` whose line 1 is ``first_line``;
        or, when ``text`` is not plainly well formed, the length of its
        start that the LALR parser needs to explain why (an int).

        One pass: each token is matched, measured against the limits (as
        :meth:`tokens` does) and handed on; a span is made only for what
        the record keeps one for.
        """
        item_of, known = self.item, self.items
        # the pattern ends in a BAD alternative, so it matches wherever it is tried
        match = cast("Callable[..., re.Match[str]]", self.regex.match)
        token = self.token.match
        size = len(text)
        window = max(limits.max_token, limits.max_comment) + _SLACK
        max_actions, max_items, max_token = limits.max_actions, limits.max_items, limits.max_token
        max_comment, max_depth = limits.max_comment, limits.max_depth
        actions = items = depth = 0  # measured as :meth:`tokens` measures them
        line_no, line_start = first_line, 0
        acc = LineAccumulator()
        action = acc.action
        stack: list[tuple[LineAccumulator, Span]] = []  # the lines a '(' left, and where
        result = result_span = None
        last = 0  # the end of the token before
        kind = ""
        pos = end = 0

        def cut(stop: int, nesting: int, immediate: bool, after_result: bool = False) -> int:
            rest = self.tokens(text, first_line, limits, (end, actions, items, depth))
            return _Cut(text, rest, window)(stop, nesting, immediate, after_result=after_result)

        try:
            while pos < size:
                stop = pos + window
                m = token(text, pos, stop)
                if m is None:  # blanks to the end of the window
                    pos = match_end(_SPACES.match(text, pos), pos)
                    continue
                start = m.end(1)
                end = m.end()
                if end > stop - _SLACK and stop < size:  # perhaps cut short: again from its start
                    stop = start + window
                    m = match(text, start, stop)
                    end = m.end()
                kind = m.lastgroup  # type: ignore[assignment]  # every alternative is named
                items += 1
                if kind in _COUNTED:
                    actions += 1
                    if end - start > max_token or actions > max_actions:
                        _beyond(text, start, end, first_line, limits, actions)
                elif kind == "BAD":  # perhaps a token longer than the window: the whole text tells
                    m = match(text, start)
                    kind = m.lastgroup  # type: ignore[assignment]
                    end = m.end()
                    if kind == "BAD":
                        return cut(start, 0, True)
                    if kind in _COUNTED or kind in _WORDS:
                        _beyond(text, start, end, first_line, limits, actions)
                    _check_comment(text, start, end, first_line, limits)
                elif kind in _WORDS:
                    if end - start > max_token:
                        _beyond(text, start, end, first_line, limits, actions)
                elif kind == "LPAR":
                    depth += 1
                    if depth > max_depth:
                        raise BeyondLimit(
                            make("SY06", place(text, start, first_line), limit=max_depth)
                        )
                elif kind == "RPAR" and depth:
                    depth -= 1
                elif kind == "COMMENT" or kind == "LINE_COMMENT":
                    if kind == "LINE_COMMENT" and end == stop:
                        end = text.find("\n", start)
                        end = size if end < 0 else end
                    if end - start - 2 >= max_comment:
                        _check_comment(text, start, end, first_line, limits)
                if items > max_items:
                    raise BeyondLimit(
                        make(
                            "IO05",
                            place(text, start, first_line),
                            limit=max_items,
                            items=words(
                                "items (actions, move numbers, glyphs, comments and parentheses)"
                            ),
                        )
                    )
                pos = end
                # where the token is: lines are counted in the gap before it
                # (mostly one space: a slice of it is cheaper than a count call)
                gap = text[last:start]
                if "\n" in gap:
                    line_no += gap.count("\n")
                    line_start = last + gap.rindex("\n") + 1
                last = end
                value = text[start:end]
                if kind == "COMMENT" or kind == "LINE_COMMENT":
                    if "\n" in value:
                        line_no += value.count("\n")
                        line_start = start + value.rindex("\n") + 1
                    acc.comment(value)
                    continue
                column = start - line_start + 1
                if "\n" in value:
                    end_line = line_no + value.count("\n")
                    end_column = len(value) - value.rindex("\n")
                else:
                    end_line, end_column = line_no, column + len(value)
                if result is not None:
                    return cut(end, 0, True)
                if kind in ACTION_TOKENS:
                    here = _new(Span)  # _span(...) inlined: one call less a token
                    fields = here.__dict__
                    fields["line"] = line_no
                    fields["column"] = column
                    fields["end_line"] = end_line
                    fields["end_column"] = end_column
                    item = known.get(value)
                    action(item_of(kind, value) if item is None else item, here, value)
                elif kind == "MOVE_NUMBER":
                    acc.move_number(value, _span(line_no, column, end_line, end_column), value)
                elif kind == "GLYPH" or kind == "NAG":
                    acc.glyph(value, value)
                elif kind == "LPAR":
                    acc.branch(value)
                    stack.append((acc, _span(line_no, column, end_line, end_column)))
                    acc = LineAccumulator()
                    action = acc.action
                elif kind == "RPAR":
                    if not stack:
                        return cut(end, 0, True)
                    outer, lpar = stack[-1]
                    done = acc.line(Span(lpar.line, lpar.column, end_line, end_column))
                    stack.pop()
                    acc = outer
                    action = acc.action
                    acc.variation(done)
                elif kind == "RESULT":
                    if stack:
                        return cut(end, 0, True)
                    if acc.pending is not None:
                        return cut(end, 0, False, after_result=True)
                    result, result_span = value, _span(line_no, column, end_line, end_column)
                else:
                    return cut(start, 0, True)
                if end_line != line_no:
                    line_no, line_start = end_line, start + value.rindex("\n") + 1
        except Misplaced:  # the parser explains; it reads on to the end of the line
            return cut(end, len(stack) + _DEPTH_AFTER.get(kind, 0), False)
        if stack or acc.pending is not None:
            return len(text)
        return acc.line(NO_SPAN), result, result_span

    def scan_flat(
        self, text: str, first_line: int, limits: ReadLimits = DEFAULT_LIMITS
    ) -> FlatLine | None:
        """The main line of ``text`` (whose line 1 is ``first_line``) as a
        :class:`.flat.FlatLine`, its variations as flat lines of their own,
        without a node or span per action; None whenever :meth:`scan` could
        do anything but return a well-formed record (a token it is unsure
        of, a misplaced one, anything near a limit): the tree path then
        reads the game and tells what it finds.

        The tokens are those :meth:`scan` matches: a text no longer than its
        window is matched in one ``finditer``, each token where the one
        before ended; lines and columns are counted only for what a finding
        points at (:meth:`.FlatLine.span`).
        """
        size = len(text.rstrip())  # blanks at the end: no token, no match tried
        if size >= max(limits.max_token, limits.max_comment) + _SLACK:
            return None  # the window's careful reading
        item_of, known = self.item, self.items
        max_token, max_comment = limits.max_token, limits.max_comment
        flat = line = FlatLine(text, first_line)
        outer: list[FlatLine] = []  # the lines the open variations branch from
        found, texts, starts = flat.items, flat.texts, flat.starts
        items = actions = 0
        pending: tuple[int, int, int, int] | None = None  # a move number waiting
        result = False
        for m in self.token.finditer(text, 0, size):
            kind = m.lastgroup
            start, end = m.span(kind)  # type: ignore[arg-type]  # every alternative is named
            items += 1
            if kind in _ACTIONS_ONLY:
                if result or end - start > max_token:
                    return None
                value = text[start:end]
                item = known.get(value)
                found.append(item_of(kind, value) if item is None else item)
                texts.append(value)
                starts.append(start)
                actions += 1
                if pending is not None:
                    line.numbers[len(found) - 1] = pending
                    pending = None
            elif kind == "MOVE_NUMBER":
                if result or pending is not None or end - start > max_token:
                    return None
                bare = text[start:end].rstrip(".")
                number = ascii_int(bare)
                if number is None:
                    return None
                pending = (number, end - start - len(bare), start, end)
            elif kind == "COMMENT" or kind == "LINE_COMMENT":
                if end - start - 2 >= max_comment:
                    return None
                line.comments += 1
            elif kind == "GLYPH" or kind == "NAG":
                if result or pending is not None or not found or end - start > max_token:
                    return None
                line.glyphs.setdefault(len(found) - 1, []).append(text[start:end])
            elif kind == "CUBE_OFFER" or kind == "CUBE_ANSWER":
                value = text[start:end]
                if result or end - start > max_token or "\n" in value:
                    return None
                item = known.get(value)
                found.append(item_of(kind, value) if item is None else item)
                texts.append(value)
                starts.append(start)
                line.cubes += 1
                if pending is not None:
                    line.numbers[len(found) - 1] = pending
                    pending = None
            elif kind == "LPAR":  # a variation of the line's last item
                if result or pending is not None or not found or len(outer) >= limits.max_depth:
                    return None
                variation = FlatLine(text, first_line)
                line.variations.setdefault(len(found) - 1, []).append(variation)
                outer.append(line)
                line = variation
                found, texts, starts = line.items, line.texts, line.starts
            elif kind == "RPAR":
                if not outer or pending is not None:
                    return None
                line = outer.pop()
                found, texts, starts = line.items, line.texts, line.starts
            elif kind == "RESULT":
                if result or pending is not None or outer:
                    return None
                result = True
                flat.result = text[start:end]
                flat.result_span = flat.span_at(start, end)
            else:  # what no terminal matches
                return None
        if pending is not None or outer or items > limits.max_items:
            return None
        if actions > limits.max_actions:
            return None
        return flat

    def tokens(
        self,
        text: str,
        first_line: int,
        limits: ReadLimits,
        state: tuple[int, int, int, int] = (0, 0, 0, 0),
    ) -> Iterator[tuple[str, int, int]]:
        """(kind, start, end) of every token of ``text`` but blanks, up to the
        first that matches no terminal (kind ``BAD``); raises :class:`BeyondLimit`.
        ``state`` is where to go on from: the position, and the actions,
        items and depth counted before it."""
        # the pattern ends in a BAD alternative, so it matches wherever it is tried
        match = cast("Callable[..., re.Match[str]]", self.regex.match)
        token = self.token.match
        size = len(text)
        window = max(limits.max_token, limits.max_comment) + _SLACK
        max_actions, max_items, max_token = limits.max_actions, limits.max_items, limits.max_token
        pos, actions, items, depth = state
        while pos < size:
            stop = pos + window
            m = token(text, pos, stop)
            if m is None:  # blanks to the end of the window
                pos = match_end(_SPACES.match(text, pos), pos)
                continue
            pos = m.end(1)
            end = m.end()
            if end > stop - _SLACK and stop < size:  # perhaps cut short: again from its start
                stop = pos + window
                m = match(text, pos, stop)
                end = m.end()
            kind = m.lastgroup
            items += 1
            if kind in _COUNTED:
                actions += 1
                if end - pos > max_token or actions > max_actions:
                    _beyond(text, pos, end, first_line, limits, actions)
            elif kind == "BAD":  # perhaps a token longer than the window: the whole text tells
                m = match(text, pos)
                kind = m.lastgroup
                end = m.end()
                if kind == "BAD":
                    yield "BAD", pos, end
                    return
                if kind in _COUNTED or kind in _WORDS:
                    _beyond(text, pos, end, first_line, limits, actions)
                _check_comment(text, pos, end, first_line, limits)
            elif kind in _WORDS:
                if end - pos > max_token:
                    _beyond(text, pos, end, first_line, limits, actions)
            elif kind == "LPAR":
                depth += 1
                if depth > limits.max_depth:
                    raise BeyondLimit(
                        make("SY06", place(text, pos, first_line), limit=limits.max_depth)
                    )
            elif kind == "RPAR" and depth:
                depth -= 1
            elif kind == "COMMENT" or kind == "LINE_COMMENT":
                if kind == "LINE_COMMENT" and end == stop:
                    end = text.find("\n", pos)
                    end = size if end < 0 else end
                if end - pos - 2 >= limits.max_comment:
                    _check_comment(text, pos, end, first_line, limits)
            if items > max_items:
                raise BeyondLimit(
                    make(
                        "IO05",
                        place(text, pos, first_line),
                        limit=max_items,
                        items=words(
                            "items (actions, move numbers, glyphs, comments and parentheses)"
                        ),
                    )
                )
            yield kind, pos, end  # type: ignore[misc]  # every alternative is named: lastgroup is set
            pos = end


_SPACES: Final = re.compile(r"\s*")
_HEADER_WINDOW: Final = 4096  # the tags read in one match: any beyond are read one by one
_SLACK: Final = 64  # a window this much longer than a limit holds every token within it
_COUNTED: Final = ACTION_TOKENS - {"CUBE_OFFER", "CUBE_ANSWER"}
_ACTIONS_ONLY: Final = frozenset(_COUNTED)  # the tokens of actions (no cube events)
_WORDS: Final = frozenset({"CUBE_OFFER", "CUBE_ANSWER", "MOVE_NUMBER", "NAG"})  # length-limited too
_DEPTH_AFTER: Final = {"LPAR": 1, "RPAR": -1}  # the nesting once a misplaced token is read


def _beyond(
    text: str, start: int, end: int, first_line: int, limits: ReadLimits, actions: int
) -> None:
    """Raise IO08 for a token longer than the limit, else IO05."""
    where = place(text, start, first_line)
    if end - start > limits.max_token:
        raise BeyondLimit(
            make("IO08", where, start=text[start : min(end, start + 20)], limit=limits.max_token)
        )
    raise BeyondLimit(make("IO05", where, limit=limits.max_actions, items=words("actions")))


class _Cut:
    """How much of a movetext the LALR parser needs to explain the problem the
    scanner met: up to where it stops reading for sure (a character no
    terminal matches, a ')' too many, a result inside a variation or
    anything but a comment after the result), and a window beyond.  The
    tokens up to there are counted against the limits on the way, so the
    parser never reads more than the limits allow."""

    def __init__(self, text: str, tokens: Iterator[tuple[str, int, int]], window: int):
        self.text, self.tokens, self.window = text, tokens, window

    def __call__(
        self, stop: int, depth: int, immediate: bool, *, after_result: bool = False
    ) -> int:
        if not immediate:
            for kind, _, stop in self.tokens:  # noqa: B007 - stop: where a break leaves it
                if kind == "COMMENT" or kind == "LINE_COMMENT":
                    continue
                if after_result or kind == "BAD":
                    break
                if kind == "LPAR":
                    depth += 1
                elif kind == "RPAR":
                    if not depth:
                        break
                    depth -= 1
                elif kind == "RESULT":
                    if depth:
                        break
                    after_result = True
            else:
                return len(self.text)
        return min(len(self.text), stop + self.window)


def _check_comment(text: str, start: int, end: int, first_line: int, limits: ReadLimits) -> None:
    """Raise IO06 when the comment text[start:end] is longer than the limit."""
    if end - start - 2 < limits.max_comment:
        return
    length = len(comment_text(text[start:end]))
    if length > limits.max_comment:
        raise BeyondLimit(
            make("IO06", place(text, start, first_line), length=length, limit=limits.max_comment)
        )


# tags remembered by their text, and the longest text remembered
_TAGS_KEPT = 1_000
_TAG_KEPT_LENGTH = 200


class HeaderScanner:
    """Reads well-formed tag pairs and finds the movetext, or returns None.

    A tag value is matched in a window just longer than the limit, so that
    a value of megabytes is found too long without being read.
    """

    def __init__(self, lark: Lark) -> None:
        name = lark.get_terminal("TAG_NAME").pattern.to_regexp()
        value = lark.get_terminal("TAG_VALUE").pattern.to_regexp()
        assert value.startswith('"') and value.endswith('"')  # a quoted string
        self.open = re.compile(rf'\s*\[\s*({name})\s*"')
        self.value = re.compile(value[1:-1])
        self.close = re.compile(r'"\s*\]')
        self.space = re.compile(r"\s*")
        # the usual header in two matches: all its tags, then each one's parts
        tag = rf'\[\s*({name})\s*"({value[1:-1]})"\s*\]'
        self.block = re.compile(rf"(?:\s*{tag})*")
        self.tag = re.compile(rf"(\s*)({tag})")
        self.known: dict[str, tuple[str, str]] = {}  # a tag's text -> (name, value)

    def _read_tag(self, whole: str, written: str, raw: str) -> tuple[str, str]:
        """The name and value of a tag written ``whole`` (kept: tags repeat,
        but a long one seldom does and would only fill the memory)."""
        name = tag_name(written)
        found = (name, tag_value(name, unescape(raw)))
        if len(whole) <= _TAG_KEPT_LENGTH:
            if len(self.known) > _TAGS_KEPT:
                self.known.clear()
            self.known[whole] = found
        return found

    def _short_tags(
        self, text: str, first_line: int, limits: ReadLimits
    ) -> tuple[list[Tag], int, int, int] | None:
        """(tags, end, its line, where that line starts) of the well-formed
        tags at the start of ``text``, or None when one is beyond the limits."""
        stop = self.block.match(text, 0, _HEADER_WINDOW).end()  # type: ignore[union-attr]
        known = self.known
        max_token, max_value = limits.max_token, limits.max_tag_value
        tags = []
        pos = line_start = 0
        line_no = first_line
        for lead, whole, written, raw in self.tag.findall(text, 0, stop):
            if len(written) > max_token or len(raw) > max_value:
                return None  # the careful loop explains
            lsqb = pos + len(lead)
            if lead == "\n":  # the usual case: one tag a line
                line_no += 1
                line_start = lsqb
            elif "\n" in lead:
                line_no += lead.count("\n")
                line_start = pos + lead.rindex("\n") + 1
            line, column = line_no, lsqb - line_start + 1
            pos = lsqb + len(whole)
            if "\n" in whole:
                line_no += whole.count("\n")
                line_start = lsqb + whole.rindex("\n") + 1
            found = known.get(whole)
            if found is None:
                found = self._read_tag(whole, written, raw)
            # Tag(...) and Span(...) without the frozen dataclasses' slower __init__
            tag = _new(Tag)
            fields = tag.__dict__
            fields["name"], fields["value"] = found
            fields["span"] = _span(line, column, line_no, pos - line_start + 1)
            tags.append(tag)
        return tags, pos, line_no, line_start

    def scan(
        self, text: str, first_line: int, limits: ReadLimits = DEFAULT_LIMITS
    ) -> tuple[tuple[Tag, ...], Rest | None] | None:
        tags: list[Tag] = []
        pos = 0
        line_no, line_start = first_line, 0  # the line of ``pos`` and where it starts
        fast = self._short_tags(text, first_line, limits)
        if fast is not None:
            tags, pos, line_no, line_start = fast
        while True:
            m = self.open.match(text, pos)
            if m is None:
                break
            name_start, name_end = m.span(1)
            if name_end - name_start > limits.max_token:
                raise BeyondLimit(
                    make(
                        "IO08",
                        place(text, name_start, first_line),
                        start=text[name_start : min(name_end, name_start + 20)],
                        limit=limits.max_token,
                    )
                )
            lsqb = text.rindex("[", pos, name_start)
            lines = text.count("\n", pos, lsqb)
            if lines:
                line_no += lines
                line_start = text.rindex("\n", pos, lsqb) + 1
            line, column = line_no, lsqb - line_start + 1
            # two beyond the limit: an escape pair cut by the window still shows
            value = self.value.match(text, m.end(), m.end() + limits.max_tag_value + 2)
            if value is None:  # the value's pattern matches the empty string too
                return None
            if value.end() - m.end() > limits.max_tag_value:
                raise BeyondLimit(make("IO07", Span(line, column), limit=limits.max_tag_value))
            close = self.close.match(text, value.end())
            if close is None:
                return None  # the grammar explains
            raw = value.group()
            pos = close.end()
            lines = text.count("\n", lsqb, pos)
            if lines:
                line_no += lines
                line_start = text.rindex("\n", lsqb, pos) + 1
            name = tag_name(m.group(1))
            span = Span(line, column, line_no, pos - line_start + 1)
            tags.append(Tag(name, tag_value(name, unescape(raw)), span))
        gap = text[pos : match_end(self.space.match(text, pos), pos)]
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
        end_column = (
            len(rest) - rest.rindex("\n")
            if end_line != line_no
            else pos - line_start + 1 + len(rest)
        )
        return tuple(tags), Rest(rest, line_no, pos - line_start + 1, end_line, end_column)
