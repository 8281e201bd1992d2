"""The peak resident memory of ``hexhop`` run in a child process.

A child's ``ru_maxrss`` (from ``os.wait4``, or ``RUSAGE_SELF`` inside it)
keeps the high-water mark of the process it was started from, across
``exec``: a child of a large pytest process reads as large as its parent,
and a test comparing two such readings could not fail. ``VmHWM`` in
``/proc/self/status`` is the child's own; elsewhere than on Linux the
child reports ``ru_maxrss``.
"""

from __future__ import annotations

import subprocess
import sys

#: Runs the command line in this process and reports its own peak memory
#: on stderr, whatever way it ends.
RUNNER = """
import resource, sys
from hexhop.cli.main import cli

def peak_kib():
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

try:
    cli(sys.argv[1:], prog_name="hexhop")
finally:
    sys.stderr.write(f"\\npeak-kib {peak_kib()}\\n")
"""


def reported_peak_kib(stderr: str) -> int:
    """The peak the runner wrote at the end of ``stderr``."""
    assert "peak-kib " in stderr, f"no peak reported: {stderr[-500:]}"
    return int(stderr.rsplit("peak-kib ", 1)[1])


def hexhop_peak_mib(*args: str) -> tuple[int, float]:
    """(exit code, peak MiB) of ``hexhop ARGS`` in a child process."""
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    return done.returncode, reported_peak_kib(done.stderr) / 1024
