"""``hexhop index`` keeps the README's promise for worker processes and
time: a worker that dies fails only the file that killed it (the parts it
took with it are worked out again in new workers), a part that runs out
of time fails its file with IO09, and the run goes on with the next file.
A failed file is not written at all."""

from __future__ import annotations

import os
import shutil
import sqlite3
import sys
import time
from pathlib import Path

import pytest
from archive_helpers import GOOD, run

import hexhop.archive.facts as facts_module
import hexhop.records.jobs as jobs_module
from hexhop.archive.index import Indexer, open_index
from hexhop.engine.deadline import checkpoint
from hexhop.records.checking import CheckOptions

pytestmark = pytest.mark.skipif(
    sys.platform != "linux", reason="workers inherit the patches by fork"
)

real_part_facts = facts_module.part_facts


def _killer(part: facts_module.FactsPart, options: CheckOptions) -> list[facts_module.GameFacts]:
    """Kills its process on the killer file, every time."""
    if "killer" in part.path:
        os._exit(3)
    return real_part_facts(part, options)


_FIRST_TIME = Path(os.environ.get("TMPDIR", "/tmp")) / f"hexhop-once-{os.getpid()}"


def _dies_once(part: facts_module.FactsPart, options: CheckOptions) -> list[facts_module.GameFacts]:
    """Kills its process the first time it meets the unlucky file only."""
    if "unlucky" in part.path and not _FIRST_TIME.exists():
        _FIRST_TIME.touch()
        os._exit(3)
    return real_part_facts(part, options)


def _endless(part: facts_module.FactsPart, options: CheckOptions) -> list[facts_module.GameFacts]:
    """Never ends on the slow file, but reaches checkpoints of its deadline
    (as the replay does at every ply)."""
    while "slow" in part.path:
        checkpoint()
    return real_part_facts(part, options)


def _stuck(part: facts_module.FactsPart, options: CheckOptions) -> list[facts_module.GameFacts]:
    """Never ends on the slow file and reaches no checkpoint (as in C code)."""
    if "slow" in part.path:
        time.sleep(3600)
    return real_part_facts(part, options)


@pytest.fixture
def arch(tmp_path: Path) -> Path:
    """Six good files, and copies of two of them named for their trouble."""
    arch = tmp_path / "arch"
    shutil.copytree(GOOD, arch)
    shutil.copy(GOOD / "hexalit-kassel-1998.hxl", arch / "killer.hxl")
    shutil.copy(GOOD / "huepfer-6x6-bremen-2003.hpf", arch / "slow.hpf")
    shutil.copy(GOOD / "trigeo-goettingen-1999.trg", arch / "unlucky.trg")
    return arch


def _indexed_files(db: Path) -> list[str]:
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT path FROM files ORDER BY path").fetchall()
    return [Path(path).name for (path,) in rows]


def _index(arch: Path, db: Path, jobs: int, seconds: float) -> list[str]:
    connection = open_index(str(db), create=True)
    try:
        indexer = Indexer(connection, str(db), CheckOptions(), jobs, seconds=seconds)
        for _summary in indexer.run([str(arch)]):
            pass
    finally:
        connection.close()
    return indexer.summary.problems


def test_a_worker_killed_by_a_file_fails_only_that_file(
    arch: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(facts_module, "part_facts", _killer)
    db = tmp_path / "x.sqlite"
    result = run("index", arch, "--db", db, "-j", "2")
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    killer = arch / "killer.hxl"
    assert (
        f"cannot read {killer}: the checker failed: a worker process died: "
        "its games were not written"
    ) in result.stderr
    assert "Indexed 8 of 9 files" in result.stderr
    names = sorted(p.name for p in arch.iterdir())
    assert _indexed_files(db) == [name for name in names if name != "killer.hxl"]


def test_the_parts_a_dying_worker_took_with_it_are_worked_out_again(
    arch: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(facts_module, "part_facts", _dies_once)
    monkeypatch.setattr(facts_module, "BATCH", 1)
    db, alone = tmp_path / "x.sqlite", tmp_path / "alone.sqlite"
    try:
        assert _index(arch, db, jobs=2, seconds=60) == []
        assert _FIRST_TIME.exists()  # a worker died
    finally:
        _FIRST_TIME.unlink(missing_ok=True)
    monkeypatch.setattr(facts_module, "part_facts", real_part_facts)
    assert _index(arch, alone, jobs=1, seconds=60) == []
    query = "SELECT f.path, g.number, g.plies, g.moves FROM games g JOIN files f ON f.id = g.file"
    with sqlite3.connect(db) as one, sqlite3.connect(alone) as other:
        assert sorted(one.execute(query)) == sorted(other.execute(query))
        assert len(one.execute(query).fetchall()) == 9


@pytest.mark.parametrize("jobs", [pytest.param(1, marks=pytest.mark.slow), 2])
def test_a_part_that_runs_out_of_time_fails_its_file(
    jobs: int, arch: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(facts_module, "part_facts", _endless)
    db = tmp_path / "x.sqlite"
    problems = _index(arch, db, jobs=jobs, seconds=0.5)
    slow = arch / "slow.hpf"
    assert problems == [
        f"checking {slow} took longer than 0.5 s: it was stopped: its games were not written"
    ]
    assert "slow.hpf" not in _indexed_files(db)
    assert len(_indexed_files(db)) == 8


@pytest.mark.slow
def test_a_worker_stuck_where_no_alarm_reaches_is_killed(
    arch: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(facts_module, "part_facts", _stuck)
    monkeypatch.setattr(jobs_module, "GRACE_SECONDS", 1.0)
    db = tmp_path / "x.sqlite"
    started = time.monotonic()
    problems = _index(arch, db, jobs=2, seconds=0.5)
    assert time.monotonic() - started < 30
    slow = arch / "slow.hpf"
    assert problems == [
        f"checking {slow} took longer than 0.5 s: it was stopped: its games were not written"
    ]
    assert len(_indexed_files(db)) == 8
