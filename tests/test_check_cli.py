"""``hexhop check`` end to end: samples, formats, inputs, exit codes."""

from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import jsonschema
import pytest
from click.testing import CliRunner

from hexhop.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "samples" / "good"
BROKEN = ROOT / "samples" / "broken"
SCHEMA = json.loads((ROOT / "records" / "check-report.schema.json").read_text("utf-8"))

# file → (code, line, column, ply) of its first finding
EXPECTED = {
    "action-after-end.hpf": ("ST01", 11, 85, 24),
    "annotation-missing-threat.hxl": ("AN01", 8, 17, 3),
    "header-bad-board.hpf": ("HD03", 6, 1, None),
    "illegal-hexalit-off-board.hxl": ("IL02", 8, 4, 1),
    "illegal-hexalit-one-must-escape.hxl": ("IL01", 8, 24, 4),
    "illegal-hexalit-pawn-capture.hxl": ("IL01", 8, 9, 2),
    "illegal-hexalit-promotion.hxl": ("IL01", 8, 4, 1),
    "illegal-hexalit-wrong-operator.hxl": ("IL01", 8, 4, 1),
    "illegal-huepfer-capture-compulsory.hpf": ("IL01", 9, 49, 5),
    "illegal-huepfer-revisit.hpf": ("IL01", 9, 4, 1),
    "illegal-huepfer-stops-early.hpf": ("IL01", 10, 13, 10),
    "illegal-trigeo-promotion.trg": ("IL01", 7, 4, 1),
    "illegal-trigeo-roll.trg": ("IL01", 7, 4, 1),
    "result-contradicts-board.trg": ("ST02", 11, 53, None),
}


def run(*args: str, input: bytes | None = None):
    return CliRunner().invoke(cli, ["check", *args], input=input, catch_exceptions=False)


def report(*args: str, input: bytes | None = None) -> tuple[int, dict]:
    result = run(*args, "--format", "json", input=input)
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    return result.exit_code, data


def first_findings(data: dict) -> dict[str, tuple]:
    found = {}
    for file in data["files"]:
        for game in file["games"]:
            if game["findings"]:
                f = game["findings"][0]
                found[Path(file["path"]).name] = (f["code"], f["line"], f["column"], f["ply"])
    return found


def test_good_samples_are_all_valid():
    code, data = report(str(GOOD))
    assert code == 0
    games = [g for f in data["files"] for g in f["games"]]
    assert len(games) == len(list(GOOD.iterdir()))
    assert all(g["valid"] and not g["findings"] for g in games)
    assert {g["game"] for g in games} == {"Hexalit", "Trigeo", "Hüpfer"}


def test_good_samples_reach_their_stated_end():
    _, data = report(str(GOOD))
    for file in data["files"]:
        for game in file["games"]:
            assert game["end"] is not None, file["path"]
            winner = game["end"]["winner"]
            assert game["result"] == ("1-0" if winner in ("North", "Red") else "0-1")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_broken_sample_is_reported_at_the_right_place(name):
    code, data = report(str(BROKEN / name))
    assert first_findings(data)[name] == EXPECTED[name]
    game = data["files"][0]["games"][0]
    assert game["valid"] == (EXPECTED[name][0][:2] in ("AN", "NT"))
    assert code == (0 if game["valid"] else 1)


def test_every_broken_sample_has_a_finding():
    _, data = report(str(BROKEN))
    assert {Path(f["path"]).name for f in data["files"]} == {p.name for p in BROKEN.iterdir()}
    for file in data["files"]:
        assert file["games"][0]["findings"], file["path"]


def test_text_report_shows_place_code_source_line_and_caret():
    result = run(str(BROKEN / "illegal-hexalit-pawn-capture.hxl"), "--color", "never")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith(
        f"{BROKEN / 'illegal-hexalit-pawn-capture.hxl'}:8:9: error IL01 "
        "ply 2, South: E6°D5 is not legal: the 2 on E6"
    )
    assert "this die can play" in lines[0] and "E6XD6" in lines[0]
    assert lines[1] == "    | 1. B4W3 E6°D5 *"
    assert lines[2] == "    |         ^^^^^"
    assert lines[-2].startswith("Checked 1 file, 1 game, 2 plies in ")
    assert lines[-2].endswith(": 0 valid, 1 invalid.")
    assert lines[-1] == "Findings: IL01 ×1"


def test_strict_makes_warnings_fail():
    path = str(BROKEN / "annotation-missing-threat.hxl")
    assert run(path).exit_code == 0
    assert run(path, "--strict").exit_code == 1


def test_quiet_prints_only_the_summary():
    result = run(str(BROKEN), "--quiet")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0].startswith("Checked ")


