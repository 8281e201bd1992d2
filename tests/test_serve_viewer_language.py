"""``hexhop serve``'s game page shows the viewer in the request's language:
its buttons, titles, check and outcome, and the labels its script writes."""

from __future__ import annotations

import re

import pytest
from serve_helpers import client, game_id, indexed_archive
from test_viewer_language import ENGLISH, english_left, words_of

from hexhop.messages import language
from hexhop.render.html import viewer_labels


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    return indexed_archive(tmp_path_factory.mktemp("serve-viewer-de"))


@pytest.fixture
def app(served):
    arch, db = served
    return client(db, (arch,))


def viewer_of(page: str) -> str:
    """The viewer's part of a game page, with its data blocks."""
    start = page.index('<div class="viewer">')
    end = page.index('<div class="game">')
    blocks = re.findall(r'<script type="application/json" id="hexhop-labels">.*?</script>', page)
    assert len(blocks) == 1
    return page[start:end] + blocks[0]


@pytest.mark.parametrize(
    ("path_end", "valid"), [("good/hexalit-kassel-1998.hxl", True), ("broken/illegal.hxl", False)]
)
@pytest.mark.parametrize(
    "how",
    [
        {"params": {"lang": "de"}},
        {"cookies": {"hexhop_lang": "de"}},
        {"headers": {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}},
    ],
)
def test_the_game_page_in_german_has_no_english_word_of_the_viewer(
    app, served, path_end, valid, how
):
    _arch, db = served
    cookies = how.get("cookies")
    if cookies:
        app.cookies.update(cookies)
    response = app.get(
        f"/games/{game_id(db, path_end)}",
        params=how.get("params"),
        headers=how.get("headers"),
    )
    assert response.status_code == 200
    page = response.text
    assert '<html lang="de">' in page
    words = words_of(viewer_of(page))
    assert english_left(words.texts + list(words.labels.values()), ENGLISH) == []
    assert words.labels["ply"] == "Halbzug {ply} · {label}"
    assert words.labels["start"] == "Grundstellung"
    for text in ("Grundstellung", "Anfang der Partie (Pos1)", "Brett drehen (F)", "Tempo"):
        assert text in words.texts
    verdict = "Gültige Partie" if valid else "Ungültige Partie: 1 Fehler"
    assert verdict in words.texts
    assert language() == "en"  # the request's language did not stay


def test_the_game_page_in_english_keeps_its_words(app, served):
    _arch, db = served
    page = app.get(f"/games/{game_id(db, 'good/hexalit-kassel-1998.hxl')}").text
    assert '<html lang="en">' in page
    words = words_of(viewer_of(page))
    assert words.labels == viewer_labels()
    assert words.labels["ply"] == "Ply {ply} · {label}"
    for text in (
        "Start position",
        "Valid record",
        "Start of the game (Home)",
        "Flip the board (F)",
        "South won at ply 42 · result 0-1 · termination: Hexalit",
    ):
        assert text in words.texts, text


def test_german_and_english_requests_in_turn_each_get_their_own_words(app, served):
    _arch, db = served
    url = f"/games/{game_id(db, 'good/hexalit-kassel-1998.hxl')}"
    for lang, start in (("de", "Grundstellung"), ("en", "Start position"), ("de", "Grundstellung")):
        words = words_of(viewer_of(app.get(url, params={"lang": lang}).text))
        assert words.labels["start"] == start and start in words.texts
