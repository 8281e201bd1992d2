"""The progress bar of long runs (issue 13 item 21: ``render`` of a big
archive said nothing for minutes)."""

from __future__ import annotations

from hexhop.cli import progress as progress_module
from hexhop.cli.progress import ProgressBar


def test_bar_shows_done_and_total_then_clears(capsys, monkeypatch):
    clock = iter([100.0, 101.5, 101.6, 102.0])
    monkeypatch.setattr(progress_module.time, "monotonic", lambda: next(clock))
    bar = ProgressBar(4, enabled=True)  # started at 100.0
    bar.update(2)  # 1.5 s in: shown
    bar.update(3)  # 0.1 s later: not redrawn
    bar.update(4)
    bar.done()
    err = capsys.readouterr().err
    assert err == (
        "\r[" + "#" * 15 + "." * 15 + "] 2/4 files\r[" + "#" * 30 + "] 4/4 files\r\033[K"
    )


def test_no_bar_off_a_terminal_or_in_the_first_second(capsys, monkeypatch):
    monkeypatch.setattr(progress_module.time, "monotonic", lambda: 100.0)
    quick = ProgressBar(10, enabled=True)
    quick.update(5)
    quick.done()
    piped = ProgressBar(10)  # standard error is not a terminal under pytest
    assert not piped.enabled
    piped.update(5)
    assert capsys.readouterr().err == ""
