"""The archive commands in German: index, find, dupes
and stats with --lang de, their help and their errors; the machine outputs
stay English, and so does every English message."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest
from archive_helpers import CLUB, GOOD
from click.testing import CliRunner, Result

from hexhop.messages import set_language

BROKEN = GOOD.parent / "broken" / "header-bad-board.hpf"
HUEPFER_START = "R: a1 a2 b1 b2; T: e5 e6 f5 f6; reserve: 12/12; turn: R"


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    set_language("en")


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The good samples, and a club file with two games of the same actions."""
    root = tmp_path_factory.mktemp("german")
    shutil.copytree(GOOD, root / "good")
    (root / "club.hxl").write_bytes(CLUB.encode("utf-8"))
    return root


def run(*args: object) -> Result:
    from hexhop.cli.main import cli

    return CliRunner().invoke(cli, [str(a) for a in args], prog_name="hexhop")


def test_index_summary_in_german(tmp_path: Path) -> None:
    shutil.copytree(GOOD, tmp_path / "good")
    db = tmp_path / "games.sqlite"
    done = run("--lang", "de", "index", tmp_path / "good", "--db", db)
    assert done.exit_code == 0
    assert re.fullmatch(
        r"Indiziert: 6 von 6 Dateien \(0 unverändert, 0 verschwunden\): 6 Partien, "
        rf"240 Stellungen in \d+,\d\d s nach {re.escape(str(db))}\n",
        done.stderr,
    )
    again = run("--lang", "de", "index", tmp_path / "good", "--db", db)
    assert again.stderr.startswith(
        "Indiziert: 0 von 6 Dateien (6 unverändert, 0 verschwunden): 0 Partien, 0 Stellungen in "
    )


def test_index_summary_counts_one_in_the_singular(tmp_path: Path) -> None:
    """English stays English, with "1 file" and "1 game" where it said "1 files"."""
    shutil.copy(GOOD / "hexalit-kassel-1998.hxl", tmp_path)
    done = run("index", tmp_path, "--db", tmp_path / "one.sqlite")
    assert done.stderr.startswith(
        "Indexed 1 of 1 file (0 unchanged, 0 gone): 1 game, 43 positions in "
    )


def test_index_problems_in_german(tmp_path: Path) -> None:
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as connection:
        connection.execute("CREATE TABLE t (x)")
    connection.close()
    done = run("--lang", "de", "find", "--db", foreign, "--player", "x")
    assert done.exit_code == 2
    assert done.stderr == f"Fehler: {foreign} ist eine SQLite-Datenbank, aber kein hexhop-Index\n"
    missing = tmp_path / "none.sqlite"
    done = run("--lang", "de", "stats", "--db", missing)
    assert done.stderr == (
        f"Fehler: kein Index unter {missing}: zuerst `hexhop index ARCHIVE --db {missing}` "
        "aufrufen\n"
    )


def test_find_table_in_german(archive: Path) -> None:
    done = run("--lang", "de", "find", archive / "good", "--scan", "--player", "berger")
    assert done.exit_code == 0
    heading, row = done.stdout.splitlines()
    assert heading == (
        "Spieler                           Ergebnis  Datum       Veranstaltung"
        "                 Halbzüge  Fundstelle"
    )
    # the columns widen to their German headings, and the rows with them
    assert row.startswith("Anna Berger – Jonas Keller        0-1       14.03.1998  Spielkreis")
    assert row.index(" 42 ") + 1 == heading.index("Halbzüge")
    assert row.index(str(archive)) == heading.index("Fundstelle")
    with_ply = run(
        "--lang", "de", "find", archive / "good", "--scan", "--position", HUEPFER_START
    ).stdout.splitlines()
    assert with_ply[0].split() == [
        "Spieler",
        "Ergebnis",
        "Datum",
        "Veranstaltung",
        "Halbzüge",
        "Halbzug",
        "Fundstelle",
    ]
    assert with_ply[1].split()[-2:-1] == ["0"]


def test_find_without_a_match_in_german(archive: Path) -> None:
    done = run("--lang", "de", "find", archive / "good", "--scan", "--player", "niemand")
    assert (done.exit_code, done.stdout, done.stderr) == (1, "", "keine Partie gefunden\n")


def test_find_usage_errors_in_german(archive: Path) -> None:
    done = run("--lang", "de", "find", archive / "good", "--scan", "--date", "2001..1999")
    assert (done.exit_code, done.stderr) == (2, "Fehler: --date '2001..1999': FROM liegt nach TO\n")
    done = run("--lang", "de", "find", archive / "good", "--scan", "--length", "x")
    assert done.stderr == "Fehler: --length 'x': erwartet MIN..MAX, z. B. 20..60\n"
    done = run("--lang", "de", "find")
    assert done.exit_code == 2
    assert done.stderr == (
        "Aufruf: hexhop find [OPTIONEN] [ARCHIVE]...\n"
        "'hexhop find --help' zeigt die Hilfe.\n\n"
        "Fehler: ARCHIVE-Pfade zum Lesen angeben oder --db mit einem Index\n"
    )
    english = run("find", archive / "good", "--scan", "--date", "2001..1999")
    assert english.stderr == "Error: --date '2001..1999': FROM is after TO\n"


def test_find_keeps_its_machine_output_english(archive: Path) -> None:
    done = run("--lang", "de", "find", archive / "good", "--scan", "--format", "csv")
    assert done.stdout.splitlines()[0] == (
        "path,index,line,game,first,second,result,date,event,plies,valid"
    )


