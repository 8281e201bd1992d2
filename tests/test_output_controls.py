"""Control characters and bidirectional overrides from records never reach
the output raw: JSON and JSON Lines write them as
``\\uXXXX`` escapes (they parse back to the same text), CSV and the tables
as the visible escapes of the text report (``\\x1b``, ``\\u202e``)."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexhop.cli.main import cli
from hexhop.records.text import json_text, printable

#: ESC, BEL, CSI (C1), RIGHT-TO-LEFT OVERRIDE, LEFT-TO-RIGHT ISOLATE.
NORTH = "A\x1b\x07\x9b\u202e\u2066"
EVENT = "E\x7f\x1b[2J"  # and DEL
COMMENT = "c\x1b[2J\x07\x9b\u202e\u2066\x7f"

GAME = (
    '[Game "Hexalit"]\n'
    f'[North "{NORTH}"]\n'
    '[South "Bo"]\n'
    f'[Event "{EVENT}"]\n'
    "\n"
    f"1. B6XC6 {{{COMMENT}}} E8XD8 *\n"
    "\n"
)
# the same game twice (for dupes), and one with an error on the comment's line
RECORD = GAME + GAME + GAME.replace("E8XD8 *", "E8XD8 2. A9A9 *")

#: What a terminal or a spreadsheet could act on (line ends aside).
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "controls.hxl"
    path.write_text(RECORD, "utf-8")
    return path


def run(*args: object) -> str:
    """The command's standard output, as the bytes a terminal would get."""
    result = CliRunner().invoke(cli, [str(arg) for arg in args])
    assert result.exit_code in (0, 1), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    text = result.stdout_bytes.decode("utf-8")
    assert not RAW.search(text), RAW.findall(text)
    return text


# -- JSON: escaped, and the same text once parsed ---------------------------------


def test_find_json_and_jsonl(record: Path) -> None:
    for hit in json.loads(run("find", record, "--player", "a", "--format", "json")):
        assert hit["players"] == [NORTH, "Bo"] and hit["event"] == EVENT
    lines = run("find", record, "--player", "a", "--format", "jsonl").splitlines()
    assert len(lines) == 3
    for line in lines:
        assert json.loads(line)["players"] == [NORTH, "Bo"]
    assert "\\u001b\\u0007\\u009b\\u202e\\u2066" in lines[0]


def test_dupes_json(record: Path) -> None:
    (group,) = json.loads(run("dupes", record, "--format", "json"))
    # the third game's actions before its syntax error are the other two's
    assert [hit["players"] for hit in group["games"]] == [[NORTH, "Bo"]] * 3


def test_stats_json(record: Path) -> None:
    counts = json.loads(run("stats", record, "--format", "json"))
    assert {player["name"] for player in counts["players"]} == {NORTH, "Bo"}


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_check_json_and_jsonl(record: Path, fmt: str) -> None:
    text = run("check", record, "--format", fmt)
    if fmt == "json":
        games = json.loads(text)["files"][0]["games"]
    else:
        games = [json.loads(line) for line in text.splitlines()][:-1]
    assert [game["players"] for game in games] == [[NORTH, "Bo"]] * 3


# -- CSV and tables: the visible escapes of the text report -------------------------


def test_find_csv(record: Path) -> None:
    rows = list(
        csv.DictReader(io.StringIO(run("find", record, "--player", "a", "--format", "csv")))
    )
    assert len(rows) == 3
    for row in rows:
        assert row["first"] == "A\\x1b\\x07\\x9b\\u202e\\u2066" == printable(NORTH)
        assert row["event"] == "E\\x7f\\x1b[2J"


def test_find_table(record: Path) -> None:
    text = run("find", record, "--player", "a")
    assert "A\\x1b\\x07\\x9b\\u202e\\u2066 – Bo" in text and "E\\x7f\\x1b[2J" in text


def test_dupes_text(record: Path) -> None:
    text = run("dupes", record)
    assert "A\\x1b\\x07\\x9b\\u202e\\u2066 – Bo" in text


def test_stats_tables(record: Path) -> None:
    assert "  A\\x1b\\x07\\x9b\\u202e\\u2066  " in run("stats", record)


def test_check_text(record: Path) -> None:
    text = run("check", record)
    assert "    | 1. B6XC6 {c\\x1b[2J\\x07\\x9b\\u202e\\u2066\\x7f} E8XD8 2. A9A9 *" in text


# -- the function every JSON writer uses ------------------------------------------


@pytest.mark.parametrize("indent", [None, 1, 2])
def test_json_text_escapes_and_parses_back(indent: int | None) -> None:
    value = {
        "controls": "".join(chr(c) for c in [*range(0x20), *range(0x7F, 0xA0)]),
        "bidi": "\u061c\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e"
        "\u2066\u2067\u2068\u2069",
        "kept": "Müller – 棋 \\u202e \\\u202e",
        "list": [NORTH, 1, None, True],
    }
    text = json_text(value, indent=indent)
    assert not RAW.search(text) and text.isascii() is False  # ü and 棋 stay as they are
    assert json.loads(text) == value
    assert "\\u202e" in text and "\\u009b" in text and "\\u007f" in text and "Müller" in text


def test_json_text_writes_bytes_of_names_that_are_not_utf8_as_ufffd() -> None:
    name = b"caf\xe9.hxl".decode("utf-8", "surrogateescape")
    text = json_text({"path": name})
    assert json.loads(text) == {"path": "caf\ufffd.hxl"}
    text.encode("utf-8")  # UTF-8 can hold it
