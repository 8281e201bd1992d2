"""The README's examples are records hexhop accepts, its Python examples run,
and its commands exist."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from hexhop.engine.replay import replay_game
from hexhop.notation import parse_text

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text("utf-8")
RECORDS = re.findall(r"```\n(\[Game.*?)```", README, re.S)
PYTHON = re.findall(r"```python\n(.*?)```", README, re.S)


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


def test_python_examples_start_with_import_hexhop():
    """Every Python example starts with ``import hexhop``."""
    assert len(PYTHON) >= 2
    assert all(example.startswith("import hexhop\n") for example in PYTHON)
    assert "hexhop.engine.api" not in README


def _run(example: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """What ``example`` prints, run from the project folder as a reader would."""
    monkeypatch.chdir(ROOT)
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        exec(compile(example, "README.md", "exec"), {"__name__": "__readme__"})
    return shown.getvalue()


@pytest.mark.parametrize("example", PYTHON, ids=[f"example{n + 1}" for n in range(len(PYTHON))])
def test_python_examples_run(example, monkeypatch):
    assert _run(example, monkeypatch)


def test_python_example_prints_what_it_says(monkeypatch):
    assert _run(PYTHON[0], monkeypatch).splitlines() == [
        "Ute Sommer v Karl Brandt True End(winner='South', ply=40)",
        "['C7°D7', 'E6°D7', 'B7°D7', 'E8°D7']",
        "IL01 there is no die on C7; South's dice stand on F7",
    ]
