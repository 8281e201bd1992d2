"""Checking on Dask: on a LocalCluster with 2 workers the
report is exactly the report of ``check -j 1``, on samples/ and on a
generated archive checked in parts; without Dask, or without a scheduler,
``--dask`` is a clear message and exit 2."""

from __future__ import annotations

import io
import json
import shutil
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest
from click.testing import CliRunner
from safety_runner import shared

from hexhop.archive import scale_out
from hexhop.cli.main import cli
from hexhop.records import jobs
from hexhop.records.checking import CheckOptions
from hexhop.records.report import REPORTERS
from hexhop.records.sources import iter_sources

ROOT = Path(__file__).resolve().parent.parent
needs_dask = pytest.mark.skipif(
    find_spec("dask") is None or find_spec("distributed") is None,
    reason="Dask is not installed (pip install '.[dask]')",
)


@pytest.fixture(scope="module")
def cluster():
    """A cluster of 2 workers in this process (threads: quick to start)."""
    from dask.distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=False,
            dashboard_address=":0",
            silence_logs=40,
        ) as local,
        Client(local) as client,
    ):
        yield local, client


def check_json(*args: str) -> dict:
    result = CliRunner().invoke(cli, ["check", "--format", "json", *args])
    assert result.exit_code in (0, 1), result.output
    data = json.loads(result.stdout)
    del data["summary"]["seconds"]
    return data


def library_json(paths: list[str], client, **kwargs) -> dict:
    """The JSON report of ``check_on_dask``, as the docs' recipe writes it."""
    out = io.StringIO()
    reporter = REPORTERS["json"](out)
    for result in scale_out.check_on_dask(iter_sources(paths), CheckOptions(), client, **kwargs):
        reporter.file(result)
    reporter.finish()
    data = json.loads(out.getvalue())
    del data["summary"]["seconds"]
    return data


@pytest.mark.slow  # a cluster takes seconds to start
@needs_dask
def test_samples_on_two_workers_give_the_report_of_one_process(cluster):
    local, client = cluster
    paths = [str(ROOT / "samples")]
    expected = check_json(*paths, "-j", "1")
    assert expected["summary"]["files"] == 30
    # several small batches: the window of two batches on the cluster is used
    assert library_json(paths, client, batch_bytes=2000) == expected
    assert check_json(*paths, "--dask", local.scheduler_address) == expected


@pytest.mark.slow  # a cluster takes seconds to start
@needs_dask
def test_a_generated_archive_checked_in_parts(cluster, tmp_path, monkeypatch):
    local, client = cluster
    generated = tmp_path / "generated.hxl"
    args = ["generate", "--game", "Hexalit", "--count", "150", "--seed", "7", "--max-plies", "20"]
    assert CliRunner().invoke(cli, [*args, "--out", str(generated)]).exit_code == 0
    shutil.copytree(ROOT / "samples" / "broken", tmp_path / "broken")
    monkeypatch.setattr(scale_out, "SPLIT_BYTES", 1000)  # 150 games: two parts of the file
    monkeypatch.setattr(scale_out, "GROUP_BYTES", 2000)  # the broken samples: several groups
    expected = check_json(str(tmp_path), "-j", "1")
    assert expected["summary"]["games"] == 150 + 24
    parts = []
    check_part = jobs.check_part  # the part function of -j checks the parts on Dask too
    monkeypatch.setattr(jobs, "check_part", lambda p, o: parts.append(p) or check_part(p, o))
    assert library_json([str(tmp_path)], client) == expected
    assert sorted(len(part.games) for part in parts if part.path == str(generated)) == [50, 100]


@needs_dask
@pytest.mark.slow
def test_a_local_cluster_of_two_processes_from_the_command_line():
    paths = [str(ROOT / "samples")]
    assert check_json(*paths, "--dask", "local", "-j", "2") == check_json(*paths, "-j", "1")


def test_without_dask_the_option_says_how_to_get_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    result = CliRunner().invoke(cli, ["check", "--dask", "local", str(ROOT / "samples" / "good")])
    assert result.exit_code == 2
    assert result.stderr == (
        "Error: --dask needs Dask: pip install 'hexhop[dask]' (dask[bag] and distributed)\n"
    )


@needs_dask
def test_an_address_that_is_no_scheduler_is_a_clear_message():
    # in a process of its own: a failed Dask client leaves its event loop's
    # thread running, and a process with that thread must not fork workers
    result = shared().complete(
        ["check", "--dask", "nonsense://x", str(ROOT / "samples")], text=True
    )
    assert result.returncode == 2
    assert result.stderr.startswith(
        "Error: cannot reach the Dask scheduler at nonsense://x: unknown address scheme 'nonsense'"
    )


@pytest.mark.slow  # a cluster takes seconds to start
@needs_dask
def test_the_recipe_in_the_docs_writes_the_report_of_one_process(cluster):
    import contextlib
    import re

    local, _ = cluster
    docs = (ROOT / "docs" / "scale-out.md").read_text("utf-8")
    [recipe] = re.findall(r"```python\n(.*?)```", docs, re.S)
    samples = str(ROOT / "samples")
    recipe = recipe.replace("tcp://scheduler:8786", local.scheduler_address)
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        exec(compile(recipe.replace('"archive/"', repr(samples)), "scale-out.md", "exec"), {})
    data = json.loads(shown.getvalue())
    del data["summary"]["seconds"]
    assert data == check_json(samples)


def test_small_files_travel_in_groups_and_parts_of_large_files_alone(monkeypatch):
    from hexhop.records.checking import Part
    from hexhop.records.sources import Source

    monkeypatch.setattr(scale_out, "GROUP_BYTES", 10)
    small = Source("small.hxl", b"x" * 4)
    part = Part("large.hxl", [(1, 1, "x" * 50)], None)
    tasks = [(0, small), (1, small), (2, small), (3, small), (4, part), (5, small), (6, part)]
    groups = [[number for number, _ in group] for group in scale_out._groups(tasks)]
    assert groups == [[0, 1, 2], [3], [4], [5], [6]]
