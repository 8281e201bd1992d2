"""Flat memory in the writers of several games: merge,
find --export and dupes --export write each game to the file as it comes
and read the file back a block at a time, keeping 8 bytes a game (dupes
16 more for each game it has seen); ten times the games (1,000 and
10,000 of 1 KB, in files of 100) costs at most 4 MiB more. (Measured:
merge 0.2-0.5, find reading the archive 0.1, dupes from an index 2.9, of
which SQLite's page cache fills the most; before, merge took 17 MiB more.)"""

from __future__ import annotations

import subprocess
import sys

import pytest
from child_peak import hexhop_peak_mib

PAD = "{" + "a comment that makes the game longer " * 16 + "}\n"  # ~600 bytes
RESULTS = {"*", "1-0", "0-1"}


def base_games(folder) -> list[tuple[str, list[str]]]:
    """1,000 random Hüpfer games as (header, actions)."""
    big = folder / "all.hpf"
    subprocess.run(
        [sys.executable, "-m", "hexhop.cli", "generate", "--game", "Hüpfer"]
        + ["--count", "1000", "--seed", "23", "--out", str(big)],
        check=True,
        capture_output=True,
    )
    texts = big.read_text("utf-8").split("\n\n[Game ")
    big.unlink()
    found = []
    for number, text in enumerate(texts):
        header, _, movetext = ("[Game " + text if number else text).partition("\n\n")
        words = movetext.split()
        found.append((header, [w for w in words if not w.endswith(".") and w not in RESULTS]))
    return found


def folders(tmp_path) -> None:
    """``small`` (1,000 games) and ``large`` (10,000: each game of small
    ten times, with 0 to 9 of its last actions left out, so that no two
    are the same game), in files of 100 games; each game has a long
    comment. The same actions are read in both (the reader's caches are
    as full)."""
    base = base_games(tmp_path)
    for name, variants in (("small", 1), ("large", 10)):
        (tmp_path / name).mkdir()
        games = [
            f"{PAD}{header}\n\n{' '.join(actions[: len(actions) - cut])} *\n"
            for cut in range(variants)
            for header, actions in base
        ]
        for number in range(0, len(games), 100):
            path = tmp_path / name / f"{number // 100:03d}.hpf"
            path.write_text("\n".join(games[number : number + 100]), "utf-8")


def peak(*args: str) -> float:
    code, mib = hexhop_peak_mib(*args)
    assert code in (0, 1), args
    return mib


@pytest.mark.slow
def test_ten_times_the_games_written_costs_at_most_4_mib_more(tmp_path):
    folders(tmp_path)
    for name in ("small", "large"):
        db = str(tmp_path / f"{name}.sqlite")
        assert subprocess.run(
            [sys.executable, "-m", "hexhop.cli", "index", "-q", "-j", "1"]
            + [str(tmp_path / name), "--db", db],
            capture_output=True,
        ).returncode in (0, 1)
    grown = {}
    for command in ("merge", "find", "dupes"):
        peaks = []
        for name in ("small", "large"):
            folder, out = str(tmp_path / name), str(tmp_path / f"{name}-{command}.hpf")
            args = {
                "merge": ["merge", folder, "--out", out],
                "find": ["find", folder, "--scan", "--export", out],
                "dupes": ["dupes", "--db", str(tmp_path / f"{name}.sqlite"), "--export", out],
            }[command]
            peaks.append(peak(*args))
        grown[command] = peaks[1] - peaks[0]
        assert (tmp_path / "large-merge.hpf").stat().st_size > 8_000_000
    assert all(more <= 4.0 for more in grown.values()), grown
