"""German records: tag names, cube words and spelling hints."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from notation_helpers import one, record

from hexhop.notation import CubeAnswer, CubeOffer, format_record, parse_text
from hexhop.notation.names import CUBE_ANSWERS, CUBE_OFFERS, GERMAN_TAGS, tag_name
from hexhop.notation.parser import parse_header

GERMAN = """[Spiel "Hexalit"]
[Veranstaltung "Vereinsmeisterschaft"] [Ort "Köln"] [Datum "2024.03.01"]
[Runde "2"] [Nord "Anna"] [Süd "Ben"] [Anzieher "Nord"]
[Ergebnis "*"]

1. B6XC6 *
"""


def test_german_tag_names_read_as_the_english_ones():
    tags = {t.name: t.value for t in record(GERMAN).tags}
    assert tags == {
        "Game": "Hexalit",
        "Event": "Vereinsmeisterschaft",
        "Site": "Köln",
        "Date": "2024.03.01",
        "Round": "2",
        "North": "Anna",
        "South": "Ben",
        "First": "North",
        "Result": "*",
    }


def test_the_formatter_writes_the_english_tag_names():
    assert format_record(record(GERMAN)) == (
        '[Game "Hexalit"]\n[Event "Vereinsmeisterschaft"]\n[Site "Köln"]\n'
        '[Date "2024.03.01"]\n[Round "2"]\n[North "Anna"]\n[South "Ben"]\n'
        '[First "North"]\n[Result "*"]\n\n1. B6XC6 *\n'
    )


@pytest.mark.parametrize(
    ("written", "english"),
    [
        ("Süd", "South"),
        ("Sued", "South"),
        ("SÜD", "South"),
        ("nord", "North"),
        ("Rot", "Red"),
        ("Türkis", "Turquoise"),
        ("Tuerkis", "Turquoise"),
        ("Brett", "Board"),
        ("Vorrat", "Reserve"),
        ("Stellung", "Position"),
        ("Ergebnis", "Result"),
        ("Spiel", "Game"),
        ("Anzieher", "First"),
        ("Schiedsrichter", "Schiedsrichter"),  # unknown: kept as written
        ("Größe", "Größe"),
    ],
)
def test_tag_name(written, english):
    assert tag_name(written) == english


def test_every_known_tag_has_a_german_name():
    known = {
        "Game", "Event", "Site", "Date", "Round", "Annotator", "North", "South", "Red",
        "Turquoise", "First", "Board", "Reserve", "Position", "Result", "Termination",
    }  # fmt: skip
    assert set(GERMAN_TAGS) == known


def test_a_huepfer_header_in_german():
    text = '[Spiel "Hüpfer"] [Rot "Anna"] [Türkis "Ben"] [Brett "8x8"] [Vorrat "20"]\n1. a1-c1@d1 *'
    tags = {t.name: t.value for t in record(text).tags}
    assert tags == {
        "Game": "Hüpfer",
        "Red": "Anna",
        "Turquoise": "Ben",
        "Board": "8x8",
        "Reserve": "20",
    }


def test_a_non_ascii_tag_name_with_a_broken_value_is_explained_at_the_value():
    """Before: "expected a quoted tag value … found 'üd'" at the ü."""
    (finding,) = one('[Spiel "Hexalit"]\n[Süd Ben]\n1. B6XC6 *').findings
    assert (finding.code, finding.line, finding.column) == ("SY01", 2, 6)
    assert finding.message == "expected a quoted tag value like \"Hexalit\", found 'Ben'"


def test_tags_before_a_header_error_are_kept_in_english():
    game = one('[Spiel "Hexalit"] [Süd "Ben"]\n[Nord Anna]\n1. B6XC6 *')
    assert game.findings[0].code == "SY01"
    assert game.record is not None
    assert [(t.name, t.value) for t in game.record.tags] == [("Game", "Hexalit"), ("South", "Ben")]


def test_both_readers_agree_on_german_tags():
    """The fast scanner and the LALR parser name tags alike."""
    text = '[Spiel "Hexalit"] [Süd "Ben"] [Anzieher "Süd"]\n1. B6XC6 *'
    fast = parse_header(text, 1).tags
    lalr = parse_header(text, 1, fast=False).tags
    assert fast == lalr
    assert [(t.name, t.value) for t in lalr] == [
        ("Game", "Hexalit"),
        ("South", "Ben"),
        ("First", "South"),
    ]


@pytest.mark.parametrize(
    ("written", "item"),
    [
        ("Verdopplung 4", CubeOffer(4)),
        ("verdoppeln 8", CubeOffer(8)),
        ("Verdoppelung", CubeOffer(None)),
        ("VERDOPPLUNG 2", CubeOffer(2)),
    ],
)
def test_german_cube_offers(written, item):
    nodes = record(f'[Game "Hexalit"]\n1. B6XC6 {written} angenommen').main.nodes
    assert [n.item for n in nodes[1:]] == [item, CubeAnswer(True)]


def test_the_grammars_read_every_cube_word():
    for name in ("hexalit", "trigeo", "huepfer"):
        grammar = (Path(__file__).parent.parent / "notation" / f"{name}.lark").read_text("utf-8")
        for terminal, words in (("CUBE_OFFER", CUBE_OFFERS), ("CUBE_ANSWER", CUBE_ANSWERS)):
            pattern = re.search(rf"^{terminal}: /(.*)/$", grammar, re.MULTILINE)
            assert pattern is not None
            for word in words:
                assert re.fullmatch(pattern.group(1), word), (name, word)


@pytest.mark.parametrize(
    ("word", "suggestion"),
    [
        ("Dopler", "Doppler"),
        ("dubble", "double"),
        ("verdopplen", "verdoppeln"),
        ("angenomen", "angenommen"),
        ("abgelent", "abgelehnt"),
    ],
)
def test_a_misspelt_cube_word_gets_a_suggestion(word, suggestion):
    (finding,) = one(f'[Game "Hexalit"]\n1. B6XC6 {word} *').findings
    assert (finding.code, finding.line, finding.column) == ("SY01", 2, 10)
    assert finding.message == f"unexpected '{word}': did you mean '{suggestion}'?"


def test_a_word_far_from_every_cube_word_gets_no_suggestion():
    (finding,) = one('[Game "Hexalit"]\n1. B6XC6 Zug *').findings
    assert finding.message == (
        "unexpected 'Zug': expected an action, a move number, a comment, a variation or the result"
    )


def test_parse_text_of_german_first_value():
    (game,) = parse_text('[Spiel "Trigeo"] [Anzieher "Sued"]\n1. B6XC6 *')
    assert game.record is not None and game.record.tag("First") == "South"


def test_fmt_writes_a_german_record_in_english(tmp_path):
    from click.testing import CliRunner

    from hexhop.cli.main import cli

    path = tmp_path / "partie.hxl"
    path.write_text(
        '[Spiel "Hexalit"] [Süd "Ben"] [Nord "Anna"]\n1. B6XC6 Verdopplung 2 angenommen *\n',
        "utf-8",
    )
    done = CliRunner().invoke(cli, ["fmt", str(path)])
    assert done.exit_code == 0, done.output
    assert done.output == (
        '[Game "Hexalit"]\n[North "Anna"]\n[South "Ben"]\n\n1. B6XC6 double 2 take *\n'
    )


def test_a_non_ascii_tag_name_survives_json(tmp_path):
    from click.testing import CliRunner

    from hexhop.cli.main import cli

    path = tmp_path / "partie.hxl"
    path.write_text('[Spiel "Hexalit"] [Größe "groß"]\n1. B6XC6 *\n', "utf-8")
    runner = CliRunner()
    as_json = runner.invoke(cli, ["convert", str(path), "--to", "json"])
    assert as_json.exit_code == 0, as_json.output
    (tmp_path / "partie.json").write_text(as_json.output, "utf-8")
    back = runner.invoke(cli, ["convert", str(tmp_path / "partie.json"), "--to", "record"])
    assert back.exit_code == 0, back.output
    assert back.output == '[Game "Hexalit"]\n[Größe "groß"]\n\n1. B6XC6 *\n'
