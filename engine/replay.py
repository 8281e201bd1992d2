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

from .base import HeaderError, Illegal, Played, Position, Rules
from .deadline import OutOfTime, current
from .dice.geometry import SIDE_NAMES
from .dice.inplace import DiceBoard
from .dice.rules import DicePosition, DiceRules
from .games import rules_for
from .huepfer.inplace import HopBoard
from .huepfer.position import HuepferPosition
from .huepfer.rules import HuepferRules
from .zobrist import position_key

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
_ACTIONS: Final = (DiceAction, HopAction)


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
    start = report.positions[0] if rules is not None else None
    _Walker(rules, visitor).line(report.record.main, start, rules is not None)


def replay_game(parsed: ParsedGame, visitor: Visitor | None = None) -> GameReport:
    """Replay one parsed game; never raises for anything the record says.

    ``visitor``, if given, sees the walk as it happens (every node of a
    record that was read, even when nothing could be played)."""
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
            _Walker(None, visitor).line(record.main, None, False)
        return report
    replayer = _Replayer(rules_for(record.game), record, report)
    if not whole:  # the end of the game was not read: the result is not checked
        replayer._finished = False
    replayer.run(visitor)
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
    (the record without its main line, and the main line in flat arrays):
    the report :func:`replay_game` gives for the same text, findings, end
    and result alike, without a node or a visitor call per action.

    ``positions`` holds only the start and the last position of the main
    line (the one :func:`replay_game` would end its list with), or with
    ``every`` all of them as :func:`replay_game` gives them; ``nodes``
    holds nothing, and ``record`` is None, as no tree was read to walk.
    ``findings`` are the reading's own findings (an encoding notice).
    With ``keys`` (and not ``every``), ``keys`` holds the key of every
    position of the main line, as the index stores them."""
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
    _Replayer(rules_for(record.game), record, report).run_flat(flat, every, keys and not every)
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


_EVERY: Final = 16  # nodes between two readings of the deadline's clock


class _Walker:
    """Plays every line of one record and tells a visitor about each node."""

    def __init__(self, rules: Rules | None, visitor: Visitor):
        self.rules = rules
        self.visitor = visitor
        # the deadline of the work this walk is part of: a checkpoint every few nodes
        deadline = current()
        self.end = deadline.end if deadline is not None else None

    def line(self, line: Line, position: Position | None, played: bool) -> None:
        """Walk ``line`` from ``position`` (playing its nodes when ``played``);
        :class:`~hexhop.engine.deadline.OutOfTime` past the deadline."""
        visitor = self.visitor
        visitor.begin_line(line, position, played)
        tell = visitor.node
        end = self.end
        nodes = line.nodes
        # the clock is read at every line and every _EVERY nodes (a slice of
        # _EVERY nodes costs less than a count at every node)
        for first in range(0, len(nodes), _EVERY):
            if end is not None and time.monotonic() > end:
                raise OutOfTime()
            for node in nodes[first : first + _EVERY]:
                for variation in node.variations:
                    self.line(variation, position, played)
                if not played:
                    tell(node, position, None, UNPLAYED, ())
                    continue
                # called on self (not a bound method kept aside): compiled, a direct call
                after, findings = self._node(node, position)
                if after is None:
                    played = False
                    tell(node, position, None, REFUSED, findings)
                else:
                    tell(node, position, after, PLAYED, findings)
                    position = after
        visitor.end_line(line)

    def _node(
        self, node: Node, position: Position | None
    ) -> tuple[Position | None, tuple[Finding, ...]]:
        """Play one node from ``position``: the position after it (None when
        it is refused) and its findings."""
        rules = self.rules
        assert position is not None and rules is not None  # a played line has both
        findings: tuple[Finding, ...] = ()
        if node.number is not None:
            expected = position.ply // 2 + 1
            if node.number != expected:
                findings = (
                    make(
                        "NT01",
                        node.number_span or node.span,
                        ply=position.ply + 1,
                        written=node.number,
                        expected=expected,
                    ),
                )
        item = node.item
        # asked first: a legal Hüpfer turn tells that the game goes on, so
        # that the rules need not search for one to answer ``winner``
        illegal = rules.check(position, item)
        if position.winner is not None:
            findings += (
                make(
                    "ST01",
                    node.span,
                    ply=position.ply + 1,
                    action=node.text,
                    winner=position.winner,
                    end_ply=position.end_ply,
                ),
            )
            return None, findings
        if illegal is not None:
            findings += (_illegal(node, position.ply + 1, position, illegal),)
            return None, findings
        played = rules.apply(position, item)  # checked above
        if isinstance(item, _ACTIONS) and item.mark != played.mark:
            findings += (
                _mark_finding(node, position.ply + 1, played, position.to_move, rules.sides),
            )
        return played.position, findings


class _Tee(Visitor):
    """Two visitors walked along at once."""

    def __init__(self, first: Visitor, second: Visitor):
        self.first = first
        self.second = second

    def begin_line(self, line: Line, position: Position | None, played: bool) -> None:
        self.first.begin_line(line, position, played)
        self.second.begin_line(line, position, played)

    def node(
        self,
        node: Node,
        before: Position | None,
        after: Position | None,
        state: str,
        findings: tuple[Finding, ...],
    ) -> None:
        self.first.node(node, before, after, state, findings)
        self.second.node(node, before, after, state, findings)

    def end_line(self, line: Line) -> None:
        self.first.end_line(line)
        self.second.end_line(line)


class _Replayer(Visitor):
    """The checker: consumes the walk into the report (main-line positions,
    findings) and checks the header and the result around it."""

    def __init__(self, rules: Rules, record: Record, report: GameReport):
        self.rules = rules
        self.record = record
        self.report = report
        self.findings = report.findings
        self._positions = report.positions
        self._nodes = report.nodes
        self._depth = 0
        self._finished = True

    def run(self, visitor: Visitor | None = None) -> None:
        first = next(
            (
                n.item
                for n in self.record.main.nodes
                if not isinstance(n.item, (CubeOffer, CubeAnswer))
            ),
            None,
        )
        start = self._start(first)
        if start is None:
            if visitor is not None:
                _Walker(None, visitor).line(self.record.main, None, False)
            return
        self._check_result_tag()
        self.report.positions.append(start)
        both = self if visitor is None else _Tee(self, visitor)
        _Walker(self.rules, both).line(self.record.main, start, True)
        nodes = self.record.main.nodes
        self._ended(start, (nodes[-1].item, nodes[-1].text, nodes[-1].span) if nodes else None)

    def run_flat(self, flat: FlatLine, every: bool = False, keys: bool = False) -> None:
        """:meth:`run` for a main line in flat arrays: the same findings in
        the same order, the walk's checks made here without node objects
        (and the main line's positions kept only with ``every``, their keys
        only with ``keys``)."""
        first = next((i for i in flat.items if not isinstance(i, (CubeOffer, CubeAnswer))), None)
        start = self._start(first)
        if start is None:
            return
        self._check_result_tag()
        positions = self.report.positions
        positions.append(start)
        found: list[int] | None = [] if keys else None
        last, refused = _play_flat(
            self.rules, flat, start, self.findings, positions if every else None, found
        )
        self.report.keys = found
        if refused:
            self._finished = False
        if not every and last is not start:
            positions.append(last)
        i = len(flat.items) - 1
        self._ended(start, (flat.items[i], flat.texts[i], flat.span(i)) if i >= 0 else None)

    def _ended(self, start: Position, last: tuple[Item, str, Span] | None) -> None:
        """After the walk: the assumed board named, the end and the result
        checked, and the last item of the main line (item, text, place)
        looked at: an offer left unanswered."""
        self._name_assumed_board(start)
        end_position = self.report.positions[-1]
        if end_position.winner is not None:
            self.report.end = End(end_position.winner, end_position.end_ply or 0)
        if self._finished:
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

    # -- the walk -------------------------------------------------------------

    def begin_line(self, line: Line, position: Position | None, played: bool) -> None:
        self._depth += 1

    def end_line(self, line: Line) -> None:
        self._depth -= 1

    def node(
        self,
        node: Node,
        before: Position | None,
        after: Position | None,
        state: str,
        findings: tuple[Finding, ...],
    ) -> None:
        if findings:
            self.findings.extend(findings)
        if self._depth != 1 or state == UNPLAYED:
            return
        if after is None:
            self._finished = False
        elif after.ply != self._positions[-1].ply:  # the main line's last is ``before``
            self._positions.append(after)
            self._nodes.append(node)
        elif after.winner is not None:
            # a dropped cube ends the game without a ply
            self._positions[-1] = after

    def _name_assumed_board(self, start: Position) -> None:
        """A point off the board of a record without a Board tag: say which
        board was assumed (the record may be from a larger one)."""
        size = getattr(start, "size", None)
        if "Board" in self.report.tags or not size or not find_game(self.rules.name).board_sizes:
            return
        note = words(" (there is no Board tag, so the {size}x{size} board was assumed)", size=size)
        self.findings[:] = [
            replace(f, message=f.message + note) if f.code == "IL02" else f for f in self.findings
        ]

    # -- start and header ---------------------------------------------------

    def _start(self, first: Item | None) -> Position | None:
        try:
            return self.rules.start(self.report.tags, first)
        except HeaderError as error:
            span = self.record.tag_span(error.tag) or self.record.span
            self.findings.append(make(error.code, span, **error.params))
            return None

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
        expected = "1-0" if end.winner == self.rules.sides[0] else "0-1"
        if result == "*":
            self.findings.append(make("NT02", span, winner=end.winner, end_ply=end.ply))
        elif result != expected:
            self.findings.append(
                make("ST02", span, result=result, winner=end.winner, end_ply=end.ply)
            )


def _play_flat(
    rules: Rules,
    flat: FlatLine,
    start: Position,
    findings: list[Finding],
    positions: list[Position] | None = None,
    keys: list[int] | None = None,
) -> tuple[Position, bool]:
    """Play the main line ``flat`` from ``start`` as :class:`_Walker` and
    :meth:`_Replayer.node` do, findings appended to ``findings`` (and the
    main line's positions to ``positions``, if given, as the replayer keeps
    them): the last position the report keeps and whether an item was
    refused. Without ``positions`` (the check, the index), the main line
    is played on an in-place board (:func:`_play_on_board`,
    :func:`_play_on_hop_board`) for as long as it plays the items, and the
    immutable positions go on from there; ``keys``, if given, gets the key
    of every position of the main line."""
    deadline = current()
    end = deadline.end if deadline is not None else None
    if positions is None:
        board: DiceBoard | HopBoard | None = None
        if isinstance(rules, DiceRules) and isinstance(start, DicePosition):
            first, board, kept = _play_on_board(rules, flat, start, findings, end, keys)
        elif isinstance(rules, HuepferRules) and isinstance(start, HuepferPosition):
            first, board, kept = _play_on_hop_board(flat, start, findings, end, keys)
        if board is not None:
            if first == len(flat.items):
                return kept, False
            # the rest from where the board stands (a cube event included)
            position = board.position() if first else start
            if keys is None:
                return _play_positions(rules, flat, position, findings, None, first, end, kept)
            rest = [position]
            last = _play_positions(rules, flat, position, findings, rest, first, end, kept)
            keys.extend(position_key(p) for p in rest[1:])
            return last
    found = _play_positions(rules, flat, start, findings, positions, 0, end, start)
    if keys is not None:
        keys.extend(position_key(p) for p in positions or [start])
    return found


#: the games the in-place board replayed, and those it left to the immutable
#: positions before their end (the tests count them)
BOARD_GAMES: Final = [0, 0]


def _play_on_board(
    rules: DiceRules,
    flat: FlatLine,
    start: DicePosition,
    findings: list[Finding],
    end: float | None,
    keys: list[int] | None = None,
) -> tuple[int, DiceBoard, Position]:
    """Play the items of ``flat`` on an in-place board from ``start`` for
    as long as each is a legal action or cube event: the index of the first
    item it leaves to :func:`_play_positions` (an item the rules refuse or
    one after the end: that path words the finding), the board as it stands
    before that item and the report's last position so far (the position
    after the last ply or end: cube events after it leave it as it was).
    Move numbers and marks are checked here, with the same findings;
    ``keys``, if given, gets the board's key at the start and after each ply."""
    BOARD_GAMES[0] += 1
    board = DiceBoard(rules, start)
    if keys is not None:
        keys.append(board.key)
    items, numbers = flat.items, flat.numbers
    legal, push, required = board.legal, board.push, board.required_mark
    changed = False  # a ply or an end since the start
    before: Position | None = None  # the last position kept, when cube events followed it
    stop = len(items)
    for i in range(len(items)):
        if i % _EVERY == 0 and end is not None and time.monotonic() > end:
            raise OutOfTime()
        item = items[i]
        now = board.ply
        if type(item) is DiceAction:
            move = legal(item)
            if move is None:
                stop = i
                break
            if numbers and i in numbers:
                _check_number(flat, i, now, findings)
            push(move, False)  # stuck or not: found out when it matters
            changed, before = True, None
            if keys is not None:
                keys.append(board.key)
            mark = required()
            if item.mark != mark:
                # the side named: the one whose One is attacked, else the one not moving
                code = _mark_code(False, item.mark, mark)
                side = SIDE_NAMES[board.side]
                span, text = flat.span(i), flat.texts[i]
                findings.append(
                    make(code, span, ply=now + 1, action=text, side=side, mark=item.mark)
                )
        elif type(item) is CubeOffer or type(item) is CubeAnswer:
            board.settle()  # an offer after the end is refused
            if board.winner:
                stop = i
                break
            if before is None:
                before = board.position() if changed else start
            if not board.cube_event(item):
                stop = i
                break
            if numbers and i in numbers:
                _check_number(flat, i, now, findings)
            if board.winner:  # dropped: the game ends without a ply
                changed, before = True, None
        else:
            stop = i
            break
    if stop < len(items):
        BOARD_GAMES[1] += 1
    if before is not None:
        return stop, board, before
    return stop, board, board.position() if changed else start


