"""Analysis on Dask: ``analyse``, ``index --analyse`` and ``puzzles`` with
``--dask`` on a LocalCluster write exactly what they write with ``-j 1``
(the report, the annotated copy, the index's stored analysis, the puzzle
files and sheet), on samples/; without Dask, or without a scheduler, the
option is a clear message and exit 2; Ctrl-C and SIGTERM stop a run on
the cluster as they stop one here."""

from __future__ import annotations

import json
import re
import signal
import sqlite3
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest
from click.testing import CliRunner
from safety_runner import shared
from test_interrupts import EXIT, start, stop

from hexhop.cli.main import cli
from hexhop.records import dask_runs

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = str(ROOT / "samples")
KASSEL = str(ROOT / "samples" / "good" / "hexalit-kassel-1998.hxl")
needs_dask = pytest.mark.skipif(
    find_spec("dask") is None or find_spec("distributed") is None,
    reason="Dask is not installed (pip install '.[dask]')",
)
#: the tables of the index's stored analysis
ANALYSIS_TABLES = ("analyses", "notes", "solved", "puzzle_facts")


@pytest.fixture(scope="module")
def address():
    """The scheduler of one worker thread in this process (quick to start;
    CI has two cores)."""
    from dask.distributed import LocalCluster

    with LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0", silence_logs=40
    ) as local:
        yield local.scheduler_address


def run(*args: str, codes: tuple[int, ...] = (0, 1)) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code in codes, result.output
    return result.stdout


def without_seconds(text: str) -> str:
    """The report without the seconds the searches took (they differ run to run)."""
    text = re.sub(r'"seconds": [0-9.]+', '"seconds": 0', text)
    return re.sub(r"\([0-9.]+ s\)", "(0 s)", text)


@pytest.mark.slow  # a cluster takes seconds to start
@needs_dask
@pytest.mark.parametrize("fmt", ["json", "text"])
def test_analyse_on_dask_reports_as_one_process(address, fmt):
    args = ["analyse", SAMPLES, "--format", fmt]
    expected = without_seconds(run(*args, "-j", "1"))
    if fmt == "json":
        assert len(json.loads(expected)["files"]) == 30
    else:
        assert expected.endswith("analysed 30 games, 339 plies: 9 missed, 15 allowed (0 s)\n")
    assert without_seconds(run(*args, "--dask", address)) == expected


@pytest.mark.slow
@needs_dask
def test_analyse_annotates_on_dask_the_copy_of_one_process(address, tmp_path):
    run("analyse", KASSEL, "--annotate", str(tmp_path / "one.hxl"))
    run("analyse", KASSEL, "--annotate", str(tmp_path / "dask.hxl"), "--dask", address)
    one = (tmp_path / "one.hxl").read_bytes()
    assert b"??" in one or b"?" in one
    assert (tmp_path / "dask.hxl").read_bytes() == one


def stored_analysis(db: Path) -> dict[str, list[tuple]]:
    with sqlite3.connect(db) as connection:
        return {
            table: connection.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
            for table in ANALYSIS_TABLES
        }


@pytest.mark.slow
@needs_dask
def test_index_analyse_on_dask_stores_the_rows_of_one_process(address, tmp_path):
    one, dask = tmp_path / "one.sqlite", tmp_path / "dask.sqlite"
    run("index", SAMPLES, "--db", str(one), "--analyse", "-j", "1", "-q", codes=(0, 1))
    run("index", SAMPLES, "--db", str(dask), "--analyse", "--dask", address, "-q", codes=(0, 1))
    expected = stored_analysis(one)
    assert len(expected["analyses"]) > 20 and expected["notes"]
    assert stored_analysis(dask) == expected


def folder_bytes(folder: Path) -> dict[str, bytes]:
    """Every file of ``folder``; the sheet without its creation date (cairo
    writes the time of the run, so two runs of -j 1 differ there too)."""
    return {
        path.name: re.sub(rb"/CreationDate \(D:\d+Z\)", b"", path.read_bytes())
        for path in sorted(folder.iterdir())
    }


@pytest.mark.slow
@needs_dask
@pytest.mark.parametrize("fmt", ["svg", "pdf"])
def test_puzzles_on_dask_are_the_files_of_one_process(address, tmp_path, fmt):
    args = ["puzzles", SAMPLES, "--format", fmt, "-q"]
    run(*args, "--out-dir", str(tmp_path / "one"), "-j", "1", codes=(0,))
    run(*args, "--out-dir", str(tmp_path / "dask"), "--dask", address, codes=(0,))
    expected = folder_bytes(tmp_path / "one")
    assert len(expected) >= 2
    assert folder_bytes(tmp_path / "dask") == expected


