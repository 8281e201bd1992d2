"""Hexalit rules: every rule of rules.md §2, §3, §5 and the fine points of §8.

Positions are written as Position text or drawn as diagrams (``N5`` a North
5, ``s2`` a South 2, ``N4/2`` a rolled die that turns back to 2, ``.`` empty).
"""

from __future__ import annotations

import re

import pytest

from hexhop.engine.base import HeaderError, Illegal
from hexhop.engine.dice.geometry import ROW_SPAN, ROWS
from hexhop.engine.dice.hexalit import HEXALIT as H
from hexhop.notation.model import CubeAnswer, CubeOffer, DiceAction

START = (
    "N: A4=5 A5=4 A6=3 A7=1 A8=4 A9=3 A10=5 B4=2 B5=2 B6=2 B7=6 B8=2 B9=2 B10=2 C7=2; "
    "S: D7=2 E4=2 E5=2 E6=2 E7=6 E8=2 E9=2 E10=2 F4=5 F5=4 F6=3 F7=1 F8=4 F9=3 F10=5; "
    "turn: N"
)


def act(text: str) -> DiceAction:
    """``B6XC6``, ``B6°C7``, ``B5W4`` as action values (a test helper, not the parser)."""
    origin, op, rest, promote = re.fullmatch(
        r"([A-Z]\d+)([X°W])([A-Z]?\d+)(?:=(\d))?", text
    ).groups()
    if op == "W":
        return DiceAction(origin, "roll", None, int(rest))
    return DiceAction(
        origin, "move" if op == "X" else "capture", rest, None, int(promote) if promote else None
    )


def pos(text: str, **tags: str):
    return H.parse_position(text, tags)


def from_diagram(picture: str, turn: str):
    """The position a diagram as ``H.diagram`` draws it shows (only the cell
    tokens count): ``N4/2`` becomes ``C5=4/2`` of the North dice, and so on."""
    dice: dict[str, list[str]] = {"N": [], "S": []}
    for line in picture.splitlines():
        tokens = line.split()
        if not tokens or tokens[0] not in tuple(ROWS):
            continue
        low, high = ROW_SPAN[ROWS.index(tokens[0])]
        assert len(tokens) - 1 == high - low + 1, line
        for column, token in zip(range(low, high + 1), tokens[1:], strict=True):
            if token != ".":
                dice[token[0].upper()].append(f"{tokens[0]}{column}={token[1:]}")
    return pos(f"N: {' '.join(dice['N'])}; S: {' '.join(dice['S'])}; turn: {turn[0]}")


def legal(p) -> set[str]:
    return {str(a) for a in H.legal_actions(p)}


def moves(p) -> set[str]:
    """The legal actions without rolls."""
    return {a for a in legal(p) if "W" not in a}


def of(p, cell: str) -> set[str]:
    return {a for a in moves(p) if a.startswith(cell) and not a[len(cell)].isdigit()}


def play(p, *texts: str):
    for text in texts:
        problem = H.check(p, act(text))
        assert problem is None, f"{text}: {problem}"
        p = H.play(p, act(text)).position
    return p


def reason(p, text: str) -> str:
    problem = H.check(p, act(text))
    assert isinstance(problem, Illegal), f"{text} should be illegal"
    return problem.reason


# --- start, Position text, diagrams --------------------------------------------------

START_DIAGRAM = """\
   1    2    3    4    5    6    7    8    9    10   11   12   13
A            .    N5   N4   N3   N1   N4   N3   N5   .
B       .    .    N2   N2   N2   N6   N2   N2   N2   .    .
C  .    .    .    .    .    .    N2   .    .    .    .    .    .
D  .    .    .    .    .    .    s2   .    .    .    .    .    .
E       .    .    s2   s2   s2   s6   s2   s2   s2   .    .
F            .    s5   s4   s3   s1   s4   s3   s5   .
North to move"""


