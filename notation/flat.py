"""The main line of a game in flat arrays: what checking needs, no node objects.

A checker needs each action's item, its text, where it was written, the
move number written before it and the result; the record tree (a
:class:`~.model.Node` and a :class:`~.model.Span` per action) is built only
for callers that want the tree (``fmt``, ``convert``, the viewer,
analysis). :meth:`.scanner.MovetextScanner.scan_flat` fills a
:class:`FlatLine` for a plainly well-formed movetext without variations;
for anything else it gives up and the tree is read as before, so every
finding stays the tree path's.

An action never spans lines, so ``lines[i]`` and ``columns[i]`` are where
action ``i`` starts and its text's length tells where it ends.
"""

from __future__ import annotations

from .model import Item, Span


class FlatLine:
    """The main line of one game as parallel lists (index ``i``: the ``i``-th
    item of the line, cube events included).

    ``numbers`` maps the index of an item that a move number was written
    before to (number, dots, line, column, end column) of that number;
    ``glyphs`` the index of an item to its ``!``/``?``/``$n`` marks;
    ``comments`` counts the comments of the line; ``cubes`` counts its
    cube events (so ``len(items) - cubes`` actions were written).
    """

    __slots__ = (
        "items",
        "texts",
        "lines",
        "columns",
        "numbers",
        "glyphs",
        "comments",
        "cubes",
        "result",
        "result_span",
    )

    def __init__(self) -> None:
        self.items: list[Item] = []
        self.texts: list[str] = []
        self.lines: list[int] = []
        self.columns: list[int] = []
        self.numbers: dict[int, tuple[int, int, int, int, int]] = {}
        self.glyphs: dict[int, list[str]] = {}
        self.comments = 0
        self.cubes = 0
        self.result: str | None = None
        self.result_span: Span | None = None

    def span(self, i: int) -> Span:
        """Where item ``i`` was written."""
        line, column = self.lines[i], self.columns[i]
        return Span(line, column, line, column + len(self.texts[i]))

    def number_span(self, i: int) -> Span | None:
        """Where the move number before item ``i`` was written, if one was."""
        found = self.numbers.get(i)
        if found is None:
            return None
        _number, _dots, line, column, end_column = found
        return Span(line, column, line, end_column)
