"""The examples in the docstrings of the public API run as doctests:
the ``hexhop`` package, its games, check and index modules, and the rules'
``rules_for``. They read the files of samples/, from the repository's root."""

from __future__ import annotations

import doctest
import importlib
import os
from pathlib import Path

import pytest

import hexhop

ROOT = Path(__file__).resolve().parent.parent
MODULES = ("hexhop", "hexhop.games", "hexhop.runs", "hexhop.indexes", "hexhop.engine.games")


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_of_the_docstrings_run(name: str, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)  # the examples name samples/ from the root
    monkeypatch.setenv("LANGUAGE", "en")
    module = importlib.import_module(name)
    # ``tmp``: a folder for the indexes the examples make (the module's own
    # example, which runs first, makes the one the methods' examples search)
    names = {"hexhop": hexhop, "os": os, "tmp": str(tmp_path)}
    failed, attempted = doctest.testmod(
        module, extraglobs=names, optionflags=doctest.ELLIPSIS, report=True, verbose=False
    )
    assert attempted > 0, f"{name} has no example"
    assert failed == 0


def test_every_public_function_and_game_method_has_an_example() -> None:
    """The facade's calls carry examples, as python-chess's modules do."""
    calls = [
        hexhop.position,
        hexhop.legal_actions,
        hexhop.read_games,
        hexhop.rules_for,
        hexhop.check_paths,
        hexhop.index_paths,
        hexhop.open_index,
        hexhop.Game.new,
        hexhop.Game.play,
        hexhop.Game.comment,
        hexhop.Game.variation,
        hexhop.Game.record,
        hexhop.Index.find,
        hexhop.Index.dupes,
        hexhop.Index.stats,
        hexhop.Index.crosstable,
    ]
    missing = [call.__qualname__ for call in calls if ">>> " not in (call.__doc__ or "")]
    assert missing == []


def test_the_tour_of_docs_api_runs(monkeypatch) -> None:
    """docs/api.md, the python-chess-style tour, is a doctest too."""
    monkeypatch.chdir(ROOT)
    failed, attempted = doctest.testfile(
        str(ROOT / "docs" / "api.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert attempted >= 25 and failed == 0
