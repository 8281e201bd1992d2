"""Move counts (perft) of rules.md §7 and seeded random playouts of Hexalit and Trigeo.

The playouts check invariants on every position they pass: every generated
action passes ``check`` and random other actions do not (``in`` agrees with
the generated list), the Position text reads back to an equal position with
the same legal actions, no side has more than 15 dice or no 1 while the game
goes on, and the attacks found by looking outward from a One agree with the
captures the enemy dice can actually make.
"""

from __future__ import annotations

import random

import pytest

from hexhop.engine.dice import rules as dice
from hexhop.engine.dice.geometry import CELLS, INDEX
from hexhop.engine.dice.hexalit import HEXALIT
from hexhop.engine.dice.inplace import has_action
from hexhop.engine.dice.trigeo import TRIGEO
from hexhop.notation.model import DiceAction

RULES = {"Hexalit": HEXALIT, "Trigeo": TRIGEO}

MID_HEXALIT = (
    "N: A4=5 A5=4 A6=3 A7=1 A8=4 A10=5 B4=2 B5=2 B6=2 B7=6 B8=2 B10=2 B12=3 C7=2 "
    "C10=2; S: D6=2 D8=4 D10=2 E3=4 E4=2 E5=2 E7=6 E9=2 E10=2 E11=3 F4=5 F6=3 F7=1 "
    "F9=5; turn: N"
)
MID_TRIGEO = (
    "N: A4=5 A6=3 A7=1 A8=4 B2=4 B5=2 B6=2 B7=6 B9=2 B10=2 B11=5 B12=3 C4=2 C8=2; "
    "S: C7=2 D6=2 D8=2 D11=6 E4=2 E5=2 E9=2 E10=2 E12=3 F4=5 F6=3 F7=1 F8=4 F9=5 "
    "F11=4; turn: S"
)


def perft(rules, position, depth: int) -> int:
    actions = list(rules.legal_actions(position))
    if depth == 1:
        return len(actions)
    return sum(perft(rules, rules.play(position, a).position, depth - 1) for a in actions)


# | position        | depth 1 | depth 2 | depth 3 |
PERFT = [
    ("Hexalit", None, (55, 3028, 168711)),
    ("Trigeo", None, (18, 322, 6829)),
    ("Hexalit", MID_HEXALIT, (59, 4060)),
    ("Trigeo", MID_TRIGEO, (39, 1098)),
]


@pytest.mark.parametrize("game, text, counts", PERFT)
def test_perft(game, text, counts):
    rules = RULES[game]
    start = rules.start({}, None) if text is None else rules.parse_position(text, {})
    assert tuple(perft(rules, start, d) for d in range(1, len(counts) + 1)) == counts


# --- random playouts -----------------------------------------------------------------------


def random_action(rng: random.Random) -> DiceAction:
    origin = rng.choice(CELLS)
    kind = rng.choice(("move", "capture", "roll"))
    if kind == "roll":
        return DiceAction(origin, "roll", None, rng.randint(1, 6))
    return DiceAction(origin, kind, rng.choice(CELLS), None, rng.choice((None, None, 6)))


def attacked_by_generation(board, cell: int, by: int, jump: bool) -> bool:
    """The slow, obvious way: can any die of ``by`` capture on ``cell``?"""
    return any(
        t == cell and capture
        for o, v in enumerate(board)
        if v >> 6 == by
        for t, capture in dice.targets(board, o, by, v & 7, jump)
    )


def check_position(rules, p, rng: random.Random) -> list[DiceAction]:
    actions = list(rules.legal_actions(p))
    texts = {str(a) for a in actions}
    assert len(texts) == len(actions), "an action is generated twice"
    for action in actions:
        assert rules.check(p, action) is None, (p.text(), str(action))
    for _ in range(8):
        wrong = random_action(rng)
        assert (wrong in rules.legal_actions(p)) == (str(wrong) in texts), (p.text(), str(wrong))
    again = rules.parse_position(p.text(), {})
    assert again == p and again.text() == p.text()
    assert {str(a) for a in rules.legal_actions(again)} == texts
    for side in ("North", "South"):
        assert sum(1 for d in p.dice.values() if d.side == side) <= 15
        assert any(d.face == 1 for d in p.dice.values() if d.side == side)
    board, masks, jump = p._board, p._masks, rules.jump_fields
    assert list(masks) == dice.masks_of(board)
    for side in (1, 2):
        for x in dice.ones(masks, side):
            assert board[x] & 7 == 1 and board[x] >> 6 == side
            assert dice.attacked(masks, x, 3 - side, jump) == attacked_by_generation(
                board, x, 3 - side, jump
            )
    if p.forced_escape:
        assert all(p.dice[a.origin].face == 1 for a in actions)
    return actions


def playout(rules, rng: random.Random, max_plies: int) -> int:
    p = rules.start({}, None)
    for _ in range(max_plies):
        if p.winner is not None:
            assert list(rules.legal_actions(p)) == [] and p.end_ply == p.ply
            break
        actions = check_position(rules, p, rng)
        assert actions, "a side without legal action should have lost"
        result = rules.play(p, rng.choice(actions))
        assert result.position.ply == p.ply + 1
        assert result.mark in ("", "^", "+")
        assert (result.mark == "+") <= (result.position.winner == p.to_move)
        p = result.position
    return p.ply


@pytest.mark.slow
@pytest.mark.parametrize("game, seed", [("Hexalit", 1), ("Hexalit", 2), ("Trigeo", 3)])
def test_random_playouts(game, seed):
    rng = random.Random(seed)
    plies = sum(playout(RULES[game], rng, 300) for _ in range(12))
    assert plies > 1000


def test_playouts_end_with_a_winner():
    rng = random.Random(7)
    ends = {"+": 0, "stuck": 0}
    for _ in range(40):
        p = TRIGEO.start({}, None)
        while p.winner is None and p.ply < 400:
            result = TRIGEO.play(p, rng.choice(list(TRIGEO.legal_actions(p))))
            p = result.position
            if p.winner is not None:
                ends["+" if result.mark == "+" else "stuck"] += 1
    assert ends["+"] > 0


def test_index_and_names_agree():
    assert all(INDEX[name] == i for i, name in enumerate(CELLS))


@pytest.mark.parametrize(
    "rules", [pytest.param(HEXALIT, marks=pytest.mark.slow), TRIGEO], ids=lambda r: r.name
)
def test_quick_stuck_test_agrees_with_move_generation(rules):
    """§5.4 is decided from first-step masks; generating every move must agree."""
    rng = random.Random(5)
    for _ in range(60):
        position = rules.start({}, None)
        while position.winner is None and position.ply < 120:
            for side in (1, 2):
                board, masks = position._board, position._masks
                quick = has_action(board, masks, side, (), rules.rolling, rules.jump_fields)
                slow = any(
                    dice.targets(board, o, side, board[o] & 7, rules.jump_fields)
                    for o in dice.cells_of(masks[side << 3])
                )
                rolls = rules.rolling and (
                    masks[(side << 3) + 2] or masks[(side << 3) + 1].bit_count() > 1
                )
                assert quick == bool(slow or rolls), position.text()
            position = rules.play(
                position, rng.choice(list(rules.legal_actions(position)))
            ).position
