"""The one notion of a deadline: cooperative checkpoints.

Work that may take long (checking a file, replaying a game, indexing a
part) runs :func:`within` a number of seconds. The code that does the work
calls :func:`checkpoint` where it may stop: between games, at every line
and every 16 nodes of a game's replay, and every 256 actions of a
solver's search (beside its own node and time budget, ``OutOfBudget``).
Past the deadline, the checkpoint raises :class:`OutOfTime`, which
:func:`within` turns into ``None``.

The deadline is held per thread and context (a :class:`~contextvars.ContextVar`),
so that workers in threads (Dask) each have their own; outside
:func:`within` a checkpoint costs one look-up and never raises.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")


class OutOfTime(BaseException):
    """The deadline of :func:`within` has passed. A BaseException, as
    ``KeyboardInterrupt`` is: no ``except Exception`` on the way stops it;
    it never leaves :func:`within`."""


class Deadline:
    """A moment on the monotonic clock, and the seconds it was given as."""

    __slots__ = ("end", "seconds")

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        """The seconds left (negative once it has passed)."""
        return self.end - time.monotonic()

    def passed(self) -> bool:
        return time.monotonic() > self.end


_current: ContextVar[Deadline | None] = ContextVar("hexhop_deadline", default=None)


def current() -> Deadline | None:
    """The deadline the work runs under now, if any."""
    return _current.get()


def checkpoint() -> None:
    """Raise :class:`OutOfTime` when the current deadline has passed."""
    deadline = _current.get()
    if deadline is not None and time.monotonic() > deadline.end:
        raise OutOfTime()


def within(seconds: float | None, function: Callable[..., T], *args: Any) -> T | None:
    """``function(*args)``, or None when it reaches a :func:`checkpoint`
    after ``seconds`` (None: no deadline of its own). A deadline already
    running that ends earlier is kept."""
    if seconds is None:
        return function(*args)
    deadline = Deadline(seconds)
    outer = _current.get()
    if outer is not None and outer.end < deadline.end:
        deadline = outer
    token = _current.set(deadline)
    try:
        return function(*args)
    except OutOfTime:
        if deadline is not outer:
            return None
        raise  # the outer deadline: for its own within
    finally:
        _current.reset(token)