def numbered_wrong(count: int) -> str:
    """A Hexalit game on one line with ``count`` variations, each with a
    wrong move number (NT01 each): ``1. B4W2 (9. B4W2) (9. B4W2) ... D7W4 *``."""
    return '[Game "Hexalit"]\n\n1. B4W2 ' + "(9. B4W2) " * count + "D7W4 *\n"


def test_max_findings_limits_each_game_of_the_text_report(tmp_path):
    path = tmp_path / "numbers.hxl"
    path.write_text(numbered_wrong(8) + "\n" + numbered_wrong(4), "utf-8")
    result = run(str(path), "--max-findings", "2", "--color", "never")
    located = [line for line in result.stdout.splitlines() if ": warning NT01 move" in line]
    assert [line.split(": ", 1)[1] for line in located] == [
        f"warning NT01 move number 9 should be 1 (game {game})" for game in (1, 1, 2, 2)
    ]
    assert f"{path}: ... 6 more findings of game 1 not shown (--max-findings 2)" in result.stdout
    assert f"{path}: ... 2 more findings of game 2 not shown (--max-findings 2)" in result.stdout
    assert result.stdout.splitlines()[-1] == "Findings: NT01 ×12"
    assert result.exit_code == 0
    _, data = report(str(path), "--max-findings", "2")  # json keeps them all
    assert [len(g["findings"]) for g in data["files"][0]["games"]] == [8, 4]


def test_at_most_100_findings_of_a_game_are_shown_by_default(tmp_path):
    path = tmp_path / "numbers.hxl"
    path.write_text(numbered_wrong(150), "utf-8")
    result = run(str(path), "--color", "never")
    assert result.stdout.count(": warning NT01 move number") == 100
    assert f"{path}: ... 50 more findings not shown (--max-findings 100)" in result.stdout


@pytest.mark.slow
def test_a_long_line_is_shown_as_a_window_around_the_finding(tmp_path):
    """A 1 MB line with 99,000 findings printed it whole under
    each one (19 GB); now ~100 columns around the column, and the time and
    output stay small."""
    path = tmp_path / "long.hxl"
    path.write_text(numbered_wrong(50_000), "utf-8")  # one line of 500 KB
    result = run(str(path), "--color", "never", "--max-findings", "100000")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(result.stdout) < 50_000 * 3 * 120
    assert max(len(line) for line in lines) < 130  # the path and the message, or a window
    assert lines[:3] == [
        f"{path}:3:10: warning NT01 move number 9 should be 1",
        "    | 1. B4W2 " + "(9. B4W2) " * 9 + "(9…",
        "    |          ^",
    ]
    assert lines[6:9] == [
        f"{path}:3:30: warning NT01 move number 9 should be 1",
        "    | 1. B4W2 " + "(9. B4W2) " * 9 + "(9…",
        "    |                              ^",
    ]
    assert lines[-7:-4] == [
        f"{path}:3:500000: warning NT01 move number 9 should be 1",
        "    | …W2) " + "(9. B4W2) " * 9 + "D7W4 *",
        "    | " + " " * 86 + "^",
    ]


@pytest.mark.parametrize(
    "line, column, length, expected",
    [
        ("1. B4W3 E6°D5 *", 9, 5, ("1. B4W3 E6°D5 *", 8, 5)),
        ("\t1.\tB4W3 *", 5, 4, (" 1. B4W3 *", 4, 4)),  # a tab is one column
        ("{棋士} 1. B4W3 *", 9, 4, ("{棋士} 1. B4W3 *", 10, 4)),  # wide characters take two
        ("{e\u0301} B4W3", 6, 4, ("{e\u0301} B4W3", 4, 4)),  # a combining accent takes none
        ("{\x1b[2J} B4W3", 8, 4, ("{\\x1b[2J} B4W3", 10, 4)),  # escaped, and counted as shown
        ("B4W3", 9, 1, ("B4W3", 4, 1)),  # past the end of the line
        ("x" * 300, 150, 200, ("…" + "x" * 100 + "…", 21, 50)),  # a long mark: cut too
    ],
)
def test_source_window(line, column, length, expected):
    from hexhop.records.text import source_window

    assert source_window(line, column, length, width=100) == expected


class _CountedLine(str):
    """A line that counts the characters read from it by index or slice."""

    read = 0

    def __getitem__(self, key):
        found = str.__getitem__(self, key)
        type(self).read += len(found)
        return found


