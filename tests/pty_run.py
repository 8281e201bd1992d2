"""Run hexhop with its standard error (and output) on a pseudo-terminal, as
a user at a terminal would, and stop it with Ctrl-C once it shows progress."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

#: ``[####......] 12/40 games, 3.2/s, 0:09 left``
BAR = re.compile(r"\[[#.]{30}\] (\d+)/(\d+) (\w+)")
EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143}


@dataclass
class Run:
    code: int
    text: str  # standard error as the terminal got it (standard output too, unless piped)
    out: str  # standard output when piped


class Terminal:
    """A hexhop child whose standard error is a pseudo-terminal."""

    def __init__(self, *args: str, cwd: Path, stdout_piped: bool = False):
        self.master, slave = os.openpty()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "hexhop.cli", *args],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE if stdout_piped else slave,
            stderr=slave,
            env={**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "LANGUAGE": "en"},
        )
        os.close(slave)
        self.seen = b""

    def _read(self, wait: float) -> bool:
        """Read what is there; False at the end (the child closed the terminal)."""
        ready, _, _ = select.select([self.master], [], [], wait)
        if not ready:
            return True
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: no writer left
            return False
        self.seen += data
        return bool(data)

    def wait_for(self, pattern: re.Pattern[str], limit: float = 300.0) -> re.Match[str]:
        """Read until ``pattern`` shows (a guard against a hang, not a timing)."""
        end = time.monotonic() + limit
        while True:
            found = pattern.search(self.seen.decode("utf-8", "replace"))
            if found:
                return found
            assert self.process.poll() is None or self._read(0.0), self.text()
            assert time.monotonic() < end, self.text()
            self._read(0.1)

    def text(self) -> str:
        return self.seen.decode("utf-8", "replace")

    def finish(self, signum: int | None = None) -> Run:
        if signum is not None:
            self.process.send_signal(signum)
        out = b""
        if self.process.stdout is not None:
            out = self.process.stdout.read()
        while self._read(1.0):
            if self.process.poll() is not None and not select.select([self.master], [], [], 0)[0]:
                break
        code = self.process.wait(timeout=300)
        os.close(self.master)
        if self.process.stdout is not None:
            self.process.stdout.close()
        return Run(code, self.text(), out.decode("utf-8", "replace"))


def interrupted(
    *args: str, cwd: Path, at: re.Pattern[str] = BAR, signum: int = signal.SIGINT
) -> Run:
    """Run, wait for ``at`` (the bar), send ``signum``; exit 130 or 143, no traceback."""
    terminal = Terminal(*args, cwd=cwd)
    terminal.wait_for(at)
    run = terminal.finish(signum)
    assert run.code == EXIT[signum], run.text
    assert "Traceback" not in run.text, run.text
    return run
