"""Entering a game by clicks: the editing library under ``hexhop serve``'s editor."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import hexhop
from hexhop.cli.main import cli
from hexhop.engine.games import rules_for
from hexhop.records import editing
from hexhop.records.editing import EditError
from hexhop.records.sources import Limits


def _positions(game: str, seed: int, count: int, board: int = 6) -> list[hexhop.Position]:
    """``count`` positions along random games of ``game`` (the start included)."""
    rules = rules_for(game)
    rng = random.Random(seed)
    tags = {"Game": game, **({"Board": f"{board}x{board}"} if game == "Hüpfer" else {})}
    found = []
    while len(found) < count:
        position = rules.start(tags, None)
        found.append(position)
        while position.winner is None and len(found) < count:
            actions = list(rules.legal_actions(position))
            position = rules.apply(position, rng.choice(actions)).position
            if rng.random() < 0.3:
                found.append(position)
    return found


@pytest.mark.parametrize(
    ("game", "board"),
    [("Hexalit", 6), ("Trigeo", 6), ("Hüpfer", 6), ("Hüpfer", 8), ("Hüpfer", 10)],
)
def test_the_clicks_reach_every_legal_action_and_nothing_else(game: str, board: int) -> None:
    for position in _positions(game, seed=27, count=40, board=board):
        reached = editing.click_actions(editing.clicks(position))
        assert len(reached) == len(set(reached)), position.text()
        assert sorted(reached) == sorted(hexhop.legal_actions(position)), position.text()


def _walk_hops(step: dict, seen: list[str]) -> None:
    """A Hüpfer step's next clicks and its birth points never share a point."""
    assert not set(step["hops"]) & set(step["births"])
    for inner in step["hops"].values():
        _walk_hops(inner, seen)


def test_a_hop_target_is_never_a_birth_point() -> None:
    for position in _positions("Hüpfer", seed=5, count=40):
        for step in editing.clicks(position)["pieces"].values():
            _walk_hops(step, [])


def test_dice_clicks_at_the_hexalit_start() -> None:
    position = rules_for("Hexalit").start({"Game": "Hexalit"}, None)
    groups = editing.clicks(position)["dice"]
    assert groups["A6"] == {"targets": {"C6": ["A6XC6"]}, "rolls": {}}
    assert groups["A9"]["targets"] == {"B11": ["A9XB11"], "B12": ["A9XB12"]}
    # a 2 may be rolled: each face is a choice; the One alone may not be
    assert groups["B6"]["rolls"] == {str(f): f"B6W{f}" for f in range(1, 7)}
    assert "A7" not in groups


def test_a_trigeo_promotion_asks_which() -> None:
    position = hexhop.position("Trigeo", "N: A7=1 E4=2; S: F7=1 A11=2; turn: N")
    assert editing.clicks(position)["dice"]["E4"]["targets"]["F4"] == ["E4XF4", "E4XF4=6"]


def test_a_hexalit_roll_needs_its_face() -> None:
    draft = editing.new_game("Hexalit")
    draft, at = editing.play(draft, (), "B4W3")
    assert at == (0,)
    assert draft.text.endswith("1. B4W3 *\n")
    with pytest.raises(EditError, match="the face the die shows"):
        editing.play(draft, at, "D7W")


def test_cube_offer_and_answers() -> None:
    draft = editing.new_game("Hexalit", {"North": "Anna Berger", "South": "Jonas Keller"})
    start = editing.position_at(draft.record, ())
    assert editing.cube(start) == {"offer": "double 2", "answers": []}
    # the first offer belongs to the side that moved first
    south = editing.new_game("Hexalit", {"First": "South"})
    south, there = editing.play(south, (), "D7W1")
    assert editing.cube(editing.position_at(south.record, there))["offer"] is None
    draft, at = editing.play(draft, (), "double 2")
    offered = editing.position_at(draft.record, at)
    assert editing.cube(offered) == {"offer": None, "answers": ["take", "drop"]}
    assert editing.clicks(offered) == {"dice": {}}  # answer first
    draft, at = editing.play(draft, at, "take")
    taken = editing.position_at(draft.record, at)
    assert editing.cube(taken) == {"offer": None, "answers": []}  # one offer a turn
    draft, at = editing.play(draft, at, "B4W3")
    # after the first offer, whichever side is to move may double again
    assert editing.cube(editing.position_at(draft.record, at))["offer"] == "double 4"
    draft, at = editing.play(draft, at, "D7W1")
    assert "1. double 2 take B4W3 D7W1 *" in draft.text
    assert editing.cube(rules_for("Trigeo").start({"Game": "Trigeo"}, None)) == {
        "offer": None,
        "answers": [],
    }


def test_a_dropped_cube_ends_the_game_and_sets_the_result() -> None:
    draft = editing.new_game("Hexalit")
    draft, at = editing.play(draft, (), "double")
    draft, at = editing.play(draft, at, "drop")
    assert draft.record.result == "1-0"
    assert '[Result "1-0"]' in draft.text
    assert editing.clicks(editing.position_at(draft.record, at)) == {"dice": {}}
    with pytest.raises(EditError, match="ended"):
        editing.play(draft, at, "B4W3")
    draft, at = editing.take_back(draft, at)
    assert draft.record.result == "*"


