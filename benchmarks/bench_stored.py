"""The analysis kept in the index: what it costs, what it saves.

Writes ``--games`` random games of each game (cut at ``--plies``) into a
temporary folder, then times, each as its own ``hexhop`` process:

* ``index --analyse --depth D`` (the index and the analysis apart, as the
  command reports them), and a second run (nothing to analyse);
* ``find --missed-win``, ``find --blunder --min-depth 2``, ``stats
  --missed-win`` from the analysed index, with the rows of ``notes`` the
  query reads (its plan: one primary-key search per game);
* ``puzzles --depth D`` searched again and ``puzzles --db`` from the index,
  whose outputs must be the same, and the ratio of their times.

    python benchmarks/bench_stored.py [--games 300] [--plies 60] [--depth 1] [-j 2]

Wall-clock times on a shared machine are noisy: compare the ratio of the
two puzzle runs (same run, same machine), not the seconds across runs.
"""

from __future__ import annotations

import argparse
import filecmp
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hexhop.archive.query import Query

GAMES = (("Hexalit", "h.hxl"), ("Trigeo", "t.trg"), ("Hüpfer", "u.hpf"))


def hexhop(*args: object) -> tuple[float, str, str]:
    """Seconds, standard output and standard error of one ``hexhop`` run."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "hexhop.cli", *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"hexhop {' '.join(map(str, args))}: {done.returncode}\n{done.stderr}")
    return seconds, done.stdout, done.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--depth", type=int, default=1)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp)
        archive = root / "archive"
        archive.mkdir()
        for seed, (game, name) in enumerate(GAMES, 1):
            hexhop(
                *("generate", "--game", game, "--count", args.games, "--seed", seed),
                *("--max-plies", args.plies, "--out", archive / name, "-q"),
            )
        db = root / "archive.sqlite"
        depth = ("--depth", args.depth)
        seconds, _out, said = hexhop(
            "index", archive, "--db", db, "--analyse", *depth, "-j", args.jobs
        )
        indexed = re.search(r"positions in ([\d.,]+) s", said)
        analysed = re.search(r"Analysed (\d+) games.* in ([\d.,]+) s", said)
        print(f"games: {3 * args.games}, depth {args.depth}, -j {args.jobs}")
        print(f"index --analyse: {seconds:.2f} s", end="")
        if indexed and analysed:
            print(f" (index {indexed[1]} s, analysis of {analysed[1]} games {analysed[2]} s)")
        else:
            print()
        again, _out, _said = hexhop("index", archive, "--db", db, "--analyse", *depth)
        print(f"index --analyse again (nothing to analyse): {again:.2f} s")
        with sqlite3.connect(db) as connection:
            notes = connection.execute("SELECT count(*) FROM notes").fetchone()[0]
            games = connection.execute("SELECT count(*) FROM games").fetchone()[0]
            where, values = Query(notes=("missed",)).sql()
            plan = connection.execute(
                f"EXPLAIN QUERY PLAN SELECT g.id FROM games g WHERE {where}", values
            ).fetchall()
        print(f"notes stored: {notes}; plan of --missed-win: {[row[-1] for row in plan]}")
        for options in (["--missed-win"], ["--blunder", "--min-depth", "2"]):
            seconds, out, _said = hexhop("find", "--db", db, *options, "--format", "jsonl")
            hits = out.count("\n")
            print(f"find {' '.join(options)}: {hits} of {games} games, {seconds:.2f} s")
        seconds, _out, _said = hexhop("stats", "--db", db, "--missed-win", "--format", "json")
        print(f"stats --missed-win: {seconds:.2f} s")
        scan, stored = root / "scan", root / "stored"
        searched, _out, _said = hexhop("puzzles", archive, *depth, "--out-dir", scan, "-q")
        drawn, _out, _said = hexhop("puzzles", "--db", db, *depth, "--out-dir", stored, "-q")
        names = sorted(p.name for p in scan.iterdir())
        same = names == sorted(p.name for p in stored.iterdir()) and all(
            filecmp.cmp(scan / name, stored / name, shallow=False) for name in names
        )
        print(
            f"puzzles: {len(names)} files, searched {searched:.2f} s, from the index {drawn:.2f} s"
            f" ({searched / drawn:.2f}x), the same: {same}"
        )


if __name__ == "__main__":
    main()
