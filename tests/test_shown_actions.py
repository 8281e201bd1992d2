"""A viewer page and a JSON document hold the position after every action
of a game, so they take a game of at most ``MAX_SHOWN_ACTIONS`` actions,
variations included: a record under 1 MiB of 49,000 sibling variations
took 676 MB in ``render --format html`` and 514 MB in ``convert --to
json``. Beyond, a message names the game, and nothing is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from hexhop.cli.main import cli
from hexhop.notation import read_archive
from hexhop.records.limits import MAX_SHOWN_ACTIONS, actions_in

HEAD = '[Game "Hexalit"]\n[Result "*"]\n\n1. B4W3 1... D7W1 '
SIBLING = "(1... D7W1 2. B5W5) "  # two actions, beside the second action of the game


def record(tmp_path: Path, siblings: int) -> Path:
    path = tmp_path / "a.hxl"
    path.write_text(HEAD + SIBLING * siblings + "*\n", "utf-8")
    return path


def run(*args: object) -> Result:
    return CliRunner().invoke(cli, [str(arg) for arg in args])


LIMIT_SIBLINGS = (MAX_SHOWN_ACTIONS - 2) // 2  # the most a page holds: 20,000 actions


def test_the_actions_of_a_record_are_counted_in_every_variation(tmp_path):
    data = record(tmp_path, 3).read_bytes() + b"\n" + b'[Game "Hexalit"]\n\n*\n'
    first, empty = read_archive(data, path="a.hxl")
    assert actions_in(first.record) == 2 + 3 * 2
    assert actions_in(empty.record) == 0
    assert actions_in(None) == 0


def test_convert_refuses_a_game_of_more_actions(tmp_path):
    path = record(tmp_path, LIMIT_SIBLINGS + 1)
    result = run("convert", "--to", "json", "-q", path, "--out", tmp_path / "x.json")
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: {path}: game 1 has more than 20000 actions, variations included: "
        "no JSON is written\n"
    )
    assert not (tmp_path / "x.json").exists()


def test_render_html_draws_no_page_of_a_game_of_more_actions(tmp_path):
    path = record(tmp_path, LIMIT_SIBLINGS + 1)
    result = run("render", path, "--format", "html", "-q", "--out-dir", tmp_path / "out")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{path}: game 1 has more than 20000 actions, variations included: "
        "the viewer page is not drawn",
        f"Error: {path}: no game could be drawn",
    ]
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []


def test_convert_writes_a_game_of_as_many_actions_as_it_holds(tmp_path):
    path = record(tmp_path, LIMIT_SIBLINGS)
    result = run("convert", "--to", "json", "-q", path, "--out", tmp_path / "x.json")
    assert result.exit_code == 0, result.output
    [game] = json.loads((tmp_path / "x.json").read_text("utf-8"))["games"]
    assert len(game["moves"][1]["variations"]) == LIMIT_SIBLINGS


@pytest.mark.slow  # draws a page of 20,000 actions
def test_render_html_draws_a_game_of_as_many_actions_as_it_holds(tmp_path):
    path = record(tmp_path, LIMIT_SIBLINGS)
    result = run("render", path, "--format", "html", "-q", "--out-dir", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["game001.html"]
