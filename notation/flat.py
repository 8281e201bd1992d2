"""The lines of a game in flat arrays: what checking needs, no node objects.

A checker needs each action's item, its text, where it was written, the
move number written before it and the result; the record tree (a
:class:`~.model.Node` and a :class:`~.model.Span` per action) is built only
for callers that want the tree (``fmt``, ``convert``, the viewer,
analysis). :meth:`.scanner.MovetextScanner.scan_flat` fills a
:class:`FlatLine` for a plainly well-formed movetext, each variation a
flat line of its own; for anything else it gives up and the tree is read
as before, so every finding stays the tree path's.

Where an item was written is kept as its offset in the movetext; its line
and column are counted only when a finding points at it.
"""

from __future__ import annotations

from .model import Item, Span


class FlatLine:
    """One line of a game (the main line or a variation) as parallel lists
    (index ``i``: the ``i``-th item of the line, cube events included).

    ``text`` is the movetext as the scanner read it (its line 1 is
    ``first_line`` of the file, its columns the file's); ``starts[i]`` is
    where item ``i`` starts in it. ``numbers`` maps the index of an item
    that a move number was written before to (number, dots, start, end) of
    that number; ``glyphs`` the index of an item to its ``!``/``?``/``$n``
    marks; ``comments`` counts the comments of the line; ``cubes`` counts
    its cube events (so ``len(items) - cubes`` actions were written);
    ``variations`` maps the index of an item to the lines written in its
    place (played from the position before it), in the order written.
    """

    __slots__ = (
        "text",
        "first_line",
        "items",
        "texts",
        "starts",
        "numbers",
        "glyphs",
        "comments",
        "cubes",
        "result",
        "result_span",
        "variations",
    )

    def __init__(self, text: str, first_line: int) -> None:
        self.text = text
        self.first_line = first_line
        self.items: list[Item] = []
        self.texts: list[str] = []
        self.starts: list[int] = []
        self.numbers: dict[int, tuple[int, int, int, int]] = {}
        self.glyphs: dict[int, list[str]] = {}
        self.comments = 0
        self.cubes = 0
        self.result: str | None = None
        self.result_span: Span | None = None
        self.variations: dict[int, list[FlatLine]] = {}

    def span_at(self, start: int, end: int) -> Span:
        """Where ``text[start:end]`` (on one line) was written."""
        text = self.text
        line_start = text.rfind("\n", 0, start) + 1
        line = self.first_line + text.count("\n", 0, line_start)
        return Span(line, start - line_start + 1, line, end - line_start + 1)

    def span(self, i: int) -> Span:
        """Where item ``i`` was written."""
        start = self.starts[i]
        return self.span_at(start, start + len(self.texts[i]))

    def item_text(self, i: int) -> str:
        """The text of item ``i`` as written."""
        return self.texts[i]

    def number_span(self, i: int) -> Span | None:
        """Where the move number before item ``i`` was written, if one was."""
        found = self.numbers.get(i)
        return None if found is None else self.span_at(found[2], found[3])
