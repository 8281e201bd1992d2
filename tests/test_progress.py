"""The progress bar of long runs: every long command shows done/total, the
rate and the time left (``render`` of a big archive must not say nothing
for minutes)."""

from __future__ import annotations

import io

import pytest

from hexhop.cli import progress as progress_module
from hexhop.cli.progress import Beside, ProgressBar, beside, clock, kept
from hexhop.records.counting import count_files, count_games


def test_bar_shows_done_total_rate_and_time_left_then_clears(capsys, monkeypatch):
    clock_ = iter([100.0, 102.0, 102.1, 104.0])
    monkeypatch.setattr(progress_module.time, "monotonic", lambda: next(clock_))
    bar = ProgressBar(8, "game", enabled=True)  # started at 100.0
    bar.update(2)  # 2 s in: shown, 1 game a second, 6 to go
    bar.update(3)  # 0.1 s later: not redrawn
    bar.update(8)  # 4 s in: 2 a second
    bar.done()
    err = capsys.readouterr().err
    assert err == (
        "\r[" + "#" * 7 + "." * 23 + "] 2/8 games, 1.0/s, 0:06 left\033[K"
        "\r[" + "#" * 30 + "] 8/8 games, 2.0/s, 0:00 left\033[K\r\033[K"
    )


def test_without_a_total_the_bar_counts(capsys, monkeypatch):
    clock_ = iter([100.0, 101.0, 110.0])
    monkeypatch.setattr(progress_module.time, "monotonic", lambda: next(clock_))
    bar = ProgressBar(None, "file", enabled=True)
    bar.update(0)  # nothing done: no rate yet
    bar.update(1200)
    assert capsys.readouterr().err == "\r0 files\033[K\r1200 files, 120/s\033[K"


def test_no_bar_off_a_terminal_quiet_or_in_the_first_second(capsys, monkeypatch):
    monkeypatch.setattr(progress_module.time, "monotonic", lambda: 100.0)
    quick = ProgressBar(10, enabled=True)
    quick.update(5)
    quick.done()
    piped = ProgressBar(10)  # standard error is not a terminal under pytest
    assert not piped.enabled
    monkeypatch.setattr(progress_module.sys.stderr, "isatty", lambda: True, raising=False)
    assert ProgressBar(10).enabled and not ProgressBar(10, quiet=True).enabled
    piped.update(5)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    "seconds, shown", [(0, "0:00"), (9.4, "0:09"), (750, "12:30"), (7500, "2:05:00")]
)
def test_time_left_reads_as_a_clock(seconds, shown):
    assert clock(seconds) == shown


def test_what_an_interrupted_run_kept():
    assert kept([]) == "nothing written"
    assert kept(["out/a.svg"]) == "kept: out/a.svg"
    assert kept(["out/a.svg", "out/b.svg", "out/c.svg"]) == "kept: out/a.svg … out/c.svg (3 files)"


def test_the_totals_are_counted_as_the_readers_find_them(tmp_path):
    folder = tmp_path / "club"
    folder.mkdir()
    game = '[Game "Hüpfer"]\n[Board "8x8"]\n\n*\n'
    (folder / "two.hpf").write_text(game + "\n" + game, "utf-8")
    (folder / "one.hpf.gz").write_bytes(__import__("gzip").compress(game.encode()))
    (folder / "notes.txt").write_text("not a record", "utf-8")
    assert count_files([str(folder)]) == 2
    assert count_files([str(folder)], globs=("*.txt",)) == 1
    assert count_games([str(folder)]) == 3
    assert count_games([str(folder)], seconds=60) == 3
    assert count_games([str(folder)], seconds=-1) is None  # too long to count: no total
    assert count_files(["-"]) is None and count_games([str(folder), "-"]) is None
    (folder / "more.zip").write_bytes(b"")
    assert count_files([str(folder)]) is None  # an archive's members are known by reading it


def test_output_beside_the_bar_clears_it_first(capsys, monkeypatch):
    clock_ = iter([100.0, 102.0])
    monkeypatch.setattr(progress_module.time, "monotonic", lambda: next(clock_))
    bar = ProgressBar(4, enabled=True)
    bar.update(1)
    out = io.StringIO()
    Beside(out).write("")  # nothing written: the bar stays
    assert bar.shown
    Beside(out).write("a.hxl: error\n")
    assert capsys.readouterr().err.endswith("left\033[K\r\033[K")
    assert out.getvalue() == "a.hxl: error\n" and not bar.shown
    assert beside(out) is out  # not a terminal: as it is
