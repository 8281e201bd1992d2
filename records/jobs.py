"""The worker service: work in processes, with results in input order.

One way to run work in parallel, for every command that takes ``-j``:

* :func:`run_in_order` gives ``function(item)`` of every item in input
  order, in this process (``jobs=1``) or in ``jobs`` worker processes
  (analyse, puzzles, render);
* :func:`check_results` gives each file's check result, in pieces, in the
  order of the input: small files go to a worker several at a time, a file
  of middling size alone, and a large file is cut into parts of
  ``GAMES_PER_PART`` games while the workers check the parts before (so
  that its games are checked in parallel and memory stays flat);
* :func:`check_one` is the part function: one file or part checked within
  its deadline; the workers here and those of Dask
  (:mod:`hexhop.archive.scale_out`) call it; with ``--dask`` the rest runs
  on a cluster (:mod:`hexhop.records.dask_runs`);
* :class:`Workers` is the process pool that survives a dead worker (the
  indexer submits its parts to it).

One deadline: work runs within its seconds
(:func:`hexhop.engine.deadline.within`) and stops at the next checkpoint
past them (between games, between the plies of a replay). A worker that
dies fails only the item that killed it; one that reaches no checkpoint
for ``GRACE_SECONDS`` beyond its deadline (stuck in C code) is killed and
its item reported as having run out of time.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import stat
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import closing
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import Any, TypeAlias, TypeVar

from hexhop.engine.deadline import within
from hexhop.messages import _, language, set_language
from hexhop.notation.errors import ArgumentError
from hexhop.notation.findings import Finding, make

from .checking import (
    CheckOptions,
    FileResult,
    Part,
    check_part,
    check_source,
    finding_dict,
    source_parts,
)
from .sources import Limits, Source, is_archive, wanted

GRACE_SECONDS = 5.0  # beyond its deadline, before a worker that reaches no checkpoint is killed
SPLIT_BYTES = 256 * 1024  # with workers, files larger than this are checked in parts
GAMES_PER_PART = 100
BATCH_BYTES = 64 * 1024  # smaller files go to a worker together, up to this much a call
FILE_BYTES = 256  # what a file costs a batch beyond its bytes (a batch of empty files ends too)
WINDOW = 3  # calls in flight per worker: enough to keep it busy, few to hold

# a check of one source or part in a worker: check_source or check_part
Checker: TypeAlias = "Callable[[Any, CheckOptions], FileResult]"
T = TypeVar("T")


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


# An input this large is checked in one process per core when no -j is given:
# two processes on an idle machine checked 6,000 games in one file 1.66 and
# in 6,000 files 1.89 times as fast as one; a small input is done before
# the workers would have started.
LARGE_INPUT_BYTES = 8 * 1024 * 1024
LARGE_INPUT_FILES = 2_000


def default_jobs(paths: Iterable[str], globs: tuple[str, ...], limits: Limits) -> int:
    """The processes to check ``paths`` in when none are asked for: one per
    core for a large input (``LARGE_INPUT_BYTES`` of record files and
    archives, or ``LARGE_INPUT_FILES`` record files), else 1. Sizes are
    taken from the file system, without reading a file."""
    if cores() < 2:
        return 1
    total = files = 0
    for size in _input_sizes(paths, globs, limits):
        total, files = total + size, files + 1
        if total >= LARGE_INPUT_BYTES or files >= LARGE_INPUT_FILES:
            return cores()
    return 1


def _input_sizes(paths: Iterable[str], globs: tuple[str, ...], limits: Limits) -> Iterator[int]:
    """The size of each record file or archive named by ``paths`` or found in
    their folders (standard input and archive members count nothing; a
    file beyond the limits nothing, as it is not read)."""
    for path in paths:
        if os.path.isdir(path):  # os.walk passes over what it cannot read
            for folder, _dirs, names in os.walk(path):
                for name in names:
                    if wanted(name, globs) or is_archive(name):
                        yield _size(os.path.join(folder, name), limits.max_file_bytes)
        elif path != "-":
            limit = limits.max_archive_bytes if is_archive(path) else limits.max_file_bytes
            yield _size(path, limit)


def _size(path: str, limit: int) -> int:
    try:
        info = os.stat(path)
    except OSError:
        return 0
    return info.st_size if stat.S_ISREG(info.st_mode) and info.st_size <= limit else 0


def check_results(
    sources: Iterable[Source], options: CheckOptions, jobs: int, seconds: float
) -> Generator[Iterator[FileResult], None, None]:
    """The result of each source in input order, each in pieces of at most
    ``GAMES_PER_PART`` games (read each to its end before asking for the
    next); ``seconds``: the time a file, or a part of one, may take."""
    if jobs == 1:
        for source in sources:
            yield streamed(source, options, seconds)
            del source  # not held while the next file is read
        return
    workers = Workers(jobs)
    try:
        yield from _by_file(_ordered(workers, sources, options, seconds, window=jobs * WINDOW))
    finally:
        workers.close()


def whole_files(
    results: Generator[FileResult, None, None],
) -> Generator[Iterable[FileResult], None, None]:
    """Results of whole files, as :func:`check_results` gives them (one piece each)."""
    with closing(results):
        for result in results:
            yield [result]


def streamed(source: Source, options: CheckOptions, seconds: float) -> Iterator[FileResult]:
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


class Call:
    """One call sent to the workers (:meth:`Workers.call`): the item, and
    the answer to come, ``(True, result)`` or ``(False, None)`` past its
    deadline. (A plain class: a dataclass costs check's start-up more.)"""

    __slots__ = ("item", "future")

    def __init__(self, item: Any, future: Future[tuple[bool, Any]]):
        self.item = item
        self.future = future


class Workers:
    """A process pool that is replaced when one of its processes dies.

    After a worker dies, ``ProcessPoolExecutor`` fails every task in flight
    and refuses new ones (``BrokenProcessPool``); :meth:`restart` makes a
    new pool, and :meth:`submit` never raises: a task the pool refuses comes
    back as a failed future. The workers speak the language of this process
    and leave Ctrl-C to it (it stops them); SIGTERM ends a worker.

    :meth:`call` and :meth:`take` are the crash recovery of
    :func:`run_in_order`, for callers that keep their own calls in flight
    (the indexer).
    """

    def __init__(self, jobs: int):
        self.jobs = jobs
        self.pool = self._new()
        self._retired: list[threading.Thread] = []  # the threads of replaced pools
        # calls of files that ended early which could not be cancelled:
        # the workers may still be busy with them
        self.dropped: list[Future[Any]] = []

    def submit(self, function: Callable[..., T], *args: Any) -> Future[T]:
        try:
            return self.pool.submit(function, *args)
        except BrokenProcessPool as error:
            failed: Future[T] = Future()
            failed.set_exception(error)
            return failed

    def call(self, function: Callable[[Any], Any], item: Any, seconds: float | None) -> Call:
        """``function(item)`` in a worker, within ``seconds``."""
        return Call(item, self.submit(_call, function, item, seconds))

    def take(
        self,
        call: Call,
        flight: Iterable[Call],
        function: Callable[[Any], Any],
        seconds: float | None,
        failed: Callable[[Any, BaseException], Any],
    ) -> tuple[bool, Any]:
        """The answer of ``call``, the oldest in flight (``flight``: the
        others, sent with ``function``), as :meth:`call` promises it. A worker
        that dies takes every call in flight with it: ``call`` is then made
        again alone in new workers, and if it kills them too, it was the
        cause: ``(True, failed(item, error))``. Past ``seconds`` and
        ``GRACE_SECONDS`` without an answer (stuck where no checkpoint is
        reached, in C code) the workers are killed: ``(False, None)``. The
        calls in flight are then sent again. An exception of ``function``
        is raised here."""
        timeout = None if seconds is None else seconds + GRACE_SECONDS
        done, _late = wait([call.future], timeout=timeout)
        if not done:
            self.restart(kill=True)
            self.resend(flight, function, seconds)
            return False, None
        try:
            return call.future.result()
        except BrokenProcessPool:
            pass
        self.restart()
        try:
            return self.submit(_call, function, call.item, seconds).result()
        except BrokenProcessPool as error:
            self.restart()
            return True, failed(call.item, error)
        finally:
            self.resend(flight, function, seconds)

    def resend(
        self, flight: Iterable[Call], function: Callable[[Any], Any], seconds: float | None
    ) -> None:
        """Send the calls in flight again, to new workers, unless already answered."""
        for other in flight:
            if not _succeeded(other.future):
                other.future = self.submit(_call, function, other.item, seconds)

    def _new(self) -> ProcessPoolExecutor:
        # fork on Linux (the default there only up to Python 3.13): a worker
        # starts with the modules this process has imported instead of
        # importing them again; elsewhere fork is unsafe or missing
        context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
        return ProcessPoolExecutor(
            max_workers=self.jobs,
            mp_context=context,
            initializer=_quiet_worker,
            initargs=(language(),),
        )

    def restart(self, kill: bool = False) -> None:
        """A new pool; ``kill``: stop the old one's processes too (one is stuck)."""
        processes = list(getattr(self.pool, "_processes", {}).values()) if kill else []
        manager = getattr(self.pool, "_executor_manager_thread", None)
        if manager is not None:
            self._retired.append(manager)
        self.pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.kill()
        self.pool = self._new()
        self.dropped = []

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
        # the threads of pools replaced after a dead worker end too: one still
        # ending when Python exits would be woken through a closed pipe (EBADF,
        # "Exception ignored" on standard error; Python 3.11)
        for manager in self._retired:
            manager.join(GRACE_SECONDS)
        self._retired.clear()


Item = TypeVar("Item")
R = TypeVar("R")


def run_in_order(
    function: Callable[[Item], R],
    items: Iterable[Item],
    jobs: int,
    *,
    failed: Callable[[Item, BaseException], R],
    seconds: float | None = None,
    timed_out: Callable[[Item], R] | None = None,
    progress: Callable[[int], None] | None = None,
    dask: str | None = None,
) -> Generator[R, None, None]:
    """``function(item)`` of every item, in the order of ``items``: in this
    process for ``jobs`` 1, else in ``jobs`` worker processes (at most
    ``WINDOW`` calls a worker in flight, so that ``items`` is read as the
    results are taken). ``function`` must be picklable (a module-level
    function, or a ``functools.partial`` of one).

    ``seconds``: the deadline of each call (:mod:`hexhop.engine.deadline`);
    a call past it gives ``timed_out(item)``. A worker that dies fails only
    the item that killed it, ``failed(item, error)`` (the calls it took with
    it are made again); one that reaches no checkpoint for ``GRACE_SECONDS``
    beyond its deadline is killed, and its item timed out. An exception of
    ``function`` is raised here, as with ``jobs`` 1. ``progress``, if given,
    is called with the number of results handed out after each one.

    ``dask``: on the Dask scheduler at that address instead (``local``: a
    cluster of ``jobs`` processes here), by
    :func:`hexhop.records.dask_runs.run_with_dask` (without ``seconds``).
    """
    if seconds is not None and timed_out is None:
        raise ArgumentError("seconds needs timed_out")
    if dask is not None:
        if seconds is not None:
            raise ArgumentError("dask runs without seconds")
        from hexhop.records.dask_runs import run_with_dask

        yield from run_with_dask(function, items, dask, jobs, failed=failed, progress=progress)
        return
    done = 0
    if jobs <= 1:
        for item in items:
            ok, result = _call(function, item, seconds)
            done += 1
            if progress is not None:
                progress(done)
            yield result if ok else timed_out(item)  # type: ignore[misc]
        return
    workers = Workers(jobs)
    try:
        pending = iter(items)
        flight: deque[Call] = deque()
        while True:
            for item in islice(pending, max(0, jobs * WINDOW - len(flight))):
                flight.append(workers.call(function, item, seconds))
            if not flight:
                return
            call = flight.popleft()
            ok, result = workers.take(call, flight, function, seconds, failed)
            done += 1
            if progress is not None:
                progress(done)
            yield result if ok else timed_out(call.item)  # type: ignore[misc]
    finally:
        workers.close()


def _call(
    function: Callable[[Item], R], item: Item, seconds: float | None
) -> tuple[bool, R | None]:
    """``(True, function(item))``, or ``(False, None)`` past ``seconds``."""
    if seconds is None:
        return True, function(item)
    result = within(seconds, _wrapped, function, item)
    return (False, None) if result is None else (True, result[0])


def _wrapped(function: Callable[[Item], R], item: Item) -> tuple[R]:
    return (function(item),)  # a result of None is not taken for running out of time


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
    """One call in flight: several small files, a whole file, or one part
    of a large one; ``files[i]`` is the file of ``items[i]``."""

    files: list[_File]
    check: Checker
    items: Sequence[Source | Part]
    last: bool  # the last call of its files
    future: Future[list[FileResult]] | None = field(default=None, repr=False)

    def submit(self, workers: Workers, options: CheckOptions, seconds: float) -> None:
        """Submit the call unless it has already finished well."""
        if self.future is None or not _succeeded(self.future):
            self.future = workers.submit(_run, self.check, self.items, options, seconds)

    def dropped(self) -> bool:
        return self.files[0].ended

    def singles(self) -> list[_Unit]:
        """The call of each of its files alone."""
        return [_Unit([f], self.check, [item], True) for f, item in zip(self.files, self.items)]


def _succeeded(future: Future[Any]) -> bool:
    return future.done() and not future.cancelled() and future.exception() is None


def _run(
    check: Checker, items: Sequence[Source | Part], options: CheckOptions, seconds: float
) -> list[FileResult]:
    """In a worker: the result of each item, each within ``seconds``; an
    exception fails only its own item."""
    return [check_one(item, options, seconds, check) for item in items]


def _units(sources: Iterable[Source], options: CheckOptions) -> Iterator[_Unit]:
    """The calls of every source in order: small files gathered into
    batches, a large file's parts cut only as they are asked for (one part
    ahead, to know which is the last)."""
    batch: list[_File] = []
    held = 0  # what the batch costs so far
    for source in sources:
        size = source.size
        cost = size + FILE_BYTES
        if cost <= BATCH_BYTES and size <= SPLIT_BYTES:
            if held + cost > BATCH_BYTES:
                yield _batch(batch)
                batch, held = [], 0
            batch.append(_File(source))
            held += cost
            continue
        if batch:
            yield _batch(batch)
            batch, held = [], 0
        yield from _file_units(_File(source), options)
    if batch:
        yield _batch(batch)


def _batch(files: list[_File]) -> _Unit:
    return _Unit(files, check_source, [file.source for file in files], last=True)


def _file_units(file: _File, options: CheckOptions) -> Iterator[_Unit]:
    """The calls of one file that is too large for a batch: the whole file,
    or its parts when it is larger than ``SPLIT_BYTES``."""
    source = file.source
    parts = None
    if source.size > SPLIT_BYTES:
        parts = source_parts(source, options, GAMES_PER_PART)
    if parts is None or isinstance(parts, FileResult):
        yield _Unit([file], check_source, [source], last=True)
        return
    part = next(parts)
    for following in parts:
        if file.ended:
            return
        yield _Unit([file], check_part, [part], last=False)
        part = following
    if not file.ended:
        yield _Unit([file], check_part, [part], last=True)


def _ordered(
    workers: Workers, sources: Iterable[Source], options: CheckOptions, seconds: float, window: int
) -> Iterator[tuple[bool, FileResult]]:
    """Results in input order, as ``(last of its file, piece)``, with at
    most ``window`` calls in flight (``Executor.map`` would read every file
    before the first result)."""
    units = _units(sources, options)
    flight: deque[_Unit] = deque()
    while True:
        for unit in islice(units, max(0, window - len(flight))):
            unit.submit(workers, options, seconds)
            flight.append(unit)
        if not flight:
            return
        unit = flight.popleft()
        if not unit.dropped():
            yield from _outcomes(workers, unit, flight, options, seconds)


def _outcomes(
    workers: Workers, unit: _Unit, flight: deque[_Unit], options: CheckOptions, seconds: float
) -> list[tuple[bool, FileResult]]:
    """The results of the unit at the head. A crashed or stuck worker fails
    only the file that was the cause: a batch it happened in is checked
    again file by file (its files go to the head of ``flight``, and nothing
    is returned). A part that fails or runs out of time fails its whole file.

    A batch has the time of one file: small files take a fraction of it,
    and if together they take longer, they are checked again one a call."""
    assert unit.future is not None
    # the calls before it are done, or dropped and stopping themselves after
    # ``seconds``: then it runs, and stops itself too; this is for when it cannot
    workers.dropped = [f for f in workers.dropped if not f.done()]
    rounds = 1 + -(-len(workers.dropped) // workers.jobs)
    done, _late = wait([unit.future], timeout=seconds * rounds + GRACE_SECONDS)
    results: list[FileResult] | None
    restarted = not done
    if not done:  # stuck where no checkpoint is reached (in C code): replace the workers
        workers.restart(kill=True)
        results = None if len(unit.items) > 1 else [_timed_out(unit.items[0].path, seconds)]
    else:
        try:
            results = unit.future.result()
        except BrokenProcessPool:
            results = _after_crash(workers, unit, options, seconds)
            restarted = True
        except Exception as error:  # the call itself failed (its result did not come back)
            results = None if len(unit.items) > 1 else [_failed(unit.items[0].path, error)]
    if results is None:
        singles = unit.singles()
        flight.extendleft(reversed(singles))
        for single in singles if not restarted else []:
            single.submit(workers, options, seconds)
    if restarted:  # the calls in flight went with the old workers
        # (but not those of a file this unit ends: a part that ran out of time)
        ending = [f for f, r in zip(unit.files, results or []) if r.error and not unit.last]
        for other in flight:
            if not other.dropped() and other.files[0] not in ending:
                other.submit(workers, options, seconds)
    pieces = zip(unit.files, results or [])
    return [_piece(workers, unit, file, piece, flight) for file, piece in pieces]


def _piece(
    workers: Workers, unit: _Unit, file: _File, piece: FileResult, flight: deque[_Unit]
) -> tuple[bool, FileResult]:
    """``(last of its file, piece)``; a piece that ends its file early
    drops the file's calls still in flight."""
    failed = piece.error is not None and piece.error["code"] in ("IO01", "IO09")
    if failed and not piece.games and file.reported:
        piece = replace(piece, replaces=True)
    last = unit.last or piece.error is not None  # beyond --max-games: no more games to check
    if last and not unit.last:
        file.ended = True
        for other in flight:
            if other.files[0] is file and other.future is not None and not other.future.cancel():
                workers.dropped.append(other.future)
    file.reported += 1
    return last, piece


def _after_crash(
    workers: Workers, unit: _Unit, options: CheckOptions, seconds: float
) -> list[FileResult] | None:
    """A worker died while ``unit`` or another call was in flight: check
    ``unit`` alone in a new pool. If it kills that one too, it holds the
    culprit: a file alone fails; for a batch, None (check its files alone)."""
    workers.restart()
    unit.future = None
    unit.submit(workers, options, seconds)
    assert unit.future is not None
    try:
        return unit.future.result()
    except Exception as error:
        if isinstance(error, BrokenProcessPool):
            workers.restart()
        if len(unit.items) > 1:
            return None
        return [_failed(unit.items[0].path, error)]


def watched(
    check: Checker, item: Source | Part, options: CheckOptions, seconds: float
) -> FileResult:
    """``check(item, options)``, or one finding IO09 when it runs past
    ``seconds`` (see :func:`in_time`)."""
    result = in_time(seconds, check, item, options)
    return _timed_out(item.path, seconds) if result is None else result


def in_time(seconds: float | None, function: Callable[..., T], *args: Any) -> T | None:
    """``function(*args)``, or None when it reaches a checkpoint after
    ``seconds`` (:func:`hexhop.engine.deadline.within`): checking stops
    between games and between the plies of a game's replay."""
    return within(seconds, function, *args)


def check_one(
    item: Source | Part, options: CheckOptions, seconds: float | None, check: Checker | None = None
) -> FileResult:
    """The part function: check one file or one part of a file (with
    :func:`check_source` or :func:`check_part`, or ``check``) within
    ``seconds``. Past them it is one finding IO09; an exception fails only
    this item (IO01). The workers of ``-j`` and of Dask both call it."""
    if check is None:
        check = check_part if isinstance(item, Part) else check_source
    try:
        result = in_time(seconds, check, item, options)
    except Exception as error:
        return _failed(item.path, error)
    if result is None:
        assert seconds is not None
        return _timed_out(item.path, seconds)
    return result


def _timed_out(path: str, seconds: float) -> FileResult:
    return FileResult(path, error=finding_dict(make("IO09", None, path=path, limit=f"{seconds:g}")))


def _failed(path: str, error: BaseException) -> FileResult:
    return FileResult(path, error=finding_dict(_failure(path, error)))


def _failure(path: str, error: BaseException) -> Finding:
    reason = _("a worker process died") if isinstance(error, BrokenProcessPool) else repr(error)
    return make(
        "IO01", None, path=path, reason=_("the checker failed: {reason}").format(reason=reason)
    )


def failure_message(path: str, error: BaseException) -> str:
    """``IO01 cannot read …: the checker failed: a worker process died``:
    what a command says of an item whose worker died (``error``)."""
    return f"IO01 {_failure(path, error).message}"
