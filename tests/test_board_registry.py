"""A Hüpfer board size is one entry of ``hexhop.notation.boards``.

The fixture adds a 12x12 board to the registry for one test (and takes it
away after); a game on it is then played, checked, drawn (SVG and terminal),
indexed and found without any other module knowing of it.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from serve_helpers import client, indexed_archive

from hexhop.cli.main import cli
from hexhop.engine.base import HeaderError
from hexhop.engine.games import rules_for
from hexhop.engine.generate import random_game
from hexhop.engine.replay import GameReport, replay_game
from hexhop.notation import boards, format_archive
from hexhop.notation.findings import make
from hexhop.notation.games import find_game
from hexhop.notation.reader import read_archive
from hexhop.render import board_svg


@pytest.fixture
def twelve(monkeypatch: pytest.MonkeyPatch) -> boards.HuepferBoard:
    entry = boards.HuepferBoard(12, reserve=60)
    monkeypatch.setitem(boards.HUEPFER_BOARDS, 12, entry)
    return entry


@pytest.fixture
def game_file(twelve: boards.HuepferBoard, tmp_path: Path) -> Path:
    record = random_game("Hüpfer", random.Random(12), board=12, max_plies=40)
    path = tmp_path / "twelve.hpf"
    path.write_text(format_archive([record]), "utf-8")
    return path


def replayed(path: Path) -> GameReport:
    [parsed] = read_archive(path.read_bytes(), path=str(path))
    return replay_game(parsed)


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_without_the_entry_there_is_no_12x12_board() -> None:
    assert find_game("Hüpfer").board_sizes == (6, 8, 10)
    with pytest.raises(HeaderError) as caught:
        rules_for("Hüpfer").start({"Board": "12x12"})
    assert (caught.value.code, caught.value.params) == ("HD03", {"value": "12x12"})
    assert make("HD03", value="12x12").message == (
        "bad Board value '12x12': expected 6x6, 8x8 or 10x10"
    )


def test_the_entry_makes_a_board_every_layer_knows(twelve: boards.HuepferBoard) -> None:
    assert find_game("Hüpfer").board_sizes == (6, 8, 10, 12)
    assert boards.huepfer_labels() == ("6x6", "8x8", "10x10", "12x12")
    assert make("HD03", value="7x7").message == (
        "bad Board value '7x7': expected 6x6, 8x8, 10x10 or 12x12"
    )
    start = rules_for("Hüpfer").start({"Board": "12x12"})
    assert (start.size, start.reserve) == (12, (60, 60))
    assert sorted(p for p, side in start.pieces.items() if side == "Turquoise") == [
        "k11",
        "k12",
        "l11",
        "l12",
    ]


def test_a_game_on_it_is_played_and_replayed(game_file: Path) -> None:
    assert '[Board "12x12"]' in game_file.read_text("utf-8")
    report = replayed(game_file)
    assert report.findings == [] and len(report.positions) == 41
    final = report.positions[-1]
    assert final.size == 12 and final.reserve[0] < 60
    assert any(point[0] in "kl" for point in final.pieces)


def test_a_game_on_it_is_checked(game_file: Path) -> None:
    code, output = run("check", str(game_file))
    assert code == 0
    assert output.splitlines()[-1].startswith("Checked 1 file, 1 game, 40 plies in ")
    assert output.splitlines()[-1].endswith(": 1 valid, 0 invalid.")
    # a move off the 12x12 board is still off it
    bad = game_file.with_name("bad.hpf")
    bad.write_text('[Game "Hüpfer"]\n[Board "12x12"]\n\n1. l12-n12@m12 *\n', "utf-8")
    code, output = run("check", str(bad))
    assert code == 1 and f"{bad}:4:4: error IL02 " in output


def test_a_position_on_it_is_drawn(game_file: Path) -> None:
    report = replayed(game_file)
    root = ET.fromstring(board_svg(report.positions[0]))
    classes = [set(e.get("class", "").split()) for e in root.iter()]
    points = [c for c in classes if "point" in c]
    assert len(points) == 144 and any("l12" in c for c in points)
    pieces = {e.get("data-point") for e in root.iter() if "piece" in e.get("class", "")}
    assert pieces == {"a1", "a2", "b1", "b2", "k11", "k12", "l11", "l12"}
    assert any({"coord", "file", "l"} <= c for c in classes)


def test_a_position_on_it_is_shown_in_the_terminal(game_file: Path) -> None:
    code, output = run("show", str(game_file), "--ply", "0", "--color", "never")
    lines = output.splitlines()
    assert code == 0
    assert "Position: R: a1 a2 b1 b2; T: k11 k12 l11 l12; reserve: 60/60; turn: R" in lines
    assert lines[0].strip() == "t" and lines[-5].strip() == "1   a"  # l12 on top, a1 below
    assert [line.split()[0] for line in lines if line.rstrip().endswith((" l", " k"))] == [
        "12",
        "11",
    ]


def test_a_game_on_it_is_indexed_and_found(game_file: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite")
    code, output = run("index", "--db", db, str(game_file))
    assert code == 0 and "1 game" in output
    code, output = run("find", "--db", db, "--board", "12x12", "--format", "json")
    assert code == 0
    assert '"game": "Hüpfer"' in output and '"plies": 40' in output
    code, output = run("find", "--db", db, "--board", "10x10")
    assert code == 1


def test_every_help_names_it_and_generate_takes_it(twelve: boards.HuepferBoard) -> None:
    """The help texts write the boards from the registry when they are shown."""
    for command in (["generate"], ["show"], ["moves"]):
        code, output = run(*command, "--help")
        assert code == 0 and "12x12" in " ".join(output.split()), (command, output)
    code, output = run("generate", "--help")
    assert "--board [6x6|8x8|10x10|12x12]" in output
    code, output = run("generate", "--game", "Hüpfer", "--board", "12x12", "--max-plies", "4")
    assert code == 0, output
    assert '[Board "12x12"]' in output


def test_the_editor_offers_it(twelve: boards.HuepferBoard, tmp_path: Path) -> None:
    _arch, db = indexed_archive(tmp_path)
    page = client(db, (tmp_path,)).get("/editor").text
    offered = re.search(r'<select name="Board">(.*?)</select>', page)
    assert offered is not None
    assert re.findall(r'<option value="([^"]+)">', offered.group(1)) == [
        "6x6",
        "8x8",
        "10x10",
        "12x12",
    ]
    assert "Board (Hüpfer)" in page and "First to move (Hexalit, Trigeo)" in page
