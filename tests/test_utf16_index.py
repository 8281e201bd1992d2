"""A UTF-16 file in the index: its games' offsets count
the UTF-8 of its text, so find --export copies each game whole."""

from __future__ import annotations

from pathlib import Path

from archive_helpers import run

import hexhop
from hexhop.engine.generate import random_archive
from hexhop.notation import format_archive


def test_find_export_of_an_indexed_utf16_file(tmp_path: Path) -> None:
    text = format_archive(random_archive("Trigeo", 3, 17, max_plies=10))
    source = tmp_path / "notepad.trg"
    source.write_bytes(text.replace("Random", "Jürgen", 1).encode("utf-16"))
    db = tmp_path / "u.sqlite"
    assert run("index", source, "--db", db).exit_code == 0
    out = tmp_path / "found.trg"
    result = run("find", "--db", db, "--export", out)
    assert result.exit_code == 0, result.output
    written = [game.actions for game in hexhop.read_games(out)]
    assert written == [game.actions for game in hexhop.read_games(source)]
    assert len(written) == 3 and out.read_bytes().decode("utf-8").count("Jürgen") == 1
