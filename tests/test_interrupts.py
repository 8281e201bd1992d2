"""Ctrl-C and SIGTERM in the middle of a run: no half-written file, no
temporary file left, a word on how far the run got, exit 130 or 143; and
inputs are never changed by the commands that only read them."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexhop.cli.main import cli
from hexhop.engine.generate import random_archive
from hexhop.notation import format_archive

ROOT = Path(__file__).resolve().parent.parent
EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143}


def start(*args: str, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "hexhop.cli", *args], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)


def wait_for(condition, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "the run never got going"
        time.sleep(0.02)


def stop(process: subprocess.Popen, signum: int) -> tuple[str, str]:
    process.send_signal(signum)
    out, err = process.communicate(timeout=60)
    assert process.returncode == EXIT[signum], err.decode()
    assert b"Traceback" not in err, err.decode()
    return out.decode(), err.decode()


def stray_temporaries(folder: Path) -> list[Path]:
    return list(folder.rglob(".hexhop-*"))


@pytest.fixture(scope="module")
def long_game(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("records") / "long.hpf"
    path.write_text(format_archive(random_archive("Hüpfer", 1, 3, board=10, max_plies=400)),
                    "utf-8")
    return path


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_render_interrupted_leaves_only_whole_pictures(tmp_path, long_game, signum):
    out = tmp_path / "pictures"
    process = start("render", str(long_game), "--format", "png", "--out", str(out),
                    cwd=tmp_path)
    wait_for(lambda: out.is_dir() and len(list(out.glob("*.png"))) >= 3)
    _, err = stop(process, signum)
    written = sorted(out.glob("*.png"))
    assert f"interrupted after {len(written)} of " in err
    assert not stray_temporaries(tmp_path)
    from PIL import Image
    for picture in written:
        with Image.open(picture) as image:
            image.load()  # a truncated PNG fails here


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_fmt_in_place_interrupted_leaves_each_file_old_or_new(tmp_path, signum):
    text = format_archive(random_archive("Hexalit", 20, 1, max_plies=60))
    messy = text.replace("\n", "\r\n").replace("X", "x")
    files = []
    for i in range(400):
        path = tmp_path / f"{i:03d}.hxl"
        path.write_text(messy, "utf-8", newline="")
        files.append(str(path.name))
    process = start("fmt", "--in-place", *files, cwd=tmp_path)
    wait_for(lambda: any(p.read_bytes() != messy.encode() for p in tmp_path.glob("*.hxl")))
    _, err = stop(process, signum)
    assert "interrupted after " in err and " of 400 files" in err
    contents = {p.read_bytes() for p in tmp_path.glob("*.hxl")}
    assert contents <= {messy.encode(), text.encode()}
    assert not stray_temporaries(tmp_path)


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_check_interrupted_prints_the_report_so_far(tmp_path, signum, jobs):
    text = format_archive(random_archive("Trigeo", 10, 2, max_plies=80))
    for i in range(600):
        (tmp_path / f"{i:03d}.trg").write_text(text, "utf-8")
    process = start("check", ".", "--format", "jsonl", "-j", jobs, cwd=tmp_path)
    assert process.stdout is not None
    first = process.stdout.readline()
    assert first
    out, err = stop(process, signum)
    lines = [json.loads(line) for line in (first.decode() + out).splitlines()]
    summary = lines[-1]["summary"]
    assert 0 < summary["files"] < 600
    assert summary["games"] == len(lines) - 1
    assert f"interrupted after {summary['files']} files" in err


def test_generate_interrupted_writes_nothing(tmp_path):
    out = tmp_path / "many.hxl"
    process = start("generate", "--game", "Hexalit", "--count", "100000", "--out", str(out),
                    cwd=tmp_path)
    time.sleep(1.5)
    _, err = stop(process, signal.SIGTERM)
    assert "interrupted before anything was written" in err
    assert not out.exists() and not stray_temporaries(tmp_path)


def test_a_write_interrupted_by_an_exception_leaves_no_temporary(tmp_path, monkeypatch):
    from hexhop.cli import safe_write
    target = tmp_path / "out.svg"
    target.write_bytes(b"old")

    def broken_replace(src, dst):
        raise KeyboardInterrupt
    monkeypatch.setattr(safe_write.os, "replace", broken_replace)
    with pytest.raises(KeyboardInterrupt):
        safe_write.write_atomically(str(target), b"new", overwrite=True)
    assert target.read_bytes() == b"old" and not stray_temporaries(tmp_path)


def digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            + oct(p.stat().st_mode) for p in sorted(folder.rglob("*")) if p.is_file()}


def test_check_convert_and_render_never_change_their_inputs(tmp_path):
    inputs = tmp_path / "inputs"
    for folder in ("good", "broken"):
        for path in (ROOT / "samples" / folder).iterdir():
            (inputs / folder).mkdir(parents=True, exist_ok=True)
            (inputs / folder / path.name).write_bytes(path.read_bytes())
    before = digest(inputs)
    runner = CliRunner()
    runner.invoke(cli, ["check", str(inputs), "--format", "json"])
    runner.invoke(cli, ["check", str(inputs), "-j", "2"])
    for path in sorted(inputs.rglob("*.*")):
        runner.invoke(cli, ["convert", str(path), "--to", "json",
                            "--out", str(tmp_path / "out" / f"{path.name}.json")])
        runner.invoke(cli, ["render", str(path), "--plies", "0,last",
                            "--out", str(tmp_path / "pictures" / path.name)])
    assert (tmp_path / "pictures").is_dir()
    assert digest(inputs) == before
