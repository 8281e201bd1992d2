"""Puzzles from real games: positions with exactly one winning first action.

A position of a game's main line is a puzzle when the side to move wins by
force within N own actions and exactly one first choice does it (a unique
solution). The solution is written as movetext: the winning action, the
reply that holds out longest, and so on to the win. Positions whose
solution starts with (or needs) a roll are left out: a roll's face cannot
be written before it is known. Puzzles are told apart by the Zobrist key of
their position and sorted by difficulty: fewer own actions first, then
fewer tempting alternatives (captures that do not win).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import closing
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING

from hexhop.engine.base import Position, Rules
from hexhop.engine.games import rules_for
from hexhop.engine.replay import replay_game
from hexhop.engine.solver import Solver, is_roll
from hexhop.engine.zobrist import position_key
from hexhop.messages import _, side_name
from hexhop.notation import NotationError, read_archive
from hexhop.notation.games import find_game
from hexhop.notation.model import (
    Action,
    CubeAnswer,
    CubeOffer,
    DiceAction,
    Line,
    Node,
    Record,
    Span,
    Tag,
)
from hexhop.notation.writer import format_record

from .analysis import Settings
from .checking import readable_data
from .errors import RecordsError
from .puzzle_choice import Facts, facts, motifs, near_key
from .sources import Source

if TYPE_CHECKING:
    from hexhop.render.pages import Page

_SPAN = Span(0, 0)
# the tags of a puzzle's record that name its source: the file, the game's
# number in it (from 1) and the ply of the position (0: the start)
SOURCE, SOURCE_GAME, SOURCE_PLY = "Source", "SourceGame", "SourcePly"
# the players' tags of each game, in the order a source line names them
PLAYER_TAGS = ("North", "South", "Red", "Turquoise")


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: where it comes from, its position and its solution."""

    game: str
    tags: tuple[tuple[str, str], ...]  # Board, when the game has several
    position: Position
    depth: int
    solution: tuple[Action, ...]  # with the marks the rules require
    tempting: int  # other first captures, which do not win
    key: int
    origin: str  # "file, game 3, ply 14"
    source: tuple[str, int, int] | None = None  # (file, game, ply): the Source tags
    facts: Facts | None = None  # the difficulty (puzzle_choice.facts)
    motifs: tuple[str, ...] = ()
    near: tuple[object, ...] = ()  # equal for near-repeats (puzzle_choice.near_key)
    credit: tuple[tuple[str, str], ...] = ()  # the game's players, Event and Year

    def credit_tags(self) -> list[tuple[str, str]]:
        """``SourcePlayers``, ``SourceEvent`` and ``SourceYear``: who played
        the game, where and when, as far as its tags say."""
        tags = dict(self.credit)
        players = " - ".join(tags[k] for k in PLAYER_TAGS if k in tags)
        found = [("SourcePlayers", players)] if players else []
        found += [("Source" + k, tags[k]) for k in ("Event", "Year") if tags.get(k)]
        return found

    def credit_line(self) -> str:
        """The source under a diagram: "Anna Berger – Jonas Keller, Kassel
        club championship 1998, ply 41"."""
        tags = dict(self.credit)
        players = " – ".join(tags[k] for k in PLAYER_TAGS if k in tags)
        event = " ".join(v for v in (tags.get("Event"), tags.get("Year")) if v)
        words = [w for w in (players, event) if w]
        if self.source is not None:
            words.append(_("ply {ply}").format(ply=self.source[2]))
        return ", ".join(words)

    def source_tags(self) -> list[tuple[str, str]]:
        """``Source``, ``SourceGame`` and ``SourcePly``: the game the
        position comes from (docs/notation.md)."""
        if self.source is None:
            return []
        path, game, ply = self.source
        return [(SOURCE, path), (SOURCE_GAME, str(game)), (SOURCE_PLY, str(ply))]

    @property
    def side(self) -> str:
        return self.position.to_move

    def caption(self) -> str:
        """ "North to play and win in 2" (in the language spoken now)."""
        side = side_name(self.side)
        if self.depth == 1:
            return _("{side} to play and win at once").format(side=side)
        return _("{side} to play and win in {depth}").format(side=side, depth=self.depth)

    def record(self, number: int) -> Record:
        """The puzzle as a record: a Position tag, the solution as movetext."""
        spec = find_game(self.game)
        # the solution ends in a win of the side to move
        result = "1-0" if self.side == spec.sides[0] else "0-1"
        tags = [("Game", spec.name), ("Event", _("Puzzle {number}").format(number=number))]
        tags += list(self.tags)
        tags += self.source_tags()
        tags += self.credit_tags()
        if self.facts is not None:
            tags.append(("Difficulty", self.facts.tag()))
        if self.motifs:
            tags.append(("Motifs", " ".join(self.motifs)))
        tags += [("Position", self.position.text()), ("Result", result)]
        nodes = [Node(action, _SPAN, str(action)) for action in self.solution]
        first = replace(nodes[0], comments=(self.caption(), self.origin))
        main = Line((first, *nodes[1:]))
        return Record(tuple(Tag(k, v) for k, v in tags), spec.name, main, result)

    def text(self, number: int) -> str:
        return format_record(self.record(number))

    def solution_text(self) -> str:
        """The solution as numbered movetext from move 1: ``1. F5°B5+``,
        or ``1... d4xb4 2. …`` when the second side is to play."""
        second = self.side != find_game(self.game).sides[0]
        words: list[str] = []
        for index, action in enumerate(self.solution):
            ply = index + second
            if ply % 2 == 0:
                words.append(f"{ply // 2 + 1}.")
            elif index == 0:
                words.append("1...")
            words.append(str(action))
        return " ".join(words)


