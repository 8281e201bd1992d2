"""The forced-win solver (engine/solver.py) against plain exhaustive search,
and on positions with known wins in 1, 2 and 3 for each game."""

from __future__ import annotations

import random

import pytest

from hexhop.engine.base import Position, Rules
from hexhop.engine.games import rules_for
from hexhop.engine.generate import random_game
from hexhop.engine.solver import Solver, choice_text, forced_win
from hexhop.notation.model import DiceAction


def exhaustive(rules: Rules, position: Position, depth: int) -> bool:
    """Does the side to move win within ``depth`` own actions? Plain minimax:
    no table, no ordering, no limits; a roll is one decision over all six faces."""
    if position.winner is not None:
        return False
    mover = position.to_move
    decisions: dict[str, list[object]] = {}
    for action in rules.legal_actions(position):
        if isinstance(action, DiceAction) and action.kind == "roll":
            decisions.setdefault(action.origin + "W", []).append(action)
        else:
            decisions[str(action)] = [action]
    for outcomes in decisions.values():
        if all(_outcome_wins(rules, position, a, depth, mover) for a in outcomes):
            return True
    return False


def _outcome_wins(rules: Rules, position: Position, action, depth: int, mover: str) -> bool:
    after = rules.play(position, action).position
    if after.winner is not None or depth == 1:
        return after.winner == mover
    return all(
        exhaustive(rules, rules.play(after, reply).position, depth - 1)
        for reply in rules.legal_actions(after)
    )


def main_line(game: str, seed: int, plies: int) -> list[Position]:
    rules = rules_for(game)
    record = random_game(game, random.Random(seed), max_plies=plies, cube=False)
    position = rules.start({t.name: t.value for t in record.tags}, None)
    positions = [position]
    for node in record.main.nodes:
        position = rules.play(position, node.item).position
        positions.append(position)
    return positions


def _cross_check(game: str, seed: int, plies: int, depths: tuple[int, ...]) -> None:
    rules = rules_for(game)
    solver = Solver(rules)
    for ply, position in enumerate(main_line(game, seed, plies)):
        for depth in depths:
            answer = solver.solve(position, depth)
            assert answer.status != "undecided"
            expected = exhaustive(rules, position, depth)
            assert (answer.status == "win") == expected, (game, seed, ply, depth, position.text())


@pytest.mark.parametrize("game", ["Hexalit", "Trigeo", "Hüpfer"])
def test_solver_agrees_with_exhaustive_search(game: str) -> None:
    """Every position of a random game, depth 1 and 2: the same answer."""
    _cross_check(game, 7, 24, (1, 2))


