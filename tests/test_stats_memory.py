"""``stats`` counts with flat memory: the opening tree
is counted and chosen in SQL, in a temporary database that spills to disk,
and written out as it is read, so that ``--depth 16 --top 100000`` of twice
the games takes no more memory (it took 250 MB for 6,000 games and 456 MB
for 12,000)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from archive_helpers import run
from child_peak import hexhop_peak_mib

SMALL = 2000  # games; the large index has twice as many
MAKE = """
from pathlib import Path
from hexhop.engine.generate import random_archive
from hexhop.notation import format_archive


def make(games: int, folder: Path) -> None:
    folder.mkdir()
    for part in range(games // 500):
        text = format_archive(random_archive("Hüpfer", 500, part, board=6, max_plies=40))
        (folder / f"{part}.hpf").write_text(text, "utf-8")
"""
MAKE_IN_A_PROCESS = MAKE + "import sys\nmake(int(sys.argv[1]), Path(sys.argv[2]))\n"


def _index(root: Path, games: int, *, apart: bool = True) -> Path:
    """An index of ``games`` random games, made in a process of their own
    (``apart``: so that they are not in this one's memory) or in this one."""
    folder, db = root / f"g{games}", root / f"g{games}.sqlite"
    if apart:
        made = [sys.executable, "-c", MAKE_IN_A_PROCESS, str(games), str(folder)]
        subprocess.run(made, check=True)
    else:
        here: dict[str, Any] = {}
        exec(MAKE, here)
        here["make"](games, folder)
    assert run("index", "-q", "-j", "1", folder, "--db", db).exit_code == 0
    return db


@pytest.mark.slow
def test_the_opening_tree_takes_flat_memory(tmp_path: Path) -> None:
    args = ("--opening-depth", "16", "--top", "100000", "--format", "json")
    peaks = []
    for games in (SMALL, 2 * SMALL):
        code, peak = hexhop_peak_mib("stats", "--db", str(_index(tmp_path, games)), *args)
        assert code == 0
        peaks.append(peak)
    # before: about 33 MB more per 1,000 games
    assert peaks[1] - peaks[0] < 6, peaks


@pytest.mark.slow  # 1.4 s: test_stats checks the tree of small archives in the quick tier
def test_the_tree_written_out_is_the_whole_tree(tmp_path: Path) -> None:
    """Every game is under one first action and under one path of the
    tree: the counts of a level add up to those of the level above."""
    db = _index(tmp_path, 500, apart=False)  # no memory is measured here
    done = run("stats", "--db", db, "--opening-depth", "16", "--top", "100000", "--format", "json")
    assert done.exit_code == 0
    tree = json.loads(done.stdout)["openings"][0]

    def check(node: dict) -> None:
        if node["children"]:
            assert sum(child["games"] for child in node["children"]) <= node["games"]
        for child in node["children"]:
            assert sum(child["wins"].values()) + child["open"] == child["games"]
            check(child)

    assert sum(child["games"] for child in tree["children"]) == 500
    check(tree)
    table = run("stats", "--db", db, "--opening-depth", "3", "--top", "2")
    assert table.exit_code == 0 and "Openings" in table.stdout
