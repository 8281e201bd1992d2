"""``hexhop serve``: the archive's search, game pages, players and events,
read as a person sees them: the HTML's content."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from serve_helpers import ROOT, client, game_id, indexed_archive

from hexhop.serve import data


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    return indexed_archive(tmp_path_factory.mktemp("serve-pages"))


@pytest.fixture
def app(served):
    arch, db = served
    return client(db, (arch,))


class Rows(HTMLParser):
    """The text of each row of the first ``table.games`` and the links of its first cells."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.links: list[str] = []
        self._in_table = self._in_body = False
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and "games" in (attrs.get("class") or "") and not self.rows:
            self._in_table = True
        elif self._in_table and tag == "tbody":
            self._in_body = True
        elif self._in_body and tag == "tr":
            self.rows.append([])
        elif self._in_body and tag == "td":
            self._cell = []
        elif self._in_body and tag == "a" and self.rows and not self.rows[-1]:
            self.links.append(attrs["href"])

    def handle_endtag(self, tag):
        if tag == "td" and self._cell is not None:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "table":
            self._in_table = self._in_body = False

    def handle_data(self, text):
        if self._cell is not None:
            self._cell.append(text)


def rows_of(html: str) -> Rows:
    parser = Rows()
    parser.feed(html)
    return parser


def count_of(html: str) -> str:
    found = re.search(r'<p class="count" id="count">([^<]*)</p>', html)
    assert found, html[:2000]
    return found.group(1)


def players_of(html: str) -> list[str]:
    return [row[0] for row in rows_of(html).rows]


def test_the_archive_lists_every_game_with_its_count(app):
    page = app.get("/")
    assert page.status_code == 200
    assert count_of(page.text) == "23 games"
    rows = rows_of(page.text)
    assert len(rows.rows) == 23
    assert rows.rows[0] == [
        "Jürgen Müller – Anna Berger",
        "*",
        "2004.05.01",
        "Vereinsmeisterschaft",
        "Hexalit",
        "3",
        "valid",
    ]
    assert all(re.fullmatch(r"/games/\d+", link) for link in rows.links)


def test_player_accent_insensitive_on_either_side(app):
    page = app.get("/", params={"player": "muller"})
    assert count_of(page.text) == "2 games"
    assert players_of(page.text) == ["Jürgen Müller – Anna Berger", "Jurgen Muller – Zoë Brandt"]
    # either side: Karl Brandt played North once and South twice
    assert count_of(app.get("/", params={"player": "karl brandt"}).text) == "3 games"
    both = app.get("/", params={"player": "Ohlsen", "player2": "Hansen"})
    assert players_of(both.text) == ["Mira Hansen – Paul Ohlsen", "Mira Hansen – Paul Ohlsen"]


@pytest.mark.parametrize(
    "params, players",
    [
        ({"event": "kassel"}, ["Anna Berger – Jonas Keller", "Anna Berger – Jonas Keller"]),
        ({"site": "Kassel"}, ["Anna Berger – Jonas Keller"]),
        (
            {"date_from": "2003.03", "date_to": "2004"},
            [
                "Jürgen Müller – Anna Berger",
                "Jurgen Muller – Zoë Brandt",
                "Lena Voss – Paul Ohlsen",
                "Mira Hansen – Paul Ohlsen",
            ],
        ),
        ({"result": "1-0", "game": "Hüpfer", "board": "8x8"}, ["Mira Hansen – Paul Ohlsen"]),
        (
            {"winner": "Süd", "game": "Trigeo"},
            ["Ute Sommer – Karl Brandt", "Ute Sommer – Karl Brandt"],
        ),
        ({"valid": "invalid"}, ["Anna Berger – Jonas Keller"]),
        ({"finding": "il01"}, ["Anna Berger – Jonas Keller"]),
        (
            {"after": "1. B4W3 D7W1 2. A5XB2", "game": "Hexalit"},
            [
                "Jürgen Müller – Anna Berger",
                "Jurgen Muller – Zoë Brandt",
                "Anna Berger – Jonas Keller",
            ],
        ),
        (
            {"plies": "40..42"},
            ["Ute Sommer – Karl Brandt", "Anna Berger – Jonas Keller", "Ute Sommer – Karl Brandt"],
        ),
    ],
)
def test_every_filter_of_find(app, params, players):
    page = app.get("/", params=params)
    assert page.status_code == 200
    assert players_of(page.text) == players


