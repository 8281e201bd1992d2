"""A replayed game as the words and diagrams of an article
(:class:`hexhop.render.article.Article`): the heading, the main line with
move numbers, its comments and variations, and diagrams after chosen plies.

Where diagrams go: after the plies asked for, or else after every ply
whose action is followed by the marker comment ``{#}``, or else after the
last ply drawn (:func:`article_plies`). A diagram stands where the marker
stands, or else after the comments of its action and before its
variations; a diagram of ply 0 comes after the comments that open the
game. A marker is never shown as a comment; a marker in a variation is
left out (diagrams show positions of the main line).

An article is for print: it holds at most :data:`TEXT_LIMIT` characters
of moves and comments (a variation counts :data:`VARIATION_COST` more, as
it starts a paragraph or a bracket) and :data:`DIAGRAM_LIMIT` diagrams; a
record with more text stops there, with a note that says so, so that a
record of megabytes costs no more to lay out than a long article.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence

from hexhop.engine.replay import GameReport
from hexhop.messages import _, language
from hexhop.notation.model import DiceAction, HopAction, Line, Node, Record
from hexhop.render.article import Article, Comment, Diagram, Move, Run, Variation
from hexhop.render.svg_parts import clip

from .frames import NAME_CHARS, Frames

#: The comment that puts a diagram where it stands: ``{#}`` (or ``; #``).
MARKER = "#"
#: Characters of moves and comments an article holds: about ten pages.
TEXT_LIMIT = 40_000
#: What a variation costs of that besides its text.
VARIATION_COST = 100
#: Diagrams in one article.
DIAGRAM_LIMIT = 16
#: The glyphs that annotation numbers stand for, as printed.
NAGS = {"$1": "!", "$2": "?", "$3": "!!", "$4": "??", "$5": "!?", "$6": "?!"}


def marked_plies(record: Record | None) -> list[int]:
    """The plies of the main line that a ``{#}`` comment marks, in order."""
    if record is None:
        return []
    plies = [0] if MARKER in _stripped(record.main.comments) else []
    for ply, node in _walk(record.main, 1):
        if MARKER in _stripped(node.comments):
            plies.append(ply)
    return sorted(set(plies))


def article_plies(report: GameReport) -> list[int]:
    """The plies drawn when none are asked for: those marked with ``{#}``
    that were drawn, else the last one drawn (the final position)."""
    last = len(report.positions) - 1
    marked = [ply for ply in marked_plies(report.record) if ply <= last]
    return (marked or ([last] if last >= 0 else []))[:DIAGRAM_LIMIT]


def article(frames: Frames, plies: Collection[int]) -> Article:
    """The article of the game of ``frames``, with a diagram after each of
    ``plies`` (those that were drawn)."""
    report = frames.report
    drawn = sorted(ply for ply in plies if 0 <= ply < len(report.positions))
    writer = _Writer(frames, set(drawn[:DIAGRAM_LIMIT]))
    runs: list[Run] = []
    if report.record is not None:
        runs = writer.line(report.record.main, 1, main=True)
    result = report.record.result if report.record is not None else None
    notes = [frames.note() or ""]
    if writer.left <= 0:
        notes.insert(
            0,
            _(
                "The article stops here: the record holds more text than an "
                "article prints ({limit} characters)."
            ).format(limit=TEXT_LIMIT),
        )
        result = None
    return Article(
        heading=tuple(_heading(frames)),
        runs=tuple(runs),
        kicker=report.game or "",
        result=result if result and result != "*" else "",
        note=" ".join(note for note in notes if note),
        language=language(),
    )


def _heading(frames: Frames) -> Iterator[str]:
    yield from frames.heading()
    annotator = frames.report.tags.get("Annotator", "")
    if annotator:
        yield _("Notes by {annotator}").format(annotator=clip(annotator, NAME_CHARS))


class _Writer:
    """Turns lines of the record into runs, drawing the chosen diagrams."""

    def __init__(self, frames: Frames, plies: set[int]) -> None:
        self.frames = frames
        self.plies = plies
        self.done: set[int] = set()
        self.left = TEXT_LIMIT

    def _spend(self, text: str, extra: int = 0) -> str | None:
        """``text`` as far as the characters left hold it (clipped), or None
        when none are left."""
        if self.left <= 0:
            return None
        shown = clip(text, max(self.left, 2))
        self.left -= len(shown) + 1 + extra
        return shown

    def line(self, line: Line, ply: int, *, main: bool = False) -> list[Run]:
        """The runs of ``line``, whose first action is ply ``ply``."""
        runs: list[Run] = []
        self._comments(runs, line.comments, ply - 1, main)
        before: Node | None = None
        for node in line.nodes:
            number = ""
            if _needs_number(before, ply, runs):
                number = f"{(ply - 1) // 2 + 1}{'.' if ply % 2 else '...'}"
            text = self._spend(_text(node), len(number))
            if text is None:
                break
            runs.append(Move(number, text))
            after = ply if _is_action(node) else ply - 1
            self._comments(runs, node.comments, after, main)
            for variation in node.variations:
                if self._spend("", VARIATION_COST) is None:
                    break
                inner = self.line(variation, ply)
                if inner:
                    runs.append(Variation(tuple(inner)))
            ply = after + 1
            before = node
        return runs

    def _comments(self, runs: list[Run], comments: Sequence[str], ply: int, main: bool) -> None:
        """The comments after ply ``ply``, a marker replaced by its diagram
        (in the main line), and the diagram of the ply after them if no
        marker placed it."""
        for comment in comments:
            if comment.strip() != MARKER:
                text = self._spend(comment)
                if text is None:
                    return
                runs.append(Comment(text))
            elif main:
                self._diagram(runs, ply)
        if main:
            self._diagram(runs, ply)

    def _diagram(self, runs: list[Run], ply: int) -> None:
        if ply in self.plies and ply not in self.done:
            self.done.add(ply)
            svg = self.frames.svg(ply, titled=False)
            runs.append(Diagram(ply, svg, self.frames.label(ply)))


def _walk(line: Line, ply: int) -> Iterator[tuple[int, Node]]:
    """Each node of ``line`` with the ply of the position after it."""
    for node in line.nodes:
        if _is_action(node):
            ply += 1
        yield ply - 1, node


def _stripped(comments: Sequence[str]) -> set[str]:
    return {comment.strip() for comment in comments}


def _needs_number(before: Node | None, ply: int, runs: Sequence[Run]) -> bool:
    """A move number before the first item, after a comment, variation or
    diagram, and before the action of the side that moved first (as
    ``hexhop fmt`` writes them)."""
    if before is None or (runs and not isinstance(runs[-1], Move)):
        return True
    return ply % 2 == 1 and _is_action(before)


def _is_action(node: Node) -> bool:
    return isinstance(node.item, (DiceAction, HopAction))


def _text(node: Node) -> str:
    """The item as written (its canonical form for a generated record),
    with its glyphs, annotation numbers $1 to $6 as the glyphs they stand for."""
    glyphs = "".join(NAGS.get(glyph, glyph) for glyph in node.glyphs)
    return (node.text or str(node.item)) + glyphs
