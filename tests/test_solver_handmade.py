"""Hand-made sparse positions with wins in exactly 1, 2 and 3 for each game,
and a Hexalit roll that wins on one face only.

Each position is checked twice: by the plain exhaustive search of
tests/test_solver.py (no table, no ordering, a roll wins only when every
face wins) and by ``forced_win``; both must find the same shortest depth,
and the solver's first choice must be one of the exhaustive search's.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_solver import _outcome_wins, exhaustive

from hexhop.engine.base import Position, Rules
from hexhop.engine.games import rules_for
from hexhop.engine.solver import Solver, choice_text, forced_win
from hexhop.notation.model import Action, DiceAction


def winning_firsts(rules: Rules, position: Position, depth: int) -> set[str]:
    """The first choices that win within ``depth`` by plain minimax, written
    as ``choice_text`` writes them (a roll of the die on B4 is ``B4W``)."""
    decisions: dict[str, list[Action]] = {}
    for action in rules.legal_actions(position):
        if isinstance(action, DiceAction) and action.kind == "roll":
            decisions.setdefault(action.origin + "W", []).append(action)
        else:
            decisions[str(action)] = [action]
    mover = position.to_move
    return {
        text
        for text, outcomes in decisions.items()
        if all(_outcome_wins(rules, position, a, depth, mover) for a in outcomes)
    }


# (game, board, position, wins in exactly, the winning first choices)
HANDMADE = [
    # The 6 on D7 slides down its column over the empty E7 and captures the
    # lone South One on F7: South has no 1 left, North wins at once.
    ("Hexalit", None, "N: A7=1 D7=6; S: F7=1 F3=5; turn: N", 1, {"D7°F7"}),
    # A win in 1 without a capture: the 6 on F7 watches E9 and F8; the North
    # One steps next to the One on F10 (to E9 or E10) and attacks it, and it
    # has no safe cell left: Hexalit.
    ("Hexalit", None, "N: D8=1 F7=6; S: F10=1 A3=3; turn: N", 1, {"D8XE9", "D8XE10"}),
    # No North die attacks the One on F10, and none can take it at once (row
    # F is no straight line for the 6). F8XF7 puts the 6 where its NE line
    # watches E9, and it still guards F8. Whatever South does, the North One
    # steps next to the South One (D8XE9 or D8XE10) or a North die takes it,
    # and the two dice leave it no safe cell: Hexalit. One action cannot both
    # attack it and cover its flights, so no win in 1.
    ("Hexalit", None, "N: D8=1 F8=6; S: F10=1 C3=3; turn: N", 2, {"F8XF7"}),
    # North's own One on E9 stands attacked by the 6 on D9, so the One rule
    # allows only its escapes (four actions), and none of them attacks the
    # South One: no win in 1. E9°D9 takes the 6; now the One on E12 can only
    # go to D13 or E11. After E12XE11 B5XC5^ drives it on (to D12, E12, F9
    # or F10) and the next action mates it, e.g. E11XD12 D9XD11+. A win in 2
    # fails: after E12XE11 no single North action leaves it without a flight.
    (
        "Hexalit",
        None,
        "N: E9=1 F4=5 B5=6 D6=6; S: E12=1 F7=5 D9=6; turn: N",
        3,
        {"E9°D9"},
    ),
    # The win in 2 above with South's 3 turned into a 2, which South may
    # roll. F8XF7 no longer wins in 2: South answers C3W1, and with two Ones
    # South cannot be mated by an attack on one of them (rules.md §5); every
    # other face still loses at once. North needs a third action, e.g.
    # F8XE8 C3W1 D8XD9^ C3XB2 (the rolled 1 moves and turns back to 2, one
    # One again) D9XE9+.
    ("Hexalit", None, "N: D8=1 F8=6; S: F10=1 C3=2; turn: N", 3, {"F8XE8"}),
    # Trigeo, the same first picture: D7°F7 takes the only South One.
    ("Trigeo", None, "N: A7=1 D7=6; S: F7=1 F3=5; turn: N", 1, {"D7°F7"}),
    # The end of the win in 2 below: B8XB10+ puts the North One next to the
    # corner One on A11, attacking it and all its flights; taking it on B10
    # is no escape, the 6 on E10 guards B10 up the column.
    ("Trigeo", None, "N: B8=1 E10=6 F10=3; S: A11=1 B4=6; turn: N", 1, {"B8XB10"}),
    # Nothing attacks the One on A10 yet. B2°E10^ takes the 2 and attacks
    # it up the E10-A10 column; the One rule makes it flee, to A11 or B11
    # (its only safe cells), and B8XB10+ then attacks it with every flight
    # covered. No single action attacks it and covers A11 and B11 at once.
    ("Trigeo", None, "N: B8=1 B2=6 F10=3; S: A10=1 E10=2 B4=6; turn: N", 2, {"B2°E10"}),
    # Two checks herd the One into the corner. C10XD10^: the 2 steps aside
    # and opens the NE line of the 6 on C9 to B12; the One flees to C11, C12
    # or C13. B9XC10^ attacks it again (from C11 only C13 and D13 are safe);
    # after C11XC13, C10XD11+ leaves it no safe cell. Each check leaves it a
    # flight, so North needs all three actions.
    ("Trigeo", None, "N: B9=1 C9=6 C10=2; S: B12=1 E6=3; turn: N", 3, {"C10XD10"}),
    # Red jumps the last Turquoise piece: Turquoise has nothing on the board.
    ("Hüpfer", "6x6", "R: a1; T: a2; reserve: 0/0; turn: R", 1, {"a1xa3"}),
    # A win in 1 that leaves Turquoise a piece: b1-b3 hops over b2 and must
    # capture c3 (b1-b3xd3); a1 has no capture and Turquoise no reserve, so
    # it has no turn.
    ("Hüpfer", "6x6", "R: b1 b2 c1; T: c3 a1; reserve: 0/0; turn: R", 1, {"b1-b3xd3"}),
    # Red cannot capture and has three turns; each leaves Turquoise a turn.
    # d1-b1@b2 hops over c1 and spends Red's last reserve piece on b2;
    # Turquoise (no reserve) must capture, and its only capture is a3xc3.
    # Now b1-b3 hops over b2 and must go on capturing c3 (b1-b3xd3): Turquoise
    # is left with a1, no reserve and no capture, so it has no turn and loses.
    ("Hüpfer", "6x6", "R: b3 d1 c1; T: a3 a1; reserve: 1/0; turn: R", 2, {"d1-b1@b2"}),
    # A race of reserves. Red must capture first (e5xe3 is its only turn, no
    # birth); then neither side can capture, so both can only hop and place
    # a piece, two reserve pieces each. Turquoise places its two, Red answers
    # with its two, and Turquoise, with an empty reserve and no capture, has
    # no turn left. Red needs its capture plus two births: three actions.
    ("Hüpfer", "6x6", "R: e5 e2 c1; T: a2 e4 a3; reserve: 2/2; turn: R", 3, {"e5xe3"}),
]


def _position(rules: Rules, board: str | None, text: str) -> Position:
    return rules.parse_position(text, {"Board": board} if board else {})


# the wins in 3 take the exhaustive search a second or so: the whole suite's
TIERED = [
    pytest.param(*case, marks=pytest.mark.slow) if case[3] == 3 else case for case in HANDMADE
]


@pytest.mark.parametrize(("game", "board", "text", "wins_in", "firsts"), TIERED)
def test_handmade_win(
    game: str, board: str | None, text: str, wins_in: int, firsts: set[str]
) -> None:
    rules = rules_for(game)
    position = _position(rules, board, text)
    # exhaustive search: nothing wins faster, exactly these choices win at wins_in
    for depth in range(1, wins_in):
        assert winning_firsts(rules, position, depth) == set()
        assert not exhaustive(rules, position, depth)
    assert winning_firsts(rules, position, wins_in) == firsts
    assert exhaustive(rules, position, wins_in)
    # the solver: the same depth, a first choice the exhaustive search found
    answer = forced_win(rules, position, 3)
    assert (answer.status, answer.depth) == ("win", wins_in)
    assert choice_text(answer.first) in firsts


# North's 2 on B11, rolled to 1, attacks the South One in the corner A11,
# and the two North Ones cover every cell it could flee to (taking the new
# One on B11 included): Hexalit. On 2, 3 or 4 the One is not attacked; on
# 5 or 6 it is, but A10 stays a safe flight. So the roll is a gamble, not a
# forced win, and neither search counts it (no win within 3 at all).
ROLL = "N: C10=1 B11=2; S: A11=1 D2=3; turn: N"


def test_a_roll_that_wins_on_one_face_is_not_forced() -> None:
    rules = rules_for("Hexalit")
    position = _position(rules, None, ROLL)
    winners = {
        face: rules.play(position, DiceAction("B11", "roll", None, face)).position.winner
        for face in range(1, 7)
    }
    assert winners == {1: "North", 2: None, 3: None, 4: None, 5: None, 6: None}
    for depth in (1, 2, 3):
        assert winning_firsts(rules, position, depth) == set()
        assert forced_win(rules, position, depth).status == "none"


def test_one_face_of_the_defenders_roll_refutes_a_win() -> None:
    """In the win in 2 with South's 2 instead of its 3, F8XF7 is answered by
    South's roll of C3, and exactly the face 1 leaves North no win in 1."""
    rules = rules_for("Hexalit")
    position = _position(rules, None, "N: D8=1 F8=6; S: F10=1 C3=2; turn: N")
    after = next(
        rules.play(position, a).position for a in rules.legal_actions(position) if str(a) == "F8XF7"
    )
    refutations = {
        str(reply)
        for reply in rules.legal_actions(after)
        if not winning_firsts(rules, rules.play(after, reply).position, 1)
    }
    assert refutations == {"C3W1"}
    # the solver sees the same: South is not lost within 1 after F8XF7
    assert Solver(rules).lost(after, 1) is False


def test_the_docs_list_the_handmade_positions() -> None:
    """docs/analysis.md lists exactly these positions, with their depths."""
    docs = (Path(__file__).resolve().parents[1] / "docs" / "analysis.md").read_text("utf-8")
    rows = re.findall(r"^\| (\w+)[^|]* \| (\d|none) \| `([^`]+)` \|", docs, re.MULTILINE)
    expected = [(game, str(wins_in), text) for game, _, text, wins_in, _ in HANDMADE]
    assert sorted(rows) == sorted([*expected, ("Hexalit", "none", ROLL)])
