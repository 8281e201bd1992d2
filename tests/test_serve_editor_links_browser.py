"""Searching the archive from the editor, in a real browser (Chromium
through Playwright): the first actions of a game of the archive are
clicked in the editor, "Find games that begin like this" and "Find this
position" are followed, and the archive lists that game; from the
archive's form, "Enter the opening on a board" opens the editor on the
game and board chosen. The server and the browser are those of
tests/test_serve_editor_browser.py (a generated archive on 127.0.0.1).
With ``HEXHOP_SCREENSHOTS=DIR``: ``serve-editor-links.png`` and
``serve-archive-opening.png``."""

from __future__ import annotations

import re
import sqlite3
from urllib.parse import parse_qsl, urlsplit

import pytest

pytest.importorskip("uvicorn", reason="the serve extra: pip install 'hexhop[serve]'")
from serve_helpers import game_id  # noqa: E402
from test_serve_editor_browser import Editor, browser, server  # noqa: E402, F401

pytestmark = pytest.mark.slow  # a real browser and a real server

PLIES = 4
CELL = re.compile(r"[A-F]\d+")


def _opening(db, game: int) -> list[str]:
    """The game's first actions as the index keeps them."""
    with sqlite3.connect(db) as connection:
        [(opening,)] = connection.execute("SELECT opening FROM games WHERE id = ?", (game,))
    return str(opening).split()[:PLIES]


def _click_dice(editor: Editor, action: str) -> None:
    """Enter a Hexalit action by clicks: the die, then its face or its target."""
    page = editor.page
    origin = CELL.match(action)
    assert origin, action
    editor.cell(origin.group()).click()
    rest = action[origin.end() :]
    if rest.startswith("W"):
        editor.answered(page.locator(f"#choices button.face-{rest[1]}").click)
    else:
        target = CELL.match(rest[1:])
        assert target and "=" not in rest, action
        editor.answered(editor.cell(target.group()).click)


def _click_hops(editor: Editor, action: str) -> None:
    """Enter a Hüpfer hop with a birth by clicks: the piece, its landings, the newborn."""
    points = re.split("[-x@]", action)
    assert "@" in action, action
    for point in points[:-1]:
        editor.point(point).click()
    editor.answered(editor.point(points[-1]).click)


def _results(page) -> set[int]:
    page.wait_for_selector("#count")
    links = page.locator("table.games tbody a").evaluate_all(
        "nodes => nodes.map(n => n.getAttribute('href'))"
    )
    return {int(link.rsplit("/", 1)[1]) for link in links}


def _link(page, anchor: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(page.get_attribute(anchor, "href")).query))


@pytest.mark.parametrize("follow", ["#find-opening", "#find-position"])
def test_a_hexalit_opening_clicked_finds_its_game(browser, server, follow: str) -> None:  # noqa: F811
    base, _archive, db = server
    wanted = game_id(db, "random.hxl", 1)
    actions = _opening(db, wanted)
    editor = Editor(browser, base)
    page = editor.page
    assert page.get_attribute("#find-opening", "aria-disabled") == "true"
    assert page.get_attribute("#find-opening", "href") is None
    for number, action in enumerate(actions, 1):
        _click_dice(editor, action)
        # the links follow every step
        assert _link(page, "#find-opening") == {
            "after": " ".join(actions[:number]),
            "game": "Hexalit",
        }
        position = _link(page, "#find-position")
        assert set(position) == {"position", "game"} and position["game"] == "Hexalit"
    assert page.locator("#moves button.move").count() == PLIES
    if follow == "#find-opening":
        editor.shot("serve-editor-links.png")
    page.click(follow)
    page.wait_for_url(re.compile(r"/\?"))
    assert wanted in _results(page)
    # the form shows the search, to be changed
    if follow == "#find-opening":
        assert page.input_value('input[name="after"]') == " ".join(actions)
    else:
        assert page.input_value('textarea[name="position"]').endswith("turn: N")
    assert page.input_value('select[name="game"]') == "Hexalit"
    assert editor.problems == []


def test_an_opening_entered_on_a_board_from_the_archive(browser, server) -> None:  # noqa: F811
    base, _archive, db = server
    wanted = game_id(db, "random.hpf", 1)
    actions = _opening(db, wanted)
    editor = Editor(browser, base)
    page = editor.page
    page.goto(f"{base}/")
    assert page.get_attribute("#enter-opening", "href") == "/editor"
    page.select_option('select[name="game"]', "Hüpfer")
    page.select_option('select[name="board"]', "6x6")
    assert page.get_attribute("#enter-opening", "href") == "/editor?game=H%C3%BCpfer&board=6x6"
    editor.shot("serve-archive-opening.png")
    page.click("#enter-opening")
    page.wait_for_selector("#board svg")
    assert page.input_value('#new [name="game"]') == "Hüpfer"
    assert page.input_value('#tags [name="Board"]') == "6x6"
    assert page.locator("#board circle.hit").count() == 36
    for action in actions:
        _click_hops(editor, action)
    assert _link(page, "#find-opening") == {
        "after": " ".join(actions),
        "game": "Hüpfer",
        "board": "6x6",
    }
    page.click("#find-opening")
    page.wait_for_url(re.compile(r"/\?"))
    assert wanted in _results(page)
    assert page.input_value('select[name="board"]') == "6x6"
    # back to the editor: the position after them finds the game too
    page.go_back()
    page.wait_for_selector("#board svg")
    if page.locator("#moves button.move").count() != PLIES:  # not kept by the browser: again
        for action in actions:
            _click_hops(editor, action)
    page.click("#find-position")
    page.wait_for_url(re.compile(r"/\?"))
    assert wanted in _results(page)
    assert editor.problems == []


def test_typed_text_moves_the_links_and_broken_text_disables_them(browser, server) -> None:  # noqa: F811
    base, _archive, _db = server
    editor = Editor(browser, base)
    page = editor.page
    with page.expect_response("**/api/editor/state"):
        page.fill("#record", '[Game "Hexalit"]\n\n1. b4w3 d7w1\n')
    page.wait_for_function(
        "() => (document.getElementById('find-opening').getAttribute('href') || '')"
        ".includes('D7W1')"
    )
    assert _link(page, "#find-opening") == {"after": "B4W3 D7W1", "game": "Hexalit"}
    with page.expect_response("**/api/editor/state"):
        page.fill("#record", '[Game "Hexalit"]\n\n1. B4W3 (D7W1 *\n')
    page.wait_for_selector("#board.inactive")
    for anchor in ("#find-opening", "#find-position"):
        assert page.get_attribute(anchor, "href") is None
        assert page.get_attribute(anchor, "aria-disabled") == "true"
    assert editor.problems == []
