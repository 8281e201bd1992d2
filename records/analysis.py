"""Missed wins and lost positions along a game's main line (``hexhop analyse``).

For every ply of the main line the forced-win solver (:mod:`hexhop.engine.solver`)
answers two questions, within N own actions of a side:

* did the side to move have a forced win, and did it play something that
  does not win (a *missed win*)?
* did its action give the opponent a forced win, while the side was not
  already lost whatever it did (*allows a win*)?

A search that hits its limit is said to be undecided, never guessed. A
record with an illegal action is analysed up to it. No click here: the
command (``cli/analyse_cmd.py``) only prints what this module finds.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from hexhop.engine.games import rules_for
from hexhop.engine.replay import GameReport, replay_game
from hexhop.engine.solver import NODE_LIMIT, Choice, Solution, Solver, choice_text, is_roll
from hexhop.messages import _, side_name
from hexhop.notation import read_archive
from hexhop.notation.findings import Finding
from hexhop.notation.model import (
    Action,
    CubeAnswer,
    CubeOffer,
    DiceAction,
    Line,
    Node,
    ParsedGame,
    Record,
)
from hexhop.notation.writer import format_archive

from .checking import readable_data
from .sources import Source

MISSED = "missed"
ALLOWS = "allows"
UNDECIDED = "undecided"
STOPS = "stops"


@dataclass(frozen=True)
class Settings:
    """How deep and how long to search (the limits hold for each position)."""

    depth: int = 2
    node_limit: int = NODE_LIMIT
    time_limit: float = 5.0
    game: str | None = None  # for records that do not say their game


@dataclass(frozen=True)
class Note:
    """One thing the analysis says about a ply (``ply`` 0: the game as a whole).

    ``kind`` is ``missed``, ``allows``, ``undecided`` or ``stops``; ``depth``
    and ``first`` are the win found (in own actions, and its first choice
    with its move number), ``played`` the action written there.
    """

    kind: str
    ply: int
    side: str
    message: str
    line: int = 0
    column: int = 0
    played: str = ""
    depth: int = 0
    first: str = ""
    # the side the win is for (``side`` for a missed win, the opponent for
    # one allowed), and the winning line when it can be written (no roll)
    winner: str = ""
    win_line: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "ply": self.ply,
            "side": self.side,
            "line": self.line,
            "column": self.column,
            "played": self.played,
            "depth": self.depth,
            "first": self.first,
            "message": self.message,
            "winner": self.winner,
            "win_line": list(self.win_line),
        }


@dataclass(frozen=True)
class Moment:
    """A critical moment of a game: at ``ply`` a forced win within the
    depth ``appeared`` for ``winner`` (``ply`` the position after that
    action, 0 the start), was ``missed`` by it, or was ``allows``: given
    away to it by the other side's action."""

    ply: int
    kind: str  # appeared, missed, allows
    winner: str
    depth: int
    first: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "kind": self.kind,
            "winner": self.winner,
            "depth": self.depth,
            "first": self.first,
        }


APPEARED = "appeared"
MAX_DEPTH = 6  # the deepest search analyse and index --analyse make


def critical_moments(
    notes: Iterable[Note], solved: Iterable[tuple[int, str, int]], to_move: Callable[[int], str]
) -> list[Moment]:
    """The plies where a forced win appeared, was missed or was given away,
    in order (at one ply: appeared, missed, allows). A win *appears* at a
    position whose side to move wins within the depth when that side did
    not at its previous turn and no action gave it (an ``allows`` note says
    that instead); ``solved`` is the solver's answer per position,
    ``to_move(ply)`` the side to move there."""
    notes = [n for n in notes if n.kind in (MISSED, ALLOWS)]
    given = {n.ply for n in notes if n.kind == ALLOWS}
    wins = {ply: depth for ply, status, depth in solved if status == "win"}
    found = [
        Moment(ply, APPEARED, to_move(ply), depth)
        for ply, depth in sorted(wins.items())
        if ply not in given and ply - 2 not in wins
    ]
    found += [Moment(n.ply, n.kind, n.winner or n.side, n.depth, n.first) for n in notes]
    order = {APPEARED: 0, MISSED: 1, ALLOWS: 2}
    return sorted(found, key=lambda m: (m.ply, order[m.kind]))


