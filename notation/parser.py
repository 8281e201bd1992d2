"""Text of one game to a :class:`Record`: the lark grammars and the tree builder.

The grammars (``common.lark`` plus one file per game) are the single source
of truth for the syntax.  They are built once, on first use, as LALR parsers
whose callbacks build the record tree while parsing (no parse tree is
made), with the fast scanner's :class:`.LineAccumulator`.  This module
knows spellings, not rules: whether ``G1`` exists or a move is legal is
for the engine.  Splitting an archive into games and decoding bytes is
:mod:`.reader`'s job; explaining syntax errors is :mod:`.syntax_errors`'.
"""

from __future__ import annotations

import os
import re
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lark import Lark, Token

from hexhop.notation.errors import ArgumentError

from .accumulator import ACTION_TOKENS, LineAccumulator, Misplaced
from .flat import FlatLine
from .games import GAMES
from .limits import DEFAULT_LIMITS, MAX_DEPTH, MAX_TOKEN, ReadLimits
from .model import (
    NO_SPAN,
    CubeAnswer,
    CubeOffer,
    DiceAction,
    DiceKind,
    HopAction,
    Item,
    Line,
    Mark,
    Span,
    Tag,
)
from .names import TAKES, tag_name, tag_value
from .numbers import ascii_int
from .problems import SyntaxProblem, end_of, start_of, token_at
from .scanner import HeaderScanner, MovetextScanner, Rest
from .text import open_parens, unescape

GRAMMAR_FILES = {game.name: game.grammar for game in GAMES}

_DICE = re.compile(
    r"([A-Za-z][0-9]{1,2})[ \t]*([XxWw°:º˚])[ \t]*([A-Za-z][0-9]{1,2}|[0-9])"
    r"(?:[ \t]*=[ \t]*([0-9]))?([\^+]?)"
)
_POINTS = re.compile(r"[a-z][0-9]{1,2}")
_OPS = re.compile(r"[-x](?=[a-z])")
_CUBE_NUMBER = re.compile(r"[0-9]+")
_KINDS: dict[str, DiceKind] = {"X": "move", "x": "move", "W": "roll", "w": "roll"}
_MARKS: dict[str, Mark] = {"": "", "^": "^", "+": "+"}


# ---------------------------------------------------------------- actions


def dice_action(text: str) -> DiceAction:
    """A Hexalit/Trigeo action from the text of a MOVE/CAPTURE/ROLL token."""
    found = _DICE.fullmatch(text)
    if found is None:
        raise ArgumentError(f"not a Hexalit/Trigeo action: {text!r}")
    origin, op, target, promote, mark = found.groups()
    kind = _KINDS.get(op, "capture")
    if kind == "roll":
        return DiceAction(origin.upper(), "roll", None, int(target), None, _MARKS[mark])
    return DiceAction(
        origin.upper(),
        kind,
        target.upper(),
        None,
        None if promote is None else int(promote),
        _MARKS[mark],
    )


def hop_action(text: str) -> HopAction:
    """A Hüpfer action from the text of a HOP token."""
    low = text.lower()
    mark = ""
    if low[-1] in "^+":
        mark, low = low[-1], low[:-1]
    birth = None
    at = low.find("@")
    if at >= 0:
        birth, low = low[at + 1 :], low[:at]
    return HopAction(tuple(_POINTS.findall(low)), tuple(_OPS.findall(low)), birth, _MARKS[mark])


def cube_offer(text: str) -> CubeOffer:
    number = _CUBE_NUMBER.search(text)
    return CubeOffer(_int(number.group()) if number else None)


def _int(digits: str) -> int:
    """The number ``digits`` stand for; the scanner refuses longer words first."""
    number = ascii_int(digits, max_digits=MAX_TOKEN)
    if number is None:
        raise ArgumentError(f"not a number of at most {MAX_TOKEN} digits: {digits[:20]!r}")
    return number


def cube_answer(text: str) -> CubeAnswer:
    return CubeAnswer(text.lower() in TAKES)


_ITEM_MAKERS: dict[str, Callable[[str], Item]] = {
    "MOVE": dice_action,
    "CAPTURE": dice_action,
    "ROLL": dice_action,
    "HOP": hop_action,
    "CUBE_OFFER": cube_offer,
    "CUBE_ANSWER": cube_answer,
}


# ---------------------------------------------------------------- builder


@dataclass
class _Variation:
    """A finished ``( ... )`` waiting to be attached to the node before it."""

    line: Line
    lpar: Token
    type: str = "variation"


@dataclass
class Movetext:
    line: Line
    result: str | None
    result_span: Span | None


