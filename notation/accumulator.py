"""The rules that turn a line's tokens into nodes, written once.

Both readers of a movetext feed a :class:`LineAccumulator` the tokens of
one line in order: the fast scanner as it matches them, the LALR parser's
callbacks once lark has grouped them.  A move number waits for the action
it numbers; glyphs, comments and variations attach to the action before
them; comments before the first action belong to the line.  A token where
the line's structure allows none raises :class:`Misplaced`.
"""

from __future__ import annotations

from typing import Any, Final

from .errors import Error
from .findings import words
from .model import Item, Line, Node, Span
from .text import comment_text

# the grammars' terminals that each make a node
ACTION_TOKENS: Final = frozenset({"MOVE", "CAPTURE", "ROLL", "HOP", "CUBE_OFFER", "CUBE_ANSWER"})
_EMPTY: Final[tuple[()]] = ()
_new = object.__new__


class Misplaced(Error):
    """A token the line cannot hold there; ``at`` is what the caller gave to
    point at it (the parser's token), ``message`` says why."""

    def __init__(self, at: Any, message: str):
        super().__init__(message)
        self.at = at
        self.message = message


class LineAccumulator:
    """The nodes of one line (the main line or one variation) so far.

    A node is made when its action arrives and filled in by the glyphs,
    comments and variations after it (gathered in lists, so that a flood of
    them costs linear time); no one sees it before :meth:`line`.
    """

    __slots__ = ("nodes", "lead", "open", "extras", "pending")

    def __init__(self) -> None:
        self.nodes: list[Node] = []
        self.lead: list[str] = []  # comments before the first action
        self.open: dict[str, Any] | None = None  # the fields of the last node
        # its glyphs, comments and variations so far, by field name
        self.extras: dict[str, list[Any]] | None = None
        # a move number not yet followed by its action: (text, span, at)
        self.pending: tuple[str, Span, Any] | None = None

    def action(self, item: Item, span: Span, text: str) -> None:
        if self.extras is not None:
            self._finish()
        # the same value as Node(...), without the frozen dataclass's slower
        # __init__: its __dict__ is filled in place, and a field left out of
        # it reads its default from the class
        node = _new(Node)
        fields = node.__dict__
        fields["item"] = item
        fields["span"] = span
        fields["text"] = text
        pending = self.pending
        if pending is not None:
            written, number_span, _ = pending
            bare = written.rstrip(".")
            fields["number"] = int(bare)
            fields["number_dots"] = len(written) - len(bare)
            fields["number_span"] = number_span
            self.pending = None
        self.nodes.append(node)
        self.open = fields

    def move_number(self, text: str, span: Span, at: Any) -> None:
        """A move number (``12.`` or ``12...``) for the action that follows."""
        if self.pending is not None:
            self._dangling()
        self.pending = (text, span, at)

    def comment(self, token: str) -> None:
        """A ``{ … }`` or ``; …`` comment token."""
        note = comment_text(token)
        if self.open is None:
            self.lead.append(note)
        else:
            self._extra("comments", note)

    def glyph(self, text: str, at: Any) -> None:
        """A ``!``/``?`` glyph or a ``$n`` NAG."""
        if self.pending is not None:
            self._dangling()
        if self.open is None:
            raise Misplaced(at, words("'{glyph}' must follow the action it judges", glyph=text))
        self._extra("glyphs", text)

    def branch(self, at: Any) -> None:
        """A variation opens here: it must replace the action before it."""
        if self.pending is not None:
            self._dangling()
        if self.open is None:
            raise Misplaced(at, words("a variation '(' must follow the action it replaces"))

    def variation(self, line: Line) -> None:
        """The finished variation opened by the last :meth:`branch`."""
        self._extra("variations", line)

    def line(self, span: Span) -> Line:
        """The finished line, written at ``span``."""
        if self.pending is not None:
            self._dangling()
        if self.extras is not None:
            self._finish()
        self.open = None
        return Line(tuple(self.nodes), tuple(self.lead), span)

    def _extra(self, field: str, value: Any) -> None:
        extras = self.extras
        if extras is None:
            self.extras = {field: [value]}
        elif field in extras:
            extras[field].append(value)
        else:
            extras[field] = [value]

    def _finish(self) -> None:
        """The last node's glyphs, comments and variations into its fields."""
        assert self.open is not None and self.extras is not None
        for field, values in self.extras.items():
            self.open[field] = tuple(values)
        self.extras = None

    def _dangling(self) -> None:
        assert self.pending is not None
        at = self.pending[2]
        raise Misplaced(
            at, words("move number '{number}' is not followed by an action", number=str(at))
        )
