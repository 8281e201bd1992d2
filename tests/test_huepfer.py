"""Hüpfer rules, one rule at a time, on small hand-drawn positions.

Positions are drawn as square grids (rank N at the top, file a on the
left, ``R``/``T``/``.``) or written as Position text.
"""

from __future__ import annotations

import re

import pytest

from hexhop.engine.base import HeaderError, Illegal
from hexhop.engine.games import rules_for
from hexhop.engine.huepfer.rules import HUEPFER, HuepferPosition
from hexhop.notation.model import CubeAnswer, CubeOffer, DiceAction, HopAction

_STEP = re.compile(r"([-x])([a-z]\d+)")


def act(text: str, mark: str = "") -> HopAction:
    """``a2-c2-c4@c5`` as a HopAction (a test helper, not the record parser)."""
    text, _, birth = text.partition("@")
    start = re.match(r"[a-z]\d+", text).group(0)
    steps = _STEP.findall(text[len(start) :])
    return HopAction(
        (start,) + tuple(p for _, p in steps), tuple(op for op, _ in steps), birth or None, mark
    )


def grid(drawing: str, turn: str = "R", reserve: str = "12/12") -> HuepferPosition:
    """A position from a square grid drawing, rank N in the first row."""
    rows = [row.split() for row in drawing.strip().splitlines()]
    size = len(rows)
    sides: dict[str, list[str]] = {"R": [], "T": []}
    for r, row in enumerate(rows):
        assert len(row) == size, drawing
        for f, symbol in enumerate(row):
            if symbol in sides:
                sides[symbol].append(f"{'abcdefghij'[f]}{size - r}")
    text = f"R: {' '.join(sides['R'])}; T: {' '.join(sides['T'])}; reserve: {reserve}; turn: {turn}"
    return HUEPFER.parse_position(text, {"Board": f"{size}x{size}"})


def legal(position: HuepferPosition) -> set[str]:
    return {str(a) for a in HUEPFER.legal_actions(position)}


def refusal(position: HuepferPosition, text: str) -> Illegal:
    illegal = HUEPFER.check(position, act(text))
    assert illegal is not None, f"{text} should be illegal"
    return illegal


START = HUEPFER.standard(6)

# -- board, tags and positions --------------------------------------------------


def test_registry_finds_the_rules():
    assert rules_for("Hüpfer") is HUEPFER
    assert HUEPFER.sides == ("Red", "Turquoise")


@pytest.mark.parametrize(
    "value, size, reserve, turquoise",
    [
        (None, 6, 12, ("e5", "e6", "f5", "f6")),
        ("8x8", 8, 24, ("g7", "g8", "h7", "h8")),
        ("10x10", 10, 40, ("i9", "i10", "j9", "j10")),
    ],
)
def test_standard_start_for_each_board(value, size, reserve, turquoise):
    tags = {} if value is None else {"Board": value}
    position = HUEPFER.start(tags, None)
    assert (position.game, position.size, position.to_move) == ("Hüpfer", size, "Red")
    assert dict(position.reserves) == {"Red": reserve, "Turquoise": reserve}
    assert sorted(p for p, s in position.pieces.items() if s == "Red") == ["a1", "a2", "b1", "b2"]
    assert sorted(p for p, s in position.pieces.items() if s == "Turquoise") == sorted(turquoise)
    assert (position.ply, position.winner, position.end_ply) == (0, None, None)


@pytest.mark.parametrize("value", ["7x7", "6", "", "6x8", "12x12", "8X8", " 8x8"])
def test_bad_board_tag(value):
    with pytest.raises(HeaderError) as caught:
        HUEPFER.start({"Board": value}, None)
    assert (caught.value.code, caught.value.tag, caught.value.params) == (
        "HD03",
        "Board",
        {"value": value},
    )


def test_reserve_tag_one_number_or_two():
    assert HUEPFER.start({"Reserve": "5"}, None).reserve == (5, 5)
    assert HUEPFER.start({"Reserve": "12/10"}, None).reserve == (12, 10)
    assert HUEPFER.start({"reserve": "0/3", "board": "8x8"}, None).reserve == (0, 3)


@pytest.mark.parametrize("value", ["", "x", "-1", "1/2/3", "12/", "1.5", "12 / 10", "+3"])
def test_bad_reserve_tag(value):
    with pytest.raises(HeaderError) as caught:
        HUEPFER.start({"Reserve": value}, None)
    error = caught.value
    assert (error.code, error.tag, error.params["value"]) == ("HD04", "Reserve", value)
    assert "12/10" in error.params["reason"]


