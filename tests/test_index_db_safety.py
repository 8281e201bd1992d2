"""The index file itself as bad input (README "Safety and limits"): a
truncated index, a folder where the index should be, an index that cannot
be written (a read-only file, or a file in a read-only folder, as on
read-only media), given to ``find --db``, ``dupes --db``, ``stats --db``
and ``index --db``.

A bad index is exit 2 and a clear message, never a traceback; an index
that cannot be written is still searched; and nothing beside the index is
made or changed.  A file that is not SQLite at all, a damaged or foreign
database and a missing one are tested in ``test_archive_index_bad.py`` and
``test_stats.py``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from archive_helpers import GOOD, run

READERS = {
    "find": ["find", "--player", "anna"],
    "dupes": ["dupes"],
    "stats": ["stats"],
}
COMMANDS = {**READERS, "index": ["index", str(GOOD)]}


@pytest.fixture(scope="module")
def index_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    db = tmp_path_factory.mktemp("index") / "x.sqlite"
    assert run("index", GOOD, "--db", db).exit_code == 0
    return db.read_bytes()


def _folder(path: Path) -> dict[str, tuple[int, int, bytes]]:
    """What a command could change in a folder: every name, size, time and content."""
    seen = {}
    for entry in sorted(path.rglob("*")):
        info = entry.lstat()
        digest = hashlib.sha256(entry.read_bytes()).digest() if entry.is_file() else b""
        seen[str(entry.relative_to(path))] = (info.st_size, info.st_mtime_ns, digest)
    return seen


def _refused(args: list[str], db: Path, message: str) -> None:
    before = _folder(db.parent)
    result = run(*args, "--db", db)
    assert result.exit_code == 2, result.output
    assert message in result.stderr, result.stderr
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert _folder(db.parent) == before


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("keep", [100, 4096, 3 * 4096, 0.5])
def test_a_truncated_index(command: str, keep: float, index_bytes: bytes, tmp_path: Path) -> None:
    """Cut inside the header, after the first page, after three pages, at half."""
    db = tmp_path / "x.sqlite"
    db.write_bytes(index_bytes[: int(keep * len(index_bytes)) if keep < 1 else int(keep)])
    _refused(COMMANDS[command], db, f"{db} is damaged or not an SQLite database")


@pytest.mark.parametrize("command", ["dupes", "stats", "index"])  # find: test_archive_index_bad
def test_a_folder_given_as_the_index(command: str, tmp_path: Path) -> None:
    db = tmp_path / "x.sqlite"
    db.mkdir()
    (db / "notes.txt").write_text("mine")
    _refused(COMMANDS[command], db, f"Error: {db} is not a file\n")


# -- an index that cannot be written ------------------------------------------------


@contextmanager
def _read_only(path: Path) -> Iterator[None]:
    """``path`` (a file or folder) cannot be written while inside: by its
    mode, or for root, who may write anyway, by the immutable attribute."""
    mode = path.stat().st_mode
    path.chmod(0o555 if path.is_dir() else 0o444)
    immutable = False
    try:
        if os.access(path, os.W_OK):
            chattr = shutil.which("chattr")
            done = chattr and subprocess.run([chattr, "+i", str(path)], capture_output=True)
            if not done or done.returncode != 0 or os.access(path, os.W_OK):
                pytest.skip("cannot make a file read-only for this user")
            immutable = True
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        path.chmod(mode)


def _read_only_index(how: str, index_bytes: bytes, tmp_path: Path) -> tuple[Path, Path]:
    """The index and what to make read-only: the file, or its folder."""
    folder = tmp_path / "media"
    folder.mkdir()
    db = folder / "x.sqlite"
    db.write_bytes(index_bytes)
    return db, db if how == "file" else folder


EXPECTED = {
    "find": (0, "Anna Berger – Jonas Keller"),
    "dupes": (1, ""),
    "stats": (0, "6 games"),
}


@pytest.mark.parametrize("how", ["file", "folder"])
@pytest.mark.parametrize("command", list(READERS))
def test_an_index_that_cannot_be_written_is_searched(
    command: str, how: str, index_bytes: bytes, tmp_path: Path
) -> None:
    """SQLite's readers of a write-ahead-log index make -wal and -shm files
    beside it: in a read-only folder that failed ("unable to open database
    file"), beside a read-only file they were left behind."""
    db, locked = _read_only_index(how, index_bytes, tmp_path)
    before = _folder(db.parent)
    with _read_only(locked):
        result = run(*READERS[command], "--db", db)
        after = _folder(db.parent)
    code, text = EXPECTED[command]
    assert result.exit_code == code, result.output
    assert text in result.stdout
    assert after == before


@pytest.mark.parametrize("how", ["file", "folder"])
def test_index_into_an_index_that_cannot_be_written(
    how: str, index_bytes: bytes, tmp_path: Path
) -> None:
    db, locked = _read_only_index(how, index_bytes, tmp_path)
    (tmp_path / "arch").mkdir()
    (tmp_path / "arch" / "a.hxl").write_bytes((GOOD / "hexalit-kassel-1998.hxl").read_bytes())
    with _read_only(locked):
        _refused(["index", str(tmp_path / "arch")], db, f"cannot write {db}")


def test_a_read_only_index_with_a_log_beside_it_is_read_through_the_log(
    index_bytes: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a -wal or -shm file beside it, another program may be writing the
    index, or left changes in its log: it is opened as SQLite opens it, not
    read as it lies (which would miss the log)."""
    from hexhop.archive import query

    db, locked = _read_only_index("file", index_bytes, tmp_path)
    opened: list[str] = []
    monkeypatch.setattr(query, "open_index", lambda path: opened.append(path) or 1 / 0)
    with _read_only(locked):
        query.open_to_search(str(db)).close()  # read as it lies
        assert opened == []
        (db.parent / "x.sqlite-wal").write_bytes(b"")
        with pytest.raises(ZeroDivisionError):
            query.open_to_search(str(db))  # as SQLite opens it
    assert opened == [str(db)]


@pytest.mark.parametrize("name", ["a?b#c%41d.sqlite", "caf\udce9.sqlite"])
def test_a_read_only_index_with_an_odd_name(name: str, index_bytes: bytes, tmp_path: Path) -> None:
    """SQLite is given the name as a URI: ? # % and bytes that are not
    UTF-8 are escaped, not read as its parameters."""
    db = tmp_path / name
    db.write_bytes(index_bytes)
    before = _folder(tmp_path)
    with _read_only(db):
        result = run("find", "--player", "anna", "--db", db)
    assert result.exit_code == 0, result.output
    assert "Anna Berger – Jonas Keller" in result.stdout
    assert _folder(tmp_path) == before