@pytest.mark.slow
@pytest.mark.parametrize("game", ["Hexalit", "Trigeo", "Hüpfer"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_solver_agrees_with_exhaustive_search_long(game: str, seed: int) -> None:
    _cross_check(game, seed, 80, (1, 2))


# (game, board, position, wins in, a winning first choice)
KNOWN = [
    (
        "Hexalit",
        None,
        "N: A4=5 A5=4 A6=3 A7=1 A8=4 A9=3 A10=5 B4=2 B5=2 B6=2 B7=6 B8=2 B9=2 B10=2 C7=5/2; "
        "S: D7=2 E4=2 E5=2 E6=2 E7=6 E8=6/2 E9=2 E10=2 F4=5 F5=4 F6=3 F7=1 F8=4 F9=3 F10=5; turn: S",
        1,
        "E8°B8",
    ),
    (
        "Hexalit",
        None,
        "N: A4=5 A5=6 A6=3 A7=1 A8=4 A9=3 A10=5 B2=4 B4=2 B5=2 B8=2 B9=2 C6=2 C7=1/2 C10=2; "
        "S: C13=2 D1=2 D7=2 D8=4 E2=4 E5=2 E6=2 E7=6 E8=1 E9=2 E11=2 F4=5 F6=3 F9=3 F10=5; turn: S",
        2,
        "D7°C6",
    ),
    (
        "Hexalit",
        None,
        "N: A3=5 A6=3 A8=4 A9=3 A10=5 B4=2 B6=1 B7=4 B8=2 C5=2 C7=2 C9=2 D9=2; "
        "S: C8=2 D6=2 D12=2 E4=2 E5=2 E7=1 E9=2 E11=5 F5=4 F6=3 F8=4 F9=3; turn: N",
        3,
        "C7°D6",
    ),
    (
        "Trigeo",
        None,
        "N: A4=5 A6=3 A7=1 A8=4 A10=5 B2=4 B5=2 B6=2 B8=2 B9=2 B12=3 C4=2 C7=6 D8=2 D10=2; "
        "S: C9=2 D3=4 D6=2 E4=2 E5=2 E6=2 E7=6 E8=2 E10=2 F3=5 F6=3 F7=1 F8=4 F9=3 F10=5; turn: N",
        1,
        "C7°E7",
    ),
    (
        "Trigeo",
        None,
        "N: A5=4 A7=1 B4=2 B8=4 B10=2 C7=2 C9=2 C10=5 F4=6 F6=6; "
        "S: B3=3 C5=2 D3=5 D8=2 D9=5 E5=2 E8=2 E9=2 E10=2 E12=3 F8=4 F11=1; turn: N",
        2,
        "C10XC11",
    ),
    (
        "Trigeo",
        None,
        "N: A6=3 B5=2 B6=5 B11=3 C3=5 C10=1 D9=2; "
        "S: A8=2 C7=1 C8=2 D3=5 D4=4 D6=2 D10=2 E4=2 E8=2 E11=6 F6=3 F8=4 F11=5; turn: S",
        3,
        "C7XC9",
    ),
    (
        "Hüpfer",
        "6x6",
        "R: a1 c3 d2 e1 e2 f5; T: b4 b5 c4 c6 e4 f3; reserve: 6/6; turn: R",
        1,
        "c3xc5xa5",
    ),
    (
        "Hüpfer",
        "6x6",
        "R: a3 a5 b2 c1 c2 d1 d2 e2; T: b4 c4 c5 d3 d6 f5; reserve: 1/1; turn: R",
        2,
        "d2xd4",
    ),
    (
        "Hüpfer",
        "6x6",
        "R: a1 a3 b2 b4 c1 d2 e1 e2 f5; T: b5 b6 c4 c6 e4 f3; reserve: 6/7; turn: T",
        3,
        "b5xb3xb1xd1xd3",
    ),
]


def _position(game: str, board: str | None, text: str) -> Position:
    tags = {"Board": board} if board else {}
    return rules_for(game).parse_position(text, tags)


@pytest.mark.parametrize(("game", "board", "text", "wins_in", "first"), KNOWN)
def test_known_wins(game: str, board: str | None, text: str, wins_in: int, first: str) -> None:
    rules = rules_for(game)
    position = _position(game, board, text)
    answer = forced_win(rules, position, 3)
    assert (answer.status, answer.depth, choice_text(answer.first)) == ("win", wins_in, first)
    # not faster than that, and the exhaustive search agrees where it is quick
    assert forced_win(rules, position, wins_in - 1).status == "none"
    if wins_in <= 2:
        assert exhaustive(rules, position, wins_in)
        assert not exhaustive(rules, position, wins_in - 1) if wins_in > 1 else True


# North's roll of the 2 on E6 wins at once when it shows 1, and not otherwise
ROLL = (
    "N: A4=6 A6=3 A8=4 A9=3 A10=5 B7=1 B9=2 C4=2 C5=2 C7=2 C8=2 C11=4 E2=5 E6=2 E10=2; "
    "S: B11=2 D4=2 D7=2 E5=2 E7=1 E8=2 E9=2 E11=3 F5=5 F6=3 F8=4 F9=6 F10=5; turn: N"
)


def test_a_win_that_depends_on_the_roll_is_not_forced() -> None:
    rules = rules_for("Hexalit")
    position = _position("Hexalit", None, ROLL)
    faces = {
        face: rules.play(position, DiceAction("E6", "roll", None, face)).position.winner
        for face in range(1, 7)
    }
    assert faces == {1: "North", 2: None, 3: None, 4: None, 5: None, 6: None}
    assert forced_win(rules, position, 1).status == "none"
    assert not exhaustive(rules, position, 1)
    assert (
        Solver(rules).wins_with(
            position, tuple(DiceAction("E6", "roll", None, face) for face in range(1, 7)), 1
        )
        is False
    )


def test_a_limit_answers_undecided() -> None:
    rules = rules_for("Trigeo")
    position = _position("Trigeo", None, KNOWN[5][2])
    answer = forced_win(rules, position, 3, node_limit=50)
    assert answer.status == "undecided"
    assert answer.depth < 3
    assert answer.nodes <= 50
    assert forced_win(rules, position, 3, time_limit=0.0).status == "undecided"


def test_a_position_after_the_end_has_no_win() -> None:
    rules = rules_for("Hüpfer")
    position = _position("Hüpfer", "6x6", KNOWN[6][2])
    action = next(a for a in rules.legal_actions(position) if str(a) == "c3xc5xa5")
    won = rules.play(position, action).position
    assert won.winner == "Red"
    answer = forced_win(rules, won, 2)
    assert answer.status == "none"


def test_the_table_keeps_answers_between_calls() -> None:
    rules = rules_for("Trigeo")
    position = _position("Trigeo", None, KNOWN[4][2])
    solver = Solver(rules)
    first = solver.solve(position, 2)
    again = solver.solve(position, 2)
    assert first.status == again.status == "win"
    assert again.nodes < first.nodes
