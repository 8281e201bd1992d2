"""Text of one game to a :class:`Record`: the lark grammars and the tree builder.

The grammars (``common.lark`` plus one file per game) are the single source
of truth for the syntax.  They are built once, on first use, as LALR parsers
whose callbacks build the record tree while parsing (no parse tree is
made).  This module knows spellings, not rules: whether ``G1`` exists or a
move is legal is for the engine.  Splitting an archive into games and
decoding bytes is :mod:`.reader`'s job; explaining syntax errors is
:mod:`.syntax_errors`'.
"""

from __future__ import annotations

import os
import re
import sys
import threading
from dataclasses import dataclass
from typing import Any, Callable

from lark import Lark, Token
from lark.exceptions import UnexpectedInput

from .findings import Finding, NotationError, make
from .limits import DEFAULT_LIMITS, MAX_DEPTH, MAX_TOKEN, BeyondLimit, ReadLimits
from .scanner import HeaderScanner, MovetextScanner, Rest, comment_text
from .model import (
    NO_SPAN, CubeAnswer, CubeOffer, DiceAction, HopAction, Item, Line, Node,
    Record, Span, Tag,
)

GRAMMAR_FILES = {"Hexalit": "hexalit.lark", "Trigeo": "trigeo.lark", "Hüpfer": "huepfer.lark"}

_DICE = re.compile(
    r"([A-Za-z][0-9]{1,2})[ \t]*([XxWw°:º˚])[ \t]*([A-Za-z][0-9]{1,2}|[0-9])"
    r"(?:[ \t]*=[ \t]*([0-9]))?([\^+]?)"
)
_POINTS = re.compile(r"[a-z][0-9]{1,2}")
_OPS = re.compile(r"[-x](?=[a-z])")
_CUBE_NUMBER = re.compile(r"[0-9]+")
_ESCAPE = re.compile(r"\\([\\\"])")
_KINDS = {"X": "move", "x": "move", "W": "roll", "w": "roll"}
_ACTION_TYPES = frozenset({"MOVE", "CAPTURE", "ROLL", "HOP", "CUBE_OFFER", "CUBE_ANSWER"})
_EMPTY: tuple = ()


class SyntaxProblem(Exception):
    """A syntax error found while building the tree (not by lark itself)."""

    def __init__(self, token: Token, message: str, code: str = "SY01", **params: Any):
        super().__init__(message)
        self.token = token
        self.code = code
        self.params = params or {"message": message}


# ---------------------------------------------------------------- actions

def dice_action(text: str) -> DiceAction:
    """A Hexalit/Trigeo action from the text of a MOVE/CAPTURE/ROLL token."""
    origin, op, target, promote, mark = _DICE.fullmatch(text).groups()  # type: ignore[union-attr]
    kind = _KINDS.get(op, "capture")
    if kind == "roll":
        return DiceAction(origin.upper(), "roll", None, int(target), None, mark)  # type: ignore[arg-type]
    return DiceAction(origin.upper(), kind, target.upper(),  # type: ignore[arg-type]
                      None, None if promote is None else int(promote), mark)  # type: ignore[arg-type]


def hop_action(text: str) -> HopAction:
    """A Hüpfer action from the text of a HOP token."""
    low = text.lower()
    mark = ""
    if low[-1] in "^+":
        mark, low = low[-1], low[:-1]
    birth = None
    at = low.find("@")
    if at >= 0:
        birth, low = low[at + 1:], low[:at]
    return HopAction(tuple(_POINTS.findall(low)), tuple(_OPS.findall(low)), birth, mark)  # type: ignore[arg-type]


def cube_offer(text: str) -> CubeOffer:
    number = _CUBE_NUMBER.search(text)
    return CubeOffer(_int(number.group()) if number else None)


def _int(digits: str) -> int:
    """The number ``digits`` stand for; the scanner refuses longer words first."""
    if len(digits) > MAX_TOKEN:
        raise ValueError(f"a number of more than {MAX_TOKEN} digits")
    return int(digits)


def cube_answer(text: str) -> CubeAnswer:
    return CubeAnswer(text.lower() in ("take", "angenommen"))


