"""Progress on standard error: a line of counts, or a bar of files written."""

from __future__ import annotations

import sys
import time

import click

from hexhop.messages import N_, _


class ProgressLine:
    """One line of standard error, redrawn at most five times a second;
    only on a terminal (never in a pipe or a log) and only once the run has
    taken a second."""

    def __init__(self, *, enabled: bool | None = None):
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.started = time.monotonic()
        self.last = 0.0
        self.shown = False

    def due(self) -> bool:
        """Whether to redraw now (callers build the line only then)."""
        now = time.monotonic()
        if not self.enabled or now - self.started < 1.0 or now - self.last < 0.2:
            return False
        self.last = now
        return True

    def show(self, line: str) -> None:
        self.shown = True
        click.echo("\r" + line, err=True, nl=False)

    def done(self) -> None:
        """Clear the line (the command's own summary follows)."""
        if self.shown:
            click.echo("\r\033[K", err=True, nl=False, color=True)  # a terminal: keep the escape
            self.shown = False


class ProgressBar(ProgressLine):
    """``[#####.....] 120/301 files``."""

    WIDTH = 30

    def __init__(self, total: int, what: str = N_("files"), *, enabled: bool | None = None):
        super().__init__(enabled=enabled)
        self.total = max(total, 1)
        self.what = what

    def update(self, done: int) -> None:
        if self.due():
            filled = self.WIDTH * min(done, self.total) // self.total
            bar = "#" * filled + "." * (self.WIDTH - filled)
            self.show(f"[{bar}] {done}/{self.total} {_(self.what)}")