def test_start_position():
    p = H.start({}, None)
    assert H.diagram(p) == START_DIAGRAM
    assert p.text() == START
    assert p.game == "Hexalit" and p.to_move == "North" and p.first == "North"
    assert p.cube is None and p.winner is None and p.ply == 0 and p.end_ply is None
    assert len(p.dice) == 30 and p.dice["C7"].face == 2 and p.dice["C7"].side == "North"
    assert p.dice["F7"].home is None


def test_start_one_has_no_move_and_is_not_attacked():
    p = H.start({}, None)
    assert of(p, "A7") == set()
    assert not p.forced_escape and not p.one_attacked and p.winner is None


def test_start_actions_exactly():
    p = H.start({}, None)
    assert moves(p) == {
        "A4XA3",
        "A5XB2",
        "A5XB3",
        "A6XC6",
        "A9XB11",
        "A9XB12",
        "A10XA11",
        "B4XC4",
        "B5XC5",
        "B6XC6",
        "B8XC8",
        "B9XC9",
        "B10XC10",
    }
    rolls = legal(p) - moves(p)
    assert rolls == {
        f"{c}W{f}" for c in ("B4", "B5", "B6", "B8", "B9", "B10", "C7") for f in range(1, 7)
    }


def test_position_text_round_trip():
    text = "N: A7=1 B7=6 C5=4/2; S: D6=2 F7=1; turn: S; cube: 4"
    p = pos(text)
    assert p.text() == text
    assert p.dice["C5"].face == 4 and p.dice["C5"].home == 2
    assert p.to_move == "South" and p.cube == 4
    assert pos(p.text()) == p


def test_position_text_is_forgiving_in_spelling():
    p = pos("n: a7=1, b7=6 ; s: F7=1 ; turn: s ; ")
    assert p.text() == "N: A7=1 B7=6; S: F7=1; turn: S"


def test_a_die_rolled_to_its_home_face_is_not_rolled():
    assert pos("N: A7=1 C5=2/2; S: F7=1; turn: N").dice["C5"].home is None


@pytest.mark.parametrize(
    "text, words",
    [
        ("N: A7=1; turn: N", "South dice are missing"),
        ("N: A7=1; S: F7=1; turn: X", "turn must be N or S"),
        ("N: A7=1; S: F7=1; move: N", "expected 'N:', 'S:', 'turn:' or 'cube:'"),
        ("N: A7=1 G1=2; S: F7=1", "G1 is not on the board"),
        ("N: A7=1 A2=2; S: F7=1", "A2 is not on the board"),
        ("N: A7=1 B7; S: F7=1", "'B7' is not a die"),
        ("N: A7=7; S: F7=1", "a die shows 1 to 6"),
        ("N: A7=1 B7=6; S: B7=2 F7=1", "B7 is given twice"),
        ("N: A7=1 C5=4/3; S: F7=1", "turns back to 1 or 2"),
        ("N: A7=1; S: F7=1; cube: 3", "cube must be 2, 4, 8, 16, 32 or 64"),
        ("N: A7=1; N: B7=6; S: F7=1", "'N:' is given twice"),
        (
            "N: " + " ".join(f"C{c}=2" for c in range(1, 14)) + " A7=1 A8=1 A9=1; S: F7=1",
            "North has 16 dice; a side has at most 15",
        ),
    ],
)
def test_bad_position_text(text, words):
    with pytest.raises(HeaderError) as caught:
        pos(text)
    assert caught.value.code == "HD05" and caught.value.tag == "Position"
    assert words in caught.value.params["reason"]


def test_diagram_round_trip():
    picture = """\
   1    2    3    4    5    6    7    8    9    10   11   12   13
A            .    .    .    .    N1   .    .    .    .
B       .    .    .    .    .    N6   .    .    .    .    .
C  .    .    .    .    N4/2 .    .    .    .    .    .    .    .
D  .    .    .    .    .    s2   .    .    .    .    .    .    .
E       .    .    .    .    .    .    .    .    .    .    .
F            .    .    .    .    s1   .    .    .    .
South to move"""
    p = from_diagram(picture, turn="South")
    assert p.text() == "N: A7=1 B7=6 C5=4/2; S: D6=2 F7=1; turn: S"
    assert H.diagram(p) == picture