def _span(first: Token, last: Token, offset: int) -> Span:
    """From the start of ``first`` to the end of ``last``, lines shifted by ``offset``."""
    (line, column), (end_line, end_column) = start_of(first), end_of(last)
    return Span(line + offset, column, end_line + offset, end_column)


# items remembered by their text (about 500 bytes each); then forgotten
_ITEMS_KEPT = 8192


class _Builder:
    """LALR callbacks: tokens to nodes, lines and tags, with file positions.

    ``offset`` is added to lark's line numbers (the game's chunk does not
    start at line 1 of the file); it is set before every parse.
    """

    def __init__(self) -> None:
        self.offset = 0
        self.max_token = MAX_TOKEN  # set with the offset: the limit of the game read
        self._items: dict[str, Item] = {}

    def span(self, tok: Token) -> Span:
        return _span(tok, tok, self.offset)

    def item(self, tok: Token) -> Item:
        if len(tok) > self.max_token:
            raise SyntaxProblem(tok, "", "IO08", start=tok[:20], limit=self.max_token)
        return self.item_for(tok.type, str(tok))

    def item_for(self, kind: str, text: str) -> Item:
        """The item an action token's text stands for (cached: texts repeat)."""
        items = self._items
        found = items.get(text)
        if found is None:
            if len(items) > _ITEMS_KEPT:
                items.clear()
            found = items[text] = _ITEM_MAKERS[kind](text)
        return found

    # -- header
    def tag(self, children: list[Token]) -> Tag:
        lsqb, written, value, rsqb = children
        name = tag_name(str(written))
        return Tag(name, tag_value(name, unescape(value[1:-1])), _span(lsqb, rsqb, self.offset))

    def head(self, children: list[Any]) -> list[Any]:
        return children

    # -- movetext
    def variation(self, children: list[Any]) -> _Variation:
        lpar, rpar = children[0], children[-1]
        off = self.offset
        span = Span(lpar.line + off, lpar.column, rpar.end_line + off, rpar.end_column)
        return _Variation(self.line(children[1:-1], span), lpar)

    def movetext(self, children: list[Any]) -> Movetext:
        end = len(children)
        while end and children[end - 1].type in ("COMMENT", "LINE_COMMENT"):
            end -= 1
        if end and children[end - 1].type == "RESULT":
            result = children[end - 1]
            trailing = children[end:]
            line = self.line(children[: end - 1] + trailing, NO_SPAN)
            return Movetext(line, str(result), self.span(result))
        return Movetext(self.line(children, NO_SPAN), None, None)

    def line(self, elements: list[Any], span: Span) -> Line:
        """The line of a flat list of tokens and finished variations, written at ``span``."""
        acc = LineAccumulator()
        try:
            for el in elements:
                kind = el.type
                if kind in ACTION_TOKENS:
                    acc.action(self.item(el), self.span(el), str(el))
                elif kind == "MOVE_NUMBER":
                    acc.move_number(el, self.span(el), el)
                    if len(el) > self.max_token:
                        raise SyntaxProblem(el, "", "IO08", start=el[:20], limit=self.max_token)
                elif kind in ("COMMENT", "LINE_COMMENT"):
                    acc.comment(el)
                elif kind == "variation":
                    acc.branch(el.lpar)
                    acc.variation(el.line)
                else:  # GLYPH or NAG
                    acc.glyph(str(el), el)
            return acc.line(span)
        except Misplaced as wrong:
            raise SyntaxProblem(wrong.at, wrong.message) from None


# ---------------------------------------------------------------- parsers


@dataclass
class _Parser:
    lark: Lark
    builder: _Builder
    lock: threading.Lock
    scanner: Any


_PARSERS: dict[str, _Parser] = {}
_BUILD_LOCK = threading.Lock()


def _parser(name: str) -> _Parser:
    """The LALR parser for ``name`` (a game or ``header``), built once."""
    found = _PARSERS.get(name)
    if found is None:
        with _BUILD_LOCK:
            found = _PARSERS.get(name)
            if found is None:
                found = _PARSERS[name] = _build(name)
    return found


def _build(name: str) -> _Parser:
    """Build (or load from lark's cache in the temp folder: building the LALR
    tables takes a tenth of a second, loading them a millisecond)."""
    builder = _Builder()
    if name == "header":
        lark = Lark.open_from_package(
            "hexhop.notation",
            "header.lark",
            parser="lalr",
            start="head",
            transformer=builder,
            cache=_cache_file(name),
        )
        return _Parser(lark, builder, threading.Lock(), HeaderScanner(lark))
    lark = Lark.open_from_package(
        "hexhop.notation",
        GRAMMAR_FILES[name],
        parser="lalr",
        start="movetext",
        transformer=builder,
        cache=_cache_file(name),
    )
    scanner = MovetextScanner(lark, builder.item_for, builder._items)
    return _Parser(lark, builder, threading.Lock(), scanner)


