"""``check -j``: the same reports as one process, and a dying worker fails only its file."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

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


def test_two_processes_report_exactly_what_one_does(tmp_path):
    for folder in (ROOT / "samples" / "good", ROOT / "samples" / "broken", CORPUS):
        shutil.copytree(folder, tmp_path / folder.name)
    (tmp_path / "large.hxl").write_text(GAME * 12_000, "utf-8")  # checked in parts
    args = [str(tmp_path), "--glob", "*"]
    assert json_report(*args, "-j", "2") == json_report(*args, "-j", "1")


SCRIPT = textwrap.dedent("""
    import os, sys
    from hexhop.cli import check_cmd
    from hexhop.cli.main import cli

    real = check_cmd.check_source

    def poisoned(source, options):
        if "poison" in source.path:
            os._exit(3)  # the worker dies: no exception, no result
        if "memory" in source.path:
            raise MemoryError("injected")
        return real(source, options)

    check_cmd.check_source = poisoned
    cli(["check", "--format", "json", "-j", "2", *sys.argv[1:]])
""")


def test_a_worker_that_dies_fails_only_its_file(tmp_path):
    for i in range(12):
        (tmp_path / f"{i:02d}.hxl").write_text(GAME, "utf-8")
    (tmp_path / "03-poison.hxl").write_text(GAME, "utf-8")
    (tmp_path / "07-memory.hxl").write_text(GAME, "utf-8")
    (tmp_path / "09-poison.hxl").write_text(GAME, "utf-8")
    run = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], capture_output=True,
                         text=True, timeout=120)
    assert "Traceback" not in run.stderr, run.stderr
    report = json.loads(run.stdout)
    errors = {Path(f["path"]).name: f["error"]["message"] for f in report["files"]
              if "error" in f}
    assert set(errors) == {"03-poison.hxl", "07-memory.hxl", "09-poison.hxl"}
    assert "a worker process died" in errors["03-poison.hxl"]
    assert "MemoryError" in errors["07-memory.hxl"]
    assert report["summary"]["files"] == 15 and report["summary"]["valid"] == 12
    assert run.returncode == 2