# --- who moves first (§8.8, §8.15) ---------------------------------------------------


def test_first_tag_and_default():
    assert H.start({"First": "South"}, None).to_move == "South"
    assert H.start({}, act("E6XD6")).to_move == "South"
    assert H.start({}, act("B6XC6")).to_move == "North"
    assert H.start({}, act("C6XD6")).to_move == "North"  # no die there
    assert H.start({}, act("G1XD6")).to_move == "North"
    with pytest.raises(HeaderError) as caught:
        H.start({"First": "East"}, None)
    assert caught.value.code == "HD06" and caught.value.params["value"] == "East"


def test_position_tag_with_first():
    p = H.start({"Position": "N: A7=1 B6=2; S: F7=1 E6=2; turn: S", "First": "North"}, None)
    assert p.to_move == "South" and p.first == "North"
    p = H.start({"Position": "N: A7=1 B6=2; S: F7=1 E6=2"}, act("E6XD6"))
    assert p.to_move == "South" and p.first == "South"


def test_side_to_move_without_action_loses_at_ply_0():
    """§8.10: only §5.4 applies before the first action."""
    p = H.start({"Position": "N: ; S: F7=1 E6=2; turn: N"}, None)
    assert p.winner == "South" and p.end_ply == 0
    assert list(H.legal_actions(p)) == []


def test_lost_looking_start_is_not_lost():
    """§8.10: §5.1 and §5.2 do not apply to the start position."""
    p = H.start({"Position": "N: A3=1 A4=4 A5=4 B2=2 B4=2 B5=2; S: F3=5 F7=1; turn: N"}, None)
    assert p.winner is None and p.one_attacked and not p.forced_escape


# --- how each face moves (§2) ----------------------------------------------------------


def test_one_steps_to_its_twelve_neighbours():
    """D7 points down: five cells of row C touch its base, three of row E its apex."""
    p = pos("N: D7=1; S: F7=1 C7=2; turn: N")
    assert of(p, "D7") == {
        "D7XC5",
        "D7XC6",
        "D7°C7",
        "D7XC8",
        "D7XC9",
        "D7XD5",
        "D7XD6",
        "D7XD8",
        "D7XD9",
        "D7XE6",
        "D7XE7",
        "D7XE8",
    }


def test_two_moves_forward_and_captures_beside():
    p = pos("N: A3=1 B6=2; S: F7=1 C5=2 C7=4; turn: N")
    assert of(p, "B6") == {"B6XC6", "B6°C5", "B6°C7"}
    p = pos("N: A3=1 B6=2; S: F7=1 C6=2; turn: N")
    assert of(p, "B6") == set()  # blocked ahead; nothing beside it


def test_south_two_moves_up():
    p = pos("N: A7=1 D5=4; S: F7=1 E6=2; turn: S")
    assert of(p, "E6") == {"E6XD6", "E6°D5"}


def test_two_at_the_edge_still_captures():
    """§8.1: North 2 on E2 captures on F3; South 2 on C1 on B2."""
    p = pos("N: A7=1 E2=2 B2=4; S: F7=1 F3=5 C1=2; turn: N")
    assert of(p, "E2") == {"E2°F3"}
    p = pos("N: A7=1 E2=2 B2=4; S: F7=1 F3=5 C1=2; turn: S")
    assert of(p, "C1") == {"C1°B2"}


def test_two_on_its_last_row_has_no_move_but_may_roll():
    p = pos("N: A7=1 F5=2; S: F7=1 E4=4 E6=4; turn: N")
    assert of(p, "F5") == set()
    assert {a for a in legal(p) if a.startswith("F5")} == {f"F5W{f}" for f in range(1, 7)}


