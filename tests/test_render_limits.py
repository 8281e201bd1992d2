"""``hexhop render`` on hostile records: bounded time and memory, text
clipped in pictures, one output file per input member, no character XML
cannot hold (issue 17, items 4, 6, 14 and 16)."""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

MIB = 1024 * 1024

#: Runs the command line in this process and reports its peak memory on
#: stderr, whatever way it ends.
_RUNNER = """
import resource, sys
from hexhop.cli.main import cli
try:
    cli(sys.argv[1:], prog_name="hexhop")
finally:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    sys.stderr.write(f"\\npeak-kib {peak}\\n")
"""


def run_bounded(args: list[str], *, seconds: float, mib: int) -> tuple[int, str, int]:
    """``hexhop ARGS`` in a child process that may not grow past 2×``mib``
    of address space; returns its exit code, stderr and peak RSS in MiB."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 * mib * MIB + 512 * MIB,) * 2)

    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", _RUNNER, *args], capture_output=True,
                          text=True, timeout=seconds * 3, preexec_fn=limit)
    elapsed = time.monotonic() - started
    assert elapsed < seconds, f"took {elapsed:.1f} s: {proc.stderr[-500:]}"
    assert "peak-kib " in proc.stderr, f"out of memory: {proc.stderr[-500:]}"
    peak = int(proc.stderr.rsplit("peak-kib ", 1)[1]) // 1024
    assert peak < mib, f"peak {peak} MiB"
    return proc.returncode, proc.stderr, peak


def record(movetext: str, **tags: str) -> str:
    head = {"Game": "Hexalit", "North": "Anna", "South": "Jonas", "Result": "*", **tags}
    return "".join(f'[{name} "{value}"]\n' for name, value in head.items()) + \
        f"\n{movetext} *\n"


def test_sibling_variations_cost_little_in_a_viewer_page(tmp_path: Path) -> None:
    """Item 4: 20,000 sibling variations (200 KB) took 2.6 GB and 50 s."""
    siblings = " ".join(["(1. B4W3)"] * 20_000)
    path = tmp_path / "siblings.hxl"
    path.write_text(record(f"1. B4W3 {siblings} 1... D7W1"), encoding="utf-8")
    assert path.stat().st_size > 195_000
    out = tmp_path / "out"
    code, stderr, _ = run_bounded(["render", str(path), "--format", "html", "--out", str(out)],
                                  seconds=20, mib=250)
    assert code == 0, stderr
    page = (out / "game1.html").read_text(encoding="utf-8")
    assert page.count('class="variation"') == 20_000
    assert len(page) < 40 * path.stat().st_size
