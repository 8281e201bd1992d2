"""A UTF-16 file exported without an index: find --scan and dupes cut its
games at offsets that count the UTF-8 of its text (as the index does, see
test_utf16_index.py), so each game is copied whole."""

from __future__ import annotations

from pathlib import Path

import pytest
from archive_helpers import run

import hexhop
from hexhop.engine.generate import random_archive
from hexhop.notation import format_archive


@pytest.mark.parametrize(
    "command",
    [["find", "--scan"], ["dupes"], ["dupes", "--scan", "--same-players"]],
    ids=["find", "dupes", "dupes-same-players"],
)
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be"])
def test_an_export_of_a_utf16_file_read_now(
    tmp_path: Path, command: list[str], encoding: str
) -> None:
    text = format_archive(random_archive("Trigeo", 3, 5))
    source = tmp_path / "notepad.trg"
    bom = "\ufeff" if encoding == "utf-16-be" else ""  # "utf-16" writes its own
    source.write_bytes((bom + text.replace("Random", "Jürgen", 1)).encode(encoding))
    out = tmp_path / "out.trg"
    result = run(*command, source, "--export", out)
    assert result.exit_code in (0, 1), result.output  # dupes: 1, none found twice
    assert "left out" not in result.output
    written = [game.actions for game in hexhop.read_games(out)]
    assert written == [game.actions for game in hexhop.read_games(source)]
    assert len(written) == 3 and out.read_bytes().decode("utf-8").count("Jürgen") == 1