def test_a_position_pasted_as_text(app, served):
    from hexhop.engine.replay import replay_game
    from hexhop.notation import read_archive

    arch, _db = served
    source = arch / "good" / "trigeo-goettingen-1999.trg"
    report = replay_game(next(iter(read_archive(source.read_bytes(), path=str(source)))))
    position = report.positions[11].text()
    page = app.get("/", params={"position": position, "game": "Trigeo"})
    assert players_of(page.text) == ["Ute Sommer – Karl Brandt", "Ute Sommer – Karl Brandt"]


@pytest.mark.parametrize(
    "params, message",
    [
        (
            {"date_from": "1998.13"},
            "--date '1998.13..': 1998.13 is not a date (months 01-12, days 01-31)",
        ),
        ({"finding": "XX99"}, "--finding 'XX99': no such code (see docs/errors.md)"),
        ({"board": "7x7"}, "--board '7x7': expected one of 6x6, 8x8, 10x10"),
        ({"position": "nonsense", "game": "Hexalit"}, "--position 'nonsense' is not a position"),
    ],
)
def test_a_filter_that_cannot_be_read_is_told_with_400(app, params, message):
    page = app.get("/", params=params)
    assert page.status_code == 400
    problem = re.search(r'<p class="problem" role="alert">([^<]*)</p>', page.text).group(1)
    assert problem.replace("&#39;", "'").startswith(message)
    assert 'value="' in page.text  # the form is there again, to correct


def test_a_filter_problem_in_german(app):
    page = app.get("/", params={"board": "7x7", "lang": "de"})
    problem = re.search(r'<p class="problem" role="alert">([^<]*)</p>', page.text).group(1)
    assert "7x7" in problem and "expected" not in problem


def test_paged_and_sorted(app, monkeypatch):
    monkeypatch.setattr(data, "PAGE_SIZE", 5)
    first = app.get("/", params={"sort": "plies"})
    assert count_of(first.text) == "23 games · page 1 of 5"
    assert [row[5] for row in rows_of(first.text).rows] == ["2", "2", "3", "3", "10"]
    second = app.get("/", params={"sort": "plies", "page": "2"})
    assert [row[5] for row in rows_of(second.text).rows] == ["12", "12", "13", "22", "23"]
    assert 'href="/?sort=plies&amp;page=3" rel="next"' in second.text
    longest = app.get("/", params={"sort": "-plies"})
    assert [row[5] for row in rows_of(longest.text).rows] == ["74", "42", "40", "40", "33"]
    by_date = app.get("/", params={"sort": "date"})
    assert [row[2] for row in rows_of(by_date.text).rows] == [
        "1998.03.14",
        "1999.11.06",
        "1999.11.06",
        "2001.??.??",
        "2003.02.21",
    ]
    by_players = app.get("/", params={"sort": "players", "page": "1"})
    assert players_of(by_players.text)[0] == "Anna Berger – Jonas Keller"
    beyond = app.get("/", params={"page": "999"})
    assert beyond.status_code == 200 and rows_of(beyond.text).rows == []


def test_the_game_page(app, served):
    _arch, db = served
    number = game_id(db, "broken/illegal.hxl")
    page = app.get(f"/games/{number}")
    assert page.status_code == 200
    text = page.text
    # the viewer: its data block and script from /static, no inline script
    assert '<script type="application/gzip" id="hexhop-data">' in text
    assert '<script src="/static/viewer.js"></script>' in text
    assert re.findall(r"<script(?![^>]*(?:src=|type=\"application/))", text) == []
    # the finding, marked at line 8, column 9, with its message as a title
    mark = re.search(
        r'<mark class="finding error" title="([^"]*)" data-findings="1 ">([^<]*)</mark>', text
    )
    assert mark.group(2) == "E6°D5"
    assert mark.group(1).startswith("IL01: ply 2, South: E6°D5 is not legal")
    line = re.search(
        r'<span class="line"><span class="no" aria-hidden="true">8</span>(.*?)\n</span>', text
    )
    assert line.group(1).startswith("1. B4W3 ")
    assert "line 8, column 9</span> <code>IL01</code>" in text
    # the tags, the links
    assert "<dt>Event</dt><dd>Spielkreis Kassel club evening</dd>" in text
    assert f'href="/games/{number}/record"' in text
    assert f'href="/editor?from={number}"' in text
    assert 'href="/players/Anna%20Berger"' in text


