"""One file is one row of the index, whatever path reaches it, and
``find``/``stats`` say when the index no longer tells what the files hold."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from archive_helpers import GOOD, make_archive, run


def _rows(db: Path) -> tuple[int, int]:
    with sqlite3.connect(db) as connection:
        files = connection.execute("SELECT count(*) FROM files").fetchone()[0]
        games = connection.execute("SELECT count(*) FROM games").fetchone()[0]
    connection.close()
    return files, games


def _paths(db: Path) -> list[str]:
    done = run("find", "--db", db, "--player", "*", "--format", "jsonl")
    assert done.exit_code == 0, done.output
    return [json.loads(line)["path"] for line in done.stdout.splitlines()]


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    make_archive(tmp_path)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_three_spellings_of_one_folder(club: Path) -> None:
    db = club / "cs.sqlite"
    assert run("index", "arch", "--db", db).exit_code == 0
    once = _rows(db)
    dupes_once = run("dupes", "--db", db).stderr
    for spelling in ("./arch", f"{club}/arch", "arch/../arch/"):
        done = run("index", spelling, "--db", db)
        assert done.exit_code == 0, done.output
        assert "Indexed 0 of " in done.stderr and " gone)" in done.stderr
        assert _rows(db) == once
    assert run("dupes", "--db", db).stderr == dupes_once
    # the path shown is the one the last run reached the file by
    assert all(path.startswith("arch/../arch/") for path in _paths(db))


def test_one_run_with_two_spellings(club: Path) -> None:
    db = club / "cs.sqlite"
    assert run("index", "arch", "--db", db).exit_code == 0
    once = _rows(db)
    db.unlink()
    done = run("index", "arch", f"{club}/arch/club.hxl", "./arch", "--db", db)
    assert done.exit_code == 0, done.output
    assert _rows(db) == once


def test_links_reach_the_same_file(club: Path) -> None:
    db = club / "cs.sqlite"
    assert run("index", "arch", "--db", db).exit_code == 0
    once = _rows(db)
    os.symlink(club / "arch", club / "linked")
    (club / "hard").mkdir()
    os.link(club / "arch" / "club.hxl", club / "hard" / "club.hxl")
    for other in ("linked", "hard", "hard/club.hxl"):
        done = run("index", other, "--db", db)
        assert done.exit_code == 0, done.output
        assert _rows(db) == once, other


def test_a_moved_file_is_not_indexed_twice(club: Path) -> None:
    db = club / "cs.sqlite"
    assert run("index", "arch", "--db", db).exit_code == 0
    once = _rows(db)
    os.rename(club / "arch" / "club.hxl", club / "arch" / "verein.hxl")
    done = run("index", "arch", "--db", db)
    assert done.exit_code == 0, done.output
    assert _rows(db) == once
    assert "arch/verein.hxl" in _paths(db)


def test_find_under_a_path_spelt_otherwise(club: Path) -> None:
    db = club / "cs.sqlite"
    assert run("index", "arch", "--db", db).exit_code == 0
    for root in ("arch/good", "./arch/good", f"{club}/arch/good/"):
        done = run("find", root, "--db", db, "--player", "*", "--format", "jsonl")
        assert done.exit_code == 0, done.output
        assert len(done.stdout.splitlines()) == len(list(GOOD.glob("*.*"))), root


# -- answers from an index whose files changed ----------------------------


def test_changed_and_vanished_files_are_told(club: Path) -> None:
    db = club / "cs.sqlite"
    assert run("index", "arch", "--db", db).exit_code == 0
    quiet = run("find", "--db", db, "--player", "anna")
    assert quiet.exit_code == 0 and "warning" not in quiet.stderr
    club_file = club / "arch" / "club.hxl"
    club_file.write_bytes(club_file.read_bytes() + b"\n")
    (club / "arch" / "random.hpf").unlink()
    for command in (["find", "--player", "anna"], ["stats"]):
        done = run(*command, "--db", db)
        assert done.exit_code == 2, done.output
        assert "warning: 2 files changed or gone since" in done.stderr
        assert "(arch/club.hxl, arch/random.hpf)" in done.stderr
        assert f"run `hexhop index ARCHIVE --db {db}` again" in done.stderr
        assert done.stdout  # the answer the index holds is still given
    done = run("find", "arch/good", "--db", db, "--player", "anna")
    assert done.exit_code == 0 and "warning" not in done.stderr  # none under arch/good
    assert run("index", "arch", "--db", db).exit_code == 0
    done = run("find", "--db", db, "--player", "anna")
    assert done.exit_code == 0 and "warning" not in done.stderr


def test_a_changed_archive_member_is_told_by_its_archive(club: Path) -> None:
    db = club / "cs.sqlite"
    assert run("index", "arch", "--db", db).exit_code == 0
    os.utime(club / "arch" / "old.zip", ns=(0, 0))
    done = run("find", "--db", db, "--player", "*")
    assert done.exit_code == 2
    assert "(arch/old.zip:1999/trigeo.trg)" in done.stderr


def test_dupes_takes_any_spelling_of_an_indexed_folder(club: Path) -> None:
    """dupes --db ARCHIVE keeps the games under ARCHIVE by their real path,
    as find does: not by the spelling of the last index run."""
    db = club / "cs.sqlite"
    assert run("index", "arch", "--db", db).exit_code == 0
    answers = []
    for spelling in ("arch", "./arch", str(club / "arch")):
        done = run("dupes", "--db", db, spelling, "--format", "json")
        assert done.exit_code == 0, done.output
        answers.append(json.loads(done.stdout))
    assert answers[0] and answers[1] == answers[0] and answers[2] == answers[0]
