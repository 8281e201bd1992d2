"""Every command reads under the same default limit of games per file.

``check`` reads the first 100,000 games of a file and reports the rest
(IO04); the commands that write, draw or analyse every game of a file
refuse a file of more games before its first one, with the same finding;
one place gives the default (:class:`hexhop.notation.limits.ReadLimits`).
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexhop.cli.main import cli
from hexhop.notation.limits import DEFAULT_LIMITS, ReadLimits
from hexhop.records.limits import read_limits
from hexhop.records.sources import Limits

GOOD = '[Game "Hexalit"]\n\n1. B4W3 D7W1 *\n'
EMPTY = b'[Game "Hexalit"]\n\n*\n\n'
LIMIT = 100_000
IO04 = f"IO04 {{path}} has more than {LIMIT} games: the games after game {LIMIT} are not checked"


@pytest.fixture(scope="module")
def many(tmp_path_factory) -> Path:
    """A gzip file of one game more than the default limit (10 KB)."""
    path = tmp_path_factory.mktemp("many") / "many.hxl.gz"
    path.write_bytes(gzip.compress(EMPTY * (LIMIT + 1), 9))
    return path


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_one_place_gives_the_defaults():
    assert DEFAULT_LIMITS.max_games == LIMIT
    assert read_limits(Limits()) == DEFAULT_LIMITS
    assert Limits().max_games == ReadLimits().max_games


def test_merge_stops_with_io04_and_merges_the_other_files(many, tmp_path):
    good = tmp_path / "good.hxl"
    good.write_text(GOOD, "utf-8")
    out = tmp_path / "m.hxl"
    result = run("merge", str(good), str(many), "--out", str(out))
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"{many}: " + IO04.format(path=many),
        f"wrote 1 game to {out}",
    ]
    assert out.read_text("utf-8") == GOOD


@pytest.mark.slow  # check reads the 100,000 games up to the limit
def test_check_reports_the_same_finding(many, tmp_path):
    result = run("check", str(many))
    assert result.exit_code == 2
    assert f"{many}: error " + IO04.format(path=many) in result.stdout


@pytest.mark.parametrize(
    "args,told",
    [
        (["split", "{in}", "--out-dir", "{out}/g"], "{path}: " + IO04),
        (["fmt", "--check", "{in}"], "{path}: " + IO04),
        (["convert", "--to", "json", "{in}", "--out", "{out}/x.json"], "Error: " + IO04),
        (["show", "{in}"], "Error: " + IO04),
        (["moves", "{in}"], "Error: " + IO04),
        (["render", "{in}", "--format", "svg", "--out-dir", "{out}/r"], "Error: " + IO04),
    ],
    ids=lambda value: value[0] if isinstance(value, list) else "",
)
def test_every_command_that_reads_a_file_whole_refuses_it(many, tmp_path, args, told):
    places = {"{in}": str(many), "{out}": str(tmp_path)}
    argv = [places.get(a, a.replace("{out}", str(tmp_path))) for a in args]
    result = run(*argv)
    assert result.exit_code == 2
    assert told.format(path=many) in result.stderr.splitlines()
    assert [p.name for p in tmp_path.rglob("*") if not p.is_dir()] == []


def test_ls_says_why_the_file_is_not_listed(many, tmp_path):
    result = run("ls", str(many))
    assert result.exit_code == 2
    assert IO04.format(path=many) in result.output