def test_three_leaps_over_dice():
    """§7: the 3 on A6 goes only to C6 at the start; the 3 on A9 to B11 or B12."""
    p = H.start({}, None)
    assert of(p, "A6") == {"A6XC6"}
    assert of(p, "A9") == {"A9XB11", "A9XB12"}
    p = pos("N: A7=1 A6=3 B6=2; S: F7=1 C6=5; turn: N")
    assert of(p, "A6") == {"A6°C6"}


def test_five_slides_along_side_directions():
    """§7: a 5 on C7 slides S to D7 E7 F7, NE to C8 B10 B11, NW to C6 B4 B3."""
    p = pos("N: A3=1 C7=5; S: F11=1; turn: N")
    assert of(p, "C7") == {
        "C7XD7",
        "C7XE7",
        "C7XF7",
        "C7XC8",
        "C7XB10",
        "C7XB11",
        "C7XC6",
        "C7XB4",
        "C7XB3",
    }


def test_four_slides_along_corner_directions():
    p = pos("N: A3=1 C7=4; S: F11=1; turn: N")
    assert of(p, "C7") == {"C7XB7", "C7XA7", "C7XD9", "C7XD10", "C7XE12", "C7XD5", "C7XD4", "C7XE2"}


def test_six_slides_all_ways_and_stops_at_dice():
    p = pos("N: A3=1 C7=6 E7=2; S: F11=1 D9=2; turn: N")
    assert of(p, "C7") == {
        "C7XD7",
        "C7XC8",
        "C7XB10",
        "C7XB11",
        "C7XC6",
        "C7XB4",
        "C7XB3",
        "C7XB7",
        "C7XA7",
        "C7°D9",
        "C7XD5",
        "C7XD4",
        "C7XE2",
    }


# --- rolling (§3.1, §3.2, §8.6, §8.7) ---------------------------------------------------


def test_only_twos_and_spare_ones_roll():
    p = pos("N: A7=1 B6=2 B7=6 C5=1/2; S: F7=1; turn: N")
    rolled = {a[: a.index("W")] for a in legal(p) if "W" in a}
    assert rolled == {"A7", "B6", "C5"}
    assert "the 6 on B7 cannot be rolled" in reason(p, "B7W3")
    p = pos("N: A7=1 B6=2; S: F7=1; turn: N")
    assert "only die showing 1" in reason(p, "A7W3")


def test_rolled_two_moves_with_its_new_face_and_turns_back():
    p = play(H.start({}, None), "B6W5")
    assert p.dice["B6"] == p.dice["B6"].__class__("North", 5, 2)
    p = play(p, "E6XD6", "B6XC6")  # C6 lies S of up-pointing B6: a side direction
    assert p.dice["C6"].face == 2 and p.dice["C6"].home is None


def test_rolled_die_turns_back_after_the_next_turn():
    p = play(H.start({}, None), "B6W4", "E6XD6")
    assert p.dice["B6"].face == 4
    p = play(p, "B4XC4")
    assert p.dice["B6"].face == 2 and p.dice["B6"].home is None


def test_rolled_again_keeps_its_home_face():
    """Only a die showing 2 or 1 rolls; a rolled 1 rolled again keeps home face 2."""
    p = play(H.start({}, None), "B6W1", "E6XD6", "B6W4")
    assert (p.dice["B6"].face, p.dice["B6"].home) == (4, 2)
    p = play(H.start({}, None), "B6W1", "E6XD6", "B6W2")
    assert p.dice["B6"].home is None  # rolled to its home face: not rolled


def test_rolled_one_may_roll_and_one_may_roll_with_a_spare():
    p = play(H.start({}, None), "B6W1", "E6XD6")
    assert {"A7W3", "B6W3"} <= legal(p)
    p = play(p, "A7W5")  # the original One rolled: home face 1
    assert (p.dice["A7"].face, p.dice["A7"].home) == (5, 1)
    # B6 was due to turn back, but it was North's only 1: it stays an ordinary One
    assert (p.dice["B6"].face, p.dice["B6"].home) == (1, None)