@needs_dask
def test_the_calls_come_back_in_order_and_a_killed_worker_fails_its_item_only():
    from distributed import KilledWorker

    class Future:
        def __init__(self, value: int):
            self.value = value

        def done(self) -> bool:
            return True

        def result(self) -> int:
            if self.value == 3:
                raise KilledWorker("task", "worker", 3)
            return self.value * 10

        def cancel(self) -> None:
            pass

    class Client:
        submitted: list[int] = []

        def submit(self, function, lang, inner, item, pure):
            self.submitted.append(item)
            return Future(function(lang, inner, item))

    client = Client()
    results = dask_runs.run_on_dask(
        lambda item: item, range(6), client, failed=lambda item, error: -item, window=2
    )
    assert next(results) == 0
    assert client.submitted == [0, 1]  # the input is read as the results are taken
    assert list(results) == [10, 20, -3, 40, 50]


COMMANDS = {
    "analyse": ["analyse", SAMPLES],
    "index": ["index", SAMPLES, "--analyse", "--db", "{tmp}/x.sqlite"],
    "puzzles": ["puzzles", SAMPLES, "--out-dir", "{tmp}/p"],
}


def args_of(command: str, tmp_path: Path, *more: str) -> list[str]:
    return [arg.replace("{tmp}", str(tmp_path)) for arg in COMMANDS[command]] + list(more)


@pytest.mark.parametrize("command", COMMANDS)
def test_without_dask_the_option_says_how_to_get_it(command, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    result = CliRunner().invoke(cli, args_of(command, tmp_path, "--dask", "local", "-q"))
    assert result.exit_code == 2
    assert result.stderr.endswith(
        "Error: --dask needs Dask: pip install 'hexhop[dask]' (dask[bag] and distributed)\n"
    )
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "p").exists() or not any((tmp_path / "p").iterdir())


@needs_dask
@pytest.mark.parametrize("command", COMMANDS)
def test_an_address_that_is_no_scheduler_is_a_clear_message(command, tmp_path):
    # in a process of its own, as for check: a failed client leaves a thread behind
    result = shared().complete(args_of(command, tmp_path, "--dask", "nonsense://x"), text=True)
    assert result.returncode == 2
    assert "Error: cannot reach the Dask scheduler at nonsense://x: unknown address scheme " in (
        result.stderr
    )
    assert "Traceback" not in result.stderr


def test_index_takes_dask_only_to_analyse_and_puzzles_not_with_db(tmp_path):
    result = CliRunner().invoke(
        cli, ["index", SAMPLES, "--db", str(tmp_path / "x.sqlite"), "--dask", "local"]
    )
    assert result.exit_code == 2
    assert result.stderr.endswith("Error: --dask is for --analyse: the indexing itself runs here\n")
    assert not (tmp_path / "x.sqlite").exists()
    db = str(tmp_path / "x.sqlite")
    result = CliRunner().invoke(
        cli, ["puzzles", "--db", db, "--out-dir", str(tmp_path), "--dask", "local"]
    )
    assert result.exit_code == 2
    assert result.stderr.endswith("Error: --dask searches PATHS; with --db nothing is searched\n")


@pytest.mark.slow  # a cluster of processes starts in seconds
@needs_dask
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_analyse_on_dask_stopped_says_how_far_it_got(tmp_path, signum, monkeypatch):
    from hexhop.engine.generate import random_archive
    from hexhop.notation import format_archive

    text = format_archive(random_archive("Trigeo", 3, 2, max_plies=60))
    for i in range(400):
        (tmp_path / f"{i:03d}.trg").write_text(text, "utf-8")
    temporary = tmp_path / "tmp"  # where Dask's scratch space would be left
    temporary.mkdir()
    monkeypatch.setenv("TMPDIR", str(temporary))
    # the notes of each file as they are printed (a pipe's buffer would hold
    # them until it is full, or to the end on a busy machine)
    monkeypatch.setenv("PYTHONUNBUFFERED", "1")
    process = start("analyse", ".", "--dask", "local", "-q", cwd=tmp_path)
    assert process.stdout is not None
    first = process.stdout.readline()  # the notes of the first file: the cluster works
    assert first
    _out, err = stop(process, signum)
    assert process.returncode == EXIT[signum]
    assert re.search(r"interrupted at game \d+ of \d+ \(\d+ analysed", err), err
    # the cluster was closed before the program ended: its scratch space is gone
    assert list(temporary.iterdir()) == []
    assert [p.name for p in tmp_path.iterdir() if not p.name.endswith(".trg")] == ["tmp"]
