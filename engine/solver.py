"""Short forced wins: does the side to move win within N of its own actions?

"Wins within N" means: there is a first *choice* of the side to move such
that, whatever the opponent answers, it wins on the board by its N-th own
action at the latest. A choice is one action, or in Hexalit the decision to
roll a die: the face is chance, so a roll is a winning choice only when
every face (1 to 6) leads to a win. The opponent's rolls need no special
care: a win must hold against each of its actions, every face included.
The doubling cube is left out of the search (nobody offers or drops).

The search is exact: an AND-OR search with iterative deepening (the
shortest win is found first), a transposition table keyed by the Zobrist
key of :mod:`.zobrist` (a win proven within d holds within every larger
d; a refutation at d holds at every smaller d), and captures tried first.
It stops at a node or time limit and then answers "undecided" instead of
guessing.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal

from hexhop.notation.errors import Error
from hexhop.notation.model import Action, DiceAction, HopAction

from .base import Board, Position, Rules
from .deadline import checkpoint

#: One decision of the side to move: a single action, or the six faces of a roll.
Choice = tuple[Action, ...]

Status = Literal["win", "none", "undecided"]

Move = object  # a move of the board (a small tuple of its own)
Moves = tuple[Move, ...]

NODE_LIMIT = 200_000
TIME_LIMIT = 10.0
_NEVER = 1 << 30  # "no win proven yet" in the table


@dataclass(frozen=True)
class Solution:
    """What the search found for one position.

    ``status`` is ``win`` (``depth`` is the smallest number of own actions
    that wins, ``first`` a first choice that does it), ``none`` (no win
    within the depth asked) or ``undecided`` (a limit was hit; no win within
    ``depth``, the depth searched completely, which may be 0). ``nodes``
    counts the actions played.
    """

    status: Status
    depth: int
    first: Choice = ()
    nodes: int = 0
    seconds: float = 0.0


class OutOfBudget(Error):
    """The node or time limit was reached."""


def choice_text(choice: Choice) -> str:
    """``B6°C7``, or ``B4W`` for a roll of the die on B4 (any face)."""
    first = choice[0]
    if isinstance(first, DiceAction) and first.kind == "roll":
        return f"{first.origin}W"
    return str(first)


def is_roll(choice: Choice) -> bool:
    first = choice[0]
    return isinstance(first, DiceAction) and first.kind == "roll"


def in_choice(action: Action, choice: Choice) -> bool:
    """Whether playing ``action`` is making ``choice`` (a roll: any face)."""
    plain = _plain(action)
    return any(_plain(a) == plain for a in choice)


def _plain(action: Action) -> Action:
    if isinstance(action, DiceAction) and action.mark:
        return DiceAction(action.origin, action.kind, action.target, action.face, action.promote)
    if isinstance(action, HopAction) and action.mark:
        return HopAction(action.path, action.ops, action.birth)
    return action


def _captures(action: Action) -> bool:
    if isinstance(action, DiceAction):
        return action.kind == "capture"
    return "x" in action.ops


def _ordered(actions: Iterable[Action]) -> list[Action]:
    """Captures first: they win or refute most often."""
    found = list(actions)
    return [a for a in found if _captures(a)] + [a for a in found if not _captures(a)]


def choices(rules: Rules, position: Position) -> list[Choice]:
    """The choices of the side to move: captures, other actions, then rolls
    (one choice per rolled die, holding every face)."""
    single: list[Action] = []
    rolls: dict[str, list[Action]] = {}
    for action in rules.legal_actions(position):
        if isinstance(action, DiceAction) and action.kind == "roll":
            rolls.setdefault(action.origin, []).append(action)
        else:
            single.append(action)
    return [(a,) for a in _ordered(single)] + [tuple(faces) for faces in rolls.values()]


class Solver:
    """A search with its own transposition table, kept between calls (the
    positions of one game share most of their subtrees).

    ``node_limit`` and ``time_limit`` (seconds) apply to each call. The
    search plays its moves on one board changed in place
    (``rules.board``); the table is keyed by the board's
    Zobrist key, updated with every push and pop.
    """

    def __init__(self, rules: Rules, node_limit: int = NODE_LIMIT, time_limit: float = TIME_LIMIT):
        self.rules = rules
        self.node_limit = node_limit
        self.time_limit = time_limit
        # key -> (smallest depth proven to win, largest depth proven not to)
        self._attack: dict[int, tuple[int, int]] = {}
        # key -> (smallest depth proven lost, largest depth proven not lost)
        self._defend: dict[int, tuple[int, int]] = {}
        self.nodes = 0  # actions played by the last call
        self._budget = 0
        self._deadline = 0.0

    # -- public calls ------------------------------------------------------------

    def solve(self, position: Position, depth: int) -> Solution:
        """The shortest forced win of the side to move within ``depth``."""
        started = self._start()
        board = self.rules.board(position)
        done = 0
        try:
            if not board.winner:
                for d in range(1, depth + 1):
                    first = self._first_win(board, d)
                    if first is not None:
                        return self._answer("win", d, started, _actions(board, first))
                    done = d
        except OutOfBudget:
            return self._answer("undecided", done, started)
        return self._answer("none", depth, started)

    def wins_with(self, position: Position, choice: Choice, depth: int) -> bool | None:
        """Whether ``choice`` wins within ``depth``; None when undecided."""
        self._start()
        board = self.rules.board(position)
        moves = tuple(board.move_of(a) for a in choice)
        try:
            return self._choice_wins(board, moves, depth, board.mover)
        except OutOfBudget:
            return None

    def winning_choices(self, position: Position, depth: int) -> list[tuple[Choice, int]] | None:
        """Every first choice that wins within ``depth``, with the fewest own
        actions it needs; None when undecided."""
        self._start()
        board = self.rules.board(position)
        mover = board.mover
        found: list[tuple[Choice, int]] = []
        try:
            for choice in board.choices():
                for d in range(1, depth + 1):
                    if self._choice_wins(board, choice, d, mover):
                        found.append((_actions(board, choice), d))
                        break
        except OutOfBudget:
            return None
        return found

    def lost(self, position: Position, depth: int) -> bool | None:
        """Whether the side to move loses whatever it does (and however its
        dice fall): the opponent then wins within ``depth`` own actions.
        None when undecided."""
        self._start()
        board = self.rules.board(position)
        try:
            return not board.winner and self._lost(board, depth)
        except OutOfBudget:
            return None

    def winning_line(self, position: Position, depth: int) -> tuple[Action, ...] | None:
        """A winning line within ``depth``, with the marks the rules require:
        the shortest win against the reply that holds out longest, to the
        end. None when there is none, when it needs a roll (its face cannot
        be written in advance) or when a search is undecided."""
        answer = self.solve(position, depth)
        if answer.status != "win" or is_roll(answer.first):
            return None
        action = answer.first[0]
        played = self.rules.apply(position, action)
        line: tuple[Action, ...] = (replace(action, mark=played.mark),)
        after = played.position
        if after.winner is not None:
            return line
        longest: tuple[int, Action, Position] | None = None
        for reply in self.rules.legal_actions(after):
            then = self.rules.apply(after, reply)
            found = self.solve(then.position, answer.depth - 1)
            if then.position.winner is not None or found.status != "win":
                return None
            if longest is None or found.depth > longest[0]:
                longest = (found.depth, replace(reply, mark=then.mark), then.position)
        if longest is None:
            return None
        rest = self.winning_line(longest[2], longest[0])
        return None if rest is None else (*line, longest[1], *rest)

    # -- the search -----------------------------------------------------------

    def _start(self) -> float:
        self.nodes = 0
        self._budget = self.node_limit
        started = time.perf_counter()
        self._deadline = started + self.time_limit
        return started

    def _answer(self, status: Status, depth: int, started: float, first: Choice = ()) -> Solution:
        return Solution(status, depth, first, self.nodes, time.perf_counter() - started)

    def _play(self, board: Board, move: Move) -> None:
        self._count()
        board.push(move)

    def _count(self) -> None:
        """One more action played (or tried for a win at once); the limits."""
        self.nodes += 1
        if self.nodes >= self._budget:
            raise OutOfBudget()
        if not self.nodes & 255:
            if time.perf_counter() > self._deadline:
                raise OutOfBudget()
            checkpoint()  # the deadline of the work the search is part of, if any

    def _first_win(self, board: Board, depth: int) -> Moves | None:
        mover = board.mover
        if depth == 1:
            return self._first_win_at_once(board, mover)
        for choice in board.choices():
            if self._choice_wins(board, choice, depth, mover):
                _note(self._attack, board.key, depth, True)
                return choice
        _note(self._attack, board.key, depth, False)
        return None

    def _wins(self, board: Board, depth: int) -> bool:
        """The side to move (the game going on) wins within ``depth``."""
        key = board.key
        known = self._attack.get(key)
        if known is not None:
            if known[0] <= depth:
                return True
            if known[1] >= depth:
                return False
        mover = board.mover
        if depth == 1:
            won = self._wins_at_once(board, mover)
        elif self._wins(board, 1):  # a win at once is cheap to find: first
            won = True
        else:
            won = False
            for choice in board.choices():
                if self._choice_wins(board, choice, depth, mover):
                    won = True
                    break
        _note(self._attack, key, depth, won)
        return won

    def _first_win_at_once(self, board: Board, mover: int) -> Moves | None:
        """The first choice (in the order of ``choices``) that wins with its
        very action: only the candidates are played."""
        candidates = board.win_candidates()
        if candidates is None:
            candidates = board.choices()
        winners = {choice for choice in candidates if self._wins_outright(board, choice)}
        if winners:
            for choice in board.choices():
                if choice in winners:
                    _note(self._attack, board.key, 1, True)
                    return choice
        _note(self._attack, board.key, 1, False)
        return None

    def _wins_at_once(self, board: Board, mover: int) -> bool:
        """Some choice wins with its very action (every face of a roll)."""
        candidates = board.win_candidates()
        if candidates is None:
            return True
        return any(self._wins_outright(board, choice) for choice in candidates)

    def _wins_outright(self, board: Board, choice: Moves) -> bool:
        """Each outcome of ``choice`` wins with its very action (counted as tried)."""
        for move in choice:
            self._count()
            if not board.wins_by(move):
                return False
        return True

    def _choice_wins(self, board: Board, choice: Moves, depth: int, mover: int) -> bool:
        """Every outcome of ``choice`` wins at once or leaves the opponent lost."""
        for move in choice:
            self._play(board, move)
            winner = board.winner
            if winner == mover:
                board.pop()
                continue
            if winner or depth == 1:
                board.pop()
                return False
            held = not self._lost(board, depth - 1)
            board.pop()
            if held:
                return False
        return True

    def _lost(self, board: Board, depth: int) -> bool:
        """Every action of the side to move leaves the opponent winning within ``depth``."""
        key = board.key
        known = self._defend.get(key)
        if known is not None:
            if known[0] <= depth:
                return True
            if known[1] >= depth:
                return False
        lost = True
        for move in board.replies():
            self._play(board, move)
            held = board.winner or not self._wins(board, depth)
            board.pop()
            if held:
                lost = False
                break
        _note(self._defend, key, depth, lost)
        return lost


def _actions(board: Board, moves: Moves) -> Choice:
    return tuple(board.action(m) for m in moves)


def _note(table: dict[int, tuple[int, int]], key: int, depth: int, proven: bool) -> None:
    low, high = table.get(key, (_NEVER, 0))
    table[key] = (min(low, depth), high) if proven else (low, max(high, depth))


def forced_win(
    rules: Rules,
    position: Position,
    depth: int,
    node_limit: int = NODE_LIMIT,
    time_limit: float = TIME_LIMIT,
) -> Solution:
    """Whether the side to move wins within ``depth`` of its own actions
    whatever the opponent does (see the module text)."""
    return Solver(rules, node_limit, time_limit).solve(position, depth)
