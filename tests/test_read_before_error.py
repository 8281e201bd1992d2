"""A syntax error keeps the actions written before it.

A record cut off by a full disk, or typed by hand with one slip, holds
good actions before the damage. Every command sees them: ``check`` counts
and replays them, the index finds the game by them, ``render`` and ``show``
draw up to the error, ``convert`` writes them, ``analyse`` analyses them,
and the web game page shows them. The finding is the one the whole text
gives, at the same line and column, and the game stays invalid.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from archive_helpers import run

from hexhop.notation import parse_text

# cut off in the middle of its fifth action
CUT_OFF = '[Game "Hexalit"]\n\n1. B4W3 D7W1 2. A5XB2^ D7XD5 3. B2W'
CUT_OFF_FINDING = {
    "severity": "error",
    "category": "syntax",
    "code": "SY01",
    "message": "expected the face the die shows (1 to 6) after 'W'",
    "line": 3,
    "column": 36,
    "ply": None,
    "action": None,
}
# where the game stands after its four actions (show --ply last)
AFTER_FOUR = (
    "N: A4=5 A6=3 A7=1 A8=4 A9=3 A10=5 B2=4 B4=2 B5=2 B6=2 B7=6 B8=2 B9=2 B10=2 C7=2; "
    "S: D5=2 E4=2 E5=2 E6=2 E7=6 E8=2 E9=2 E10=2 F4=5 F5=4 F6=3 F7=1 F8=4 F9=3 F10=5; turn: N"
)
HUEPFER = (
    '[Game "Hüpfer"]\n[Board "10x10"]\n\n'
    "1. a2-c2@c1 j9-h9@g9 2. c1-c3@b3 j10-h10-h8@h7 3. b2-b4@a4 h8-h6@g6 "
    "4. a4-c4@c5 {shape} 5. c4-c6@c7 *\n"
)


@pytest.fixture
def cut_off(tmp_path: Path) -> Path:
    path = tmp_path / "t.hxl"
    path.write_text(CUT_OFF, "utf-8")
    return path


def _games(stdout: str) -> list[dict]:
    return [game for file in json.loads(stdout)["files"] for game in file["games"]]


def test_check_counts_the_actions_before_the_error(cut_off: Path) -> None:
    result = run("check", "--format", "json", cut_off)
    assert result.exit_code == 1
    assert _games(result.stdout) == [
        {
            "index": 1,
            "game": "Hexalit",
            "valid": False,
            "plies": 4,
            "result": None,
            "end": None,
            "players": ["?", "?"],
            "findings": [CUT_OFF_FINDING],
        }
    ]


def test_show_and_render_draw_up_to_the_error(cut_off: Path, tmp_path: Path) -> None:
    shown = run("show", "--ply", "last", cut_off)
    assert shown.exit_code == 0
    assert "Last action: D7XD5   (ply 4)" in shown.stdout
    assert f"Position: {AFTER_FOUR}" in shown.stdout
    assert f"{cut_off}:3:36: note: the game stops after ply 4: SY01 " in shown.stderr
    out = tmp_path / "drawn"
    drawn = run("render", cut_off, "--out-dir", out)
    assert drawn.exit_code == 1  # a record with an error, drawn up to it
    assert sorted(p.name for p in out.iterdir()) == [f"game001-ply00{i}.svg" for i in range(5)]


def test_convert_writes_the_actions_before_the_error(cut_off: Path) -> None:
    result = run("convert", "--to", "json", cut_off)
    [game] = json.loads(result.stdout)["games"]
    assert [move["text"] for move in game["moves"]] == ["B4W3", "D7W1", "A5XB2^", "D7XD5"]
    assert game["moves"][-1]["position"] == AFTER_FOUR
    assert [(f["code"], f["line"], f["column"]) for f in game["findings"]] == [("SY01", 3, 36)]


def test_the_index_finds_the_game_by_its_actions(cut_off: Path, tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite"
    run("index", cut_off, "--db", db)
    for query in (("--after", "1. B4W3 D7W1 2. A5XB2^"), ("--position", AFTER_FOUR)):
        found = run("find", "--db", db, *query, "--format", "jsonl")
        rows = [json.loads(line) for line in found.stdout.splitlines()]
        assert [(row["index"], row["plies"]) for row in rows] == [(1, 4)], query
        scanned = run("find", "--scan", cut_off, *query, "--format", "jsonl")
        assert [json.loads(line)["plies"] for line in scanned.stdout.splitlines()] == [4]
    copy = tmp_path / "copy.hxl"
    copy.write_text(CUT_OFF, "utf-8")
    dupes = run("dupes", cut_off, copy)
    assert "2 Hexalit games with the same 4 actions: B4W3 D7W1 A5XB2 D7XD5" in dupes.stdout


@pytest.mark.parametrize(
    "shape, hint",
    [
        ("i10-i8-g8xg6@f8", "a newborn piece ('@') follows hops only; a capture sequence has none"),
        ("d6xb6-b8", "hops ('-') come before captures ('x'), e.g. a1-a3xa5"),
    ],
)
def test_a_huepfer_shape_outside_the_three_keeps_the_actions_before_it(
    tmp_path: Path, shape: str, hint: str
) -> None:
    path = tmp_path / "h.hpf"
    path.write_text(HUEPFER.format(shape=shape), "utf-8")
    [game] = _games(run("check", "--format", "json", path).stdout)
    assert game["plies"] == 7
    [finding] = game["findings"]
    assert (finding["code"], finding["line"], finding["column"]) == ("SY05", 4, 81)
    assert finding["message"] == f"'{shape}' is not a Hüpfer action: {hint}"
    analysed = run("analyse", path, "--depth", "1", "--format", "json", "--max-nodes", "50")
    [analysis] = _games(analysed.stdout)
    assert analysis["plies"] == 7


def _lines(text: str) -> list[tuple[str, list[list[str]]]]:
    [game] = parse_text('[Game "Hexalit"]\n\n' + text)
    assert game.record is not None
    return [
        (node.text, [[n.text for n in line.nodes] for line in node.variations])
        for node in game.record.main.nodes
    ]


def test_an_error_in_a_variation_ends_that_variation_only() -> None:
    # the main line goes on after the damaged variation's ')', up to its own error
    text = "1. B4W3 (1. B5W3 $$ D7W1) D7W1 2. A5XB2^ D7XD5 3. (\n"
    assert _lines(text) == [
        ("B4W3", [["B5W3"]]),
        ("D7W1", []),
        ("A5XB2^", []),
        ("D7XD5", []),
    ]
    [game] = parse_text('[Game "Hexalit"]\n\n' + text)
    assert [(f.code, f.line, f.column) for f in game.findings] == [("SY01", 3, 18)]


def test_a_variation_never_closed_is_read_up_to_the_error() -> None:
    assert _lines("1. B4W3 (D7W1 *") == [("B4W3", [["D7W1"]])]


def test_a_word_cut_by_the_error_is_not_read_as_an_action() -> None:
    # 'C7XD7=²' and 'A5XB2^x' are damaged whole: no C7XD7 or A5XB2^ is read
    assert _lines("1. B4W3 D7W1 2. A5XB2^x D7XD5 *") == [("B4W3", []), ("D7W1", [])]
    [game] = parse_text('[Game "Trigeo"]\n\n1. C7XD7=² *')
    assert game.record is not None and game.record.main.nodes == ()


def test_a_dangling_move_number_before_the_error_is_not_kept() -> None:
    assert _lines("1. B4W3 D7W1 2. 2. A5XB2^ *") == [("B4W3", []), ("D7W1", [])]


def test_the_result_after_the_error_is_not_checked() -> None:
    """The end of the game was not read: its result is not compared with the
    board (no NT02 for a game read up to a win)."""
    from hexhop.engine.replay import replay_game

    [game] = parse_text('[Game "Hexalit"]\n[Result "1-0"]\n\n1. B4W3 D7W1 2. A5XB2^ $$')
    report = replay_game(game)
    assert report.plies == 3 and len(report.positions) == 4
    assert [f.code for f in report.findings] == ["SY01"]


def test_the_web_game_page_shows_the_actions_before_the_error(tmp_path: Path) -> None:
    from serve_helpers import client, game_id, index_into

    arch = tmp_path / "arch"
    arch.mkdir()
    (arch / "t.hxl").write_text(CUT_OFF, "utf-8")
    db = tmp_path / "arch.sqlite"
    index_into(db, arch)
    page = client(db, (arch,)).get(f"/games/{game_id(db, 't.hxl')}")
    assert page.status_code == 200
    assert "This record has no position to show." not in page.text
    assert 'id="hexhop-data"' in page.text and "D7XD5" in page.text
    assert '<li class="error">' in page.text and "SY01" in page.text
