"""The syntax error the tree builder raises itself (lark raises the others),
and the token it points at.

Below the parser, so that the parser raises it and :mod:`.syntax_errors`
explains it without either importing the other.
"""

from __future__ import annotations

from typing import Any

from lark import Token

from .text import line_column


class SyntaxProblem(Exception):
    """A syntax error found while building the tree (not by lark itself)."""

    def __init__(self, token: Token, message: str, code: str = "SY01", **params: Any):
        super().__init__(message)
        self.token = token
        self.code = code
        self.params = params or {"message": message}


def token_at(text: str, pos: int) -> Token:
    """A one-character token at offset ``pos`` of ``text``, to point a message at."""
    line, column = line_column(text, pos)
    return Token("X", text[pos:pos + 1], pos, line, column, line, column + 1, pos + 1)