def stored_note(
    kind: str,
    ply: int,
    side: str,
    depth: int,
    first: str,
    played: str,
    line: int,
    column: int,
    sides: tuple[str, str],
) -> Note:
    """A note as the index keeps it (no words, no winner: the side the win
    is for is ``side`` for a missed win, the other of ``sides`` for an
    allowed one), with its words in the language spoken now."""
    winner = side if kind == MISSED else next((s for s in sides if s != side), side)
    words = ""
    if kind in (MISSED, ALLOWS):
        words = note_words(kind, ply, side, winner, depth, first, f"{move_number(ply)} {played}")
    return Note(kind, ply, side, words, line, column, played, depth, first, winner)


def moment_words(moment: Moment, notes: Iterable[Note]) -> str:
    """A critical moment in words: the note's for a missed or allowed win,
    ``after ply 6, North can force a win in 2`` for one that appeared."""
    if moment.kind != APPEARED:
        for note in notes:
            if (note.kind, note.ply) == (moment.kind, moment.ply):
                return note.message
    side = side_name(moment.winner)
    if moment.ply == 0:
        text = (
            _("at the start, {side} can force a win at once")
            if moment.depth == 1
            else _("at the start, {side} can force a win in {depth}")
        )
    else:
        text = (
            _("after ply {ply}, {side} can force a win at once")
            if moment.depth == 1
            else _("after ply {ply}, {side} can force a win in {depth}")
        )
    return text.format(side=side, depth=moment.depth, ply=moment.ply)


def winning_lines(
    report: GameReport,
    plies: Iterable[tuple[int, int]],
    node_limit: int,
    time_limit: float,
    total_time: float | None = None,
) -> dict[int, tuple[Action, ...]]:
    """For each ``(ply, depth)`` of a missed win: the winning line from the
    position before that ply (the web page shows it on the board), when the
    solver finds it within the limits (each search; ``total_time`` all of
    them: the lines not reached by then are left out) and it starts with no
    roll."""
    if report.game is None:
        return {}
    solver = Solver(rules_for(report.game), node_limit, time_limit)
    found = {}
    deadline = None if total_time is None else time.perf_counter() + total_time
    for ply, stored in plies:
        if deadline is not None and time.perf_counter() > deadline:
            break
        depth = min(stored, MAX_DEPTH)  # a damaged index may say any depth
        if 1 <= ply < len(report.positions):  # the action of ply leads to positions[ply]
            line = solver.winning_line(report.positions[ply - 1], depth)
            if line:
                found[ply] = line
    return found


def note_words(
    kind: str, ply: int, side: str, winner: str, depth: int, first: str, played: str
) -> str:
    """A note as a sentence that says who missed or allowed what, in the
    language spoken now: ``North missed a win in 2 with 9. B4XC5 at ply 17
    (played 9. B4XB5)``; sides as the rules name them (``North``)."""
    if kind == MISSED:
        text = (
            _("{side} missed a win at once with {first} at ply {ply} (played {played})")
            if depth == 1
            else _("{side} missed a win in {depth} with {first} at ply {ply} (played {played})")
        )
    else:
        text = (
            _("{side} played {played} at ply {ply} and allowed {winner} a win at once with {first}")
            if depth == 1
            else _(
                "{side} played {played} at ply {ply} and allowed {winner} a win in {depth} "
                "with {first}"
            )
        )
    return text.format(
        side=side_name(side),
        winner=side_name(winner),
        depth=depth,
        first=first,
        played=played,
        ply=ply,
    )


