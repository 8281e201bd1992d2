"""The analysis on a game page of ``hexhop serve``, in a real browser (as
test_serve_browser.py runs it): a missed win's "Show the line" button puts
the winning line on the viewer's board, and the arrows step through it;
with ``HEXHOP_SCREENSHOTS=DIR`` the page is saved into DIR."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from serve_helpers import game_id
from test_analysis_words import BOTH
from test_serve_browser import Running, Tab, browser  # noqa: F401 (a fixture)

from hexhop.cli.main import cli
from hexhop.engine.games import rules_for
from hexhop.engine.replay import replay_game
from hexhop.notation import read_archive

ROOT = Path(__file__).resolve().parent.parent
BREMEN = ROOT / "samples" / "good" / "huepfer-6x6-bremen-2003.hpf"

pytestmark = pytest.mark.slow  # a real browser and a real server


@pytest.fixture(scope="module")
def analysed_server(tmp_path_factory):
    root = tmp_path_factory.mktemp("browser-analysis")
    club = root / "club"
    club.mkdir()
    shutil.copy(BREMEN, club / "bremen.hpf")
    (club / "both.hpf").write_text(BOTH, "utf-8")
    db = root / "club.sqlite"
    done = CliRunner().invoke(cli, ["index", str(club), "--db", str(db), "--analyse", "-q"])
    assert done.exit_code == 0, done.output
    running = Running(db, (club,))
    yield running, db
    running.stop()


def positions_after(record: Path | str, ply: int, line: list[str]) -> list[str]:
    """The Position texts after each action of ``line``, played from the
    position before ``ply`` of the record's main line."""
    data = record.read_bytes() if isinstance(record, Path) else record.encode()
    report = replay_game(next(iter(read_archive(data, path="x.hpf"))))
    rules = rules_for("Hüpfer")
    position, found = report.positions[ply - 1], []
    for text in line:
        action = next(a for a in rules.legal_actions(position) if str(a) == text)
        position = rules.play(position, action).position
        found.append(position.text())
    return found


def shown(tab: Tab) -> tuple[str | None, str | None]:
    svg = tab.page.locator("#board svg")
    return svg.get_attribute("data-ply"), svg.get_attribute("data-position")


def test_show_the_line_steps_through_a_missed_win(browser, analysed_server):  # noqa: F811
    running, db = analysed_server
    tab = Tab(browser)
    try:
        tab.open(f"{running.base}/games/{game_id(db, 'bremen.hpf')}")
        # Red missed a win in 2 at ply 7: 4. a1-c1-c3@c4, Turquoise's longest
        # defence, then the capture that wins
        line = ["a1-c1-c3@c4", "d4xb4", "b3xb5xd5xf5"]
        expected = positions_after(BREMEN, 7, line)
        tab.page.click('#analysis li[data-ply="7"] button.show-line')
        assert shown(tab) == ("7", expected[0])
        tab.page.keyboard.press("ArrowRight")
        assert shown(tab) == ("8", expected[1])
        screenshots = os.environ.get("HEXHOP_SCREENSHOTS")
        if screenshots:
            tab.page.screenshot(path=str(Path(screenshots) / "game-line.png"), full_page=True)
        tab.page.keyboard.press("ArrowRight")
        assert shown(tab) == ("9", expected[2])
        tab.page.keyboard.press("ArrowRight")  # the line ends with the win
        assert shown(tab) == ("9", expected[2])
        tab.page.keyboard.press("Escape")  # back to the main line, at ply 6
        assert shown(tab)[0] == "6"
        assert tab.problems == []
    finally:
        tab.close()


def test_the_ply_with_both_notes_is_marked_and_shows_its_line(
    browser,  # noqa: F811
    analysed_server,
):
    running, db = analysed_server
    tab = Tab(browser)
    try:
        tab.open(f"{running.base}/games/{game_id(db, 'both.hpf')}")
        mark = tab.page.locator("#record mark.note")
        assert mark.count() == 1 and mark.inner_text() == "b2-b4-d4@e4"
        assert mark.get_attribute("class") == "note allows"
        notes = tab.page.locator("#analysis li")
        assert [notes.nth(i).get_attribute("class") for i in range(2)] == ["missed", "allows"]
        tab.page.click("#analysis li.missed button.show-line")
        assert shown(tab) == ("1", positions_after(BOTH, 1, ["b2-d2@e2"])[0])
        assert tab.problems == []
    finally:
        tab.close()
