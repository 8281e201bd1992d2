"""The plain data of a viewer page, built from a replayed game.

:func:`page_data` walks the record once more (the replay keeps only the
main line's positions) to get the positions of every variation, unless
the replay's walk was kept (:class:`Recording`),
takes every position apart into the parts of its picture (the board once,
a part per die or piece, the last action, the status; see
:class:`hexhop.render.scene.Scene`) in both orientations, and ties each
finding of the check to the action it is about. :mod:`hexhop.render.html` turns the result
into HTML without knowing any rules; nothing here writes HTML.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, NamedTuple

from hexhop.engine.base import Rules
from hexhop.engine.games import rules_for
from hexhop.engine.replay import UNPLAYED, GameReport, Visitor, walk
from hexhop.messages import _, side_name
from hexhop.notation.errors import ArgumentError
from hexhop.notation.findings import Finding
from hexhop.notation.games import GAMES, find_game
from hexhop.notation.model import Action, CubeAnswer, CubeOffer, Line, Node, ParsedGame
from hexhop.notation.span import NO_SPAN
from hexhop.notation.writer import format_record
from hexhop.render.html import Drawings, Entry, Frame, GameSummary, LineInfo, MoveLine, Note, Page
from hexhop.render.last_action import LastAction, describe_last
from hexhop.render.scene import Scene

#: Tags shown in the page header, in this order, when the record has them.
HEADER_TAGS = ("Event", "Site", "Date", "Round", "Annotator")


class Recording(Visitor):
    """The walk of a replay, kept to be told again: given to
    :func:`~hexhop.engine.replay.replay_game` as its visitor, it spares
    :func:`page_data` playing the record once more."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def begin_line(self, line: Line, position: Any, played: bool) -> None:
        self.calls.append((0, line, position, played))

    def node(
        self, node: Node, before: Any, after: Any, state: str, findings: tuple[Finding, ...]
    ) -> None:
        self.calls.append((1, node, before, after, state, findings))

    def end_line(self, line: Line) -> None:
        self.calls.append((2, line))

    def tell(self, visitor: Visitor) -> None:
        """Tell ``visitor`` the walk, as :func:`~hexhop.engine.replay.walk` would."""
        begin, node, end = visitor.begin_line, visitor.node, visitor.end_line
        for call in self.calls:
            if call[0] == 1:
                node(*call[1:])
            elif call[0] == 0:
                begin(*call[1:])
            else:
                end(*call[1:])


def page_data(
    report: GameReport,
    *,
    flip: bool = False,
    walked: Recording | None = None,
    pieces: str = "dice",
) -> Page:
    """Everything a viewer page shows of ``report`` (which must have positions);
    ``walked`` is the walk of its replay, when it was recorded; ``pieces``
    ``chess`` draws a Trigeo game's dice as chess pieces."""
    if report.game is None:
        raise ArgumentError("a record of no known game has no viewer page")
    rules = rules_for(report.game)
    builder = _Builder(report, rules, walked, pieces)
    main = builder.main_line()
    return Page(
        game=report.game or "",
        title=_players(report, rules),
        sides=rules.sides,
        players=tuple((side, report.tags.get(side, "?")) for side in rules.sides),
        header=tuple((name, report.tags[name]) for name in HEADER_TAGS if report.tags.get(name)),
        tags=tuple((tag.name, tag.value) for tag in report.record.tags) if report.record else (),
        result=report.result,
        outcome=_outcome(report),
        valid=report.valid(),
        notes=tuple(builder.notes),
        frames=tuple(builder.frames),
        lines=tuple(builder.lines),
        main=main,
        drawings=builder.drawings,
        flipped=flip,
        termination=report.tags.get("Termination", ""),
        record=format_record(report.record) if report.record else "",
        record_name=f"game{report.index}{find_game(report.game).extension}",
    )


