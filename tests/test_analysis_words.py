"""Analysis a player can read: a ply that missed a win and allowed one gets
both notes; every note says in words who missed or allowed which win; the
critical moments of a game; the same answers from the index (``index
--analyse``, ``find --missed-win`` / ``--blunder``, ``stats``).

The example position (Hüpfer 6x6, Red to move) is checked here against
plain minimax (tests/test_solver.py): Red wins at once with b2-d2@e2 and
plays b2-b4-d4@e4, after which Turquoise wins in 2, and only with e5xe3.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_solver import exhaustive

from hexhop.cli.main import cli
from hexhop.engine.games import rules_for
from hexhop.engine.replay import replay_game
from hexhop.engine.solver import Solver, choice_text
from hexhop.messages import set_language
from hexhop.notation import read_archive
from hexhop.records.analysis import Moment, Note, critical_moments

BOTH = (
    '[Game "Hüpfer"]\n[Board "6x6"]\n[Red "Anna"]\n[Turquoise "Bert"]\n'
    '[Position "R: a1 a3 b2 b3 c2 c3 c4; T: d6 e5 e6 f3 f4 f5 f6; reserve: 1/0; turn: R"]\n'
    "\n1. b2-b4-d4@e4 *\n"
)
MISSED = "Red missed a win at once with 1. b2-d2@e2 at ply 1 (played 1. b2-b4-d4@e4)"
ALLOWED = "Red played 1. b2-b4-d4@e4 at ply 1 and allowed Turquoise a win in 2 with 1... e5xe3"
LINE = ["1... e5xe3", "2. c4-e4xe2", "2... f4-f2xd2xb2xb4"]


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    set_language("en")


def run(*args: object):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "both.hpf"
    path.write_text(BOTH, "utf-8")
    return path


def test_the_example_is_what_minimax_says() -> None:
    report = replay_game(next(iter(read_archive(BOTH.encode(), path="both.hpf"))))
    rules = rules_for("Hüpfer")
    before, after = report.positions
    assert exhaustive(rules, before, 1)  # Red wins at once …
    won = rules.play(before, next(a for a in rules.legal_actions(before) if str(a) == "b2-d2@e2"))
    assert won.position.winner == "Red"  # … with b2-d2@e2
    assert not exhaustive(rules, after, 1) and exhaustive(rules, after, 2)
    wins = Solver(rules).winning_choices(after, 2)
    assert wins is not None and [(choice_text(c), d) for c, d in wins] == [("e5xe3", 2)]


def test_analyse_gives_both_notes_in_words(record: Path) -> None:
    done = run("analyse", record)
    assert done.exit_code == 0
    assert done.output.splitlines() == [
        f"{record}:7:4: {MISSED}",
        f"{record}:7:4: {ALLOWED}",
        "player  missed  allowed",
        "Anna         1        1",
        "analysed 1 game, 1 ply: 1 missed, 1 allowed (0.0 s)",
    ]


def test_analyse_json_has_the_winner_the_line_and_the_critical_moments(record: Path) -> None:
    done = run("analyse", record, "--format", "json")
    (game,) = json.loads(done.output)["files"][0]["games"]
    assert game["players"] == {"Red": "Anna", "Turquoise": "Bert"}
    missed, allowed = game["notes"]
    assert missed == {
        "kind": "missed",
        "ply": 1,
        "side": "Red",
        "line": 7,
        "column": 4,
        "played": "b2-b4-d4@e4",
        "depth": 1,
        "first": "1. b2-d2@e2",
        "message": MISSED,
        "winner": "Red",
        "win_line": ["1. b2-d2@e2"],
    }
    assert (allowed["kind"], allowed["side"], allowed["winner"]) == ("allows", "Red", "Turquoise")
    assert (allowed["depth"], allowed["first"], allowed["message"]) == (2, "1... e5xe3", ALLOWED)
    assert allowed["win_line"] == LINE
    assert game["critical"] == [
        {"ply": 0, "kind": "appeared", "winner": "Red", "depth": 1, "first": "1. b2-d2@e2"},
        {"ply": 1, "kind": "missed", "winner": "Red", "depth": 1, "first": "1. b2-d2@e2"},
        {"ply": 1, "kind": "allows", "winner": "Turquoise", "depth": 2, "first": "1... e5xe3"},
    ]


def test_the_annotated_copy_marks_the_ply_with_both_notes(record: Path, tmp_path: Path) -> None:
    out = tmp_path / "annotated.hpf"
    assert run("analyse", record, "--annotate", out).exit_code == 0
    movetext = " ".join(out.read_text("utf-8").split("\n\n", 1)[1].split())
    assert movetext == f"1. b2-b4-d4@e4?? {{{MISSED}}} {{{ALLOWED}}} *"


def test_german_words(record: Path) -> None:
    done = run("--lang", "de", "analyse", record)
    assert done.output.splitlines()[:4] == [
        f"{record}:7:4: Rot hat in Halbzug 1 einen Sofortgewinn mit 1. b2-d2@e2 verpasst "
        "(gespielt 1. b2-b4-d4@e4)",
        f"{record}:7:4: Rot ließ mit 1. b2-b4-d4@e4 (Halbzug 1) Türkis einen Gewinn in 2 "
        "mit 1... e5xe3 zu",
        "Spieler  verpasst  zugelassen",
        "Anna            1           1",
    ]


def test_the_index_keeps_both_notes_and_find_and_stats_tell_them(
    record: Path, tmp_path: Path
) -> None:
    db = tmp_path / "club.sqlite"
    assert run("index", record, "--db", db, "--analyse").exit_code == 0
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT kind, ply, side, depth, first, played FROM notes ORDER BY kind"
        ).fetchall()
    assert rows == [
        ("allows", 1, "Red", 2, "1... e5xe3", "b2-b4-d4@e4"),
        ("missed", 1, "Red", 1, "1. b2-d2@e2", "b2-b4-d4@e4"),
    ]
    for option, words in (("--missed-win", MISSED), ("--blunder", ALLOWED)):
        table = run("find", "--db", db, option).output.splitlines()
        assert table[1].split()[:3] == ["Anna", "–", "Bert"]
        assert table[2:] == [f"  {words}"]
        (hit,) = json.loads(run("find", "--db", db, option, "--format", "json").output)
        assert hit["ply"] == 1 and [n["message"] for n in hit["notes"]] == [words]
        csv = run("find", "--db", db, option, "--format", "csv").output.splitlines()
        assert csv[0].endswith(",ply,notes") and csv[1].endswith(f",1,{words}")
    both = run("find", "--db", db, "--missed-win", "--blunder").output.splitlines()
    assert both[2:] == [f"  {MISSED}", f"  {ALLOWED}"]
    german = run("--lang", "de", "find", "--db", db, "--blunder").output.splitlines()
    assert german[2] == (
        "  Rot ließ mit 1. b2-b4-d4@e4 (Halbzug 1) Türkis einen Gewinn in 2 mit 1... e5xe3 zu"
    )
    players = run("stats", "--db", db).output
    anna = next(line for line in players.splitlines() if line.strip().startswith("Anna"))
    assert anna.split()[-3:] == ["1", "1", "1"]  # analysed, missed, blunders


def test_a_win_appears_once_for_a_side_until_it_is_lost() -> None:
    notes = [Note("allows", 3, "North", "", depth=1, winner="South")]
    solved = [(0, "none", 2), (1, "none", 2), (2, "win", 2), (3, "win", 1), (4, "win", 1)]
    solved += [(5, "none", 2), (6, "win", 1), (7, "undecided", 1), (8, "none", 2)]
    solved += [(9, "none", 2), (10, "win", 2)]
    sides = ("North", "South")
    found = critical_moments(notes, solved, lambda ply: sides[ply % 2])
    assert found == [
        Moment(2, "appeared", "North", 2),  # a win of its own making
        Moment(3, "allows", "South", 1),  # given: told once, as given
        # 4 and 6: North's win of ply 2, kept
        Moment(10, "appeared", "North", 2),  # lost at 8, found again
    ]