def test_never_without_a_one():
    """§3.2: the only 1 of a side stays 1 and becomes an ordinary One (§8.7)."""
    p = play(H.start({}, None), "B6W1", "E6XD6", "A7W5")
    assert p.dice["B6"] == p.dice["B6"].__class__("North", 1, None)
    p = play(p, "E5XD5", "B4XC4")  # A7 turns back: North now has two ordinary Ones
    assert p.dice["A7"].face == 1 and p.dice["B6"].face == 1
    p = pos("N: A7=5/1 B6=1/2; S: F7=1; turn: N")
    p = play(p, "A7XB7")  # the rolled One moved: back to 1 at B7; B6 has another 1 now
    assert (p.dice["B7"].face, p.dice["B6"].face) == (1, 2)
    p = pos("N: B6=1/2 B4=2; S: F7=1; turn: N")
    p = play(p, "B6XC6")
    assert p.dice["C6"] == p.dice["C6"].__class__("North", 1, None)


def test_turning_back_order():
    """§8.6: dice whose home face is 1 first, then the others in board order."""
    p = play(pos("N: A5=1/2 C5=5/1 B8=2; S: F7=1; turn: N"), "B8XC8")
    assert (p.dice["A5"].face, p.dice["C5"].face) == (2, 1)
    p = play(pos("N: A5=1/2 C5=1/2 B8=2; S: F7=1; turn: N"), "B8XC8")
    assert (p.dice["A5"].face, p.dice["C5"].face) == (2, 1)  # C5 was then the only 1


def test_custom_rolled_die_counts_as_rolled_last_turn():
    p = pos("N: A7=1 C5=4/2 B8=2; S: F7=1 E9=2; turn: S")
    p = play(p, "E9XD9")
    assert p.dice["C5"].face == 4  # South's turn does not touch North's dice
    p = play(p, "B8XC8")
    assert p.dice["C5"].face == 2


def test_forced_escape_keeps_rolled_dice():
    """§3.2: a turn that is a forced escape leaves the side's rolled dice as they are."""
    p = pos("N: C5=1 B4=6/2 A7=4; S: F5=5 F7=1 E9=2; turn: N")
    assert p.forced_escape
    p = play(p, "C5XC3")
    assert p.dice["B4"].face == 6
    p = play(p, "E9XD9", "A7XB9")
    assert p.dice["B4"].face == 2


# --- the One rule (§3.3, §8.3) -------------------------------------------------------------

ATTACKED = "N: C5=1 B4=2 A7=4; S: F5=5 F7=1 E9=2; turn: N"


def test_attacked_one_must_escape_to_safety():
    """The 5 on F5 attacks C5 up the column; B5 and D5 stay on that line."""
    p = pos(ATTACKED)
    assert p.forced_escape
    assert legal(p) == {
        "C5XB6",
        "C5XC3",
        "C5XC4",
        "C5XC6",
        "C5XC7",
        "C5XD3",
        "C5XD4",
        "C5XD6",
        "C5XD7",
    }


def test_one_rule_messages_name_the_escapes():
    p = pos(ATTACKED)
    why = reason(p, "B4XC4")
    assert "North's One on C5 is attacked and can escape" in why
    assert "C5XB6, C5XC3" in why and why.endswith("this die has no legal action")
    why = reason(p, "C5XD5")
    assert why.startswith("D5 is attacked, so the One would not be safe there")
    assert why.endswith(
        "this die can play C5XB6, C5XC3, C5XC4, C5XC6, C5XC7, C5XD3, C5XD4, C5XD6, C5XD7"
    )
    assert "must move it to a cell that is not attacked" in reason(p, "B4W3")


def test_no_safe_move_frees_the_side():
    p = pos("N: A3=1 A4=4 A5=4 B2=2 B4=2 B5=2 C9=1/2; S: F3=5 F7=1; turn: N")
    assert p.one_attacked and not p.forced_escape
    assert "B2XC2" in legal(p) and "A3XB3" in legal(p)