def with_lines(
    parsed: ParsedGame, lines: dict[int, tuple[Action, ...]], comment: str
) -> ParsedGame:
    """The game with each line of ``lines`` (ply -> actions from the
    position before that ply, e.g. the win a player missed) written as the
    last variation of the main line's action of that ply, ``comment``
    before it: the viewer then steps through it as through any variation."""
    record = parsed.record
    if record is None or not lines:
        return parsed
    nodes, ply = [], 0
    for node in record.main.nodes:
        if not isinstance(node.item, (CubeOffer, CubeAnswer)):
            ply += 1
            line = lines.get(ply)
            if line:
                added = tuple(Node(action, NO_SPAN, str(action)) for action in line)
                variation = Line(added, (comment,))
                node = replace(node, variations=(*node.variations, variation))
        nodes.append(node)
    main = Line(tuple(nodes), record.main.comments, record.main.span)
    return replace(parsed, record=replace(record, main=main))


def line_starts(page: Page, plies: Iterable[int]) -> dict[int, int]:
    """The frame of the first action of the last variation of each main-line
    ply in ``plies`` (a line :func:`with_lines` added), to show it from."""
    wanted, found, ply = set(plies), {}, 0
    for entry in page.main.entries:
        if entry.state != "played":
            continue
        ply += 1
        if ply in wanted and entry.variations and entry.variations[-1].entries:
            frame = entry.variations[-1].entries[0].frame
            if frame is not None:
                found[ply] = frame
    return found


def summary(report: GameReport, href: str | None, source: str = "") -> GameSummary:
    """One row of an archive's index page; ``href`` None when no page was drawn,
    ``source`` the file the game comes from when the index covers several."""
    sides = rules_for(report.game).sides if report.game else GAMES[0].sides
    errors = sum(1 for f in report.findings if f.severity == "error")
    return GameSummary(
        index=report.index,
        game=report.game or "?",
        players=tuple((side, report.tags.get(side, "?")) for side in sides),
        event=report.tags.get("Event", ""),
        date=report.tags.get("Date", ""),
        result=report.result or "",
        plies=report.plies,
        valid=report.valid(),
        errors=errors,
        warnings=len(report.findings) - errors,
        href=href,
        source=source,
    )


def _players(report: GameReport, rules: Rules) -> str:
    return " – ".join(report.tags.get(side, "?") for side in rules.sides)


def _outcome(report: GameReport) -> str:
    if report.end is None:
        return ""
    side = side_name(str(report.end.winner))
    if report.end.ply == 0:
        return _("{side} won at the start").format(side=side)
    return _("{side} won at ply {ply}").format(side=side, ply=report.end.ply)


class _Open:
    """A line of the page while the walk is in it."""

    __slots__ = ("id", "frame", "numbering", "entries", "variations")

    def __init__(self, line_id: int, frame: int, ply: int):
        self.id = line_id  # -1 for a line that is not played
        self.frame = frame  # the frame of the position reached so far
        self.numbering = _Numbering(ply, fresh=True)
        self.entries: list[Entry] = []
        self.variations: list[MoveLine] = []  # of the next node