def puzzle_book(puzzles: Sequence[Puzzle], page: Page, pieces: str = "dice") -> bytes:
    """The puzzles as a PDF, as puzzle books print them: the diagrams on
    the grid of ``page`` (:meth:`~hexhop.render.pages.Page.grid`), numbered,
    each with its task under it ("Red to play and win in 2"), and the
    solutions, numbered the same, on the last page or pages; ``pieces``
    as :func:`~hexhop.render.svg.board_svg` takes it."""
    from hexhop.render.sequence import pdf, sheet_pages_svg, text_pages_svg
    from hexhop.render.svg import board_svg

    captions = [
        _("{number}. {task}").format(number=number, task=puzzle.caption())
        + ("\n" + puzzle.credit_line() if puzzle.credit_line() else "")
        for number, puzzle in enumerate(puzzles, 1)
    ]

    def draw(width: int) -> list[str]:
        return [board_svg(puzzle.position, size=width, pieces=pieces) for puzzle in puzzles]

    pages = sheet_pages_svg(captions, draw, page, heading=[_("Puzzles")], caption_lines=4)
    # the motifs give the idea away: they stand with the solutions
    solutions = [
        _("{number}) {solution}").format(number=number, solution=puzzle.solution_text())
        + (f" ({', '.join(puzzle.motifs)})" if puzzle.motifs else "")
        for number, puzzle in enumerate(puzzles, 1)
    ]
    return pdf([*pages, *text_pages_svg(_("Solutions"), solutions, page)])