def _play_on_hop_board(
    flat: FlatLine,
    start: HuepferPosition,
    findings: list[Finding],
    end: float | None,
    keys: list[int] | None = None,
) -> tuple[int, HopBoard, Position]:
    """:func:`_play_on_board` for Hüpfer: the turns of ``flat`` played on
    an in-place board for as long as each is legal and written without a
    mark (Hüpfer has none, so a mark is a finding, worded by the path of
    the immutable positions as an illegal turn is)."""
    BOARD_GAMES[0] += 1
    board = HopBoard(start, keys is not None)  # the key only when it is asked for
    if keys is not None:
        keys.append(board.key)
    items, numbers = flat.items, flat.numbers
    play = board.play
    stop = len(items)
    for i, item in enumerate(items):
        if i % _EVERY == 0 and end is not None and time.monotonic() > end:
            raise OutOfTime()
        if type(item) is not HopAction or item.mark or not play(item, False):
            stop = i
            break
        if numbers:
            number = numbers.get(i)
            if number is not None and number[0] != (board.ply - 1) // 2 + 1:
                _check_number(flat, i, board.ply - 1, findings)
        if keys is not None:
            keys.append(board.key)
    if stop < len(items):
        BOARD_GAMES[1] += 1
    return stop, board, board.position() if stop else start