class _Builder(Visitor):
    """Collects frames, lines and notes from the walk through the record."""

    def __init__(
        self,
        report: GameReport,
        rules: Rules,
        walked: Recording | None = None,
        pieces: str = "dice",
    ):
        self.report = report
        self.rules = rules
        self.walked = walked
        self.frames: list[Frame] = []
        self.lines: list[LineInfo] = []
        self.notes: list[Note] = []
        self._line_frames: list[list[int]] = []
        self._by_span = _findings_by_span(report.findings)
        self._placed: set[int] = set()
        self.scene = Scene(report.positions[0], pieces=pieces)
        self.drawings = Drawings(self.scene.head)
        self._boards = tuple(
            tuple(self.drawings.add(part) for part in self.scene.board(flip))
            for flip in (False, True)
        )
        self._items: dict[str, dict[str, _Item]] = {}  # side -> token -> item
        self._sections: dict[str, list[_Item] | None] = {}
        self._seen: dict[int, tuple[Any, _Seen]] = {}
        self._drawn: dict[tuple[int, Any], tuple[Any, _Drawn]] = {}
        # the parts of the highlights and marks of a last action, of a status line
        self._marks: dict[LastAction | None, Any] = {}
        self._status: dict[tuple[str, str | None], Any] = {}
        self._open: list[_Open] = []
        self._main: MoveLine | None = None

    def main_line(self) -> MoveLine:
        if self.walked is not None and self.walked.calls:
            self.walked.tell(self)
        else:
            walk(self.report, self)
        assert self._main is not None
        self._close_lines()
        self._add_loose_notes()
        return self._main

    # -- lines ---------------------------------------------------------------

    def begin_line(self, line: Line, position: Any, played: bool) -> None:
        if not self._open:
            line_id = self._open_line(None, None)
            frame = self._frame(position, None, None, line_id, label=_("start"))
            self._line_frames[line_id].append(frame)
        elif played:
            parent = self._open[-1]
            line_id, frame = self._open_line(parent.frame, parent.id), parent.frame
        else:
            line_id, frame = -1, -1
        self._open.append(_Open(line_id, frame, position.ply))

    def end_line(self, line: Line) -> None:
        done = self._open.pop()
        moves = MoveLine(id=done.id, comments=line.comments, entries=tuple(done.entries))
        if self._open:
            self._open[-1].variations.append(moves)
        else:
            self._main = moves

    def _open_line(self, base: int | None, parent: int | None) -> int:
        self.lines.append(LineInfo(base=base, parent=parent, frames=()))
        self._line_frames.append([] if base is None else [base])
        return len(self.lines) - 1

    def _close_lines(self) -> None:
        self.lines = [
            LineInfo(info.base, info.parent, tuple(frames))
            for info, frames in zip(self.lines, self._line_frames)
        ]

    # -- nodes ---------------------------------------------------------------

    def node(
        self, node: Node, before: Any, after: Any, state: str, findings: tuple[Finding, ...]
    ) -> None:
        line = self._open[-1]
        variations = tuple(line.variations)
        line.variations.clear()
        number = line.numbering.label(node)
        if state == UNPLAYED:
            entry = _entry(node, number, "unplayed", None, (), variations)
        elif after is None:
            notes = self._notes_of(node, line.frame)
            self._mark_ahead(line.frame, notes)
            entry = _entry(node, number, "illegal", None, notes, variations)
        elif isinstance(node.item, (CubeOffer, CubeAnswer)):
            line.frame = self._after_cube(before, after, line.frame, line.id)
            notes = self._notes_of(node, line.frame)
            entry = _entry(node, number, "cube", None, notes, variations)
        else:
            label = f"{_move_number(after.ply)} {node.text or node.item}"
            notes = self._notes_of(node, len(self.frames))  # the frame made next
            new = self._frame(after, before, node, line.id, label=label, notes=notes)
            self._line_frames[line.id].append(new)
            line.frame = new
            entry = _entry(node, number, "played", new, notes, variations)
        line.entries.append(entry)

    def _after_cube(self, before: Any, after: Any, frame: int, line_id: int) -> int:
        """A cube event draws nothing, except a drop that ends the game: that
        position replaces the last one drawn (the main line's last position
        is the one after the drop, as in the replay)."""
        if after.winner is None or before.winner is not None:
            return frame
        old = self.frames[frame]
        if old.line == line_id:
            board, flipped, text = self._draw(after, None, None)
            self.frames[frame] = _with(old, board=board, board_flipped=flipped, position=text)
            return frame
        new = self._frame(after, None, None, line_id, label=_("drop"))
        self._line_frames[line_id].append(new)
        return new

    def _frame(
        self,
        position: Any,
        before: Any,
        node: Node | None,
        line_id: int,
        *,
        label: str,
        notes: tuple[int, ...] = (),
    ) -> int:
        index = len(self._line_frames[line_id])
        board, flipped, text = self._draw(position, before, node)
        self.frames.append(
            Frame(
                board=board,
                board_flipped=flipped,
                position=text,
                ply=position.ply,
                line=line_id,
                index=index,
                label=label,
                comments=node.comments if node is not None else (),
                notes=notes,
            )
        )
        return len(self.frames) - 1

    def _draw(self, position: Any, before: Any, node: Node | None) -> _Drawn:
        """The parts of the pictures of ``position``, upright and flipped, and
        its Position text. Variations that play the same action from the same
        position share them (the entry keeps ``before`` alive, so that its
        ``id`` is not reused)."""
        key = (id(before), node.item) if node is not None else None
        if key is not None and key in self._drawn:
            return self._drawn[key][1]
        seen = self._seen_of(position)
        last = None
        if before is not None and node is not None:
            last = self._last(self._seen_of(before), seen, position, node)
        scene = self.scene
        marks = self._marks.get(last)
        if marks is None:
            add = self.drawings.add
            marks = self._marks[last] = tuple(
                (tuple(map(add, below)), tuple(map(add, above)))
                for below, above in scene.last_elements(last)
            )
        status_key = (seen.status, seen.winner)
        status = self._status.get(status_key)
        if status is None:
            status = self._status[status_key] = self._parts_of(scene.status, None, position)
        boards = []
        for flip, (under, over) in enumerate(self._boards):
            boards.append(
                (
                    under,
                    *marks[flip][0],
                    over,
                    *[item[1 + flip] for item in seen.items],
                    *marks[flip][1],
                    *status[flip][0],
                )
            )
        drawn = (boards[0], boards[1], seen.text)
        if key is not None:
            self._drawn[key] = (before, drawn)
        return drawn

    def _parts_of(
        self, below: Callable[[Any, bool], str], above: Callable[[Any, bool], str] | None, of: Any
    ) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
        """The parts of two layers drawn for ``of``, upright and flipped."""
        add = self.drawings.add_each
        return tuple(
            (add(below(of, flip)), add(above(of, flip)) if above else ()) for flip in (False, True)
        )

    def _seen_of(self, position: Any) -> _Seen:
        """What the picture of ``position`` shows, read from its Position
        text (much cheaper than the engine's maps of dice and pieces)."""
        kept = self._seen.get(id(position))
        if kept is not None and kept[0] is position:
            return kept[1]
        text = position.text()
        items: list[_Item] = []
        status = []
        for section in text.split("; "):
            # one side's section is often the same as in the position before
            found = self._sections.get(section)
            if found is None:
                found = self._sections[section] = self._section(section)
            if found:
                items += found
            elif found is not None:  # a side without dice or pieces
                continue
            else:
                status.append(section)
        items.sort(key=_first)  # by board order, as the drawers draw them
        seen = _Seen(text, items, position.to_move, position.winner, "; ".join(status))
        self._seen[id(position)] = (position, seen)
        return seen

    def _section(self, section: str) -> list[_Item] | None:
        """The dice or pieces of a side's section of a Position text
        (``N: A4=5 A5=4``); None for a section that is no side's."""
        name, _, rest = section.partition(":")
        side = _SIDES.get(name)
        if side is None:
            return None
        known = self._items.setdefault(side, {})
        items = []
        for token in rest.split():
            item = known.get(token)
            if item is None:
                item = known[token] = self._item(side, token)
            items.append(item)
        return items

    def _item(self, side: str, token: str) -> _Item:
        """A die (``C5=4/2``) or a Hüpfer piece (``c5``) of ``side``: its
        drawing order, its parts upright and flipped, its cell and value."""
        order, upright, flipped, where, face, home = self.scene.token(side, token)
        add = self.drawings.add
        return (order, add(upright), add(flipped), where, _Die(side, face, home))

    def _last(self, before: _Seen, after: _Seen, position: Any, node: Node) -> LastAction:
        attacked = getattr(self.rules, "attacked_ones", None)
        threatened = list(attacked(position)) if attacked else None
        return describe_last(before, after, node.action, threatened=threatened)

    # -- findings ------------------------------------------------------------

    def _notes_of(self, node: Node, frame: int) -> tuple[int, ...]:
        found = []
        for span in (node.span, node.number_span):
            if span is None:
                continue
            for number in self._by_span.get((span.line, span.column), ()):
                if number not in self._placed:
                    self._placed.add(number)
                    found.append(self._note(self.report.findings[number], frame, node.text))
        return tuple(found)

    def _note(self, finding: Finding, frame: int | None, action: str | None) -> int:
        self.notes.append(
            Note(
                code=finding.code,
                severity=finding.severity,
                message=finding.message,
                line=finding.line,
                column=finding.column,
                ply=finding.ply,
                frame=frame,
                action=action or finding.action,
            )
        )
        return len(self.notes) - 1

    def _mark_ahead(self, frame: int, notes: tuple[int, ...]) -> None:
        """The frame before a refused action tells what was refused next."""
        if notes:
            old = self.frames[frame]
            self.frames[frame] = _with(old, ahead=old.ahead + notes)

    def _add_loose_notes(self) -> None:
        """Findings that belong to no action (header, result): by ply if any."""
        main = self._line_frames[0]
        for number, finding in enumerate(self.report.findings):
            if number in self._placed:
                continue
            ply = finding.ply
            if ply is None and self._about_result(finding):
                ply = self.report.end.ply if self.report.end else len(main) - 1
            frame = main[ply] if ply is not None and 0 <= ply < len(main) else None
            self._note(finding, frame, None)

    def _about_result(self, finding: Finding) -> bool:
        record = self.report.record
        spans = (record.result_span, record.tag_span("Result")) if record else ()
        return finding.span is not None and finding.span in spans


