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

from collections.abc import Generator, Iterable, Iterator
from typing import Any

from hexhop.messages import language, set_language
from hexhop.records.checking import CheckOptions, FileResult, Part, merge, split_source
from hexhop.records.dask_runs import dask_client, dask_module
from hexhop.records.jobs import GAMES_PER_PART, SPLIT_BYTES, check_one  # parts as with -j
from hexhop.records.sources import Source

GROUP_BYTES = 256 * 1024  # small files go to the workers in groups of about this size
BATCH_BYTES = 64 * 1024 * 1024  # read ahead of the cluster at most about twice this


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
    db = dask_module("dask.bag")
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
