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
from types import FrameType
from typing import Callable, Iterator

import click

EXIT_SIGINT = 128 + signal.SIGINT  # 130, as shells report Ctrl-C
EXIT_SIGTERM = 128 + signal.SIGTERM  # 143


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is, like Ctrl-C."""


_held = 0  # depth of signals_held() blocks
_pending: int | None = None  # a signal that arrived while held
_owner = os.getpid()  # the process whose handlers these are


#: Libraries whose Python code runs as callbacks from C code that swallows
#: exceptions (cffi prints and drops them, and cairo then fails with an
#: unrelated error): an interrupt raised there would be lost.
_CALLBACK_LIBRARIES = frozenset({"cairocffi", "cffi"})
_RETRY_SECONDS = 0.01


def _on_signal(signum: int, frame: FrameType | None) -> None:
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
    if _in_callback(frame):
        _redeliver(signum)
        return
    _raise(signum)


def _in_callback(frame: FrameType | None) -> bool:
    """Whether Python code of a C library's callback is on the stack."""
    while frame is not None:
        module = frame.f_globals.get("__name__") or ""
        if module.partition(".")[0] in _CALLBACK_LIBRARIES:
            return True
        frame = frame.f_back
    return False


def _redeliver(signum: int) -> None:
    """Send ``signum`` again in a moment, when the callback has returned."""
    timer = threading.Timer(_RETRY_SECONDS, os.kill, (os.getpid(), signum))
    timer.daemon = True
    timer.start()


def _raise(signum: int) -> None:
    raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def watch_signals() -> None:
    """Make Ctrl-C and SIGTERM raise in this process (the command's start):
    :func:`exit_code` then tells the status to exit with."""
    global _owner
    _owner = os.getpid()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _on_signal)


def exit_code(stop: KeyboardInterrupt) -> int:
    return EXIT_SIGTERM if isinstance(stop, Terminated) else EXIT_SIGINT


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
        sys.exit(exit_code(stop))
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
