"""The editor's searches of the archive (``hexhop serve``): "Find games that
begin like this" and "Find this position" are plain links the server makes
for the cursor's place, and following them finds exactly the games ``hexhop
find --after`` / ``--position`` finds; the archive's "Enter the opening on a
board" opens the editor on the game and board chosen. Through Starlette's
TestClient, on a generated archive of all three games."""

from __future__ import annotations

import html
import json
import os
import re
import sqlite3
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from click.testing import CliRunner
from serve_helpers import client, index_into

from hexhop.cli.main import cli

STATE = re.compile(r'<script type="application/json" id="editor-state">(.*?)</script>', re.S)
FOUND = re.compile(r'<a href="/games/(\d+)">')
# the generated archive: (game, board, count, seed)
MADE = (
    ("Hexalit", None, 10, 5),
    ("Trigeo", None, 8, 6),
    ("Hüpfer", "6x6", 8, 7),
    ("Hüpfer", "8x8", 4, 8),
)
CLUB = (
    '[Game "Hexalit"]\n[North "Jürgen Müller"]\n[South "Anna Berger"]\n[Result "*"]\n\n'
    "1. B4W3 D7W1 2. A5XB2 *\n\n"
    '[Game "Hexalit"]\n[North "Jurgen Muller"]\n[South "Zoë Brandt"]\n[Result "*"]\n\n'
    "1. B4W3 D7W1 2. A10XA11 *\n\n"
    '[Game "Hexalit"]\n[North "Karl Brandt"]\n[South "Ute Sommer"]\n[Result "*"]\n\n'
    "1. double 2 take B9W5 E4XD4 *\n"
)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A generated archive (real paths) and its index."""
    root = Path(os.path.realpath(tmp_path_factory.mktemp("links")))
    arch = root / "arch"
    arch.mkdir()
    runner = CliRunner()
    for number, (game, board, count, seed) in enumerate(MADE):
        extension = {"Hexalit": "hxl", "Trigeo": "trg", "Hüpfer": "hpf"}[game]
        made = runner.invoke(
            cli,
            ["generate", "--game", game, "--count", str(count), "--seed", str(seed)]
            + (["--board", board] if board else [])
            + ["--max-plies", "24", "--out", str(arch / f"random{number}.{extension}"), "-q"],
        )
        assert made.exit_code == 0, made.output
    (arch / "club.hxl").write_text(CLUB, "utf-8")
    db = root / "arch.sqlite"
    index_into(db, arch)
    return arch, db


@pytest.fixture
def app(served):
    return client(served[1])


def _state_of(page: str) -> dict:
    found = STATE.search(page)
    assert found, "the page has no editor state"
    return json.loads(found.group(1))


def _token(app) -> dict[str, str]:
    app.get("/editor")
    return {"X-CSRF-Token": app.cookies["hexhop_csrf"]}


def _at(app, state: dict, cursor: list[int]) -> dict:
    """The editor's state with the cursor moved to ``cursor``."""
    response = app.post(
        "/api/editor/state",
        json={"text": state["text"], "cursor": cursor, "game": state["game"]},
        headers=_token(app),
    )
    assert response.status_code == 200, response.text
    return response.json()


def _ids(db: Path) -> dict[tuple[str, int], int]:
    """The index's game ids by (real path, number in the file)."""
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT g.id, f.path, g.number FROM games g JOIN files f ON f.id = g.file"
        ).fetchall()
    return {(os.path.realpath(path), number): game_id for game_id, path, number in rows}


def _found_by_find(db: Path, link: str) -> set[int]:
    """The ids of the games ``hexhop find`` finds with the link's filters."""
    params = dict(parse_qsl(urlsplit(link).query))
    args = ["find", "--db", str(db), "--format", "json", "--quiet", "--game", params["game"]]
    if "board" in params:
        args += ["--board", params["board"]]
    if "after" in params:
        args += ["--after", params["after"]]
    if "position" in params:
        args += ["--position", params["position"]]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code in (0, 1), result.output
    ids = _ids(db)
    return {ids[(os.path.realpath(hit["path"]), hit["index"])] for hit in json.loads(result.output)}