def test_capturing_escape():
    p = pos(
        "N: C5=1 B4=2 B5=2 B6=2 C3=2 C4=2 C6=2 C7=2 D3=2 D4=2 D6=2 A7=4; S: F5=5 F7=1 D7=2; turn: N"
    )
    assert legal(p) == {"C5°D7"}


def test_exposing_a_one_is_allowed_when_not_forced():
    """Decision of §3.3: only the forced escape is compulsory."""
    p = pos("N: C5=1 D5=4 A7=4; S: F5=5 F7=1 E4=1; turn: N")
    assert not p.forced_escape
    assert {"C5XD4", "D5XC7"} <= legal(p)  # D4 is attacked by the 1 on E4
    result = H.play(p, act("D5XC7"))
    assert result.mark == "" and "F5°C5" in legal(result.position)
    result = H.play(result.position, act("F5°C5"))
    assert result.mark == "+" and result.position.winner == "South"


def test_safety_of_a_rolled_one_that_turns_back():
    """§8.3: judged for the new cell, though the die shows 2 there."""
    p = pos("N: C5=1/2 A7=1 A9=3; S: F5=5 F7=1; turn: N")
    assert p.forced_escape and "C5XD5" not in legal(p) and "C5XC4" in legal(p)
    p = play(p, "C5XC4")
    assert p.dice["C4"] == p.dice["C4"].__class__("North", 2, None)


# --- end of the game (§5, §8.4, §8.5, §8.9, §8.14) -------------------------------------------

BOXED = """\
   1    2    3    4    5    6    7    8    9    10   11   12   13
A            N1   N4   N4   .    .    .    .    .    .
B       N2   .    N2   N2   .    .    .    .    .    .    .
C  .    .    .    .    .    .    .    .    .    .    .    .    .
D  .    .    .    .    .    .    .    .    .    .    .    .    .
E       N2   .    .    .    .    .    .    s2   .    .    .
F            .    s5   .    .    s1   .    .    .    .
South to move"""


def test_hexalit_last_one_attacked_without_safe_move():
    """§5.2 and §8.4: F4XF3 attacks A3 up column 3, and its only move B3 is on that line;
    the North 2 on E2 could capture on F3 (§8.1), which does not help."""
    p = from_diagram(BOXED, turn="South")
    result = H.play(p, act("F4XF3"))
    assert (result.mark, result.threatened) == ("+", "North")
    assert result.position.winner == "South" and result.position.end_ply == 1
    assert list(H.legal_actions(result.position)) == []
    assert "the game is over: South won at ply 1" in H.check(result.position, act("E2°F3")).reason


def test_two_ones_are_not_lost_at_once():
    p = from_diagram(
        BOXED.replace("N4   .    .    .    .    .    .\n", "N4   .    .    .    .    .    N1/2\n"),
        turn="South",
    )
    result = H.play(p, act("F4XF3"))
    assert (result.mark, result.position.winner) == ("^", None)
    assert not result.position.forced_escape


def test_threat_is_marked():
    p = pos("N: C5=1 A7=4 B4=2; S: F4=5 F7=1 E9=2; turn: S")
    result = H.play(p, act("F4XF5"))
    assert (result.mark, result.threatened) == ("^", "North")
    assert result.position.forced_escape and result.position.winner is None


def test_threat_that_existed_before_is_marked_again():
    """§8.14: ^ whenever a One of the other side is attacked after the action."""
    result = H.play(pos("N: C5=1 A7=4 B4=2; S: F5=5 F7=1 E9=2; turn: S"), act("E9XD9"))
    assert result.mark == "^"


def test_capturing_the_last_one_wins():
    # apply: what the capture does, in a made-up position where South's One must flee first
    result = H.apply(pos("N: C5=1 A7=4 B4=2; S: D6=1 F7=1; turn: S"), act("D6°C5"))
    assert result.mark == "+" and result.threatened is None
    assert result.position.winner == "South"


