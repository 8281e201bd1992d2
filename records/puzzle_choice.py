"""Which puzzles a sheet prints: difficulty, motifs, near-repeats, the choice.

Every fact here is computed on the engine from the puzzle's position and
its solution line (docs/analysis.md, "Choosing puzzles"):

* the **difficulty** facts: the depth, the loser's defences (its legal
  replies, summed over its turns in the solution), the decoys (first
  actions other than the solution that capture, roll or attack a One: they
  look plausible and fail, since the solution is unique) and the length of
  the solution in plies. The order by difficulty compares them in that order.
* the **motifs** (lichess calls them themes): named patterns of the line.
* the **near key**: two puzzles with the same near key are near-repeats.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from hexhop.engine.base import Position, Rules
from hexhop.notation.model import Action, DiceAction, HopAction

#: Cells (Hexalit, Trigeo) or points (Hüpfer) within this many steps of an
#: action's cells are "near" it: the rest of the board may differ in a
#: near-repeat.
NEAR = 2

#: Every motif, in the order a puzzle lists them (docs/analysis.md).
DICE_MOTIFS = ("last-one", "boxed-one", "one-attacks", "quiet", "promotion", "jump-field")
HOP_MOTIFS = ("capture-chain", "birth-blocks", "last-piece", "quiet")
ALL_MOTIFS = tuple(dict.fromkeys(DICE_MOTIFS + HOP_MOTIFS + ("refused-cube",)))

ORDERS = ("difficulty", "source", "random")


@dataclass(frozen=True)
class Facts:
    """What makes a puzzle hard, as :func:`facts` counts it."""

    depth: int
    defences: int
    decoys: int
    length: int

    def tag(self) -> str:
        """The ``Difficulty`` tag: ``depth 2, defences 7, decoys 3, length 3``."""
        return (
            f"depth {self.depth}, defences {self.defences}, "
            f"decoys {self.decoys}, length {self.length}"
        )

    def order(self) -> tuple[int, int, int, int]:
        return (self.depth, self.decoys, self.defences, self.length)


def line_positions(rules: Rules, position: Position, solution: Sequence[Action]) -> list[Position]:
    """The positions of the solution line, the puzzle's first, the final one last."""
    positions = [position]
    for action in solution:
        positions.append(rules.apply(positions[-1], action).position)
    return positions


def facts(rules: Rules, position: Position, solution: Sequence[Action], depth: int) -> Facts:
    """The difficulty facts of a puzzle whose only winning first action is
    ``solution[0]``."""
    positions = line_positions(rules, position, solution)
    # the loser is to move in every other position, from the second on
    defences = sum(len(rules.legal_actions(p)) for p in positions[1:-1:2])
    return Facts(depth, defences, decoys(rules, position, solution[0]), len(solution))


def decoys(rules: Rules, position: Position, first: Action) -> int:
    """The first actions other than ``first`` that look plausible: a
    capture, an attack on a One (marked ``^`` or ``+``) or a roll (one per
    die, whatever its face)."""
    plain = _plain_text(first)
    rolled: set[str] = set()
    count = 0
    for action in rules.legal_actions(position):
        if _plain_text(action) == plain:
            continue
        if isinstance(action, DiceAction) and action.kind == "roll":
            if action.origin not in rolled:
                rolled.add(action.origin)
                count += 1
        elif _captures(action) or rules.apply(position, action).mark:
            count += 1
    return count


def motifs(
    rules: Rules, position: Position, solution: Sequence[Action], cube_taken: bool = False
) -> tuple[str, ...]:
    """The motifs of a puzzle, each computed on the engine from its line;
    ``cube_taken``: in the game, the loser took a cube the winner offered
    right before the puzzle's first action."""
    positions = line_positions(rules, position, solution)
    mine = solution[0::2]  # the winner's actions; the loser's are between them
    found: set[str] = set()
    if not _captures(solution[0]) and not rules.apply(position, solution[0]).mark:
        found.add("quiet")
    if isinstance(solution[0], HopAction):
        found |= _hop_motifs(rules, positions, solution, mine)
    else:
        found |= _dice_motifs(positions, solution, mine)
        if cube_taken:
            found.add("refused-cube")
    return tuple(m for m in ALL_MOTIFS if m in found)


def _dice_motifs(
    positions: Sequence[Position], solution: Sequence[Action], mine: Sequence[Action]
) -> set[str]:
    from hexhop.engine.dice.board import reaches
    from hexhop.engine.dice.geometry import INDEX, JUMP_FIELD_NAMES

    found: set[str] = set()
    loser = positions[1].to_move
    last = positions[-1]
    ones = [d for d in last.dice.values() if d.side == loser and d.face == 1]  # type: ignore[attr-defined]
    found.add("boxed-one" if ones else "last-one")
    if len(mine) > 2 and all(a.mark == "^" for a in mine[:-1]):
        found.add("one-attacks")
    for index in range(0, len(solution), 2):
        action, before = solution[index], positions[index]
        assert isinstance(action, DiceAction)
        if action.promote is not None:
            found.add("promotion")
        jump = action.origin in JUMP_FIELD_NAMES and action.target in JUMP_FIELD_NAMES
        if jump and action.target is not None:
            # die(), not dice: the mapping dice caches cannot be pickled (-j)
            die = before.die(action.origin)  # type: ignore[attr-defined]
            side = 1 if die.side == "North" else 2
            board = before._board  # type: ignore[attr-defined]  # the engine's own cells
            if not reaches(
                board, INDEX[action.origin], INDEX[action.target], side, die.face, False
            ):
                found.add("jump-field")
    return found