def test_position_tag_and_its_reserve_override_the_reserve_tag():
    tags = {"Reserve": "3", "Position": "R: a1 b1 c3; T: e5 f6; reserve: 10/12; turn: T"}
    position = HUEPFER.start(tags, None)
    assert position.reserve == (10, 12) and position.to_move == "Turquoise"
    without = HUEPFER.start({"Reserve": "3", "Position": "R: a1 b1; T: e5 f6; turn: R"}, None)
    assert without.reserve == (3, 3)
    default = HUEPFER.start({"Board": "8x8", "Position": "R: a1 b1; T: e5 f6"}, None)
    assert default.reserve == (24, 24) and default.to_move == "Red"


@pytest.mark.parametrize(
    "text, words",
    [
        ("R: a1 g1; T: e5", "g1 is not a point of the 6x6 board"),
        ("R: a1 a1; T: e5", "a1 is listed twice"),
        ("R: a1; T: a1", "a1 is listed twice"),
        ("R: a1; T: e5; turn: X", "turn must be R or T"),
        ("R: a1; T: e5; reserve: lots", "reserve:"),
        ("R: a1; T: e5; colour: red", "unknown part"),
        ("R: a1", "'T:' is missing"),
        ("R: a1; R: b1; T: e5", "given twice"),
        ("R: 1a; T: e5", "'1a' is not a point"),
        ("R a1; T: e5", "has no ':'"),
    ],
)
def test_bad_position_tag(text, words):
    with pytest.raises(HeaderError) as caught:
        HUEPFER.start({"Position": text}, None)
    assert caught.value.code == "HD05" and caught.value.tag == "Position"
    assert words in caught.value.params["reason"]


def test_position_text_round_trip_and_equality():
    text = "R: a1 b1 c3; T: e5 f6; reserve: 10/12; turn: R"
    position = HUEPFER.parse_position(text, {})
    assert position.text() == text
    assert HUEPFER.parse_position(position.text(), {}) == position
    assert START.text() == "R: a1 a2 b1 b2; T: e5 e6 f5 f6; reserve: 12/12; turn: R"
    empty = HUEPFER.parse_position("R:; T: e5; reserve: 0/1; turn: T", {})
    assert empty.text() == "R:; T: e5; reserve: 0/1; turn: T"
    assert HUEPFER.parse_position(empty.text(), {}) == empty
    assert position != START and hash(START) == hash(HUEPFER.standard(6))


def test_positions_cannot_be_changed_from_outside():
    with pytest.raises(AttributeError):
        START.to_move = "Turquoise"  # type: ignore[misc]
    with pytest.raises(TypeError):
        START.pieces["c3"] = "Red"  # type: ignore[index]
    assert START.reserves == {"Red": 12, "Turquoise": 12}  # a fresh mapping each time
    assert START.reserve == (12, 12)


def test_diagram_is_a_diamond_with_coordinates():
    picture = HUEPFER.diagram(START)
    lines = picture.splitlines()
    assert lines[0] == "Hüpfer 6x6, Red to move, reserve R 12 / T 12"
    assert lines[1].strip() == "T"  # f6 at the top
    assert lines[-1].split() == ["1", "R", "a"]  # a1 at the bottom
    assert lines[6].split() == ["6", ".", ".", ".", ".", ".", ".", "f"]  # a6 .. f1
    assert len(lines) == 12


# -- §7: the 6x6 start ------------------------------------------------------------


def test_start_hops_are_exactly_the_four_with_their_births():
    assert legal(START) == {
        "a1-c1@d1",
        "a1-c1@c2",
        "a1-a3@a4",
        "a1-a3@b3",
        "b1-b3@a3",
        "b1-b3@b4",
        "b1-b3@c3",
        "a2-c2@c1",
        "a2-c2@c3",
        "a2-c2@d2",
    }


def test_a_hop_needs_a_piece_to_jump_over():
    assert "c1-c3 jumps over c2, which is empty" in refusal(START, "a1-c1-c3@c4").reason


# -- captures ---------------------------------------------------------------------


COMPULSORY = grid("""
. . . . . .
. . . . . .
. . . . . .
. T . . . .
. R . . . .
R R . . . T
""")


def test_capture_is_compulsory():
    assert legal(COMPULSORY) == {"b2xb4"}
    illegal = refusal(COMPULSORY, "a1-c1@d1")
    assert illegal.code == "IL01"
    assert illegal.reason.startswith("a capture is possible (b2xb4), and capturing is compulsory")