def test_showing_one_is_literal():
    """§8.5: a One rolled to 5 is no One; capturing the last die showing 1 wins."""
    p = pos("N: A7=5/1 C5=1/2 B4=2; S: D6=1 F7=1; turn: S")
    result = H.apply(p, act("D6°C5"))
    assert result.mark == "+" and result.position.winner == "South"


def test_play_leaves_the_old_position_alone():
    p = H.start({}, None)
    before = p.text()
    H.play(p, act("B6XC6"))
    assert p.text() == before and p.ply == 0
    with pytest.raises(AttributeError):
        p.to_move = "South"  # type: ignore[misc]


# --- messages for illegal actions (§8.11 and the rest) --------------------------------------


def test_example_message_of_the_brief():
    p = pos("N: A7=1 D7=2; S: E6=2 F7=1; turn: S")
    assert reason(p, "E6°D5") == (
        "the 2 on E6 moves only forward to D6 when it is empty, and captures only on D5 or "
        "D7 when a North die stands there, and D5 is empty; this die can play E6W1, E6W2, "
        "E6W3, E6W4, E6W5, E6W6, E6XD6, E6°D7"
    )


def test_operator_must_fit():
    p = pos("N: A7=1 B6=2; S: F7=1 C7=2; turn: N")
    assert reason(p, "B6XC7").startswith("C7 holds a South die, so this is a capture: write B6°C7")
    assert reason(p, "B6°C6").startswith("C6 is empty, so this is a move: write B6XC6")


@pytest.mark.parametrize(
    "text, start",
    [
        ("C6XD6", "there is no die on C6; North's dice stand on A4"),
        ("E6XD6", "the die on E6 belongs to South, and North is to move"),
        ("B7XC7", "C7 holds a North die, and no die moves onto a cell of its own side"),
        ("A5XB4", "B4 holds a North die"),
        (
            "A5XC5",
            "the 4 on A5 slides along its corner directions (N, SE, SW), and C5 lies S of it",
        ),
        (
            "A5XC6",
            "the 4 on A5 slides along its corner directions (N, SE, SW), and C6 is not on a "
            "straight line from A5",
        ),
        ("B7XD7", "the 6 on B7 slides along all six directions, and C7 blocks the way to D7"),
        ("A4XA2", None),
        (
            "A6XD6",
            "the 3 on A6 leaps to the 1st or 2nd cell along its corner directions (S, NE, NW): B6, C6",
        ),
        ("B6XD6", "the 2 on B6 moves only forward to C6 when it is empty"),
        ("A7XB7", "B7 holds a North die"),
        ("A10W3", "the 5 on A10 cannot be rolled"),
    ],
)
def test_start_messages(text, start):
    p = H.start({}, None)
    problem = H.check(p, act(text))
    assert problem is not None
    if start is None:
        assert problem.code == "IL02" and problem.cell == "A2"
    else:
        assert problem.code == "IL01" and problem.reason.startswith(start), problem.reason


def test_off_board_cells():
    p = H.start({}, None)
    assert H.check(p, act("G1XF3")) == Illegal("IL02", "G1 is not on the board", "G1")
    assert H.check(p, act("B6XC14")).cell == "C14"


def test_every_message_ends_with_the_way_out():
    p = H.start({}, None)
    assert reason(p, "A10XB10").endswith("this die can play A10XA11")
    assert reason(p, "A8XB9").endswith("this die has no legal action")


def test_promotion_is_not_hexalit():
    p = pos("N: A7=1 E6=2; S: F7=1; turn: N")
    assert "there is no promotion in Hexalit" in reason(p, "E6XF6=6")


def test_marks_are_ignored():
    p = H.start({}, None)
    marked = DiceAction("B6", "move", "C6", mark="^")
    assert H.check(p, marked) is None and marked in H.legal_actions(p)


# --- the doubling cube (§3.4, §8.8) ------------------------------------------------------------