def _cache_file(name: str) -> str | bool:
    """Where lark keeps the built tables of grammar ``name``: a folder of the
    user's own (not the shared temp folder, as the tables are pickled), or no
    cache when it cannot be made. Lark checks the grammar's hash on loading,
    so a changed grammar is rebuilt."""
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(root, "hexhop")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return False
    if not os.access(folder, os.W_OK):
        return False
    return os.path.join(folder, f"{name}-py{sys.version_info[0]}{sys.version_info[1]}.lark")


def run(name: str, text: str, offset: int, max_token: int = MAX_TOKEN) -> Any:
    """Parse ``text`` with the parser ``name``; positions shifted by ``offset``
    lines, actions and move numbers longer than ``max_token`` refused (IO08)."""
    parser = _parser(name)
    with parser.lock:
        parser.builder.offset = offset
        parser.builder.max_token = max_token
        return parser.lark.parse(text)


def _run_movetext(game: str, text: str, offset: int, max_token: int = MAX_TOKEN) -> Movetext:
    """:func:`run` for a game's movetext, whose start rule builds a Movetext."""
    found = run(game, text, offset, max_token)
    assert isinstance(found, Movetext)
    return found


# ---------------------------------------------------------------- one game


@dataclass(frozen=True)
class Header:
    tags: tuple[Tag, ...]
    rest: Rest | None  # the movetext and where it starts


def parse_header(
    text: str, first_line: int, *, fast: bool = True, limits: ReadLimits = DEFAULT_LIMITS
) -> Header:
    """The tag pairs at the top of a game's text and where its movetext starts.

    Raises lark's ``UnexpectedInput`` on a malformed tag and
    :class:`BeyondLimit` for a tag beyond ``limits``.
    """
    parser = _parser("header")
    if fast:
        found = parser.scanner.scan(text, first_line, limits)
        if found is not None:
            return Header(*found)
    children = run("header", text, first_line - 1)
    if children and isinstance(children[-1], Token):
        tok = children[-1]
        off = first_line - 1
        (line, column), (end_line, end_column) = start_of(tok), end_of(tok)
        rest = Rest(str(tok), line + off, column, end_line + off, end_column)
        return Header(tuple(children[:-1]), rest)
    return Header(tuple(children), None)


def movetext_text(rest: Rest) -> str:
    """The movetext padded so that lark's columns are the file's columns."""
    return " " * (rest.column - 1) + rest.text


def parse_movetext(
    game: str, rest: Rest, *, fast: bool = True, limits: ReadLimits = DEFAULT_LIMITS
) -> Movetext:
    """The movetext ``rest`` read as ``game``.

    Raises lark's ``UnexpectedInput``, :class:`SyntaxProblem` or
    :class:`BeyondLimit`.  The fast scanner reads well-formed text and
    measures it against ``limits``; the LALR parser reads only as much of
    an ill-formed text as it needs to explain it, which the scanner has
    measured first.
    """
    text = movetext_text(rest)
    if not fast:
        if text.count("(") > MAX_DEPTH:
            _check_depth(text, rest.line - 1)
        return _run_movetext(game, text, rest.line - 1)
    found = _parser(game).scanner.scan(text, rest.line, limits)
    if not isinstance(found, int):
        return Movetext(*found)
    read = _run_movetext(game, text[:found], rest.line - 1, limits.max_token)
    if found < len(text):  # the part should hold an error: read it all to be sure
        return _run_movetext(game, text, rest.line - 1, limits.max_token)
    return read


def parse_movetext_flat(
    game: str, rest: Rest, limits: ReadLimits = DEFAULT_LIMITS
) -> FlatLine | None:
    """The main line of the movetext ``rest`` read as ``game`` in flat
    arrays, or None when only :func:`parse_movetext` can read it (a
    variation, a syntax problem, a limit near)."""
    scanner: MovetextScanner = _parser(game).scanner
    return scanner.scan_flat(movetext_text(rest), rest.line, limits)


def _check_depth(text: str, offset: int) -> None:
    for depth, pos in open_parens(text):
        if depth > MAX_DEPTH:
            tok = Token.new_borrow_pos("LPAR", "(", token_at(text, pos))
            raise SyntaxProblem(tok, "", "SY06", limit=MAX_DEPTH)
