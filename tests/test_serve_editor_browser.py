"""The editor of ``hexhop serve`` in a real browser (Chromium through Playwright).

The server runs on a free port of 127.0.0.1 (uvicorn in a thread) on a
generated archive; the games are entered by clicks only, saved, found by
the archive search, and their files pass ``check --strict`` and ``fmt
--check``. With ``HEXHOP_SCREENSHOTS=DIR`` the page is photographed into
DIR (``serve-editor.png``, ``serve-editor-huepfer.png``). The browser is
the system Chromium, as for tests/test_html_browser.py.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import hexhop
from hexhop.cli.main import cli

pytest.importorskip("uvicorn", reason="the serve extra: pip install 'hexhop[serve]'")
from serve_helpers import index_into  # noqa: E402
from test_html import HOSTILE  # noqa: E402
from test_html_browser import ARGS, CHROMIUM, HOW  # noqa: E402

from hexhop.serve.app import create_app  # noqa: E402
from hexhop.serve.settings import Settings  # noqa: E402

pytestmark = pytest.mark.slow  # a real browser and a real server

# 12 plies of Hexalit with a roll (B9W5) and two captures, after a cube
# offer that South takes
HEXALIT = [
    *("B9W5", "E4XD4", "A10XA11", "F5XE2", "A4XA3", "E7XF5"),
    *("A11XD11", "F9XE12", "D11°E8", "F7°E8", "A9XB12", "E6XD6"),
]
# Hüpfer 6x6: hops with births, then Red's double capture c3xe3xe5 by clicks
HUEPFER = [
    ["a1", "c1", "d1"],
    ["e6", "e4", "d4"],
    ["a2", "c2", "c3"],
    ["e5", "e3", "d3"],
    ["b2", "d2", "e2"],
    ["e3", "e1"],
    ["c3", "e3", "e5"],
]


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason=f"no playwright: {HOW}")
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.skip(f"no browser at {CHROMIUM}: {HOW}")
    with sync_api.sync_playwright() as playwright:
        try:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        except Exception as error:  # a broken browser install: say so, do not fail
            pytest.skip(f"cannot start {CHROMIUM} ({error}): {HOW}")
        yield chromium
        chromium.close()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A running server on a generated archive: (base URL, archive folder, index)."""
    import uvicorn

    root = tmp_path_factory.mktemp("editor")
    archive = root / "club"
    archive.mkdir()
    runner = CliRunner()
    for game, name in (("Hexalit", "random.hxl"), ("Hüpfer", "random.hpf")):
        made = runner.invoke(
            cli,
            ["generate", "--game", game, "--count", "5", "--seed", "27", "--max-plies", "30"]
            + ["--out", str(archive / name), "--quiet"],
        )
        assert made.exit_code == 0, made.output
    (archive / "hostile.trg").write_text(HOSTILE, "utf-8")
    db = root / "club.sqlite"
    index_into(db, archive)
    port = _free_port()
    settings = Settings(db=db, folders=(Path(os.path.realpath(archive)),), port=port)
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    for _ in range(200):
        if running.started:
            break
        time.sleep(0.05)
    assert running.started, "the server did not start"
    yield f"http://127.0.0.1:{port}", archive, db
    running.should_exit = True
    thread.join(timeout=10)