HUEPFER_LINE = ["a1-c1@d1", "e6-e4@d4", "a2-c2@c3", "e5-e3@d3", "b2-d2@e2", "e3xe1"]


def _click_turn(draft: editing.Draft, at: editing.Address, *points: str) -> tuple:
    """Play a Hüpfer turn by its clicks, as the page does: the piece, each
    hop target, then a birth point or "finish turn"."""
    groups = editing.clicks(editing.position_at(draft.record, at))["pieces"]
    step = groups[points[0]]
    for point in points[1:]:
        if point == "finish":
            return editing.play(draft, at, step["finish"])
        if point in step["births"]:
            return editing.play(draft, at, step["births"][point])
        step = step["hops"][point]
    assert step["finish"] is not None and not step["hops"]  # complete, and nothing goes on
    return editing.play(draft, at, step["finish"])


def test_a_huepfer_birth_and_a_double_capture_by_clicks() -> None:
    draft = editing.new_game("Hüpfer", {"Red": "Mira Hansen", "Turquoise": "Paul Ohlsen"})
    at: editing.Address = ()
    draft, at = _click_turn(draft, at, "a1", "c1", "d1")  # a hop, then a birth
    for action in HUEPFER_LINE[1:]:
        draft, at = editing.play(draft, at, action)
    step = editing.clicks(editing.position_at(draft.record, at))["pieces"]["c3"]
    assert list(step["hops"]) == ["e3"] and step["hops"]["e3"]["finish"] is None
    draft, at = _click_turn(draft, at, "c3", "e3", "e5")  # captures twice
    assert at == (6,)
    assert draft.text.splitlines()[-1].endswith("4. c3xe3xe5 *")
    position = editing.position_at(draft.record, at)
    assert "e4" not in position.pieces and "d3" not in position.pieces


def test_a_turn_stops_with_a_birth_or_goes_on() -> None:
    # the hop a1-a3 may stop with a birth on b3, or go on over a4 to a5
    position = hexhop.position("Hüpfer", "R: a1 a2 a4; T: f6; turn: R")
    step = editing.clicks(position)["pieces"]["a1"]["hops"]["a3"]
    assert step["births"] == {"b3": "a1-a3@b3"} and step["finish"] is None
    assert step["hops"]["a5"]["births"] == {"b5": "a1-a3-a5@b5", "a6": "a1-a3-a5@a6"}
    # a capture must go on while it can: no "finish" on c3, the turn is
    # complete on a3 or e3, where nothing goes on
    position = hexhop.position("Hüpfer", "R: c1; T: c2 d3 b3; turn: R")
    step = editing.clicks(position)["pieces"]["c1"]["hops"]["c3"]
    assert step["finish"] is None and step["births"] == {}
    assert step["hops"] == {
        "a3": {"hops": {}, "births": {}, "finish": "c1xc3xa3"},
        "e3": {"hops": {}, "births": {}, "finish": "c1xc3xe3"},
    }


def test_take_back_and_variation() -> None:
    draft = editing.new_game("Trigeo")
    draft, at = editing.play(draft, (), "C7°D7")
    draft, at = editing.play(draft, at, "E6°D7")
    draft, end = editing.play(draft, at, "B7°D7")
    # the same action again only moves the cursor
    same, there = editing.play(draft, (0,), "E6°D7")
    assert there == (1,) and same.text == draft.text
    # "start a variation" at the last action, then an alternative to it
    at = editing.branch_point(end)
    assert at == (1,)
    draft, at = editing.play(draft, at, "A6XC6", branch=True)
    assert at == (2, 0, 0)
    assert draft.text.splitlines()[-1] == "1. C7°D7 E6°D7 2. B7°D7 (2. A6XC6) *"
    draft, deeper = editing.play(draft, at, "D7°C6")
    assert deeper == (2, 0, 1)
    assert editing.position_at(draft.record, deeper).to_move == "North"
    # taking back the variation's first action removes the variation
    draft, at = editing.take_back(draft, at)
    assert at == (1,)
    assert draft.text.splitlines()[-1] == "1. C7°D7 E6°D7 2. B7°D7 *"
    draft, at = editing.take_back(draft, (2,))
    assert at == (1,)
    assert draft.text.splitlines()[-1] == "1. C7°D7 E6°D7 *"
    with pytest.raises(EditError, match="no move to take back"):
        editing.take_back(draft, ())
    with pytest.raises(EditError, match="no move at this place"):
        editing.take_back(draft, (5,))