def test_cube_offer_take_and_drop():
    p = H.start({}, None)
    assert H.check(p, CubeOffer()) is None and H.check(p, CubeOffer(2)) is None
    offered = H.play(p, CubeOffer(2)).position
    assert offered.offer == 2 and offered.ply == 0 and list(H.legal_actions(offered)) == []
    assert H.check(offered, act("B6XC6")).code == "IL03"
    taken = H.play(offered, CubeAnswer(True)).position
    assert taken.cube == 2 and taken.to_move == "North"
    assert "already doubled this turn" in H.check(taken, CubeOffer()).reason
    p = play(taken, "B6XC6")
    assert p.cube == 2 and p.text().endswith("cube: 2")
    assert H.check(p, CubeOffer(4)) is None
    dropped = H.play(H.play(p, CubeOffer(4)).position, CubeAnswer(False)).position
    assert dropped.winner == "South" and dropped.end_ply == 1 and dropped.cube == 2


@pytest.mark.parametrize(
    "setup, item, words",
    [
        ("", CubeOffer(4), "the cube is unused, so an offer doubles it to 2, not 4"),
        ("B6XC6", CubeOffer(), "the first offer belongs to North, the side that moved first"),
        ("", CubeAnswer(True), "there is no cube offer to answer"),
    ],
)
def test_bad_cube_events(setup, item, words):
    p = H.start({}, None)
    if setup:
        p = play(p, setup)
    problem = H.check(p, item)
    assert problem.code == "IL03" and words in problem.reason


def test_cube_limits():
    p = pos("N: A7=1 B6=2; S: F7=1 E6=2; turn: S; cube: 64")
    assert "highest value" in H.check(p, CubeOffer()).reason
    p = pos("N: A7=1 B6=2; S: F7=1 E6=2; turn: S; cube: 8")
    assert H.check(p, CubeOffer(16)) is None
    assert "doubles it to 16, not 32" in H.check(p, CubeOffer(32)).reason
    offered = H.play(p, CubeOffer()).position
    assert "must first answer" in H.check(offered, CubeOffer()).reason


def test_custom_position_without_first_tag():
    """§8.8: the side to move at a custom position counts as the side that moved first."""
    p = H.start({"Position": "N: A7=1 B6=2; S: F7=1 E6=2; turn: S"}, None)
    assert H.check(p, CubeOffer()) is None
    p = H.start({"Position": "N: A7=1 B6=2; S: F7=1 E6=2; turn: S", "First": "North"}, None)
    assert H.check(p, CubeOffer()).code == "IL03"


def test_no_cube_after_the_end():
    p = H.apply(pos("N: C5=1 A7=4 B4=2; S: D6=1 F7=1; turn: S"), act("D6°C5")).position
    assert H.check(p, CubeOffer()).code == "IL03"


def test_attacks_are_geometry():
    """§8.2: a die attacks whatever its turn; here South's 5 attacks North's One while it is
    North's turn, and North's own 4 on A7 does not shield C5 from below."""
    p = pos("N: C5=1 A7=4 B4=2; S: F5=5 F7=1 E9=2; turn: N")
    assert p.one_attacked
    p = pos("N: C5=1 A7=4 B4=2 D5=2; S: F5=5 F7=1 E9=2; turn: N")
    assert not p.one_attacked  # D5 blocks the column


def test_legal_actions_view_is_lazy():
    view = H.legal_actions(H.start({}, None))
    assert act("B6XC6") in view and act("B6XD6") not in view
    assert view._list is None  # answered by check, nothing generated
    assert len(view) == 55 and bool(view)
    assert view.texts()[:3] == ["A4XA3", "A5XB2", "A5XB3"]


def test_attacked_ones_names_the_threatened_cells():
    position = H.parse_position("N: A7=1 B7=6; S: F7=1 E6=1 E5=2; turn: S", {})
    # the 6 on B7 slides south through C7, D7, E7 onto F7; E6 is out of its lines
    assert H.attacked_ones(position) == ["F7"]
