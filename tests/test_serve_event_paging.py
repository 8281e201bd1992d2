"""An event's page is bounded: a crosstable of more than ``MAX_TABLE_PLAYERS``
players is the listing of each player's games, and it and the ratings come
``STANDINGS_PAGE`` players to a page, whatever the players."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from serve_helpers import client, index_into
from test_crosstable_bounds import ring

from hexhop.archive.standings import MAX_TABLE_PLAYERS
from hexhop.serve.pages import STANDINGS_PAGE

MANY = 2 * STANDINGS_PAGE + 7  # three pages, the last one short


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("event-paging")
    games = folder / "games"
    games.mkdir()
    (games / "big.hxl").write_text(ring(MANY, "Big"), "utf-8")
    (games / "full.hxl").write_text(ring(MAX_TABLE_PLAYERS, "Full"), "utf-8")
    db = folder / "x.sqlite"
    index_into(db, games)
    return client(db, (games,))


def _table(text: str) -> str:
    return re.search(r'<table class="[a-z]+" id="crosstable">(.*?)</table>', text, re.S).group(1)


def _rows(table: str) -> list[list[str]]:
    body = table.split("</thead>")[1]
    return [
        re.findall(r"<td[^>]*>(?:<a[^>]*>)?([^<]*)", row)
        for row in body.split("</tr>")
        if "<td" in row
    ]


def test_at_the_limit_the_full_table_on_one_page(app) -> None:
    page = app.get("/events/Full")
    assert page.status_code == 200
    rows = _rows(_table(page.text))
    assert len(rows) == MAX_TABLE_PLAYERS
    assert len(rows[0]) == 2 + MAX_TABLE_PLAYERS + 5  # #, player, a cell each, points, SB, w l o
    assert 'class="pager"' not in page.text


def test_beyond_the_limit_a_listing_a_page_at_a_time(app) -> None:
    first = app.get("/events/Big")
    assert first.status_code == 200
    assert (
        f"{MANY} players: more than the {MAX_TABLE_PLAYERS} a crosstable shows as a table"
        in first.text
    )
    rows = _rows(_table(first.text))
    assert len(rows) == STANDINGS_PAGE
    # number, name, points, SB and the games: two a player in the ring
    assert rows[0][:4] == ["1", "P0", "1", "1"]
    assert re.fullmatch(r"2:1-0 \d+:0-1", rows[0][4])
    assert "page 1 of 3" in first.text
    assert '<a href="/events/Big?page=2" rel="next">' in first.text
    ratings = re.search(r'<table class="list" id="ratings">(.*?)</table>', first.text, re.S)
    assert ratings.group(1).count("<tr>") == 1 + STANDINGS_PAGE  # the heading and a page


def test_the_last_page_and_the_numbers_it_takes(app) -> None:
    last = app.get("/events/Big", params={"page": "3"})
    rows = _rows(_table(last.text))
    assert [row[0] for row in rows] == [str(n) for n in range(2 * STANDINGS_PAGE + 1, MANY + 1)]
    assert '<a href="/events/Big?page=2" rel="prev">' in last.text
    assert 'rel="next"' not in last.text
    # too large: the last page; not ASCII digits (an Arabic-Indic 3, a
    # superscript 2), negative or empty: the first
    too_large = app.get("/events/Big", params={"page": "9" * 40}).text
    assert _table(too_large) == _table(last.text)
    for given in ("\u0663", "\u00b2", "-1", "", "0", "2.0"):
        page = app.get("/events/Big", params={"page": given})
        assert page.status_code == 200
        assert _rows(_table(page.text))[0][0] == "1", given


def test_an_events_page_grows_with_the_page_not_with_the_players(app, tmp_path: Path) -> None:
    """Ten times the players of a page: each page is about as large."""
    games = tmp_path / "games"
    games.mkdir()
    players = 10 * STANDINGS_PAGE
    (games / "huge.hxl").write_text(ring(players, "Huge"), "utf-8")
    db = tmp_path / "x.sqlite"
    index_into(db, games)
    huge = client(db, (games,))
    pages = [huge.get("/events/Huge", params={"page": n}).text for n in (1, 5, 10)]
    tables = [len(_table(text)) for text in pages]
    small = len(_table(app.get("/events/Big").text))
    assert all(abs(size - small) < 1_000 for size in tables), (tables, small)
    # a page: the listing, the ratings and the first 200 games (the full
    # table of 500 players would be 250,000 cells, megabytes)
    assert all(len(text.encode()) < 70_000 for text in pages)
    assert "page 10 of 10" in pages[2]
