"""``check -j`` on many small files: they go to a worker
several at a time, in input order, and a file that kills or hangs its
worker still fails alone. The machinery lives in the library layer."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from contextlib import closing
from pathlib import Path

import pytest

from hexhop.records import jobs
from hexhop.records.checking import CheckOptions
from hexhop.records.sources import Source

ROOT = Path(__file__).resolve().parent.parent
GAME = '[Game "Hexalit"]\n\n1. B6XC6 E8XD8 2. B5XC5 *\n'
BAD = '[Game "Hexalit"]\n\n1. B6XC6 E8XD8 2. Z9XC5 *\n'


def results(sources: list[Source], workers: int) -> list[dict]:
    """Every piece of every file, as plain data."""
    out = []
    with closing(jobs.check_results(sources, CheckOptions(), jobs=workers, seconds=60.0)) as files:
        for pieces in files:
            out.append([(p.path, p.games, p.error, p.sources, p.replaces) for p in pieces])
    return out


def test_small_files_go_to_the_workers_a_batch_at_a_time(monkeypatch):
    sources = [Source(f"{i:03d}.hxl", (BAD if i % 7 == 3 else GAME).encode()) for i in range(90)]
    calls: list[int] = []
    real = jobs.Workers.submit

    def counted(self, function, *args):
        if function is jobs._run:
            calls.append(len(args[1]))
        return real(self, function, *args)

    monkeypatch.setattr(jobs.Workers, "submit", counted)
    monkeypatch.setattr(jobs, "BATCH_BYTES", 30 * (len(GAME) + jobs.FILE_BYTES))
    assert results(sources, 2) == results(sources, 1)
    assert calls == [30, 30, 30]


def test_a_batch_ends_before_a_file_too_large_for_it(monkeypatch):
    monkeypatch.setattr(jobs, "BATCH_BYTES", 4 * (len(GAME) + jobs.FILE_BYTES))
    monkeypatch.setattr(jobs, "SPLIT_BYTES", 40 * len(GAME))
    small = [Source(f"s{i}.hxl", GAME.encode()) for i in range(3)]
    middling = Source("middling.hxl", (GAME * 25).encode())  # alone
    large = Source("large.hxl", (GAME * 500).encode())  # cut into parts
    units = list(jobs._units([*small, middling, *small, large, small[0]], CheckOptions()))
    assert [[f.source.path for f in unit.files] for unit in units] == [
        ["s0.hxl", "s1.hxl", "s2.hxl"],
        ["middling.hxl"],
        ["s0.hxl", "s1.hxl", "s2.hxl"],
        *[["large.hxl"]] * 5,
        ["s0.hxl"],
    ]
    assert [unit.last for unit in units[3:8]] == [False] * 4 + [True]


KILLER = textwrap.dedent("""
    import os, sys
    from hexhop.records import jobs
    from hexhop.cli.main import cli

    real = jobs.check_source

    def killer(source, options):
        if source.path.endswith("-kill.hxl"):
            os._exit(3)  # the worker dies with the whole batch in hand
        return real(source, options)

    jobs.check_source = killer
    cli(["check", "--format", "json", "-j", "2", *sys.argv[1:]])
""")


def test_a_file_that_kills_its_worker_fails_alone_and_its_batch_is_reported_in_order(tmp_path):
    names = [f"{i:02d}.hxl" for i in range(20)]
    names[5], names[16] = "05-kill.hxl", "16-kill.hxl"
    for name in names:
        (tmp_path / name).write_text(BAD if name == "11.hxl" else GAME, "utf-8")
    run = subprocess.run(
        [sys.executable, "-c", KILLER, str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    assert "Traceback" not in run.stderr, run.stderr
    files = json.loads(run.stdout)["files"]
    assert [Path(f["path"]).name for f in files] == names
    errors = {Path(f["path"]).name: f["error"]["message"] for f in files if "error" in f}
    assert errors == {
        name: f"cannot read {tmp_path / name}: the checker failed: a worker process died"
        for name in ("05-kill.hxl", "16-kill.hxl")
    }
    valid = [Path(f["path"]).name for f in files if f["games"] and f["games"][0]["valid"]]
    assert valid == [n for n in names if n not in ("05-kill.hxl", "11.hxl", "16-kill.hxl")]
    assert run.returncode == 2


def test_an_exception_in_a_worker_fails_only_its_file_of_the_batch(monkeypatch):
    real = jobs.check_source

    def failing(source, options):
        if source.path == "b.hxl":
            raise ValueError("injected")
        return real(source, options)

    [a, b, c] = jobs._run(
        failing, [Source(f"{n}.hxl", GAME.encode()) for n in "abc"], CheckOptions(), 60.0
    )
    assert a.games[0]["valid"] and c.games[0]["valid"] and not b.games
    assert b.error is not None and b.error["code"] == "IO01"
    assert b.error["message"] == "cannot read b.hxl: the checker failed: ValueError('injected')"


def test_the_command_line_only_wires_the_options_to_the_library():
    tree = ast.parse((ROOT / "cli" / "check_cmd.py").read_text("utf-8"))
    imported = {
        alias.name.partition(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {
        (node.module or "").partition(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.level == 0
    }
    assert not imported & {"concurrent", "multiprocessing", "signal", "threading", "os"}
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    assert not defined & {"watched", "cores", "_Workers", "_ordered", "_outcome", "_after_crash"}


@pytest.mark.skipif(sys.platform != "linux", reason="fork is the start method where there is one")
def test_workers_are_forked_with_the_modules_already_imported():
    """Not spawned: a spawned worker would import hexhop again."""
    workers = jobs.Workers(1)
    try:
        assert workers.pool._mp_context.get_start_method() == "fork"
    finally:
        workers.close()
