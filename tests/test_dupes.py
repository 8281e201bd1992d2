"""``hexhop dupes``: groups of games with the same
actions, from the index and the archive alike; --same-players; --export
keeps one game of each group."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from archive_helpers import make_archive, run

import hexhop


@pytest.fixture
def arch(tmp_path: Path) -> Path:
    arch = make_archive(tmp_path)
    shutil.copy(arch / "good" / "hexalit-kassel-1998.hxl", arch / "kassel-copy.hxl")
    return arch


def _groups(*args: object) -> tuple[int, list[list[str]]]:
    result = run("dupes", *args, "--format", "json")
    assert result.exit_code in (0, 1), result.output
    groups = json.loads(result.stdout)
    where = [
        [f"{g['path'].rsplit('/arch/')[1]}:{g['line']}" for g in group["games"]] for group in groups
    ]
    return result.exit_code, where


def test_same_actions_whatever_their_spelling(arch: Path, tmp_path: Path) -> None:
    expected = [
        ["club.hxl:1", "club.hxl:10"],
        # in archive order: the files of a folder before its folders' files
        ["kassel-copy.hxl:1", "good/hexalit-kassel-1998.hxl:1"],
        ["old.zip:1999/trigeo.trg:1", "good/trigeo-goettingen-1999.trg:1"],
    ]
    assert _groups(arch) == (0, expected)
    db = tmp_path / "x.sqlite"
    run("index", arch, "--db", db)
    assert _groups("--db", db) == (0, expected)
    # the Müller games have different South players
    assert _groups(arch, "--same-players") == (0, expected[1:])
    assert _groups("--db", db, "--same-players") == (0, expected[1:])
    assert _groups("--db", db, "--game", "trigeo") == (0, expected[2:])


def test_text_report(arch: Path) -> None:
    result = run("dupes", arch)
    lines = result.stdout.splitlines()
    assert lines[0] == "2 Hexalit games with the same 3 actions: B4W3 D7W1 A5XB2"
    assert lines[1].endswith("arch/club.hxl:1  Jürgen Müller – Anna Berger  2004.05.01")
    assert result.stderr == "3 groups of duplicates, 3 games more than once\n"


def test_no_duplicates_exits_1(tmp_path: Path) -> None:
    good = Path(__file__).resolve().parent.parent / "samples" / "good"
    shutil.copytree(good, tmp_path / "arch")
    assert _groups(tmp_path / "arch") == (1, [])


def test_export_keeps_the_first_of_each_group(arch: Path, tmp_path: Path) -> None:
    out = tmp_path / "once.hxl"
    result = run("dupes", arch, "--export", out)
    assert result.exit_code == 0
    games = list(hexhop.read_games(out))
    assert len(games) == 23 - 3
    club = [g.tags["South"] for g in games if g.tags.get("Event") == "Vereinsmeisterschaft"]
    assert club == ["Anna Berger"]
    # each game's own bytes: the first club game as written, CRLF and all
    assert out.read_bytes().startswith((arch / "club.hxl").read_bytes()[:40])
    db = tmp_path / "x.sqlite"
    run("index", arch, "--db", db)
    from_index = tmp_path / "from-index.hxl"
    assert run("dupes", "--db", db, "--export", from_index).exit_code == 0
    assert from_index.read_bytes() == out.read_bytes()