def test_capture_chains_must_go_on_and_may_choose():
    position = grid("""
    . . . . . .
    . . . . . .
    . . . . . .
    . . . . T .
    . . R T . .
    . . . . . T
    """)
    assert legal(position) == {"c2xe2xe4"}
    illegal = refusal(position, "c2xe2")
    assert illegal.reason.startswith(
        "c2xe2 stops too early: the piece can still capture from e2 (e2xe4)"
    )
    assert "legal turns of the piece on c2: c2xe2xe4" in illegal.reason


def test_capture_chain_may_return_to_its_start():
    position = grid("""
    . . . . . .
    . . T . . .
    . T . T . .
    . R T . . .
    . . . . . .
    . . . . . T
    """)
    assert legal(position) == {"b3xb5xd5xd3xb3", "b3xd3xd5xb5xb3"}
    played = HUEPFER.play(position, act("b3xd3xd5xb5xb3")).position
    assert played.pieces == {"b3": "Red", "f1": "Turquoise"}
    assert played.reserve == (12, 12)


def test_several_capturing_pieces_the_player_chooses():
    position = grid(
        """
    . . . . . .
    . . . . . .
    . . . . . .
    R T . T R .
    . . . . . .
    . . . . . .
    """,
        turn="R",
    )
    assert legal(position) == {"a3xc3", "e3xc3"}


def test_wrong_operators():
    over_enemy = refusal(COMPULSORY, "b2-b4")
    assert over_enemy.reason.startswith(
        "b2-b4 jumps over the Turquoise piece on b3: that is a capture, written b2xb4"
    )
    over_own = refusal(START, "a1xa3")
    assert over_own.reason.startswith(
        "a1xa3 jumps over an own piece on a2: that is a hop, written a1-a3"
    )
    assert (
        "legal turns of the piece on a1: a1-a3@a4, a1-a3@b3, a1-c1@c2, a1-c1@d1" in over_own.reason
    )


def test_no_birth_after_a_capture():
    assert "no piece is born in a turn that captures" in refusal(COMPULSORY, "b2xb4@b5").reason


# -- hops ---------------------------------------------------------------------------


def test_hop_chains_never_revisit_a_point():
    illegal = refusal(START, "a2-c2-a2@a3")
    assert illegal.reason.startswith("a2-c2-a2 lands on a2 again; a hop may not revisit a point")
    assert "legal turns of the piece on a2: a2-c2@c1, a2-c2@c3, a2-c2@d2" in illegal.reason


def test_hop_chains_continue_over_own_pieces():
    position = grid("""
    . . . . . T
    . . . . . .
    . . . . . .
    . . . . . .
    . . R . . .
    R R . . . .
    """)
    assert legal(position) == {"a1-c1@d1", "a1-c1-c3@b3", "a1-c1-c3@c4", "a1-c1-c3@d3"}
    played = HUEPFER.play(position, act("a1-c1-c3@d3"))
    assert played.position.pieces == {
        "b1": "Red",
        "c2": "Red",
        "c3": "Red",
        "d3": "Red",
        "f6": "Turquoise",
    }
    assert played.position.reserve == (11, 12)


def test_a_jump_goes_two_points_along_a_line():
    for text in ("a1-a4@a5", "a1-b2@b3", "a1-c2@d2", "b1-b1@a1"):
        assert "is not a jump" in refusal(START, text).reason, text


def test_a_hop_lands_on_an_empty_point():
    position = grid("""
    . . . . . T
    . . . . . .
    . . . . . .
    R . . . . .
    R . . . . .
    R . . . . .
    """)
    assert refusal(position, "a1-a3@b3").reason.startswith("a1-a3 lands on a3, which is occupied")
    assert legal(position) == {"a2-a4@a5", "a2-a4@b4"}


# -- hops that turn into captures ---------------------------------------------------

HOP_THEN_CAPTURE = grid("""
. . . . . .
. . . . . .
T . . . . .
. . . . . .
R . . . . .
R . . . . .
""")


def test_a_hop_after_which_the_hopper_can_capture_goes_on_capturing():
    assert legal(HOP_THEN_CAPTURE) == {"a1-a3xa5"}
    illegal = refusal(HOP_THEN_CAPTURE, "a1-a3@b3")
    assert illegal.reason.startswith(
        "after a1-a3 the piece can capture (a3xa5), so the turn must go on capturing"
    )
    assert "legal turns of the piece on a1: a1-a3xa5" in illegal.reason
    played = HUEPFER.play(HOP_THEN_CAPTURE, act("a1-a3xa5")).position
    assert played.pieces == {"a2": "Red", "a5": "Red"}
    assert played.reserve == (12, 12)  # no birth


