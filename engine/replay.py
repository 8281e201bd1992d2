"""Replay a parsed record: positions after every ply and the findings.

This module knows no game: it walks the main line and every variation,
asks the game's :class:`~hexhop.engine.base.Rules` whether each item may be
played, and compares what was written (annotations, move numbers, the
result) with what happened on the board.

It is the only walker of records: :class:`Visitor` gets every node of
every line once, with the positions before and after it and its findings
(python-chess's ``GameNode.accept`` is the model). The checker's report,
the viewer's page data, the JSON of ``convert`` and the script API are
built by visitors; none of them plays an action itself.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from mypy_extensions import mypyc_attr

from hexhop.notation.findings import Finding, make, words
from hexhop.notation.flat import FlatLine
from hexhop.notation.games import find_game
from hexhop.notation.model import (
    CubeAnswer,
    CubeOffer,
    DiceAction,
    HopAction,
    Item,
    Line,
    Node,
    ParsedGame,
    Record,
    Span,
)

from .base import Board, HeaderError, Position, Rules
from .deadline import OutOfTime, current
from .games import rules_for

KNOWN_TAGS: Final = (
    "Game",
    "Event",
    "Site",
    "Date",
    "Round",
    "Annotator",
    "North",
    "South",
    "Red",
    "Turquoise",
    "First",
    "Board",
    "Reserve",
    "Position",
    "Result",
    "Termination",
)
_CANONICAL: Final = {name.lower(): name for name in KNOWN_TAGS}
RESULTS: Final = ("1-0", "0-1", "*")


@dataclass(frozen=True)
class End:
    """The end reached on the board: who won, and at which ply."""

    winner: str
    ply: int


@dataclass
class GameReport:
    """Everything the replay of one game found out.

    ``positions[i]`` is the position after ply ``i`` of the main line
    (``positions[0]`` the start) for as long as the main line was legal;
    ``nodes[i - 1]`` is the action node that led to ``positions[i]``.
    ``plies`` counts the actions written in the main line. ``keys``, when
    the replay was asked for them, holds the Zobrist key of each of those
    positions (``position_key(positions[i])`` for every ``i`` the main
    line reached), taken from the in-place board where it played.
    """

    index: int
    game: str | None
    tags: dict[str, str]
    plies: int = 0
    positions: list[Position] = field(default_factory=list)
    nodes: list[Node] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    end: End | None = None
    result: str | None = None
    record: Record | None = None
    keys: list[int] | None = None

    def valid(self, strict: bool = False) -> bool:
        """True when no finding is an error (in strict mode: no finding at all)."""
        if strict:
            return not self.findings
        return not any(f.severity == "error" for f in self.findings)


def tag_map(record: Record) -> dict[str, str]:
    """The tags by name, known tags under their canonical spelling."""
    tags: dict[str, str] = {}
    for tag in record.tags:
        name = _CANONICAL.get(tag.name.lower(), tag.name)
        tags.setdefault(name, tag.value)
    return tags


# -- the walk -----------------------------------------------------------------

PLAYED: Final = "played"
REFUSED: Final = "refused"
UNPLAYED: Final = "unplayed"


# the report, the viewer, the codec and scripts subclass it in plain Python
@mypyc_attr(allow_interpreted_subclasses=True)
class Visitor:
    """What a walk through a record tells, in record order.

    ``begin_line`` opens the main line (first) or a variation, with the
    position its first node is played from and whether it is played at all
    (a variation of a node behind a refused one is not); ``node`` follows
    for each node of the line, after the lines of the node's variations;
    ``end_line`` closes the line. The methods here do nothing.
    """

    def begin_line(self, line: Line, position: Position | None, played: bool) -> None:
        """A line starts (the main line first, then each variation)."""

    def node(
        self,
        node: Node,
        before: Position | None,
        after: Position | None,
        state: str,
        findings: tuple[Finding, ...],
    ) -> None:
        """One node of the open line, after its variations.

        ``before`` is the position the node is played from (for an unplayed
        node: where its line stopped; None when the record has no start);
        ``after`` the position it leads to, None unless ``state`` is
        ``"played"``. ``state`` is ``"refused"`` for the node that stops
        its line (illegal, or after the end) and ``"unplayed"`` for every
        node behind it. ``findings`` are the node's own findings (move
        number, legality, marks), in the order the checker reports them.
        """

    def end_line(self, line: Line) -> None:
        """The open line ends."""


def walk(report: GameReport, visitor: Visitor) -> None:
    """Walk the record of ``report`` again, every variation included, from
    the start the replay found (nothing is played when there was none).

    For consumers that get a finished report, e.g. the viewer: the report
    keeps only the main line's positions, so the variations are replayed
    here rather than kept for every game.
    """
    if report.record is None:
        return
    rules = rules_for(report.game) if report.positions and report.game else None
    walker = _Replay(rules, [], visitor)
    if rules is None:
        walker.line(report.record.main, None, None)
    else:
        start = report.positions[0]
        walker.line(report.record.main, rules.board(start), start)


def replay_game(
    parsed: ParsedGame, visitor: Visitor | None = None, every: bool = True, keys: bool = False
) -> GameReport:
    """Replay one parsed game; never raises for anything the record says.

    ``visitor``, if given, sees the walk as it happens (every node of a
    record that was read, even when nothing could be played). The report
    keeps every position of the main line, or with ``every`` False only the
    start and the last one (what a check needs); with ``keys``, the key of
    each position of the main line (``GameReport.keys``)."""
    record = parsed.record
    findings = list(parsed.findings)
    if record is None:
        return GameReport(parsed.index, None, {}, findings=findings)
    tags = tag_map(record)
    report = GameReport(
        parsed.index,
        record.game,
        tags,
        findings=findings,
        record=record,
        plies=_count_actions(record.main),
    )
    report.result = record.result or tags.get("Result")
    # a record read up to a syntax error still plays the actions before it
    whole = parsed.ok
    if record.game is None or not (whole or record.main.nodes):
        if visitor is not None:
            _Replay(None, [], visitor).line(record.main, None, None)
        return report
    checker = _Checker(rules_for(record.game), record, report, every, keys)
    if not whole:  # the end of the game was not read: the result is not checked
        checker.finished = False
    checker.run(visitor)
    findings.sort(key=_finding_order)
    return report


def replay_flat(
    record: Record,
    flat: FlatLine,
    findings: Sequence[Finding] = (),
    every: bool = False,
    keys: bool = False,
) -> GameReport:
    """Replay a game read by :func:`~hexhop.notation.reader.parse_game_flat`
    (the record without its main line, and the main line and its
    variations in flat arrays):
    the report :func:`replay_game` gives for the same text, findings, end
    and result alike, without a node or a visitor call per action.

    ``positions`` holds only the start and the last position of the main
    line (the one :func:`replay_game` would end its list with), or with
    ``every`` all of them as :func:`replay_game` gives them; ``nodes``
    holds nothing, and ``record`` is None, as no tree was read to walk.
    ``findings`` are the reading's own findings (an encoding notice).
    With ``keys``, ``keys`` holds the key of every position of the main
    line, as the index stores them."""
    tags = tag_map(record)
    report = GameReport(
        record.index,
        record.game,
        tags,
        findings=list(findings),
        plies=len(flat.items) - flat.cubes,
    )
    report.result = record.result or tags.get("Result")
    if record.game is None:
        return report
    _Checker(rules_for(record.game), record, report, every, keys).run_flat(flat)
    report.findings.sort(key=_finding_order)
    return report


def _count_actions(line: Line) -> int:
    if not line.nodes:
        return 0
    kinds = [type(node.item) for node in line.nodes]  # faster than a generator per node
    return len(kinds) - kinds.count(CubeOffer) - kinds.count(CubeAnswer)


def _finding_order(finding: Finding) -> tuple[int, int]:
    span = finding.span
    return (span.line, span.column) if span else (0, 0)


_EVERY: Final = 16  # items between two readings of the deadline's clock


class _Nodes:
    """Where the nodes of one line were written, asked by index as a
    :class:`~hexhop.notation.flat.FlatLine` is."""

    __slots__ = ("nodes",)

    def __init__(self, nodes: Sequence[Node]):
        self.nodes = nodes

    def span(self, i: int) -> Span:
        return self.nodes[i].span

    def number_span(self, i: int) -> Span | None:
        node = self.nodes[i]
        return node.number_span or node.span

    def item_text(self, i: int) -> str:
        return self.nodes[i].text


_Place = _Nodes | FlatLine


class _Replay:
    """Plays written items on a game's board and words what it finds: the
    one place of every finding a played item can have (its move number,
    an action after the end, an illegal action or cube event, a mark).

    :meth:`line` walks a record tree (variations on copies of the board)
    and tells a visitor, if one listens, about every node with the
    positions before and after it."""

    def __init__(self, rules: Rules | None, findings: list[Finding], visitor: Visitor | None):
        self.rules = rules
        self.findings = findings
        self.visitor = visitor
        # the deadline of the work this replay is part of: a checkpoint every few items
        deadline = current()
        self.end = deadline.end if deadline is not None else None
        self.on_main = False  # whether the item being played is on the main line

    def play(self, board: Board, item: Item, number: int | None, place: _Place, i: int) -> bool:
        """Play item ``i`` of ``place`` (``number``: the move number written
        before it) on ``board``, its findings appended; False (the board as
        it was) when it cannot be played."""
        now = board.ply
        if number is not None and number != now // 2 + 1:
            self.findings.append(
                make(
                    "NT01",
                    place.number_span(i),
                    ply=now + 1,
                    written=number,
                    expected=now // 2 + 1,
                )
            )
        kind = type(item)
        if kind is DiceAction or kind is HopAction:
            if board.play(item):
                mark = board.required_mark()
                if item.mark != mark:  # type: ignore[union-attr]
                    self._mark(board, item, mark, place, i, now)
                return True
        elif isinstance(item, (CubeOffer, CubeAnswer)):
            if self.on_main:
                self.before_cube(board)
            board.settle()  # an offer after the end is refused
            if not board.winner and board.cube_event(item):
                return True
        self._refused(board, item, place, i, now)
        return False

    def _mark(self, board: Board, item: Item, mark: str, place: _Place, i: int, now: int) -> None:
        """A written ``^``/``+`` that differs from the one the rules require;
        the side named is the one whose One is attacked, else the one not moving."""
        written = item.mark  # type: ignore[union-attr]
        code = _mark_code(type(item) is HopAction, written, mark)
        side = board.threatened() or board.to_move
        self.findings.append(
            make(
                code, place.span(i), ply=now + 1, action=place.item_text(i), side=side, mark=written
            )
        )

    def _refused(self, board: Board, item: Item, place: _Place, i: int, now: int) -> None:
        """The finding of an item the board would not play: the game is
        over (ST01), or the explainer's words why not (IL..)."""
        board.settle()
        span, text = place.span(i), place.item_text(i)
        if board.winner:
            assert self.rules is not None  # a played line has its rules
            self.findings.append(
                make(
                    "ST01",
                    span,
                    ply=now + 1,
                    action=text,
                    winner=self.rules.sides[board.winner - 1],
                    end_ply=board.end_ply,
                )
            )
            return
        illegal = board.problem(item)
        assert illegal is not None, "the board refused what its explainer allows"
        finding = make(
            illegal.code, span, ply=now + 1, action=text, reason=illegal.reason, cell=illegal.cell
        )
        message = words(
            "ply {ply}, {side}: {finding}", ply=now + 1, side=board.to_move, finding=finding.message
        )
        self.findings.append(Finding(finding.code, message, finding.span, now + 1, text))

    def checkpoint(self) -> None:
        """:class:`~hexhop.engine.deadline.OutOfTime` past the deadline."""
        if self.end is not None and time.monotonic() > self.end:
            raise OutOfTime()

    def flat_variations(self, line: FlatLine, i: int, board: Board, main: bool) -> None:
        """The variations written in place of item ``i`` of ``line``, each
        played on a copy of ``board``; ``main``: whether ``line`` is the main line."""
        for variation in line.variations[i]:
            self.flat_line(variation, board.copy())
        self.on_main = main

    def flat_line(self, line: FlatLine, board: Board) -> None:
        """Play a variation read flat on ``board`` (its own), each item's
        variations first, up to the first item it cannot play."""
        self.on_main = False
        numbers, variations = line.numbers, line.variations
        for i, item in enumerate(line.items):
            if i % _EVERY == 0:
                self.checkpoint()
            if variations and i in variations:
                self.flat_variations(line, i, board, False)
            found = numbers.get(i) if numbers else None
            if not self.play(board, item, None if found is None else found[0], line, i):
                return

    # -- the record tree -------------------------------------------------------

    def line(
        self, line: Line, board: Board | None, here: Position | None, main: bool = False
    ) -> None:
        """Walk ``line`` playing its nodes on ``board`` (None: not played;
        the board is the line's own), ``here`` the position it starts from
        (where its line stopped, for one not played), kept for the visitor;
        ``main``: the record's main line."""
        visitor = self.visitor
        if visitor is not None:
            visitor.begin_line(line, here, board is not None)
        nodes = line.nodes
        place = _Nodes(nodes)
        for i, node in enumerate(nodes):
            if i % _EVERY == 0:
                self.checkpoint()
            for variation in node.variations:
                self.line(variation, None if board is None else board.copy(), here)
            if board is None:
                if visitor is not None:
                    visitor.node(node, here, None, UNPLAYED, ())
                continue
            count = len(self.findings) if visitor is not None else 0
            ply = board.ply
            self.on_main = main
            if self.play(board, node.item, node.number, place, i):
                after = board.snapshot() if visitor is not None else None
                if main:
                    self.main_after(board, ply, after, node)
                if visitor is not None:
                    visitor.node(node, here, after, PLAYED, tuple(self.findings[count:]))
                    here = after
                continue
            board = None
            if main:
                self.main_stopped()
            if visitor is not None:
                visitor.node(node, here, None, REFUSED, tuple(self.findings[count:]))
        if visitor is not None:
            visitor.end_line(line)

    def before_cube(self, board: Board) -> None:
        """Before a cube event of the main line is played (the checker
        keeps the report's last position)."""

    def main_after(self, board: Board, ply: int, after: Position | None, node: Node | None) -> None:
        """After an item of the main line was played from ply ``ply``."""

    def main_stopped(self) -> None:
        """The main line stopped at an item that could not be played."""


