"""Ctrl-C and SIGTERM for the commands: stop cleanly and say how far the run got.

Inside :func:`stoppable`, SIGTERM is raised as :class:`Terminated` (a
``KeyboardInterrupt``), so that one ``except`` clause and the ``finally``
blocks on the way clean up after both.  What must be done whole (writing
a file and counting it, one file's report) runs in :func:`signals_held`;
:func:`~.safe_write.write_atomically` holds the signals while it writes, so
an interrupted run leaves either the old file or the new one.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from typing import Callable, Iterator

import click

EXIT_SIGINT = 128 + signal.SIGINT  # 130, as shells report Ctrl-C
EXIT_SIGTERM = 128 + signal.SIGTERM  # 143


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is, like Ctrl-C."""


_held = 0  # depth of signals_held() blocks
_pending: int | None = None  # a signal that arrived while held
_owner = os.getpid()  # the process whose handlers these are


def _on_signal(signum: int, frame: object) -> None:
    global _pending
    if os.getpid() != _owner:
        # a forked worker that has not yet set its own handlers (the pool
        # stops workers with SIGTERM): die as if no handler were set
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    if _held:
        _pending = signum
        return
    _raise(signum)


def _raise(signum: int) -> None:
    raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


@contextlib.contextmanager
def stoppable(progress: Callable[[], str]) -> Iterator[None]:
    """Run the block; on Ctrl-C or SIGTERM print ``interrupted <progress()>``
    on standard error and exit with 130 or 143."""
    global _owner
    main = threading.current_thread() is threading.main_thread()
    if main:
        _owner = os.getpid()
    watched = (signal.SIGINT, signal.SIGTERM)
    previous = [signal.signal(signum, _on_signal) for signum in watched] if main else []
    try:
        yield
    except KeyboardInterrupt as stop:
        click.echo(f"interrupted {progress()}", err=True)
        sys.exit(EXIT_SIGTERM if isinstance(stop, Terminated) else EXIT_SIGINT)
    finally:
        for signum, handler in zip(watched, previous):
            signal.signal(signum, handler)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back in the block: inside :func:`stoppable`
    they are raised when the block ends, so that what it does is done whole.

    Python runs signal handlers in the main thread only, between two
    bytecodes; outside :func:`stoppable` this changes nothing.
    """
    global _held, _pending
    _held += 1
    try:
        yield
    finally:
        _held -= 1
        if not _held and _pending is not None:
            signum, _pending = _pending, None
            _raise(signum)