@dataclass
class GameAnalysis:
    """What the analysis of one game found; ``analysed`` counts the plies looked at."""

    index: int
    game: str | None
    plies: int = 0
    analysed: int = 0
    notes: list[Note] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    # what the solver answered for each position searched (the index keeps
    # it: ``index --analyse``): (position, status, depth), as Solution has them
    solved: list[tuple[int, str, int]] = field(default_factory=list)
    critical: list[Moment] = field(default_factory=list)
    # the players by side, as the record's tags name them (the side's tag)
    players: dict[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "game": self.game,
            "plies": self.plies,
            "analysed": self.analysed,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "players": self.players,
            "notes": [note.as_dict() for note in self.notes],
            "critical": [moment.as_dict() for moment in self.critical],
        }


@dataclass
class FileAnalysis:
    """The games of one record file, or why it could not be read (``error``)."""

    path: str
    games: list[GameAnalysis] = field(default_factory=list)
    error: str | None = None
    annotated: str | None = None  # the annotated copy, when asked for

    def as_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "error": self.error,
            "games": [game.as_dict() for game in self.games],
        }


# -- one file -----------------------------------------------------------------


def analyse_source(
    source: Source,
    settings: Settings,
    annotate: bool = False,
    on_game: Callable[[int], None] | None = None,
    on_analysed: Callable[[GameAnalysis], None] | None = None,
) -> FileAnalysis:
    """Analyse every game of one source; never raises for bad input.
    ``annotate``: also make the annotated copy of the file (``annotated``);
    ``on_game``: told the games analysed so far after each one;
    ``on_analysed``: given each game's analysis as it is done."""
    data = readable_data(source)
    if not isinstance(data, bytes):
        error = data.error or {}
        return FileAnalysis(
            source.path, error=f"{error.get('code', '')} {error.get('message', '')}"
        )
    result = FileAnalysis(source.path)
    annotated: list[ParsedGame] = []
    try:
        for parsed in read_archive(data, path=source.path, default_game=settings.game):
            report = replay_game(parsed)
            analysis = analyse_game(report, settings)
            result.games.append(analysis)
            if on_analysed is not None:
                on_analysed(analysis)
            if on_game is not None:
                on_game(len(result.games))
            if annotate:
                annotated.append(_annotated(parsed, analysis))
    except Exception as error:  # the reader refuses the whole file (NotationError)
        result.error = str(error)
        return result
    if annotate:
        if any(not game.ok for game in annotated):
            result.annotated = None
        else:
            result.annotated = format_archive(annotated)
    return result


def analyse_sources(
    sources: Iterable[Source],
    settings: Settings,
    jobs: int = 1,
    on_game: Callable[[int], None] | None = None,
    progress: Callable[[int], None] | None = None,
    on_analysed: Callable[[str, GameAnalysis], None] | None = None,
    dask: str | None = None,
) -> Generator[FileAnalysis, None, None]:
    """The analyses of several sources in input order, in ``jobs``
    processes (:func:`hexhop.records.jobs.run_in_order`); a source whose
    worker dies is one whose analysis failed. ``on_game``: as
    :func:`analyse_source` tells it, in one process only, and
    ``on_analysed`` the path and analysis of each game done; ``progress``:
    called with the number of files analysed after each one, in several.
    ``dask``: on the Dask scheduler at that address, with the same results
    (:func:`hexhop.records.dask_runs.run_with_dask`)."""
    if jobs <= 1 and dask is None:
        for source in sources:
            told = None if on_analysed is None else partial(on_analysed, source.path)
            yield analyse_source(source, settings, on_game=on_game, on_analysed=told)
        return
    from .jobs import failure_message, run_in_order

    def failed(source: Source, error: BaseException) -> FileAnalysis:
        return FileAnalysis(source.path, error=failure_message(source.path, error))

    analyse = partial(analyse_source, settings=settings)
    yield from run_in_order(analyse, sources, jobs, failed=failed, progress=progress, dask=dask)


# -- one game -----------------------------------------------------------------


