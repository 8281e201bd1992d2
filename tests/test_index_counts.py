"""``index`` counts what it did: a file that could not be
read is not counted as indexed, and a file without a game is noted as
``check`` notes it, without changing the verdict on the others."""

from __future__ import annotations

import shutil
from pathlib import Path

from archive_helpers import GOOD, run

KASSEL = GOOD / "hexalit-kassel-1998.hxl"


def test_an_unreadable_file_is_not_counted_as_indexed(tmp_path: Path) -> None:
    shutil.copy(KASSEL, tmp_path)
    (tmp_path / "bad.zip").write_bytes(b"PK\x03\x04 not a zip")
    done = run("index", tmp_path, "--db", tmp_path / "x.sqlite")
    assert done.exit_code == 2
    assert "cannot read" in done.stderr
    assert "Indexed 1 of 2 files (0 unchanged, 0 gone; 1 could not be indexed): 1 game" in (
        done.stderr
    )
    quiet = run("index", "-q", tmp_path, "--db", tmp_path / "x.sqlite")
    assert quiet.exit_code == 2
    assert "cannot read" in quiet.stderr and "Indexed" not in quiet.stderr


def test_an_empty_file_beside_a_good_one_is_noted_as_check_notes_it(tmp_path: Path) -> None:
    shutil.copy(KASSEL, tmp_path)
    (tmp_path / "empty.hxl").write_bytes(b"")
    check = run("check", tmp_path)
    index = run("index", tmp_path, "--db", tmp_path / "x.sqlite")
    note = "empty.hxl: this file holds no game (it is empty, or holds only comments)"
    assert check.exit_code == index.exit_code == 0
    assert note in check.output and note in index.stderr
    quiet = run("index", "-q", tmp_path, "--db", tmp_path / "y.sqlite")
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_no_game_at_all_is_exit_2_as_in_check(tmp_path: Path) -> None:
    (tmp_path / "empty.hxl").write_bytes(b"")
    check = run("check", tmp_path / "empty.hxl")
    for args in ([], ["-q"]):
        index = run("index", *args, tmp_path, "--db", tmp_path / "x.sqlite")
        assert check.exit_code == index.exit_code == 2
        assert "Error: nothing to index: no game was found" in index.stderr