def test_the_source_window_reads_only_around_the_column():
    """Bounded by characters read, not by time: about the window, however
    long the line (10 million characters here)."""
    from hexhop.records.text import source_window

    line = _CountedLine("B4W3 " * 2_000_000)
    calls = 0
    for column in range(1, len(line), len(line) // 1000):
        _CountedLine.read = 0
        text, before, width = source_window(line, column, 4)
        assert len(text) <= 102
        assert _CountedLine.read <= 2 * 100 + 8  # the window, both sides, and the mark
        calls += 1
    assert calls == 1000


def test_jsonl_streams_one_game_per_line_then_the_summary():
    result = run(str(GOOD), "--format", "jsonl")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [set(("path", "index", "valid")) <= set(obj) for obj in lines[:-1]] == [True] * (
        len(lines) - 1
    )
    game_schema = {**SCHEMA["$defs"]["game"], "$defs": SCHEMA["$defs"]}
    for obj in lines[:-1]:
        jsonschema.validate(obj, game_schema)
    assert lines[-1]["summary"]["games"] == len(lines) - 1


def test_junit_has_a_test_case_per_game_and_failures_for_invalid_ones():
    result = run(str(BROKEN), "--format", "junit")
    root = ET.fromstring(result.stdout)
    cases = root.findall(".//testcase")
    failures = root.findall(".//testcase/failure")
    assert len(cases) == len(list(BROKEN.iterdir()))
    assert int(root.get("failures")) == len(failures) > 0


def test_zip_members_and_a_folder_mixed(tmp_path):
    archive = tmp_path / "club.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.write(GOOD / "trigeo-goettingen-1999.trg", "2024/good.trg")
        zf.write(BROKEN / "illegal-hexalit-pawn-capture.hxl", "2024/bad.hxl")
    code, data = report(str(archive), str(GOOD / "huepfer-6x6-bremen-2003.hpf"))
    assert code == 1
    paths = [f["path"] for f in data["files"]]
    assert paths == [
        f"{archive}:2024/bad.hxl",
        f"{archive}:2024/good.trg",
        str(GOOD / "huepfer-6x6-bremen-2003.hpf"),
    ]
    assert first_findings(data)["bad.hxl"] == ("IL01", 8, 9, 2)


def test_unreadable_and_binary_files_are_reported_and_the_rest_checked(tmp_path):
    (tmp_path / "good.trg").write_bytes((GOOD / "trigeo-goettingen-1999.trg").read_bytes())
    (tmp_path / "image.hxl").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    locked = tmp_path / "locked.hpf"
    locked.write_text('[Game "Hüpfer"]\n*\n')
    os.chmod(locked, 0)
    code, data = report(str(tmp_path))
    errors = {Path(f["path"]).name: f["error"]["code"] for f in data["files"] if "error" in f}
    if os.access(locked, os.R_OK):  # running as root: the file is readable anyway
        assert errors == {"image.hxl": "IO02"}
    else:
        assert errors == {"image.hxl": "IO02", "locked.hpf": "IO01"}
    assert code == 2
    assert data["summary"]["valid"] >= 1


def test_missing_path_is_an_unreadable_input():
    result = run("does-not-exist.hxl")
    assert result.exit_code == 2
    assert "IO01" in result.stdout


def test_standard_input_with_game_option():
    text = b"1. B6XC6 E8XD8 *\n"
    code, data = report("-", "--game", "Hexalit", input=text)
    assert code == 0
    assert data["files"][0]["path"] == "<stdin>"
    assert data["files"][0]["games"][0]["plies"] == 2


def test_bad_option_is_a_usage_error():
    assert CliRunner().invoke(cli, ["check", "--format", "xml", str(GOOD)]).exit_code == 2
    assert CliRunner().invoke(cli, ["check", "--game", "Chess", str(GOOD)]).exit_code == 2


def test_parallel_and_serial_reports_are_identical():
    _, serial = report(str(ROOT / "samples"))
    _, parallel = report(str(ROOT / "samples"), "-j", "2")
    for data in (serial, parallel):
        data["summary"].pop("seconds")
    assert parallel == serial


def test_a_large_file_is_checked_in_parts_with_the_same_report(tmp_path, monkeypatch):
    from hexhop.records import jobs

    archive = tmp_path / "archive.hxl"
    parts = [
        (BROKEN / "illegal-hexalit-pawn-capture.hxl").read_text("utf-8"),
        (GOOD / "hexalit-kassel-1998.hxl").read_text("utf-8"),
    ]
    archive.write_text("\n".join(parts * 5), "utf-8")
    monkeypatch.setattr(jobs, "SPLIT_BYTES", 100)
    monkeypatch.setattr(jobs, "GAMES_PER_PART", 3)
    _, serial = report(str(archive))
    _, parallel = report(str(archive), "-j", "2")
    for data in (serial, parallel):
        data["summary"].pop("seconds")
    assert parallel == serial
    assert [g["index"] for g in parallel["files"][0]["games"]] == list(range(1, 11))
    assert [g["valid"] for g in parallel["files"][0]["games"]] == [False, True] * 5
