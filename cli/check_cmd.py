"""``hexhop check``: validate records, from one file to a whole archive."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import closing
from dataclasses import dataclass, replace
from itertools import islice
from types import FrameType
from typing import Any

import click

from hexhop.messages import _, language, set_language
from hexhop.notation.findings import make
from hexhop.records.checking import (
    CheckOptions,
    FileResult,
    Part,
    check_part,
    check_source,
    finding_dict,
    source_parts,
)
from hexhop.records.sources import RECORD_EXTENSIONS, Limits, Source, iter_sources
from hexhop.records.text import counted

from .command_output import tell
from .help import Translated
from .interrupt import can_raise, checkpoint, signals_held, stoppable
from .options import game_option
from .progress import ProgressLine

ALARM_REPEAT = 0.05  # seconds between alarms once a check has overrun
GRACE_SECONDS = 5.0  # beyond --max-seconds, before a stuck worker is killed
SPLIT_BYTES = 256 * 1024  # with -j, files larger than this are checked in parts
GAMES_PER_PART = 100
WINDOW = 3  # calls in flight per worker: enough to keep it busy, few to hold

EXAMPLE = """
\b
Examples:
  hexhop check samples/good
  hexhop check club-archive.zip --format json > report.json
  hexhop check -j 2 --quiet archive/
  cat game.hxl | hexhop check - --game Hexalit
