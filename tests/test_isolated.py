"""``render.isolated.in_child``: work a signal cannot stop (a PDF's layout)
runs in a child process; its answer or its error comes back, and the child
never outlives the wait for it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_interrupts import children_of, wait_for

from hexhop.notation.errors import ArgumentError
from hexhop.render.isolated import ChildFailed, in_child

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


def test_the_answer_comes_back_whole() -> None:
    before = children_of(os.getpid())  # the test session's own helpers (the fork server)
    data = bytes(range(256)) * 20_000  # 5 MB: more than a pipe holds at once
    assert in_child(lambda: data) == data
    assert children_of(os.getpid()) == before


def test_an_error_is_raised_here_as_it_was_there() -> None:
    def bad() -> bytes:
        raise ArgumentError("unknown page 'b5'")

    with pytest.raises(ArgumentError, match="^unknown page 'b5'$"):
        in_child(bad)


def test_an_error_that_cannot_travel_keeps_its_message() -> None:
    class Local(Exception):  # a local class: pickle cannot find it
        pass

    def bad() -> bytes:
        raise Local("no layout")

    with pytest.raises(ChildFailed, match="^no layout$"):
        in_child(bad)


@pytest.mark.parametrize(
    "end, told",
    [
        (lambda: os._exit(3), "exit status 3"),
        (lambda: os.kill(os.getpid(), signal.SIGKILL), "stopped by signal 9"),
    ],
    ids=["exit", "killed"],
)
def test_a_child_that_dies_is_an_error(end, told) -> None:
    with pytest.raises(ChildFailed, match=f"^the PDF layout ended without a result \\({told}\\)$"):
        in_child(end)


def test_an_interrupt_while_waiting_kills_and_reaps_the_child() -> None:
    def interrupt(signum, frame):
        raise KeyboardInterrupt

    def slow() -> bytes:
        time.sleep(60)
        return b""

    before = children_of(os.getpid())  # the test session's own helpers (the fork server)
    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(KeyboardInterrupt):
            in_child(slow)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert children_of(os.getpid()) == before  # killed and reaped: no zombie either


def test_the_child_dies_with_its_parent(tmp_path) -> None:
    """A parent killed outright (SIGKILL: no cleanup) takes its child along."""
    code = (
        "import time\nfrom hexhop.render.isolated import in_child\n"
        "in_child(lambda: (time.sleep(120), b'')[1])\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", code])
    found: list[int] = []
    wait_for(lambda: found.extend(children_of(parent.pid)) or found)
    parent.kill()
    parent.wait()
    wait_for(lambda: not any(_alive(pid) for pid in found))


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, reaped by its new parent soon, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_the_child_ignores_ctrl_c_and_sigterm_its_parent_decides() -> None:
    """Ctrl-C at a terminal reaches the whole process group: the child
    leaves the decision to its parent, which kills it."""

    def make() -> bytes:
        os.kill(os.getpid(), signal.SIGINT)
        os.kill(os.getpid(), signal.SIGTERM)
        return b"laid out"

    assert in_child(make) == b"laid out"