#: The side of each section of a Position text.
_SIDES = {"N": "North", "S": "South", "R": "Red", "T": "Turquoise"}


def _first(item: _Item) -> int:
    return item[0]


class _Die(NamedTuple):
    side: str
    face: int
    home: int | None


#: A die or piece: drawing order, parts upright and flipped, cell, value.
_Item = tuple[int, int, int, str, _Die]
#: A frame's parts upright and flipped, and its Position text.
_Drawn = tuple[tuple[int, ...], tuple[int, ...], str]


class _Seen:
    """A position as :func:`describe_last` reads it (``dice`` for Hexalit
    and Trigeo, ``pieces`` for Hüpfer), with the dice or pieces drawn."""

    __slots__ = ("text", "items", "to_move", "winner", "status", "dice")

    def __init__(
        self, text: str, items: list[_Item], to_move: str, winner: str | None, status: str
    ):
        self.text = text
        self.status = status  # what the status line shows but the winner: turn, cube, reserves
        self.items = items
        self.to_move = to_move
        self.winner = winner
        # a plain attribute: describe_last reads it once per die
        self.dice: dict[str, _Die] = {item[3]: item[4] for item in items}

    @property
    def pieces(self) -> dict[str, str]:
        return {where: die.side for where, die in self.dice.items()}