class Editor:
    """The editor page, with the console watched (a CSP violation is an error there)."""

    def __init__(self, browser, base: str, address: str = "/editor"):
        self.context = browser.new_context(viewport={"width": 1360, "height": 1000})
        self.page = self.context.new_page()
        self.page.set_default_timeout(8_000)
        self.problems: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(str(error)))
        self.page.on("response", self._response)
        self.page.on("dialog", lambda dialog: self.problems.append(f"dialog {dialog.message}"))
        self.page.goto(f"{base}{address}")
        self.page.wait_for_selector("#board svg")

    def _console(self, message) -> None:
        # a resource that failed is told by _response, with its address
        failed = message.text.startswith("Failed to load resource")
        if message.type in ("error", "warning") and not failed:
            self.problems.append(message.text)

    def _response(self, response) -> None:
        # the browser asks for /favicon.ico by itself; everything else must be there
        # (refusals of /api/editor/ are the tests' own business)
        url = response.url
        if response.status >= 400 and not url.endswith("/favicon.ico") and "/api/" not in url:
            self.problems.append(f"{response.status} {url}")

    def answered(self, click, endpoint: str = "play") -> None:
        """Do ``click`` and wait for the editor's answer to be shown."""
        with self.page.expect_response(f"**/api/editor/{endpoint}") as response:
            click()
        assert response.value.status < 400, response.value.text()
        self.page.wait_for_function(
            "text => document.getElementById('record').value === text",
            arg=response.value.json()["text"],
        )

    def cell(self, name: str):
        return self.page.locator(f'#board polygon.cell[data-cell="{name}"]')

    def point(self, name: str):
        return self.page.locator(f'#board circle.hit[data-point="{name}"]')

    def text(self) -> str:
        return self.page.locator("#record").input_value()

    def set_tags(self, **tags: str) -> None:
        for name, value in tags.items():
            self.page.fill(f'#tags [name="{name}"]', value)
        self.answered(lambda: self.page.click('#tags button[type="submit"]'), "tags")

    def save(self, name: str) -> str:
        with self.page.expect_response("**/api/editor/save") as response:
            self.page.fill('#save [name="name"]', name)
            self.page.click('#save button[type="submit"]')
        assert response.value.status == 201, response.value.text()
        self.page.wait_for_function("() => document.getElementById('saved').textContent")
        return response.value.json()["saved"]

    def shot(self, name: str) -> None:
        folder = os.environ.get("HEXHOP_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(Path(folder) / name), full_page=True)


def _strict_and_formatted(path: Path) -> None:
    runner = CliRunner()
    checked = runner.invoke(cli, ["check", "--strict", str(path)])
    assert checked.exit_code == 0, checked.output
    formatted = runner.invoke(cli, ["fmt", "--check", str(path)])
    assert formatted.exit_code == 0, formatted.output


def test_a_hexalit_game_entered_by_clicks_is_saved_and_found(browser, server) -> None:
    base, archive, db = server
    editor = Editor(browser, base)
    page = editor.page
    editor.set_tags(North="Anna Berger", South="Jonas Keller", Event="Editor evening")
    # pointing at a die shows its targets, as the server listed them
    editor.cell("A9").hover()
    targets = page.locator("#board polygon.cell.target")
    assert sorted(targets.evaluate_all("nodes => nodes.map(n => n.dataset.cell)")) == [
        "B11",
        "B12",
    ]
    # North offers the cube, South takes it
    assert page.is_visible("#offer") and not page.is_visible("#take")
    editor.answered(lambda: page.click("#offer"))
    assert page.is_visible("#take") and page.is_visible("#drop")
    editor.answered(lambda: page.click("#take"))
    for action in HEXALIT:
        origin = action[:2] if action[2] in "W°X" else action[:3]
        editor.cell(origin).click()
        if "W" in action:  # a roll asks for its face
            face = action.split("W")[1]
            button = page.locator(f'#choices button[data-action="{action}"]')
            assert button.inner_text() == face
            editor.answered(button.click)
        else:
            target = re.split("[X°]", action)[1].rstrip("^+")
            editor.answered(editor.cell(target).click)
    text = editor.text()
    assert "1. double 2 take B9W5 E4XD4" in text
    assert "D11°E8" in text and "F7°E8" in text
    assert page.locator("#moves button.move").count() == 14
    assert page.locator("#findings li").count() == 0
    # a 2 picked: its targets, and the faces it may be rolled to
    editor.cell("B5").click()
    assert page.locator("#choices button").all_inner_texts() == ["1", "2", "3", "4", "5", "6"]
    editor.shot("serve-editor.png")
    saved = Path(editor.save("evening-hexalit"))
    assert saved == archive / "evening-hexalit.hxl"
    assert page.locator("#saved a").get_attribute("href").startswith("/games/")
    assert saved.read_text("utf-8") == text
    _strict_and_formatted(saved)
    with hexhop.open_index(db) as index:
        hits = index.find(player="Anna Berger")
    assert [(Path(h.path).name, h.plies) for h in hits] == [("evening-hexalit.hxl", 12)]
    # the next search of the archive finds it; its page opens it in the editor again
    page.goto(f"{base}/?player=anna+berger")
    rows = page.locator("table.games tbody tr")
    assert rows.count() == 1
    assert rows.locator("a").first.inner_text() == "Anna Berger – Jonas Keller"
    rows.locator("a").first.click()
    page.click('a[href^="/editor?from="]')
    page.wait_for_selector("#board svg")
    assert editor.text() == text
    assert page.locator("#moves button.move.current").inner_text() == "E6XD6"
    assert editor.problems == []


def test_a_huepfer_game_with_a_birth_and_a_double_capture(browser, server) -> None:
    base, archive, db = server
    editor = Editor(browser, base)
    page = editor.page
    page.select_option('#new [name="game"]', "Hüpfer")
    page.select_option('#new [name="Board"]', "6x6")
    editor.answered(lambda: page.click('#new button[type="submit"]'), "new")
    editor.set_tags(Red="Mira Hansen", Turquoise="Paul Ohlsen", Date="2026.12.02")
    for turn in HUEPFER:
        for point in turn[:-1]:
            editor.point(point).click()
        if turn[0] == "c3":  # before the last landing: the path so far and the next target
            assert page.locator("#board circle.hit.path").count() == 2
            assert page.locator("#board circle.hit.target").evaluate_all(
                "nodes => nodes.map(n => n.dataset.point)"
            ) == ["e5"]
            editor.shot("serve-editor-huepfer.png")
        editor.answered(editor.point(turn[-1]).click)
    text = editor.text()
    assert text.splitlines()[-1] == (
        "1. a1-c1@d1 e6-e4@d4 2. a2-c2@c3 e5-e3@d3 3. b2-d2@e2 e3xe1 4. c3xe3xe5 *"
    )
    saved = Path(editor.save(""))  # a name made from the tags
    assert saved.name == "2026-12-02_Hansen-Ohlsen.hpf"
    _strict_and_formatted(saved)
    with hexhop.open_index(db) as index:
        hits = index.find(player="Mira Hansen", game="Hüpfer")
    assert [Path(h.path).name for h in hits] == [saved.name]
    page.goto(f"{base}/?player=Hansen&game=H%C3%BCpfer")
    assert page.locator("table.games tbody tr").count() == 1
    assert editor.problems == []


def test_typed_text_shows_findings_at_their_place(browser, server) -> None:
    base, _archive, _db = server
    editor = Editor(browser, base)
    page = editor.page
    with page.expect_response("**/api/editor/state"):
        page.fill("#record", '[Game "Hexalit"]\n\n1. B4W3 D7W1 2. B4XA3 *\n')
    page.wait_for_selector("#findings li")
    assert page.locator("#findings li").inner_text().startswith("3:17 IL01")
    # the board shows the position before the illegal action
    assert page.locator("#moves button.move.current").inner_text() == "D7W1"
    # text that cannot be read: the board waits, and nothing overwrites the text
    broken = '[Game "Hexalit"]\n\n1. B4W3 (D7W1 *\n'
    with page.expect_response("**/api/editor/state"):
        page.fill("#record", broken)
    page.wait_for_selector("#board.inactive")
    # the variation is read up to its syntax error, and its action checked
    shown = page.locator("#findings li").all_inner_texts()
    assert [text[:9] for text in shown] == ["3:10 IL01", "3:15 SY01"]
    page.click("#takeback")
    editor.cell("B5").click()
    assert editor.text() == broken
    assert page.inner_text("#message") == "Correct the record text to go on entering moves."
    # corrected, it reads again, and a click goes on from it in canonical form
    with page.expect_response("**/api/editor/state"):
        page.fill("#record", '[Game "Hexalit"]\n\n1. b4w3 d7w1\n')
    page.wait_for_selector("#board:not(.inactive)")
    editor.answered(page.locator("#takeback").click, "takeback")
    assert editor.text() == '[Game "Hexalit"]\n[Result "*"]\n\n1. B4W3 *\n'
    assert editor.problems == []


def test_hostile_tags_and_comments_stay_text(browser, server) -> None:
    base, _archive, db = server
    import sqlite3

    with sqlite3.connect(db) as connection:
        [(game_id,)] = connection.execute(
            "SELECT g.id FROM games g JOIN files f ON f.id = g.file WHERE f.path LIKE '%hostile%'"
        ).fetchall()
    editor = Editor(browser, base, f"/editor?from={game_id}")
    page = editor.page
    assert page.evaluate("window.__pwned") is None
    notes = page.locator("#moves .note").all_inner_texts()
    assert notes[0] == "<script>window.__pwned = 3</script>"
    assert page.input_value('#tags [name="Event"]') == "<script>window.__pwned = 1</script>"
    assert page.locator("#board svg").count() == 1
    # stepping through it asks the server again: still text
    with page.expect_response("**/api/editor/state"):
        page.click("#back")
    page.wait_for_selector("#moves button.move.current >> text=E6°D7")
    editor.shot("serve-editor-hostile.png")
    assert page.evaluate("window.__pwned") is None
    assert editor.problems == []