def test_the_game_page_in_german(app, served):
    _arch, db = served
    text = app.get(f"/games/{game_id(db, 'broken/illegal.hxl')}", params={"lang": "de"}).text
    assert "Zeile 8, Spalte 9</span> <code>IL01</code> Halbzug 2" in text
    assert "Ungültige Partie" in text


def test_the_record_download_is_the_games_own_text(app, served):
    arch, db = served
    number = game_id(db, "club.hxl", 2)
    response = app.get(f"/games/{number}/record")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    assert response.headers["content-disposition"] == f'attachment; filename="game-{number}.hxl"'
    whole = (arch / "club.hxl").read_bytes()
    assert response.content.startswith(
        b'[Game "Hexalit"]\r\n[Event "Vereinsmeisterschaft"]\r\n[Date "2004.06.12"]'
    )
    assert response.content in whole


def test_a_game_from_a_zip_member(app, served):
    _arch, db = served
    page = app.get(f"/games/{game_id(db, 'old.zip:1999/trigeo.trg')}")
    assert page.status_code == 200
    assert "Valid record: no findings." in page.text


@pytest.mark.parametrize(
    "url",
    [
        "/games/0",
        "/games/99999",
        "/games/99999/record",
        "/games/9999999999999999999999",
        "/games/abc",
        "/games/-1",
        "/players/Nobody",
        "/events/No%20such%20event",
        "/players/..%2F..%2Fetc%2Fpasswd",
        "/events/../../etc/passwd",
        "/static/../serve/app.py",
        "/static/%2e%2e/app.py",
        "/boards/0123.css",
    ],
)
def test_unknown_ids_names_and_traversal_are_404(app, url):
    response = app.get(url)
    assert response.status_code == 404


def test_players_search_and_page(app):
    listing = app.get("/players", params={"q": "muller"})
    # one row per player key (the key cannot tell Muller from Müller: two players)
    assert re.findall(r'<a href="(/players/[^"]*)">', listing.text) == [
        "/players/jurgen%20muller",
        "/players/juergen%20mueller",
    ]
    page = app.get("/players/Paul%20Ohlsen")  # a link by a spelling finds the player's key
    assert page.status_code == 200
    years = re.search(r'<table class="list" id="years">(.*?)</table>', page.text, re.S).group(1)
    cells = re.findall(r"<t[dh][^>]*>([^<]*)</t[dh]>", years.split("</thead>")[1])
    assert cells == ["2003", "3", "1", "2", "0", "1/3", "All", "3", "1", "2", "0", "1/3"]
    assert [row[2] for row in rows_of(page.text).rows] == ["lost", "lost", "won"]


def test_events_crosstable_and_ratings(app):
    listing = app.get("/events", params={"q": "abend"})
    assert re.findall(r'<a href="(/events/[^"]*)">', listing.text) == ["/events/H%C3%BCpfer-Abend"]
    for spelled in ("hupfer", "HUEPFER"):  # accents and ue alike, as for players
        listing = app.get("/events", params={"q": spelled})
        found = re.findall(r'<a href="(/events/[^"]*)">', listing.text)
        assert found == ["/events/H%C3%BCpfer-Abend"], spelled
    page = app.get("/events/H%C3%BCpfer-Abend")
    table = re.search(
        r'<table class="crosstable" id="crosstable">(.*?)</table>', page.text, re.S
    ).group(1)
    body = table.split("</thead>")[1]
    rows = [
        re.findall(r"<td[^>]*>(?:<a[^>]*>)?([^<]*)", row)
        for row in body.split("</tr>")
        if "<td" in row
    ]
    assert rows == [
        ["1", "Mira Hansen", ".", "2-0", ".", "2", "2", "2", "0", "0"],
        ["2", "Paul Ohlsen", "0-2", ".", "1-0", "1", "0", "1", "2", "0"],
        ["3", "Lena Voss", ".", "0-1", ".", "0", "0", "0", "1", "0"],
    ]
    ratings = re.search(r'<table class="list" id="ratings">(.*?)</table>', page.text, re.S).group(1)
    # one list per board of Hüpfer, as hexhop ratings --event gives them
    assert re.findall(
        r'<td class="cell">([^<]*)</td><td class="cell"><a href="/players/[^"]*">([^<]*)</a></td>'
        r'<td class="number">(\d+)</td><td class="number">([-+]\d+)</td>',
        ratings,
    ) == [
        ("Hüpfer 6x6", "Mira Hansen", "1510", "+10"),
        ("Hüpfer 6x6", "Paul Ohlsen", "1490", "-10"),
        ("Hüpfer 8x8", "Mira Hansen", "1510", "+10"),
        ("Hüpfer 8x8", "Paul Ohlsen", "1490", "-10"),
        ("Hüpfer 10x10", "Paul Ohlsen", "1510", "+10"),
        ("Hüpfer 10x10", "Lena Voss", "1490", "-10"),
    ]
    assert len(rows_of(page.text).rows) == 3


