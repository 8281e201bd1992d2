"""Messages in German and English with gettext."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from click.testing import CliRunner
from notation_helpers import one

from hexhop.cli.main import cli
from hexhop.messages import (
    _,
    language,
    language_from_environment,
    languages,
    set_language,
    side_name,
    to_move,
    wins,
)
from hexhop.messages.catalogue import compile_po, po_files, read_po, source_ids, write_mo
from hexhop.notation import CATALOGUE, make

ROOT = Path(__file__).resolve().parent.parent
GERMAN = read_po((ROOT / "messages/gettext-catalogues/de/LC_MESSAGES/hexhop.po").read_text("utf-8"))


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    set_language("en")


def _fields(template: str) -> list[str]:
    return sorted(f for _, f, _, _ in string.Formatter().parse(template) if f)


@pytest.mark.parametrize("code", sorted(CATALOGUE))
def test_every_finding_code_speaks_german_and_english(code):
    english = CATALOGUE[code].template
    german = GERMAN.get(english)
    assert german, f"{code} has no German message"
    assert _fields(german) == _fields(english)
    assert german != english or english == "{message}"


def test_every_message_of_the_source_has_a_german_translation():
    """A new ``_("…")`` or ``words("…")`` fails here until the catalogue has it."""
    missing = {msgid: where for msgid, where in source_ids(ROOT).items() if msgid not in GERMAN}
    assert missing == {}


def test_the_compiled_catalogues_match_their_sources():
    """``python -m hexhop.messages`` was run after the last edit of a .po file."""
    pos = list(po_files())
    assert [p.parent.parent.name for p in pos] == ["de"]
    for po in pos:
        assert po.with_suffix(".mo").read_bytes() == compile_po(po), po


def test_read_po_and_write_mo():
    text = (
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#: x.py:1\nmsgid "two "\n"lines"\nmsgstr "zwei \\"Zeilen\\""\n\n'
        '#, fuzzy\nmsgid "unsure"\nmsgstr "unsicher"\n\n'
        'msgid "empty"\nmsgstr ""\n'
        'msgid "one file"\nmsgid_plural "{n} files"\nmsgstr[0] "eine Datei"\nmsgstr[1] "{n} Dateien"\n'
    )
    entries = read_po(text)
    assert entries == {
        "": "Content-Type: text/plain; charset=UTF-8\n",
        "two lines": 'zwei "Zeilen"',
        "one file\0{n} files": "eine Datei\0{n} Dateien",
    }
    import gettext
    import io

    catalogue = gettext.GNUTranslations(io.BytesIO(write_mo(entries)))
    assert catalogue.gettext("two lines") == 'zwei "Zeilen"'
    assert catalogue.ngettext("one file", "{n} files", 3) == "{n} Dateien"
    assert catalogue.gettext("unsure") == "unsure"


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LC_MESSAGES": "de_AT"}, "de"),
        ({"LC_ALL": "de_CH.UTF-8@euro", "LANG": "en_GB"}, "de"),
        ({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANGUAGE": "fr:de", "LANG": "fr_FR"}, "de"),
        ({"HEXHOP_LANG": "en", "LANG": "de_DE.UTF-8"}, "en"),
    ],
)
def test_language_from_environment(environ, expected):
    assert language_from_environment(environ) == expected


def test_languages_and_unknown_language():
    assert languages() == ("en", "de")
    with pytest.raises(ValueError, match="unknown language 'fr': expected one of en, de"):
        set_language("fr")


def test_findings_follow_the_language():
    assert make("HD03", value="7x7").message == "bad Board value '7x7': expected 6x6, 8x8 or 10x10"
    assert set_language("de_DE.UTF-8") == "de" and language() == "de"
    assert make("HD03", value="7x7").message == (
        "ungültige Brettgröße '7x7' im Board-Tag: erwartet 6x6, 8x8 oder 10x10"
    )
    assert make("ST02", result="0-1", winner="North", end_ply=7).message == (
        "das Ergebnis 0-1 widerspricht dem Brett: Nord hat mit Halbzug 7 gewonnen"
    )
    set_language("en")
    assert make("HD03", value="7x7").message.startswith("bad Board value")


def test_syntax_errors_in_german():
    set_language("de")
    (finding,) = one('[Spiel "Hexalit"]\n1. B6XC6 Dopler *').findings
    assert finding.message == "unerwartet: 'Dopler'; war 'Doppler' gemeint?"
    (finding,) = one('[Spiel "Hexalit"]\n[Süd Ben]\n1. B6XC6 *').findings
    assert (
        finding.message
        == "Tag-Wert in Anführungszeichen erwartet, etwa \"Hexalit\", gefunden: 'Ben'"
    )


def test_side_names_and_captions():
    assert (side_name("Red"), to_move("North"), wins("Turquoise")) == (
        "Red",
        "North to move",
        "Turquoise wins",
    )
    set_language("de")
    assert (side_name("Red"), to_move("North"), wins("Turquoise")) == (
        "Rot",
        "Nord am Zug",
        "Türkis gewinnt",
    )
    assert _("South") == "Süd"


BOARD = str(ROOT / "samples" / "broken" / "header-bad-board.hpf")
GERMAN_HD03 = f"{BOARD}:6:1: Fehler HD03 ungültige Brettgröße '7x7' im Board-Tag: erwartet 6x6, 8x8 oder 10x10"


def test_check_with_lang_de():
    done = CliRunner().invoke(cli, ["--lang", "de", "check", BOARD])
    assert done.exit_code == 1
    assert GERMAN_HD03 in done.output
    assert language() == "en"  # the command leaves the process as it found it


def test_check_in_a_german_environment():
    done = CliRunner().invoke(
        cli, ["check", BOARD], env={"LANG": "de_DE.UTF-8", "HEXHOP_LANG": None}
    )
    assert GERMAN_HD03 in done.output
    done = CliRunner().invoke(
        cli, ["--lang", "en", "check", BOARD], env={"LANG": "de_DE.UTF-8", "HEXHOP_LANG": None}
    )
    assert f"{BOARD}:6:1: error HD03 bad Board value '7x7'" in done.output


def test_an_unknown_lang_is_a_usage_error():
    done = CliRunner().invoke(cli, ["--lang", "fr", "check", BOARD])
    assert done.exit_code == 2
    assert "Invalid value for '--lang': 'fr' is not one of 'en', 'de'." in done.output