"""


@click.command(cls=Translated, epilog=EXAMPLE)
@click.argument("paths", nargs=-1, required=True)
@game_option
@click.option(
    "--glob",
    "globs",
    multiple=True,
    metavar="PATTERN",
    help="Which files of a directory or archive to check "
    "(repeatable; default: *.hxl, *.trg, *.hpf).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "jsonl", "junit"]),
    default="text",
    show_default=True,
    help="Report format.",
)
@click.option("--strict", is_flag=True, help="Warnings make a game invalid too.")
@click.option(
    "--color",
    type=click.Choice(["auto", "always", "never"]),
    default="auto",
    show_default=True,
    help="Colour in the text report.",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(0, 64),
    default=1,
    show_default=True,
    help="Check files in this many processes, 0: one per core (output order stays the same).",
)
@click.option(
    "--dask",
    metavar="ADDRESS",
    help="Check on the Dask scheduler at ADDRESS (local: a cluster of -j processes "
    "here); the report is the same. Needs pip install 'hexhop[dask]'.",
)
@click.option("-q", "--quiet", is_flag=True, help="Print only the summary.")
@click.option(
    "--max-findings",
    type=click.IntRange(0),
    default=100,
    show_default=True,
    help="Show at most this many findings of a game in the text report "
    "(the json, jsonl and junit reports hold them all).",
)
@click.option(
    "--max-seconds",
    type=click.FloatRange(0, min_open=True),
    default=60.0,
    show_default=True,
    help="Stop checking a file after this long (IO09); with -j, each part of a large file.",
)
@click.option(
    "--max-file-size",
    type=click.IntRange(1),
    default=64,
    show_default=True,
    metavar="MIB",
    help="Skip (and report, IO03) files larger than this.",
)
@click.option(
    "--max-member-size",
    type=click.IntRange(1),
    default=64,
    show_default=True,
    metavar="MIB",
    help="Skip (and report, IO01) zip and tar members that unpack to more than this.",
)
@click.option(
    "--max-archive-size",
    type=click.IntRange(1),
    default=1024,
    show_default=True,
    metavar="MIB",
    help="Stop unpacking a zip or tar archive after this much in all (the rest is reported, IO01).",
)
@click.option(
    "--max-games",
    type=click.IntRange(1),
    default=Limits.max_games,
    show_default=True,
    help="Check at most this many games of one file (IO04 for the rest).",
)
@click.option(
    "--max-plies",
    type=click.IntRange(1),
    default=Limits.max_actions,
    show_default=True,
    help="Games with more actions than this, variations included, are not replayed (IO05).",
)
@click.option(
    "--max-comment",
    type=click.IntRange(1),
    default=Limits.max_comment,
    show_default=True,
    metavar="CHARS",
    help="Games with a longer comment are not replayed (IO06).",
)
@click.option(
    "--max-depth",
    type=click.IntRange(1, Limits.max_depth),
    default=Limits.max_depth,
    show_default=True,
    help="Variations nested deeper than this are an error (SY06).",
)
@click.option(
    "--max-tag-length",
    type=click.IntRange(1),
    default=Limits.max_tag_value,
    show_default=True,
    metavar="CHARS",
    help="Games with a longer tag value are not read (IO07).",
)
@click.option(
    "--max-token-length",
    type=click.IntRange(1, 4000),
    default=Limits.max_token,
    show_default=True,
    metavar="CHARS",
    help="Games with a longer action, move number or tag name are not read (IO08).",
)
def check(
    paths: tuple[str, ...],
    game: str | None,
    globs: tuple[str, ...],
    fmt: str,
    strict: bool,
    color: str,
    jobs: int,
    dask: str | None,
    quiet: bool,
    max_findings: int,
    max_seconds: float,
    max_file_size: int,
    max_member_size: int,
    max_archive_size: int,
    max_games: int,
    max_plies: int,
    max_comment: int,
    max_depth: int,
    max_tag_length: int,
    max_token_length: int,
) -> None:
    """Check that every action of every game in PATHS is legal.

    PATHS are record files, directories (searched recursively), .zip or
    .tar(.gz) archives (read in place), or - for standard input.

    Limits (--max-...) keep hostile input from eating the machine; what
    goes beyond one is reported and the run goes on.

    Exit status: 0 when every game is valid, 1 when some game is invalid,
    2 on a usage error or when some input could not be read.
    """
    from hexhop.records.report import REPORTERS

    use_color = color == "always" or (color == "auto" and sys.stdout.isatty())
    reporter = REPORTERS[fmt](sys.stdout, color=use_color, quiet=quiet, max_findings=max_findings)
    mib = 1024 * 1024
    limits = Limits(
        max_file_bytes=max_file_size * mib,
        max_member_bytes=max_member_size * mib,
        max_archive_bytes=max_archive_size * mib,
        max_games=max_games,
        max_actions=max_plies,
        max_comment=max_comment,
        max_depth=max_depth,
        max_tag_value=max_tag_length,
        max_token=max_token_length,
    )
    options = CheckOptions(game=game, strict=strict, limits=limits)
    jobs = jobs or cores()

    started = time.perf_counter()
    progress = ProgressLine()

    def report_so_far() -> str:
        progress.done()
        reporter.summary.seconds = time.perf_counter() - started
        reporter.finish()
        return _("after {files}").format(files=counted(reporter.summary.files, "file"))

    empty: list[str] = []  # folders and archives without a record file
    sources = _sources(paths, globs, limits, empty)
    if dask:
        from hexhop.archive.scale_out import check_with_dask

        results_of = _whole(check_with_dask(sources, options, dask, jobs))
    else:
        results_of = _results(sources, options, jobs, max_seconds)
    with stoppable(report_so_far), closing(results_of) as results:
        for pieces in results:  # each file's result, in pieces as its games are checked
            for piece in pieces:
                checkpoint()
                with signals_held():
                    reporter.add(piece)
            with signals_held():  # a file's report is written whole
                reporter.end()
            if progress.due():
                progress.show(_checked_line(reporter.summary))
    report_so_far()
    _nothing_checked(empty, globs, reporter.summary)
    sys.exit(_exit_code(reporter.summary))


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def _sources(
    paths: tuple[str, ...], globs: tuple[str, ...], limits: Limits, empty: list[str]
) -> Iterator[Source]:
    """The sources of every path, noting in ``empty`` the paths that hold none."""
    for path in paths:
        found = False
        for source in iter_sources([path], globs=globs, limits=limits):
            found = True
            yield source
        if not found:
            empty.append(path)


def _nothing_checked(empty: list[str], globs: tuple[str, ...], summary) -> None:
    """Hints on standard error for paths with no record file, and for a run
    that checked no game at all (which then exits with 2)."""
    looked_for = ", ".join(globs or tuple(f"*{ext}" for ext in RECORD_EXTENSIONS))
    for path in empty:
        tell(
            _(
                "{path}: no record files here (looked for {patterns}); "
                "--glob PATTERN checks other files"
            ).format(path=path, patterns=looked_for)
        )
    if summary.games == 0 and not summary.unreadable:
        tell(_("Error: nothing to check: no game was found"))


def _whole(
    results: Generator[FileResult, None, None],
) -> Generator[Iterable[FileResult], None, None]:
    with closing(results):
        for result in results:
            yield [result]


def _results(
    sources: Iterable[Source], options: CheckOptions, jobs: int, seconds: float
) -> Generator[Iterable[FileResult], None, None]:
    """The result of each source, in pieces of at most ``GAMES_PER_PART`` games."""
    if jobs == 1:
        yield from (_streamed(source, options, seconds) for source in sources)
        return
    workers = _Workers(jobs)
    try:
        yield from _by_file(_ordered(workers, sources, options, seconds, window=jobs * WINDOW))
    finally:
        workers.close()


def _by_file(pieces: Iterator[tuple[bool, FileResult]]) -> Iterator[Iterator[FileResult]]:
    """Pieces marked ``(last of its file, piece)``, one iterator a file
    (each is read to its end before the next file's is asked for)."""
    while (first := next(pieces, None)) is not None:
        yield _until_last(first, pieces)


def _until_last(
    first: tuple[bool, FileResult], pieces: Iterator[tuple[bool, FileResult]]
) -> Iterator[FileResult]:
    last, piece = first
    yield piece
    while not last:
        last, piece = next(pieces)
        yield piece


class _Workers:
    """A process pool that is replaced when one of its processes dies.

    After a worker dies, ``ProcessPoolExecutor`` fails every task in flight
    and refuses new ones (``BrokenProcessPool``); :meth:`restart` makes a
    new pool, and :meth:`submit` never raises: a task the pool refuses comes
    back as a failed future.
    """

    def __init__(self, jobs: int):
        self.jobs = jobs
        self.pool = self._new()
        # calls of files that ended early which could not be cancelled:
        # the workers may still be busy with them
        self.dropped: list[Future] = []

    def submit(self, function, *args) -> Future:
        try:
            return self.pool.submit(function, *args)
        except BrokenProcessPool as error:
            failed: Future = Future()
            failed.set_exception(error)
            return failed

    def _new(self) -> ProcessPoolExecutor:
        # the workers speak the language of the command (a spawned worker
        # would start in English)
        return ProcessPoolExecutor(
            max_workers=self.jobs, initializer=_quiet_worker, initargs=(language(),)
        )

    def restart(self, kill: bool = False) -> None:
        """A new pool; ``kill``: stop the old one's processes too (one is stuck)."""
        processes = list(getattr(self.pool, "_processes", {}).values()) if kill else []
        self.pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.kill()
        self.pool = self._new()
        self.dropped = []

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def _quiet_worker(lang: str) -> None:
    """Ctrl-C is for the main process, which stops the workers; SIGTERM ends a worker."""
    set_language(lang)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


@dataclass
class _File:
    """A source being checked: how many of its pieces are reported, and
    whether it ended early (the rest of its parts are then dropped)."""

    source: Source
    reported: int = 0
    ended: bool = False


@dataclass
class _Unit:
    """One call in flight: a whole file, or one part of a large one."""

    file: _File
    call: tuple
    last: bool
    future: Future | None = None

    def submit(self, workers: _Workers) -> None:
        """Submit the call unless it has already finished well."""
        if self.future is None or not _succeeded(self.future):
            self.future = workers.submit(*self.call)


def _succeeded(future: Future) -> bool:
    return future.done() and not future.cancelled() and future.exception() is None


def _units(sources: Iterable[Source], options: CheckOptions, seconds: float) -> Iterator[_Unit]:
    """The calls of every source, a large file's parts cut only as they are
    asked for (one part ahead, to know which is the last)."""
    for source in sources:
        file = _File(source)
        calls = _calls(source, options, seconds)
        call = next(calls)
        for following in calls:
            if file.ended:
                break
            yield _Unit(file, call, last=False)
            call = following
        else:
            if not file.ended:
                yield _Unit(file, call, last=True)


def _ordered(
    workers: _Workers, sources: Iterable[Source], options: CheckOptions, seconds: float, window: int
) -> Iterator[tuple[bool, FileResult]]:
    """Results in input order, as ``(last of its file, piece)``, with at
    most ``window`` calls in flight (``Executor.map`` would read every file
    before the first result). A large file is cut into parts of games while
    the workers check the parts before, so that its games are checked in
    parallel too and memory stays flat."""
    units = _units(sources, options, seconds)
    flight: deque[_Unit] = deque()
    while True:
        for unit in islice(units, max(0, window - len(flight))):
            unit.submit(workers)
            flight.append(unit)
        if not flight:
            return
        unit = flight.popleft()
        if not unit.file.ended:
            yield _outcome(workers, unit, flight, seconds)


def _outcome(
    workers: _Workers, unit: _Unit, flight: deque[_Unit], seconds: float
) -> tuple[bool, FileResult]:
    """The result of the unit at the head; a crashed worker fails only its
    file, and a part that fails or runs out of time fails its whole file."""
    file = unit.file
    assert unit.future is not None
    # the calls before it are done, or dropped and stopping themselves after
    # ``seconds``: then it runs, and stops itself too; this is for when it cannot
    workers.dropped = [f for f in workers.dropped if not f.done()]
    rounds = 1 + -(-len(workers.dropped) // workers.jobs)
    done, _late = wait([unit.future], timeout=seconds * rounds + GRACE_SECONDS)
    if not done:  # stuck where the alarm cannot reach (in C code): replace the workers
        workers.restart(kill=True)
        for other in flight:
            if not other.file.ended:
                other.submit(workers)
        piece = _timed_out(file.source.path, seconds)
    else:
        try:
            piece = unit.future.result()
        except BrokenProcessPool:
            piece = _after_crash(workers, unit, flight)
        except Exception as error:  # an exception raised in the worker: only this file fails
            piece = _failed(file.source, error)
    failed = piece.error is not None and piece.error["code"] in ("IO01", "IO09")
    if failed and not piece.games and file.reported:
        piece = replace(piece, replaces=True)
    last = unit.last or piece.error is not None  # beyond --max-games: no more games to check
    if last and not unit.last:
        file.ended = True
        for other in flight:
            if other.file is file and other.future is not None and not other.future.cancel():
                workers.dropped.append(other.future)
    file.reported += 1
    return last, piece


def _streamed(source: Source, options: CheckOptions, seconds: float) -> Iterator[FileResult]:
    """The result of one source in this process, a part of its games at a
    time (what is checked is reported and dropped: memory stays flat);
    ``seconds`` is for the whole file."""
    parts = source_parts(source, options, GAMES_PER_PART)
    if isinstance(parts, FileResult):
        yield parts
        return
    deadline = time.monotonic() + seconds
    for part in parts:
        left = deadline - time.monotonic()
        result = watched(check_part, part, options, left) if left > 0 else None
        if result is None or (result.error and result.error["code"] == "IO09"):
            yield replace(_timed_out(source.path, seconds), replaces=True)
            return
        yield result
        if result.error:  # beyond --max-games: no more games to check
            return


def _calls(source: Source, options: CheckOptions, seconds: float) -> Iterator[tuple]:
    parts = None
    if source.data is not None and len(source.data) > SPLIT_BYTES:
        parts = source_parts(source, options, GAMES_PER_PART)
    if parts is None or isinstance(parts, FileResult):
        yield (watched, check_source, source, options, seconds)
        return
    for part in parts:
        yield (watched, check_part, part, options, seconds)


def _after_crash(workers: _Workers, unit: _Unit, flight: deque[_Unit]) -> FileResult:
    """A worker died while ``unit`` or another call was in flight: check
    ``unit`` alone in a new pool (if it kills that one too, it is the
    culprit and its file fails), then resubmit the other calls in flight."""
    workers.restart()
    unit.future = None
    unit.submit(workers)
    assert unit.future is not None
    try:
        result = unit.future.result()
    except Exception as error:
        if isinstance(error, BrokenProcessPool):
            workers.restart()
        result = _failed(unit.file.source, error)
    for other in flight:
        if not other.file.ended:
            other.submit(workers)
    return result


class Overrun(BaseException):
    """The watchdog's alarm (a BaseException, so that no ``except Exception`` stops it)."""


def _overrun(signum: int, frame: FrameType | None) -> None:
    """Raise where the check surely gets it (see :func:`.interrupt.can_raise`);
    elsewhere, the next alarm will."""
    if can_raise(frame, (watched.__code__,)):
        raise Overrun()


def watched(
    check: Callable[[Any, CheckOptions], FileResult],
    item: Source | Part,
    options: CheckOptions,
    seconds: float,
) -> FileResult:
    """``check(item, options)``, or one finding IO09 when it takes longer
    than ``seconds``. SIGALRM stops the check where its Python code can be
    stopped; the alarm repeats until it is."""
    if threading.current_thread() is not threading.main_thread():
        return check(item, options)
    previous = signal.signal(signal.SIGALRM, _overrun)
    try:
        try:
            signal.setitimer(signal.ITIMER_REAL, seconds, ALARM_REPEAT)
            return check(item, options)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous or signal.SIG_DFL)
    except Overrun:
        return _timed_out(item.path, seconds)


def _timed_out(path: str, seconds: float) -> FileResult:
    return FileResult(path, error=finding_dict(make("IO09", None, path=path, limit=f"{seconds:g}")))


def _failed(source: Source, error: BaseException) -> FileResult:
    reason = _("a worker process died") if isinstance(error, BrokenProcessPool) else repr(error)
    finding = make(
        "IO01",
        None,
        path=source.path,
        reason=_("the checker failed: {reason}").format(reason=reason),
    )
    return FileResult(source.path, error=finding_dict(finding))


def _exit_code(summary) -> int:
    if summary.unreadable or summary.games == 0:
        return 2
    return 1 if summary.invalid else 0


def _checked_line(summary: Any) -> str:
    return _("checked {files}, {games}, {plies} ...").format(
        files=counted(summary.files, "file"),
        games=counted(summary.games, "game"),
        plies=counted(summary.plies, "ply"),
    )
