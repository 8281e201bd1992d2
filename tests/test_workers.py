"""``check -j``: the same reports as one process, and a dying worker fails only its file."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from fuzz_support import CORPUS

from hexhop.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
GAME = '[Game "Hexalit"]\n\n1. B6XC6 E8XD8 2. B5XC5 *\n'


def json_report(*args: str) -> dict:
    result = CliRunner().invoke(cli, ["check", "--format", "json", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    data = json.loads(result.stdout)
    del data["summary"]["seconds"]
    return data


@pytest.mark.slow
def test_two_processes_report_exactly_what_one_does(tmp_path):
    for folder in (ROOT / "samples" / "good", ROOT / "samples" / "broken", CORPUS):
        shutil.copytree(folder, tmp_path / folder.name)
    (tmp_path / "large.hxl").write_text(GAME * 12_000, "utf-8")  # checked in parts
    args = [str(tmp_path), "--glob", "*"]
    assert json_report(*args, "-j", "2") == json_report(*args, "-j", "1")


SCRIPT = textwrap.dedent("""
    import os, sys
    from hexhop.records import jobs
    from hexhop.cli.main import cli

    real = jobs.check_source

    def poisoned(source, options):
        if "poison" in source.path:
            os._exit(3)  # the worker dies: no exception, no result
        if "memory" in source.path:
            raise MemoryError("injected")
        return real(source, options)

    jobs.check_source = poisoned
    cli(["check", "--format", "json", "-j", "2", *sys.argv[1:]])
""")


def test_a_worker_that_dies_fails_only_its_file(tmp_path):
    for i in range(12):
        (tmp_path / f"{i:02d}.hxl").write_text(GAME, "utf-8")
    (tmp_path / "03-poison.hxl").write_text(GAME, "utf-8")
    (tmp_path / "07-memory.hxl").write_text(GAME, "utf-8")
    (tmp_path / "09-poison.hxl").write_text(GAME, "utf-8")
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    assert "Traceback" not in run.stderr, run.stderr
    report = json.loads(run.stdout)
    errors = {Path(f["path"]).name: f["error"]["message"] for f in report["files"] if "error" in f}
    assert set(errors) == {"03-poison.hxl", "07-memory.hxl", "09-poison.hxl"}
    assert "a worker process died" in errors["03-poison.hxl"]
    assert "MemoryError" in errors["07-memory.hxl"]
    assert report["summary"]["files"] == 15 and report["summary"]["valid"] == 12
    assert run.returncode == 2


def big_file(tmp_path: Path) -> Path:
    from hexhop.engine.generate import random_archive
    from hexhop.notation import format_archive

    path = tmp_path / "big.hxl"
    path.write_text(format_archive(random_archive("Hexalit", 40, 5, max_plies=200)), "utf-8")
    return path


@pytest.mark.slow
def test_the_watchdog_stops_a_file_that_takes_too_long_and_the_batch_goes_on(tmp_path):
    """--max-seconds: a file checked for longer becomes one finding IO09
    (stopped at a checkpoint of its deadline, with -j 1 and with -j 2)."""
    big = big_file(tmp_path)
    (tmp_path / "small.hxl").write_text(GAME, "utf-8")
    for jobs in ("1", "2"):
        data = json_report(
            str(big), str(tmp_path / "small.hxl"), "--max-seconds", "0.05", "-j", jobs
        )
        big_result, small_result = data["files"]
        assert big_result["games"] == []
        assert big_result["error"]["code"] == "IO09"
        assert (
            big_result["error"]["message"]
            == f"checking {big} took longer than 0.05 s: it was stopped"
        )
        assert small_result["games"][0]["valid"]
        assert data["summary"]["unreadable"] == 1 and data["summary"]["findings"]["IO09"] == 1


STUCK = textwrap.dedent("""
    import signal, sys, time
    from hexhop.records import jobs
    from hexhop.cli.main import cli

    real = jobs.check_source

    def stuck(source, options):
        if source.path.endswith("-hangs.hxl"):  # as if in C code, where no checkpoint is reached
            signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM])
            time.sleep(600)
        return real(source, options)

    jobs.check_source = stuck
    jobs.GRACE_SECONDS = 1.0
    cli(["check", "--format", "json", "-j", "2", "--max-seconds", "3", *sys.argv[1:]])
""")


@pytest.mark.slow
def test_a_worker_stuck_beyond_the_alarm_is_replaced(tmp_path):
    for i in range(6):
        (tmp_path / f"{i:02d}.hxl").write_text(GAME, "utf-8")
    (tmp_path / "02-hangs.hxl").write_text(GAME, "utf-8")
    started = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-c", STUCK, str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert time.monotonic() - started < 20
    assert "Traceback" not in run.stderr, run.stderr
    report = json.loads(run.stdout)
    errors = {Path(f["path"]).name: f["error"]["code"] for f in report["files"] if "error" in f}
    assert errors == {"02-hangs.hxl": "IO09"}
    assert report["summary"]["valid"] == 6 and run.returncode == 2