@pytest.mark.parametrize(
    "params",
    [
        {"event": "kassel"},
        {"event": "Vereins*"},
        {"event": "*ABEND"},
        {"event": "hupfer"},
        {"event": "huepfer"},
        {"site": "kassel"},
        {"site": "K?ssel"},
        {"date_from": "2001"},
        {"date_to": "2001"},
        {"date_from": "1998.03", "date_to": "1999.12"},
        {"date_from": "1999.11.06", "date_to": "1999.11.06"},
        {"date_from": "2003.03", "date_to": "2004"},
        {"player": "Muller", "event": "verein", "date_from": "2004.06"},
        {
            "after": "1. B4W3 D7W1 2. A5XB2^ D7XD5 3. double 2 take B2°E10 E7°C7 4. B8°C7 E5W6 5. E10°F10 E8W4 6. A8°E8 double 4 take F7°E8 7. F10XD10^ E8°D10",
            "game": "Hexalit",
        },
    ],
)
def test_the_search_finds_what_find_finds(served, params):
    """The search table's shortcuts (event, site, date) answer as find's own query."""
    from hexhop.archive.query import find_in_index, open_to_search
    from hexhop.serve.search import read_search

    _arch, db = served
    search = read_search(params)
    assert search.problem is None
    total, rows = data.search(str(db), search.query, "", False, 1)
    connection = open_to_search(str(db))
    try:
        wanted = sorted(
            (hit.path, hit.line) for hit in find_in_index(connection, str(db), search.query)
        )
    finally:
        connection.close()
    assert wanted, params  # each search finds some game
    assert total == len(wanted)
    assert sorted((row.path, row.line) for row in rows) == wanted


def test_setting_up_a_position_by_clicks(app):
    """The server puts the piece clicked on the cell, in the Position text."""
    url = "/api/position/setup"
    empty = app.get(url, params={"game": "Hexalit"}).json()
    assert empty["position"] == "N:; S:; turn: N"
    assert [p["id"] for p in empty["pieces"]] == [f"{s}{n}" for s in "NS" for n in range(1, 7)]
    assert empty["sides"] == [{"id": "N", "label": "North"}, {"id": "S", "label": "South"}]
    assert "<style>" not in empty["svg"] and empty["style"]
    assert (
        app.get(f"/boards/{empty['style']}.css").headers["content-type"]
        == "text/css; charset=utf-8"
    )
    one = app.get(
        url, params={"game": "Hexalit", "position": empty["position"], "cell": "A4", "piece": "N5"}
    ).json()
    assert one["position"] == "N: A4=5; S:; turn: N"
    two = app.get(
        url, params={"game": "Hexalit", "position": one["position"], "cell": "A4", "piece": "S2"}
    ).json()
    assert two["position"] == "N:; S: A4=2; turn: N"
    again = app.get(
        url, params={"game": "Hexalit", "position": two["position"], "cell": "A4", "piece": "S2"}
    ).json()
    assert again["position"] == "N:; S:; turn: N"  # the same piece again: taken away
    turned = app.get(
        url, params={"game": "Hexalit", "position": one["position"], "turn": "S"}
    ).json()
    assert turned["position"] == "N: A4=5; S:; turn: S" and turned["turn"] == "S"
    start = app.get(url, params={"game": "Trigeo", "start": "1"}).json()
    assert start["position"].startswith("N: ") and start["problem"] is None
    huepfer = app.get(
        url, params={"game": "Hüpfer", "board": "8x8", "cell": "b2", "piece": "R"}
    ).json()
    assert huepfer["board"] == "8x8"
    assert huepfer["position"] == "R: b2; T:; reserve: 12/12; turn: R"
    assert [p["id"] for p in huepfer["pieces"]] == ["R", "T"]
    off = app.get(url, params={"game": "Hexalit", "cell": "Z9", "piece": "N1"}).json()
    assert off["position"] == "N:; S:; turn: N" and "Z9 is not on the board" in off["problem"]
    bad = app.get(url, params={"game": "Hexalit", "position": "<script>"}).json()
    assert bad["position"] == "N:; S:; turn: N"
    assert bad["problem"] == "The position could not be read for this game: an empty board instead."
    german = app.get(url, params={"game": "Hüpfer", "lang": "de"}).json()
    assert german["sides"] == [{"id": "R", "label": "Rot"}, {"id": "T", "label": "Türkis"}]


