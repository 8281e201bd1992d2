"""FIFOs, devices and endless input: nothing blocks, and
every read, standard input included, stops at the size limit."""

from __future__ import annotations

import os
import stat

import pytest
from safety_runner import shared

from hexhop.records.sources import Limits, iter_sources, read_source

GAME = b'[Game "Hexalit"]\n1. B4W3 *\n'
MIB = 1024 * 1024
pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


def hexhop(*args: str, cwd, stdin=None, memory: int = 1024 * MIB):
    """Run hexhop in a child process with bounded memory and time; ``stdin``:
    the file it reads as standard input."""
    return shared().complete(
        list(args), cwd=cwd, stdin=stdin, text=True, timeout=30, memory_mib=memory // MIB
    )


def _folder(tmp_path):
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "a.hxl").write_bytes(GAME)
    os.mkfifo(folder / "p.hxl")
    os.mkfifo(folder / "x.zip")
    os.mkfifo(folder / "notes.txt")  # not a record's name: passed over in silence
    return folder


def test_fifos_in_a_folder_are_reported_not_read(tmp_path):
    folder = _folder(tmp_path)
    sources = [(os.path.basename(s.path), s.data, s.error) for s in iter_sources([str(folder)])]
    assert sources == [
        ("a.hxl", GAME, None),
        ("p.hxl", None, "not a regular file (a FIFO)"),
        ("x.zip", None, "not a regular file (a FIFO)"),
    ]


def test_check_of_a_folder_with_fifos_ends(tmp_path):
    _folder(tmp_path)
    result = hexhop("check", "d", cwd=tmp_path)
    assert result.returncode == 2
    assert "d/p.hxl: error IO01 cannot read d/p.hxl: not a regular file (a FIFO)" in result.stdout
    assert "d/x.zip: error IO01 cannot read d/x.zip: not a regular file (a FIFO)" in result.stdout
    assert "Checked 3 files, 1 game" in result.stdout


def test_a_device_in_a_folder_is_reported_not_read(tmp_path):
    folder = tmp_path / "d"
    folder.mkdir()
    try:
        os.mknod(folder / "z.hxl", stat.S_IFCHR | 0o666, os.makedev(1, 5))  # /dev/zero
    except PermissionError:
        pytest.skip("cannot make a device here")
    (source,) = iter_sources([str(folder)])
    assert source.error == "not a regular file (a device)"


def test_a_fifo_named_as_an_archive_is_not_opened(tmp_path):
    os.mkfifo(tmp_path / "x.zip")
    (source,) = iter_sources([str(tmp_path / "x.zip")])
    assert source.error == "not a regular file (a FIFO)"


def test_a_fifo_named_directly_without_a_writer_reads_as_empty(tmp_path):
    os.mkfifo(tmp_path / "p.hxl")
    assert read_source(str(tmp_path / "p.hxl")).data == b""


def test_a_pipe_with_a_writer_is_read(tmp_path):
    """``hexhop check <(zcat games.gz)`` passes such a pipe."""
    read, write = os.pipe()
    os.write(write, GAME)
    os.close(write)
    try:
        assert read_source(f"/dev/fd/{read}").data == GAME
    finally:
        os.close(read)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_dev_zero_stops_at_the_limit():
    source = read_source("/dev/zero", MIB)
    assert (source.data, source.error) == (None, f"more than {MIB} bytes (limit {MIB})")


@pytest.mark.parametrize(
    "args",
    [
        ["check", "/dev/zero"],
        ["fmt", "/dev/zero"],
        ["show", "/dev/zero"],
        ["convert", "/dev/zero", "--to", "json"],
    ],
)
def test_every_command_reads_dev_zero_up_to_the_limit(tmp_path, args):
    result = hexhop(*args, cwd=tmp_path, memory=600 * MIB)
    assert "Traceback" not in result.stderr
    assert result.returncode in (1, 2)
    assert "more than 67108864 bytes (limit 67108864)" in result.stdout + result.stderr


@pytest.mark.parametrize("args", [["convert", "-", "--to", "json"], ["check", "-"], ["moves", "-"]])
def test_standard_input_is_read_up_to_the_limit(tmp_path, args):
    result = hexhop(*args, cwd=tmp_path, stdin="/dev/zero", memory=600 * MIB)
    assert "Traceback" not in result.stderr
    assert "more than 67108864 bytes (limit 67108864)" in result.stdout + result.stderr


@pytest.mark.parametrize("command", ["check", "fmt", "show", "moves", "render"])
def test_a_fifo_named_directly_does_not_block_any_command(tmp_path, command):
    os.mkfifo(tmp_path / "p.hxl")
    result = hexhop(command, "p.hxl", cwd=tmp_path)
    assert "Traceback" not in result.stderr


def test_a_file_at_or_over_the_limit(tmp_path):
    """(/dev/zero above shows that the read stops whatever the size says.)"""
    path = tmp_path / "a.hxl"
    path.write_bytes(GAME * 1000)
    (source,) = iter_sources([str(path)], limits=Limits(max_file_bytes=len(GAME) * 1000))
    assert source.data == GAME * 1000
    assert read_source(str(path), 100).too_large == (len(GAME) * 1000, 100)
