"""Files named by options (``render --colors``) are read like records:
regular files only, at most a bounded size, a clear message otherwise,
and never a wait on a FIFO that nobody writes to."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from safety_runner import shared

from hexhop.records.colors import MAX_COLORS_BYTES

KASSEL = Path(__file__).parent.parent / "samples" / "good" / "hexalit-kassel-1998.hxl"


def render_with_colors(colors: str | Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """The program in a child process (forked from the session's server):
    a hang is a timeout, not a stuck test run."""
    return shared().complete(
        ["render", str(KASSEL), "--plies", "0", "--colors", str(colors)]
        + ["--out-dir", str(tmp_path / "out")],
        text=True,
        timeout=20,
        env={"LANG": "C.UTF-8", "LC_ALL": "", "LANGUAGE": ""},
    )


def refused(run: subprocess.CompletedProcess[str], tmp_path: Path) -> str:
    """The one-line reason of a usage error that wrote nothing."""
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr
    assert not (tmp_path / "out").exists()
    return " ".join(run.stderr.split())


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_nobody_writes_to_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "club.colors"
    os.mkfifo(fifo)
    message = refused(render_with_colors(fifo, tmp_path), tmp_path)
    assert f"{fifo}: cannot read: not a regular file (a FIFO)" in message


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_a_device_is_refused_without_reading_it(tmp_path: Path) -> None:
    message = refused(render_with_colors("/dev/zero", tmp_path), tmp_path)
    assert "/dev/zero: cannot read: not a regular file (a device)" in message


def test_a_folder_is_refused(tmp_path: Path) -> None:
    message = refused(render_with_colors(tmp_path, tmp_path), tmp_path)
    assert f"{tmp_path}: cannot read: " in message and "Traceback" not in message


def test_a_file_larger_than_the_limit_is_refused(tmp_path: Path) -> None:
    colors = tmp_path / "huge.colors"
    colors.write_bytes(b"# padding\n" * (MAX_COLORS_BYTES // 10 + 1))
    message = refused(render_with_colors(colors, tmp_path), tmp_path)
    assert f"{colors}: cannot read: too large" in message


def test_a_file_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    colors = tmp_path / "latin.colors"
    colors.write_bytes(b"# Farben f\xfcr den Verein\ndark = #123456\n")
    message = refused(render_with_colors(colors, tmp_path), tmp_path)
    assert f"{colors}: cannot read: not UTF-8 text" in message


def test_standard_input_is_not_a_colours_file(tmp_path: Path) -> None:
    message = refused(render_with_colors("-", tmp_path), tmp_path)
    assert "-: cannot read: not a regular file (standard input)" in message


def test_a_symbolic_link_to_a_regular_file_is_read(tmp_path: Path) -> None:
    colors = tmp_path / "club.colors"
    colors.write_text("dark = #123456\n", encoding="utf-8")
    link = tmp_path / "link.colors"
    link.symlink_to(colors)
    run = render_with_colors(link, tmp_path)
    assert run.returncode == 0, run.stderr
    assert "#123456" in (tmp_path / "out" / "game001-ply000.svg").read_text("utf-8")
