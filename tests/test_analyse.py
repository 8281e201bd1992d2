"""``hexhop analyse``: missed wins, allowed wins, JSON, annotated copies and
bad input."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from hexhop.cli.main import cli
from hexhop.engine.replay import replay_game
from hexhop.notation import read_archive
from hexhop.records.analysis import Settings, analyse_game, move_number

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "samples" / "good"
TRIGEO = GOOD / "trigeo-goettingen-1999.trg"
HUEPFER = GOOD / "huepfer-6x6-bremen-2003.hpf"
BROKEN = ROOT / "samples" / "broken" / "illegal-hexalit-pawn-capture.hxl"


def run(*args: str, input: bytes | None = None):
    return CliRunner().invoke(cli, ["analyse", *args], input=input, catch_exceptions=False)


def test_text_report_names_file_line_column_and_the_win() -> None:
    result = run(str(TRIGEO))
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[:3] == [
        f"{TRIGEO}:10:73: North played 2. B7°D7 at ply 3 and allowed South a win at once "
        "with 2... E7°D7",
        f"{TRIGEO}:11:1: South missed a win at once with 2... E7°D7 at ply 4 (played 2... E8°D7)",
        f"{TRIGEO}:17:5: North played 20. D7XC5 at ply 39 and allowed South a win at once "
        "with 20... E6XD5",
    ]
    # each player's missed and allowed wins, then the summary
    assert lines[3:6] == [
        "player       missed  allowed",
        "Ute Sommer        0        2",
        "Karl Brandt       1        0",
    ]
    assert lines[6].startswith("analysed 1 game, 40 plies: 1 missed, 2 allowed (")


def test_a_longer_win_is_named_with_its_first_action() -> None:
    result = run(str(HUEPFER))
    assert (
        f"{HUEPFER}:13:46: Red missed a win in 2 with 4. a1-c1-c3@c4 at ply 7 "
        "(played 4. a1-c1-c3-a3@a2)"
    ) in result.output.splitlines()
    # depth 1 does not see it
    assert "win in 2" not in run(str(HUEPFER), "--depth", "1").output


def test_json_report() -> None:
    result = run(str(TRIGEO), "--format", "json")
    assert result.exit_code == 0
    document = json.loads(result.output)
    assert document["depth"] == 2
    (game,) = document["files"][0]["games"]
    assert (game["plies"], game["analysed"]) == (40, 40)
    assert [(n["kind"], n["ply"], n["side"], n["depth"], n["first"]) for n in game["notes"]] == [
        ("allows", 3, "North", 1, "2... E7°D7"),
        ("missed", 4, "South", 1, "2... E7°D7"),
        ("allows", 39, "North", 1, "20... E6XD5"),
    ]
    assert game["notes"][1]["played"] == "E8°D7"
    assert (game["notes"][1]["line"], game["notes"][1]["column"]) == (11, 1)


def test_annotated_copy_is_a_valid_record_and_the_input_is_untouched(tmp_path: Path) -> None:
    before = TRIGEO.read_bytes()
    out = tmp_path / "annotated.trg"
    assert run(str(TRIGEO), "--annotate", str(out)).exit_code == 0
    assert TRIGEO.read_bytes() == before
    text = out.read_text("utf-8")
    assert (
        "20. D7XC5??\n{North played 20. D7XC5 at ply 39 and allowed South a win at once "
        "with 20... E6XD5}"
    ) in text
    assert "2. B7°D7??" in text
    assert "2... E8°D7?" in text
    assert "{South missed a win at once with 2... E7°D7 at ply 4 (played 2... E8°D7)}" in text
    check = CliRunner().invoke(cli, ["check", "--strict", str(out)])
    assert check.exit_code == 0, check.output
    fmt = CliRunner().invoke(cli, ["fmt", "--check", str(out)])
    assert fmt.exit_code == 0, fmt.output
    # not over an existing file without --force, never over the input
    again = run(str(TRIGEO), "--annotate", str(out))
    assert again.exit_code == 2 and "exists; use --force" in again.output
    assert run(str(TRIGEO), "--annotate", str(out), "--force").exit_code == 0
    itself = run(str(TRIGEO), "--annotate", str(TRIGEO))
    assert itself.exit_code == 2 and f"cannot write {TRIGEO}: it is the input" in itself.output
    assert TRIGEO.read_bytes() == before
    two = run(str(TRIGEO), str(HUEPFER), "--annotate", str(tmp_path / "x"))
    assert two.exit_code == 2 and "exactly one RECORD" in two.output


def test_an_illegal_record_is_analysed_up_to_the_illegal_action() -> None:
    result = run(str(BROKEN))
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == (
        f"{BROKEN}:8:9: the analysis stops here: IL01 ply 2, South: E6°D5 is not legal: "
        "the 2 on E6 moves only forward to D6 when it is empty, and captures only on D5 or D7 "
        "when a North die stands there, and D5 is empty; this die can play E6W1, E6W2, E6W3, "
        "E6W4, E6W5, E6W6, E6XD6"
    )
    assert "analysed 1 game, 1 ply" in result.output


def test_unreadable_input_is_exit_2(tmp_path: Path) -> None:
    result = run(str(tmp_path / "missing.hxl"))
    assert result.exit_code == 2
    assert "missing.hxl: IO01 cannot read" in result.output


# North's roll of E6 wins only when it shows 1 (tests/test_solver.py)
LUCKY = """[Game "Hexalit"]
[Position "N: A4=6 A6=3 A8=4 A9=3 A10=5 B7=1 B9=2 C4=2 C5=2 C7=2 C8=2 C11=4 E2=5 E6=2 E10=2; S: B11=2 D4=2 D7=2 E5=2 E7=1 E8=2 E9=2 E11=3 F5=5 F6=3 F8=4 F9=6 F10=5; turn: N"]
[Result "*"]

