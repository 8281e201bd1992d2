"""``hexhop check``: validate records, from one file to a whole archive."""

from __future__ import annotations

import sys
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from typing import Iterable, Iterator

import click

from .checking import (CheckOptions, FileResult, check_part, check_source, merge,
                       split_source)
from .inputs import Limits, Source, iter_sources
from .options import game_option

SPLIT_BYTES = 256 * 1024  # with -j, files larger than this are checked in parts
GAMES_PER_PART = 100

EXAMPLE = """
\b
Examples:
  hexhop check samples/good
  hexhop check club-archive.zip --format json > report.json
  hexhop check -j 2 --quiet archive/
  cat game.hxl | hexhop check - --game Hexalit
"""


@click.command(epilog=EXAMPLE)
@click.argument("paths", nargs=-1, required=True)
@game_option
@click.option("--glob", "globs", multiple=True, metavar="PATTERN",
              help="Which files of a directory or archive to check "
                   "(repeatable; default: *.hxl, *.trg, *.hpf).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "jsonl", "junit"]),
              default="text", show_default=True, help="Report format.")
@click.option("--strict", is_flag=True, help="Warnings make a game invalid too.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto",
              show_default=True, help="Colour in the text report.")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Check files in this many processes (output order stays the same).")
@click.option("-q", "--quiet", is_flag=True, help="Print only the summary.")
@click.option("--max-findings", type=click.IntRange(0), default=None,
              help="Show at most this many findings in the text report.")
@click.option("--max-file-size", type=click.IntRange(1), default=64, show_default=True,
              metavar="MIB", help="Skip (and report, IO03) files larger than this.")
@click.option("--max-member-size", type=click.IntRange(1), default=64, show_default=True,
              metavar="MIB", help="Skip (and report, IO01) zip and tar members that "
                                  "unpack to more than this.")
@click.option("--max-archive-size", type=click.IntRange(1), default=1024, show_default=True,
              metavar="MIB", help="Stop unpacking a zip or tar archive after this much "
                                  "in all (the rest is reported, IO01).")
@click.option("--max-games", type=click.IntRange(1), default=Limits.max_games,
              show_default=True, help="Check at most this many games of one file "
                                      "(IO04 for the rest).")
@click.option("--max-plies", type=click.IntRange(1), default=Limits.max_actions,
              show_default=True, help="Games with more actions than this, variations "
                                      "included, are not replayed (IO05).")
@click.option("--max-comment", type=click.IntRange(1), default=Limits.max_comment,
              show_default=True, metavar="CHARS",
              help="Games with a longer comment are not replayed (IO06).")
@click.option("--max-depth", type=click.IntRange(1, Limits.max_depth),
              default=Limits.max_depth, show_default=True,
              help="Variations nested deeper than this are an error (SY06).")
def check(paths: tuple[str, ...], game: str | None, globs: tuple[str, ...], fmt: str,
          strict: bool, color: str, jobs: int, quiet: bool, max_findings: int | None,
          max_file_size: int, max_member_size: int, max_archive_size: int,
          max_games: int, max_plies: int, max_comment: int, max_depth: int) -> None:
    """Check that every action of every game in PATHS is legal.

    PATHS are record files, directories (searched recursively), .zip or
    .tar(.gz) archives (read in place), or - for standard input.

    Limits (--max-...) keep hostile input from eating the machine; what
    goes beyond one is reported and the run goes on.

    Exit status: 0 when every game is valid, 1 when some game is invalid,
    2 on a usage error or when some input could not be read.
    """
    from .report import REPORTERS

    use_color = color == "always" or (color == "auto" and sys.stdout.isatty())
    reporter = REPORTERS[fmt](sys.stdout, color=use_color,
                              quiet=quiet, max_findings=max_findings)
    mib = 1024 * 1024
    limits = Limits(max_file_bytes=max_file_size * mib, max_member_bytes=max_member_size * mib,
                    max_archive_bytes=max_archive_size * mib, max_games=max_games,
                    max_actions=max_plies, max_comment=max_comment, max_depth=max_depth)
    options = CheckOptions(game=game, strict=strict, limits=limits)
    started = time.perf_counter()
    progress = _Progress(enabled=sys.stderr.isatty())
    for result in _results(iter_sources(list(paths), globs=globs, limits=limits), options, jobs):
        reporter.file(result)
        progress.update(reporter.summary)
    progress.done()
    reporter.summary.seconds = time.perf_counter() - started
    reporter.finish()
    sys.exit(_exit_code(reporter.summary))


def _results(sources: Iterable[Source], options: CheckOptions, jobs: int) -> Iterator[FileResult]:
    if jobs == 1:
        yield from (check_source(source, options) for source in sources)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from _ordered(pool, sources, options, window=jobs * 8)


def _ordered(pool: ProcessPoolExecutor, sources: Iterable[Source], options: CheckOptions,
             window: int) -> Iterator[FileResult]:
    """Results in input order, with at most ``window`` tasks in flight
    (``Executor.map`` would read every file before the first result). A
    large file is cut into parts of games so that its games are checked in
    parallel too; its parts are merged back into one result."""
    pending: deque = deque()
    for source in sources:
        pending.append((source, _submit(pool, source, options)))
        while sum(len(futures) for _, futures in pending) >= window and len(pending) > 1:
            yield _collect(*pending.popleft())
    while pending:
        yield _collect(*pending.popleft())


def _submit(pool: ProcessPoolExecutor, source: Source, options: CheckOptions) -> list:
    parts = None
    if source.data is not None and len(source.data) > SPLIT_BYTES:
        parts = split_source(source, options, GAMES_PER_PART)
    if not parts:
        return [pool.submit(check_source, source, options)]
    return [pool.submit(check_part, part, options) for part in parts]


def _collect(source: Source, futures: list) -> FileResult:
    """The merged result; a crashed worker becomes an unreadable file."""
    try:
        return merge([future.result() for future in futures])
    except Exception as error:  # a dead worker must not stop the run
        return check_source(Source(source.path, error=f"the checker failed: {error!r}"),
                            CheckOptions())


def _exit_code(summary) -> int:
    if summary.unreadable:
        return 2
    return 1 if summary.invalid else 0


class _Progress:
    """A one-line counter on standard error for runs longer than a second."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.started = time.monotonic()
        self.last = 0.0
        self.shown = False

    def update(self, summary) -> None:
        now = time.monotonic()
        if not self.enabled or now - self.started < 1.0 or now - self.last < 0.2:
            return
        self.last = now
        self.shown = True
        click.echo(f"\rchecked {summary.files} files, {summary.games} games, "
                   f"{summary.plies} plies ...", err=True, nl=False)

    def done(self) -> None:
        if self.shown:
            click.echo("\r\033[K", err=True, nl=False)
