"""Checking an archive on a Dask cluster, with the report of ``hexhop check -j 1``.

The files and archive members are listed and read here, in the process
that asks, as ``hexhop check`` reads them
(:func:`~hexhop.records.sources.iter_sources`), and checked on the cluster
as a ``dask.bag`` of parts of 100 games of a large file (as ``-j N`` cuts
them) and of groups of small files of about 256 KiB. The results come back in
input order and merged per file, so a reporter fed with them writes the
report ``-j 1`` writes (only the seconds differ). The workers need
hexhop installed, the same version. Needs the ``dask`` extra
(``pip install 'hexhop[dask]'``)::

    import sys
    from dask.distributed import Client
    from hexhop.archive.scale_out import check_on_dask
    from hexhop.records.checking import CheckOptions
    from hexhop.records.report import REPORTERS
    from hexhop.records.sources import iter_sources

    reporter = REPORTERS["json"](sys.stdout)
    with Client("tcp://scheduler:8786") as client:
        for result in check_on_dask(iter_sources(["archive/"]), CheckOptions(), client):
            reporter.file(result)
    reporter.finish()

Each file or part is checked by the part function of ``-j``
(:func:`hexhop.records.jobs.check_one`), with the same deadline: with
``seconds`` (``--max-seconds`` of ``check --dask``) a file or part that
takes longer is one finding IO09, stopped at the next game or ply (the
deadline is cooperative, so it holds in Dask's worker threads too).
"""

from __future__ import annotations

import importlib
import tempfile
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager
from itertools import islice
from typing import Any, TypeVar

from hexhop.messages import _, language, set_language
from hexhop.records.checking import CheckOptions, FileResult, Part, merge, split_source
from hexhop.records.errors import RecordsError
from hexhop.records.jobs import GAMES_PER_PART, SPLIT_BYTES, check_one  # parts as with -j
from hexhop.records.sources import Source

GROUP_BYTES = 256 * 1024  # small files go to the workers in groups of about this size
BATCH_BYTES = 64 * 1024 * 1024  # read ahead of the cluster at most about twice this
CONNECT_SECONDS = 10


class DaskError(RecordsError):
    """Dask is not installed, or the scheduler cannot be reached."""

    exit_code = 2


def check_on_dask(
    sources: Iterable[Source],
    options: CheckOptions,
    client: Any,
    *,
    batch_bytes: int = BATCH_BYTES,
    seconds: float | None = None,
) -> Iterator[FileResult]:
    """The result of every source, in order, checked on the cluster of
    ``client`` (a ``dask.distributed.Client``).

    The sources are sent in batches of about ``batch_bytes``; the next
    batch is on the cluster while the results of one are handed out.
    ``seconds``: the time a file, or a part of one, may take (IO09 beyond),
    as with ``-j``; None: no limit.
    """
    running: list[tuple[list[str], Any]] = []
    for batch in _batches(sources, batch_bytes):
        running.append(_submit(client, batch, options, seconds))
        if len(running) == 2:
            yield from _gather(*running.pop(0))
    for paths, future in running:
        yield from _gather(paths, future)


def _batches(sources: Iterable[Source], batch_bytes: int) -> Iterator[list[Source]]:
    batch: list[Source] = []
    size = 0
    for source in sources:
        batch.append(source)
        size += source.size
        if size >= batch_bytes:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def _submit(
    client: Any, batch: list[Source], options: CheckOptions, seconds: float | None = None
) -> tuple[list[str], Any]:
    """A future of the bag of (source number, result) of every file and part of ``batch``."""
    db = _dask("dask.bag")
    tasks = [
        (number, item) for number, source in enumerate(batch) for item in _items(source, options)
    ]
    groups = db.from_sequence(_groups(tasks), partition_size=1)
    bag = groups.map(_check_group, options, language(), seconds).flatten()
    return [source.path for source in batch], client.compute(bag)


def _items(source: Source, options: CheckOptions) -> list[Source | Part]:
    """The source, or its parts when it is large."""
    if source.size > SPLIT_BYTES:
        parts = split_source(source, options, GAMES_PER_PART)
        if parts:
            return [*parts]
    return [source]


Task = tuple[int, Source | Part]  # the number of the source in its batch, what to check


def _groups(tasks: list[Task]) -> Iterator[list[Task]]:
    """The tasks in order: each part of a large file alone, small files in
    groups of about ``GROUP_BYTES`` (a task for each would keep the
    scheduler busier than the workers)."""
    group: list[Task] = []
    size = 0
    for task in tasks:
        item = task[1]
        if isinstance(item, Part):
            if group:
                yield group
                group, size = [], 0
            yield [task]
            continue
        group.append(task)
        size += len(item.data or b"")
        if size >= GROUP_BYTES:
            yield group
            group, size = [], 0
    if group:
        yield group


def _check_group(
    group: list[Task], options: CheckOptions, lang: str = "en", seconds: float | None = None
) -> list[tuple[int, FileResult]]:
    """Check a group on a worker, whose findings speak ``lang``, the
    language of the process that asks (a worker starts in English)."""
    set_language(lang)
    return [_check(task, options, seconds) for task in group]


def _check(task: Task, options: CheckOptions, seconds: float | None) -> tuple[int, FileResult]:
    """Check one file or part on a worker with the part function of ``-j``
    (:func:`~hexhop.records.jobs.check_one`): past ``seconds`` it is IO09,
    and a failure there fails only that file (IO01)."""
    number, item = task
    return number, check_one(item, options, seconds)