1. B7XA7 *
"""


def test_a_lucky_roll_that_was_not_played_is_not_a_missed_win() -> None:
    (parsed,) = read_archive(LUCKY.encode(), path="lucky.hxl")
    analysis = analyse_game(replay_game(parsed), Settings(depth=1))
    assert analysis.analysed == 1
    assert [n.kind for n in analysis.notes if n.ply == 1 and n.side == "North"] == []


def test_move_numbers() -> None:
    assert [move_number(p) for p in (1, 2, 27, 28)] == ["1.", "1...", "14.", "14..."]


def test_jobs_give_the_same_report() -> None:
    one = run(str(TRIGEO), str(HUEPFER), "--format", "json")
    two = run(str(TRIGEO), str(HUEPFER), "--format", "json", "-j", "2")
    strip = lambda doc: [  # noqa: E731
        [g["notes"] for g in f["games"]] for f in json.loads(doc)["files"]
    ]
    assert strip(one.output) == strip(two.output)


def test_german() -> None:
    result = CliRunner().invoke(cli, ["--lang", "de", "analyse", str(TRIGEO)])
    lines = result.output.splitlines()
    assert (
        f"{TRIGEO}:11:1: Süd hat in Halbzug 4 einen Sofortgewinn mit 2... E7°D7 verpasst "
        "(gespielt 2... E8°D7)" in lines
    )
    assert (
        f"{TRIGEO}:10:73: Nord ließ mit 2. B7°D7 (Halbzug 3) Süd einen Sofortgewinn "
        "mit 2... E7°D7 zu" in lines
    )
    assert lines[-1].startswith("1 Partie untersucht, 40 Halbzüge: 1 verpasst, 2 zugelassen (")


def test_a_file_name_cannot_drive_the_terminal(tmp_path: Path) -> None:
    path = tmp_path / "a\x1b[31mb.trg"
    path.write_text('[Game "Trigeo"]\n\n1. C7°D7 E6°D7 2. B7°D7 E8°D7 *\n', "utf-8")
    result = run(str(path))
    assert "\x1b" not in result.output
    assert (
        "a\\x1b[31mb.trg:3:25: South missed a win at once with 2... E7°D7 at ply 4" in result.output
    )


def test_a_search_beyond_its_limit_is_undecided_not_guessed() -> None:
    lines = run(str(TRIGEO), "--max-nodes", "50").output.splitlines()
    assert f"{TRIGEO}:10:4: ply 1, North: undecided within the limit (searched to depth 1)" in lines
    tiny = run(str(TRIGEO), "--max-nodes", "1").output.splitlines()
    assert f"{TRIGEO}:10:4: ply 1, North: undecided within the limit" in tiny
    assert not any("missed" in line or "allows" in line for line in tiny[:-1])