class _Checker(_Replay):
    """The check of one game: the header and the start, the main line
    played (every variation of a tree with it), the end and the result,
    and the report's positions and keys of the main line."""

    def __init__(self, rules: Rules, record: Record, report: GameReport, every: bool, keys: bool):
        super().__init__(rules, report.findings, None)
        self.game_rules = rules
        self.record = record
        self.report = report
        self.every = every
        self.keys: list[int] | None = [] if keys else None
        self.finished = True  # the main line was played to its end
        # the position after the last ply or end, when cube events followed
        # it (else the board stands there); and whether there was one at all
        self.kept: Position | None = None
        self.changed = False

    def run(self, visitor: Visitor | None = None) -> None:
        main = self.record.main
        first = next(
            (n.item for n in main.nodes if not isinstance(n.item, (CubeOffer, CubeAnswer))), None
        )
        start = self._start(first)
        if start is None:
            if visitor is not None:
                _Replay(None, [], visitor).line(main, None, None)
            return
        self._check_result_tag()
        self.visitor = visitor
        board = self._begin(start)
        self.line(main, board, start, True)
        last = main.nodes[-1] if main.nodes else None
        self._ended(start, board, (last.item, last.text, last.span) if last else None)

    def run_flat(self, flat: FlatLine) -> None:
        """:meth:`run` for lines in flat arrays: the same findings in the
        same order, without node objects."""
        items = flat.items
        first = next((i for i in items if not isinstance(i, (CubeOffer, CubeAnswer))), None)
        start = self._start(first)
        if start is None:
            return
        self._check_result_tag()
        board = self._begin(start)
        self.on_main = True
        numbers, variations = flat.numbers, flat.variations
        for i, item in enumerate(items):
            if i % _EVERY == 0:
                self.checkpoint()
            if variations and i in variations:
                self.flat_variations(flat, i, board, True)
            ply = board.ply
            found = numbers.get(i) if numbers else None
            if not self.play(board, item, None if found is None else found[0], flat, i):
                self.main_stopped()
                break
            self.main_after(board, ply, None, None)
        i = len(items) - 1
        self._ended(start, board, (items[i], flat.texts[i], flat.span(i)) if i >= 0 else None)

    def _begin(self, start: Position) -> Board:
        self.report.positions.append(start)
        # a board that keeps no key is cheaper where keys cost (Hüpfer's reserves)
        board = self.game_rules.board(start, self.keys is not None or self.every)
        if self.keys is not None:
            self.keys.append(board.key)
        return board

    # -- the main line's positions ---------------------------------------------

    def before_cube(self, board: Board) -> None:
        # a cube event leaves the report's last position as it was: kept first
        if self.kept is None and self.changed:
            self.kept = board.snapshot()

    def main_after(self, board: Board, ply: int, after: Position | None, node: Node | None) -> None:
        if board.ply != ply:
            self.changed, self.kept = True, None
            if self.keys is not None:
                self.keys.append(board.key)
            if self.every:
                self.report.positions.append(after or board.snapshot())
                if node is not None:
                    self.report.nodes.append(node)
        elif board.winner:  # a dropped cube ends the game without a ply
            self.changed, self.kept = True, None
            if self.every:
                self.report.positions[-1] = after or board.snapshot()

    def main_stopped(self) -> None:
        self.finished = False

    # -- start, end and header -------------------------------------------------

    def _start(self, first: Item | None) -> Position | None:
        try:
            return self.game_rules.start(self.report.tags, first)
        except HeaderError as error:
            span = self.record.tag_span(error.tag) or self.record.span
            self.findings.append(make(error.code, span, **error.params))
            return None

    def _ended(self, start: Position, board: Board, last: tuple[Item, str, Span] | None) -> None:
        """After the main line: its last position kept, the assumed board
        named, the end and the result checked, and the last item (item,
        text, place) looked at: an offer left unanswered."""
        report = self.report
        report.keys = self.keys
        if not self.every and self.changed:
            report.positions.append(self.kept or board.snapshot())
        self._name_assumed_board(start)
        end_position = report.positions[-1]
        if end_position.winner is not None:
            report.end = End(end_position.winner, end_position.end_ply or 0)
        if self.finished:
            self._check_result()
            if last is not None and isinstance(last[0], CubeOffer):
                self._check_unanswered_offer(last[1], last[2], end_position.ply + 1)

    def _check_unanswered_offer(self, text: str, span: Span, ply: int) -> None:
        """A main line that ends with a cube offer: the rules answer an offer
        at once. With the result '*' (or none) the game was adjourned while
        the offer waited: a note. A decided result cannot follow an offer
        without its answer: an error."""
        result = self.report.result
        if result in ("1-0", "0-1"):
            self.findings.append(make("ST03", span, ply=ply, action=text, result=result))
        else:
            self.findings.append(make("NT05", span, ply=ply, action=text))

    def _name_assumed_board(self, start: Position) -> None:
        """A point off the board of a record without a Board tag: say which
        board was assumed (the record may be from a larger one)."""
        size = getattr(start, "size", None)
        name = self.game_rules.name
        if "Board" in self.report.tags or not size or not find_game(name).board_sizes:
            return
        note = words(" (there is no Board tag, so the {size}x{size} board was assumed)", size=size)
        self.findings[:] = [
            replace(f, message=f.message + note) if f.code == "IL02" else f for f in self.findings
        ]

    def _check_result_tag(self) -> None:
        value = self.report.tags.get("Result")
        marker = self.record.result
        if value is not None and value not in RESULTS:
            self.findings.append(make("HD07", self.record.tag_span("Result"), value=value))
        elif value is not None and marker is not None and value != marker:
            self.findings.append(make("HD08", self.record.result_span, tag=value, marker=marker))

    def _check_result(self) -> None:
        # no result written at all leaves the game as open as '*' does
        result = "*" if self.report.result is None else self.report.result
        end = self.report.end
        if end is None or result not in RESULTS:
            return
        span = self.record.result_span or self.record.tag_span("Result")
        expected = "1-0" if end.winner == self.game_rules.sides[0] else "0-1"
        if result == "*":
            self.findings.append(make("NT02", span, winner=end.winner, end_ply=end.ply))
        elif result != expected:
            self.findings.append(
                make("ST02", span, result=result, winner=end.winner, end_ply=end.ply)
            )


def _mark_code(hop: bool, written: str, required: str) -> str:
    """The AN code for a written mark that differs from the required one."""
    if hop:
        return "AN05"
    table = {
        ("", "^"): "AN01",
        ("", "+"): "AN02",
        ("^", ""): "AN03",
        ("+", ""): "AN04",
        ("^", "+"): "AN06",
        ("+", "^"): "AN07",
    }
    return table[(written, required)]
