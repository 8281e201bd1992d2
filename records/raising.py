"""Where an exception raised by a signal handler surely arrives.

Python runs a signal handler between two bytecodes of whatever frame is
running; an exception it raises there is lost if that frame is a
finalizer (``__del__``), a generator being closed, or code of a library
that swallows exceptions or calls back from C. :func:`can_raise` says
whether raising is safe: every frame from the current one down to a
catcher belongs to packages known to let exceptions through.
"""

from __future__ import annotations

import sys
from collections.abc import Collection
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
