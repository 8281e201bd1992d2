"""What the editor answers instead of doing what a request asks: a
:class:`Refused` with its status and message id (translated where it is
told), and how a message shows a character it names."""

from __future__ import annotations

import unicodedata
from typing import Any

from hexhop.notation.errors import Error


class Refused(Error):
    """A request the editor answers with ``status`` and a message id."""

    def __init__(self, status: int, message: str, detail: str = "", **params: Any):
        super().__init__(message)
        self.status = status
        self.message = message
        self.detail = detail
        self.params = params


def shown(character: str) -> str:
    """``character`` as a message shows it: ``'∕' (U+2215 DIVISION SLASH)``;
    one that shows nothing (a control character, a lone surrogate) by its
    code alone: ``U+0000``."""
    name = unicodedata.name(character, "")
    code = f"U+{ord(character):04X}" + (f" {name}" if name else "")
    if unicodedata.category(character).startswith("C"):
        return code
    return f"'{character}' ({code})"