def _check_number(flat: FlatLine, i: int, now: int, findings: list[Finding]) -> None:
    """NT01 when the move number written before item ``i`` (played at ply
    ``now + 1``) is not the ply's."""
    number = flat.numbers[i][0]
    expected = now // 2 + 1
    if number != expected:
        where = flat.number_span(i)
        findings.append(make("NT01", where, ply=now + 1, written=number, expected=expected))


def _play_positions(
    rules: Rules,
    flat: FlatLine,
    start: Position,
    findings: list[Finding],
    positions: list[Position] | None,
    first: int,
    end: float | None,
    kept: Position,
) -> tuple[Position, bool]:
    """:func:`_play_flat` with the immutable positions, from item ``first``
    and ``start``; ``kept``: the report's last position so far."""
    items, numbers = flat.items, flat.numbers
    position = start  # where the next item is played from
    now = start.ply  # its ply
    kept_ply = now  # the ply of the report's last position (changed by a ply or an end)
    for i in range(first, len(items)):
        if i % _EVERY == 0 and end is not None and time.monotonic() > end:
            raise OutOfTime()
        if numbers and i in numbers:
            number = numbers[i][0]
            expected = now // 2 + 1
            if number != expected:
                where = flat.number_span(i)
                findings.append(make("NT01", where, ply=now + 1, written=number, expected=expected))
        item = items[i]
        illegal = rules.check(position, item)
        winner = position.winner
        if winner is not None:
            findings.append(
                make(
                    "ST01",
                    flat.span(i),
                    ply=now + 1,
                    action=flat.texts[i],
                    winner=winner,
                    end_ply=position.end_ply,
                )
            )
            return kept, True
        if illegal is not None:
            findings.append(
                _illegal_finding(flat.span(i), flat.texts[i], now + 1, position, illegal)
            )
            return kept, True
        played = rules.apply(position, item)
        if isinstance(item, _ACTIONS) and item.mark != played.mark:
            findings.append(
                _mark_of(
                    item,
                    flat.span(i),
                    flat.texts[i],
                    now + 1,
                    played,
                    position.to_move,
                    rules.sides,
                )
            )
        position = played.position
        now = position.ply
        if now != kept_ply:
            kept, kept_ply = position, now
            if positions is not None:
                positions.append(position)
        elif position.winner is not None:
            kept = position
            if positions is not None:
                positions[-1] = position
    return kept, False


