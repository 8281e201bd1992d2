"""Hand-made sparse positions with wins in exactly 1, 2 and 3 for each game,
and a Hexalit roll that wins on one face only (issue 16, item 1).

Each position is checked twice: by the plain exhaustive search of
tests/test_solver.py (no table, no ordering, a roll wins only when every
face wins) and by ``forced_win``; both must find the same shortest depth,
and the solver's first choice must be one of the exhaustive search's.
"""

from __future__ import annotations

import pytest
from test_solver import _outcome_wins, exhaustive

from hexhop.engine.base import Position, Rules
from hexhop.engine.games import rules_for
from hexhop.engine.solver import choice_text, forced_win
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
    # Nothing of North reaches F10 now. F8XF7 puts the 6 on F7, from where it
    # guards F8 and E9/E10 across the corner; whatever South does (the 3 on C3
    # wanders, or the One steps), the North One then steps next to the South
    # One (D8XE9, or captures it) and the One has no safe flight: Hexalit.
    ("Hexalit", None, "N: D8=1 F8=6; S: F10=1 C3=3; turn: N", 2, {"F8XF7"}),
    # North's One on E9 is attacked by the 6 on D9 and must escape (only
    # four actions). E9°D9 escapes by capturing that 6; then the South One on
    # E12 is cornered: after most replies one of North's dice takes it or
    # mates at once, and after E12XE11 B5XC5^ drives it on and D9XD11+ ends
    # it. No North action attacks the One with no flight before that.
    (
        "Hexalit",
        None,
        "N: E9=1 F4=5 B5=6 D6=6; S: E12=1 F7=5 D9=6; turn: N",
        3,
        {"E9°D9"},
    ),
    # Trigeo, the same first picture: D7°F7 takes the only South One.
    ("Trigeo", None, "N: A7=1 D7=6; S: F7=1 F3=5; turn: N", 1, {"D7°F7"}),
    # B2°E10^ takes the 2 and attacks the One on A10 from E10 (the 6 slides
    # up the column). The One must flee (to A11, its only safe cell), and
    # the North One follows with B8XB10+: the corner One has no safe cell.
    # The One is not attacked at the start, so no win in 1.
    ("Trigeo", None, "N: B8=1 B2=6 F10=3; S: A10=1 E10=2 B4=6; turn: N", 2, {"B2°E10"}),
    # North herds the South One into the right-hand corner with two checks:
    # C10XD10^ (the 6 on C9 now attacks B12 through the freed line), the One
    # must go to C11; B9XC10^ attacks it again, it must go to C13; C10XD11+
    # and it has no safe cell left. Each check leaves it one flight, so it
    # takes three North actions.
    ("Trigeo", None, "N: B9=1 C9=6 C10=2; S: B12=1 E6=3; turn: N", 3, {"C10XD10"}),
    # Red jumps the last Turquoise piece: Turquoise has nothing on the board.
    ("Hüpfer", "6x6", "R: a1; T: a2; reserve: 0/0; turn: R", 1, {"a1xa3"}),
    # Red cannot capture yet. d1-b1@b2 hops over c1 and spends Red's last
    # reserve piece on b2; Turquoise (no reserve) must capture, and its only
    # capture is a3xc3. Now b1-b3 hops over b2 and must go on capturing c3
    # (b3xd3): Turquoise is left with a1, no reserve and no capture, so it
    # has no turn and loses. Every other Red turn leaves Turquoise a turn.
    ("Hüpfer", "6x6", "R: b3 d1 c1; T: a3 a1; reserve: 1/0; turn: R", 2, {"d1-b1@b2"}),
    # A race of reserves. Red must capture first (e5xe3, no birth); then
    # both sides can only hop and place a piece, two reserve pieces each.
    # Turquoise places its two, Red answers with its two, and Turquoise,
    # with an empty reserve and no capture, has no turn left. Red needs its
    # capture plus two births: three actions, never fewer.
    ("Hüpfer", "6x6", "R: e5 e2 c1; T: a2 e4 a3; reserve: 2/2; turn: R", 3, {"e5xe3"}),
]


def _position(rules: Rules, board: str | None, text: str) -> Position:
    return rules.parse_position(text, {"Board": board} if board else {})


@pytest.mark.parametrize(("game", "board", "text", "wins_in", "firsts"), HANDMADE)
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
# and the two North Ones cover every cell it could flee to: Hexalit. Any
# other face leaves the One alone, so the roll is a gamble, not a win.
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