class _Numbering:
    """Move numbers for a line: ``3.`` before the first side's action,
    ``3...`` before the reply when something interrupted the line."""

    def __init__(self, ply: int, *, fresh: bool):
        self.next_ply = ply + 1
        self.fresh = fresh
        self.done: set[int] = set()

    def label(self, node: Node) -> str:
        ply = self.next_ply
        text = ""
        if ply not in self.done and (ply % 2 == 1 or self.fresh):
            text = _move_number(ply)
            self.done.add(ply)
        if not isinstance(node.item, (CubeOffer, CubeAnswer)):
            self.next_ply += 1
        self.fresh = bool(node.comments or node.variations)
        return text


def _move_number(ply: int) -> str:
    """``3.`` for ply 5, ``3...`` for ply 6."""
    return f"{(ply - 1) // 2 + 1}" + ("." if ply % 2 else "...")


def _entry(
    node: Node,
    number: str,
    state: str,
    frame: int | None,
    notes: tuple[int, ...],
    variations: tuple[MoveLine, ...],
) -> Entry:
    return Entry(
        text=node.text or str(node.item),
        number=number,
        glyphs=node.glyphs,
        comments=node.comments,
        state=state,
        frame=frame,
        notes=notes,
        variations=variations,
    )


def _with(frame: Frame, **changes: Any) -> Frame:
    from dataclasses import replace

    return replace(frame, **changes)


def _findings_by_span(findings: list[Finding]) -> dict[tuple[int, int], list[int]]:
    table: dict[tuple[int, int], list[int]] = {}
    for number, finding in enumerate(findings):
        if finding.span is not None:
            table.setdefault((finding.span.line, finding.span.column), []).append(number)
    return table
