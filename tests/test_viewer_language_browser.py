"""The German viewer in a real browser (Chromium through Playwright, as
tests/test_html_browser.py): after the script ran, the page shows no English
word of the viewer, the ply line and the buttons' titles included; the
same for ``hexhop serve``'s game page with ``?lang=de``. With
``HEXHOP_SCREENSHOTS=DIR``, viewer-de.png, viewer-en.png and
serve-game-de.png are saved into DIR."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_html import SAMPLES, report_of
from test_html_browser import ARGS, CHROMIUM, HOW
from test_viewer_language import ENGLISH, english_left

from hexhop.messages import set_language
from hexhop.records.viewer import page_data
from hexhop.render.html import game_page

pytestmark = pytest.mark.slow  # a real browser

KASSEL = SAMPLES / "good" / "hexalit-kassel-1998.hxl"
ILLEGAL = SAMPLES / "broken" / "illegal-hexalit-pawn-capture.hxl"

#: What a person reads of the page once the script ran: the visible text and
#: every title, label and placeholder, but the record's own words (comments,
#: actions, tag names and values, players, the finding's quoted action).
READ = """() => {
  const skip = ".comment, .move, .num, .tags, .game-head h1, .meta, code";
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(skip) || parent.closest("script, style, [hidden]")) continue;
    if (!parent.checkVisibility() && !parent.closest("option")) continue;
    if (node.textContent.trim()) out.push(node.textContent.trim());
  }
  for (const element of document.querySelectorAll("[title], [aria-label], [placeholder]")) {
    if (element.closest(".tags")) continue;
    for (const name of ["title", "aria-label", "placeholder"]) {
      const value = element.getAttribute(name);
      if (value) out.push(value);
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason=f"no playwright: {HOW}")
    if not (os.path.exists(CHROMIUM) or __import__("shutil").which(CHROMIUM)):
        pytest.skip(f"no browser at {CHROMIUM}: {HOW}")
    with sync_api.sync_playwright() as playwright:
        try:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        except Exception as error:  # a broken browser install: say so, do not fail
            pytest.skip(f"cannot start {CHROMIUM} ({error}): {HOW}")
        yield chromium
        chromium.close()


def write_page(folder: Path, source: Path, lang: str) -> Path:
    set_language(lang)
    try:
        text = game_page(page_data(report_of(source)))
    finally:
        set_language("en")
    path = folder / f"{source.stem}-{lang}.html"
    path.write_text(text, encoding="utf-8")
    return path


class Tab:
    def __init__(self, browser) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 860})
        self.page = self.context.new_page()
        self.page.set_default_timeout(10_000)
        self.problems: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(str(error)))

    def _console(self, message) -> None:
        if message.type in ("error", "warning"):
            self.problems.append(message.text)

    def open(self, url: str) -> None:
        self.page.goto(url)
        self.page.wait_for_selector("html[data-ready]", state="attached")

    def read(self) -> list[str]:
        return self.page.evaluate(READ)

    def titles(self) -> dict[str, str]:
        return self.page.evaluate(
            "() => Object.fromEntries([...document.querySelectorAll('.controls button, "
            ".line-row button, .record-tools button')].map(b => [b.id, b.title]))"
        )

    def close(self) -> None:
        self.context.close()