def test_a_file_changed_since_it_was_indexed_is_told(tmp_path):
    from serve_helpers import index_into

    folder = tmp_path / "club"
    folder.mkdir()
    record = folder / "a.hxl"
    record.write_text('[Game "Hexalit"]\n[Result "*"]\n\n1. B4W3 D7W1 *\n', "utf-8")
    db = tmp_path / "club.sqlite"
    index_into(db, folder)
    record.write_text('[Game "Hexalit"]\n[Result "*"]\n\n1. B4W3 D7W2 *\n', "utf-8")
    app = client(db, (folder,))
    for url in ("/games/1", "/games/1/record"):
        response = app.get(url)
        assert response.status_code == 409
        assert (
            f"{record} changed or is gone since it was indexed: run hexhop index again"
            in response.text
        )
    german = app.get("/games/1?lang=de")
    assert "Der Index kann nicht gelesen werden." in german.text
    assert "run hexhop index again" not in german.text


def test_the_analysis_the_index_keeps_is_shown(tmp_path):
    from click.testing import CliRunner

    from hexhop.cli.main import cli

    folder = tmp_path / "club"
    folder.mkdir()
    source = ROOT / "samples" / "good" / "hexalit-kassel-1998.hxl"
    (folder / "kassel.hxl").write_bytes(source.read_bytes())
    db = tmp_path / "club.sqlite"
    done = CliRunner().invoke(
        cli, ["index", str(folder), "--db", str(db), "--analyse", "--depth", "1", "-q"]
    )
    assert done.exit_code == 0, done.output
    page = client(db, (folder,)).get("/games/1").text
    analysis = re.search(r'<ul class="analysis" id="analysis">(.*?)</ul>', page, re.S).group(1)
    items = [" ".join(item.split()) for item in re.findall(r"<li[^>]*>(.*?)</li>", analysis, re.S)]
    show = '<button type="button" class="show-line" data-frame="{}">Show the line</button>'
    assert items == [
        "South played 3... E7°C7 at ply 6 and allowed North a win at once with 4. B7°C7",
        "North missed a win at once with 4. B7°C7 at ply 7 (played 4. B8°C7) " + show.format(8),
        "South played 4... E5W6 at ply 8 and allowed North a win at once with 5. E10XD7",
        "North missed a win at once with 5. E10XD7 at ply 9 (played 5. E10°F10) " + show.format(11),
        "North played 21. A7°B5 at ply 41 and allowed South a win at once with 21... F5°B5",
    ]
    # the critical moments, in order: here every win was given, none appeared
    moments = re.search(r'<ol class="moments" id="moments">(.*?)</ol>', page, re.S).group(1)
    said = [" ".join(item.split()) for item in re.findall(r"<li[^>]*>(.*?)</li>", moments, re.S)]
    assert said == [items[0], items[1].split(" <button")[0], items[2]] + [
        items[3].split(" <button")[0],
        items[4],
    ]
    # the notes marked in the record text, as findings are
    marks = re.findall(r'<mark class="note (\w+)" title="([^"]*)">([^<]*)</mark>', page)
    assert [(kind, text) for kind, _title, text in marks] == [
        ("allows", "E7°C7"),
        ("missed", "B8°C7"),
        ("allows", "E5W6"),
        ("missed", "E10°F10"),
        ("allows", "A7°B5?"),  # to the end of the word, as a finding
    ]
    assert marks[1][1] == "?: North missed a win at once with 4. B7°C7 at ply 7 (played 4. B8°C7)"
    german = client(db, (folder,)).get("/games/1?lang=de").text
    assert (
        "Nord hat in Halbzug 7 einen Sofortgewinn mit 4. B7°C7 verpasst (gespielt 4. B8°C7)"
        in german
    )
    assert ">Zeige die Gewinnfolge</button>" in german