def test_dupes_in_german_and_one_in_the_singular(archive: Path) -> None:
    done = run("--lang", "de", "dupes", archive, "--scan")
    assert done.exit_code == 0
    assert done.stdout.splitlines()[0] == "2 Hexalit-Partien mit 3 gleichen Zügen: B4W3 D7W1 A5XB2"
    assert done.stderr == "1 Gruppe von Dubletten, 1 überzählige Partie\n"
    english = run("dupes", archive, "--scan")
    assert (
        english.stdout.splitlines()[0] == "2 Hexalit games with the same 3 actions: B4W3 D7W1 A5XB2"
    )
    assert english.stderr == "1 group of duplicates, 1 game more than once\n"


def test_stats_tables_in_german(archive: Path) -> None:
    done = run("--lang", "de", "stats", archive / "good", BROKEN, "--scan", "--opening-depth", "1")
    assert done.exit_code == 0
    lines = done.stdout.splitlines()
    assert lines[0] == "7 Partien"
    titles = [line for line in lines if line and not line.startswith(" ")]
    assert titles == [
        "7 Partien",
        "Partien und Ergebnisse",
        "Länge (Halbzüge)",
        "Spieler",
        "Eröffnungen (Partien, Siege jeder Seite, offen)",
        "Befunde",
    ]
    assert (
        "  Spiel         Partien  1-0  0-1  *  ohne  Anzieher gewann  Nachziehender gewann  offen  abgelehnt"
        "  Anzieher %" in lines
    )
    assert "  Spieler       Partien  gewonnen  verloren  abgelehnt  offen  Quote" in lines
    assert "  Hexalit: 2 Partien, 22–42, Mittelwert 32,0, Median 32" in lines
    assert "  Hüpfer 8x8: 1 Partie, 33–33, Mittelwert 33,0, Median 33" in lines
    assert any(line.endswith("  Nord 0%  Süd 100%  offen 0%") for line in lines)
    assert any(line.endswith("  Rot 100%  Türkis 0%  offen 0%") for line in lines)
    findings = lines[lines.index("Befunde") + 1 :]
    assert [line.split() for line in findings] == [
        ["Code", "Schweregrad", "Partien", "gefunden"],
        ["HD03", "Fehler", "1", "1"],
    ]


def test_stats_json_stays_english(archive: Path) -> None:
    done = run("--lang", "de", "stats", archive / "good", BROKEN, "--scan", "--format", "json")
    counts = json.loads(done.stdout)
    hexalit = next(root for root in counts["openings"] if root["game"] == "Hexalit")
    assert set(hexalit["children"][0]["wins"]) == {"North", "South"}
    assert counts["findings"][0]["severity"] == "error"
    assert "no game counted" not in done.stderr


def test_stats_messages_in_german(archive: Path) -> None:
    done = run("--lang", "de", "stats", archive / "good", "--scan", "--player", "niemand")
    assert (done.exit_code, done.stdout, done.stderr) == (
        1,
        "0 Partien\n",
        "keine Partie gezählt\n",
    )
    done = run("--lang", "de", "stats", archive / "good", "--plot", "chart.txt")
    assert done.stderr.endswith(
        "Fehler: --plot 'chart.txt': der Dateiname muss auf .svg oder .png enden\n"
    )


def test_missing_plot_extra_in_german(monkeypatch: pytest.MonkeyPatch) -> None:
    from hexhop.archive.plots import PlotUnavailable, require

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed
    set_language("de")
    with pytest.raises(PlotUnavailable) as refused:
        require()
    assert str(refused.value) == (
        "--plot braucht matplotlib, das nicht installiert ist: pip install 'hexhop[plot]'"
    )


@pytest.mark.parametrize(
    ("command", "first"),
    [
        ("index", "Jede Partie der ARCHIVE-Pfade (Dateien, Ordner, .zip- und .tar-Archive,"),
        ("find", "Partien in einem Index (--db) oder direkt in den ARCHIVE-Pfaden finden."),
        ("dupes", "Gruppen von Partien mit denselben Zügen auflisten: dasselbe Spiel, dieselbe"),
        ("stats", "Die Partien eines Index (--db) oder die der ARCHIVE-Pfade zählen."),
    ],
)
def test_help_of_the_archive_commands_in_german(command: str, first: str) -> None:
    done = run("--lang", "de", command, "--help")
    assert done.exit_code == 0
    assert done.output.startswith(f"Aufruf: hexhop {command} [OPTIONEN] ")
    assert f"\n  {first}\n" in done.output
    assert "\nOptionen:\n" in done.output and "\n  Beispiele:\n" in done.output


def test_command_list_names_the_archive_commands_in_german() -> None:
    listed = run("--lang", "de", "--help").output
    assert "  dupes       Doppelt gespielte Partien finden (dieselben Züge).\n" in listed
    assert "  stats       Partien, Ergebnisse, Längen, Spieler, Eröffnungen und Befunde\n" in listed
    assert "  crosstable  Die Kreuztabelle eines Turniers:" in listed
    assert "  ratings     Elo-Zahlen aller Spieler über ein Archiv, nach jedem Turnier.\n" in listed
    assert "Der Spieler von Türkis (wie --player)." in run("--lang", "de", "find", "--help").output
