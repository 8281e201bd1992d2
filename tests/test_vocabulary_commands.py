"""What the one vocabulary added: find --sort/--limit, true/false in CSV,
show --format position, moves --format count, hexhop ls, and -q on every
command that reads an archive or writes files."""

from __future__ import annotations

import csv
import gzip
import io
import json
import shutil
import tarfile
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexhop.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "samples" / "good"
KASSEL = GOOD / "hexalit-kassel-1998.hxl"
TRIGEO = GOOD / "trigeo-goettingen-1999.trg"


def run(*args: object):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def _csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


# -- find --sort, --reverse, --limit ------------------------------------------


def _dates(*args: object) -> list[str]:
    result = run("find", GOOD, "--scan", "--format", "csv", *args)
    assert result.exit_code == 0, result.output
    return [row["date"] for row in _csv_rows(result.stdout)]


def test_find_lists_in_archive_order_by_default():
    assert _dates() == [
        "1998.03.14", "2001.??.??", "2003.04.11", "2003.02.21", "2003.03.07", "1999.11.06",
    ]  # fmt: skip


def test_find_sorts_by_date_either_way():
    ascending = ["1998.03.14", "1999.11.06", "2001.??.??", "2003.02.21", "2003.03.07", "2003.04.11"]
    assert _dates("--sort", "date") == ascending
    assert _dates("--sort", "date", "--reverse") == ascending[::-1]


def test_find_sorts_by_length_and_player_and_limits():
    result = run("find", GOOD, "--scan", "--format", "csv", "--sort", "length", "--reverse")
    plies = [int(row["plies"]) for row in _csv_rows(result.stdout)]
    assert plies == [74, 42, 40, 33, 23, 22]
    result = run("find", GOOD, "--scan", "--format", "csv", "--sort", "player", "--limit", "3")
    assert [row["first"] for row in _csv_rows(result.stdout)] == [
        "Anna Berger",
        "Lena Voss",
        "Mira Hansen",
    ]
    # equal values keep the archive's order: the 6x6 game comes before the 8x8 one
    assert [row["path"].rsplit("/", 1)[-1] for row in _csv_rows(result.stdout)][2] == (
        "huepfer-6x6-bremen-2003.hpf"
    )


def test_find_limit_streams_in_archive_order_and_limits_the_export(tmp_path):
    assert _dates("--limit", "2") == ["1998.03.14", "2001.??.??"]
    out = tmp_path / "two.hxl"
    result = run(
        "find", GOOD, "--scan", "--sort", "date", "--reverse", "--limit", "2", "--export", out
    )
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert text.count("[Game ") == 2
    assert '[Date "2003.04.11"]' in text and '[Date "2003.03.07"]' in text
    assert "wrote 2 games" in result.stderr


def test_find_limit_zero_is_all_and_a_negative_limit_is_refused():
    assert len(_dates("--limit", "0")) == 6
    result = run("find", GOOD, "--scan", "--limit", "-1")
    assert result.exit_code == 2
    assert "Invalid value for '--limit'" in result.stderr


def test_find_csv_writes_true_and_false_as_json_does():
    broken = ROOT / "samples" / "broken"
    result = run(
        "find", GOOD, broken / "illegal-hexalit-off-board.hxl", "--scan", "--format", "csv"
    )
    valid = [row["valid"] for row in _csv_rows(result.stdout)]
    assert set(valid) == {"true", "false"}
    as_json = run(
        "find", GOOD, broken / "illegal-hexalit-off-board.hxl", "--scan", "--format", "jsonl"
    )
    assert [json.dumps(json.loads(line)["valid"]) for line in as_json.stdout.splitlines()] == valid


# -- show --format position, moves --format count --------------------------------


def test_show_prints_only_the_position_text_in_every_language():
    english = run("show", KASSEL, "--ply", "6", "--format", "position")
    german = run("--lang", "de", "show", KASSEL, "--ply", "6", "--format", "position")
    full = run("show", KASSEL, "--ply", "6").stdout
    assert english.stdout == german.stdout
    assert english.stdout.count("\n") == 1
    assert f"Position: {english.stdout}" in full


def test_the_readme_recipe_finds_the_games_through_that_position(tmp_path):
    position = run("show", KASSEL, "--ply", "6", "--format", "position").stdout.strip()
    result = run("find", GOOD, "--scan", "--position", position, "--format", "csv")
    rows = _csv_rows(result.stdout)
    assert [(row["path"].rsplit("/", 1)[-1], row["ply"]) for row in rows] == [
        ("hexalit-kassel-1998.hxl", "6")
    ]


def test_moves_format_count_is_the_number_of_the_json_actions():
    count = run("moves", TRIGEO, "--ply", "0", "--format", "count").stdout
    actions = json.loads(run("moves", TRIGEO, "--ply", "0", "--format", "json").stdout)["actions"]
    assert count == f"{len(actions)}\n" == "18\n"


