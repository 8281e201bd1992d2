"""Build a game from code, write it, read it back."""

from __future__ import annotations

from pathlib import Path

import pytest

import hexhop
from hexhop.notation import format_archive, read_archive

ROOT = Path(__file__).resolve().parent.parent
KASSEL = ROOT / "samples" / "good" / "hexalit-kassel-1998.hxl"


def fmt(text: str) -> str:
    """What ``hexhop fmt`` writes for ``text``."""
    return format_archive(read_archive(text.encode("utf-8")))


def test_play_and_write_a_game() -> None:
    g = hexhop.Game.new("Hexalit", North="A", South="B")
    assert g.actions == [] and len(g.positions) == 1 and g.valid
    assert str(g.play("B4W3")) == "B4W3"
    assert str(g.play("D7W1")) == "D7W1"
    assert g.actions == ["B4W3", "D7W1"] and g.positions[-1].ply == 2
    assert g.positions[-1].text() == (
        "N: A4=5 A5=4 A6=3 A7=1 A8=4 A9=3 A10=5 B4=3/2 B5=2 B6=2 B7=6 B8=2 B9=2 B10=2 C7=2;"
        " S: D7=1/2 E4=2 E5=2 E6=2 E7=6 E8=2 E9=2 E10=2 F4=5 F5=4 F6=3 F7=1 F8=4 F9=3 F10=5;"
        " turn: N"
    )
    record = '[Game "Hexalit"]\n[North "A"]\n[South "B"]\n[Result "*"]\n\n1. B4W3 D7W1 *\n'
    assert str(g) == g.record() == record == fmt(record)
    assert repr(g) == "<Game Hexalit 'A' v 'B', 2 plies, valid (game 1)>"


def test_an_illegal_action_leaves_the_game_as_it_was() -> None:
    g = hexhop.Game.new("Hexalit", North="A", South="B")
    g.play("B4W3")
    before = (g.record(), list(g.positions), g.actions)
    for wrong in ("B4W3", "D7XD5", "Z9W1", "zz", "", "a1-c1@d1", "C7W1 C7W2"):
        with pytest.raises(hexhop.IllegalAction):
            g.play(wrong)
        assert (g.record(), list(g.positions), g.actions) == before
    with pytest.raises(hexhop.IllegalAction):
        g.variation(["D7W2", "D7W3"])  # North is to move after D7W2
    with pytest.raises(hexhop.NoSuchPly):
        g.variation(["D7W2"], ply=3)
    assert (g.record(), list(g.positions), g.actions) == before


def test_marks_and_the_result_follow_the_rules() -> None:
    """The marks the rules require are written; the result follows the end."""
    [kassel] = hexhop.read_games(KASSEL)
    tags = {k: v for k, v in kassel.tags.items() if k not in ("Game", "Result")}
    g = hexhop.Game.new("Hexalit", **tags)
    for node in kassel.report.record.main.nodes:
        g.play(str(node.item).rstrip("^+"))  # cube events too: "double 2", "take"
    assert g.actions == kassel.actions
    assert g.end == kassel.end == hexhop.End("South", 42)
    assert g.tags["Result"] == "0-1" and g.valid
    with pytest.raises(hexhop.IllegalAction, match="the game is over"):
        g.play(hexhop.legal_actions(kassel.positions[-2])[0])


def test_comments_and_variations_round_trip(tmp_path: Path) -> None:
    g = hexhop.Game.new("Trigeo", North="Ute", South="Karl", Event="Pokal")
    g.comment("Before the first action.")
    g.play("C7°D7")
    g.play("E6°D7")
    g.comment("Straight back.")
    assert [str(a) for a in g.variation(["E7°D7", "B7°D7"], comment="Or")] == ["E7°D7", "B7°D7+"]
    g.variation(["C7XD6"], ply=1)
    g.comment("a comment with } in it")
    g.play("B7°D7")
    expected = (
        '[Game "Trigeo"]\n[Event "Pokal"]\n[North "Ute"]\n[South "Karl"]\n[Result "*"]\n\n'
        "{Before the first action.} 1. C7°D7 (1. C7XD6) 1... E6°D7 {Straight back.}\n"
        "; a comment with } in it\n"
        "({Or} 1... E7°D7 2. B7°D7+) 2. B7°D7 *\n"
    )
    assert g.record() == expected == fmt(expected)
    path = tmp_path / "built.trg"
    path.write_text(str(g), "utf-8")
    [back] = hexhop.read_games(path)
    assert back.record() == g.record() and back.positions == g.positions
    assert back.findings == [] and back.actions == ["C7°D7", "E6°D7", "B7°D7"]


def test_a_missing_first_tag_follows_the_first_action() -> None:
    """As in a record: without First, the side of the first action moved first."""
    g = hexhop.Game.new("Hexalit")
    g.play("D7W1")  # South's die
    assert g.positions[0].to_move == "South" and g.positions[-1].to_move == "North"
    [back] = hexhop.read_games(g.record().encode())
    assert back.positions == g.positions and back.valid


def test_a_read_game_goes_on_and_a_broken_one_refuses() -> None:
    [g] = hexhop.read_games(b'[Game "Hexalit"]\n\n1. B4W3 D7W1 *\n')
    g.play("B4XC2")
    assert g.record().splitlines()[-1] == "1. B4W3 D7W1 2. B4XC2 *"
    [broken] = hexhop.read_games(b"1. B4W3 D7W1 2. A0XB2 *", game="Hexalit")
    with pytest.raises(hexhop.IllegalAction, match="the main line stops at ply 3"):
        broken.play("B4XC2")


def test_huepfer_on_a_board_of_its_tag() -> None:
    g = hexhop.Game.new("Huepfer", Red="R", Turquoise="T", Board="8x8")
    first = hexhop.legal_actions(g.positions[0])[0]
    g.play(first)
    assert g.game == "Hüpfer" and g.positions[-1].ply == 1
    [back] = hexhop.read_games(str(g).encode())
    assert back.positions == g.positions and back.tags["Board"] == "8x8"


def test_tags_the_game_cannot_use_are_header_errors() -> None:
    with pytest.raises(hexhop.HeaderError, match="^HD06 bad First value 'East'"):
        hexhop.Game.new("Hexalit", First="East")
    with pytest.raises(hexhop.HeaderError) as caught:
        hexhop.Game.new("Hüpfer", Board="7x7")
    assert caught.value.code == "HD03"


def test_a_ply_the_game_does_not_have() -> None:
    [game] = hexhop.read_games(KASSEL)
    assert game.legal_actions(-1) == [] and len(game.legal_actions(0)) == 55
    for call in (lambda: game.legal_actions(43), lambda: game.svg(-44)):
        with pytest.raises(hexhop.NoSuchPly, match="no position after ply"):
            call()


def test_a_set_up_start() -> None:
    g = hexhop.Game.new("Hexalit", Position="N: A7=1 C7=2; S: F7=1 D6=2; turn: N")
    g.play("C7°D6")
    assert g.record() == (
        '[Game "Hexalit"]\n[Position "N: A7=1 C7=2; S: F7=1 D6=2; turn: N"]\n'
        '[Result "*"]\n\n1. C7°D6 *\n'
    )
    assert g.positions[-1].text() == "N: A7=1 D6=2; S: F7=1; turn: S"
    [back] = hexhop.read_games(str(g).encode())
    assert back.positions == g.positions and back.findings == []