def shoot(tab: Tab, name: str) -> None:
    folder = os.environ.get("HEXHOP_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        tab.page.evaluate("window.scrollTo(0, 0)")
        tab.page.screenshot(path=str(Path(folder) / name))


def test_the_german_page_after_its_script_ran(browser, tmp_path):
    tab = Tab(browser)
    try:
        tab.open(write_page(tmp_path, KASSEL, "de").as_uri())
        page = tab.page
        assert page.locator("html").get_attribute("lang") == "de"
        assert page.locator("#caption").inner_text() == "Grundstellung"
        assert tab.titles() == {
            "first": "Anfang der Partie (Pos1)",
            "prev": "Vorheriger Zug (←)",
            "play": "Automatisch nachspielen (P)",
            "next": "Nächster Zug (→)",
            "last": "Ende der Zugfolge (Ende)",
            "flip": "Brett drehen (F)",
            "mainline": "Zurück zur Hauptvariante (Esc)",
            "download": "Die Partie als Textdatei speichern",
            "copy": "Die gezeigte Stellung kopieren, als Wert eines Position-Tags",
        }
        # the ply line the script writes
        for _ in range(12):
            page.click("#next")
        caption = page.locator("#caption").inner_text()
        assert caption.startswith("Halbzug 12 · 6... "), caption
        assert page.locator("#board svg").get_attribute("data-ply") == "12"
        assert english_left(tab.read(), ENGLISH) == []
        assert "Nord am Zug" in page.locator("#board svg").text_content()
        shoot(tab, "viewer-de.png")
        # a variation: its caption and its group's label
        page.locator(".variation button.move").first.click()
        assert page.locator("#caption").inner_text().endswith(" · Variante")
        assert page.locator(".variation").first.get_attribute("aria-label") == "Variante"
        assert english_left(tab.read(), ENGLISH) == []
        page.keyboard.press("Escape")
        page.keyboard.press("End")
        assert page.locator("#caption").inner_text().startswith("Halbzug 42 · 21... ")
        assert "Süd gewinnt" in page.locator("#board svg").text_content()
        page.evaluate(
            "navigator.clipboard.writeText = t => { window.__copied = t; return Promise.resolve(); }"
        )
        page.click("#copy")
        position = page.locator("#board svg").get_attribute("data-position")
        page.wait_for_function("document.getElementById('copied').textContent !== ''")
        assert page.locator("#copied").inner_text() == f"Kopiert: {position}"
        assert english_left(tab.read(), ENGLISH) == []
        assert tab.problems == []

        # a refused action: its hint and the note ahead of it
        tab.open(write_page(tmp_path, ILLEGAL, "de").as_uri())
        assert page.locator(".move.illegal").get_attribute("title") == (
            "nach den Regeln nicht erlaubt"
        )
        page.click("#next")
        notes = page.locator("#frame-notes").inner_text()
        assert notes.startswith("Als Nächstes E6°D5: IL01 "), notes
        assert "ist nicht erlaubt" in notes
        assert page.locator(".verdict").inner_text() == "Ungültige Partie: 1 Fehler"
        assert english_left(tab.read(), ENGLISH) == []
        assert tab.problems == []
    finally:
        tab.close()


def test_the_english_page_after_its_script_ran(browser, tmp_path):
    tab = Tab(browser)
    try:
        tab.open(write_page(tmp_path, KASSEL, "en").as_uri())
        page = tab.page
        assert page.locator("html").get_attribute("lang") == "en"
        assert tab.titles()["first"] == "Start of the game (Home)"
        for _ in range(12):
            page.click("#next")
        assert page.locator("#caption").inner_text().startswith("Ply 12 · 6... ")
        shoot(tab, "viewer-en.png")
        page.locator(".variation button.move").first.click()
        assert page.locator("#caption").inner_text().endswith(" · variation")
        assert tab.problems == []
    finally:
        tab.close()


def test_the_served_game_page_in_german(browser, tmp_path):
    pytest.importorskip("uvicorn", reason="the serve extra: pip install 'hexhop[serve]'")
    from serve_helpers import game_id, indexed_archive
    from test_serve_browser import Running

    arch, db = indexed_archive(tmp_path)
    running = Running(db, (arch,))
    tab = Tab(browser)
    try:
        number = game_id(db, "good/hexalit-kassel-1998.hxl")
        tab.open(f"{running.base}/games/{number}?lang=de")
        page = tab.page
        assert page.locator("html").get_attribute("lang") == "de"
        assert page.locator("#caption").inner_text() == "Grundstellung"
        assert tab.titles()["last"] == "Ende der Zugfolge (Ende)"
        for _ in range(12):
            page.click("#next")
        assert page.locator("#caption").inner_text().startswith("Halbzug 12 · 6... ")
        # the viewer's part of the page (the record, its tags and the
        # server's own sections are the server's page, tested there)
        viewer = page.evaluate(
            "() => { const v = document.querySelector('.viewer');"
            " for (const e of document.body.children) if (!e.contains(v)) e.hidden = true;"
            " for (const e of document.querySelectorAll('header.game-title, .game, nav'))"
            " e.hidden = true; return true; }"
        )
        assert viewer
        assert english_left(tab.read(), ENGLISH) == []
        page.evaluate("() => document.querySelectorAll('[hidden]').forEach(e => e.hidden = false)")
        page.locator("#mainline").evaluate("b => b.hidden = true")
        shoot(tab, "serve-game-de.png")
        assert tab.problems == []
    finally:
        tab.close()
        running.stop()
