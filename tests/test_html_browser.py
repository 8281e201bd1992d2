"""The HTML viewer in a real browser (Chromium through Playwright).

The pages are opened from file:// URLs, as users open them. The browser is
the system Chromium at /usr/bin/chromium (``.ci/browser-setup`` installs it
on Debian); without it, or without the ``playwright`` package, these tests
skip and say how to get them running.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from test_html import HOSTILE, SAMPLES, report_of

from hexhop.records.viewer import page_data
from hexhop.render.html import game_page

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

GAMES = {
    "hexalit": SAMPLES / "good" / "hexalit-kassel-1998.hxl",
    "trigeo": SAMPLES / "good" / "trigeo-goettingen-1999.trg",
    "huepfer": SAMPLES / "good" / "huepfer-6x6-bremen-2003.hpf",
    "illegal": SAMPLES / "broken" / "illegal-hexalit-pawn-capture.hxl",
    "hostile": HOSTILE,
}

pytestmark = pytest.mark.slow  # a real browser


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


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, tuple[Path, object]]:
    """Every test game as a page on disk, with its replay report."""
    folder = tmp_path_factory.mktemp("viewer")
    out = {}
    for name, source in GAMES.items():
        report = report_of(source)
        path = folder / f"{name}.html"
        path.write_text(game_page(page_data(report)), encoding="utf-8")
        out[name] = (path, report)
    return out


class Viewer:
    """A page opened in the browser, with the console watched."""

    def __init__(
        self,
        browser,
        path: Path,
        *,
        width: int = 1280,
        height: int = 860,
        clock: bool = False,
        fragment: str = "",
    ):
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.page.set_default_timeout(5_000)
        self.problems: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(str(error)))
        self.requests: list[str] = []
        self.page.on("request", lambda request: self.requests.append(request.url))
        if clock:
            self.page.clock.install()
        self.page.goto(path.as_uri() + fragment)
        # the page unpacks its data before it draws and listens to keys
        self.page.wait_for_selector("html[data-ready]", state="attached")

    def _console(self, message) -> None:
        if message.type in ("error", "warning"):
            self.problems.append(message.text)

    def shown(self) -> tuple[int, str]:
        svg = self.page.locator("#board svg")
        return int(svg.get_attribute("data-ply")), svg.get_attribute("data-position")

    def press(self, key: str, times: int = 1) -> None:
        for _ in range(times):
            self.page.keyboard.press(key)

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def open_page(browser, pages):
    opened: list[Viewer] = []

    def opener(name: str, **options) -> tuple[Viewer, object]:
        path, report = pages[name]
        viewer = Viewer(browser, path, **options)
        opened.append(viewer)
        return viewer, report

    yield opener
    for viewer in opened:
        viewer.close()


def expected(report, ply: int) -> tuple[int, str]:
    position = report.positions[ply]
    return position.ply, position.text()


@pytest.mark.parametrize("name", ["hexalit", "trigeo", "huepfer", "illegal"])
def test_page_loads_cleanly_at_the_start(open_page, name):
    viewer, report = open_page(name)
    assert viewer.shown() == expected(report, 0)
    assert viewer.page.locator("#caption").inner_text() == "Start position"
    assert viewer.problems == []
    assert all(url.startswith("file://") for url in viewer.requests)


def test_arrow_keys_step_through_every_position(open_page):
    viewer, report = open_page("trigeo")
    last = len(report.positions) - 1
    for ply in range(1, last + 1):
        viewer.press("ArrowRight")
        assert viewer.shown() == expected(report, ply)
    viewer.press("ArrowRight")
    assert viewer.shown() == expected(report, last)
    viewer.press("ArrowLeft", 3)
    assert viewer.shown() == expected(report, last - 3)
    viewer.press("Home")
    assert viewer.shown() == expected(report, 0)
    viewer.press("End")
    assert viewer.shown() == expected(report, last)
    assert viewer.problems == []


def test_clicking_an_action_shows_its_position(open_page):
    viewer, report = open_page("hexalit")
    viewer.page.get_by_role("button", name="F6°A6!", exact=True).click()
    ply = next(i for i, node in enumerate(report.nodes, 1) if node.text == "F6°A6")
    assert viewer.shown() == expected(report, ply)
    current = viewer.page.locator("#moves .move.current")
    assert current.inner_text() == "F6°A6!" and current.get_attribute("aria-current") == "step"
    assert viewer.page.locator("#slider").input_value() == str(ply)


def test_buttons_and_slider_navigate(open_page):
    viewer, report = open_page("huepfer")
    page = viewer.page
    page.click("#next")
    page.click("#next")
    assert viewer.shown() == expected(report, 2)
    page.click("#prev")
    assert viewer.shown() == expected(report, 1)
    page.click("#last")
    assert viewer.shown() == expected(report, len(report.positions) - 1)
    page.locator("#slider").fill("7")
    assert viewer.shown() == expected(report, 7)
    page.click("#first")
    assert viewer.shown() == expected(report, 0)
    assert page.locator("#first").is_disabled() and page.locator("#prev").is_disabled()


def test_variation_can_be_entered_played_and_left(open_page):
    from hexhop.engine.games import rules_for

    viewer, report = open_page("hexalit")
    page = viewer.page
    branch = next(i for i, node in enumerate(report.nodes) if node.variations)
    alternative = report.nodes[branch].variations[0].nodes[0]
    after = rules_for("Hexalit").play(report.positions[branch], alternative.item).position
    assert page.locator("#mainline").is_hidden()
    page.locator(".variation button.move").first.click()
    assert viewer.shown() == (after.ply, after.text())
    assert "variation" in page.locator("#caption").inner_text()
    assert page.locator(".variation.current-line").count() == 1
    assert "would have won at once" in page.locator("#frame-notes").inner_text()
    assert page.locator("#mainline").is_visible() and page.locator("#next").is_disabled()
    viewer.press("ArrowLeft")  # back to where the variation branches off
    assert viewer.shown() == expected(report, branch)
    assert page.locator("#mainline").is_hidden()
    viewer.press("ArrowRight")  # the main line goes on with the game's action
    assert viewer.shown() == expected(report, branch + 1)
    page.locator(".variation button.move").first.click()
    page.click("#mainline")
    assert viewer.shown() == expected(report, branch)
    page.locator(".variation button.move").first.click()
    viewer.press("Escape")
    assert viewer.shown() == expected(report, branch)
    assert viewer.problems == []


def test_autoplay_reaches_the_end(open_page):
    viewer, report = open_page("huepfer", clock=True)
    page = viewer.page
    page.click("#play")
    assert page.locator("#play").get_attribute("aria-pressed") == "true"
    page.clock.run_for(2_500)
    assert viewer.shown() == expected(report, 2)
    page.clock.run_for(1_000 * len(report.positions))
    assert viewer.shown() == expected(report, len(report.positions) - 1)
    assert page.locator("#play").get_attribute("aria-pressed") == "false"
    assert viewer.problems == []


def test_flip_keeps_the_position(open_page):
    viewer, report = open_page("trigeo")
    viewer.press("ArrowRight", 5)
    before = viewer.page.locator("#board").inner_html()
    viewer.page.click("#flip")
    assert viewer.page.locator("#board").inner_html() != before
    assert viewer.shown() == expected(report, 5)
    assert viewer.page.locator("#flip").get_attribute("aria-pressed") == "true"
    viewer.press("ArrowRight")
    assert viewer.shown() == expected(report, 6)


def test_keyboard_alone_reaches_and_uses_the_controls(open_page):
    viewer, report = open_page("trigeo")
    page = viewer.page
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "next":
            break
    else:
        pytest.fail("Tab never reached the next button")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("none", "")
    page.keyboard.press("Enter")
    assert viewer.shown() == expected(report, 1)


def test_refused_action_is_red_with_its_message(open_page):
    viewer, report = open_page("illegal")
    page = viewer.page
    refused = page.locator("#moves .move.illegal")
    assert refused.count() == 1
    assert (
        page.evaluate("getComputedStyle(document.querySelector('.move.illegal')).backgroundColor")
        == "rgb(179, 38, 30)"
    )
    assert "IL01" in page.locator("#moves .note-inline.error").inner_text()
    viewer.press("End")
    assert viewer.shown() == expected(report, len(report.positions) - 1)
    assert "is not legal" in page.locator("#frame-notes .note.error").inner_text()
    assert "Invalid record" in page.locator(".verdict").inner_text()


def test_hostile_record_shows_text_and_runs_nothing(open_page):
    viewer, report = open_page("hostile")
    page = viewer.page
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.locator("img").count() == 0 and page.locator("#moves b").count() == 0
    assert "<script>window.__pwned = 1</script>" in page.locator(".meta").inner_text()
    assert "<img src=x onerror=" in page.locator("h1").inner_text()
    page.locator(".variation button.move").first.click()
    assert "</script><script>window.__pwned = 5" in page.locator("#frame-notes").inner_text()
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert viewer.problems == []


def test_phone_sized_screen_needs_no_sideways_scrolling(open_page):
    viewer, report = open_page("hexalit", width=375, height=740)
    page = viewer.page
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    board = page.locator("#board svg").bounding_box()
    moves = page.locator("#moves").bounding_box()
    assert board["width"] > 300 and moves["y"] > board["y"] + board["height"]
    page.locator("#next").click()
    assert viewer.shown() == expected(report, 1)


def test_fragment_opens_at_a_ply(open_page):
    viewer, report = open_page("trigeo", fragment="#12")
    assert viewer.shown() == expected(report, 12)
    assert viewer.page.locator("#moves .move.current").count() == 1


def test_pieces_have_the_colours_of_the_png(open_page, tmp_path):
    """The page's own styles (e.g. its button icons) must
    not repaint the board: every piece, the reserve markers included, has the
    colour the PNG of the same position has."""
    import io

    from PIL import Image

    from hexhop.render.png import svg_to_png

    viewer, report = open_page("huepfer", height=1600)  # the board is not height-capped
    page = viewer.page
    viewer.press("ArrowRight", 3)
    board = page.locator("#board svg")
    box = board.bounding_box()
    width = round(box["width"])
    shot = Image.open(io.BytesIO(board.screenshot())).convert("RGB")
    svg = page_data(report).svg(page_data(report).frames[3])
    png = Image.open(io.BytesIO(svg_to_png(svg, size=width))).convert("RGB")
    spots = page.evaluate(
        """() => {
          const svg = document.querySelector('#board svg').getBoundingClientRect();
          return [...document.querySelectorAll(
            '#board circle.piece, #board .reserve circle, #board circle.to-move')]
            .flatMap(c => {
              const m = c.getScreenCTM(), cx = c.cx.baseVal.value, cy = c.cy.baseVal.value;
              const r = c.r.baseVal.value;
              // the middle, and the ring of a Turquoise piece; not where a mark covers it
              return [cx, cx + r].map(x => new DOMPoint(x, cy).matrixTransform(m))
                .filter(p => document.elementFromPoint(p.x, p.y) === c)
                .map(p => [c.getAttribute('class'), p.x - svg.left, p.y - svg.top]); });
        }"""
    )
    assert len([s for s in spots if "icon" in s[0]]) == 4 and len(spots) > 20
    for cls, x, y in spots:
        at = (round(x), round(y))
        seen, drawn = shot.getpixel(at), png.getpixel(at)
        assert all(abs(a - b) <= 48 for a, b in zip(seen, drawn)), (cls, at, seen, drawn)


def test_download_gives_the_record_and_copy_the_position(open_page):
    """The button "Download this record" saves the record's text,
    "Copy position" puts the position shown on the clipboard."""
    from hexhop.notation.writer import format_record

    viewer, report = open_page("trigeo")
    page = viewer.page
    with page.expect_download() as download:
        page.click("#download")
    saved = download.value
    assert saved.suggested_filename == "game1.trg"
    assert Path(saved.path()).read_text(encoding="utf-8") == format_record(report.record)
    page.evaluate(
        "navigator.clipboard.writeText = t => { window.__copied = t; return Promise.resolve(); }"
    )
    viewer.press("ArrowRight", 4)
    page.click("#copy")
    position = report.positions[4].text()
    assert page.evaluate("window.__copied") == position
    assert page.locator("#copied").inner_text() == f"Copied: {position}"
    assert viewer.problems == []


def test_index_sorts_and_filters(browser, tmp_path):
    """The index sorts by a column and filters by words, offline."""
    from click.testing import CliRunner

    from hexhop.cli.main import cli

    folder = tmp_path / "club"
    folder.mkdir()
    names = ["hexalit-kassel-1998.hxl", "trigeo-goettingen-1999.trg", "huepfer-6x6-bremen-2003.hpf"]
    for name in names:
        (folder / name).write_bytes((SAMPLES / "good" / name).read_bytes())
    out = tmp_path / "site"
    result = CliRunner().invoke(
        cli, ["render", str(folder), "--format", "html", "--out-dir", str(out)]
    )
    assert result.exit_code == 0, result.output
    context = browser.new_context()
    try:
        page = context.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.goto((out / "index.html").as_uri())
        dates = "#games tbody tr td:nth-child(6)"

        def column(selector: str) -> list[str]:
            return page.locator(selector).all_inner_texts()

        page.get_by_role("button", name="Date").click()
        assert column(dates) == sorted(column(dates))
        assert page.locator("th:nth-child(6)").get_attribute("aria-sort") == "ascending"
        page.get_by_role("button", name="Date").click()
        assert column(dates) == sorted(column(dates), reverse=True)
        page.fill("#filter", "brandt")
        visible = page.locator("#games tbody tr:visible")
        assert visible.count() == 1 and "Karl Brandt" in visible.inner_text()
        assert page.locator("#shown").inner_text() == "1 of 3 games shown"
        page.fill("#filter", "")
        assert page.locator("#games tbody tr:visible").count() == 3
        visible.first.locator("a").click()
        page.wait_for_selector("html[data-ready]", state="attached")
        page.click(".site-nav a")
        assert page.url.endswith("/index.html") and problems == []
    finally:
        context.close()


def test_archive_pages_use_the_shared_files_offline(browser, tmp_path):
    """An archive's pages link viewer.css and viewer.js beside
    the index; from file:// the policy lets them in and the page works as a
    lone page does."""
    from click.testing import CliRunner

    from hexhop.cli.main import cli

    folder = tmp_path / "club"
    folder.mkdir()
    for name in ("hexalit-kassel-1998.hxl", "huepfer-6x6-bremen-2003.hpf"):
        (folder / name).write_bytes((SAMPLES / "good" / name).read_bytes())
    out = tmp_path / "site"
    result = CliRunner().invoke(
        cli, ["render", str(folder), "--format", "html", "--out-dir", str(out)]
    )
    assert result.exit_code == 0, result.output
    viewer = Viewer(browser, out / "hexalit-kassel-1998" / "game001.html")
    try:
        report = report_of(GAMES["hexalit"])
        viewer.press("ArrowRight", 3)
        assert viewer.shown() == expected(report, 3)
        viewer.press("f")
        assert viewer.shown() == expected(report, 3)
        # the linked style is applied: the controls are a row, not stacked buttons
        display = "getComputedStyle(document.querySelector('.controls')).display"
        assert viewer.page.evaluate(display) == "flex"
        assert viewer.problems == []
        shared = {url.rsplit("/", 2)[-2] + "/" + url.rsplit("/", 1)[-1] for url in viewer.requests}
        assert {"site/viewer.js", "site/viewer.css"} <= shared
        assert all(url.startswith("file://") for url in viewer.requests)
    finally:
        viewer.close()