def _hop_motifs(
    rules: Rules,
    positions: Sequence[Position],
    solution: Sequence[Action],
    mine: Sequence[Action],
) -> set[str]:
    found: set[str] = set()
    if any(isinstance(a, HopAction) and a.ops.count("x") >= 2 for a in mine):
        found.add("capture-chain")
    loser = positions[1].to_move
    if not any(side == loser for side in positions[-1].pieces.values()):  # type: ignore[attr-defined]
        found.add("last-piece")
    last = solution[-1]
    if isinstance(last, HopAction) and last.birth is not None:
        before = positions[-2]
        for other in rules.legal_actions(before):
            assert isinstance(other, HopAction)
            same_path = other.path == last.path and other.ops == last.ops
            other_birth = same_path and other.birth != last.birth
            if other_birth and rules.apply(before, other).position.winner is None:
                found.add("birth-blocks")
                break
    return found


def near_key(
    position: Position, solution: Sequence[Action], tags: Iterable[tuple[str, str]]
) -> tuple[object, ...]:
    """Puzzles with equal keys are near-repeats: the same game and board,
    the same side to move, the same solution (the same actions, marks
    aside), and the same contents of every cell or point within
    :data:`NEAR` steps of the first action's cells or points (a die's
    side, face and home face; a piece's side)."""
    first = solution[0]
    if isinstance(first, HopAction):
        spots = [*first.path, *([first.birth] if first.birth else [])]
        near = _near_points(spots, position.size)  # type: ignore[attr-defined]
        pieces = position.pieces  # type: ignore[attr-defined]
        contents: tuple[object, ...] = tuple((p, pieces.get(p)) for p in sorted(near))
    else:
        cells = [first.origin] + ([first.target] if first.target else [])
        # die(), not dice: the mapping dice caches in the position cannot be
        # pickled, and puzzles go between processes (-j)
        die = position.die  # type: ignore[attr-defined]
        contents = tuple((c, die(c)) for c in sorted(_near_cells(cells)))
    line = tuple(_plain_text(action) for action in solution)
    return (position.game, tuple(tags), position.to_move, line, contents)


def _near_cells(cells: Sequence[str]) -> set[str]:
    from hexhop.engine.dice.geometry import INDEX, NEIGHBOURS, name

    found = {INDEX[c] for c in cells}
    edge = set(found)
    for _step in range(NEAR):
        edge = {n for c in edge for n in NEIGHBOURS[c]} - found
        found |= edge
    return {name(c) for c in found}


def _near_points(points: Sequence[str], size: int) -> set[str]:
    """The points within :data:`NEAR` steps along the grid's lines."""
    found: set[str] = set()
    for point in points:
        file, rank = ord(point[0]) - ord("a"), int(point[1:])
        for f in range(max(0, file - NEAR), min(size, file + NEAR + 1)):
            for r in range(max(1, rank - NEAR), min(size, rank + NEAR) + 1):
                if abs(f - file) + abs(r - rank) <= NEAR:
                    found.add(f"{chr(ord('a') + f)}{r}")
    return found


def _plain_text(action: Action) -> str:
    return str(action).rstrip("^+")


def _captures(action: Action) -> bool:
    if isinstance(action, DiceAction):
        return action.kind == "capture"
    return "x" in action.ops


@dataclass(frozen=True)
class Choice:
    """What ``puzzles`` keeps and in which order (its options)."""

    limit: int = 0  # 0: all
    per_game: int = 1  # 0: any number
    order: str = "difficulty"
    seed: int = 0
    min_depth: int = 1
    max_depth: int = 4
    motifs: tuple[str, ...] = ()  # every one of them, when given


class Choosable(Protocol):
    """What :func:`choose` reads of a puzzle (:class:`~.puzzles.Puzzle`)."""

    @property
    def depth(self) -> int: ...
    @property
    def origin(self) -> str: ...
    @property
    def source(self) -> tuple[str, int, int] | None: ...
    @property
    def facts(self) -> Facts | None: ...
    @property
    def motifs(self) -> tuple[str, ...]: ...
    @property
    def near(self) -> tuple[object, ...]: ...


P = TypeVar("P", bound=Choosable)


def choose(found: Sequence[P], choice: Choice) -> list[P]:
    """The puzzles of ``found`` (in source order) that ``choice`` keeps, in
    its order: those within the depths and with every motif asked, ordered
    (by difficulty, the source order breaking ties; as found; or shuffled
    by ``seed``), then walked in that order, a puzzle left out when it is a
    near-repeat of one kept or its game has ``per_game`` already, until
    ``limit`` are kept."""
    wanted = [
        p
        for p in found
        if choice.min_depth <= p.depth <= choice.max_depth
        and all(m in p.motifs for m in choice.motifs)
    ]
    if choice.order == "difficulty":
        wanted.sort(key=lambda p: p.facts.order() if p.facts else (p.depth, 0, 0, 0))
    elif choice.order == "random":
        random.Random(choice.seed).shuffle(wanted)
    kept: list[P] = []
    seen: set[tuple[object, ...]] = set()
    per_game: dict[object, int] = {}
    for puzzle in wanted:
        game = puzzle.source[:2] if puzzle.source else puzzle.origin
        near = puzzle.near
        if near in seen or (choice.per_game and per_game.get(game, 0) >= choice.per_game):
            continue
        seen.add(near)
        per_game[game] = per_game.get(game, 0) + 1
        kept.append(puzzle)
        if choice.limit and len(kept) >= choice.limit:
            break
    return kept
