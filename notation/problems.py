"""The syntax error the tree builder raises itself (lark raises the others).

A leaf, so that the parser raises it and :mod:`.syntax_errors` explains it
without either importing the other.
"""

from __future__ import annotations

from typing import Any

from lark import Token


class SyntaxProblem(Exception):
    """A syntax error found while building the tree (not by lark itself)."""

    def __init__(self, token: Token, message: str, code: str = "SY01", **params: Any):
        super().__init__(message)
        self.token = token
        self.code = code
        self.params = params or {"message": message}
