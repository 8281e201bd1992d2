"""The speed of ``hexhop check -j N`` on one large file and on a folder of small files.

Writes Hüpfer 6x6 games with ``hexhop generate`` (``--games``, 6,000 by
default) as one file and as a folder of one file per game, then runs
``hexhop check --quiet -j N`` on each in a child process, every ``-j`` in
turn, ``--rounds`` times. For each it prints the medians of the wall time,
the CPU time of the main process and of the workers (``RUSAGE_CHILDREN``),
and two ratios against the first ``-j``: the wall-time ratio (only
meaningful when the machine is otherwise idle: see the load printed) and
the ratio "on idle cores" that the CPU times allow. The main process and
the workers overlap, so on idle cores the wall time is at least the main
process's CPU, the workers' CPU shared by ``j`` workers and all CPU shared
by the cores: estimate = CPU of the first ``-j`` ÷ the largest of those.

    python benchmarks/bench_jobs.py [--games 6000] [--jobs 1,2] [--rounds 5] [--keep DIR]

``--site LABEL=DIR`` (repeatable) runs hexhop from DIR instead (a copy
installed with ``pip install --no-deps --target DIR``), in turns with the
other sites: two versions compared on the same load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_memory import ACCOUNTED  # the same child: its CPU, its workers', its peak

GAME_START = "\n\n[Game "


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def write_inputs(root: Path, games: int) -> tuple[Path, Path]:
    """One file of ``games`` Hüpfer 6x6 games, and a folder of one file per game."""
    one = root / "games.hpf"
    folder = root / "games"
    if one.exists() and folder.exists():
        return one, folder
    subprocess.run(
        [sys.executable, "-m", "hexhop.cli", "generate", "--game", "Hüpfer"]
        + ["--count", str(games), "--seed", "1", "--out", str(one), "--force"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    first, *rest = one.read_text("utf-8").split(GAME_START)
    folder.mkdir(exist_ok=True)
    for number, game in enumerate([first] + ["[Game " + game for game in rest]):
        (folder / f"{number:05d}.hpf").write_text(game.rstrip("\n") + "\n", "utf-8")
    return one, folder


def accounted(args: list[str], site: str | None) -> tuple[float, float, float]:
    """(wall seconds, CPU of the main process, CPU of its workers) of
    ``hexhop check ARGS`` in a child process (hexhop from ``site`` if given)."""
    env = dict(os.environ, PYTHONPATH=site) if site else None
    started = time.perf_counter()
    child = subprocess.run(
        [sys.executable, "-c", ACCOUNTED, *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        env=env,
    )
    wall = time.perf_counter() - started
    main_cpu, workers_cpu, _peak = (float(x) for x in child.stderr.split()[-3:])
    return wall, main_cpu, workers_cpu


def measure(target: Path, label: str, jobs: list[int], rounds: int, sites: list[str]) -> None:
    runs = [(site, j) for site in sites for j in jobs]
    times: dict[tuple[str, int], list[tuple[float, float, float]]] = {run: [] for run in runs}
    for _round in range(rounds):
        for site, j in runs:
            folder = site.partition("=")[2] or None
            times[site, j].append(accounted(["--quiet", "-j", str(j), str(target)], folder))
    n = cores()
    base_wall = base_cpu = 0.0
    for site, j in runs:
        wall, main_cpu, workers = (
            statistics.median(t[i] for t in times[site, j]) for i in range(3)
        )
        cpu = main_cpu + workers
        processes = j or n
        bound = max(main_cpu, workers / processes, cpu / n) if workers else cpu
        if j == jobs[0]:
            base_wall, base_cpu = wall, cpu
        print(
            f"{label:<7}{site.partition('=')[0]:<8}-j {j:<3}wall {wall:5.2f} s  CPU {cpu:5.2f} s "
            f"(main {main_cpu:4.2f}, workers {workers:4.2f})  "
            f"wall ratio {base_wall / wall:4.2f}, on idle cores {base_cpu / bound:4.2f}  "
            f"(walls: {', '.join(f'{t[0]:.2f}' for t in times[site, j])})",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--jobs", default="1,2", help="the -j values, in turns (first: the base)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds")
    parser.add_argument("--only", choices=["file", "folder"], help="measure one input only")
    parser.add_argument("--keep", metavar="DIR", help="write the inputs here and reuse them")
    parser.add_argument(
        "--site", action="append", metavar="LABEL=DIR", help="hexhop installed in DIR"
    )
    args = parser.parse_args()
    jobs = [int(j) for j in args.jobs.split(",")]
    sites = args.site or ["here"]
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(args.keep or scratch)
        root.mkdir(parents=True, exist_ok=True)
        one, folder = write_inputs(root, args.games)
        print(f"load before: {os.getloadavg()[0]:.2f} on {cores()} cores", flush=True)
        if args.only != "folder":
            measure(one, "file", jobs, args.rounds, sites)
        if args.only != "file":
            measure(folder, "folder", jobs, args.rounds, sites)
        print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
