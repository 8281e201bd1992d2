"""Peak memory of ``hexhop check`` as an archive grows, and the speed of ``-j``.

Writes random Hüpfer 6x6 games with ``hexhop generate`` as one file and as
a folder of files of 10 games, at 1x and ``--factor`` times the size, and
runs ``hexhop check`` on each in a child process: its peak resident memory
(its own ``VmHWM``) is what it costs. With ``--jobs``, also the wall and CPU
time of ``-j 1`` and ``-j N`` on the larger inputs, run in turns (the
machine may be shared: the medians of interleaved runs are compared).

    python benchmarks/bench_memory.py [--games 300] [--factor 10] [--jobs 2] [--check-jobs 1]
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

GAME_START = "\n\n[Game "


def generate(path: Path, games: int) -> None:
    subprocess.run(
        [sys.executable, "-m", "hexhop.cli", "generate", "--game", "Hüpfer"]
        + ["--count", str(games), "--seed", "1", "--out", str(path)],
        check=True,
        stdout=subprocess.DEVNULL,
    )


def games_of(path: Path) -> list[str]:
    first, *rest = path.read_text("utf-8").split(GAME_START)
    return [first] + ["[Game " + game for game in rest]


def write_inputs(root: Path, games: list[str], count: int, name: str) -> tuple[Path, Path]:
    """One file of the first ``count`` games, and a folder of files of 10 of them."""
    one = root / f"{name}.hpf"
    one.write_text("\n\n".join(games[:count]) + "\n", "utf-8")
    folder = root / name
    folder.mkdir()
    for start in range(0, count, 10):
        text = "\n\n".join(games[start : start + 10]) + "\n"
        (folder / f"{start // 10:05d}.hpf").write_text(text, "utf-8")
    return one, folder


# runs ``hexhop check ARGS`` and writes the CPU seconds of this process and
# of its workers, and its own peak memory in KiB (COMMAND: ``hexhop ARGS``)
_RUNNER = """
import resource, sys
from hexhop.cli.main import cli
try:
    cli(ARGS, prog_name="hexhop")
except SystemExit:
    pass
me = resource.getrusage(resource.RUSAGE_SELF)
them = resource.getrusage(resource.RUSAGE_CHILDREN)
# this process's own peak: ru_maxrss keeps the parent's high-water mark across exec
peak = me.ru_maxrss
try:
    with open("/proc/self/status") as status:
        peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
except (OSError, StopIteration):
    pass
print(me.ru_utime + me.ru_stime, them.ru_utime + them.ru_stime, peak, file=sys.stderr)
"""
ACCOUNTED = _RUNNER.replace("ARGS", '["check", *sys.argv[1:]]')
COMMAND = _RUNNER.replace("ARGS", "sys.argv[1:]")


def run(args: list[str]) -> tuple[float, float, float]:
    """(peak MiB, CPU seconds, wall seconds) of ``hexhop check ARGS`` in a child."""
    peak, cpu, wall, _main = accounted(args)
    return peak, cpu, wall


def accounted(args: list[str], runner: str = ACCOUNTED) -> tuple[float, float, float, float]:
    """(peak MiB, CPU seconds in all, wall seconds, CPU seconds of the main
    process) of ``hexhop check ARGS`` in a child (with ``runner=COMMAND``:
    ``hexhop ARGS``); its workers' CPU is the difference."""
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-c", runner, *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stderr is not None
    main_cpu, workers_cpu, peak = (float(x) for x in child.stderr.read().split()[-3:])
    child.wait()
    wall = time.perf_counter() - started
    return peak / 1024, main_cpu + workers_cpu, wall, main_cpu


def memory(
    inputs: dict[str, tuple[Path, Path]],
    factor: int,
    formats: list[str],
    extra: tuple[str, ...] = (),
) -> None:
    print(f"{'input':<8}{'format':<8}{'1x MiB':>9}{f'{factor}x MiB':>9}{'growth':>8}")
    small, large = inputs["1x"], inputs[f"{factor}x"]
    for kind, index in (("file", 0), ("folder", 1)):
        for fmt in formats:
            args = ["--quiet", "--format", fmt, *extra]
            a = statistics.median(run([*args, str(small[index])])[0] for _ in range(3))
            b = statistics.median(run([*args, str(large[index])])[0] for _ in range(3))
            print(f"{kind:<8}{fmt:<8}{a:>9.1f}{b:>9.1f}{b - a:>+8.1f}")


def parallel(target: Path, label: str, jobs: list[int], rounds: int) -> None:
    """Wall and CPU time of each ``-j``, in turns, ``rounds`` times, and
    the speed-up on idle cores that the CPU times allow: the main process
    (finding and cutting the input, reporting) and the workers overlap, so
    the wall time is at least the larger of the main process's CPU, the
    workers' CPU shared by the workers, and all CPU shared by the cores."""
    times: dict[int, list[tuple[float, float, float]]] = {j: [] for j in jobs}
    for _round in range(rounds):
        for j in jobs:
            _peak, cpu, wall, main_cpu = accounted(["--quiet", "-j", str(j), str(target)])
            times[j].append((wall, cpu, main_cpu))
    base_wall = statistics.median(t[0] for t in times[jobs[0]])
    base_cpu = statistics.median(t[1] for t in times[jobs[0]])
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    for j in jobs:
        wall, cpu, main_cpu = (statistics.median(t[i] for t in times[j]) for i in range(3))
        workers = cpu - main_cpu
        bound = max(main_cpu, workers / j, cpu / min(j + 1, cores or 1)) if j > 1 else cpu
        print(
            f"{label:<8}-j {j:<3}wall {wall:6.2f} s  CPU {cpu:6.2f} s "
            f"(main {main_cpu:5.2f}, workers {workers:5.2f})  "
            f"speed-up {base_wall / wall:4.2f}, on idle cores {base_cpu / bound:4.2f}  "
            f"(walls: {', '.join(f'{t[0]:.2f}' for t in times[j])})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games at 1x")
    parser.add_argument("--factor", type=int, default=10)
    parser.add_argument("--formats", default="text,json", help="report formats to measure")
    parser.add_argument("--jobs", type=int, default=0, help="also time -j 1 against -j JOBS")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds of -j")
    parser.add_argument(
        "--check-jobs", metavar="N", help="check's -j in the memory runs (default: its own choice)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        generate(root / "all.hpf", args.games * args.factor)
        games = games_of(root / "all.hpf")
        inputs = {
            "1x": write_inputs(root, games, args.games, "1x"),
            f"{args.factor}x": write_inputs(root, games, len(games), f"{args.factor}x"),
        }
        extra = ("-j", args.check_jobs) if args.check_jobs else ()
        memory(inputs, args.factor, args.formats.split(","), extra)
        if args.jobs:
            one, many = inputs[f"{args.factor}x"]
            parallel(one, "file", [1, args.jobs], args.rounds)
            parallel(many, "folder", [1, args.jobs], args.rounds)


if __name__ == "__main__":
    main()
