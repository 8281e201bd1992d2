"""Writing output: a full disk or a folder
that cannot be written is a clear message and exit 2 with the original
intact; fmt --in-place formats a symbolic link's target and keeps the link;
fmt holds Ctrl-C back only while it writes."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from hexhop.cli.main import cli

UNFORMATTED = '[Game "Hexalit"]\n1.B4W3  *\n'
FORMATTED = '[Game "Hexalit"]\n\n1. B4W3 *\n'
SAMPLE = os.path.join(os.path.dirname(__file__), "..", "samples", "good", "hexalit-kassel-1998.hxl")


def full_disk(*args: str, cwd, room: int = 64):
    """hexhop in a child process that may write files of ``room`` bytes at most,
    as on a full disk (SIGXFSZ ignored: the write fails with EFBIG)."""

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (room, room))

    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run(
        [sys.executable, "-m", "hexhop.cli", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=limit,
    )


def _leftovers(folder) -> list[str]:
    return [name for name in os.listdir(folder) if name.startswith(".hexhop-")]


def test_convert_out_on_a_full_disk(tmp_path):
    result = full_disk("convert", SAMPLE, "--to", "json", "--out", "out.json", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (
        2,
        "Error: cannot write out.json: File too large\n",
    )
    assert os.listdir(tmp_path) == []


def test_generate_out_on_a_full_disk_keeps_the_old_file(tmp_path):
    (tmp_path / "g.hxl").write_text("old")
    result = full_disk("generate", "--game", "Hexalit", "--out", "g.hxl", "--force", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (2, "Error: cannot write g.hxl: File too large\n")
    assert (tmp_path / "g.hxl").read_text() == "old"
    assert _leftovers(tmp_path) == []


def test_render_on_a_full_disk(tmp_path):
    result = full_disk(
        "render", SAMPLE, "--plies", "0", "--out-dir", "pics", cwd=tmp_path, room=1000
    )
    assert result.returncode == 2
    assert result.stderr.endswith("File too large\n")
    assert result.stderr.startswith("Error: cannot write pics")
    assert os.listdir(tmp_path / "pics") == []


def test_fmt_in_place_on_a_full_disk_goes_on_with_the_next_file(tmp_path):
    (tmp_path / "big.hxl").write_text(UNFORMATTED + "{" + "x" * 100 + "}\n")
    (tmp_path / "small.hxl").write_text(UNFORMATTED)
    result = full_disk("fmt", "--in-place", "big.hxl", "small.hxl", cwd=tmp_path, room=100)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "big.hxl: cannot write big.hxl: File too large; the file is left as it was",
        "reformatted small.hxl",
    ]
    assert (tmp_path / "big.hxl").read_text() == UNFORMATTED + "{" + "x" * 100 + "}\n"
    assert (tmp_path / "small.hxl").read_text() == FORMATTED
    assert _leftovers(tmp_path) == []


@pytest.mark.skipif(not os.path.isdir("/sys/kernel"), reason="no /sys")
def test_a_folder_that_cannot_be_written(tmp_path):
    """Root may write into a chmod 0555 folder, but not into /sys."""
    result = CliRunner().invoke(
        cli, ["convert", SAMPLE, "--to", "json", "--out", "/sys/kernel/hexhop-test.json"]
    )
    assert result.exit_code == 2
    assert result.output == (
        "Error: cannot write /sys/kernel/hexhop-test.json: Permission denied\n"
    )
    result = CliRunner().invoke(cli, ["render", SAMPLE, "--out-dir", "/sys/kernel/hexhop-test"])
    assert result.exit_code == 2
    assert result.output in (
        "Error: cannot create the folder /sys/kernel/hexhop-test: Permission denied\n",
        "Error: cannot create the folder /sys/kernel/hexhop-test: Operation not permitted\n",
    )


def test_fmt_in_place_through_a_symlink_formats_the_target(tmp_path):
    target = tmp_path / "real.hxl"
    target.write_text(UNFORMATTED)
    link = tmp_path / "link.hxl"
    os.symlink("real.hxl", link)
    result = CliRunner().invoke(cli, ["fmt", "--in-place", str(link)])
    assert result.exit_code == 0, result.output
    assert os.readlink(link) == "real.hxl"
    assert target.read_text() == FORMATTED


def test_fmt_stops_at_ctrl_c_while_formatting(tmp_path):
    """A 5 MB file took 7 s to format with Ctrl-C held back all along."""
    game = '[Game "Hexalit"]\n1.B4W3 {' + "c" * 60 + "} *\n\n"
    big = tmp_path / "big.hxl"
    big.write_text(game * 40_000)
    os.utime(big, (0, big.stat().st_mtime))  # its access time tells when it is read
    before = _processor_seconds_of_children()
    child = subprocess.Popen(
        [sys.executable, "-m", "hexhop.cli", "fmt", "--in-place", "big.hxl"],
        cwd=tmp_path,
        stderr=subprocess.PIPE,
        text=True,
    )
    if _access_times_kept(tmp_path):
        end = time.monotonic() + 60
        while not big.stat().st_atime and time.monotonic() < end:  # read: formatting
            time.sleep(0.01)
    else:
        time.sleep(1.5)  # started, and formatting (which takes seconds)
    used = _processor_seconds(child.pid)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    # the processor time it took to stop (its own: a busy machine does not
    # change it), against the seconds the rest of the file would take
    assert _processor_seconds_of_children() - before - used < 1.0
    assert (child.returncode, err) == (130, "interrupted after 0 of 1 file; nothing written\n")
    assert (tmp_path / "big.hxl").read_text() == game * 40_000


def _processor_seconds(pid: int) -> float:
    """The processor time process ``pid`` has used so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _processor_seconds_of_children() -> float:
    """The processor time of the child processes that have ended."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _access_times_kept(folder) -> bool:
    """Whether reading a file in ``folder`` updates its access time (not ``noatime``)."""
    probe = folder / "probe"
    probe.write_text("x")
    os.utime(probe, (0, probe.stat().st_mtime))
    probe.read_text()
    kept = probe.stat().st_atime != 0
    probe.unlink()
    return kept