def _found_by_link(app, link: str) -> set[int]:
    response = app.get(link)
    assert response.status_code == 200, response.text
    found = {int(n) for n in FOUND.findall(response.text)}
    count = re.search(r'<p class="count" id="count">(\d+) games?', response.text)
    assert count and int(count.group(1)) == len(found)  # all on the first page
    return found


def _actions(state: dict, upto: int) -> list[str]:
    """The main line's first ``upto`` actions as the move list shows them."""
    main = [t["text"] for t in state["moves"] if t["kind"] == "move" and len(t["address"]) == 1]
    return [text.rstrip("^+") for text in main[:upto]]


# -- the links ---------------------------------------------------------------------------


def test_the_links_of_a_new_game_and_after_two_actions(app) -> None:
    page = app.get("/editor").text
    state = _state_of(page)
    assert state["find"]["opening"] is None  # no action yet: nothing to begin with
    start = state["position"]
    assert state["find"]["position"] == "/?" + urlencode({"position": start, "game": "Hexalit"})
    assert '<a id="find-opening" class="button secondary" aria-disabled="true">' in page
    position_link = html.escape(state["find"]["position"])
    assert f'<a id="find-position" class="button secondary" href="{position_link}">' in page
    assert "Find games that begin like this" in page and "Find this position" in page
    token = _token(app)
    for action in ("B4W3", "D7W1"):
        response = app.post(
            "/api/editor/play",
            json={"text": state["text"], "cursor": state["cursor"], "action": action},
            headers=token,
        )
        assert response.status_code == 200, response.text
        state = response.json()
    assert state["find"] == {
        "opening": "/?after=B4W3+D7W1&game=Hexalit",
        "position": "/?" + urlencode({"position": state["position"], "game": "Hexalit"}),
    }
    found = _found_by_link(app, state["find"]["opening"])
    assert len(found) == 2  # the club's two games
    assert found == _found_by_find(app.app.state.settings.db, state["find"]["opening"])
    # back at the start, no opening again
    assert _at(app, state, [])["find"]["opening"] is None


def test_an_opening_with_the_cube(app, served) -> None:
    """Cube events are actions of the opening, as the index keeps them."""
    game_id = _ids(served[1])[(os.path.realpath(served[0] / "club.hxl"), 3)]
    state = _at(app, _state_of(app.get(f"/editor?from={game_id}").text), [2])
    assert state["find"]["opening"] == "/?after=double+2+take+B9W5&game=Hexalit"
    found = _found_by_link(app, state["find"]["opening"])
    assert found == {game_id} == _found_by_find(served[1], state["find"]["opening"])


def test_the_links_follow_a_variation(app) -> None:
    text = '[Game "Hexalit"]\n[Result "*"]\n\n1. B4W3 D7W1 (1... D7W2 2. A5XB2) 2. A5XB2 *\n'
    state = _at(app, {"text": text, "game": "Hexalit"}, [1, 0, 1])
    assert state["find"]["opening"] == "/?after=B4W3+D7W2+A5XB2&game=Hexalit"
    state = _at(app, state, [2])
    assert state["find"]["opening"] == "/?after=B4W3+D7W1+A5XB2&game=Hexalit"


def test_a_game_set_up_by_a_position_tag_has_no_opening_to_search(app) -> None:
    setup = "R: a1 b1; T: e6 f5 f6; reserve: 10/12; turn: R"
    text = f'[Game "Hüpfer"]\n[Board "6x6"]\n[Position "{setup}"]\n[Result "*"]\n\n1. a1-c1@d1 *\n'
    state = _at(app, {"text": text, "game": "Hüpfer"}, [0])
    assert state["findings"] == [] and state["cursor"] == [0]
    assert state["find"]["opening"] is None
    query = dict(parse_qsl(urlsplit(state["find"]["position"]).query))
    assert query == {"position": state["position"], "game": "Hüpfer", "board": "6x6"}
    assert state["position"] != setup  # the position after a1-c1@d1


def test_a_huepfer_link_names_the_board(app) -> None:
    page = app.get("/editor?game=Hüpfer&board=8x8").text
    state = _state_of(page)
    assert state["tags"]["Board"] == "8x8"
    position = state["position"]
    assert state["find"]["position"] == "/?" + urlencode(
        {"position": position, "game": "Hüpfer", "board": "8x8"}
    )


