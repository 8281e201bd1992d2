"""The README's examples are records hexhop accepts, and its commands exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hexhop.engine.replay import replay_game
from hexhop.notation import parse_text

README = (Path(__file__).resolve().parent.parent / "README.md").read_text("utf-8")
RECORDS = re.findall(r"```\n(\[Game.*?)```", README, re.S)


@pytest.mark.parametrize("text", RECORDS, ids=lambda t: re.search(r'Game "(\w+)', t)[1])
def test_record_examples_are_valid(text):
    (parsed,) = parse_text(text)
    report = replay_game(parsed)
    assert report.findings == [] and report.plies > 0


def test_readme_shows_the_two_commands():
    assert "pip install . && hexhop check samples/good" in README
    assert "pip install '.[test]' && python -m pytest" in README


def test_ci_runs_the_readme_test_command():
    ci = (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text("utf-8")
    assert "pip install -q '.[test]' && python -m pytest" in ci
