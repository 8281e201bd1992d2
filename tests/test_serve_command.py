"""``hexhop serve`` as a program: it indexes, listens, answers, and stops
cleanly on Ctrl-C and SIGTERM (slow: a real server in a child process)."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the serve extra: pip install 'hexhop[serve]'")

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow  # a server in a child process


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "hexhop.cli", "serve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "HEXHOP_LANG": "en"},
    )


def answer(url: str, headers: dict[str, str] | None = None) -> int:
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {})) as got:
                return int(got.status)
        except urllib.error.HTTPError as error:
            return int(error.code)
        except OSError:
            assert time.monotonic() < deadline, "the server did not answer"
            time.sleep(0.1)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_serves_and_stops_cleanly(tmp_path, signum):
    archive = tmp_path / "club"
    archive.mkdir()
    for sample in (ROOT / "samples" / "good").iterdir():
        (archive / sample.name).write_bytes(sample.read_bytes())
    port = free_port()
    server = start(str(archive), "--db", str(tmp_path / "club.sqlite"), "--port", str(port))
    try:
        assert answer(f"http://127.0.0.1:{port}/") == 200
        assert answer(f"http://127.0.0.1:{port}/games/1") == 200
    finally:
        server.send_signal(signum)
        out, err = server.communicate(timeout=30)
    assert server.returncode == 0, err
    assert f"Serving 6 games at http://127.0.0.1:{port}/ (Ctrl-C stops)" in err
    assert err.rstrip().endswith("stopped")
    assert "Traceback" not in err
    assert (tmp_path / "club.sqlite").is_file()  # indexed on the way


def test_a_new_token_is_printed_in_the_address_and_required(tmp_path):
    archive = tmp_path / "club"
    archive.mkdir()
    (archive / "a.hxl").write_bytes((ROOT / "samples/good/hexalit-kassel-1998.hxl").read_bytes())
    port = free_port()
    server = start(str(archive), "--port", str(port), "--token", "new", "--host", "127.0.0.1")
    try:
        assert answer(f"http://127.0.0.1:{port}/") == 401
        line = ""
        deadline = time.monotonic() + 30
        while "Serving" not in line:
            line = server.stderr.readline()
            assert time.monotonic() < deadline
        token = re.search(r"\?token=([A-Za-z0-9_-]{20,})", line).group(1)
        bearer = {"Authorization": f"Bearer {token}"}
        assert answer(f"http://127.0.0.1:{port}/", bearer) == 200
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=30)
    assert server.returncode == 0
