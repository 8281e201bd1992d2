"""German as a German club writes it: the words of the
catalogue, the side names of --winner, and the English output unchanged."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from archive_helpers import GOOD
from click.testing import CliRunner, Result

from hexhop.messages import _, set_language

HUEPFER_6 = GOOD / "huepfer-6x6-bremen-2003.hpf"


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    set_language("en")


def run(*args: object) -> Result:
    from hexhop.cli.main import cli

    return CliRunner().invoke(cli, [str(a) for a in args], prog_name="hexhop")


@pytest.mark.parametrize(
    ("english", "german"),
    [
        (
            "bad Board value {value!r}: expected {sizes}",
            "ungültige Brettgröße {value!r} im Board-Tag: erwartet {sizes}",
        ),
        ("none", "ohne"),
        ("1st won", "Anzieher gewann"),
        ("2nd won", "Nachziehender gewann"),
        ("1st %", "Anzieher %"),
        ("severity", "Schweregrad"),
        (
            "{kind}: {games}, {low}–{high}, mean {mean}, median {median}",
            "{kind}: {games}, {low}–{high}, Mittelwert {mean}, Median {median}",
        ),
        (
            "a capture is possible ({captures}), and capturing is compulsory",
            "Es besteht Schlagzwang ({captures})",
        ),
        ("{name} is not a point of the {board} board", "{name} ist kein Punkt des Bretts {board}"),
        (
            "'{name}' is not a point; points are written like a1 or f6",
            "'{name}' ist kein Punkt; Punkte werden wie a1 oder f6 geschrieben",
        ),
        (
            "{step} lands on {point}, which is occupied",
            "{step} landet auf {point}, aber der Punkt ist besetzt",
        ),
    ],
)
def test_the_words_a_german_club_uses(english: str, german: str) -> None:
    set_language("de")
    assert _(english) == german
    set_language("en")
    assert _(english) == english


def test_no_hopper_point_is_a_platz() -> None:
    po = (
        Path(__file__).parents[1]
        / "messages"
        / "gettext-catalogues"
        / "de"
        / "LC_MESSAGES"
        / "hexhop.po"
    )
    text = po.read_text(encoding="utf-8")
    assert "Platz" not in text and "Plätze" not in text


def test_compulsory_capture_in_german(tmp_path) -> None:
    record = tmp_path / "capture.hpf"
    record.write_text(
        '[Game "Hüpfer"]\n[Board "6x6"]\n'
        '[Position "R: c3; T: d3 e5 e6 f5 f6; reserve: 12/12; turn: R"]\n\n1. c3-c5@b5\n',
        encoding="utf-8",
    )
    done = run("--lang", "de", "check", record)
    assert "Es besteht Schlagzwang (c3xe3)" in done.output, done.output


def test_show_says_who_moves_in_german() -> None:
    done = run("--lang", "de", "show", HUEPFER_6, "--ply", "3")
    assert done.exit_code == 0
    lines = done.output.splitlines()
    assert "Am Zug: Türkis" in lines
    assert "to move" not in done.output.lower()
    english = run("show", HUEPFER_6, "--ply", "3")
    assert "To move: Turquoise" in english.output.splitlines()


@pytest.mark.parametrize(
    ("name", "wanted"),
    [
        ("Süd", "South"),
        ("sued", "South"),
        ("SÜD", "South"),
        ("Nord", "North"),
        ("Rot", "Red"),
        ("Türkis", "Turquoise"),
        ("Tuerkis", "Turquoise"),
        ("South", "South"),
        ("turquoise", "Turquoise"),
    ],
)
def test_winner_takes_german_side_names(name: str, wanted: str) -> None:
    from hexhop.archive.query import side_name

    set_language("de")
    assert side_name(name) == wanted
    set_language("en")
    assert side_name(name) == wanted


def test_winner_sued_finds_the_games_south_won() -> None:
    german = run("--lang", "de", "find", GOOD, "--scan", "--winner", "Süd", "--format", "jsonl")
    english = run("find", GOOD, "--scan", "--winner", "South", "--format", "jsonl")
    assert german.exit_code == english.exit_code == 0
    assert german.stdout == english.stdout
    games = [json.loads(line) for line in german.stdout.splitlines()]
    assert [Path(game["path"]).name for game in games] == [
        "hexalit-kassel-1998.hxl",
        "trigeo-goettingen-1999.trg",
    ]


def test_unknown_winner_lists_the_names_of_the_language() -> None:
    german = run("--lang", "de", "find", GOOD, "--scan", "--winner", "Blau")
    assert german.exit_code == 2
    assert "Fehler: --winner 'Blau': erwartet eines von Nord, Rot, Süd, Türkis" in german.output
    english = run("find", GOOD, "--scan", "--winner", "Blue")
    assert "Error: --winner 'Blue': expected one of North, Red, South, Turquoise" in english.output


@pytest.mark.parametrize(
    ("word", "record_word"),
    [("annehmen", "angenommen"), ("Annehmen", "angenommen"), ("ablehnen", "abgelehnt")],
)
def test_the_infinitive_of_a_cube_answer_gets_the_record_word(word: str, record_word: str) -> None:
    from notation_helpers import one

    (finding,) = one(f'[Game "Hexalit"]\n1. B6XC6 Doppler 2 {word} *').findings
    assert (finding.code, finding.line, finding.column) == ("SY01", 2, 20)
    assert finding.message == f"unexpected '{word}': did you mean '{record_word}'?"


def test_annehmen_in_german(tmp_path: Path) -> None:
    record = tmp_path / "take.hxl"
    record.write_text('[Spiel "Hexalit"]\n1. B6XC6 Doppler 2 annehmen *\n', encoding="utf-8")
    done = run("--lang", "de", "check", record)
    assert done.exit_code == 1
    assert f"{record}:2:20: Fehler SY01 unerwartet: 'annehmen'; war 'angenommen' gemeint?" in (
        done.output
    )


def test_the_record_words_still_read() -> None:
    from notation_helpers import record

    from hexhop.notation import CubeAnswer, CubeOffer

    nodes = record('[Game "Hexalit"]\n1. B6XC6 Doppler 2 angenommen').main.nodes
    assert [n.item for n in nodes[1:]] == [CubeOffer(2), CubeAnswer(True)]


def test_number_has_a_decimal_comma_in_german() -> None:
    from hexhop.messages import number

    assert (number(0.3, 2), number(172.07), number(32.5, spec="g"), number(32.0, spec="g")) == (
        "0.30",
        "172.07",
        "32.5",
        "32",
    )
    set_language("de")
    assert (number(0.3, 2), number(172.07), number(32.5, spec="g"), number(12.0, 0)) == (
        "0,30",
        "172,07",
        "32,5",
        "12",
    )


def test_check_summary_seconds_with_a_comma() -> None:
    german = run("--lang", "de", "check", GOOD)
    summary = german.output.splitlines()[-1]
    assert re.fullmatch(
        r"Geprüft: 6 Dateien, 6 Partien, 234 Halbzüge in \d+,\d\d s: 6 gültig, 0 ungültig\.",
        summary,
    ), summary
    english = run("check", GOOD)
    assert re.fullmatch(
        r"Checked 6 files, 6 games, 234 plies in \d+\.\d\d s: 6 valid, 0 invalid\.",
        english.output.splitlines()[-1],
    )


def test_stats_mean_with_a_comma_and_json_unchanged() -> None:
    german = run("--lang", "de", "stats", GOOD, "--scan").output.splitlines()
    assert "  Hexalit: 2 Partien, 22–42, Mittelwert 32,0, Median 32" in german
    english = run("stats", GOOD, "--scan").output.splitlines()
    assert "  Hexalit: 2 games, 22–42, mean 32.0, median 32" in english
    as_json = run("--lang", "de", "stats", GOOD, "--scan", "--format", "json")
    hexalit = next(i for i in json.loads(as_json.stdout)["lengths"] if i["game"] == "Hexalit")
    assert (hexalit["mean"], hexalit["median"]) == (32.0, 32)


@pytest.mark.parametrize(
    ("written", "german"),
    [
        ("2003.03.07", "07.03.2003"),
        ("2003.03.??", "03.2003"),
        ("2001.??.??", "2001"),
        ("2001", "2001"),
        ("????.??.??", "????"),
        ("7 March 2003", "7 March 2003"),
        ("", ""),
    ],
)
def test_german_dates_put_the_day_first(written: str, german: str) -> None:
    from hexhop.messages import date

    assert date(written) == written
    set_language("de")
    assert date(written) == german


def test_find_table_and_sheet_dates_in_german() -> None:
    from hexhop.engine.replay import replay_game
    from hexhop.notation import read_archive
    from hexhop.records.frames import Frames

    german = run("--lang", "de", "find", GOOD, "--scan").output.splitlines()
    kassel = next(line for line in german if "hexalit-kassel-1998.hxl" in line)
    assert "  14.03.1998  " in kassel
    english = run("find", GOOD, "--scan").output.splitlines()
    assert "  1998.03.14  " in next(line for line in english if "hexalit-kassel" in line)
    as_json = run("--lang", "de", "find", GOOD, "--scan", "--format", "jsonl").stdout
    assert '"date": "1998.03.14"' in as_json
    path = GOOD / "hexalit-kassel-1998.hxl"
    parsed = next(iter(read_archive(path.read_bytes(), path=str(path))))
    set_language("de")
    assert "14.03.1998" in Frames(replay_game(parsed), size=200).heading()[1]
    set_language("en")
    assert "1998.03.14" in Frames(replay_game(parsed), size=200).heading()[1]


def test_usage_and_value_names_in_german() -> None:
    german = run("--lang", "de", "check", "--help").output
    assert german.startswith("Aufruf: hexhop check [OPTIONEN] PFADE...\n")
    assert "  PFADE sind Partiedateien" in german
    assert "[OPTIONS]" not in german and "PATHS" not in german
    generate = run("--lang", "de", "generate", "--help").output
    assert "  --count GANZZAHL " in generate and "INTEGER" not in generate
    show = run("--lang", "de", "show", "--help").output
    assert show.startswith("Aufruf: hexhop show [OPTIONEN] [RECORD]\n")  # the help text says RECORD
    assert "  --index GANZZAHL " in show and "  --ply N|last " in show
    english = run("check", "--help").output
    assert english.startswith("Usage: hexhop check [OPTIONS] PATHS...\n")
    assert "  --count INTEGER RANGE " in run("generate", "--help").output


def test_metavar_leaves_other_names() -> None:
    from hexhop.cli.help import metavar

    set_language("de")
    assert metavar("[OPTIONS]") == "[OPTIONEN]"
    assert metavar("[PATHS]...") == "[PFADE]..."
    assert metavar("INTEGER RANGE") == "GANZZAHL"
    assert metavar("FILENAME") == "DATEINAME"
    assert metavar("ARCHIVE_PATH") == "ARCHIVE_PATH"
    assert metavar("FILE", ("[OPTIONS]", "PATHS")) == "FILE"


def test_a_missing_paths_argument_is_named_as_the_usage_names_it() -> None:
    assert run("--lang", "de", "check").output.endswith("Fehler: Fehlendes Argument 'PFADE...'.\n")
    assert run("check").output.endswith("Error: Missing argument 'PATHS...'.\n")


def test_ratings_with_a_decimal_comma_and_json_unchanged() -> None:
    german = run("--lang", "de", "ratings", GOOD, "--scan").stdout.splitlines()
    assert german[:3] == [
        "Hexalit nach Spielkreis Kassel club championship: Elo-Zahlen (Start 1500, K 20)"
        " aus 1 Partie",
        "  Spieler           Elo  \u00c4nderung  Partien",
        "  Jonas Keller   1510,0     +10,0        1",
    ]
    english = run("ratings", GOOD, "--scan").stdout.splitlines()
    assert english[2] == "  Jonas Keller   1510.0    +10.0      1"
    as_json = json.loads(run("--lang", "de", "ratings", GOOD, "--scan", "--format", "json").stdout)
    assert isinstance(as_json, dict)
    assert "1519,4" not in json.dumps(as_json)


def test_the_options_own_value_names_in_german() -> None:
    german = run("--lang", "de", "render", "--help").output
    for shown in ("--plies ANGABE ", "--arrow VON-BIS ", "--highlight FELD ", "--game SPIEL "):
        assert f"  {shown}" in german, shown
    assert "  --colors JSON|DATEI " in german
    found = run("--lang", "de", "find", "--help").output
    assert "  --date VON..BIS " in found and "  --after ZÜGE " in found
    assert "  --winner SEITE " in found and "  --glob MUSTER " in found
    english = run("render", "--help").output
    assert "  --arrow FROM-TO " in english and "  --colors JSON|FILE " in english
