"""The record tree: actions, lines, games and archives as frozen values.

Nothing here knows the rules of any game; an action is only what was
written (a Hexalit move to an occupied cell is still a move value).
Every value has a canonical ``str()`` that the parser reads back to an
equal value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .findings import Finding
from .games import GAME_NAMES
from .span import NO_SPAN as NO_SPAN
from .span import Span as Span

GAMES = GAME_NAMES

Mark = Literal["", "^", "+"]
DiceKind = Literal["move", "capture", "roll"]


@dataclass(frozen=True)
class DiceAction:
    """A Hexalit/Trigeo action: ``B6XC6``, ``B6°C7``, ``B5W4``, ``E6XF6=6``.

    ``origin``/``target`` are upper-case cell names exactly as written
    (``G1`` or ``A2`` are kept: whether a cell exists is for the engine).
    ``kind`` is ``move`` (X), ``capture`` (°) or ``roll`` (W, then
    ``face`` holds the result and ``target`` is None).
    """

    origin: str
    kind: DiceKind
    target: str | None = None
    face: int | None = None
    promote: int | None = None
    mark: Mark = ""

    def __str__(self) -> str:
        if self.kind == "roll":
            text = f"{self.origin}W{self.face}"
        else:
            op = "X" if self.kind == "move" else "°"
            text = f"{self.origin}{op}{self.target}"
        if self.promote is not None:
            text += f"={self.promote}"
        return text + self.mark


@dataclass(frozen=True)
class HopAction:
    """A Hüpfer turn: the whole path, e.g. ``a2-c2-c4@c5`` or ``a1-a3xa5xc5``.

    ``path`` holds every point from the start to the last landing (lower
    case, as written: ``g1`` on a 6x6 board is kept); ``ops[i]`` is ``-``
    (hop over an own piece) or ``x`` (capture) for the step from
    ``path[i]`` to ``path[i + 1]``; ``birth`` is the point after ``@``.
    """

    path: tuple[str, ...]
    ops: tuple[str, ...]
    birth: str | None = None
    mark: Mark = ""

    def __str__(self) -> str:
        text = self.path[0]
        for op, point in zip(self.ops, self.path[1:]):
            text += op + point
        if self.birth is not None:
            text += "@" + self.birth
        return text + self.mark


@dataclass(frozen=True)
class CubeOffer:
    """``double 4`` / ``Doppler 4``: offer to double the stakes (value optional)."""

    value: int | None = None

    def __str__(self) -> str:
        return "double" if self.value is None else f"double {self.value}"


@dataclass(frozen=True)
class CubeAnswer:
    """``take`` / ``drop`` (German ``angenommen`` / ``abgelehnt``)."""

    take: bool

    def __str__(self) -> str:
        return "take" if self.take else "drop"


Action = DiceAction | HopAction
Item = DiceAction | HopAction | CubeOffer | CubeAnswer


@dataclass(frozen=True)
class Node:
    """One written item of a line with everything attached to it.

    ``number`` is a move number written right before the item (``12`` for
    ``12.`` or ``12...``) and ``number_span`` where it was; ``glyphs`` are
    ``!``/``?``/``$n`` marks after it; ``comments`` the comments that follow
    it; ``variations`` the alternatives to it (each a :class:`Line` that
    starts from the position before this item).
    """

    item: Item
    span: Span
    text: str
    number: int | None = None
    number_dots: int = 0
    number_span: Span | None = None
    glyphs: tuple[str, ...] = ()
    comments: tuple[str, ...] = ()
    variations: tuple[Line, ...] = ()

    @property
    def action(self) -> Action:
        """The item as an action; TypeError for a cube event (a node that
        changed the ply, like a replay's main-line nodes, holds an action)."""
        if isinstance(self.item, (CubeOffer, CubeAnswer)):
            raise TypeError(f"{self.item} is a cube event, not an action")
        return self.item


@dataclass(frozen=True)
class Line:
    """A sequence of nodes: the main line or a variation.

    ``comments`` are comments written before the first node of the line.
    """

    nodes: tuple[Node, ...] = ()
    comments: tuple[str, ...] = ()
    span: Span = NO_SPAN


@dataclass(frozen=True)
class Tag:
    name: str
    value: str
    span: Span = NO_SPAN


@dataclass(frozen=True)
class Record:
    """One game of an archive, as written.

    ``game`` is the canonical game name the movetext was read as
    (``Hexalit``, ``Trigeo`` or ``Hüpfer``), or None when it could not be
    told (then ``main`` is empty and a header finding says why).
    ``result`` is the termination marker at the end of the movetext
    (``1-0``, ``0-1``, ``*``) or None when none was written.
    """

    tags: tuple[Tag, ...]
    game: str | None
    main: Line
    result: str | None = None
    result_span: Span | None = None
    index: int = 1
    span: Span = NO_SPAN

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the first tag called ``name`` (case-insensitive)."""
        lower = name.lower()
        for tag in self.tags:
            if tag.name.lower() == lower:
                return tag.value
        return default

    def tag_span(self, name: str) -> Span | None:
        lower = name.lower()
        for tag in self.tags:
            if tag.name.lower() == lower:
                return tag.span
        return None


@dataclass(frozen=True)
class ParsedGame:
    """A game of an archive after parsing: the record or the reasons why not.

    ``record`` is None only when the header itself could not be read; with a
    syntax error in the movetext the record holds the tags and the actions
    written before the error (of the main line, and of each variation
    before its own error), and ``findings`` holds the error.
    """

    index: int
    record: Record | None
    findings: tuple[Finding, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)
