"""Replay a parsed record: positions after every ply and the findings.

This module knows no game: it walks the main line and every variation,
asks the game's :class:`~hexhop.engine.base.Rules` whether each item may be
played, and compares what was written (annotations, move numbers, the
result) with what happened on the board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from hexhop.notation.findings import Finding, make
from hexhop.notation.model import (CubeAnswer, CubeOffer, DiceAction, HopAction, Line,
                                   Node, ParsedGame, Record)

from .base import HeaderError, Position, Rules
from .games import rules_for

KNOWN_TAGS = ("Game", "Event", "Site", "Date", "Round", "Annotator", "North", "South",
              "Red", "Turquoise", "First", "Board", "Reserve", "Position", "Result",
              "Termination")
_CANONICAL = {name.lower(): name for name in KNOWN_TAGS}
RESULTS = ("1-0", "0-1", "*")
_ACTIONS = (DiceAction, HopAction)


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
    ``plies`` counts the actions written in the main line.
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


def replay_game(parsed: ParsedGame) -> GameReport:
    """Replay one parsed game; never raises for anything the record says."""
    record = parsed.record
    findings = list(parsed.findings)
    if record is None:
        return GameReport(parsed.index, None, {}, findings=findings)
    tags = tag_map(record)
    report = GameReport(parsed.index, record.game, tags, findings=findings, record=record,
                        plies=_count_actions(record.main))
    report.result = record.result or tags.get("Result")
    if not parsed.ok or record.game is None:
        return report
    _Replayer(rules_for(record.game), record, report).run()
    findings.sort(key=_finding_order)
    return report


def _count_actions(line: Line) -> int:
    return sum(1 for node in line.nodes if not isinstance(node.item, (CubeOffer, CubeAnswer)))


def _finding_order(finding: Finding) -> tuple[int, int]:
    span = finding.span
    return (span.line, span.column) if span else (0, 0)


class _Replayer:
    """Walks one record; keeps the rules, the record and the report together."""

    def __init__(self, rules: Rules, record: Record, report: GameReport):
        self.rules = rules
        self.record = record
        self.report = report
        self.findings = report.findings

    def run(self) -> None:
        start = self._start()
        if start is None:
            return
        self._check_result_tag()
        self.report.positions.append(start)
        finished = self._line(self.record.main, start, main=True)
        end_position = self.report.positions[-1]
        if end_position.winner is not None:
            self.report.end = End(end_position.winner, end_position.end_ply or 0)
        if finished:
            self._check_result()

    # -- start and header ---------------------------------------------------

    def _start(self) -> Position | None:
        first = next((n.item for n in self.record.main.nodes
                      if not isinstance(n.item, (CubeOffer, CubeAnswer))), None)
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
        span = self.record.result_span or self.record.tag_span("Result")
        if end is None or result not in RESULTS:
            return
        expected = "1-0" if end.winner == self.rules.sides[0] else "0-1"
        if result == "*":
            self.findings.append(make("NT02", span, winner=end.winner, end_ply=end.ply))
        elif result != expected:
            self.findings.append(make("ST02", span, result=result, winner=end.winner,
                                      end_ply=end.ply))

    # -- lines --------------------------------------------------------------

    def _line(self, line: Line, position: Position, *, main: bool) -> bool:
        """Replay ``line`` from ``position``; False when it stopped at an error."""
        for node in line.nodes:
            for variation in node.variations:
                self._line(variation, position, main=False)
            next_position = self._node(node, position)
            if next_position is None:
                return False
            if main and next_position.ply != position.ply:
                self.report.positions.append(next_position)
                self.report.nodes.append(node)
            elif main and next_position.winner is not None:
                # a dropped cube ends the game without a ply
                self.report.positions[-1] = next_position
            position = next_position
        return True

    def _node(self, node: Node, position: Position) -> Position | None:
        """Play one node; None (after a finding) when the line must stop."""
        ply = position.ply + 1
        if node.number is not None:
            self._check_number(node, ply)
        item = node.item
        if position.winner is not None:
            self.findings.append(make("ST01", node.span, ply=ply, action=node.text,
                                      winner=position.winner, end_ply=position.end_ply))
            return None
        illegal = self.rules.check(position, item)
        if illegal is not None:
            self.findings.append(_illegal(node, ply, position, illegal))
            return None
        played = self.rules.play(position, item)
        if type(item) in _ACTIONS and item.mark != played.mark:
            self._mark_finding(node, ply, played, position.to_move)
        return played.position

    def _check_number(self, node: Node, ply: int) -> None:
        expected = (ply - 1) // 2 + 1
        if node.number != expected:
            self.findings.append(make("NT01", node.number_span or node.span, ply=ply,
                                      written=node.number, expected=expected))

    def _mark_finding(self, node: Node, ply: int, played, mover: str) -> None:
        """A written ``^``/``+`` that differs from the one the rules require."""
        item = node.item
        side = played.threatened or next(s for s in self.rules.sides if s != mover)
        code = _mark_code(isinstance(item, HopAction), item.mark, played.mark)
        self.findings.append(make(code, node.span, ply=ply, action=node.text, side=side,
                                  mark=item.mark))


def _mark_code(hop: bool, written: str, required: str) -> str:
    """The AN code for a written mark that differs from the required one."""
    if hop:
        return "AN05"
    table = {("", "^"): "AN01", ("", "+"): "AN02", ("^", ""): "AN03", ("+", ""): "AN04",
             ("^", "+"): "AN06", ("+", "^"): "AN07"}
    return table[(written, required)]


def _illegal(node: Node, ply: int, position: Position, illegal) -> Finding:
    finding = make(illegal.code, node.span, ply=ply, action=node.text,
                   reason=illegal.reason, cell=illegal.cell)
    message = f"ply {ply}, {position.to_move}: {finding.message}"
    return Finding(finding.code, message, finding.span, ply, node.text)