def _gather(paths: list[str], future: Any) -> Iterator[FileResult]:
    """The results of one batch, each file's parts merged, in input order."""
    parts: list[list[FileResult]] = [[] for _path in paths]
    for number, result in future.result():
        parts[number].append(result)
    for path, results in zip(paths, parts):
        yield merge(results) if results else FileResult(path)


@contextmanager
def dask_client(address: str, workers: int = 2) -> Iterator[Any]:
    """A client of the scheduler at ``address``, or of a cluster of
    ``workers`` processes on this machine for ``local``; closed after use.
    :class:`DaskError` when Dask is missing or the scheduler cannot be reached."""
    distributed = _dask("dask.distributed")
    Client, LocalCluster = distributed.Client, distributed.LocalCluster
    if address == "local":
        # ":0": the scheduler's web page on a free port (8787 may be taken: a
        # warning); the scratch space of the scheduler and the workers in a
        # folder of its own, removed after the run (else Dask leaves a
        # dask-scratch-space folder in the temporary folder, which may be
        # the user's working folder)
        scratching = tempfile.TemporaryDirectory(prefix="hexhop-dask-")
        with scratching as scratch, _dask("dask").config.set({"temporary-directory": scratch}):
            cluster = LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                dashboard_address=":0",
                silence_logs=40,
                local_directory=scratch,
            )
            with cluster, Client(cluster) as client:
                yield client
        return
    try:
        client = Client(address, timeout=CONNECT_SECONDS)
    except (OSError, ValueError, TypeError) as error:
        raise DaskError(
            _("cannot reach the Dask scheduler at {address}: {error}").format(
                address=address, error=error
            )
        ) from None
    with client:
        yield client


def check_with_dask(
    sources: Iterable[Source],
    options: CheckOptions,
    address: str,
    workers: int = 2,
    seconds: float | None = None,
) -> Generator[FileResult, None, None]:
    """:func:`check_on_dask` on the scheduler at ``address`` (``local``: a
    cluster of ``workers`` processes here), connected for the run."""
    with dask_client(address, workers) as client:
        yield from check_on_dask(sources, options, client, seconds=seconds)


def _dask(module: str) -> Any:
    """A module of Dask, or :class:`DaskError` saying how to install it.
    (Imported by name: Dask is optional, and typed only in part, so its
    names are Any whether it is installed or not.)"""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise DaskError(
            _("--dask needs Dask: pip install 'hexhop[dask]' (dask[bag] and distributed)")
        ) from None


# -- analyse, index --analyse and puzzles: one call per file ------------------

Item = TypeVar("Item")
R = TypeVar("R")

WINDOW = 64  # calls on the cluster at once: the input is read as the results come back
POLL_SECONDS = 0.05  # how often a result is looked for (a signal is taken in between)


def run_on_dask(
    function: Callable[[Item], R],
    items: Iterable[Item],
    client: Any,
    *,
    failed: Callable[[Item, BaseException], R],
    progress: Callable[[int], None] | None = None,
    window: int = WINDOW,
) -> Iterator[R]:
    """``function(item)`` of every item on the cluster of ``client``, in the
    order of ``items``, as :func:`hexhop.records.jobs.run_in_order` gives
    them with ``-j``: at most ``window`` calls on the cluster at once, an
    item whose worker died (Dask's ``KilledWorker``) is ``failed(item,
    error)``, and any other exception of ``function`` is raised here.
    ``function`` must be picklable (a ``functools.partial`` of a function
    of hexhop); it runs in the language of the process that asks."""
    killed = _dask("dask.distributed").KilledWorker
    lang = language()
    pending = iter(items)
    flight: deque[tuple[Item, Any]] = deque()
    done = 0
    try:
        while True:
            for item in islice(pending, max(0, window - len(flight))):
                future = client.submit(_in_language, lang, function, item, pure=False)
                flight.append((item, future))
            if not flight:
                return
            item, future = flight.popleft()
            try:
                result = _result(future)
            except killed as error:
                result = failed(item, error)
            done += 1
            if progress is not None:
                progress(done)
            yield result
    finally:  # stopped (Ctrl-C, an error): what is still on the cluster is not wanted
        for _item, future in flight:
            future.cancel()


def run_with_dask(
    function: Callable[[Item], R],
    items: Iterable[Item],
    address: str,
    workers: int = 2,
    *,
    failed: Callable[[Item, BaseException], R],
    progress: Callable[[int], None] | None = None,
) -> Generator[R, None, None]:
    """:func:`run_on_dask` on the scheduler at ``address`` (``local``: a
    cluster of ``workers`` processes here), connected for the run."""
    with dask_client(address, max(1, workers)) as client:
        yield from run_on_dask(function, items, client, failed=failed, progress=progress)


def _in_language(lang: str, function: Callable[[Item], R], item: Item) -> R:
    """``function(item)`` on a worker, its messages in ``lang`` (a worker starts in English)."""
    set_language(lang)
    return function(item)


def _result(future: Any) -> Any:
    """The result of ``future``, waited for in short sleeps: Ctrl-C and
    SIGTERM are taken here, in hexhop's code (in Dask's wait they would be
    held until it returns)."""
    while not future.done():
        time.sleep(POLL_SECONDS)
    return future.result()