# -- hexhop ls ------------------------------------------------------------------


@pytest.fixture
def club(tmp_path: Path) -> Path:
    """A folder with a zip of two records, a tar.gz of one, a .hxl.gz, an
    empty file and a binary one."""
    folder = tmp_path / "club"
    folder.mkdir()
    with zipfile.ZipFile(folder / "a.zip", "w") as archive:
        archive.write(KASSEL, "games/kassel.hxl")
        archive.write(TRIGEO, "games/trigeo.trg")
    with tarfile.open(folder / "b.tar.gz", "w:gz") as archive:
        archive.add(GOOD / "huepfer-6x6-bremen-2003.hpf", "bremen.hpf")
    (folder / "c.hxl.gz").write_bytes(gzip.compress(KASSEL.read_bytes() * 2))
    (folder / "d.hxl").write_bytes(b"")
    (folder / "e.hxl").write_bytes(b"\x00\x01binary\x00" * 10)
    return folder


def test_ls_names_every_file_as_the_commands_take_it(club: Path):
    result = run("ls", club)
    assert result.exit_code == 2  # e.hxl cannot be read
    lines = [line.split() for line in result.stdout.splitlines()]
    assert [(games, name.removeprefix(f"{club}/")) for games, _size, name in lines] == [
        ("1", "a.zip:games/kassel.hxl"),
        ("1", "a.zip:games/trigeo.trg"),
        ("1", "b.tar.gz:bremen.hpf"),
        ("2", "c.hxl.gz"),
        ("0", "d.hxl"),
    ]
    assert f"{club}/e.hxl: IO02" in result.stderr
    assert result.stderr.endswith("5 files, 5 games\n")
    # each name is a RECORD every command takes
    member = lines[1][2]
    assert run("check", member).exit_code == 0
    assert run("show", member, "--format", "position").exit_code == 0


def test_ls_json_counts_what_check_counts(club: Path):
    listed = json.loads(run("ls", club, "--format", "json").stdout)
    assert [(f["path"].removeprefix(f"{club}/"), f["games"], f["bytes"]) for f in listed][:2] == [
        ("a.zip:games/kassel.hxl", 1, KASSEL.stat().st_size),
        ("a.zip:games/trigeo.trg", 1, TRIGEO.stat().st_size),
    ]
    report = json.loads(run("check", club, "--format", "json").stdout)
    checked = {f["path"]: len(f["games"]) for f in report["files"] if not f.get("error")}
    assert {f["path"]: f["games"] for f in listed} == checked


def test_ls_glob_and_quiet(club: Path):
    result = run("ls", club, "--glob", "*.trg", "-q")
    assert result.exit_code == 0
    assert [line.split()[-1].removeprefix(f"{club}/") for line in result.stdout.splitlines()] == [
        "a.zip:games/trigeo.trg"
    ]
    assert result.stderr == ""


def test_ls_of_a_missing_path_is_told_not_a_traceback(tmp_path):
    result = run("ls", tmp_path / "missing.hxl")
    assert result.exit_code == 2
    assert "missing.hxl" in result.stderr and "Traceback" not in result.stderr


# -- -q: problems only ----------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("split", GOOD, "--out-dir", "{tmp}/games"),
        ("merge", GOOD, "--out", "{tmp}/all.hxl"),
        ("render", KASSEL, "--plies", "0", "--out-dir", "{tmp}/pics"),
        ("generate", "--game", "Hexalit", "--out", "{tmp}/g.hxl"),
        ("find", GOOD, "--scan", "--player", "nobody"),
        ("stats", GOOD, "--scan", "--player", "nobody"),
        ("dupes", GOOD, "--scan"),
        ("ls", GOOD),
        ("index", GOOD, "--db", "{tmp}/x.sqlite"),
    ],
    ids=lambda args: args[0],
)
def test_quiet_leaves_standard_error_empty_when_all_is_well(args, tmp_path):
    given = [str(a).replace("{tmp}", str(tmp_path)) for a in args]
    loud = run(*given)
    for written in tmp_path.iterdir():  # the quiet run writes the same files anew
        shutil.rmtree(written) if written.is_dir() else written.unlink()
    quiet = run(*given, "-q")
    assert loud.stderr != ""
    assert quiet.stderr == ""
    assert quiet.exit_code == loud.exit_code
    assert quiet.stdout == loud.stdout


def test_fmt_quiet_names_no_file_but_keeps_the_exit_status(tmp_path):
    messy = tmp_path / "messy.hxl"
    tags, movetext = KASSEL.read_text(encoding="utf-8").split("\n\n", 1)
    messy.write_text("\n".join(reversed(tags.splitlines())) + "\n\n" + movetext, "utf-8")
    loud = run("fmt", "--check", messy)
    quiet = run("fmt", "--check", "-q", messy)
    assert (loud.exit_code, quiet.exit_code) == (1, 1)
    assert "would reformat" in loud.stderr and quiet.stderr == ""
