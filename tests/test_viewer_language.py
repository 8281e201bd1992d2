"""The viewer page speaks the language of the command line (``render
--format html``) or of the request (``hexhop serve``'s game page): every
word of the page, those the script writes at run time included, which come
from the page's labels (a JSON data block), never from ``viewer.js``."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_html import HOSTILE, SAMPLES, report_of

from hexhop.cli.main import cli
from hexhop.messages import set_language
from hexhop.records.viewer import page_data, summary
from hexhop.render.html import (
    _json_script,
    game_page,
    index_labels,
    index_page,
    shared_file,
    viewer_labels,
)

ROOT = Path(__file__).resolve().parent.parent
KASSEL = SAMPLES / "good" / "hexalit-kassel-1998.hxl"
ILLEGAL = SAMPLES / "broken" / "illegal-hexalit-pawn-capture.hxl"

#: Words of the viewer in English, none of which a German page may show
#: (as whole words: "Ply" is not in "Display").
ENGLISH = (
    "Start position",
    "Start of the game",
    "Previous action",
    "Autoplay",
    "Play",
    "Pause",
    "Next action",
    "End of the line",
    "Flip the board",
    "Flip",
    "Speed",
    "slow",
    "normal",
    "fast",
    "Position in the line",
    "Back to the main line",
    "Save the record",
    "Download this record",
    "Copy the position",
    "Copy position",
    "Valid record",
    "Invalid record",
    "All tags",
    "All games",
    "Round",
    "annotated by",
    "won at",
    "result",
    "termination",
    "Board",
    "Moves",
    "Move list",
    "Navigation",
    "needs JavaScript",
    "Ply",
    "ply",
    "variation",
    "Variation",
    "refused by the rules",
    "not played",
    "doubling cube",
    "Next",
    "the next action",
    "Copied",
    "Position",
    "Home",
    "End",
    "North",
    "South",
    "error",
    "errors",
    "warning",
    "show",
    "line",
)
#: The same words of the index page.
ENGLISH_INDEX = (
    "Games",
    "File",
    "Game",
    "Players",
    "Event",
    "Date",
    "Result",
    "Plies",
    "Check",
    "Sort by",
    "games",
    "valid",
    "invalid",
    "not drawn",
    "shown",
    "of",
)


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    set_language("en")


class Words(HTMLParser):
    """What a person reads of a page: its text and the titles, labels and
    placeholders of its elements, without scripts, styles and the record's
    own tag list (``<dl>``: tag names as the record writes them)."""

    SKIP = {"script", "style", "dl"}

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.labels: dict[str, str] = {}
        self._skip: list[str] = []
        self._json: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and attrs.get("type") == "application/json":
            self._json = ""
        if tag in self.SKIP:
            self._skip.append(tag)
        if not self._skip:
            for name in ("title", "aria-label", "placeholder"):
                if attrs.get(name):
                    self.texts.append(attrs[name])

    def handle_endtag(self, tag):
        if tag == "script" and self._json is not None:
            self.labels = json.loads(self._json)
            self._json = None
        if self._skip and self._skip[-1] == tag:
            self._skip.pop()

    def handle_data(self, data):
        if self._json is not None:
            self._json += data
        elif not self._skip and data.strip():
            self.texts.append(data.strip())


def words_of(html: str) -> Words:
    parser = Words()
    parser.feed(html)
    return parser


def english_left(texts: list[str], english: tuple[str, ...]) -> list[str]:
    """The words of ``english`` found (as whole words) in ``texts``, but in
    the ``{fields}`` a script fills in and the name of the Position tag
    (a word of the notation, the same in every language)."""
    joined = re.sub(r"\{\w+\}|Position-Tag", "", "\n".join(texts))
    return [word for word in english if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", joined)]


def german_page(path: Path = KASSEL) -> str:
    set_language("de")
    try:
        return game_page(page_data(report_of(path)))
    finally:
        set_language("en")


# ---------------------------------------------------------------------------
# The offline page


def test_the_script_holds_no_words_of_its_own():
    """Its strings are names (ids, classes, keys, labels' names): the only
    ones with a space are these bits of class names and selectors."""
    script = shared_file("viewer.js")
    spaced = {s for s in re.findall(r'"([^"\\]*)"', script) if " " in s}
    assert spaced == {
        "use strict",
        " ",
        " / ",
        " has-",
        "note-inline ",
        " unplayable",
        "note ",
        ".current, .current-line",
        "' + frame.l + '",
        "' + id + '",
    }
    literals = "\n".join(re.findall(r'"([^"\\]*)"', script))
    for label in viewer_labels().values():
        words = label.split("{")[0].strip(" :,")
        assert not re.search(rf"\b{re.escape(words)}\b", literals), label
    index = (ROOT / "render" / "index.js").read_text("utf-8")
    assert {s for s in re.findall(r'"([^"\\]*)"', index) if " " in s} == {"use strict"}


def test_the_english_page_speaks_english():
    page = game_page(page_data(report_of(KASSEL)))
    assert '<html lang="en">' in page
    words = words_of(page)
    assert words.labels == viewer_labels()
    assert words.labels["ply"] == "Ply {ply} · {label}"
    assert words.labels["start"] == "Start position"
    for text in (
        "Start position",
        "Valid record",
        "All tags",
        "South won at ply 42 · result 0-1 · termination: Hexalit",
        "Start of the game (Home)",
        "End of the line (End)",
        "Download this record",
    ):
        assert text in words.texts, text
    assert '<span class="side">North</span> Anna Berger' in page
    assert "1998.03.14 · Round 4" in page


def test_the_german_page_has_no_english_word_left():
    page = german_page()
    assert '<html lang="de">' in page
    words = words_of(page)
    assert english_left(words.texts + list(words.labels.values()), ENGLISH) == []
    for text in (
        "Grundstellung",
        "Gültige Partie",
        "Alle Tags",
        "Süd hat mit Halbzug 42 gewonnen · Ergebnis 0-1 · Spielende: Hexalit",
        "Anfang der Partie (Pos1)",
        "Vorheriger Zug (←)",
        "Automatisch nachspielen (P)",
        "Abspielen",
        "Anhalten",
        "Nächster Zug (→)",
        "Ende der Zugfolge (Ende)",
        "Brett drehen (F)",
        "Drehen",
        "Tempo",
        "langsam",
        "mittel",
        "schnell",
        "Stellung in der Zugfolge",
        "Zurück zur Hauptvariante (Esc)",
        "Diese Partie herunterladen",
        "Stellung kopieren",
        "Das Brett braucht JavaScript.",
    ):
        assert text in words.texts, text
    # the header: the sides, the date and the round as a German club writes them
    assert '<span class="side">Nord</span> Anna Berger' in page
    assert '<span class="side">Süd</span> Jonas Keller' in page
    assert "14.03.1998 · Runde 4" in page
    # the script's words, filled in at run time
    assert words.labels == {
        "ahead": "Als Nächstes {action}: ",
        "copied": "Kopiert: {text}",
        "cube": "Dopplerwürfel",
        "illegal": "nach den Regeln nicht erlaubt",
        "nextAction": "der nächste Zug",
        "ply": "Halbzug {ply} · {label}",
        "plyVariation": "Halbzug {ply} · {label} · Variante",
        "position": "Stellung: {text}",
        "start": "Grundstellung",
        "unplayed": "nicht gespielt: ein früherer Zug war nicht erlaubt",
        "variation": "Variante",
    }


def test_the_german_check_of_an_invalid_record():
    page = german_page(ILLEGAL)
    words = words_of(page)
    assert english_left(words.texts + list(words.labels.values()), ENGLISH) == []
    assert "Ungültige Partie: 1 Fehler" in words.texts
    assert re.search(
        r'<button type="button" class="jump-to" data-frame="1">Halbzug 2</button>', page
    )
    assert "ist nicht erlaubt" in page  # the finding, in German too


def test_plural_counts_in_the_check():
    set_language("de")
    from hexhop.render.html import _errors, _warnings

    assert (_errors(1), _errors(3), _warnings(1), _warnings(2)) == (
        "1 Fehler",
        "3 Fehler",
        "1 Warnung",
        "2 Warnungen",
    )
    set_language("en")
    assert (_errors(1), _errors(3), _warnings(1), _warnings(2)) == (
        "1 error",
        "3 errors",
        "1 warning",
        "2 warnings",
    )


def test_the_offline_page_keeps_its_csp_hash():
    """The labels are a data block: the policy still allows the one script
    by its hash, and nothing else runs."""
    import base64
    import hashlib

    page = german_page()
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(scripts) == 1 and scripts[0] == shared_file("viewer.js")
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in page
    assert re.findall(r'<script type="([^"]+)" id="([^"]+)">', page) == [
        ("application/json", "hexhop-labels"),
        ("application/gzip", "hexhop-data"),
    ]


def test_the_labels_block_cannot_be_closed_by_its_text():
    block = _json_script("x", {"a": "</script><script>alert(1)</script> & <!--"})
    assert block.count("</script>") == 1 and "<script>" not in block and "<!--" not in block
    text = block.split(">", 1)[1].rsplit("</script>", 1)[0]
    assert json.loads(text) == {"a": "</script><script>alert(1)</script> & <!--"}


def test_hostile_record_in_german_is_text_only():
    page = german_page_of_text(HOSTILE)
    body = page.split("<body>", 1)[1]
    assert "<script>window" not in body and "<img" not in body
    assert len(re.findall(r"<script\b", page)) == 3


def german_page_of_text(text: str) -> str:
    set_language("de")
    try:
        return game_page(page_data(report_of(text)))
    finally:
        set_language("en")


# ---------------------------------------------------------------------------
# The index page and the command


def test_the_index_page_in_german():
    reports = [report_of(KASSEL), report_of(ILLEGAL)]
    set_language("de")
    rows = [summary(reports[0], "a.html", "kassel"), summary(reports[1], None, "broken")]
    page = index_page(rows)
    set_language("en")
    assert '<html lang="de">' in page
    words = words_of(page)
    assert english_left(words.texts + list(words.labels.values()), ENGLISH_INDEX) == []
    assert words.labels == index_labels() | {"shown": "{shown} von {total} Partien angezeigt"}
    assert "<title>Partien</title>" in page and "2 Partien, davon 1 gültig" in words.texts
    for text in ("Datei", "Spiel", "Spieler", "Turnier", "Datum", "Ergebnis", "Halbzüge"):
        assert text in words.texts, text
    assert "Nach Turnier sortieren" in words.texts
    assert "gültig" in words.texts and "ungültig: 1 Fehler (nicht gezeichnet)" in words.texts
    assert "Filter: Spieler, Turnier, Datum, Ergebnis …" in words.texts
    # the date day first, sorted by the date as written
    assert '<td data-sort="1998.03.14">14.03.1998</td>' in page


def test_the_index_page_in_english_is_as_it_was():
    rows = [summary(report_of(KASSEL), "a.html"), summary(report_of(ILLEGAL), None)]
    words = words_of(index_page(rows))
    assert words.labels == {"shown": "{shown} of {total} games shown"}
    assert "<title>Games</title>" in index_page(rows)
    assert "2 games, 1 valid" in words.texts and "invalid: 1 error (not drawn)" in words.texts
    assert "Sort by Event" in words.texts
    assert "<td>1998.03.14</td>" in index_page(rows) and "<td data-sort" not in index_page(rows)


@pytest.mark.parametrize(
    ("how", "env"),
    [
        (["render"], {"HEXHOP_LANG": "de"}),
        (["--lang", "de", "render"], {"HEXHOP_LANG": "en"}),
        (["render"], {"HEXHOP_LANG": "", "LANG": "de_DE.UTF-8"}),
    ],
)
def test_render_html_speaks_the_language_of_the_command_line(tmp_path, how, env):
    archive = tmp_path / "club.hxl"
    archive.write_text(
        KASSEL.read_text("utf-8") + "\n" + ILLEGAL.read_text("utf-8"), encoding="utf-8"
    )
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, [*how, str(archive), "--format", "html", "--out-dir", str(out), "-q"], env=env
    )
    assert result.exit_code == 1, result.output  # game 2 has a refused action
    assert "Partie 2: die Bilder enden nach Halbzug 1" in result.output
    for name in ("game001.html", "game002.html"):
        page = (out / name).read_text("utf-8")
        assert '<html lang="de">' in page
        words = words_of(page)
        assert english_left(words.texts + list(words.labels.values()), ENGLISH) == [], name
        assert "\u2190 Alle Partien" in words.texts
    index = words_of((out / "index.html").read_text("utf-8"))
    assert english_left(index.texts + list(index.labels.values()), ENGLISH_INDEX) == []
    # the shared script is the same in every language
    assert (out / "viewer.js").read_text("utf-8") == shared_file("viewer.js")


def test_render_html_in_english_by_default(tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli,
        ["render", str(KASSEL), "--format", "html", "--out-dir", str(out), "-q"],
        env={"HEXHOP_LANG": "", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C"},
    )
    assert result.exit_code == 0, result.output
    page = (out / "game001.html").read_text("utf-8")
    assert '<html lang="en">' in page and words_of(page).labels["start"] == "Start position"