def analyse_game(report: GameReport, settings: Settings) -> GameAnalysis:
    """The notes of one replayed game's main line."""
    result = GameAnalysis(report.index, report.game, report.plies)
    if report.game is not None:
        sides = rules_for(report.game).sides
        result.players = {side: report.tags[side] for side in sides if report.tags.get(side)}
    if not report.positions or report.game is None:
        first = _first_error(report.findings)
        result.notes.append(_stops(0, "", first, _("the game cannot be replayed")))
        return result
    game = _Game(report, settings)
    for ply in range(1, len(report.positions)):
        game.ply(ply)
    result.notes = game.notes
    result.analysed = len(report.positions) - 1
    result.nodes, result.seconds = game.nodes, game.seconds
    result.solved = [(i, found.status, found.depth) for i, found in sorted(game.answers.items())]
    positions = report.positions
    result.critical = [
        replace(moment, first=f"{move_number(moment.ply + 1)} {_choice_words(found.first)}")
        if moment.kind == APPEARED and (found := game.answers[moment.ply]).first
        else moment
        for moment in critical_moments(
            game.notes, result.solved, lambda ply: str(positions[ply].to_move)
        )
    ]
    stop = len(report.positions)  # the ply that could not be played, if any
    first = next(
        (f for f in report.findings if f.severity == "error" and f.ply == stop),
        None,
    )
    if first is not None:
        result.notes.append(_stops(stop, "", first, _("the analysis stops here")))
    return result


def _first_error(findings: list[Finding]) -> Finding | None:
    return next((f for f in findings if f.severity == "error"), None)


def _stops(ply: int, side: str, finding: Finding | None, text: str) -> Note:
    if finding is None:
        return Note(STOPS, ply, side, text)
    span = finding.span
    message = f"{text}: {finding.code} {finding.message}"
    return Note(STOPS, ply, side, message, span.line if span else 0, span.column if span else 0)


class _Game:
    """The solver's answers for one game, each position solved once."""

    def __init__(self, report: GameReport, settings: Settings):
        assert report.game is not None
        self.positions = report.positions
        self.nodes_of = report.nodes
        self.depth = settings.depth
        self.solver = Solver(rules_for(report.game), settings.node_limit, settings.time_limit)
        self.answers: dict[int, Solution] = {}
        self.notes: list[Note] = []
        self.nodes = 0
        self.seconds = 0.0

    def answer(self, index: int) -> Solution:
        found = self.answers.get(index)
        if found is None:
            found = self.solver.solve(self.positions[index], self.depth)
            self.answers[index] = found
            self.nodes += found.nodes
            self.seconds += found.seconds
        return found

    def ply(self, ply: int) -> None:
        """Notes on action ``ply`` (from position ``ply - 1`` to ``ply``)."""
        before, after = self.positions[ply - 1], self.positions[ply]
        node = self.nodes_of[ply - 1]
        action = node.action
        played = f"{move_number(ply)} {node.text}"
        mover, other = before.to_move, after.to_move
        where = node.span
        note = _note_maker(ply, mover, where.line, where.column, node.text)
        mine = self.answer(ply - 1)
        if mine.status == UNDECIDED:
            self.notes.append(
                note(
                    UNDECIDED,
                    _("undecided within the limit (searched to depth {depth})").format(
                        depth=mine.depth
                    ),
                )
                if mine.depth
                else note(UNDECIDED, _("undecided within the limit"))
            )
        if mine.status == "win":
            self.missed(ply, mine, action, note)
        if after.winner is not None:
            return
        theirs = self.answer(ply)
        if theirs.status != "win":
            return
        # a side that had a win was not lost: a missed win can allow one too
        if mine.status != "win":
            lost = self.solver.lost(before, self.depth)
            self.nodes += self.solver.nodes
            if lost is not False:
                return
        first = f"{move_number(ply + 1)} {_choice_words(theirs.first)}"
        message = note_words(ALLOWS, ply, mover, other, theirs.depth, first, played)
        line = self.line(ply, theirs.depth)
        self.notes.append(note(ALLOWS, message, theirs.depth, first, other, line))

    def missed(self, ply: int, mine: Solution, action: Action, note: Callable[..., Note]) -> None:
        """The missed-win note of ``ply``, when its action does not keep the win."""
        before = self.positions[ply - 1]
        kept = self.solver.wins_with(before, own_choice(action), self.depth)
        self.nodes += self.solver.nodes
        if kept is not False:
            return
        first = f"{move_number(ply)} {_choice_words(mine.first)}"
        played = f"{move_number(ply)} {self.nodes_of[ply - 1].text}"
        mover = str(before.to_move)
        message = note_words(MISSED, ply, mover, mover, mine.depth, first, played)
        line = self.line(ply - 1, mine.depth)
        self.notes.append(note(MISSED, message, mine.depth, first, mover, line))

    def line(self, index: int, depth: int) -> tuple[str, ...]:
        """The winning line from position ``index``, numbered (``1. b2-d2@e2``),
        or none when it starts with a roll or a search is cut short."""
        found = self.solver.winning_line(self.positions[index], depth)
        self.nodes += self.solver.nodes
        if found is None:
            return ()
        return tuple(f"{move_number(index + 1 + i)} {action}" for i, action in enumerate(found))


