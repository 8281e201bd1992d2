"""``hexhop ratings``: Elo ratings over the club archive of
tests/standings_helpers.py, worked out by hand, from an index and a scan."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from archive_helpers import run
from standings_helpers import club

from hexhop.archive.standings import Game, expected, rate

# By hand, K = 20 from 1500, in date order (the Cup game is first in the
# file but last by date; the open game and the undated one are left out):
#   01.10 Anna beat Ben (1500-1500, expected 0.5): Anna 1510, Ben 1490
#   01.10 Dora beat Cem: Dora 1510, Cem 1490
#   01.17 Cem (1490) beat Anna (1510): Anna expected 1/(1+10^(-20/400))
#         = 0.528751, moves by 20 * 0.528751 = 10.575: Anna 1499.425, Cem 1500.575
#   01.17 Ben (1490) beat Dora (1510): the same 10.575: Ben 1500.575, Dora 1499.425
#   01.24 Anna beat Dora (level): Anna 1509.425, Dora 1489.425
#   02.01 Ben (1500.575) beat Anna (1509.425) by the dropped cube: Ben
#         expected 1/(1+10^(8.850/400)) = 0.487267, moves by 20 * 0.512733
#         = 10.255: Ben 1510.830, Anna 1499.170
# The change: over the event of the last game rated (the Cup), Ben +10.255
# and Anna -10.255; the others did not play in it.
TEXT = """\
Hexalit after Cup: Elo ratings (start 1500, K 20) of 6 games
  player   rating   change  games
  Ben      1510.8    +10.3      3
  Cem      1500.6     \u00b10.0      2
  Anna     1499.2    -10.3      4
  Dora     1489.4     \u00b10.0      3

After Club
  Anna     1509.4
  Ben      1500.6
  Cem      1500.6
  Dora     1489.4

After Cup
  Ben      1510.8
  Anna     1499.2
"""


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return club(tmp_path_factory.mktemp("ratings"))


def test_the_text_from_a_scan_and_from_the_index(archive: tuple[Path, Path]) -> None:
    folder, db = archive
    for args in (["--scan", folder], ["--db", db], [folder]):
        done = run("ratings", *args, "-q")
        assert done.exit_code == 0, done.output
        assert done.stdout == TEXT
        # the undated game is reported even with -q
        assert done.stderr == "left out: 1 game without a date\n"
    done = run("ratings", "--db", db)
    assert done.stderr == "left out: 1 game without a date\nleft out: 1 game without a winner\n"


def test_json(archive: tuple[Path, Path]) -> None:
    folder, db = archive
    indexed = json.loads(run("ratings", "--db", db, "--format", "json", "-q").stdout)
    assert json.loads(run("ratings", folder, "--scan", "--format", "json", "-q").stdout) == indexed
    hexalit = {"game": "Hexalit", "board": None}
    players = [
        {"player": "Ben", "rating": 1510.83, "games": 3, "change": 10.25},
        {"player": "Cem", "rating": 1500.58, "games": 2, "change": 0.0},
        {"player": "Anna", "rating": 1499.17, "games": 4, "change": -10.25},
        {"player": "Dora", "rating": 1489.42, "games": 3, "change": 0.0},
    ]
    events = [
        {
            "event": "Club",
            "ratings": {"Anna": 1509.42, "Ben": 1500.58, "Cem": 1500.58, "Dora": 1489.42},
        },
        {"event": "Cup", "ratings": {"Anna": 1499.17, "Ben": 1510.83}},
    ]
    # the fields of before, every list's players and events with their game
    # and board, and each list whole
    assert indexed == {
        "start": 1500.0,
        "k": 20.0,
        "games": 6,
        "undated": 1,
        "open": 1,
        "players": [{**row, **hexalit} for row in players],
        "events": [{**row, **hexalit} for row in events],
        "lists": [
            {
                **hexalit,
                "after": "Cup",
                "start": 1500.0,
                "k": 20.0,
                "games": 6,
                "undated": 1,
                "open": 1,
                "players": players,
                "events": events,
            }
        ],
        "set_aside": 0,
    }


def test_one_event_and_the_filters(archive: tuple[Path, Path]) -> None:
    _, db = archive
    cup = json.loads(run("ratings", "--db", db, "--event", "Cup", "--format", "json", "-q").stdout)
    # the ratings after the Cup: over the whole archive up to the Cup's last
    # game in date order (not the Cup alone from 1500), of the Cup's players,
    # each with the change over the Cup (Ben beat Anna: 10.255)
    assert [(p["player"], p["rating"], p["change"]) for p in cup["players"]] == [
        ("Ben", 1510.83, 10.25),
        ("Anna", 1499.17, -10.25),
    ]
    assert cup["lists"][0]["after"] == "Cup"
    club_after = json.loads(
        run("ratings", "--db", db, "--event", "Club", "--format", "json").stdout
    )
    assert [(p["player"], p["rating"]) for p in club_after["players"]] == [
        ("Anna", 1509.42),
        ("Ben", 1500.58),
        ("Cem", 1500.58),
        ("Dora", 1489.42),
    ]
    # Dora's dated, decided games: she beat Cem (1510, 1490); Ben (1500)
    # beat her (expected 1/(1+10^(10/400)) = 0.485612: Ben 1510.288, Dora
    # 1499.712); Anna (1500) beat her (expected 0.500414: moves by 9.992)
    dora = json.loads(run("ratings", "--db", db, "--player", "Dora", "--format", "json").stdout)
    assert [(p["player"], p["rating"]) for p in dora["players"]] == [
        ("Ben", 1510.29),
        ("Anna", 1509.99),
        ("Cem", 1490.0),
        ("Dora", 1489.72),
    ]


def test_the_formula() -> None:
    assert expected(1500, 1500) == 0.5
    assert round(expected(1510, 1490), 6) == 0.528751
    # same date: archive order; a date with unknown parts sorts before the known days
    games = [
        Game("x", "Hexalit", "North", "A", "B", "2026.03.??", "E"),
        Game("x", "Hexalit", "North", "B", "A", "2026.03.01", "E"),
        Game("x", "Hexalit", "North", "C", "A", "????.??.??", "E"),
    ]
    result = rate(games)
    assert (result.rated, result.undated) == (2, 1)
    # A beat B first (1510, 1490), then B beat A: 20 * (1 - 0.471249) = 10.575
    assert round(result.ratings["A"], 3) == 1499.425
    assert round(result.ratings["B"], 3) == 1500.575


def test_no_game_rated_and_bad_input(archive: tuple[Path, Path]) -> None:
    _, db = archive
    done = run("ratings", "--db", db, "--event", "Nothing")
    assert (done.exit_code, done.stdout, done.stderr) == (1, "", "no game rated\n")
    long = run("ratings", "--db", db, "--event", "[a-" * 334)
    assert long.exit_code == 2
    assert "--event: the pattern is 1002 characters long; at most 1000 are read" in long.stderr
