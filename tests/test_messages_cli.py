"""Every command, report and diagram in German with --lang de or LANG;
English stays as it was."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from hexhop.cli.help import help_texts
from hexhop.cli.main import COMMANDS, cli
from hexhop.engine.replay import replay_game
from hexhop.messages import language, set_language
from hexhop.messages.catalogue import read_po
from hexhop.notation import read_archive
from hexhop.records.frames import Frames
from hexhop.records.text import counted

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
GERMAN = read_po((ROOT / "messages/gettext-catalogues/de/LC_MESSAGES/hexhop.po").read_text("utf-8"))
BOARD = str(SAMPLES / "broken" / "header-bad-board.hpf")
THREAT = str(SAMPLES / "broken" / "annotation-missing-threat.hxl")
DASH = str(SAMPLES / "broken" / "syntax-dash-move.hxl")
KASSEL = str(SAMPLES / "good" / "hexalit-kassel-1998.hxl")
BREMEN = str(SAMPLES / "good" / "huepfer-10x10-bremen-2003.hpf")
GERMAN_ENV = {"LANG": "de_DE.UTF-8", "HEXHOP_LANG": None}


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    set_language("en")


def run(*args: str, env: dict | None = None):
    return CliRunner().invoke(cli, list(args), env=env, prog_name="hexhop")


def test_command_help_in_german_by_option_and_by_environment():
    for done in (run("--lang", "de", "check", "--help"), run("check", "--help", env=GERMAN_ENV)):
        assert done.exit_code == 0
        assert done.output.startswith("Aufruf: hexhop check [OPTIONEN] PFADE...\n")
        assert "  Prüfen, ob jeder Zug jeder Partie in PFADE erlaubt ist.\n" in done.output
        assert "\nOptionen:\n" in done.output
        assert "Auch Warnungen machen eine Partie ungültig." in done.output
        assert "[Vorgabe: text]" in done.output
        assert "  Beispiele:\n    hexhop check samples/good\n" in done.output
        assert "PFADE...\n" not in done.output.split("Optionen:")[1]  # no argument row
    english = run("check", "--help").output
    assert english.startswith("Usage: hexhop check [OPTIONS] PATHS...\n")
    assert "Warnings make a game invalid too." in english and "[default: text]" in english


def test_group_help_in_german_with_lang_before_help():
    done = run("--lang", "de", "--help")
    assert "Befehle:\n  analyse     Verpasste Gewinne und Aktionen finden" in done.output
    assert "\n  check       Prüfen, ob jeder Zug jeder Partie erlaubt ist.\n" in done.output
    assert "-h, --help      Diese Hilfe zeigen und beenden." in done.output
    assert "Befehle:" in run("--help", env=GERMAN_ENV).output
    assert "Commands:\n  analyse     Find missed wins" in run("--help").output
    assert "\n  check       Check that every action" in run("--help").output


def test_every_help_text_has_a_german_translation():
    """The help of every command and option is shown through the catalogue:
    a new option fails here until its help is translated."""
    ctx = click.Context(cli)
    commands = [cli, *(cli.get_command(ctx, name) for name in COMMANDS)]
    missing = [text for command in commands for text in help_texts(command) if text not in GERMAN]
    assert missing == []


def test_check_report_in_german():
    done = run("--lang", "de", "check", BOARD, THREAT)
    assert done.exit_code == 1
    lines = done.output.splitlines()
    assert (
        f"{BOARD}:6:1: Fehler HD03 ungültige Brettgröße '7x7' im Board-Tag: erwartet 6x6, 8x8 oder 10x10"
        in (lines)
    )
    assert any(line.startswith(f"{THREAT}:8:17: Warnung AN01 A5XB2 sollte") for line in lines)
    summary = next(line for line in lines if line.startswith("Geprüft:"))
    assert summary.startswith("Geprüft: 2 Dateien, 2 Partien, 5 Halbzüge in ")
    assert summary.endswith(" s: 1 gültig (1 mit Warnungen), 1 ungültig.")
    assert f"Gültig mit Warnungen: {THREAT}" in lines
    assert "Befunde: AN01 ×1, HD03 ×1" in lines
    assert language() == "en"


def test_machine_reports_keep_english_keys_and_severities():
    done = run("--lang", "de", "check", BOARD, "--format", "json")
    (finding,) = json.loads(done.output)["files"][0]["games"][0]["findings"]
    assert finding["severity"] == "error" and finding["code"] == "HD03"
    assert finding["message"].startswith("ungültige Brettgröße")  # the text is for people
    assert '"severity": "error"' in run("--lang", "de", "check", BOARD, "--format", "jsonl").output


def test_check_workers_speak_the_language_of_the_command():
    """A spawned worker (macOS, Python 3.14) starts in English: the pool
    hands it the language."""
    before = multiprocessing.get_start_method()
    multiprocessing.set_start_method("spawn", force=True)
    try:
        done = run("--lang", "de", "check", "-j", "2", BOARD, THREAT)
    finally:
        multiprocessing.set_start_method(before, force=True)
    assert "Fehler HD03 ungültige Brettgröße '7x7' im Board-Tag" in done.output
    assert "Warnung AN01 A5XB2 sollte mit '^' markiert sein" in done.output


def test_fmt_in_german():
    done = run("--lang", "de", "fmt", DASH)
    assert done.exit_code == 2
    assert done.output.splitlines() == [
        f"{DASH}:7:17: Fehler SY05 'A5-B2^' ist kein Hexalit-Zug: "
        "Hexalit-Züge werden A5XB2 geschrieben",
        f"{DASH}: nicht formatiert (zuerst die Fehler oben beheben)",
    ]


def test_render_captions_in_german(tmp_path):
    done = run("--lang", "de", "render", KASSEL, "--plies", "0", "--out-dir", str(tmp_path / "de"))
    assert done.exit_code == 0
    assert "1 Datei nach " in done.output
    svg = (tmp_path / "de" / "game001-ply000.svg").read_text("utf-8")
    assert ">Nord am Zug</text>" in svg and "North to move" not in svg
    assert ": Anfang</text>" in svg
    run("--lang", "de", "render", BREMEN, "--plies", "last", "--out-dir", str(tmp_path / "hp"))
    svg = next((tmp_path / "hp").glob("*.svg")).read_text("utf-8")
    assert ">Türkis gewinnt</text>" in svg and ">Vorrat</text>" in svg
    # the captions are remembered per language: English again after German
    run("render", KASSEL, "--plies", "0", "--out-dir", str(tmp_path / "en"))
    svg = (tmp_path / "en" / "game001-ply000.svg").read_text("utf-8")
    assert ">North to move</text>" in svg and ": start</text>" in svg


def test_sheet_in_german():
    set_language("de")
    parsed = next(iter(read_archive(Path(KASSEL).read_bytes(), path=KASSEL)))
    sheet = Frames(replay_game(parsed), size=200).sheet_svg([0, 1])
    assert "Diagramm 1: Anfang" in sheet and "Diagramm 2: nach 1. " in sheet
    assert "Runde 4" in sheet


def test_show_and_moves_in_german():
    done = run("--lang", "de", "show", KASSEL, "--ply", "12")
    assert done.output.splitlines()[-4:] == [
        "Letzter Zug: F7°E8   (Halbzug 12)",
        "Dopplerwürfel: 4",
        "Am Zug: Nord",
        "Stellung: N: A4=5 A6=3 A7=1 A9=3 A10=5 B4=2 B5=2 B6=2 B7=6 B9=2 B10=2 C7=2 F10=4; "
        "S: D5=2 E4=2 E5=2 E6=2 E8=1 E9=2 F4=5 F5=4 F6=3 F8=4 F9=3; turn: N; cube: 4",
    ]
    lines = run("--lang", "de", "show", BREMEN).output.splitlines()
    assert "Vorrat: Rot 16, Türkis 18" in lines
    assert "Partie vorbei: Türkis hat mit Halbzug 74 gewonnen" in lines
    moves = run("--lang", "de", "moves", KASSEL, "--ply", "12").output
    assert moves.startswith("Nord am Zug, 59 erlaubte Züge:\n")


def test_usage_errors_in_german():
    done = run("--lang", "de", "show", KASSEL, "--position", "x")
    assert done.exit_code == 2
    assert done.output.endswith(
        "'hexhop show --help' zeigt die Hilfe.\n\n"
        "Fehler: eine PARTIEDATEI oder --position TEXT angeben, nicht beides\n"
    )
    done = run("check", env=GERMAN_ENV)
    assert done.output.endswith("Fehler: Fehlendes Argument 'PFADE...'.\n")
    done = run("--lang", "de", "check", "--game", "Schach", BOARD)
    assert done.output.endswith(
        "Fehler: Ungültiger Wert für '--game': 'Schach': erwartet Hexalit, Trigeo oder Hüpfer\n"
    )
    english = run("check", "--game", "Schach", BOARD).output
    assert english.endswith(
        "Error: Invalid value for '--game': 'Schach': expected Hexalit, Trigeo or Hüpfer\n"
    )


def test_counted_in_both_languages():
    assert [counted(1, "file"), counted(2, "ply"), counted(3, "legal action")] == [
        "1 file",
        "2 plies",
        "3 legal actions",
    ]
    set_language("de")
    assert [counted(1, "file"), counted(2, "ply"), counted(1, "game")] == [
        "1 Datei",
        "2 Halbzüge",
        "1 Partie",
    ]


def test_a_dask_worker_speaks_the_language_it_is_given():
    from hexhop.archive import scale_out
    from hexhop.records.checking import CheckOptions
    from hexhop.records.sources import iter_sources

    (source,) = iter_sources([BOARD])
    ((number, result),) = scale_out._check_group([(0, source)], CheckOptions(), "de")
    assert result.games[0]["findings"][0]["message"].startswith("ungültige Brettgröße")
