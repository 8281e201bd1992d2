"""How fast the forced-win solver and ``hexhop analyse`` are.

For each game, random legal games of 100 plies (cut off there, or shorter
when one ends) are analysed at depth 1, 2 and 3 exactly as ``hexhop
analyse`` does it (every main-line position solved once, plus the checks
of the played action). Prints the solver's nodes (actions played) per
second and the time per 100 plies; then the time of depth 2 over
samples/good.

    python benchmarks/bench_analyse.py [--games 3] [--depths 1,2,3]
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from hexhop.engine.generate import random_game
from hexhop.engine.replay import replay_game
from hexhop.notation import format_archive, read_archive
from hexhop.records.analysis import Settings, analyse_game, analyse_source
from hexhop.records.sources import iter_sources

GAMES = ("Hexalit", "Trigeo", "Hüpfer")
SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "good"


def bench_game(game: str, games: int, depth: int, seed: int = 11) -> tuple[float, int, int, int]:
    """Seconds, solver nodes, plies and undecided positions over ``games`` games."""
    rng = random.Random(seed)
    records = [random_game(game, rng, max_plies=100, cube=False) for _ in range(games)]
    text = format_archive(records).encode("utf-8")
    seconds = 0.0
    nodes = plies = undecided = 0
    settings = Settings(depth=depth, node_limit=2_000_000, time_limit=60.0)
    for parsed in read_archive(text, path="bench"):
        report = replay_game(parsed)
        started = time.perf_counter()
        analysis = analyse_game(report, settings)
        seconds += time.perf_counter() - started
        nodes += analysis.nodes
        plies += analysis.analysed
        undecided += sum(n.kind == "undecided" for n in analysis.notes)
    return seconds, nodes, plies, undecided


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--depths", default="1,2,3")
    args = parser.parse_args()
    depths = [int(d) for d in args.depths.split(",")]
    print("| game | depth | plies | nodes | nodes/s | s per 100 plies | undecided |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for game in GAMES:
        for depth in depths:
            seconds, nodes, plies, undecided = bench_game(game, args.games, depth)
            rate = nodes / seconds if seconds else 0.0
            per_100 = seconds / plies * 100 if plies else 0.0
            print(
                f"| {game} | {depth} | {plies} | {nodes:,} | {rate:,.0f} | {per_100:.2f} "
                f"| {undecided} |"
            )
    started = time.perf_counter()
    plies = 0
    for source in iter_sources([str(SAMPLES)]):
        plies += sum(g.analysed for g in analyse_source(source, Settings(depth=2)).games)
    print(f"\nsamples/good at depth 2: {plies} plies in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