def _note_maker(ply: int, side: str, line: int, column: int, played: str) -> Callable[..., Note]:
    def note(
        kind: str,
        message: str,
        depth: int = 0,
        first: str = "",
        winner: str = "",
        win_line: tuple[str, ...] = (),
    ) -> Note:
        return Note(kind, ply, side, message, line, column, played, depth, first, winner, win_line)

    return note


def move_number(ply: int) -> str:
    """``14.`` or ``14...`` for the action of ``ply`` (from 1)."""
    number = (ply - 1) // 2 + 1
    return f"{number}." if ply % 2 else f"{number}..."


def _choice_words(choice: Choice) -> str:
    text = choice_text(choice)
    return _("{roll} (any face)").format(roll=text) if is_roll(choice) else text


def own_choice(action: Action) -> Choice:
    """The choice an action made: a roll is the roll of its die, any face."""
    if isinstance(action, DiceAction) and action.kind == "roll":
        return tuple(DiceAction(action.origin, "roll", None, face) for face in range(1, 7))
    return (action,)


# -- the annotated copy -----------------------------------------------------------


def _annotated(parsed: ParsedGame, analysis: GameAnalysis) -> ParsedGame:
    """The game with ``?`` (a missed win) or ``??`` (allowed a win) and a
    comment at every noted action."""
    record = parsed.record
    if record is None or not analysis.notes:
        return parsed
    by_ply: dict[int, list[Note]] = {}
    for note in analysis.notes:
        if note.kind in (MISSED, ALLOWS, UNDECIDED):
            by_ply.setdefault(note.ply, []).append(note)
    nodes: list[Node] = []
    ply = 0
    for node in record.main.nodes:
        if not isinstance(node.item, (CubeOffer, CubeAnswer)):
            ply += 1
            notes = by_ply.get(ply)
            if notes:
                node = _with_notes(node, notes)
        nodes.append(node)
    main = Line(tuple(nodes), record.main.comments, record.main.span)
    return replace(parsed, record=_replace_main(record, main))


def _with_notes(node: Node, notes: list[Note]) -> Node:
    glyph = "??" if any(n.kind == ALLOWS for n in notes) else "?"
    if not any(n.kind in (MISSED, ALLOWS) for n in notes):
        glyph = ""
    glyphs = node.glyphs if node.glyphs or not glyph else (glyph,)
    comments = node.comments + tuple(n.message.replace("}", ")") for n in notes)
    return replace(node, glyphs=glyphs, comments=comments)


def _replace_main(record: Record, main: Line) -> Record:
    return replace(record, main=main)
