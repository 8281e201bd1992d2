"""Records to text in the canonical form: the formatter behind ``hexhop fmt``.

Tags in the canonical order with escaped values, then the movetext with
canonical action symbols and move numbers, wrapped at 79 columns.  Every
comment, glyph, variation, cube token and the result is kept.  Formatting
is idempotent: the output parses back to the same record and formats to
the same text.  The formatter does not check anything: a record with an
illegal action is written as it stands.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .model import DiceAction, HopAction, Line, Node, ParsedGame, Record, Tag

TAG_ORDER = (
    "game",
    "event",
    "site",
    "date",
    "round",
    "north",
    "south",
    "red",
    "turquoise",
    "first",
    "board",
    "reserve",
    "position",
    "result",
)
_RANK = {name: rank for rank, name in enumerate(TAG_ORDER)}
_BANGS = frozenset({"!", "?", "!!", "??", "!?", "?!"})


def format_record(record: Record, *, width: int = 79) -> str:
    """The canonical text of one record, ending with a newline."""
    header = "\n".join(_tag(tag) for tag in sorted(record.tags, key=_rank))
    movetext = _wrap(_movetext(record), width)
    if header and movetext:
        return f"{header}\n\n{movetext}\n"
    return f"{header or movetext}\n" if header or movetext else ""


def format_archive(records: Iterable[Record | ParsedGame], *, width: int = 79) -> str:
    """The canonical text of several records, separated by blank lines.

    ParsedGames are accepted too; those without a record are skipped.
    """
    texts = []
    for record in records:
        if isinstance(record, ParsedGame):
            if record.record is None:
                continue
            record = record.record
        texts.append(format_record(record, width=width))
    return "\n".join(texts)


# ---------------------------------------------------------------- header


def _rank(tag: Tag) -> int:
    return _RANK.get(tag.name.lower(), len(TAG_ORDER))


def _tag(tag: Tag) -> str:
    value = tag.value.replace("\\", "\\\\").replace('"', '\\"')
    value = value.replace("\r", " ").replace("\n", " ")
    return f'[{tag.name} "{value}"]'


# ---------------------------------------------------------------- movetext


@dataclass
class _Out:
    """Movetext tokens; ``hard`` marks a token that must end its line (``;``).

    A move number is held back and written with the action after it, so
    that wrapping never leaves a number alone at the end of a line."""

    words: list[tuple[str, bool]] = field(default_factory=list)
    opening: bool = False
    number: str | None = None

    def word(self, text: str, hard: bool = False) -> None:
        if self.number is not None:
            text, self.number = f"{self.number} {text}", None
        if self.opening:
            text, self.opening = "(" + text, False
        self.words.append((text, hard))

    def comment(self, text: str) -> None:
        if "}" in text:
            self.word("; " + text.replace("\r", " ").replace("\n", " ") if text else ";", hard=True)
        else:
            self.word("{" + text + "}")

    def open(self) -> None:
        self.opening = True

    def close(self) -> None:
        if self.opening:
            self.opening = False
            self.words.append(("()", False))
        elif self.words[-1][1]:
            self.words.append((")", False))
        else:
            self.words[-1] = (self.words[-1][0] + ")", False)


def _movetext(record: Record) -> _Out:
    out = _Out()
    _line(out, record.main, 1)
    if record.result is not None:
        out.word(record.result)
    return out


def _line(out: _Out, line: Line, ply: int) -> None:
    """Write ``line`` whose first action is ply ``ply`` of the game."""
    for note in line.comments:
        out.comment(note)
    prev: Node | None = None
    for node in line.nodes:
        if _needs_number(prev, ply):
            out.number = f"{(ply - 1) // 2 + 1}{'.' if ply % 2 else '...'}"
        _node(out, node, ply)
        if _is_action(node):
            ply += 1
        prev = node


def _needs_number(prev: Node | None, ply: int) -> bool:
    if prev is None or prev.comments or prev.variations:
        return True
    return ply % 2 == 1 and _is_action(prev)


def _is_action(node: Node) -> bool:
    return isinstance(node.item, (DiceAction, HopAction))


def _node(out: _Out, node: Node, ply: int) -> None:
    glyphs = list(node.glyphs)
    text = str(node.item)
    if glyphs and glyphs[0] in _BANGS:
        text += glyphs.pop(0)
    out.word(text)
    for glyph in glyphs:
        out.word(glyph)
    for note in node.comments:
        out.comment(note)
    for variation in node.variations:
        out.open()
        _line(out, variation, ply)
        out.close()


def _wrap(out: _Out, width: int) -> str:
    """Words joined by spaces into lines of at most ``width`` columns where possible."""
    lines: list[str] = []
    current = ""
    for text, hard in out.words:
        first = text.split("\n", 1)[0]
        if current and len(current) + 1 + len(first) > width:
            lines.append(current)
            current = text
        else:
            current = f"{current} {text}" if current else text
        if "\n" in current:
            *done, current = current.split("\n")
            lines.extend(done)
        if hard:
            lines.append(current)
            current = ""
    if current:
        lines.append(current)
    return "\n".join(lines)