def test_comments_and_tags() -> None:
    draft = editing.new_game("Hexalit", {"North": "Anna Berger"})
    draft = editing.set_comment(draft, (), "Before the first move.")
    draft, at = editing.play(draft, (), "B4W3")
    draft = editing.set_comment(draft, at, "A brace } in it\nand a second line")
    assert editing.comment_at(draft, at) == "A brace } in it and a second line"
    draft = editing.set_comment(draft, at, "Rolled.")
    assert editing.comment_at(draft, at) == "Rolled."
    draft = editing.set_tags(
        draft, {"Event": "Vereinsabend", "Date": "2026.12.02", "North": "", "South": "Jonas"}
    )
    tags = draft.tags()
    assert tags["Event"] == "Vereinsabend" and tags["South"] == "Jonas" and "North" not in tags
    assert draft.text.splitlines()[-1] == "{Before the first move.} 1. B4W3 {Rolled.} *"
    resigned = editing.set_tags(draft, {"Result": "0-1", "Termination": "resignation"})
    assert resigned.record.result == "0-1" and resigned.tags()["Result"] == "0-1"
    with pytest.raises(EditError, match="result"):
        editing.set_tags(draft, {"Result": "2-0"})


def test_new_game_refuses_what_the_game_cannot_use() -> None:
    with pytest.raises(EditError, match="unknown game"):
        editing.new_game("Schach")
    with pytest.raises(EditError, match="Board"):
        editing.new_game("Hüpfer", {"Board": "7x7"})
    board = editing.new_game("Hüpfer", {"Board": "8x8"})
    assert editing.position_at(board.record, ()).size == 8


def test_typed_text_is_read_with_the_checkers_findings() -> None:
    reading = editing.read_text('[Game "Hexalit"]\n\n1. B4W3 D7W1 2. B4XA3 *\n')
    assert reading.draft is not None
    [finding] = reading.findings
    assert (finding.code, finding.line, finding.column) == ("IL01", 3, 17)
    # the cursor stops before the illegal action
    assert editing.clamp(reading.draft.record, (2,)) == (1,)
    assert editing.last_address(reading.draft.record) == (1,)
    with pytest.raises(EditError, match="B4XA3"):
        editing.position_at(reading.draft.record, (2,))
    broken = editing.read_text('[Game "Hexalit"]\n\n1. B4W3 (D7W1 *\n')
    assert broken.draft is None
    # the variation read before the error is checked too: D7W1 is South's
    assert [(f.code, f.line, f.column) for f in broken.findings] == [
        ("IL01", 3, 10),
        ("SY01", 3, 15),
    ]
    two = editing.read_text('[Game "Hexalit"]\n\n*\n\n[Game "Trigeo"]\n\n*\n')
    assert two.draft is None and "holds 2" in two.findings[0].message
    assert editing.read_text("").findings[0].message == "the text holds no game"
    header = editing.read_text('[Game "Hexalit"]\n[Position "N: Z9=1"]\n\n*\n')
    assert header.draft is None
    assert [(f.code, f.line) for f in header.findings] == [("HD05", 2)]


def test_the_record_limits_apply_to_typed_text() -> None:
    long = '[Game "Hexalit"]\n\n1. B4W3 {' + "x" * 50 + "} *\n"
    reading = editing.read_text(long, Limits(max_comment=10))
    assert reading.draft is None
    assert [f.code for f in reading.findings] == ["IO06"]


def test_the_moves_list() -> None:
    reading = editing.read_text('[Game "Trigeo"]\n\n1. C7°D7 {x} E6°D7 (1... E7°D7) 2. B7°D7 *\n')
    assert reading.draft is not None
    tokens = editing.moves(reading.draft.record)
    assert tokens == [
        {"kind": "move", "text": "C7°D7", "address": [0], "number": "1."},
        {"kind": "comment", "text": "x"},
        {"kind": "move", "text": "E6°D7", "address": [1], "number": "1..."},
        {"kind": "open"},
        {"kind": "move", "text": "E7°D7", "address": [1, 0, 0], "number": "1..."},
        {"kind": "close"},
        {"kind": "move", "text": "B7°D7", "address": [2], "number": "2."},
    ]


def test_the_text_is_canonical_and_passes_the_strict_check(tmp_path: Path) -> None:
    draft = editing.new_game("Hexalit", {"North": "Anna", "South": "Jonas", "Date": "2026.12.02"})
    rules = rules_for("Hexalit")
    rng = random.Random(3)
    at: editing.Address = ()
    for ply in range(16):
        position = editing.position_at(draft.record, at)
        if position.winner is not None:
            break
        if ply == 2:
            draft, at = editing.play(draft, at, "double 2")
            draft, at = editing.play(draft, at, "take")
        action = rng.choice(list(rules.legal_actions(position)))
        draft, at = editing.play(draft, at, action)
        if ply == 5:
            draft = editing.set_comment(draft, at, "a note")
    draft, _ = editing.play(draft, editing.branch_point(at), str(draft.record.main.nodes[-1].item))
    path = tmp_path / "entered.hxl"
    path.write_text(draft.text, "utf-8")
    runner = CliRunner()
    assert runner.invoke(cli, ["fmt", str(path)]).stdout == draft.text
    assert runner.invoke(cli, ["fmt", "--check", str(path)]).exit_code == 0
    checked = runner.invoke(cli, ["check", "--strict", str(path)])
    assert checked.exit_code == 0, checked.stdout
    assert draft.findings == ()