@pytest.mark.parametrize(
    "name", ["club.hxl", "random0.hxl", "random1.trg", "random2.hpf", "random3.hpf"]
)
def test_following_the_links_finds_what_find_finds(app, served, name: str) -> None:
    """For the first game of the file, at its start and its first plies:
    the opening up to the cursor and the position there, as the editor
    links them, find exactly the games ``hexhop find`` finds (the game
    itself among them)."""
    _arch, db = served
    game_id = _ids(db)[(os.path.realpath(_arch / name), 1)]
    state = _state_of(app.get(f"/editor?from={game_id}").text)
    game = state["game"]
    # the start: every game of that game (and board) begun from it
    start = _at(app, state, [])["find"]["position"]
    found = _found_by_link(app, start)
    assert game_id in found and len(found) >= 4
    assert found == _found_by_find(db, start), start
    for ply in range(3):
        state = _at(app, state, [ply])
        opening = state["find"]["opening"]
        query = dict(parse_qsl(urlsplit(opening).query))
        assert query["after"].split() == _actions(state, ply + 1)
        assert query["game"] == game
        for link in (opening, state["find"]["position"]):
            found = _found_by_link(app, link)
            assert game_id in found
            assert found == _found_by_find(db, link), link


# -- the editor opened from the archive's search ---------------------------------------------


def test_the_archive_links_to_the_editor_on_its_game_and_board(app) -> None:
    page = app.get("/").text
    assert '<a class="button secondary" id="enter-opening" href="/editor">' in page
    assert "Enter the opening on a board" in page
    page = app.get("/?game=Hüpfer&board=8x8").text
    link = "/editor?game=H%C3%BCpfer&amp;board=8x8"
    assert f'<a class="button secondary" id="enter-opening" href="{link}">' in page
    state = _state_of(app.get(html.unescape(link)).text)
    assert (state["game"], state["tags"].get("Board")) == ("Hüpfer", "8x8")
    assert state["cursor"] == [] and state["moves"] == []
    page = app.get("/?game=Trigeo&lang=de").text
    assert 'href="/editor?game=Trigeo">Die Eröffnung auf einem Brett eingeben</a>' in page


@pytest.mark.parametrize(
    ("query", "game", "board"),
    [
        ("game=Trigeo", "Trigeo", None),
        ("board=10x10", "Hüpfer", "10x10"),  # the game played on that board
        ("game=H%C3%BCpfer&board=8", "Hüpfer", "8x8"),
        ("game=H%C3%BCpfer", "Hüpfer", None),  # its smallest board
        ("game=Hexalit&board=8x8", "Hexalit", None),  # not a Hexalit board: left out
        ("game=Hexalit&board=%3Cscript%3E", "Hexalit", None),
        ("board=12x12", "Hexalit", None),
        ("board=" + "9" * 5000, "Hexalit", None),
    ],
)
def test_a_new_game_of_a_game_and_board(app, query: str, game: str, board: str | None) -> None:
    response = app.get(f"/editor?{query}")
    assert response.status_code == 200
    assert "<script>" not in response.text
    state = _state_of(response.text)
    assert (state["game"], state["tags"].get("Board")) == (game, board)


def test_an_unknown_game_is_told(app) -> None:
    response = app.get("/editor?game=Chess&board=8x8")
    assert response.status_code == 400
    assert "The request is not what the editor sends." in response.text


def test_the_links_on_a_read_only_server(served) -> None:
    """Plain GET links: they work where nothing can be written."""
    _arch, db = served
    app = client(db, read_only=True)
    with sqlite3.connect(db) as connection:
        [(game_id,)] = connection.execute(
            "SELECT g.id FROM games g JOIN files f ON f.id = g.file"
            " WHERE f.path LIKE '%club.hxl' AND g.number = 1"
        ).fetchall()
    state = _state_of(app.get(f"/editor?from={game_id}").text)
    assert state["find"]["opening"] == "/?after=B4W3+D7W1+A5XB2&game=Hexalit"
    assert _found_by_link(app, state["find"]["opening"]) == {game_id}
    assert game_id in _found_by_link(app, state["find"]["position"])
