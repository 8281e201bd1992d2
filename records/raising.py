"""Where an exception raised by a signal handler surely arrives.

Python runs a signal handler between two bytecodes of whatever frame is
running; an exception it raises there is lost if that frame is a
finalizer (``__del__``), a generator being closed, or code of a library
that swallows exceptions or calls back from C. :func:`can_raise` says
whether raising is safe: every frame from the current one down to a
catcher belongs to packages known to let exceptions through; :func:`held`
marks what must be done whole, which no signal interrupts.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Collection, Iterator
from types import CodeType, FrameType


def can_raise(
    frame: FrameType | None, catchers: Collection[CodeType], propagating: Collection[str]
) -> bool:
    """Whether an exception raised in ``frame`` surely reaches a frame of
    one of ``catchers`` below it: only through code of the ``propagating``
    top-level packages, none of it a ``__del__`` or a generator being closed."""
    if frame is None or frame.f_code in catchers:
        return False  # in the catcher itself, it may be past its ``try``
    if isinstance(sys.exc_info()[1], GeneratorExit):
        return False
    while frame is not None:
        if frame.f_code in catchers:
            return True
        module = frame.f_globals.get("__name__") or ""
        if module.partition(".")[0] not in propagating or frame.f_code.co_name == "__del__":
            return False
        frame = frame.f_back
    return False


# -- what is done whole --------------------------------------------------------------------

_held = 0  # depth of held() blocks in the main thread


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back in the block, so that what it does is
    done whole (a file written and put in place, a report and its count).

    The library only counts the blocks: the command line's handlers
    (:mod:`hexhop.cli.interrupt`) look at :func:`holding` and raise the
    signal at their next checkpoint after the block. Python runs signal
    handlers in the main thread only, so a block in another thread (the
    web app's workers) holds nothing back and is not counted.
    """
    global _held
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _held += 1
    try:
        yield
    finally:
        _held -= 1


def holding() -> bool:
    """Whether the main thread is inside a :func:`held` block."""
    return _held > 0
