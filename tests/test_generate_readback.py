"""generate and puzzles read back the records they write, as the archive
writers do: a file that does not hold the games written is not kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from archive_helpers import GOOD, run

import hexhop.notation


def test_generate_keeps_nothing_that_does_not_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "g.hxl"
    assert run("generate", "--game", "Hexalit", "--count", "3", "--out", out).exit_code == 0
    assert len(list(hexhop.read_games(out))) == 3
    real = hexhop.notation.format_archive
    monkeypatch.setattr(hexhop.notation, "format_archive", lambda games: real(games[:-1]))
    lost = tmp_path / "lost.hxl"
    result = run("generate", "--game", "Hexalit", "--count", "3", "--out", lost)
    assert result.exit_code == 2, result.output
    assert "does not read back as written: game 3 differs (3 written, 2 read back)" in result.output
    assert not lost.exists()


def test_puzzles_keep_no_record_that_does_not_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hexhop.records.puzzles import Puzzle

    monkeypatch.setattr(Puzzle, "text", lambda self, number: "")
    result = run("puzzles", GOOD, "--depth", "1", "--out-dir", tmp_path / "p")
    assert result.exit_code == 2, result.output
    assert "does not read back as written: game 1 differs (1 written, 0 read back)" in result.output
    assert not any((tmp_path / "p").glob("*.hxl"))


def test_convert_to_record_keeps_nothing_that_does_not_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    document = tmp_path / "kassel.json"
    assert (
        run(
            "convert", GOOD / "hexalit-kassel-1998.hxl", "--to", "json", "--out", document
        ).exit_code
        == 0
    )
    out = tmp_path / "back.hxl"
    assert run("convert", document, "--to", "record", "--out", out).exit_code == 0
    [game] = hexhop.read_games(out)
    assert len(game.actions) == 42
    monkeypatch.setattr(hexhop.notation, "format_archive", lambda games: "")
    lost = tmp_path / "lost.hxl"
    result = run("convert", document, "--to", "record", "--out", lost)
    assert result.exit_code == 2, result.output
    assert "does not read back as written: game 1 differs (1 written, 0 read back)" in result.output
    assert not lost.exists()
