"""Hüpfer move counts (rules.md §7) and seeded random playouts.

The counts of rules.md are checked against the generator; the 10x10
counts, which rules.md does not give, are cross-checked against a slow
reference search written here from the rule text alone (coordinates in a
dict, no shared tables). The playouts check that generation and ``check``
agree and that positions keep their invariants.
"""

from __future__ import annotations

import random

import pytest

from hexhop.engine.huepfer.rules import HUEPFER, HuepferPosition
from hexhop.notation.model import HopAction

MIDGAME_8X8 = (
    "R: a2 a4 a5 b1 b3 b5 b6 b7 c2 c3 d1 d3 d7; "
    "T: e3 e4 e6 f1 f4 f7 g1 g2 g3 g5 g8 h2 h6 h7; reserve: 11/12; turn: R"
)


def perft(position: HuepferPosition, depth: int) -> int:
    actions = HUEPFER.legal_actions(position)
    if depth == 1:
        return len(actions)
    return sum(perft(HUEPFER.play(position, a).position, depth - 1) for a in actions)


# -- a reference search, straight from rules.md §6 ---------------------------------------

STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


class Reference:
    """A deliberately plain Hüpfer: ``board`` maps (file, rank) to "R"/"T"."""

    def __init__(self, size: int, board: dict, reserve: dict, turn: str):
        self.size, self.board, self.reserve, self.turn = size, board, reserve, turn

    @classmethod
    def of(cls, position: HuepferPosition) -> Reference:
        board = {(ord(p[0]) - 97, int(p[1:]) - 1): side[0] for p, side in position.pieces.items()}
        reserve = {"R": position.reserve[0], "T": position.reserve[1]}
        return cls(position.size, board, reserve, position.to_move[0])

    def name(self, point) -> str:
        return f"{chr(97 + point[0])}{point[1] + 1}"

    def on(self, point) -> bool:
        return 0 <= point[0] < self.size and 0 <= point[1] < self.size

    def jumps(self, board, at, over_side):
        for df, dr in STEPS:
            over = (at[0] + df, at[1] + dr)
            land = (at[0] + 2 * df, at[1] + 2 * dr)
            if self.on(land) and board.get(over) == over_side and land not in board:
                yield over, land

    def captures(self, board, at, text):
        enemy = "T" if self.turn == "R" else "R"
        found = []
        for over, land in self.jumps(board, at, enemy):
            after = dict(board)
            del after[at], after[over]
            after[land] = self.turn
            found += self.captures(after, land, text + "x" + self.name(land))
        return found or [text]

    def hops(self, board, at, text, visited):
        enemy = "T" if self.turn == "R" else "R"
        found = []
        for _, land in self.jumps(board, at, self.turn):
            if land in visited:
                continue
            after = dict(board)
            del after[at]
            after[land] = self.turn
            step = text + "-" + self.name(land)
            if any(self.jumps(after, land, enemy)):
                found += self.captures(after, land, step)
                continue
            if self.reserve[self.turn] > 0:
                for df, dr in STEPS:
                    near = (land[0] + df, land[1] + dr)
                    if self.on(near) and near not in after:
                        found.append(step + "@" + self.name(near))
            found += self.hops(after, land, step, visited | {land})
        return found

    def turns(self) -> list[str]:
        enemy = "T" if self.turn == "R" else "R"
        mine = [p for p, side in self.board.items() if side == self.turn]
        if any(any(self.jumps(self.board, p, enemy)) for p in mine):
            return [
                t
                for p in mine
                if any(self.jumps(self.board, p, enemy))
                for t in self.captures(self.board, p, self.name(p))
            ]
        return [t for p in mine for t in self.hops(self.board, p, self.name(p), {p})]

    def play(self, text: str) -> Reference:
        text, _, birth = text.partition("@")
        points = text.replace("x", " x ").replace("-", " - ").split()
        board = dict(self.board)
        at = self.point(points[0])
        for op, target in zip(points[1::2], points[2::2], strict=False):
            land = self.point(target)
            del board[at]
            if op == "x":
                del board[((at[0] + land[0]) // 2, (at[1] + land[1]) // 2)]
            board[land] = self.turn
            at = land
        reserve = dict(self.reserve)
        if birth:
            board[self.point(birth)] = self.turn
            reserve[self.turn] -= 1
        return Reference(self.size, board, reserve, "T" if self.turn == "R" else "R")

    @staticmethod
    def point(name: str):
        return ord(name[0]) - 97, int(name[1:]) - 1


def reference_perft(ref: Reference, depth: int) -> int:
    turns = ref.turns()
    if depth == 1:
        return len(turns)
    return sum(reference_perft(ref.play(t), depth - 1) for t in turns)


# -- the counts -------------------------------------------------------------------------


@pytest.mark.parametrize("size, counts", [(6, (10, 100, 1158)), (8, (10, 100, 1180))])
def test_perft_of_the_rules_table(size, counts):
    start = HUEPFER.standard(size)
    assert tuple(perft(start, depth) for depth in (1, 2, 3)) == counts


def test_perft_of_the_8x8_midgame():
    position = HUEPFER.parse_position(MIDGAME_8X8, {"Board": "8x8"})
    assert (perft(position, 1), perft(position, 2)) == (2, 22)
    assert {str(a) for a in HUEPFER.legal_actions(position)} == {"d3xf3xf5xh5", "d3xf3xh3xh1"}


# Counts rules.md does not give: this generator and the reference search agree.
OWN_COUNTS = {
    6: (10, 100, 1158, 12036),
    8: (10, 100, 1180, 13924),
    10: (10, 100, 1180, 13924, 206972),
}


@pytest.mark.parametrize(
    "size", [pytest.param(s, marks=pytest.mark.slow) if s == 10 else s for s in sorted(OWN_COUNTS)]
)
def test_deeper_counts_agree_with_the_reference_search(size):
    start = HUEPFER.standard(size)
    counts = OWN_COUNTS[size]
    assert tuple(perft(start, depth) for depth in range(1, len(counts) + 1)) == counts
    assert reference_perft(Reference.of(start), len(counts)) == counts[-1]


def test_reference_search_reproduces_the_rules_table():
    assert reference_perft(Reference.of(HUEPFER.standard(6)), 3) == 1158
    midgame = HUEPFER.parse_position(MIDGAME_8X8, {"Board": "8x8"})
    assert reference_perft(Reference.of(midgame), 2) == 22


# -- seeded random playouts -----------------------------------------------------------------

TURNS = {6: 1500, 8: 1200, 10: 1200}  # turns played per board size, over many games


def _mutations(action: HopAction, size: int, rng: random.Random) -> list[HopAction]:
    """Near misses of a legal turn: a moved point, a changed operator, a cut path."""
    files = "abcdefghij"[:size]
    out = []
    path = list(action.path)
    i = rng.randrange(len(path))
    path[i] = f"{rng.choice(files)}{rng.randint(1, size)}"
    out.append(HopAction(tuple(path), action.ops, action.birth))
    j = rng.randrange(len(action.ops))
    ops = list(action.ops)
    ops[j] = "x" if ops[j] == "-" else "-"
    out.append(HopAction(action.path, tuple(ops), action.birth))
    if len(action.path) > 2:
        out.append(HopAction(action.path[:-1], action.ops[:-1], action.birth))
    out.append(
        HopAction(
            action.path,
            action.ops,
            None if action.birth else f"{rng.choice(files)}{rng.randint(1, size)}",
        )
    )
    return out


def _totals(position: HuepferPosition) -> dict[str, int]:
    counts = {side: position.reserves[side] for side in HUEPFER.sides}
    for side in position.pieces.values():
        counts[side] += 1
    return counts


@pytest.mark.parametrize(
    "size", [pytest.param(s, marks=pytest.mark.slow) if s > 6 else s for s in sorted(TURNS)]
)
def test_random_playouts(size):
    rng = random.Random(size)
    played = games = 0
    while played < TURNS[size]:
        reserve = rng.choice((None, None, 3, 8))
        tags = {"Board": f"{size}x{size}"}
        if reserve is not None:
            tags["Reserve"] = f"{reserve}/{rng.choice((reserve, reserve + 2))}"
        end = _playout(HUEPFER.start(tags, None), rng)
        played += end.ply
        games += 1
    assert games > 10


def _playout(position: HuepferPosition, rng: random.Random) -> HuepferPosition:
    """Play random turns to the end, checking every turn; the last position."""
    tags = {"Board": f"{position.size}x{position.size}"}
    while position.winner is None:
        assert position.ply < 1000, "the game should have ended"
        actions = list(HUEPFER.legal_actions(position))
        texts = {str(a) for a in actions}
        assert len(texts) == len(actions) and actions
        if position.ply % 8 == 0:
            assert texts == set(Reference.of(position).turns())
        for action in rng.sample(actions, min(4, len(actions))):
            assert HUEPFER.check(position, action) is None
        action = rng.choice(actions)
        for miss in _mutations(action, position.size, rng):
            assert (HUEPFER.check(position, miss) is None) == (str(miss) in texts), str(miss)
        played = HUEPFER.play(position, action).position
        before, after = _totals(position), _totals(played)
        mover, other = position.to_move, played.to_move
        assert after[mover] == before[mover]
        assert after[other] == before[other] - action.ops.count("x")
        assert played.ply == position.ply + 1
        assert HUEPFER.parse_position(played.text(), tags) == played
        position = played
    assert position.end_ply == position.ply
    assert not HUEPFER.legal_actions(position)
    assert position.winner != position.to_move
    return position
