"""``index`` against ``check`` in instructions: what the index does beyond checking.

Builds, for each ``--game``, an archive of ``--games`` random games in two
files (the games of ``bench_index.py``, same seed) and a folder holding the
first game alone; then runs ``check -q -j 1`` and ``index -q -j 1`` of each
version under valgrind's cachegrind (no cache simulation,
``PYTHONHASHSEED=0``) on both, and prints each command's instructions on
the archive minus those on the one game (start-up, imports and the
index's creation cancel out) and check's share of the index's::

    pip install --no-deps --target /tmp/v-main .       # (at the other commit)
    pip install --no-deps --target /tmp/v-now .
    python benchmarks/bench_index_share.py /tmp/v-main /tmp/v-now [--game Hexalit]

A share of 0.9 means that indexing an archive costs 1.11x checking it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

from bench_index import build


def instructions(version: str, args: list[str]) -> int:
    """Instructions of ``python -m hexhop.cli ARGS`` with ``version`` first on the path."""
    env = dict(os.environ, PYTHONPATH=version, PYTHONHASHSEED="0")
    done = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
        + [sys.executable, "-m", "hexhop.cli", *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
    )
    line = next(line for line in done.stderr.splitlines() if "I   refs" in line)
    return int(line.split()[-1].replace(",", ""))


def archives(work: str, game: str, games: int, seed: int) -> tuple[str, str]:
    """(the folder of the archive, the folder of its first game alone)."""
    full, one = os.path.join(work, game, "full"), os.path.join(work, game, "one")
    os.makedirs(full)
    os.makedirs(one)
    build(full, game, games, 2, seed)
    first = sorted(os.listdir(full))[0]
    with open(os.path.join(full, first), encoding="utf-8") as part:
        text = part.read()
    second = text.index('[Game "', 1)
    with open(os.path.join(one, first), "w", encoding="utf-8") as alone:
        alone.write(text[:second].rstrip("\n") + "\n")
    return full, one


def cost(version: str, command: list[str], full: str, one: str, db: str) -> int:
    """Instructions of ``command`` on ``full`` minus on ``one`` (a new index each time)."""
    found = []
    for folder in (full, one):
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)
        extra = ["--db", db] if command[0] == "index" else []
        found.append(instructions(version, [*command, folder, *extra]))
    return found[0] - found[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("versions", nargs="+", metavar="VERSIONDIR")
    parser.add_argument("--game", action="append", help="default: Hüpfer and Hexalit")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=7)
    options = parser.parse_args()
    work = tempfile.mkdtemp(prefix="hexhop-bench-share-")
    try:
        db = os.path.join(work, "index.sqlite")
        for game in options.game or ["Hüpfer", "Hexalit"]:
            full, one = archives(work, game, options.games, options.seed)
            for version in options.versions:
                check = cost(version, ["check", "-q", "-j", "1"], full, one, db)
                index = cost(version, ["index", "-q", "-j", "1"], full, one, db)
                print(
                    f"{game}, {version}: check {check / 1e9:.3f} G, index {index / 1e9:.3f} G, "
                    f"share {check / index:.3f}",
                    flush=True,
                )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
