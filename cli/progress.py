"""A progress bar on standard error, for commands that write many files."""

from __future__ import annotations

import sys
import time

import click

from hexhop.messages import N_, _


class ProgressBar:
    """``[#####.....] 120/301 files`` on one line of standard error, redrawn
    at most five times a second; only on a terminal (never in a pipe or a
    log) and only once the run has taken a second."""

    WIDTH = 30

    def __init__(self, total: int, what: str = N_("files"), *, enabled: bool | None = None):
        self.total = max(total, 1)
        self.what = what
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.started = time.monotonic()
        self.last = 0.0
        self.shown = False

    def update(self, done: int) -> None:
        now = time.monotonic()
        if not self.enabled or now - self.started < 1.0 or now - self.last < 0.2:
            return
        self.last = now
        self.shown = True
        filled = self.WIDTH * min(done, self.total) // self.total
        bar = "#" * filled + "." * (self.WIDTH - filled)
        click.echo(f"\r[{bar}] {done}/{self.total} {_(self.what)}", err=True, nl=False)

    def done(self) -> None:
        """Clear the bar (the command's own summary follows)."""
        if self.shown:
            click.echo("\r\033[K", err=True, nl=False, color=True)  # a terminal: keep the escape
            self.shown = False