def find_puzzles(
    sources: Iterable[Source],
    settings: Settings,
    unreadable: Callable[[str], None] = lambda why: None,
    jobs: int = 1,
    on_game: Callable[[int], None] | None = None,
    progress: Callable[[int], None] | None = None,
    dask: str | None = None,
) -> list[Puzzle]:
    """The puzzles of every game of ``sources``, deduplicated and sorted. A
    source that cannot be read is passed to ``unreadable`` with check's
    message, and the rest are read on.

    With ``jobs`` > 1 the sources are searched in that many processes
    (:func:`hexhop.records.jobs.run_in_order`), each on its own, and their
    puzzles taken in input order: the same puzzles as one process finds
    while no search reaches its node or time limit. ``on_game`` (in one
    process) is told the games searched so far after each one,
    ``progress`` (in several) the files searched after each one. ``dask``:
    searched on the Dask scheduler at that address, as in several processes."""
    if jobs <= 1 and dask is None:
        return _in_turn(((source, None) for source in sources), settings, unreadable, on_game)
    found: dict[int, Puzzle] = {}
    from .jobs import failure_message, run_in_order

    def failed(source: Source, error: BaseException) -> tuple[list[Puzzle], str | None]:
        return [], failure_message(source.path, error)

    search = partial(source_puzzles, settings=settings)
    searched = run_in_order(search, sources, jobs, failed=failed, progress=progress, dask=dask)
    with closing(searched):  # stopped: the workers or the cluster end now
        for puzzles, why in searched:
            if why is not None:
                unreadable(why)
            for puzzle in puzzles:
                found.setdefault(puzzle.key, puzzle)
    return _sorted(found)


def _sorted(found: dict[int, Puzzle]) -> list[Puzzle]:
    """The puzzles in source order (file, game, ply): the order of
    ``--order source``; :func:`~.puzzle_choice.choose` orders them for a sheet."""
    return list(found.values())  # found file by file, game by game, ply by ply


def source_puzzles(source: Source, settings: Settings) -> tuple[list[Puzzle], str | None]:
    """The puzzles of one source, each position once, in the order found;
    and why it cannot be read (check's message), or None."""
    found: dict[int, Puzzle] = {}
    why = _source_puzzles(source, settings, found)
    return list(found.values()), why


def stored_puzzles(
    games: Iterable[tuple[Source, dict[int, tuple[int, ...]]]],
    settings: Settings,
    unreadable: Callable[[str], None] = lambda why: None,
    on_game: Callable[[int], None] | None = None,
    studies: dict[str, dict[tuple[int, int], Study]] | None = None,
) -> list[Puzzle]:
    """The puzzles of the positions a stored analysis leaves possible
    (``puzzles --db``): for each source, the games by number and in each
    the positions (by ply) where a win within ``settings.depth`` may lie;
    the others have none, so the puzzles are those :func:`find_puzzles`
    finds in the same games, in the same order. ``studies``: by source
    path, what the index keeps of positions, read instead of searched."""
    return _in_turn(games, settings, unreadable, on_game, studies or {})


def _in_turn(
    games: Iterable[tuple[Source, dict[int, tuple[int, ...]] | None]],
    settings: Settings,
    unreadable: Callable[[str], None],
    on_game: Callable[[int], None] | None,
    studies: dict[str, dict[tuple[int, int], Study]] | None = None,
) -> list[Puzzle]:
    """The puzzles of each source in turn, in one process (``None``: all
    its positions; else only those given, as :func:`_source_puzzles` takes
    them); ``on_game`` is told the games searched so far after each one."""
    found: dict[int, Puzzle] = {}
    searched = 0

    def game_done() -> None:
        nonlocal searched
        searched += 1
        if on_game is not None:
            on_game(searched)

    for source, wanted in games:
        kept = (studies or {}).get(source.path)
        why = _source_puzzles(source, settings, found, game_done, wanted, kept)
        if why is not None:
            unreadable(why)
    return _sorted(found)