def test_the_notation_example_hop_then_two_captures():
    position = grid("""
    . . . . . .
    . T . . . .
    T . . . . .
    . . . . . .
    R . . . . .
    R . . . . .
    """)
    assert legal(position) == {"a1-a3xa5xc5"}
    assert refusal(position, "a1-a3xa5").reason.startswith(
        "a1-a3xa5 stops too early: the piece can still capture from a5 (a5xc5)"
    )


def test_capture_part_may_revisit_points_of_the_hop_part():
    position = grid("""
    . . . . . .
    . . . T . .
    . . T . T .
    . R . T . .
    R . . . . .
    R . . . . .
    """)
    assert legal(position) == {"a1-a3@a4", "a1-a3-c3xc5xe5xe3xc3", "a1-a3-c3xe3xe5xc5xc3"}
    assert refusal(position, "a1-a3-c3@c2").reason.startswith(
        "after a1-a3-c3 the piece can capture"
    )


def test_only_the_hopper_counts():
    """§8.13: c1 could capture c1xc3 once the hopper has left c3; that changes nothing."""
    position = grid("""
    . . . . T T
    . . . . . .
    . . . . . .
    . . R R . .
    . . T . . .
    . . R . . .
    """)
    assert legal(position) == {
        "c3-e3@e2",
        "c3-e3@e4",
        "c3-e3@f3",
        "d3-b3@a3",
        "d3-b3@b2",
        "d3-b3@b4",
    }
    played = HUEPFER.play(position, act("c3-e3@e4")).position
    assert played.pieces == {
        "c1": "Red",
        "c2": "Turquoise",
        "d3": "Red",
        "e3": "Red",
        "e4": "Red",
        "e6": "Turquoise",
        "f6": "Turquoise",
    }
    assert played.to_move == "Turquoise" and played.winner is None


def test_after_a_capture_only_captures_follow():
    position = grid("""
    . . . . . .
    . . . . . .
    . . . . . .
    . T . . . .
    . R . . . .
    . . . . . T
    """)
    position = HUEPFER.parse_position(position.text().replace("R: b2", "R: b2 c4"), {})
    assert "only go on capturing" in refusal(position, "b2xb4-d4@d5").reason


# -- births and the reserve ---------------------------------------------------------


def test_birth_must_be_next_to_the_final_point_and_empty():
    assert refusal(START, "a1-c1@e1").reason.startswith("e1 is not next to c1")
    assert refusal(START, "a1-c1@b1").reason.startswith("b1 is occupied")
    assert refusal(START, "a1-c1").reason.startswith(
        "a hop that ends without a capture must place a piece from the reserve: "
        "add @ and an empty point next to c1, e.g. a1-c1@d1"
    )


def test_no_birth_without_an_empty_point():
    position = grid("""
    R . . . . .
    R . . . . .
    . . . . . .
    . . T . . .
    . . T . . .
    R R . T T .
    """)
    assert refusal(position, "a1-c1").reason.startswith(
        "a hop that ends without a capture places a newborn piece next to c1, "
        "but no point next to it is empty"
    )
    assert refusal(position, "a1-c1@c2").reason.startswith("c2 is occupied")
    assert legal(position) == {"a6-a4@a3", "a6-a4@b4"}


EMPTY_RESERVE = grid(
    """
. . . . . .
. . . . . .
T . . . . .
. . . . . .
R . . . . .
R . . R R .
""",
    reserve="0/12",
)


def test_with_an_empty_reserve_only_hops_into_captures():
    assert legal(EMPTY_RESERVE) == {"a1-a3xa5"}
    for text in ("d1-f1@f2", "d1-f1"):
        assert refusal(EMPTY_RESERVE, text).reason.startswith(
            "the reserve is empty: a hop must lead to a capture"
        ), text


def test_a_side_with_an_empty_reserve_and_no_capture_has_lost_at_ply_0():
    """§8.10 applies to the start position."""
    position = HUEPFER.start({"Reserve": "0/12"}, None)
    assert (position.winner, position.end_ply, position.ply) == ("Turquoise", 0, 0)
    assert not HUEPFER.legal_actions(position) and len(HUEPFER.legal_actions(position)) == 0
    assert (
        "the game is over: Turquoise won at ply 0"
        in HUEPFER.check(position, act("a1-c1@d1")).reason
    )
    stuck = HUEPFER.start({"Position": "R: a1; T: f6; reserve: 5/5; turn: T"}, None)
    assert stuck.winner == "Red" and stuck.end_ply == 0


