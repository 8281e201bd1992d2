"""Ctrl-C and SIGTERM for the commands: stop at a safe point and say how far the run got.

A signal is first recorded. It is raised at once (SIGTERM as
:class:`Terminated`, a ``KeyboardInterrupt``, so that one ``except`` clause
and the ``finally`` blocks on the way clean up after both) only where the
exception surely reaches the code that catches it: when every frame from
the interrupted one down to a function marked :func:`catches_interrupts`
runs code that lets exceptions through (:func:`can_raise`). Python drops
an exception raised in a C library's callback (cairocffi), a weakref
callback (the import machinery), a ``__del__`` or a generator being closed,
so there the signal waits: the commands call :func:`checkpoint` between
files, games and frames, and a timer (SIGPROF) calls the handler again
after every few milliseconds of work until it finds a safe place. A long
computation in C ends before the stop.

What must be done whole (writing a file and counting it, one file's report)
runs in :func:`signals_held`; the library's writer
(:func:`hexhop.archive.writing.write_file`) holds the signals while it
writes, so an interrupted run leaves either the old file or the new one.
A signal that comes inside such a block is raised by the timer after it
(no checkpoint need follow), or not at all when the command's work is
done by then.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Collection, Iterable, Iterator
from types import CodeType, FrameType
from typing import TypeVar

import click

from hexhop.messages import _
from hexhop.records import raising

from .progress import clear

EXIT_SIGINT = 128 + signal.SIGINT  # 130, as shells report Ctrl-C
EXIT_SIGTERM = 128 + signal.SIGTERM  # 143

F = TypeVar("F", bound=Callable[..., object])
T = TypeVar("T")


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C."""


_pending: int | None = None  # a signal not raised yet
_stopping = False  # an interrupt was raised: the run is ending, later signals change nothing
_owner = os.getpid()  # the process whose handlers these are
_catchers: set[CodeType] = set()

#: Packages whose Python code lets an exception through to its caller (no
#: callbacks from C, no finalizers): an interrupt raised there is not lost.
_PROPAGATING = frozenset({"hexhop", "click", "lark", "threading", "concurrent"})
_RETRY_SECONDS = 0.01
_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGPROF)  # SIGPROF: the retry


def catches_interrupts(function: F) -> F:
    """Mark ``function`` as one that catches ``KeyboardInterrupt`` from its callees."""
    _catchers.add(function.__code__)
    return function


def can_raise(frame: FrameType | None, catchers: Collection[CodeType]) -> bool:
    """Whether an exception raised in ``frame`` surely reaches a frame of
    one of ``catchers`` below it, through code of :data:`_PROPAGATING` only."""
    return raising.can_raise(frame, catchers, _PROPAGATING)


def _on_signal(signum: int, frame: FrameType | None) -> None:
    global _pending
    if os.getpid() != _owner:
        # a forked worker that has not yet set its own handlers (the pool
        # stops workers with SIGTERM): die as if no handler were set
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    if _stopping:
        return
    _pending = signum
    if not raising.holding() and can_raise(frame, _catchers):
        checkpoint()
    # in case no checkpoint comes soon (none may follow a held block): try
    # again after a few milliseconds of work (a timer signal: no thread to
    # start, no lock to take in a handler)
    signal.setitimer(signal.ITIMER_PROF, _RETRY_SECONDS)


def _on_retry(signum: int, frame: FrameType | None) -> None:
    if _pending is not None and not _stopping and os.getpid() == _owner:
        _on_signal(_pending, frame)


_HANDLERS = (_on_signal, _on_signal, _on_retry)


def checkpoint() -> None:
    """A safe point: raise the Ctrl-C or SIGTERM that came since, if any
    (not inside :func:`signals_held`)."""
    global _pending, _stopping
    if _pending is None or raising.holding():
        return
    signum, _pending = _pending, None
    _stopping = True
    raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def checked(items: Iterable[T]) -> Iterator[T]:
    """``items``, with a :func:`checkpoint` before each."""
    for item in items:
        checkpoint()
        yield item


def _finish() -> None:
    global _pending, _stopping
    _pending, _stopping = None, True


def _reset() -> None:
    global _owner, _stopping
    _owner = os.getpid()
    _stopping = False


def watch_signals() -> None:
    """Make Ctrl-C and SIGTERM stop this process (the command's start):
    :func:`exit_code` then tells the status to exit with."""
    _reset()
    for signum, handler in zip(_SIGNALS, _HANDLERS):
        signal.signal(signum, handler)


def ignore_signals() -> None:
    """The run is over: Ctrl-C and SIGTERM change nothing from now on (at
    its exit, Python would set the default handlers back, and the retry
    timer's SIGPROF would then kill the process)."""
    _finish()
    signal.setitimer(signal.ITIMER_PROF, 0)
    for signum in _SIGNALS:
        signal.signal(signum, signal.SIG_IGN)


def exit_code(stop: KeyboardInterrupt) -> int:
    return EXIT_SIGTERM if isinstance(stop, Terminated) else EXIT_SIGINT


@contextlib.contextmanager
def stoppable(progress: Callable[[], str]) -> Iterator[None]:
    """Run the block; on Ctrl-C or SIGTERM print ``interrupted <progress()>``
    on standard error and exit with 130 or 143."""
    main = threading.current_thread() is threading.main_thread()
    if main:
        _reset()
    previous = (
        [signal.signal(signum, handler) for signum, handler in zip(_SIGNALS, _HANDLERS)]
        if main
        else []
    )
    try:
        checkpoint()  # one that came while the command was being prepared
        yield
        _finish()  # the work is done: a signal now changes nothing
    except KeyboardInterrupt as stop:
        told = progress()
        clear()  # the progress bar's line
        click.echo(_("interrupted {progress}").format(progress=told), err=True)
        sys.exit(exit_code(stop))
    finally:
        if main:
            signal.setitimer(signal.ITIMER_PROF, 0)
        for signum, handler in zip(_SIGNALS, previous):
            signal.signal(signum, handler)


#: Hold Ctrl-C and SIGTERM back in a block, so that what it does is done
#: whole: they are raised at the next :func:`checkpoint`, or not at all when
#: the command's work is done by then (its last file written). The library's
#: writer holds them with the same counter (:func:`hexhop.records.raising.held`).
signals_held = raising.held
