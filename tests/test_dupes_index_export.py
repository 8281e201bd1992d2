"""``dupes --db --export`` reads each game again from where the index found
its file (its real path), as ``find --export`` does: not from the path it
shows, which was given relative to another folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from archive_helpers import make_archive, run

import hexhop


def test_an_export_from_another_folder_than_the_index_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_archive(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert run("index", "arch", "--db", "x.sqlite").exit_code == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = run("dupes", "--db", "../x.sqlite", "--export", "once.hxl")
    assert result.exit_code == 0, result.output
    assert "arch/club.hxl:1" in result.stdout  # the path as it was given to index
    assert run("dupes", "../arch", "--scan", "--export", "scanned.hxl").exit_code == 0
    exported = [g.actions for g in hexhop.read_games(elsewhere / "once.hxl")]
    assert exported == [g.actions for g in hexhop.read_games(elsewhere / "scanned.hxl")]
    assert len(exported) > 10
