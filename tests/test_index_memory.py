"""``hexhop index`` indexes with flat memory (a 100,000-game
archive indexes with flat memory): SQLite's page cache is capped well below
the size of a large index, and the reader remembers a bounded number of
tags, items and spellings, so a ten times larger archive costs no more."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from child_peak import hexhop_peak_mib

from hexhop.notation.parser import _parser, parse_header

SMALL = 400  # games in the small archive; the large one has ten times as many
PER_FILE = 50


def write_archive(folder: Path, games: list[str], count: int, seed: int) -> None:
    """``count`` of ``games`` in files of :data:`PER_FILE`, each game with an
    annotation of 8,000 characters of its own: the small archive's index is
    about as large as SQLite's page cache may grow (8 MB), the large one's
    ten times larger, and both are quick to read."""
    rng = random.Random(seed)
    folder.mkdir()
    for start in range(0, count, PER_FILE):
        texts = []
        for number in range(start, start + PER_FILE):
            head, tail = games[number % len(games)].split("\n", 1)
            note = f"{number} {rng.randbytes(4000).hex()}"
            texts.append(f'{head}\n[Annotator "{note}"]\n{tail}')
        (folder / f"{start:05d}.hpf").write_text("\n\n".join(texts) + "\n", "utf-8")


def peak_mib(*args: str) -> float:
    code, peak = hexhop_peak_mib("index", "--quiet", "-j", "1", *args)
    assert code == 0
    return peak


@pytest.mark.slow
def test_ten_times_the_archive_costs_the_index_at_most_5_mib_more(tmp_path: Path) -> None:
    """400 and 4,000 games (8 and 78 MB of index): the peak grows at most
    5 MiB (2 MiB measured; with a 32 MiB page cache it grew 27 MiB)."""
    generated = tmp_path / "all.hpf"
    subprocess.run(
        [sys.executable, "-m", "hexhop.cli", "generate", "--game", "Hüpfer"]
        + ["--count", "200", "--seed", "1", "--max-plies", "20", "--out", str(generated)],
        check=True,
        capture_output=True,
    )
    first, *rest = generated.read_text("utf-8").split("\n\n[Game ")
    games = [first] + ["[Game " + game for game in rest]
    write_archive(tmp_path / "small", games, SMALL, 1)
    write_archive(tmp_path / "large", games, SMALL * 10, 2)
    small = peak_mib(str(tmp_path / "small"), "--db", str(tmp_path / "small.sqlite"))
    large = peak_mib(str(tmp_path / "large"), "--db", str(tmp_path / "large.sqlite"))
    assert large - small <= 5.0, (small, large)
    with sqlite3.connect(tmp_path / "large.sqlite") as connection:
        assert connection.execute("SELECT count(*) FROM games").fetchone() == (SMALL * 10,)
    assert (tmp_path / "large.sqlite").stat().st_size > 60 * 2**20


def test_a_long_tag_is_read_but_not_remembered() -> None:
    """The header reader remembers each tag's text with its name and value
    (players and events repeat), but not a long one: an archive whose games
    each carry a long annotation of their own would fill the memory with
    10,000 of them."""
    known = _parser("header").scanner.known
    known.clear()
    for number in range(20):
        note = f"{number} " + "x" * 1000
        header = parse_header(f'[Game "Hüpfer"]\n[Annotator "{note}"]\n\n1. a1-a3@b3 *\n', 1)
        assert [(tag.name, tag.value) for tag in header.tags] == [
            ("Game", "Hüpfer"),
            ("Annotator", note),
        ]
    assert list(known.values()) == [("Game", "Hüpfer")]
