"""Syntax errors in a person's words, at the exact line and column.

Turns lark's ``UnexpectedInput`` (and the parser's own ``SyntaxProblem``)
into one SY finding.  Known mistakes are recognised by looking at the word
where reading stopped: a Hüpfer path in a Hexalit record, a ``0-0``
result, a cell missing after an operator, an unclosed comment, tag or
variation.  Nothing here knows the rules of a game; the CLI prints the
source line and a caret from the finding's span.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection
from typing import TypeAlias

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from .findings import Finding, make, words
from .games import find_game
from .model import Span
from .names import CUBE_ANSWER_HINTS, CUBE_ANSWERS, CUBE_OFFERS
from .numbers import ascii_int
from .problems import SyntaxProblem, offset_of, start_of, token_at
from .text import match_end, open_parens, parens

_WORD = re.compile(r"[^\s(){}\[\];]*")
_CELL = re.compile(r"[A-Za-z][0-9]{1,2}")
_SPACES = re.compile(r"[ \t]*")
_RESULTISH = re.compile(r"(?:[0-9]+|½|1/2)\s*[-–:]\s*(?:[0-9]+|½|1/2)")
_DIGITS = re.compile(r"[0-9]+")
_COMMENTS = ("COMMENT", "LINE_COMMENT", "$END")
_LONGEST_WORD = 200  # a word in a message, and the most of it looked at

# why an action did not read: a message, or the action's text and a hint (SY05)
_Why: TypeAlias = "str | tuple[str, str]"


def explain(error: Exception, text: str, offset: int, game: str | None) -> Finding:
    """One SY finding for a failed parse of ``text`` (lines shifted by ``offset``)."""
    if isinstance(error, SyntaxProblem):
        return make(error.code, _span(error.token, offset), **error.params)
    if isinstance(error, UnexpectedCharacters):
        return _characters(error, text, offset, game)
    if isinstance(error, UnexpectedToken):
        return _token(error, text, offset)
    assert isinstance(error, UnexpectedInput)
    return _say(token_at(text, len(text)), offset, words("unexpected end of the text"))


# ---------------------------------------------------------------- positions


def _span(tok: Token, offset: int) -> Span:
    line, column = start_of(tok)
    return Span(line + offset, column)


def _say(tok: Token, offset: int, message: str) -> Finding:
    return make("SY01", _span(tok, offset), message=message)


def _wrong_action(tok: Token, offset: int, text: str, game: str, hint: str) -> Finding:
    return make("SY05", _span(tok, offset), text=text, game=game, hint=hint)


# ---------------------------------------------------------------- lexer errors


def _characters(error: UnexpectedCharacters, text: str, offset: int, game: str | None) -> Finding:
    # lark declares pos_in_stream None; UnexpectedCharacters sets the lexer's offset
    pos: int = error.pos_in_stream  # type: ignore[assignment]
    char = text[pos] if pos < len(text) else ""
    at = token_at(text, pos)
    if char == "{":
        line, column = start_of(at)
        return make("SY02", _span(at, offset), line=line + offset, column=column)
    if (
        game is None
        or "TAG_NAME" in error.allowed
        or "TAG_VALUE" in error.allowed
        or "RSQB" in error.allowed
    ):
        return _header_characters(error, text, offset, at, char)
    if char == "}":
        return _say(at, offset, words("'}' closes no comment"))
    if char == "[":
        return _say(
            at, offset, words("'[' in the movetext: tags go in the header, before the first action")
        )
    return _word(text, pos, offset, game)


def _header_characters(
    error: UnexpectedCharacters, text: str, offset: int, at: Token, char: str
) -> Finding:
    allowed = error.allowed
    if char == '"' and "RSQB" not in allowed:
        return _say(
            at, offset, words("unclosed tag value: the closing '\"' is missing on this line")
        )
    return _tag_shape(text, at, offset, allowed, char == '"') or _unclosed_tag(text, at, offset)


def _tag_shape(
    text: str, at: Token, offset: int, allowed: Collection[str], quote: bool
) -> Finding | None:
    """The finding for a header that lacks a tag name or a quoted value, if it does."""
    if "TAG_VALUE" in allowed and quote:
        return _say(
            at, offset, words("unclosed tag value: the closing '\"' is missing on this line")
        )
    if "TAG_VALUE" in allowed:
        return _say(
            at,
            offset,
            words(
                'expected a quoted tag value like "Hexalit", found {found}', found=_shown(text, at)
            ),
        )
    if "TAG_NAME" in allowed:
        return _say(
            at,
            offset,
            words(
                "expected a tag name like Event after '[', found {found}", found=_shown(text, at)
            ),
        )
    return None


def _unclosed_tag(text: str, at: Token, offset: int) -> Finding:
    line, column = start_of(token_at(text, max(text.rfind("[", 0, offset_of(at)), 0)))
    return make("SY04", _span(at, offset), line=line + offset, column=column)


def _shown(text: str, at: Token) -> str:
    pos = offset_of(at)
    word = _word_at(text, pos)
    if word:
        return f"'{word}'"
    if pos >= len(text) or text[pos] == "\n":
        return words("the end of the line")
    return f"'{text[pos]}'"


def _word_at(text: str, pos: int) -> str:
    """The word at ``pos``: up to a blank or bracket, and at most _LONGEST_WORD long."""
    word = _WORD.match(text, pos, pos + _LONGEST_WORD)
    return "" if word is None else word.group()


def _after_spaces(text: str, pos: int) -> int:
    """The offset of the first character at or after ``pos`` that is no space or tab."""
    return match_end(_SPACES.match(text, pos), pos)


def _word(text: str, pos: int, offset: int, game: str) -> Finding:
    """Explain the word at ``pos`` where no terminal of ``game`` matched."""
    start, first = pos, max(0, pos - _LONGEST_WORD)
    while start > first and not text[start - 1].isspace() and text[start - 1] not in "(){}":
        start -= 1
    word = _word_at(text, start) or text[pos]
    at = token_at(text, start)
    if _RESULTISH.fullmatch(word):
        return _say(at, offset, words("'{word}' is not a result: write 1-0, 0-1 or *", word=word))
    if find_game(game).family == "huepfer":
        found = _hop_word(word, game)
    else:
        found = _dice_word(text, start, game)
    if found is not None:
        where, code_message = found
        if isinstance(code_message, tuple):
            return _wrong_action(at, offset, code_message[0], game, code_message[1])
        return _say(token_at(text, start + where), offset, code_message)
    if _DIGITS.fullmatch(word):
        return _say(
            at,
            offset,
            words("'{word}' is not a move number: write '{word}.' or '{word}...'", word=word),
        )
    at = token_at(text, pos)
    shown = _word_at(text, pos) or text[pos]
    close = _close_word(shown)
    if close is not None:
        return _say(
            at,
            offset,
            words("unexpected '{word}': did you mean '{close}'?", word=shown, close=close),
        )
    return _say(
        at,
        offset,
        words(
            "unexpected '{word}': expected an action, a move number, "
            "a comment, a variation or the result",
            word=shown,
        ),
    )


def _close_word(word: str) -> str | None:
    """The doubling-cube word ``word`` is probably a misspelling of, if any."""
    if not word.isalpha():
        return None
    if word.casefold() in CUBE_ANSWER_HINTS:
        return CUBE_ANSWER_HINTS[word.casefold()]
    known = {w.casefold(): w for w in (*CUBE_OFFERS, *CUBE_ANSWERS)}
    found = difflib.get_close_matches(word.casefold(), known, n=1, cutoff=0.75)
    return known[found[0]] if found else None


def _dice_word(text: str, start: int, game: str) -> tuple[int, _Why] | None:
    """Why the Hexalit/Trigeo action at ``start`` did not read, or None."""
    word = _word_at(text, start)
    if _hopish(word) and ("-" in word or "@" in word):
        cells = _CELL.findall(word)
        move = f"{cells[0].upper()}X{cells[1].upper()}"
        return 0, (word, words("{game} moves are written {move}", game=game, move=move))
    cell = _CELL.match(text, start)
    if cell is None:
        return None
    i = _after_spaces(text, cell.end())
    op = text[i : i + 1]
    origin = cell.group().upper()
    if op in ("", "\n", "\r") or op.isspace():
        hint = words(
            "write the origin, an operator and the target, e.g. {origin}XC6", origin=origin
        )
        return 0, (cell.group(), hint)
    if op in "Ww":
        return _roll(text, start, i)
    if op not in "Xx°:º˚":
        return i - start, words(
            "expected X, W or ° after '{origin}', found '{op}'", origin=origin, op=op
        )
    j = _after_spaces(text, i + 1)
    target = _CELL.match(text, j)
    if target is None:
        return j - start, words("expected a cell like B6 after '{op}'", op=op)
    return _promotion(text, _after_spaces(text, target.end()), start)


def _hopish(word: str) -> bool:
    """Whether ``word`` looks like a Hüpfer path: a cell, then one or more
    steps of '-', 'x' or '@' and a cell, perhaps a mark."""
    cell = _CELL.match(word)
    steps = 0
    while cell is not None:
        i = cell.end()
        if i == len(word) or word[i:] in ("^", "+"):
            return steps > 0
        if word[i] not in "-xX@":
            return False
        cell = _CELL.match(word, i + 1)
        steps += 1
    return False


def _roll(text: str, start: int, i: int) -> tuple[int, _Why] | None:
    j = _after_spaces(text, i + 1)
    if ascii_int(text[j : j + 1]) is None:
        return j - start, words("expected the face the die shows (1 to 6) after '{op}'", op=text[i])
    return None


def _promotion(text: str, k: int, start: int) -> tuple[int, _Why] | None:
    if text[k : k + 1] != "=":
        return None
    m = _after_spaces(text, k + 1)
    if ascii_int(text[m : m + 1]) is None:
        return m - start, words("expected the new face (a digit) after '='")
    return None


def _hop_word(word: str, game: str) -> tuple[int, _Why] | None:
    """Why the Hüpfer path ``word`` did not read, or None."""
    cell = _CELL.match(word)
    if cell is None:
        return None
    if any(c in word for c in "°:º˚=") or (len(word) > cell.end() and word[cell.end()] in "Ww"):
        return 0, (word, words("Hüpfer actions are paths like c3xc5 or a1-c1@d1"))
    return _hop_steps(word, cell.end())


def _hop_steps(word: str, i: int) -> tuple[int, _Why] | None:
    hops = captures = 0
    while i < len(word):
        op = word[i]
        if op in "^+":
            return None
        if op not in "-xX@":
            return i, words(
                "expected '-', 'x' or '@' after '{path}', found '{op}'", path=word[:i], op=op
            )
        point = _CELL.match(word, i + 1)
        if point is None:
            kind = "d1" if op == "@" else "c3"
            return i + 1, words("expected a point like {point} after '{op}'", point=kind, op=op)
        if op == "-" and captures:
            return 0, (word, words("hops ('-') come before captures ('x'), e.g. a1-a3xa5"))
        if op == "@":
            return _birth(word, hops, captures)
        hops += op == "-"
        captures += op != "-"
        i = point.end()
    return 0, (word, words("write the whole path, e.g. a1-c1@d1 or c3xc5"))


def _birth(word: str, hops: int, captures: int) -> tuple[int, _Why]:
    if captures:
        return 0, (
            word,
            words("a newborn piece ('@') follows hops only; a capture sequence has none"),
        )
    if not hops:
        return 0, (word, words("a newborn piece ('@') follows a hop, e.g. a1-c1@d1"))
    return word.index("@"), words("nothing may follow the newborn piece's point but '^' or '+'")


# ---------------------------------------------------------------- parser errors


def _token(error: UnexpectedToken, text: str, offset: int) -> Finding:
    tok = error.token
    expected = error.expected
    if tok.type == "$END":
        tok = token_at(text, len(text.rstrip()))
    if "RSQB" in expected:
        return _unclosed_tag(text, tok, offset)
    shape = _tag_shape(text, tok, offset, expected, tok.startswith('"'))
    if shape is not None:
        return shape
    if expected <= set(_COMMENTS):
        return _say(
            tok,
            offset,
            words("'{token}' comes after the result: the result ends the movetext", token=str(tok)),
        )
    if error.token.type == "$END" and "RPAR" in expected:
        return _unclosed_variation(text, tok, offset)
    if tok.type == "RPAR":
        return _say(tok, offset, words("')' closes no variation"))
    if tok.type == "RESULT" and "RPAR" in expected:
        opened = [p for _, p in open_parens(text)]
        start = token_at(text, _unmatched(opened, _close_positions(text)))
        line, column = start_of(start)
        return _say(
            tok,
            offset,
            words(
                "the result '{token}' is inside the variation started at "
                "{line}:{column}: close it with ')' first",
                token=str(tok),
                line=line + offset,
                column=column,
            ),
        )
    return _say(tok, offset, words("unexpected '{token}'", token=str(tok)))


def _unclosed_variation(text: str, at: Token, offset: int) -> Finding:
    opened = [pos for depth, pos in open_parens(text)]
    closes = _close_positions(text)
    start = at
    if opened:
        start = token_at(text, _unmatched(opened, closes))
    line, column = start_of(start)
    return make("SY03", _span(start, offset), line=line + offset, column=column)


def _unmatched(opened: list[int], closes: list[int]) -> int:
    stack: list[int] = []
    events = sorted([(p, 1) for p in opened] + [(p, -1) for p in closes])
    for pos, step in events:
        if step > 0:
            stack.append(pos)
        elif stack:
            stack.pop()
    return stack[-1] if stack else opened[-1]


def _close_positions(text: str) -> list[int]:
    return [pos for pos, char in parens(text) if char == ")"]
