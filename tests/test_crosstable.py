"""``hexhop crosstable``: the crosstable of an event, worked
out by hand for a small club archive, from an index and from a scan alike."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from archive_helpers import GOOD, run
from standings_helpers import club

from hexhop.archive.standings import Crosstable, Game

# The Club, by hand: Anna beat Ben and Dora, lost to Cem (2 points); Cem
# beat Anna, lost to Dora, Ben-Cem open (1); Ben beat Dora (1); Dora beat
# Cem (1). Sonneborn-Berger: Anna 1 + 1 = 2, Cem 2 (Anna), Ben 1 (Dora),
# Dora 1 (Cem). Ben and Dora are level on both: Ben won their game.
CLUB_TEXT = (
    "Club \u00b7 2026.01.10\u20132026.01.24\n"
    "\n"
    "             1       2       3       4 points   SB  won lost open\n"
    "1 Anna       .     0-1     1-0     1-0      2    2    2    1    0\n"
    "2 Cem      1-0       . 0-0 (1)     0-1      1    2    1    1    1\n"
    "3 Ben      0-1 0-0 (1)       .     1-0      1    1    1    1    1\n"
    "4 Dora     0-1     1-0     0-1       .      1    1    1    2    0\n"
    "\n"
    "won-lost: the games won and lost against that player\n"
    "(n): and n games without a winner (not counted as won or lost)\n"
    ".: did not meet\n"
    "points: one per game won (the rules have no draws; a dropped cube is a loss)\n"
    "SB: Sonneborn-Berger: for each game won, the points of the player beaten\n"
    "level players are then ordered by head-to-head: the points in the games among the "
    "players still level\n"
)


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return club(tmp_path_factory.mktemp("crosstable"))


def test_the_text_table_from_a_scan_and_from_the_index(archive: tuple[Path, Path]) -> None:
    folder, db = archive
    for args in (["--scan", folder], ["--db", db], [folder]):
        done = run("crosstable", *args, "--event", "Club", "-q")
        assert done.exit_code == 0, done.output
        assert done.stdout == CLUB_TEXT


def test_json_has_each_players_points_as_a_number(archive: tuple[Path, Path]) -> None:
    folder, db = archive
    scanned = json.loads(
        run("crosstable", "--scan", folder, "--event", "Cl*", "--format", "json").stdout
    )
    indexed = json.loads(run("crosstable", "--db", db, "--event", "Cl*", "--format", "json").stdout)
    assert scanned == indexed
    assert [(p["rank"], p["player"], p["points"], p["sonneborn_berger"]) for p in scanned] == [
        (1, "Anna", 2, 2),
        (2, "Cem", 1, 2),
        (3, "Ben", 1, 1),
        (4, "Dora", 1, 1),
    ]
    assert scanned[1] == {
        "rank": 2,
        "player": "Cem",
        "points": 1,
        "sonneborn_berger": 2,
        "tie_breaks": {"sb": 2},
        "won": 1,
        "lost": 1,
        "open": 1,
        "against": {
            "Anna": {"won": 1, "lost": 0, "open": 0},
            "Ben": {"won": 0, "lost": 0, "open": 1},
            "Dora": {"won": 0, "lost": 1, "open": 0},
        },
        "spellings": [{"spelling": "Cem", "games": 3}],
    }


def test_csv(archive: tuple[Path, Path]) -> None:
    _, db = archive
    done = run("crosstable", "--db", db, "--event", "Club", "--format", "csv")
    assert list(csv.reader(io.StringIO(done.stdout))) == [
        ["#", "player", "1", "2", "3", "4", "points", "SB", "won", "lost", "open"],
        ["1", "Anna", ".", "0-1", "1-0", "1-0", "2", "2", "2", "1", "0"],
        ["2", "Cem", "1-0", ".", "0-0 (1)", "0-1", "1", "2", "1", "1", "1"],
        ["3", "Ben", "0-1", "0-0 (1)", ".", "1-0", "1", "1", "1", "1", "1"],
        ["4", "Dora", "0-1", "1-0", "0-1", ".", "1", "1", "1", "2", "0"],
    ]


def test_html_is_one_page_with_the_table(archive: tuple[Path, Path]) -> None:
    _, db = archive
    page = run("crosstable", "--db", db, "--event", "Club", "--format", "html").stdout
    assert page.startswith("<!DOCTYPE html>") and page.endswith("</html>\n")
    assert "<title>Club \u00b7 2026.01.10\u20132026.01.24</title>" in page
    assert "<tr><td>2</td><td>Cem</td><td>1-0</td><td>.</td><td>0-0 (1)</td><td>0-1</td>" in page
    assert "white-space:nowrap" in page
    assert "<li>(n): and n games without a winner (not counted as won or lost)</li>" in page


def test_a_dropped_cube_is_a_loss_and_every_event_by_default(archive: tuple[Path, Path]) -> None:
    _, db = archive
    cup = json.loads(run("crosstable", "--db", db, "--event", "Cup", "--format", "json").stdout)
    # Ben won the cube game, Cem the undated one
    assert [(p["player"], p["won"], p["lost"]) for p in cup] == [
        ("Ben", 1, 0),
        ("Cem", 1, 0),
        ("Anna", 0, 1),
        ("Dora", 0, 1),
    ]
    every = json.loads(run("crosstable", "--db", db, "--format", "json").stdout)
    assert [(p["player"], p["points"]) for p in every] == [
        ("Anna", 2),
        ("Ben", 2),
        ("Cem", 2),
        ("Dora", 1),
    ]


def test_the_samples_event() -> None:
    done = run("crosstable", GOOD, "--event", "Hüpfer-Abend", "--scan")
    assert done.stdout.splitlines()[:6] == [
        "Hüpfer-Abend \u00b7 Bremen \u00b7 2003.02.21\u20132003.04.11",
        "",
        "                 1    2    3 points   SB  won lost open",
        "1 Mira Hansen    .  2-0    .      2    2    2    0    0",
        "2 Paul Ohlsen  0-2    .  1-0      1    0    1    2    0",
        "3 Lena Voss      .  0-1    .      0    0    0    1    0",
    ]


def test_no_game_matched(archive: tuple[Path, Path]) -> None:
    _, db = archive
    done = run("crosstable", "--db", db, "--event", "Nothing*")
    assert (done.exit_code, done.stdout, done.stderr) == (1, "", "no game matched\n")
    assert run("crosstable", "--db", db, "--event", "Nothing", "--format", "json").stdout == "[]\n"


def test_bad_input_is_a_clear_message(archive: tuple[Path, Path], tmp_path: Path) -> None:
    _, db = archive
    long = run("crosstable", "--db", db, "--event", "*" * 1001)
    assert long.exit_code == 2
    assert "--event: the pattern is 1001 characters long; at most 1000 are read" in long.stderr
    missing = run("crosstable", "--db", tmp_path / "none.sqlite")
    assert missing.exit_code == 2 and "no index at" in missing.stderr
    nothing = run("crosstable")
    assert nothing.exit_code == 2
    assert "give ARCHIVE paths to read, or --db with an index" in nothing.stderr


def test_the_tie_break_head_to_head_then_name() -> None:
    # a cycle: A beat B, B beat C, C beat A: level on points (1), SB (1)
    # and head-to-head (1): by name
    games = [
        Game("x", "Hexalit", "North", "C", "A", None, None),
        Game("x", "Hexalit", "North", "A", "B", None, None),
        Game("x", "Hexalit", "North", "B", "C", None, None),
    ]
    assert Crosstable.of(games).players == ["A", "B", "C"]
    # Zed beat Amy, Amy beat Cy, Cy beat Dee: Zed and Amy level on points
    # (1) and SB (1: each beat a player of 1 point); Zed won their game
    games = [
        Game("x", "Hexalit", "North", "Zed", "Amy", None, None),
        Game("x", "Hexalit", "South", "Cy", "Amy", None, None),
        Game("x", "Hexalit", "North", "Cy", "Dee", None, None),
    ]
    table = Crosstable.of(games)
    assert [(n, table.points(n), table.tie_break(n)) for n in table.players] == [
        ("Zed", 1, 1),
        ("Amy", 1, 1),
        ("Cy", 1, 0),
        ("Dee", 0, 0),
    ]


def test_a_pdf_page_and_out_files(archive: tuple[Path, Path], tmp_path: Path) -> None:
    _, db = archive
    page = tmp_path / "club.pdf"
    done = run("crosstable", "--db", db, "--event", "Club", "--format", "pdf", "--out", page)
    assert (done.exit_code, done.stdout, done.stderr) == (0, "", f"wrote {page}\n")
    data = page.read_bytes()
    assert data.startswith(b"%PDF-")
    assert len(re.findall(rb"/Type\s*/Page(?![a-z])", data)) == 1  # one page
    # never over a file unless --force; pdf only to a file
    again = run("crosstable", "--db", db, "--event", "Club", "--format", "pdf", "--out", page)
    assert again.exit_code == 2 and "exists; use --force to overwrite it" in again.stderr
    assert page.read_bytes() == data
    no_out = run("crosstable", "--db", db, "--format", "pdf")
    assert no_out.exit_code == 2
    assert "--format pdf writes a file: give --out FILE.pdf" in no_out.stderr
    text = tmp_path / "club.txt"
    assert run("crosstable", "--db", db, "--event", "Club", "--out", text, "-q").stdout == ""
    assert text.read_text("utf-8") == CLUB_TEXT
