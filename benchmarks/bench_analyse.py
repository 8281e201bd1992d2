"""How fast the forced-win solver and ``hexhop analyse`` are.

For each game, random legal games of 100 plies (cut off there, or shorter
when one ends) are analysed at depth 1, 2 and 3 exactly as ``hexhop
analyse`` does it (every main-line position solved once, plus the checks
of the played action). Prints the solver's nodes (actions played), plies
per CPU second and the CPU time per 100 plies; then the time of depth 2
over samples/good.

With ``--reference`` the solver that searched immutable positions
(tests/reference/solver_reference.py, a checkout is needed) analyses the
same games in turns with today's, ``--rounds`` times each; the medians are
compared (old CPU time ÷ new: above 1 the in-place search is faster).

    python benchmarks/bench_analyse.py [--games 3] [--depths 1,2,3]
        [--huepfer-board 10] [--reference] [--rounds 3]

Instructions (docs/analysis.md): ``--only GAME --depths 2 [--old]`` under
cachegrind, less the same with ``--depths ""`` (making and replaying the
games only).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from hexhop.engine.generate import random_game
from hexhop.engine.replay import replay_game
from hexhop.notation import format_archive, read_archive
from hexhop.records import analysis
from hexhop.records.analysis import Settings, analyse_game, analyse_source
from hexhop.records.sources import iter_sources

GAMES = ("Hexalit", "Trigeo", "Hüpfer")
ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples" / "good"


def _reports(game: str, games: int, board: int, seed: int = 11) -> list[object]:
    rng = random.Random(seed)
    records = [random_game(game, rng, board=board, max_plies=100, cube=False) for _ in range(games)]
    text = format_archive(records).encode("utf-8")
    return [replay_game(parsed) for parsed in read_archive(text, path="bench")]


def bench_game(
    game: str, games: int, depth: int, seed: int = 11, board: int = 6
) -> tuple[float, int, int, int]:
    """CPU seconds, solver nodes, plies and undecided positions over ``games`` games."""
    return _analyse(_reports(game, games, board, seed), depth)


def _analyse(reports: list[object], depth: int) -> tuple[float, int, int, int]:
    seconds = 0.0
    nodes = plies = undecided = 0
    settings = Settings(depth=depth, node_limit=2_000_000, time_limit=600.0)
    for report in reports:
        started = time.process_time()
        found = analyse_game(report, settings)  # type: ignore[arg-type]
        seconds += time.process_time() - started
        nodes += found.nodes
        plies += found.analysed
        undecided += sum(n.kind == "undecided" for n in found.notes)
    return seconds, nodes, plies, undecided


def _reference_solver() -> type:
    sys.path.insert(0, str(ROOT / "tests" / "reference"))
    import solver_reference

    return solver_reference.Solver  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--depths", default="1,2,3")
    parser.add_argument("--huepfer-board", type=int, default=6, choices=(6, 8, 10))
    parser.add_argument("--reference", action="store_true")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", metavar="GAME", help="this game only (Hexalit, Trigeo, Hüpfer)")
    parser.add_argument(
        "--old", action="store_true", help="analyse with the old solver only (for cachegrind)"
    )
    args = parser.parse_args()
    depths = [int(d) for d in args.depths.split(",") if d]
    new_solver = analysis.Solver
    old_solver = _reference_solver() if args.reference or args.old else None
    if args.old:  # one solver, no pairing: instructions are counted from outside
        analysis.Solver = old_solver  # type: ignore[misc]
        old_solver = None
    if old_solver is None:
        print("| game | depth | plies | nodes | plies/s | s per 100 plies | undecided |")
        print("|---|---:|---:|---:|---:|---:|---:|")
    else:
        print(
            "| game | depth | plies | nodes old | nodes new | plies/s old | plies/s new "
            "| s/100 plies old | s/100 plies new | old ÷ new |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for game in GAMES:
        if args.only and game != args.only:
            continue
        board = args.huepfer_board if game == "Hüpfer" else 6
        label = f"{game} {board}x{board}" if game == "Hüpfer" else game
        reports = _reports(game, args.games, board)
        for depth in depths:
            if old_solver is None:
                seconds, nodes, plies, undecided = _analyse(reports, depth)
                rate = plies / seconds if seconds else 0.0
                per_100 = seconds / plies * 100 if plies else 0.0
                print(
                    f"| {label} | {depth} | {plies} | {nodes:,} | {rate:,.0f} | {per_100:.2f} "
                    f"| {undecided} |"
                )
                continue
            old_times, new_times = [], []
            for _ in range(args.rounds):
                analysis.Solver = old_solver  # type: ignore[misc]
                old_seconds, old_nodes, plies, _undecided = _analyse(reports, depth)
                analysis.Solver = new_solver  # type: ignore[misc]
                new_seconds, new_nodes, plies, _undecided = _analyse(reports, depth)
                old_times.append(old_seconds)
                new_times.append(new_seconds)
            old, new = statistics.median(old_times), statistics.median(new_times)
            print(
                f"| {label} | {depth} | {plies} | {old_nodes:,} | {new_nodes:,} "
                f"| {plies / old:,.0f} | {plies / new:,.0f} | {old / plies * 100:.2f} "
                f"| {new / plies * 100:.3f} | {old / new:.1f} |",
                flush=True,
            )
    if args.only:
        return
    started = time.process_time()
    plies = 0
    for source in iter_sources([str(SAMPLES)]):
        plies += sum(g.analysed for g in analyse_source(source, Settings(depth=2)).games)
    print(f"\nsamples/good at depth 2: {plies} plies in {time.process_time() - started:.2f} s")


if __name__ == "__main__":
    main()
