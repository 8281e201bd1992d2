"""Every public call that takes an action takes its
text too, and refuses a wrong one with IllegalAction, never AssertionError;
``in`` on the rules' legal actions answers for text as for values."""

from __future__ import annotations

import pytest

import hexhop
from hexhop.notation import CubeAnswer, CubeOffer, DiceAction, HopAction

START = "N: A7=1 C7=2; S: F7=1 D6=2; turn: N"
LEGAL = {
    *(f"A7X{cell}" for cell in ("A5", "A6", "A8", "A9", "B5", "B6", "B7", "B8", "B9")),
    *(f"C7W{face}" for face in range(1, 7)),
    "C7XD7",
    "C7°D6",
}


@pytest.fixture
def p() -> hexhop.Position:
    return hexhop.position("Hexalit", START)


def test_the_legal_actions_as_text_and_as_values(p: hexhop.Position) -> None:
    rules = hexhop.rules_for("Hexalit")
    assert set(hexhop.legal_actions(p)) == LEGAL
    view = rules.legal_actions(p)
    assert {str(action) for action in view} == LEGAL and len(view) == len(LEGAL)
    assert all(isinstance(action, DiceAction) for action in view)
    for text in LEGAL:
        assert text in view  # text, read with the game's notation
        assert hexhop.parse_action(text, "Hexalit") in view
    for text in ("C7XD6", "C7°D7", "Z9W1", "a1-c1@d1", "zz", "", "C7W1 C7W2", "double"):
        assert text not in view
    assert CubeOffer() not in view and 7 not in view


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (DiceAction("C7", "move", "D6"), "IL01"),  # D6 holds a South die: a capture
        (DiceAction("C7", "capture", "D7"), "IL01"),  # D7 is empty
        (DiceAction("D6", "roll", face=3), "IL01"),  # South's die, North to move
        (DiceAction("Z9", "roll", face=3), "IL02"),  # off the board
        (DiceAction("C7", "move", "Z9"), "IL02"),
        (CubeAnswer(take=True), "IL03"),  # no offer to answer
    ],
)
def test_an_illegal_action_value_is_refused_and_not_played(
    p: hexhop.Position, action: object, code: str
) -> None:
    """Hexalit and Trigeo played an action value as given before: a move
    onto a South die took it, a roll of South's die turned it."""
    rules = hexhop.rules_for("Hexalit")
    with pytest.raises(hexhop.IllegalAction) as caught:
        rules.play(p, action)
    assert caught.value.action is action and caught.value.code == code
    assert caught.value.illegal == rules.check(p, action)
    assert p.text() == "N: A7=1 C7=2; S: D6=2 F7=1; turn: N"  # untouched


def test_trigeo_refuses_an_illegal_action_value() -> None:
    rules = hexhop.rules_for("Trigeo")
    p = hexhop.position("Trigeo", START)
    with pytest.raises(hexhop.IllegalAction) as caught:
        rules.play(p, DiceAction("C7", "roll", face=1))
    assert caught.value.code == "IL01" and "never rolled in Trigeo" in caught.value.reason


def test_huepfer_refuses_an_illegal_turn_value() -> None:
    rules = hexhop.rules_for("Hüpfer")
    start = rules.start({}, None)
    with pytest.raises(hexhop.IllegalAction):
        rules.play(start, HopAction(("a1", "c1"), ("-",)))
    assert "a1-c1@d1" in rules.legal_actions(start)
    assert "a1-c1" not in rules.legal_actions(start)


def test_apply_plays_what_the_rules_gave_without_asking_again(p: hexhop.Position) -> None:
    """The replay, the solver and the generator play what they checked or
    generated through ``apply``: the same results as ``play``."""
    rules = hexhop.rules_for("Hexalit")
    for action in rules.legal_actions(p):
        assert rules.apply(p, action) == rules.play(p, action)
        assert rules.apply(p, action) == rules.play(p, str(action))


def test_unknown_games_are_hexhop_errors() -> None:
    for call in (
        lambda: hexhop.rules_for("Chess"),
        lambda: hexhop.position("Chess", ""),
        lambda: hexhop.Game.new("Chess"),
    ):
        with pytest.raises(hexhop.UnknownGame) as caught:
            call()
        assert isinstance(caught.value, ValueError)
        assert str(caught.value) == "unknown game 'Chess': expected Hexalit, Trigeo or Hüpfer"


def test_values_of_another_game_or_no_action_are_refused(p: hexhop.Position) -> None:
    hexalit = hexhop.rules_for("Hexalit")
    for wrong in (HopAction(("a1", "c1"), ("-",)), 42, None):
        with pytest.raises(hexhop.IllegalAction, match="is not an action of Hexalit"):
            hexalit.play(p, wrong)  # type: ignore[arg-type]
    huepfer = hexhop.rules_for("Hüpfer")
    for wrong in (DiceAction("C7", "roll", face=1), 42):
        with pytest.raises(hexhop.IllegalAction, match="this is not a Hüpfer action"):
            huepfer.play(huepfer.start({}, None), wrong)  # type: ignore[arg-type]