def test_a_long_list_of_games_links_the_search(app, monkeypatch):
    from hexhop.serve import pages

    monkeypatch.setattr(pages, "LISTED", 2)
    page = app.get("/events/H%C3%BCpfer-Abend")
    assert len(rows_of(page.text).rows) == 2
    assert 'The first 2 of 3 games are listed: <a href="/?event=H%C3%BCpfer-Abend">' in page.text
    player = app.get("/players/Paul%20Ohlsen")
    assert 'The first 2 of 3 games are listed: <a href="/?player=Paul+Ohlsen">' in player.text


def test_a_game_indexed_while_serving_is_found_by_the_next_search(tmp_path):
    from serve_helpers import index_into

    folder = tmp_path / "club"
    folder.mkdir()
    game = '[Game "Hexalit"]\n[North "{north}"]\n[South "S"]\n[Result "*"]\n\n1. B4W3 D7W1 *\n'
    (folder / "a.hxl").write_text(game.format(north="Alma Ahrens"), "utf-8")
    db = tmp_path / "club.sqlite"
    index_into(db, folder)
    app = client(db, (folder,))
    assert count_of(app.get("/").text) == "1 game"
    assert count_of(app.get("/", params={"player": "Bodo"}).text) == "0 games"
    (folder / "b.hxl").write_text(game.format(north="Bodo Brandt"), "utf-8")
    index_into(db, folder)
    assert count_of(app.get("/", params={"player": "Bodo"}).text) == "1 game"
    assert count_of(app.get("/").text) == "2 games"
    assert app.get("/players/Bodo%20Brandt").status_code == 200


def test_a_game_page_shows_a_bounded_part_of_a_huge_record(tmp_path):
    """Blank lines before a game are left out, at most LINES_SHOWN lines and
    FINDINGS_SHOWN findings are shown, and the page says how many are not."""
    from serve_helpers import index_into

    from hexhop.serve.pages import FINDINGS_SHOWN, LINES_SHOWN

    arch = tmp_path / "arch"
    arch.mkdir()
    refused = "(1. A0W3)\n" * (LINES_SHOWN + 50)
    text = "\n" * 100_000 + '[Game "Hexalit"]\n[Result "*"]\n\n1. B4W3\n' + refused + "*\n"
    (arch / "huge.hxl").write_text(text, "utf-8")
    db = tmp_path / "arch.sqlite"
    index_into(db, arch)
    page = client(db, (arch,)).get(f"/games/{game_id(db, 'huge.hxl')}")
    assert page.status_code == 200
    numbers = re.findall(r'<span class="no" aria-hidden="true">(\d+)</span>', page.text)
    assert numbers[0] == "100001" and len(numbers) == LINES_SHOWN
    assert "… and 55 more lines: download the record" in page.text  # 2,055 lines in all
    assert page.text.count('<li class="error">') == FINDINGS_SHOWN
    more = LINES_SHOWN + 50 - FINDINGS_SHOWN
    assert f"… and {more} more findings: hexhop check " in page.text
    assert len(page.content) < 1_000_000


def test_a_game_beyond_the_viewers_limit_shows_its_record_without_the_viewer(tmp_path, monkeypatch):
    """As render --format html refuses it, the page leaves the viewer out and says why."""
    from serve_helpers import index_into

    from hexhop.records import limits

    monkeypatch.setattr(limits, "MAX_SHOWN_ACTIONS", 3)
    arch = tmp_path / "arch"
    arch.mkdir()
    text = '[Game "Hexalit"]\n[Result "*"]\n\n1. B4W3 (1. B4W2) (1. B4W1) D7W1 *\n'
    (arch / "wide.hxl").write_text(text, "utf-8")
    db = tmp_path / "arch.sqlite"
    index_into(db, arch)
    page = client(db, (arch,)).get(f"/games/{game_id(db, 'wide.hxl')}")
    assert page.status_code == 200
    assert "more actions than the viewer shows (3, variations included)" in page.text
    assert 'id="hexhop-data"' not in page.text and "1. B4W3 (1. B4W2)" in page.text
