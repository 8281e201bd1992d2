"""Without -j, check and index take one process per core for a large input
(by its size or its number of files, read from the file system) and one
process otherwise; the report and the index are the same either way."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexhop.cli.main import cli
from hexhop.records import jobs
from hexhop.records.jobs import default_jobs
from hexhop.records.sources import Limits

GOOD = Path(__file__).resolve().parent.parent / "samples" / "good"


@pytest.fixture
def two_cores(monkeypatch):
    monkeypatch.setattr(jobs, "cores", lambda: 2)


def files(root: Path, count: int, size: int) -> Path:
    root.mkdir()
    for number in range(count):
        (root / f"{number}.hxl").write_bytes(b" " * size)
    (root / "notes.txt").write_bytes(b" " * 10 * size)  # not a record: not counted
    return root


def test_a_small_input_is_checked_in_one_process(two_cores, tmp_path):
    assert default_jobs([str(files(tmp_path / "a", 3, 100))], (), Limits()) == 1
    assert default_jobs(["-"], (), Limits()) == 1
    assert default_jobs([str(tmp_path / "missing.hxl")], (), Limits()) == 1


def test_a_large_input_takes_every_core(two_cores, monkeypatch, tmp_path):
    folder = files(tmp_path / "a", 3, 100)
    monkeypatch.setattr(jobs, "LARGE_INPUT_BYTES", 300)
    assert default_jobs([str(folder)], (), Limits()) == 2
    assert default_jobs([str(folder / "0.hxl"), str(folder / "1.hxl")], (), Limits()) == 1
    # the notes count when --glob makes them records
    assert default_jobs([str(folder / "notes.txt")], ("*.txt",), Limits()) == 2


def test_many_files_take_every_core(two_cores, monkeypatch, tmp_path):
    monkeypatch.setattr(jobs, "LARGE_INPUT_FILES", 3)
    assert default_jobs([str(files(tmp_path / "a", 3, 1))], (), Limits()) == 2
    assert default_jobs([str(files(tmp_path / "b", 2, 1))], (), Limits()) == 1


def test_a_file_beyond_the_limit_is_not_read_so_does_not_count(two_cores, monkeypatch, tmp_path):
    monkeypatch.setattr(jobs, "LARGE_INPUT_BYTES", 300)
    big = tmp_path / "big.hxl"
    big.write_bytes(b" " * 400)
    assert default_jobs([str(big)], (), Limits(max_file_bytes=350)) == 1
    assert default_jobs([str(big)], (), Limits()) == 2


def test_one_core_is_one_process(monkeypatch, tmp_path):
    monkeypatch.setattr(jobs, "cores", lambda: 1)
    monkeypatch.setattr(jobs, "LARGE_INPUT_FILES", 1)
    assert default_jobs([str(files(tmp_path / "a", 3, 1))], (), Limits()) == 1


def test_check_without_j_uses_the_default_and_reports_the_same(two_cores, monkeypatch):
    asked: list[int] = []
    real = jobs.check_results

    def spy(sources, options, count, seconds):
        asked.append(count)
        return real(sources, options, count, seconds)

    monkeypatch.setattr(jobs, "check_results", spy)  # as hexhop.check_paths runs it
    one = CliRunner().invoke(cli, ["check", str(GOOD)])
    monkeypatch.setattr(jobs, "LARGE_INPUT_FILES", 2)
    default = CliRunner().invoke(cli, ["check", str(GOOD)])
    given = CliRunner().invoke(cli, ["check", "-j", "1", str(GOOD)])
    assert asked == [1, 2, 1]
    assert one.exit_code == default.exit_code == given.exit_code == 0
    assert without_timing(one.stdout) == without_timing(default.stdout)
    assert "6 files, 6 games" in default.stdout


def without_timing(report: str) -> list[str]:
    """The report without its summary line, which gives the seconds taken."""
    return [line for line in report.splitlines() if not line.startswith("Checked ")]


def test_index_without_j_uses_the_default_and_writes_the_same(two_cores, monkeypatch, tmp_path):
    from hexhop.cli import index_cmd

    asked: list[int] = []
    real = index_cmd.Indexer

    def spy(connection, path, options, count, **more):
        asked.append(count)
        return real(connection, path, options, count, **more)

    monkeypatch.setattr(index_cmd, "Indexer", spy)
    names = ["one", "default", "zero", "given"]

    def index(name: str, *options: str) -> int:
        db = tmp_path / f"{name}.sqlite"
        return CliRunner().invoke(cli, ["index", *options, str(GOOD), "--db", str(db)]).exit_code

    assert index("one") == 0  # 6 small files
    monkeypatch.setattr(jobs, "LARGE_INPUT_FILES", 2)
    assert index("default") == index("zero", "-j", "0") == index("given", "-j", "1") == 0
    assert asked == [1, 2, 2, 1]
    rows = []
    for name in names:
        with sqlite3.connect(tmp_path / f"{name}.sqlite") as connection:
            rows.append(
                connection.execute(
                    "SELECT g.number, g.plies, g.moves, g.valid FROM games g"
                    " JOIN files f ON f.id = g.file ORDER BY f.path, g.number"
                ).fetchall()
            )
    assert len(rows[0]) == 6
    assert rows[0] == rows[1] == rows[2] == rows[3]
