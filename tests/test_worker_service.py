"""One way to run work in parallel: the worker service
of :mod:`hexhop.records.jobs` with its one deadline (cooperative
checkpoints, :mod:`hexhop.engine.deadline`), used by check, index,
analyse, puzzles, render and the Dask path; ``-j`` with one meaning."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexhop.archive import scale_out
from hexhop.cli.main import cli
from hexhop.engine import deadline
from hexhop.engine.replay import Visitor, replay_game
from hexhop.notation import read_archive
from hexhop.records import jobs
from hexhop.records.checking import CheckOptions, Part
from hexhop.records.sources import Source

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "samples" / "good"
GAME = '[Game "Hexalit"]\n\n1. B6XC6 E8XD8 2. B5XC5 *\n'

forked = pytest.mark.skipif(sys.platform != "linux", reason="workers inherit the test by fork")


# -- the deadline -------------------------------------------------------------


class _Counted(Visitor):
    def __init__(self) -> None:
        self.nodes = 0

    def node(self, node, before, after, state, findings) -> None:  # type: ignore[no-untyped-def]
        self.nodes += 1


def test_a_replay_stops_at_the_first_ply_past_its_deadline():
    [parsed] = read_archive((GOOD / "hexalit-kassel-1998.hxl").read_bytes(), path="k.hxl")
    counted = _Counted()
    assert deadline.within(60.0, replay_game, parsed, counted) is not None
    assert counted.nodes > 20
    counted = _Counted()
    assert deadline.within(-1.0, replay_game, parsed, counted) is None  # already past
    assert counted.nodes == 0


def test_outside_a_deadline_a_checkpoint_never_stops_and_an_inner_one_ends_at_the_outer():
    deadline.checkpoint()
    assert deadline.current() is None

    def inner() -> float | None:
        found = deadline.current()
        return None if found is None else found.seconds

    assert deadline.within(None, inner) is None
    assert deadline.within(5.0, inner) == 5.0
    # a longer deadline inside a shorter one keeps the shorter
    assert deadline.within(5.0, deadline.within, 60.0, inner) == 5.0

    def past_the_outer() -> str:
        deadline.within(60.0, _spin)  # stopped by the outer deadline: not its own
        return "not reached"

    assert deadline.within(0.05, past_the_outer) is None


def _spin() -> None:
    while True:
        deadline.checkpoint()


def _spinning_part(part: Part, options: CheckOptions):  # type: ignore[no-untyped-def]
    _spin()


def test_a_part_past_its_deadline_is_the_finding_of_before(monkeypatch):
    """IO09 with the message check always gave, from the part function that
    the workers of -j and Dask share."""
    part = Part("big.hxl", [(1, 1, GAME)], "Hexalit")
    result = jobs.check_one(part, CheckOptions(), 0.05, _spinning_part)
    assert result.games == []
    assert result.error is not None and result.error["code"] == "IO09"
    assert result.error["message"] == "checking big.hxl took longer than 0.05 s: it was stopped"
    monkeypatch.setattr(jobs, "check_part", _spinning_part)
    [(number, on_dask)] = scale_out._check_group([(3, part)], CheckOptions(), "en", 0.05)
    assert number == 3 and on_dask == result


def test_dask_checks_with_the_part_function_of_the_workers():
    assert scale_out.check_one is jobs.check_one
    part = Part("a.hxl", [(1, 1, GAME)], "Hexalit")
    source = Source("b.hxl", GAME.encode())
    for item in (part, source):
        [(_n, result)] = scale_out._check_group([(0, item)], CheckOptions())
        assert result == jobs.check_one(item, CheckOptions(), None)
        assert result.games[0]["valid"]


def test_check_dash_j_1_stops_a_file_past_max_seconds_between_games(tmp_path):
    """Many games: the checkpoint between games (and plies) ends it."""
    big = tmp_path / "big.hxl"
    big.write_text(GAME * 3000, "utf-8")
    result = CliRunner().invoke(
        cli, ["check", "--format", "json", "-j", "1", "--max-seconds", "0.001", str(big)]
    )
    [file] = json.loads(result.stdout)["files"]
    assert file["games"] == [] and file["error"]["code"] == "IO09"


# -- the pool -----------------------------------------------------------------


def _square(n: int) -> int:
    if n == 7:
        os._exit(3)  # the worker dies: no exception, no result
    return n * n


def _died(n: int, error: BaseException) -> int:
    assert type(error).__name__ == "BrokenProcessPool"
    return -n


@forked
def test_a_dead_worker_fails_only_its_item_and_the_order_is_kept():
    done: list[int] = []
    results = list(jobs.run_in_order(_square, range(20), 2, failed=_died, progress=done.append))
    assert results == [-7 if n == 7 else n * n for n in range(20)]
    assert done == list(range(1, 21))


def _endless(n: int) -> int:
    while n == 3:
        deadline.checkpoint()
    return n


@forked
@pytest.mark.parametrize("processes", [1, 2])
def test_a_call_past_its_deadline_is_timed_out_and_the_rest_go_on(processes):
    results = jobs.run_in_order(
        _endless, range(6), processes, failed=_died, seconds=0.2, timed_out=lambda n: "late"
    )
    assert list(results) == [0, 1, 2, "late", 4, 5]


def test_the_service_of_one_process_runs_in_this_process():
    pid = os.getpid()
    assert list(jobs.run_in_order(lambda _n: os.getpid(), range(3), 1, failed=_died)) == [pid] * 3


# -- -j N gives what -j 1 gives -----------------------------------------------


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def _analysis(*args: str) -> tuple[int, dict]:
    code, out, _err = _run("analyse", "--format", "json", *args)
    report = json.loads(out)
    for file in report["files"]:
        for game in file["games"]:
            del game["seconds"]
    return code, report


@forked
def test_analyse_in_two_processes_reports_what_one_does():
    args = (str(GOOD), str(ROOT / "samples" / "broken"), "--depth", "1")
    one = _analysis(*args, "-j", "1")
    assert len(one[1]["files"]) > 20
    assert _analysis(*args, "-j", "2") == one


def _tree(folder: Path) -> dict[str, bytes]:
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    return {str(p.relative_to(folder)): p.read_bytes() for p in files}


@forked
def test_puzzles_in_two_processes_write_what_one_does(tmp_path):
    for jobs_ in ("1", "2"):
        code, _out, err = _run(
            "puzzles",
            str(GOOD),
            "--depth",
            "1",
            "--per-game",
            "0",
            "--out-dir",
            str(tmp_path / jobs_),
            "-j",
            jobs_,
        )
        assert code == 0, err
    written = _tree(tmp_path / "1")
    assert len(written) > 4
    assert _tree(tmp_path / "2") == written


@forked
@pytest.mark.parametrize("fmt", ["svg", "html"])
def test_render_in_two_processes_writes_what_one_does(tmp_path, fmt):
    outputs = []
    for jobs_ in ("1", "2"):
        out = tmp_path / jobs_
        code, _out, err = _run(
            "render", str(GOOD), "--format", fmt, "--out-dir", str(out), "-j", jobs_
        )
        assert code == 0, err
        outputs.append((err.replace(str(out), "OUT"), _tree(out)))
    assert len(outputs[0][1]) > 8
    assert outputs[1] == outputs[0]


# -- one -j -------------------------------------------------------------------


@pytest.mark.parametrize("command", ["check", "index", "analyse", "puzzles", "render"])
def test_every_long_command_takes_the_same_j(command):
    import click

    found = cli.get_command(click.Context(cli), command)  # type: ignore[attr-defined]
    [option] = [p for p in found.params if p.name == "jobs"]
    assert option.opts == ["-j", "--jobs"]
    assert (option.type.min, option.type.max) == (0, 64)
    code, _out, err = _run(command, "-j", "65", str(GOOD))
    assert code == 2
    assert "Invalid value for '-j' / '--jobs': 65 is not in the range 0<=x<=64." in err


def test_j_0_is_one_process_per_core(monkeypatch):
    from hexhop.cli import analyse_cmd

    asked: list[int] = []
    real = analyse_cmd.analyse_sources

    def recorded(sources, settings, jobs=1, *rest, **options):  # type: ignore[no-untyped-def]
        asked.append(jobs)  # (options: dask=None, without --dask)
        return real(sources, settings, 1, *rest, **options)

    monkeypatch.setattr(jobs, "cores", lambda: 3)
    monkeypatch.setattr(analyse_cmd, "analyse_sources", recorded)
    code, _out, _err = _run("analyse", str(GOOD / "hexalit-kassel-1998.hxl"), "-j", "0")
    assert code == 0 and asked == [3]


def test_a_search_stops_at_the_deadline_of_the_work_it_is_part_of():
    """The solver's own budget (OutOfBudget) and the one deadline: a search
    inside work past its deadline stops at its next checkpoint."""
    from hexhop.engine.games import rules_for
    from hexhop.engine.solver import Solver

    rules = rules_for("Hexalit")
    start = rules.start({}, None)
    solver = Solver(rules, node_limit=10**9, time_limit=600.0)
    assert deadline.within(-1.0, solver.solve, start, 3) is None
    assert solver.nodes == 256  # the first checkpoint of the search
