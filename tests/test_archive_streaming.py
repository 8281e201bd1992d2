"""``hexhop index`` reads each file a block at a time and writes it a part
at a time (flat memory): the games, their lines and the
byte offsets and lengths of their own text are those of the whole file read
at once, and the memory does not follow the size of the largest file."""

from __future__ import annotations

import random
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from child_peak import hexhop_peak_mib
from test_flat_memory import hupfer_archives

from hexhop.archive import facts
from hexhop.notation.reader import decode, game_chunks
from hexhop.records.checking import CheckOptions
from hexhop.records.sources import Limits, Source

GAME = '[Game "Hexalit"]\n[North "Zoë"]\n\n1. B6XC6 E8XD8 2. B5XC5 *\n'
PIECES = [GAME, "\n", "\r\n", "\r", "{a comment}\n", "{", "}", "€", "\ufeff", '[Event "x"]\n']
_BREAK = re.compile(rb"\r\n?|\n")


def whole_file(data: bytes, limit: int) -> list[tuple[int, int, int, int]]:
    """(number, line, offset, length) of each game, from the whole text at
    once: a game runs from its first line to the next game's first line."""
    text, _ = decode(data)
    chunks = list(game_chunks(text))
    starts = [0] + [m.end() for m in _BREAK.finditer(data)]
    if data.startswith(b"\xef\xbb\xbf"):
        starts[0] = 3
    offsets = [starts[line - 1] if line <= len(starts) else len(data) for _, line, _ in chunks]
    offsets.append(len(data))
    return [
        (number, line, offsets[i], offsets[i + 1] - offsets[i])
        for i, (number, line, _) in enumerate(chunks[:limit])
    ]


def streamed(data: bytes, limit: int, size: int) -> tuple[list[tuple[int, int, int, int]], bool]:
    options = CheckOptions(limits=Limits(max_games=limit))
    found, parts = facts.prepare(Source("x.hxl", data), options, size)
    games = [(g[0], g[1], g[3], g[4]) for part in parts for g in part.games]
    return games, found.error is not None


def test_offsets_and_lengths_are_those_of_the_whole_file() -> None:
    rng = random.Random(14)
    for _case in range(150):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(30)))
        for data in (
            text.encode("utf-8"),
            text.encode("utf-8-sig"),
            text.encode("cp1252", "replace"),
        ):
            for limit in (2, 100):
                expected = whole_file(data, limit)
                more = len(list(game_chunks(decode(data)[0]))) > limit
                for size in (1, 2, 5, 200):
                    assert streamed(data, limit, size) == (expected, more), (data, limit, size)


def test_the_games_own_bytes_put_together_are_the_file() -> None:
    data = ("\ufeff" + GAME + "\r\n{between}\r\n" + GAME * 3 + GAME.rstrip("\n")).encode()
    games, _ = streamed(data, 100, 2)
    assert len(games) == 5
    # all but the byte order mark, which is no game's
    assert b"".join(data[o : o + n] for _, _, o, n in games) == data[3:]


def peak_mib(*args: str) -> float:
    code, peak = hexhop_peak_mib("index", "--quiet", *args)
    assert code == 0
    return peak


@pytest.mark.slow
def test_the_largest_file_does_not_set_the_memory(tmp_path: Path) -> None:
    """3,000 games in one file cost at most 5 MiB more than the same games
    in 300 files of 10 (the old reader held a file's text and facts whole:
    18 MiB more). The index is the same size both ways: SQLite's page cache,
    which holds it up to CACHE_KIB, is the same."""
    hupfer_archives(tmp_path)
    files = peak_mib(str(tmp_path / "large"), "--db", str(tmp_path / "files.sqlite"))
    one = peak_mib(str(tmp_path / "large.hpf"), "--db", str(tmp_path / "one.sqlite"))
    assert one - files <= 5.0, (files, one)
    with sqlite3.connect(tmp_path / "one.sqlite") as connection:
        assert connection.execute("SELECT count(*) FROM games").fetchone() == (3000,)


@pytest.mark.slow
def test_an_index_killed_while_it_writes_a_file_keeps_the_files_written_before(
    tmp_path: Path,
) -> None:
    """A file's games are written a part at a time, all inside the file's one
    transaction: a process killed in the middle (no Ctrl-C, no clean-up)
    leaves a sound index holding every file before whole and nothing of the
    file it was writing."""
    import signal
    import time

    from hexhop.engine.generate import random_archive
    from hexhop.notation import format_archive

    folder = tmp_path / "arch"
    folder.mkdir()
    for number in range(6):
        games = random_archive("Hüpfer", 600, number, max_plies=60)
        (folder / f"part-{number}.hpf").write_text(format_archive(games), "utf-8")
    db = tmp_path / "x.sqlite"
    child = subprocess.Popen(
        [sys.executable, "-m", "hexhop.cli", "index", "--quiet", str(folder), "--db", str(db)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    written = 0
    while written < 1 and child.poll() is None:
        time.sleep(0.05)
        try:
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as reader:
                written = reader.execute("SELECT count(*) FROM files").fetchone()[0]
        except sqlite3.Error:
            pass  # not made yet
    child.send_signal(signal.SIGKILL)
    child.wait()
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        per_file = connection.execute(
            "SELECT f.path, count(g.id) FROM files f LEFT JOIN games g ON g.file = f.id"
            " GROUP BY f.id"
        ).fetchall()
        positions = connection.execute("SELECT count(DISTINCT game) FROM positions").fetchone()[0]
    assert 1 <= len(per_file) < 6
    assert all(count == 600 for _path, count in per_file)
    assert positions == 600 * len(per_file)