def _source_puzzles(
    source: Source,
    settings: Settings,
    found: dict[int, Puzzle],
    game_done: Callable[[], None] = lambda: None,
    only: dict[int, tuple[int, ...]] | None = None,
    studies: dict[tuple[int, int], Study] | None = None,
) -> str | None:
    """Add the puzzles of one source to ``found`` (positions already in it
    are passed over; ``game_done`` after each game); why it cannot be
    read, or None. ``only``: the games (by number) and their positions
    (by ply) to look at, the others passed over. ``studies``: what the
    index keeps of positions (by game and ply), read instead of searched."""
    data = readable_data(source)
    if not isinstance(data, bytes):
        return str((data.error or {}).get("message", source.path))
    try:
        parsed_games = list(read_archive(data, path=source.path, default_game=settings.game))
    except NotationError as error:  # beyond a limit of the whole file
        return error.finding.message
    for parsed in parsed_games:
        if only is not None and parsed.index not in only:
            continue
        report = replay_game(parsed)
        if not report.positions or report.game is None:
            game_done()
            continue
        plies = only[parsed.index] if only is not None else range(len(report.positions))
        rules = rules_for(report.game)
        solver = Solver(rules, settings.node_limit, settings.time_limit)
        board = report.tags.get("Board")
        tags = (("Board", board),) if board and find_game(report.game).board_sizes else ()
        credit = _credit(report.tags)
        taken = _cube_taken(parsed.record.main) if parsed.record is not None else set()
        for ply in plies:
            if ply >= len(report.positions):
                continue
            position = report.positions[ply]
            key = position_key(position)
            if position.winner is not None or key in found:
                continue
            origin = _("{path}, game {index}, ply {ply}").format(
                path=source.path, index=parsed.index, ply=ply
            )
            kept = (studies or {}).get((parsed.index, ply))
            if kept is not None:
                puzzle = kept.puzzle(rules, position, settings.depth, tags, key, origin)
            else:
                puzzle = _puzzle(rules, solver, position, settings.depth, tags, key, origin)
                if puzzle is not None:
                    puzzle = replace(
                        puzzle, motifs=motifs(rules, position, puzzle.solution, ply in taken)
                    )
            if puzzle is not None:
                found[key] = replace(puzzle, source=(source.path, parsed.index, ply), credit=credit)
        game_done()
    return None


class NoLine(RecordsError):
    """A solution the index keeps that is no legal line from its position:
    the index is damaged (``puzzles --db`` says so, exit 2)."""

    exit_code = 2


@dataclass(frozen=True)
class Study:
    """What the index keeps of a position where a win lies (its table
    ``puzzle_facts``): enough to tell, for any depth up to the one
    searched, whether it is a puzzle and which, without a search.

    ``winners``: each winning first choice's fewest own actions and
    whether it is a roll (None: the search was undecided); ``solution``:
    the winning line of the shortest win when exactly one first choice
    gives it and it is no roll, else empty; its difficulty facts and motifs."""

    winners: tuple[tuple[int, bool], ...] | None
    solution: tuple[str, ...] = ()  # the actions' text, with their marks
    defences: int = 0
    decoys: int = 0
    motifs: tuple[str, ...] = ()

    def puzzle(
        self,
        rules: Rules,
        position: Position,
        depth: int,
        tags: tuple[tuple[str, str], ...],
        key: int,
        origin: str,
    ) -> Puzzle | None:
        """The puzzle of --depth ``depth`` at this position, or None: the
        one a search finds (exactly one first choice wins within ``depth``,
        and it is no roll)."""
        if self.winners is None or not self.solution:
            return None
        within = [w for w in self.winners if w[0] <= depth]
        if len(within) != 1 or within[0][1]:
            return None
        line = read_line(rules, position, self.solution)
        if line is None:
            raise NoLine(
                _("{table}.{column} holds {value}").format(
                    table="puzzle_facts",
                    column="solution",
                    value=f"{' '.join(self.solution)[:40]!r} ({origin})",
                )
            )
        found, first = within[0][0], line[0]
        return Puzzle(
            rules.name,
            tags,
            position,
            found,
            line,
            _tempting(rules, position, first),
            key,
            origin,
            facts=Facts(found, self.defences, self.decoys, len(self.solution)),
            motifs=self.motifs,
            near=near_key(position, line, tags),
        )


def study(rules: Rules, solver: Solver, position: Position, depth: int, cube_taken: bool) -> Study:
    """What the index keeps of ``position``, searched within ``depth``."""
    choices = solver.winning_choices(position, depth)
    if choices is None:
        return Study(None)
    winners = tuple((d, is_roll(choice)) for choice, d in choices)
    shortest = [w for w in winners if w[0] == min(d for d, _roll in winners)]
    if len(shortest) != 1 or shortest[0][1]:
        return Study(winners)
    line = solver.winning_line(position, shortest[0][0])
    if line is None:
        return Study(winners)
    counted = facts(rules, position, line, shortest[0][0])
    found = motifs(rules, position, line, cube_taken)
    texts = tuple(str(action) for action in line)
    return Study(winners, texts, counted.defences, counted.decoys, found)


