"""Progress on standard error: a bar of done/total with the rate and the
time left, or counts and the rate where the total is not known.

Hand-written rather than ``click.progressbar``: that one draws at once (a
run of a tenth of a second flashes a bar), shows no rate, shows no count at
all when the total is unknown, leaves its last line standing, and its ETA
and texts cannot be translated; rich and tqdm would be a new dependency for
fifty lines.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO, TypeVar, cast

import click

from hexhop.messages import _, ngettext, number
from hexhop.records.text import counted

T = TypeVar("T")

#: The one line shown now (standard error has one), cleared before any
#: other text goes there.
_shown: list[ProgressLine] = []


class ProgressLine:
    """One line of standard error, redrawn at most five times a second;
    only on a terminal (never in a pipe or a log), never with ``quiet``,
    and only once the run has taken a second."""

    DELAY = 1.0
    EVERY = 0.2

    def __init__(self, *, quiet: bool = False, enabled: bool | None = None):
        self.enabled = (not quiet and sys.stderr.isatty()) if enabled is None else enabled
        self.started = time.monotonic()
        self.last = 0.0
        self.shown = False

    def due(self) -> bool:
        """Whether to redraw now (callers build the line only then)."""
        if not self.enabled:
            return False
        now = time.monotonic()
        if now - self.started < self.DELAY or now - self.last < self.EVERY:
            return False
        self.last = now
        return True

    def show(self, line: str) -> None:
        if not self.shown:
            clear()  # another line, of a phase before
            _shown.append(self)
        self.shown = True
        click.echo("\r" + line + "\033[K", err=True, nl=False, color=True)

    def done(self) -> None:
        """Clear the line (the command's own text follows); it is drawn again
        at the next update that is due."""
        if self.shown:
            click.echo("\r\033[K", err=True, nl=False, color=True)  # a terminal: keep the escape
            self.shown = False
            if self in _shown:
                _shown.remove(self)


def clear() -> None:
    """Clear the progress line shown, if any: a message or Ctrl-C's report
    is written next."""
    while _shown:
        _shown[-1].done()


class Beside:
    """A text stream (standard output on the bar's terminal) that clears
    the progress line before anything is written to it."""

    def __init__(self, stream: TextIO):
        self.stream = stream

    def write(self, text: str) -> int:
        if text:
            clear()
        return self.stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def beside(stream: TextIO) -> TextIO:
    """``stream``, cleared of the bar's line before each write when it is a terminal."""
    return cast(TextIO, Beside(stream)) if stream.isatty() else stream


#: ``12/40 games``: the word agrees with the total
_OF_TOTAL: dict[str, Callable[[int], str]] = {
    "file": lambda n: ngettext("{done}/{total} file", "{done}/{total} files", n),
    "game": lambda n: ngettext("{done}/{total} game", "{done}/{total} games", n),
    "puzzle": lambda n: ngettext("{done}/{total} puzzle", "{done}/{total} puzzles", n),
}


class ProgressBar(ProgressLine):
    """``[#####.........] 12/40 games, 3.2/s, 0:09 left``; without a total
    ``1200 games, 310/s``."""

    WIDTH = 30

    def __init__(
        self,
        total: int | None,
        what: str = "file",  # file, game or puzzle (with a total)
        *,
        quiet: bool = False,
        enabled: bool | None = None,
    ):
        super().__init__(quiet=quiet, enabled=enabled)
        self.total = total
        self.what = what
        self.count = 0

    def update(self, done: int) -> None:
        """``done`` of the total are done."""
        self.count = done
        if self.due():
            self.show(self.line(done, self.last - self.started))

    def advance(self, step: int = 1) -> None:
        self.update(self.count + step)

    def line(self, done: int, seconds: float) -> str:
        rate = done / seconds if seconds > 0 else 0.0
        parts = []
        if self.total is None:
            parts.append(counted(done, self.what))
        else:
            total = max(self.total, 1)
            filled = self.WIDTH * min(done, total) // total
            bar = "#" * filled + "." * (self.WIDTH - filled)
            of_total = _OF_TOTAL[self.what](self.total).format(done=done, total=self.total)
            parts.append(f"[{bar}] {of_total}")
        if done:
            parts.append(
                _("{rate}/s").format(rate=number(rate, 1) if rate < 10 else number(rate, 0))
            )
            if self.total is not None:
                parts.append(_("{time} left").format(time=clock(max(self.total - done, 0) / rate)))
        return ", ".join(parts)

    def iterate(self, items: Iterable[T]) -> Iterator[T]:
        """``items``, one step of the bar after each."""
        for item in items:
            yield item
            self.advance()


def clock(seconds: float) -> str:
    """``0:09``, ``12:30``, ``2:05:00``."""
    whole = int(seconds + 0.5)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class Kept:
    """The files a run has written so far: the first, the last and how many."""

    def __init__(self) -> None:
        self.first = self.last = ""
        self.count = 0

    def add(self, path: str) -> None:
        self.first = self.first or path
        self.last = path
        self.count += 1

    def text(self) -> str:
        """``kept: out/a.svg … out/l.svg (12 files)``, or ``nothing written``."""
        if not self.count:
            return _("nothing written")
        if self.count == 1:
            return _("kept: {path}").format(path=self.first)
        return _("kept: {first} … {last} ({files})").format(
            first=self.first, last=self.last, files=counted(self.count, "file")
        )


def kept(paths: Iterable[str]) -> str:
    """What an interrupted run kept of ``paths``, as :meth:`Kept.text` says it."""
    files = Kept()
    for path in paths:
        files.add(path)
    return files.text()


def so_far(done: int, total: int | None, what: str, kept: Kept) -> str:
    """``after 12 of 40 games; kept: …`` (``after 12 games; …`` without a total)."""
    if total is None:
        return _("after {done}; {kept}").format(done=counted(done, what), kept=kept.text())
    return _("after {done} of {total}; {kept}").format(
        done=done, total=counted(total, what), kept=kept.text()
    )


#: The longest a bar's total is counted for before the work starts (beyond:
#: no total, counts and the rate only)
COUNT_SECONDS = 2.0


def games_bar(
    paths: Iterable[str],
    *,
    quiet: bool = False,
    globs: tuple[str, ...] = (),
    limits: Any = None,
    bar: ProgressBar | None = None,
) -> ProgressBar:
    """A bar of the games of ``paths`` (``bar``, or a new one), counted
    first (cheaply, and only when the bar is shown); without a total for
    standard input."""
    bar = bar or ProgressBar(None, "game", quiet=quiet)
    if bar.enabled and bar.total is None:
        from hexhop.records.counting import DEFAULT_LIMITS, count_games

        limits = limits or DEFAULT_LIMITS
        bar.total = count_games(paths, globs=globs, limits=limits, seconds=COUNT_SECONDS)
    return bar


def games_read(bar: ProgressBar) -> str:
    """``200 of 6000 games`` (``200 games`` without a total)."""
    if bar.total is None:
        return counted(bar.count, "game")
    return _("{done} of {total}").format(done=bar.count, total=counted(bar.total, "game"))
