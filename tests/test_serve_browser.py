"""``hexhop serve`` in a real browser (Chromium through Playwright, as the
viewer's tests): the pages of a hostile archive run no script of a record
and raise no Content-Security-Policy violation from the project's own
scripts; the viewer steps through a game; and, with
``HEXHOP_SCREENSHOTS=DIR``, screenshots of each page are saved into DIR.
The server runs in a thread of the test process (uvicorn, as hexhop serve
runs it); the browser is the system Chromium (see test_html_browser.py)."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from serve_helpers import every_page, game_id, hostile_archive, indexed_archive

from hexhop.serve.app import create_app
from hexhop.serve.settings import Settings

CHROMIUM = os.environ.get("HEXHOP_CHROMIUM", "/usr/bin/chromium")
HOW = (
    "install Chromium (`sudo apt-get install -y chromium`, or run .ci/browser-setup) "
    "and `pip install playwright`; set HEXHOP_CHROMIUM for another browser path"
)
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

pytestmark = pytest.mark.slow  # a real browser and a real server


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


class Running:
    """The app of ``settings`` served by uvicorn in a thread, on a free port."""

    def __init__(self, db: Path, folders: tuple[Path, ...]) -> None:
        import uvicorn

        listening = socket.socket()
        listening.bind(("127.0.0.1", 0))
        listening.listen(64)
        self.port = listening.getsockname()[1]
        settings = Settings(db=db, folders=folders, port=self.port)
        config = uvicorn.Config(create_app(settings), log_level="warning", lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [listening]})
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        self.base = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)


@pytest.fixture(scope="module")
def hostile_server(tmp_path_factory):
    arch, db = hostile_archive(tmp_path_factory.mktemp("browser-hostile"))
    running = Running(db, (arch,))
    yield running, db
    running.stop()


@pytest.fixture(scope="module")
def club_server(tmp_path_factory):
    arch, db = indexed_archive(tmp_path_factory.mktemp("browser-club"))
    running = Running(db, (arch,))
    yield running, db
    running.stop()


class Tab:
    """A page in the browser with its console and errors watched."""

    def __init__(self, browser, width: int = 1280, height: int = 900) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.page.set_default_timeout(10_000)
        self.problems: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        self.page.on("dialog", lambda dialog: (self.problems.append("dialog"), dialog.dismiss()))

    def _console(self, message) -> None:
        if message.type in ("error", "warning"):
            self.problems.append(message.text)

    def open(self, url: str) -> None:
        self.page.goto(url, wait_until="load")
        if self.page.locator("#hexhop-data").count():
            self.page.wait_for_selector("html[data-ready]", state="attached")

    def close(self) -> None:
        self.context.close()


def test_no_script_of_a_record_runs_on_any_page(browser, hostile_server):
    running, db = hostile_server
    tab = Tab(browser)
    try:
        for url in every_page(db):
            tab.open(running.base + url)
            assert tab.page.evaluate("typeof window.__pwned") == "undefined", url
            # nothing breaks the layout: no page wider than the window
            width = tab.page.evaluate("document.documentElement.scrollWidth")
            assert width <= 1280, (url, width)
            expected_404 = []  # every page of every_page answers 200 or 400
            assert [p for p in tab.problems if "status of 400" not in p] == expected_404, url
            tab.problems.clear()
    finally:
        tab.close()


def test_the_viewer_steps_through_a_game(browser, club_server):
    running, db = club_server
    tab = Tab(browser)
    try:
        tab.open(f"{running.base}/games/{game_id(db, 'good/hexalit-kassel-1998.hxl')}")
        svg = tab.page.locator("#board svg")
        assert svg.get_attribute("data-ply") == "0"
        tab.page.click("#next")
        assert svg.get_attribute("data-ply") == "1"
        tab.page.keyboard.press("End")
        assert svg.get_attribute("data-ply") == "42"
        assert tab.page.locator("#caption").inner_text() != "Start position"
        assert tab.problems == []
    finally:
        tab.close()


def test_search_by_player_in_the_browser(browser, club_server):
    running, _db = club_server
    tab = Tab(browser)
    try:
        tab.open(running.base + "/?lang=de")
        tab.page.fill("input[name=player]", "muller")
        tab.page.click("form.search button[type=submit]")
        tab.page.wait_for_url("**/?player=muller*")
        assert tab.page.locator("#count").inner_text() == "2 Partien"
        tab.page.click("table.games tbody tr:first-child a")
        tab.page.wait_for_url("**/games/*")
        assert "Jürgen Müller" in tab.page.locator("h1").inner_text()
        assert tab.problems == []
    finally:
        tab.close()


def test_screenshots_of_each_page(browser, club_server):
    """With HEXHOP_SCREENSHOTS=DIR: serve-archive.png, serve-game.png,
    serve-player.png and serve-event.png in DIR."""
    folder = os.environ.get("HEXHOP_SCREENSHOTS")
    if not folder:
        pytest.skip("set HEXHOP_SCREENSHOTS=DIR to save the screenshots")
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    running, db = club_server
    tab = Tab(browser, width=1280, height=860)
    pages = {
        "serve-archive.png": "/?sort=date",
        "serve-game.png": f"/games/{game_id(db, 'good/hexalit-kassel-1998.hxl')}",
        "serve-player.png": "/players/" + quote("Paul Ohlsen"),
        "serve-event.png": "/events/" + quote("Hüpfer-Abend"),
    }
    try:
        for name, url in pages.items():
            tab.open(running.base + url)
            if name == "serve-game.png":
                tab.page.keyboard.press("ArrowRight")
                for _ in range(11):
                    tab.page.click("#next")
            tab.page.evaluate("window.scrollTo(0, 0)")
            tab.page.screenshot(path=str(out / name), full_page=name != "serve-game.png")
            assert (out / name).stat().st_size > 10_000
        assert tab.problems == []
    finally:
        tab.close()
