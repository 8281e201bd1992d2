"""``check -j`` on one large file: its parts are cut
while the workers check the parts before, a bounded number at a time, and
reported in order as they finish; memory stays flat."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import closing

import pytest
from test_flat_memory import hupfer_archives, peak_mib

from hexhop.records import jobs
from hexhop.records.checking import CheckOptions, Part
from hexhop.records.sources import Source

GAME = '[Game "Hexalit"]\n\n1. B6XC6 E8XD8 2. B5XC5 *\n'


def test_parts_are_cut_while_the_first_ones_are_checked(monkeypatch):
    monkeypatch.setattr(jobs, "SPLIT_BYTES", 1000)
    monkeypatch.setattr(jobs, "GAMES_PER_PART", 10)
    cut: list[int] = []
    real = jobs.source_parts

    def counted(*args) -> Iterator[Part]:
        parts = real(*args)
        assert not isinstance(parts, jobs.FileResult)
        for part in parts:
            cut.append(len(cut))
            yield part

    monkeypatch.setattr(jobs, "source_parts", counted)
    source = Source("big.hxl", (GAME * 500).encode("utf-8"))
    cut_by_piece = []
    games = 0
    with closing(jobs.check_results([source], CheckOptions(), jobs=2, seconds=60.0)) as files:
        pieces = next(files)
        for piece in pieces:
            cut_by_piece.append(len(cut))
            games += len(piece.games)
        assert next(files, None) is None
    assert games == 500 and len(cut) == 50
    in_flight = 2 * jobs.WINDOW
    # when the first part is reported, only the window (and one ahead) is cut
    assert cut_by_piece[0] <= in_flight + 1
    assert cut_by_piece == [min(50, n + in_flight + 1) for n in range(50)]


@pytest.mark.slow
def test_two_jobs_on_a_ten_times_larger_file_cost_at_most_5_mib_more(tmp_path):
    hupfer_archives(tmp_path)
    for fmt in ("json", "text"):
        before = peak_mib("-j", "2", "--format", fmt, str(tmp_path / "small.hpf"))
        after = peak_mib("-j", "2", "--format", fmt, str(tmp_path / "large.hpf"))
        assert after - before <= 5.0, (fmt, before, after)


SLOW_PARTS = textwrap.dedent("""
    import sys, time
    from hexhop.records import jobs
    from hexhop.cli.main import cli

    from hexhop.engine.deadline import checkpoint

    real = jobs.check_part

    def slow(part, options):
        while part.path.endswith("-slow.hxl"):  # runs until its deadline stops it
            checkpoint()
            time.sleep(0.01)
        if part.path.endswith("-late.hxl"):  # takes most of --max-seconds
            time.sleep(1.2)
        return real(part, options)

    jobs.check_part = slow
    jobs.SPLIT_BYTES = 1000
    jobs.GAMES_PER_PART = 10
    jobs.GRACE_SECONDS = 0.3
    cli(["check", "--format", "json", "-j", "2", "--max-seconds", "1.5", *sys.argv[1:]])
""")


@pytest.mark.slow
def test_a_file_behind_the_dropped_parts_of_a_late_file_is_not_taken_for_stuck(tmp_path):
    """Parts of a file that ran out of time which already sit with the
    workers delay the next file; the wait for it allows for them too."""
    slow, late = tmp_path / "a-slow.hxl", tmp_path / "b-late.hxl"
    slow.write_text(GAME * 200, "utf-8")
    late.write_text(GAME * 5, "utf-8")
    run = subprocess.run(
        [sys.executable, "-c", SLOW_PARTS, str(slow), str(late)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in run.stderr, run.stderr
    first, second = json.loads(run.stdout)["files"]
    assert first["games"] == [] and first["error"]["code"] == "IO09"
    assert len(second["games"]) == 5 and "error" not in second
