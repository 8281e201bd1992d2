"""The syntax error the tree builder raises itself (lark raises the others),
and the token it points at.

Below the parser, so that the parser raises it and :mod:`.syntax_errors`
explains it without either importing the other.
"""

from __future__ import annotations

from typing import Any

from lark import Token

from .errors import ArgumentError, Error
from .text import line_column


class SyntaxProblem(Error):
    """A syntax error found while building the tree (not by lark itself)."""

    def __init__(self, token: Token, message: str, code: str = "SY01", **params: Any):
        super().__init__(message)
        self.token = token
        self.code = code
        self.params = params or {"message": message}


def start_of(tok: Token) -> tuple[int, int]:
    """The line and column where ``tok`` starts.

    lark types token positions Optional; every token its lexer makes, and
    every one :func:`token_at` makes, has them.
    """
    if tok.line is None or tok.column is None:
        raise ArgumentError(f"token {tok.type} has no position")
    return tok.line, tok.column


def end_of(tok: Token) -> tuple[int, int]:
    """The line and the column after the end of ``tok`` (see :func:`start_of`)."""
    if tok.end_line is None or tok.end_column is None:
        raise ArgumentError(f"token {tok.type} has no end position")
    return tok.end_line, tok.end_column


def offset_of(tok: Token) -> int:
    """The offset of ``tok`` in the parsed text (see :func:`start_of`)."""
    if tok.start_pos is None:
        raise ArgumentError(f"token {tok.type} has no offset")
    return tok.start_pos


def token_at(text: str, pos: int) -> Token:
    """A one-character token at offset ``pos`` of ``text``, to point a message at."""
    line, column = line_column(text, pos)
    return Token("X", text[pos : pos + 1], pos, line, column, line, column + 1, pos + 1)


class EndsAtNextGame(str):
    """The text of a game that ends inside a ``{`` comment never closed,
    because the next game's tags begin (:func:`.reader.split_games`).

    A plain ``str`` in every other way; it keeps its class through pickling,
    so that a worker process that parses the game can say so too. (Not in
    a module compiled with mypyc, which cannot subclass ``str``.)
    """

    __slots__ = ()
