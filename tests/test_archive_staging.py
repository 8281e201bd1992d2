"""Positions past the first DIRECT_POSITIONS of a run wait in positions_new
and go into the tree sorted at the end of the run (a
large archive indexes without rewriting the tree at every file's commit).
The index and every position search stay the same, also after a run that
stopped before the positions went in."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from archive_helpers import make_archive, run

import hexhop
import hexhop.archive.index as index_module

START = "R: a1 a2 b1 b2; T: e5 e6 f5 f6; reserve: 12/12; turn: R"


def _rows(db: Path) -> tuple[list[tuple[int, ...]], int, int]:
    """(the position rows, rows waiting in positions_new, free pages)."""
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT key, game, ply FROM positions ORDER BY 1, 2, 3")
        waiting = connection.execute("SELECT count(*) FROM positions_new").fetchone()[0]
        free = connection.execute("PRAGMA freelist_count").fetchone()[0]
        return rows.fetchall(), waiting, free


def _found(db: Path, *query: str) -> list[tuple[str, int, int]]:
    result = run("find", "--db", db, "--format", "jsonl", *query)
    assert result.exit_code == 0, result.output
    return [(g["path"], g["index"], g["ply"]) for g in map(json.loads, result.stdout.splitlines())]


@pytest.fixture
def arch(tmp_path: Path) -> Path:
    return make_archive(tmp_path)


def _queries(arch: Path) -> list[tuple[str, ...]]:
    games = list(hexhop.read_games(arch / "random.hpf"))
    return [
        ("--position", games[0].positions[2].text()),
        ("--position", START, "--board", "6x6"),
        ("--position", games[3].positions[-1].text(), "--player", "random"),
    ]


def test_staged_positions_make_the_same_index(
    arch: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    direct, staged = tmp_path / "direct.sqlite", tmp_path / "staged.sqlite"
    assert run("index", arch, "--db", direct).exit_code == 0
    monkeypatch.setattr(index_module, "DIRECT_POSITIONS", 0)
    assert run("index", arch, "--db", staged).exit_code == 0
    rows, waiting, free = _rows(staged)
    assert rows == _rows(direct)[0] and len(rows) > 100
    assert (waiting, free) == (0, 0)  # the staging pages were given back to the file
    for query in _queries(arch):
        assert _found(staged, *query) == _found(direct, *query) != []


def test_a_run_stopped_before_the_positions_went_in(
    arch: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As if killed after the last file's commit: every position search finds
    the waiting rows; the next run puts them into the tree."""
    direct, stopped = tmp_path / "direct.sqlite", tmp_path / "stopped.sqlite"
    assert run("index", arch, "--db", direct).exit_code == 0
    monkeypatch.setattr(index_module, "DIRECT_POSITIONS", 0)
    with monkeypatch.context() as killed:
        killed.setattr(index_module.Indexer, "_settle", lambda self: None)
        assert run("index", arch, "--db", stopped).exit_code == 0
    rows, waiting, _free = _rows(stopped)
    assert rows == [] and waiting == len(_rows(direct)[0])
    for query in _queries(arch):
        assert _found(stopped, *query) == _found(direct, *query)
    monkeypatch.setattr(index_module, "DIRECT_POSITIONS", 500_000)
    again = run("index", arch, "--db", stopped)
    assert again.exit_code == 0 and "0 games" in again.stderr + again.stdout
    assert _rows(stopped) == (_rows(direct)[0], 0, 0)
    for query in _queries(arch):
        assert _found(stopped, *query) == _found(direct, *query)