def _mark_finding(
    node: Node, ply: int, played: Played[Position], mover: str, sides: Sequence[str]
) -> Finding:
    """A written ``^``/``+`` that differs from the one the rules require."""
    item = node.item
    assert isinstance(item, (DiceAction, HopAction))
    return _mark_of(item, node.span, node.text, ply, played, mover, sides)


def _mark_of(
    item: DiceAction | HopAction,
    span: Span,
    text: str,
    ply: int,
    played: Played[Position],
    mover: str,
    sides: Sequence[str],
) -> Finding:
    side = played.threatened or next(s for s in sides if s != mover)
    code = _mark_code(isinstance(item, HopAction), item.mark, played.mark)
    return make(code, span, ply=ply, action=text, side=side, mark=item.mark)


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


def _illegal(node: Node, ply: int, position: Position, illegal: Illegal) -> Finding:
    return _illegal_finding(node.span, node.text, ply, position, illegal)


def _illegal_finding(
    span: Span, text: str, ply: int, position: Position, illegal: Illegal
) -> Finding:
    finding = make(
        illegal.code, span, ply=ply, action=text, reason=illegal.reason, cell=illegal.cell
    )
    message = words(
        "ply {ply}, {side}: {finding}", ply=ply, side=position.to_move, finding=finding.message
    )
    return Finding(finding.code, message, finding.span, ply, text)