_ITEM_MAKERS: dict[str, Callable[[str], Item]] = {
    "MOVE": dice_action, "CAPTURE": dice_action, "ROLL": dice_action,
    "HOP": hop_action, "CUBE_OFFER": cube_offer, "CUBE_ANSWER": cube_answer,
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
        off = self.offset
        return Span(tok.line + off, tok.column, tok.end_line + off, tok.end_column)  # type: ignore[operator]

    def item(self, tok: Token) -> Item:
        if len(tok) > self.max_token:
            raise SyntaxProblem(tok, "", "IO08", start=tok[:20], limit=self.max_token)
        return self.item_for(tok.type, str(tok))

    def item_for(self, kind: str, text: str) -> Item:
        """The item an action token's text stands for (cached: texts repeat)."""
        items = self._items
        found = items.get(text)
        if found is None:
            if len(items) > 50_000:
                items.clear()
            found = items[text] = _ITEM_MAKERS[kind](text)
        return found

    # -- header
    def tag(self, children: list[Token]) -> Tag:
        lsqb, name, value, rsqb = children
        text = value[1:-1]
        if "\\" in text:
            text = _ESCAPE.sub(r"\1", text)
        off = self.offset
        return Tag(str(name), text, Span(lsqb.line + off, lsqb.column,  # type: ignore[operator]
                                         rsqb.end_line + off, rsqb.end_column))  # type: ignore[operator]

    def head(self, children: list[Any]) -> list[Any]:
        return children

    # -- movetext
    def variation(self, children: list[Any]) -> _Variation:
        lpar, rpar = children[0], children[-1]
        line = self.line(children[1:-1], lpar)
        off = self.offset
        span = Span(lpar.line + off, lpar.column, rpar.end_line + off, rpar.end_column)
        return _Variation(Line(line.nodes, line.comments, span), lpar)

    def movetext(self, children: list[Any]) -> Movetext:
        end = len(children)
        while end and children[end - 1].type in ("COMMENT", "LINE_COMMENT"):
            end -= 1
        if end and children[end - 1].type == "RESULT":
            result = children[end - 1]
            trailing = children[end:]
            line = self.line(children[:end - 1] + trailing, None)
            return Movetext(line, str(result), self.span(result))
        return Movetext(self.line(children, None), None, None)

    def line(self, elements: list[Any], lpar: Token | None) -> Line:
        """Nodes from a flat list of tokens and finished variations."""
        nodes: list[Node] = []
        lead: list[str] = []
        item = span = text = number = number_span = None
        glyphs: list[str] | None = None
        comments: list[str] | None = None
        variations: list[Line] | None = None
        dots = 0
        pending = None  # a move number token not yet followed by an item
        for el in elements:
            kind = el.type
            if kind in _ACTION_TYPES:
                if item is not None:
                    nodes.append(Node(item, span, text, number, dots, number_span,
                                      tuple(glyphs) if glyphs else _EMPTY,
                                      tuple(comments) if comments else _EMPTY,
                                      tuple(variations) if variations else _EMPTY))
                item, span, text = self.item(el), self.span(el), str(el)
                glyphs = comments = variations = None
                if pending is None:
                    number, dots, number_span = None, 0, None
                else:
                    number, dots, number_span = _number(pending), _dots(pending), self.span(pending)
                    pending = None
            elif kind == "MOVE_NUMBER":
                if pending is not None:
                    raise _dangling(pending)
                if len(el) > self.max_token:
                    raise SyntaxProblem(el, "", "IO08", start=el[:20], limit=self.max_token)
                pending = el
            elif kind in ("COMMENT", "LINE_COMMENT"):
                note = comment_text(el)
                if item is None:
                    lead.append(note)
                elif comments is None:
                    comments = [note]
                else:
                    comments.append(note)
            elif kind == "variation":
                if pending is not None:
                    raise _dangling(pending)
                if item is None:
                    raise SyntaxProblem(el.lpar, "a variation '(' must follow the action it replaces")
                if variations is None:
                    variations = [el.line]
                else:
                    variations.append(el.line)
            else:  # GLYPH or NAG
                if pending is not None:
                    raise _dangling(pending)
                if item is None:
                    raise SyntaxProblem(el, f"'{el}' must follow the action it judges")
                if glyphs is None:
                    glyphs = [str(el)]
                else:
                    glyphs.append(str(el))
        if pending is not None:
            raise _dangling(pending)
        if item is not None:
            nodes.append(Node(item, span, text, number, dots, number_span,
                              tuple(glyphs) if glyphs else _EMPTY,
                              tuple(comments) if comments else _EMPTY,
                              tuple(variations) if variations else _EMPTY))
        return Line(tuple(nodes), tuple(lead), NO_SPAN)


def _number(tok: Token) -> int:
    return _int(tok.rstrip("."))


def _dots(tok: Token) -> int:
    return len(tok) - len(tok.rstrip("."))


def _dangling(tok: Token) -> SyntaxProblem:
    return SyntaxProblem(tok, f"move number '{tok}' is not followed by an action")


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
        lark = Lark.open_from_package("hexhop.notation", "header.lark", parser="lalr",
                                      start="head", transformer=builder, cache=_cache_file(name))  # type: ignore[arg-type]
        return _Parser(lark, builder, threading.Lock(), HeaderScanner(lark))
    lark = Lark.open_from_package("hexhop.notation", GRAMMAR_FILES[name], parser="lalr",
                                  start="movetext", transformer=builder, cache=_cache_file(name))  # type: ignore[arg-type]
    return _Parser(lark, builder, threading.Lock(), MovetextScanner(lark, builder.item_for))


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


# ---------------------------------------------------------------- one game

@dataclass(frozen=True)
class Header:
    tags: tuple[Tag, ...]
    rest: Rest | None  # the movetext and where it starts


def parse_header(text: str, first_line: int, *, fast: bool = True,
                 limits: ReadLimits = DEFAULT_LIMITS) -> Header:
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
        rest = Rest(str(tok), tok.line + off, tok.column, tok.end_line + off, tok.end_column)
        return Header(tuple(children[:-1]), rest)
    return Header(tuple(children), None)


def movetext_text(rest: Rest) -> str:
    """The movetext padded so that lark's columns are the file's columns."""
    return " " * (rest.column - 1) + rest.text


def parse_movetext(game: str, rest: Rest, *, fast: bool = True,
                   limits: ReadLimits = DEFAULT_LIMITS) -> Movetext:
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
        return run(game, text, rest.line - 1)
    found = _parser(game).scanner.scan(text, rest.line, limits)
    if not isinstance(found, int):
        return Movetext(*found)
    read = run(game, text[:found], rest.line - 1, limits.max_token)
    if found < len(text):  # the part should hold an error: read it all to be sure
        return run(game, text, rest.line - 1, limits.max_token)
    return read


def _check_depth(text: str, offset: int) -> None:
    from .syntax_errors import open_parens
    for depth, pos in open_parens(text):
        if depth > MAX_DEPTH:
            tok = Token.new_borrow_pos("LPAR", "(", _at(text, pos))
            raise SyntaxProblem(tok, "", "SY06", limit=MAX_DEPTH)


def _at(text: str, pos: int) -> Token:
    line = text.count("\n", 0, pos) + 1
    column = pos - text.rfind("\n", 0, pos)
    return Token("X", text[pos:pos + 1], pos, line, column, line, column + 1, pos + 1)


def parse_action(text: str, game: str) -> Item:
    """One action or cube token of ``game``; raises :class:`NotationError`.

    ``parse_action(str(a), game) == a`` for every action ``a`` of that game.
    Move numbers, glyphs, comments and results are not actions.
    """
    from .reader import game_from_name
    from .syntax_errors import explain

    name = game_from_name(game) if isinstance(game, str) else None
    if name is None:
        raise NotationError(make("HD01", value=game))
    if not isinstance(text, str):
        raise NotationError(make("SY01", message=f"expected an action as text, not {type(text).__name__}"))
    try:
        movetext = parse_movetext(name, Rest(text, 1, 1, 1, 1))
    except (UnexpectedInput, SyntaxProblem) as error:
        raise NotationError(explain(error, text, 0, name)) from None
    except BeyondLimit as beyond:
        raise NotationError(beyond.finding) from None
    nodes = movetext.line.nodes
    if len(nodes) != 1 or movetext.result or movetext.line.comments or _extras(nodes[0]):
        raise NotationError(make("SY01", Span(1, 1), message=f"{text!r} is not one action of {name}"))
    return nodes[0].item


def _extras(node: Node) -> bool:
    return bool(node.number is not None or node.glyphs or node.comments or node.variations)


def record_span(text: str, first_line: int) -> Span:
    """Where a game's text starts and ends in the file."""
    start = len(text) - len(text.lstrip())
    line = first_line + text.count("\n", 0, start)
    column = start - text.rfind("\n", 0, start)
    body = text.rstrip()
    end_line = first_line + body.count("\n")
    end_column = len(body) - body.rfind("\n")
    return Span(line, column, end_line, end_column)


def empty_record(tags: tuple[Tag, ...], game: str | None, index: int, span: Span) -> Record:
    return Record(tags, game, Line(), None, None, index, span)


def finding_for(error: Exception, text: str, offset: int, game: str | None) -> Finding:
    from .syntax_errors import explain
    return explain(error, text, offset, game)
