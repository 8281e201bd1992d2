"""Work on a Dask cluster: ``function(item)`` of every item, in input order,
as :func:`hexhop.records.jobs.run_in_order` gives them with ``-j``.

``analyse``, ``index --analyse`` and ``puzzles`` run here with ``--dask``
(one call per file); ``check --dask`` checks parts of files on the same
client (:mod:`hexhop.archive.scale_out`). Needs the ``dask`` extra
(``pip install 'hexhop[dask]'``); without it, :class:`DaskError` says how
to install it.
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
from hexhop.records.errors import RecordsError

CONNECT_SECONDS = 10


class DaskError(RecordsError):
    """Dask is not installed, or the scheduler cannot be reached."""

    exit_code = 2


@contextmanager
def dask_client(address: str, workers: int = 2) -> Iterator[Any]:
    """A client of the scheduler at ``address``, or of a cluster of
    ``workers`` processes on this machine for ``local``; closed after use.
    :class:`DaskError` when Dask is missing or the scheduler cannot be reached."""
    distributed = dask_module("dask.distributed")
    Client, LocalCluster = distributed.Client, distributed.LocalCluster
    if address == "local":
        # ":0": the scheduler's web page on a free port (8787 may be taken: a
        # warning); the scratch space of the scheduler and the workers in a
        # folder of its own, removed after the run (else Dask leaves a
        # dask-scratch-space folder in the temporary folder, which may be
        # the user's working folder)
        scratching = tempfile.TemporaryDirectory(prefix="hexhop-dask-")
        with (
            scratching as scratch,
            dask_module("dask").config.set({"temporary-directory": scratch}),
        ):
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


def dask_module(module: str) -> Any:
    """A module of Dask, or :class:`DaskError` saying how to install it.
    (Imported by name: Dask is optional, and typed only in part, so its
    names are Any whether it is installed or not.)"""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise DaskError(
            _("--dask needs Dask: pip install 'hexhop[dask]' (dask[bag] and distributed)")
        ) from None


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
    killed = dask_module("dask.distributed").KilledWorker
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