def source_studies(
    source: Source, settings: Settings, wanted: dict[int, tuple[int, ...]]
) -> dict[tuple[int, int], Study]:
    """:func:`study` of the positions ``wanted`` (by game number, then ply)
    of one source, searched within ``settings.depth``; nothing when it
    cannot be read (its analysis says so)."""
    found: dict[tuple[int, int], Study] = {}
    data = readable_data(source)
    if not isinstance(data, bytes):
        return found
    try:
        parsed_games = list(read_archive(data, path=source.path, default_game=settings.game))
    except NotationError:
        return found
    for parsed in parsed_games:
        if parsed.index not in wanted:
            continue
        report = replay_game(parsed)
        if report.game is None:
            continue
        rules = rules_for(report.game)
        solver = Solver(rules, settings.node_limit, settings.time_limit)
        taken = _cube_taken(parsed.record.main) if parsed.record is not None else set()
        for ply in wanted[parsed.index]:
            if ply < len(report.positions) and report.positions[ply].winner is None:
                position = report.positions[ply]
                found[parsed.index, ply] = study(
                    rules, solver, position, settings.depth, ply in taken
                )
    return found


def read_line(rules: Rules, position: Position, texts: Sequence[str]) -> tuple[Action, ...] | None:
    """A solution kept as text, as actions with their marks; None when a
    text is no legal action there or its mark is not the one the rules give."""
    line: list[Action] = []
    for text in texts:
        plain = text.rstrip("^+")
        action = next((a for a in rules.legal_actions(position) if str(a) == plain), None)
        if action is None:
            return None
        played = rules.apply(position, action)
        if plain + played.mark != text:
            return None
        line.append(replace(action, mark=played.mark))
        position = played.position
    return tuple(line)


def _tempting(rules: Rules, position: Position, first: Action) -> int:
    """The other first captures, which do not win."""
    plain = str(replace(first, mark=""))
    return sum(1 for a in rules.legal_actions(position) if _captures(a) and str(a) != plain)


def _puzzle(
    rules: Rules,
    solver: Solver,
    position: Position,
    depth: int,
    tags: tuple[tuple[str, str], ...],
    key: int,
    origin: str,
) -> Puzzle | None:
    answer = solver.solve(position, depth)
    if answer.status != "win" or is_roll(answer.first):
        return None
    winners = solver.winning_choices(position, depth)
    if winners is None or len(winners) != 1:
        return None
    solution = solver.winning_line(position, answer.depth)
    if solution is None:
        return None
    first = solution[0]
    tempting = _tempting(rules, position, first)
    return Puzzle(
        rules.name,
        tags,
        position,
        answer.depth,
        solution,
        tempting,
        key,
        origin,
        facts=facts(rules, position, solution, answer.depth),
        near=near_key(position, solution, tags),
    )


def _credit(tags: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """The players, Event and Year (from Date) of a game, those it names."""
    found = [(k, tags[k]) for k in (*PLAYER_TAGS, "Event") if tags.get(k, "").strip("?")]
    year = tags.get("Date", "")[:4]
    if len(year) == 4 and all("0" <= c <= "9" for c in year):
        found.append(("Year", year))
    return tuple(found)


def _cube_taken(main: Line) -> set[int]:
    """The plies whose action followed a cube offer that was taken: the
    side to move there doubled, and its opponent took."""
    taken: set[int] = set()
    ply, offered = 0, False
    for node in main.nodes:
        item = node.item
        if isinstance(item, CubeOffer):
            offered = True
        elif isinstance(item, CubeAnswer):
            if offered and item.take:
                taken.add(ply)
            offered = False
        else:
            ply += 1
    return taken


def _captures(action: Action) -> bool:
    if isinstance(action, DiceAction):
        return action.kind == "capture"
    return "x" in action.ops
