"""A crosstable is bounded: up to ``MAX_TABLE_PLAYERS`` players it is the
full table, a row and a column each; beyond, every format of ``hexhop
crosstable`` and the web's event page list each player's games, so that
what they write and do grows with the games, not with their square."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from archive_helpers import run

from hexhop.archive.standings import MAX_TABLE_PLAYERS, Crosstable, listing_note

LISTED = MAX_TABLE_PLAYERS + 1  # the fewest players a listing has
MANY = 400  # players of a ring whose full table would be 160,000 cells


def ring(players: int, event: str = "Big") -> str:
    """``players`` players in a ring, each beating the next with North
    (P0-P1, P1-P2, ..., the last one - P0): every player won one game and
    lost one, so all are level on points and on the tie-break."""
    return "".join(
        f'[Game "Hexalit"]\n[Event "{event}"]\n[Date "2026.01.01"]\n[North "P{i}"]\n'
        f'[South "P{(i + 1) % players}"]\n[Result "1-0"]\n\n1-0\n\n'
        for i in range(players)
    )


@pytest.fixture(scope="module")
def rings(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    folder = tmp_path_factory.mktemp("rings")
    made = {}
    for players in (MAX_TABLE_PLAYERS, LISTED, MANY):
        made[players] = folder / f"ring{players}.hxl"
        made[players].write_text(ring(players), "utf-8")
    return made


def table_of(players: int) -> Crosstable:
    from types import SimpleNamespace

    return Crosstable.of(
        SimpleNamespace(
            game="Hexalit", winner="North", first=f"P{i}", second=f"P{(i + 1) % players}"
        )
        for i in range(players)
    )


# -- the library ---------------------------------------------------------------------


def test_the_table_is_full_up_to_the_limit_and_a_listing_beyond() -> None:
    full, listed = table_of(MAX_TABLE_PLAYERS), table_of(LISTED)
    assert full.full and not listed.full
    assert len(full.rows()[0]) == 2 + MAX_TABLE_PLAYERS + 5
    assert listed.rows()[0] == ["#", "player", "points", "SB", "won", "lost", "open", "games"]
    assert len(listed.rows()) == LISTED + 1
    # all level: by name, P0, P1, P10, ...; P0 beat P1 (number 2), lost to P50
    number = {name: i for i, name in enumerate(listed.players, 1)}
    assert listed.rows()[1] == [1, "P0", 1, 1, 1, 1, 0, f"2:1-0 {number['P50']}:0-1"]
    assert str(listed) == listed.standings() == listed.listing()
    assert (
        listed.listing().split("\n")[1]
        == f"1 P0        1    1    1    1    0  2:1-0 {number['P50']}:0-1"
    )


def test_a_listing_looks_at_each_game_a_bounded_number_of_times(monkeypatch) -> None:
    """The standings' order, the tie-break and the listing cost what the
    games cost: no player is compared with every other."""
    calls = {"cell": 0}
    cell = Crosstable.cell

    def counted(self: Crosstable, player: str, other: str) -> str:
        calls["cell"] += 1
        return cell(self, player, other)

    monkeypatch.setattr(Crosstable, "cell", counted)
    table = table_of(2_000)
    rows = table.listing_rows()
    table.as_json()
    assert len(rows) == 2_001
    assert calls["cell"] == 2 * 2 * 2_000  # two games a player, in the listing and the JSON


def test_the_text_pads_a_long_name_only_on_its_own_line() -> None:
    table = Crosstable.of(
        [
            _Row("Hexalit", "North", "A" * 1_000, "Bo"),
            _Row("Hexalit", "North", "Bo", "Cy"),
        ]
    )
    lines = table.standings().split("\n")
    # the names padded to 40 characters, then 3 columns of 5 and 27 of counts
    assert [len(line) for line in lines] == [82, 2 + 1_000 + 15 + 27, 82, 82]


class _Row:
    def __init__(self, game: str, winner: str, first: str, second: str) -> None:
        self.game, self.winner, self.first, self.second = game, winner, first, second


# -- the command, every format -------------------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "csv", "json", "html"])
def test_every_format_at_the_limit_is_the_full_table(rings, fmt) -> None:
    done = run("crosstable", rings[MAX_TABLE_PLAYERS], "--scan", "--format", fmt, "-q")
    assert done.exit_code == 0, done.output
    assert done.stderr == ""
    rows = _rows(fmt, done.stdout)
    assert len(rows) == MAX_TABLE_PLAYERS + 1
    if fmt != "json":
        # text: a number per player and five words; else # and player too
        assert len(rows[0]) == MAX_TABLE_PLAYERS + (5 if fmt == "text" else 7)


@pytest.mark.parametrize("players", [LISTED, MANY])
@pytest.mark.parametrize("fmt", ["text", "csv", "json", "html"])
def test_every_format_beyond_the_limit_lists_the_games(rings, fmt, players) -> None:
    done = run("crosstable", rings[players], "--scan", "--format", fmt, "-q")
    assert done.exit_code == 0, done.output
    note = f"{players} players: more than the {MAX_TABLE_PLAYERS} a crosstable shows as a table;"
    assert done.stderr == (
        "" if fmt == "json" else note + " each player's games are listed instead\n"
    )
    rows = _rows(fmt, done.stdout)
    assert len(rows) == players + 1
    if fmt != "json":
        assert len(rows[0]) == (6 if fmt == "text" else 8)  # text: no # and player
    # as long as the games (a player's two), not a column each: bytes a player
    # (json: and each player's spellings)
    bound = {"text": 90, "csv": 60, "html": 170, "json": 550}[fmt]
    assert len(done.stdout.encode()) < bound * players


def _rows(fmt: str, text: str) -> list[list[str]]:
    """The heading and a row per player, in any format."""
    if fmt == "csv":
        return list(csv.reader(io.StringIO(text)))
    if fmt == "json":
        return [["head"]] + [[p["player"]] for p in json.loads(text)]
    if fmt == "html":
        return [re.findall(r"<t[hd]>", row) for row in re.findall(r"<tr>.*?</tr>", text)]
    # text: the heading and a blank line, the table, then a blank line and the legend
    table = text.split("\n\n")[1]
    return [line.split() for line in table.splitlines()]


def test_the_json_lists_only_the_opponents_met_whatever_the_players(rings) -> None:
    done = run("crosstable", rings[MANY], "--scan", "--format", "json", "-q")
    first = json.loads(done.stdout)[0]
    assert first["player"] == "P0"
    assert first["against"] == {
        "P1": {"won": 1, "lost": 0, "open": 0},
        f"P{MANY - 1}": {"won": 0, "lost": 1, "open": 0},
    }


@pytest.mark.parametrize("players", [MAX_TABLE_PLAYERS, LISTED, MANY])
def test_the_pdf_is_a_page_of_table_or_pages_of_listing(rings, tmp_path, players) -> None:
    out = tmp_path / "c.pdf"
    done = run("crosstable", rings[players], "--scan", "--format", "pdf", "--out", out, "-q")
    assert done.exit_code == 0, done.output
    data = out.read_bytes()
    pages = len(re.findall(rb"/Type\s*/Page\b", data))
    # A4: about 45 lines a page, a player's standing and games on two lines
    assert pages == {MAX_TABLE_PLAYERS: 1, LISTED: 3, MANY: 18}[players]
    assert len(data) < 200 * players + 20_000
    wide = "the table is wider than an upright page: laid out in landscape\n"
    assert done.stderr == (wide if players == MAX_TABLE_PLAYERS else listing_note(players) + "\n")


def test_a_listing_in_german(rings) -> None:
    done = run("--lang", "de", "crosstable", rings[LISTED], "--scan", "-q")
    assert done.stderr == (
        f"{LISTED} Spieler: mehr als die {MAX_TABLE_PLAYERS}, die eine Kreuztabelle als Tabelle "
        "zeigt; stattdessen werden die Partien jedes Spielers aufgeführt\n"
    )
    assert done.stdout.split("\n")[2].split() == [
        "Punkte",
        "SB",
        "gewonnen",
        "verloren",
        "offen",
        "Partien",
    ]


def test_the_help_and_the_docs_name_the_limit_the_library_has() -> None:
    """The number is written in the help and the docs: they follow the constant."""
    root = Path(__file__).resolve().parent.parent
    assert f"Beyond {MAX_TABLE_PLAYERS} players" in " ".join(
        run("crosstable", "--help").stdout.split()
    )
    assert f"**At most {MAX_TABLE_PLAYERS} players in the table.**" in (
        root / "docs" / "archive.md"
    ).read_text("utf-8")