# -- what is not a Hüpfer turn ---------------------------------------------------------


def test_points_off_the_board():
    for text, cell in (("a1-a3@a7", "a7"), ("g1-e1@e2", "g1"), ("a1-c1@z9", "z9")):
        illegal = refusal(START, text)
        assert (illegal.code, illegal.cell) == ("IL02", cell)
        assert f"{cell} is not on the 6x6 board" in illegal.reason
    big = HUEPFER.standard(10)
    assert HUEPFER.check(big, act("a1-a3@a4")) is None
    assert HUEPFER.check(HUEPFER.standard(8), act("a1-c1@i1")).cell == "i1"


def test_upper_case_points_are_read():
    assert HUEPFER.check(START, HopAction(("A1", "C1"), ("-",), "D1")) is None


def test_cube_events_and_dice_actions():
    for item in (CubeOffer(2), CubeOffer(), CubeAnswer(True), CubeAnswer(False)):
        assert HUEPFER.check(START, item) == Illegal("IL03", "there is no doubling cube in Hüpfer")
    assert HUEPFER.check(START, DiceAction("B6", "move", "C6")).code == "IL01"


def test_the_start_point_must_hold_an_own_piece():
    assert refusal(START, "c3-c5@c6").reason.startswith("there is no piece on c3; legal turns: ")
    assert refusal(START, "e5-c5@c4").reason.startswith(
        "the piece on e5 is Turquoise's, and Red is to move"
    )
    assert refusal(START, "b2-b0").code == "IL02"


def test_a_piece_without_turns_points_to_the_others():
    reason = refusal(START, "b2-d2@d3").reason
    assert "the piece on b2 has no legal turn; legal turns: a1-a3@a4, a1-a3@b3" in reason


def test_bad_operator_and_empty_path():
    assert "is not a step" in HUEPFER.check(START, HopAction(("a1", "c1"), ("+",), "d1")).reason
    assert "at least once" in HUEPFER.check(START, HopAction(("a1",), (), "a3")).reason


# -- playing ---------------------------------------------------------------------------


def test_play_returns_a_new_position():
    played = HUEPFER.play(START, act("a2-c2@d2"))
    after = played.position
    assert (played.mark, played.threatened) == ("", None)
    assert START.text() == "R: a1 a2 b1 b2; T: e5 e6 f5 f6; reserve: 12/12; turn: R"
    assert after.text() == "R: a1 b1 b2 c2 d2; T: e5 e6 f5 f6; reserve: 11/12; turn: T"
    assert (after.ply, after.to_move, after.winner) == (1, "Turquoise", None)
    with pytest.raises(ValueError):
        HUEPFER.play(START, act("a1-c1"))


def test_capturing_the_last_piece_wins():
    position = HUEPFER.parse_position("R: b2; T: b3; reserve: 0/9; turn: R", {})
    after = HUEPFER.play(position, act("b2xb4")).position
    assert (after.winner, after.end_ply, after.ply) == ("Red", 1, 1)
    assert after.pieces == {"b4": "Red"}
    assert not HUEPFER.legal_actions(after)


def test_a_side_left_without_a_turn_loses():
    # Turquoise can only hop, and has no reserve and no capture after a hop
    position = HUEPFER.parse_position("R: a1 a2; T: e5 f5 f6; reserve: 5/0; turn: R", {})
    after = HUEPFER.play(position, act("a1-a3@a4")).position
    assert (after.winner, after.end_ply) == ("Red", 1)


def test_legal_actions_is_a_lazy_view():
    view = HUEPFER.legal_actions(START)
    assert act("a1-c1@d1") in view
    assert act("a1-c1@d1", mark="^") in view  # marks are ignored
    assert act("a1-c1") not in view and CubeOffer(2) not in view
    assert "a1-c1@d1" in view  # text too, read with Hüpfer's notation
    assert "a1-c1" not in view and "C7W1" not in view and "zz" not in view
    assert bool(view) and len(view) == 10
    assert all(isinstance(a, HopAction) and a.mark == "" for a in view)
    assert HUEPFER.check(START, act("a1-c1@d1", mark="+")) is None
