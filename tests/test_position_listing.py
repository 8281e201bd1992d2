"""The rules' own position listing: ``A4-5 / A5-4 / …``, one
line per side, read wherever Position text is read and written by
``show --format listing``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from archive_helpers import run

import hexhop
from hexhop.engine.base import HeaderError
from hexhop.engine.games import rules_for

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "good"

# the start as the rules list it (the sheet's second B5 is B6, docs/rules.md §2),
# North's three rows on one line, South's on the next
RULES_NORTH = (
    "A4-5 / A5-4 / A6-3 / A7-1 / A8-4 / A9-3 / A10-5 / "
    "B4-2 / B5-2 / B6-2 / B7-6 / B8-2 / B9-2 / B10-2 / C7-2"
)
RULES_SOUTH = (
    "D7-2 / E4-2 / E5-2 / E6-2 / E7-6 / E8-2 / E9-2 / E10-2 / "
    "F4-5 / F5-4 / F6-3 / F7-1 / F8-4 / F9-3 / F10-5"
)
RULES_LISTING = f"{RULES_NORTH}\n{RULES_SOUTH}"


@pytest.mark.parametrize("game", ["Hexalit", "Trigeo"])
def test_the_rules_listing_is_the_engine_start(game: str) -> None:
    start = rules_for(game).start({})
    assert hexhop.position(game, RULES_LISTING) == start
    # one line, as a Position tag or --position holds it
    assert hexhop.position(game, f"{RULES_NORTH}; {RULES_SOUTH}") == start
    assert start.listing() == f"{RULES_LISTING}\nturn: N"


@pytest.mark.parametrize("game", ["Hexalit", "Trigeo"])
@pytest.mark.parametrize("first", ["North", "South"])
def test_every_start_round_trips(game: str, first: str) -> None:
    rules = rules_for(game)
    start = rules.start({"First": first})
    listing = start.listing()
    assert listing == f"{RULES_LISTING}\nturn: {first[0]}"
    again = hexhop.position(game, listing)
    assert again == start and again.to_move == first
    assert again.listing() == listing


def test_the_side_to_move_defaults_as_for_position_text() -> None:
    # no turn line: the First tag, else North (the rules' first party)
    assert hexhop.position("Hexalit", RULES_LISTING).to_move == "North"
    south = rules_for("Hexalit").parse_position(RULES_LISTING, {"First": "South"})
    assert south.to_move == "South"
    record = f'[Game "Hexalit"]\n[Position "{RULES_NORTH}; {RULES_SOUTH}"]\n\n1. B4W3 *\n'
    (game,) = hexhop.read_games(record.encode())
    assert game.findings == []
    assert game.positions[0] == rules_for("Hexalit").start({})
    assert game.positions[1].text().startswith("N: A4=5 A5=4 A6=3 A7=1 A8=4 A9=3 A10=5 B4=3/2 ")


def test_a_listing_line_after_a_keyed_side_is_the_other_side() -> None:
    position = hexhop.position("Hexalit", "S: D7=2; A4-5 / C7-2")
    assert position.text() == "N: A4=5 C7=2; S: D7=2; turn: N"


def test_rolled_dice_cube_and_an_empty_side() -> None:
    listing = "A4-5-2 / C7-1\n-\nturn: S\ncube: 4"
    position = hexhop.position("Hexalit", listing)
    assert position.text() == "N: A4=5/2 C7=1; S:; turn: S; cube: 4"
    assert position.listing() == listing


@pytest.mark.parametrize("game", ["Hexalit", "Trigeo"])
def test_generated_positions_round_trip(game: str, tmp_path: Path) -> None:
    out = tmp_path / "random.txt"
    result = run("generate", "--game", game, "--count", "3", "--seed", "7", "--out", out, "-q")
    assert result.exit_code == 0, result.output
    positions = [p for g in hexhop.read_games(out) for p in g.positions]
    assert len(positions) > 30
    for position in positions:
        listing = position.listing()
        again = hexhop.position(game, listing)
        assert again == position and again.text() == position.text()
        assert again.listing() == listing
        # the listing and the Position text name the same position
        assert hexhop.position(game, listing.replace("\n", "; ")) == again


BAD = [
    (
        "A4-5 / A5=4\n" + RULES_SOUTH,
        "HD05 bad Position value: 'A5=4' is not a die of a listing: write cell-face, "
        "e.g. A4-5, or C5-4-2 for a rolled die",
    ),
    (
        "A4-5 / / A5-4\n" + RULES_SOUTH,
        "HD05 bad Position value: 'A4-5 / / A5-4': a listing has one die between two slashes",
    ),
    (
        "A4-5; D7-2; E4-2",
        "HD05 bad Position value: a listing has one line per side, North's then South's; "
        "a third line 'E4-2'",
    ),
    ("A4-5 / A4-3\nD7-2", "HD05 bad Position value: A4 is given twice"),
    ("A4-9\nD7-2", "HD05 bad Position value: 'A4-9': a die shows 1 to 6"),
    ("Z4-1\nD7-2", "HD05 bad Position value: 'Z4-1': Z4 is not on the board"),
    (
        "A4-5",
        "HD05 bad Position value: the South dice are missing: expected 'S: cell=face ...'",
    ),
    ("A4-5\nN: A5=4", "HD05 bad Position value: 'N:' is given twice"),
]


@pytest.mark.parametrize(("text", "message"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_listing_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(HeaderError) as error:
        hexhop.position("Hexalit", text)
    assert str(error.value) == message


def test_trigeo_listing_with_a_rolled_die_is_refused() -> None:
    with pytest.raises(HeaderError) as error:
        hexhop.position("Trigeo", "A4-5-2\nD7-2")
    assert str(error.value) == (
        "HD05 bad Position value: 'A4-5-2': dice are never rolled in Trigeo, "
        "so no die shows a rolled face"
    )


def test_show_format_listing() -> None:
    result = run("show", SAMPLES / "hexalit-kassel-1998.hxl", "--ply", "0", "--format", "listing")
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{RULES_LISTING}\nturn: N\n"
    listing = "A7-1 / B7-6; F7-1 / E7-6; turn: S"
    result = run("show", "--game", "Trigeo", "--position", listing, "--format", "listing")
    assert (result.exit_code, result.stdout) == (0, "A7-1 / B7-6\nE7-6 / F7-1\nturn: S\n")
    result = run("show", "--game", "Trigeo", "--position", listing, "--format", "position")
    assert result.stdout == "N: A7=1 B7=6; S: E7=6 F7=1; turn: S\n"


def test_show_format_listing_of_a_huepfer_position_is_a_usage_error() -> None:
    result = run("show", SAMPLES / "huepfer-6x6-bremen-2003.hpf", "--format", "listing")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.endswith(
        "Error: --format listing is for Hexalit and Trigeo; Hüpfer has none "
        "(--format position gives its Position text)\n"
    )


def test_a_bad_listing_on_the_command_line() -> None:
    result = run("show", "--game", "Hexalit", "--position", "A4-5 / A5=4; D7-2")
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert result.stderr.endswith(
        "'A5=4' is not a die of a listing: write cell-face, e.g. A4-5, or C5-4-2 for a rolled die\n"
    )


def test_find_position_takes_a_listing(tmp_path: Path) -> None:
    shutil.copy(SAMPLES / "hexalit-kassel-1998.hxl", tmp_path)
    shutil.copy(SAMPLES / "trigeo-goettingen-1999.trg", tmp_path)
    (game,) = hexhop.read_games(SAMPLES / "hexalit-kassel-1998.hxl")
    listing = game.positions[3].listing().replace("\n", "; ")
    result = run("find", tmp_path, "--scan", "--position", listing, "--format", "jsonl")
    assert result.exit_code == 0, result.output
    found = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(Path(g["path"]).name, g["ply"]) for g in found] == [("hexalit-kassel-1998.hxl", 3)]
