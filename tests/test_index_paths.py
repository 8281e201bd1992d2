"""File names that are not UTF-8 (Python holds them with surrogates, which
SQLite cannot take) go into the index and come out as they were: find
shows them escaped and exports their games, a second run finds them
unchanged, and a file that is gone is dropped."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from pathlib import Path

import pytest
from archive_helpers import GOOD, run

from hexhop.archive.index import path_of, stored_path

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="names are bytes on Linux")
NAMES = [b"bad\xff\xfe.hxl", b"caf\xe9.hxl", "Müller.hxl".encode()]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    folder = tmp_path / "d"
    folder.mkdir()
    game = (GOOD / "hexalit-kassel-1998.hxl").read_bytes()
    for name in NAMES:
        with open(os.path.join(os.fsencode(folder), name), "wb") as handle:
            handle.write(game)
    return folder


def test_stored_paths_come_back_as_they_were() -> None:
    for name in NAMES + [b"a\x00b"[:1], b"\xc3"]:
        path = os.fsdecode(name)
        assert path_of(stored_path(path)) == path
    assert stored_path("Müller.hxl") == "Müller.hxl"  # a UTF-8 name is kept as it is
    assert stored_path(os.fsdecode(b"caf\xe9.hxl")) == "\x00" + b"caf\xe9.hxl".hex()


def test_names_that_are_not_utf8_are_indexed_found_and_exported(
    folder: Path, tmp_path: Path
) -> None:
    db = tmp_path / "x.sqlite"
    first = run("index", folder, "--db", db)
    assert first.exit_code == 0, first.output
    assert "Indexed 3 of 3 files" in first.stderr
    again = run("index", folder, "--db", db)
    assert "Indexed 0 of 3 files (3 unchanged, 0 gone)" in again.stderr

    table = run("find", "--db", db, "--player", "Berger")
    assert table.exit_code == 0
    assert f"{folder}/bad\\xff\\xfe.hxl:1" in table.stdout
    assert f"{folder}/caf\\xe9.hxl:1" in table.stdout
    found = json.loads(run("find", "--db", db, "--player", "Berger", "--format", "json").stdout)
    assert sorted(hit["path"] for hit in found) == sorted(
        f"{folder}/{os.fsdecode(name)}".encode("utf-8", "surrogateescape").decode(
            "utf-8", "replace"
        )
        for name in NAMES
    )

    groups = json.loads(run("dupes", "--db", db, "--format", "json").stdout)
    assert len(groups) == 1 and len(groups[0]["games"]) == 3
    lines = run("find", "--db", db, "--player", "Berger", "--format", "csv").stdout
    assert "bad\ufffd\ufffd.hxl" in lines

    export = tmp_path / "out.hxl"
    assert run("find", "--db", db, "--player", "Berger", "--export", export).exit_code == 0
    game = (GOOD / "hexalit-kassel-1998.hxl").read_bytes()
    assert export.read_bytes().count(game.split(b"\n", 1)[0]) == 3

    os.remove(os.path.join(os.fsencode(folder), NAMES[1]))
    assert "(2 unchanged, 1 gone)" in run("index", folder, "--db", db).stderr
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT count(*) FROM files").fetchone() == (2,)
