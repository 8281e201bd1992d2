"""Work a signal cannot stop, run where it can: in a child process.

Laying out a PDF (cairosvg, WeasyPrint) runs for as long as the document
needs in code that lets no Ctrl-C or SIGTERM through: Python runs a signal
handler between two bytecodes of the main thread, and an exception raised
in a C library's callback is dropped. :func:`in_child` runs such work in a
forked child while this process waits on a pipe, where a signal interrupts
it at once; on the way out (an interrupt, any error) the child is killed and
reaped, so neither half a document nor a process is left behind. The child
also dies when this process dies (``PR_SET_PDEATHSIG`` on Linux, else a
thread that watches the parent). Nothing is written here: the bytes come
back to the caller, who writes them whole.

Where there is no ``fork`` (Windows), the work runs in this process.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import NoReturn

from hexhop.notation.errors import Error

CHUNK = 1 << 20  # bytes read from the pipe at a time
_PR_SET_PDEATHSIG = 1  # linux/prctl.h


class ChildFailed(Error):
    """The child died without an answer (killed, out of memory), or its
    error could not be sent back as it was."""


def in_child(make: Callable[[], bytes]) -> bytes:
    """``make()``, worked out in a child process that a signal to this one
    stops: this process waits interruptibly, and kills and reaps the child
    when it leaves early (``KeyboardInterrupt``, any exception). An error
    of ``make`` is raised here as it was raised there."""
    if not hasattr(os, "fork"):
        return make()
    read_end, write_end = os.pipe()
    parent = os.getpid()
    _flush()  # what is buffered is written once, by this process
    child = os.fork()
    if child == 0:  # pragma: no cover - the child's coverage is not collected
        os.close(read_end)
        _serve(make, write_end, parent)
    os.close(write_end)
    try:
        answer = _read_all(read_end)
        status = os.waitpid(child, 0)[1]
        child = 0
    finally:
        os.close(read_end)
        if child:
            _kill(child)
    return _outcome(answer, status)


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            with contextlib.suppress(OSError, ValueError):  # closed, or a broken pipe
                stream.flush()


def _read_all(fd: int) -> bytes:
    """Everything the child writes, until it closes its end: a signal
    stops the read (Python's handler runs, and its exception comes out)."""
    parts: list[bytes] = []
    while chunk := os.read(fd, CHUNK):
        parts.append(chunk)
    return b"".join(parts)


def _kill(child: int) -> None:
    """Stop the child at once and reap it (no zombie, no orphan)."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(child, signal.SIGKILL)
    os.waitpid(child, 0)


def _outcome(answer: bytes, status: int) -> bytes:
    """The child's bytes, or its error raised here."""
    if not answer or not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        raise ChildFailed(f"the PDF layout ended without a result ({_how(status)})")
    kind, value = pickle.loads(answer)  # our own child's answer
    if kind == "error":
        raise value
    data: bytes = value
    return data


def _how(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"stopped by signal {os.WTERMSIG(status)}"
    return f"exit status {os.WEXITSTATUS(status)}" if os.WIFEXITED(status) else "?"


def _serve(make: Callable[[], bytes], write_end: int, parent: int) -> NoReturn:
    """The child: ``make()`` (or its error) down the pipe, then exit,
    never back into the caller's code (no ``finally`` of the parent's
    stack, no exit handler, no buffered output written twice)."""
    code = 1
    try:
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, signal.SIG_IGN)  # the parent decides when to stop
        signal.setitimer(signal.ITIMER_PROF, 0)
        _die_with(parent)
        try:
            answer: tuple[str, object] = ("ok", make())
        except Exception as error:  # every error goes back to the parent
            answer = ("error", _portable(error))
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(pickle.dumps(answer))
        code = 0
    finally:
        os._exit(code)


def _portable(error: Exception) -> Exception:
    """``error`` if it survives pickling, else an error with its message."""
    try:
        back: Exception = pickle.loads(pickle.dumps(error))
        return back
    except Exception:
        return ChildFailed(str(error))


def _die_with(parent: int) -> None:
    """Make the child end when ``parent`` does, even by SIGKILL."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
            if os.getppid() != parent:  # it died before the call
                os._exit(1)
            return
    except (OSError, AttributeError):
        pass
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.2)
    os._exit(1)
