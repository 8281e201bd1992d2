"""Trigeo rules (rules.md §4): no rolling, no cube, promotion, jump fields."""

from __future__ import annotations

import re

import pytest

from hexhop.engine.base import HeaderError
from hexhop.engine.dice.trigeo import TRIGEO as T
from hexhop.notation.model import CubeAnswer, CubeOffer, DiceAction


def act(text: str) -> DiceAction:
    """``E6XF6=6``, ``C7°D7``, ``B6W4`` as action values (a test helper, not the parser)."""
    origin, op, rest, promote = re.fullmatch(
        r"([A-Z]\d+)([X°W])([A-Z]?\d+)(?:=(\d))?", text
    ).groups()
    if op == "W":
        return DiceAction(origin, "roll", None, int(rest))
    return DiceAction(
        origin, "move" if op == "X" else "capture", rest, None, int(promote) if promote else None
    )


def pos(text: str):
    return T.parse_position(text, {})


def legal(p) -> set[str]:
    return {str(a) for a in T.legal_actions(p)}


def of(p, cell: str) -> set[str]:
    return {a for a in legal(p) if a.startswith(cell) and not a[len(cell)].isdigit()}


def reason(p, text: str) -> str:
    problem = T.check(p, act(text))
    assert problem is not None, f"{text} should be illegal"
    return problem.reason


def test_start_actions_exactly():
    """Hexalit's 13 moves, no rolls, and the 2 on the jump field C7 may leap."""
    p = T.start({}, None)
    assert p.game == "Trigeo"
    assert legal(p) == {
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
        "C7XC6",
        "C7XC8",
        "C7XD6",
        "C7XD8",
        "C7°D7",
    }


def test_no_rolling_and_no_cube():
    p = T.start({}, None)
    assert reason(p, "B6W4").startswith("dice are never rolled in Trigeo; this die can play B6XC6")
    assert T.check(p, CubeOffer()).code == "IL03"
    assert "no doubling cube in Trigeo" in T.check(p, CubeAnswer(True)).reason


@pytest.mark.parametrize(
    "text, words",
    [
        ("N: A7=1 C5=4/2; S: F7=1; turn: N", "dice are never rolled in Trigeo"),
        ("N: A7=1; S: F7=1; turn: N; cube: 2", "there is no doubling cube in Trigeo"),
    ],
)
def test_header_errors(text, words):
    with pytest.raises(HeaderError) as caught:
        pos(text)
    assert caught.value.code == "HD05" and words in caught.value.params["reason"]


# --- promotion (§4, §8.12) ------------------------------------------------------------------


def test_promotion_is_a_second_action():
    p = pos("N: A3=1 E6=2; S: F11=1 F5=4; turn: N")
    assert of(p, "E6") == {"E6XF6", "E6XF6=6", "E6°F5", "E6°F5=6"}
    after = T.play(p, act("E6XF6=6")).position
    assert after.dice["F6"].face == 6
    assert T.play(p, act("E6XF6")).position.dice["F6"].face == 2


def test_south_promotes_on_row_a():
    p = pos("N: A3=1 A6=4; S: F11=1 B7=2; turn: S")
    assert of(p, "B7") == {"B7XA7", "B7XA7=6", "B7°A6", "B7°A6=6"}


def test_promotion_misuse():
    p = pos("N: A3=1 D5=2 E6=2 E7=5; S: F11=1; turn: N")
    assert "only in the move that reaches its last row (row F), and E5 is not on it" in reason(
        p, "D5XE5=6"
    )
    assert "may only become a 6, not a 5" in reason(p, "E6XF6=5")
    assert "only a 2 may be turned into a 6, and the die on E7 shows 5" in reason(p, "E7XF7=6")
    assert reason(p, "E6XF6=5").endswith("this die can play E6XF6, E6XF6=6")


def test_two_on_its_last_row_stays():
    p = T.play(pos("N: A3=1 E6=2; S: F11=1; turn: N"), act("E6XF6")).position
    p = T.play(p, act("F11XF10")).position
    assert of(p, "F6") == set()


# --- jump fields (§4) ---------------------------------------------------------------------------


def test_jump_field_leap_adds_to_the_normal_moves():
    """A 3 on C6 (down) leaps S to D6, E6; NE to B8, B9; NW to B4, B3; and jumps to the
    other jump fields (D6 only once)."""
    p = pos("N: A3=1 C6=3; S: F11=1 D8=5; turn: N")
    assert of(p, "C6") == {
        "C6XD6",
        "C6XE6",
        "C6XB8",
        "C6XB9",
        "C6XB4",
        "C6XB3",
        "C6XC7",
        "C6XC8",
        "C6XD7",
        "C6°D8",
    }


def test_jump_field_leap_attacks():
    """The 5 on D8 attacks C6 only through the jump fields; after the One leaves, the 5 still
    reaches C7 C8 D6 D7 (jump) and D7 C5 C4 B2 (its NW line)."""
    p = pos("N: C6=1 A3=4; S: F11=1 D8=5; turn: N")
    assert p.forced_escape
    assert legal(p) == {"C6XB4", "C6XB5", "C6XB6", "C6XB7", "C6XB8", "C6XD5", "C6°D8"}
    assert "the 1 on C6 steps only to a neighbouring cell" in reason(p, "C6XE6")
    assert "from its jump field it may also leap to C7, C8, D6, D7, D8" in reason(p, "C6XE6")


def test_leap_is_not_for_dice_off_the_jump_fields():
    p = pos("N: A3=1 B6=2; S: F11=1; turn: N")
    assert of(p, "B6") == {"B6XC6"}


# --- end of the game -------------------------------------------------------------------------


def test_trigeo_win():
    p = pos("N: A3=1 A4=4 A5=4 B2=2 B4=2 B5=2 E2=2; S: F4=5 F7=1 E9=2; turn: S")
    result = T.play(p, act("F4XF3"))
    assert result.mark == "+" and result.position.winner == "South"


def test_stuck_side_loses_at_once():
    """§5.4, §8.9: North's last mobile die is captured; the rest are 2s blocked by their own
    dice and the board edge. No '+' (North's One is not attacked)."""
    p = pos("N: F3=1 F4=2 F5=2 F6=2 E2=2 E3=2 E4=2 E5=2 D10=2; S: A11=1 B10=6; turn: S")
    result = T.play(p, act("B10°D10"))
    assert result.mark == "" and result.position.winner == "South"
    assert result.position.end_ply == 1
    assert list(T.legal_actions(result.position)) == []


def test_stuck_at_the_start():
    p = T.start(
        {"Position": "N: F3=1 F4=2 F5=2 F6=2 E2=2 E3=2 E4=2 E5=2; S: A11=1 B10=6; turn: N"}, None
    )
    assert p.winner == "South" and p.end_ply == 0


def test_rules_object():
    assert T.name == "Trigeo" and T.sides == ("North", "South")
    assert isinstance(next(iter(T.legal_actions(T.start({}, None)))), DiceAction)
