"""How fast ``hexhop check`` is, next to python-chess reading PGN.

Builds archives of random legal games of each game (and Hüpfer board size),
checks them in this process (parsing included, exactly what ``hexhop
check`` does per file) and, in the same run, lets python-chess read and
check a PGN archive with the same number of plies. Prints plies/s and the
ratio; with ``--memory`` also the peak memory of ``hexhop check`` on an
archive ten times larger (run as a child process).

    pip install '.[bench]'
    python benchmarks/bench_check.py [--games 300] [--memory]
"""

from __future__ import annotations

import argparse
import io
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

from hexhop.engine.generate import random_archive
from hexhop.engine.replay import replay_game
from hexhop.notation import format_archive, read_archive

CASES = [
    ("Hexalit", 6, ".hxl"),
    ("Trigeo", 6, ".trg"),
    ("Hüpfer", 6, ".hpf"),
    ("Hüpfer", 8, ".hpf"),
    ("Hüpfer", 10, ".hpf"),
]


def build(game: str, board: int, games: int, seed: int = 7) -> bytes:
    return format_archive(random_archive(game, games, seed, board=board, max_plies=150)).encode(
        "utf-8"
    )


def check_speed(data: bytes, path: str, repeat: int = 3) -> tuple[float, int, int]:
    """(seconds of the best run, plies, invalid games) for checking ``data``."""
    best = float("inf")
    plies = invalid = 0
    for _ in range(repeat):
        started = time.perf_counter()
        plies = invalid = 0
        for parsed in read_archive(data, path=path):
            report = replay_game(parsed)
            plies += report.plies
            invalid += not report.valid()
        best = min(best, time.perf_counter() - started)
    return best, plies, invalid


def chess_pgn(plies_per_game: list[int], seed: int = 7) -> str:
    """Random legal chess games with the given lengths, as one PGN archive."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    out = io.StringIO()
    for length in plies_per_game:
        board = chess.Board()
        game = chess.pgn.Game()
        node = game
        while len(board.move_stack) < length and not board.is_game_over():
            move = rng.choice(list(board.legal_moves))
            node = node.add_variation(move)
            board.push(move)
        print(game, file=out, end="\n\n")
    return out.getvalue()


def chess_speed(pgn: str, repeat: int = 3) -> tuple[float, int]:
    import chess.pgn

    best = float("inf")
    plies = 0
    for _ in range(repeat):
        started = time.perf_counter()
        plies = 0
        stream = io.StringIO(pgn)
        while (game := chess.pgn.read_game(stream)) is not None:
            plies += sum(1 for _ in game.mainline_moves())
        best = min(best, time.perf_counter() - started)
    return best, plies


def plies_per_game(data: bytes, path: str) -> list[int]:
    return [replay_game(parsed).plies for parsed in read_archive(data, path=path)]


def peak_memory_kib(data: bytes, suffix: str) -> int:
    """Peak resident memory of ``hexhop check`` on ``data``, in KiB."""
    with tempfile.NamedTemporaryFile(suffix=suffix, delete=False) as handle:
        handle.write(data)
    try:
        subprocess.run(
            [sys.executable, "-m", "hexhop.cli", "check", "--quiet", handle.name],
            stdout=subprocess.DEVNULL,
            check=False,
        )
        return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    finally:
        os.unlink(handle.name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per archive")
    parser.add_argument(
        "--memory", action="store_true", help="also measure peak memory on a 10x archive"
    )
    args = parser.parse_args()
    print(
        f"{'archive':<16}{'games':>7}{'plies':>9}{'hexhop plies/s':>16}"
        f"{'games/s':>9}{'chess plies/s':>15}{'ratio':>7}"
    )
    for game, board, suffix in CASES:
        data = build(game, board, args.games)
        seconds, plies, invalid = check_speed(data, "bench" + suffix)
        assert invalid == 0, f"{invalid} generated {game} games did not pass the check"
        pgn = chess_pgn(plies_per_game(data, "bench" + suffix))
        chess_seconds, chess_plies = chess_speed(pgn)
        ours, theirs = plies / seconds, chess_plies / chess_seconds
        label = game if game != "Hüpfer" else f"Hüpfer {board}x{board}"
        print(
            f"{label:<16}{args.games:>7}{plies:>9}{ours:>16,.0f}"
            f"{args.games / seconds:>9,.0f}{theirs:>15,.0f}{ours / theirs:>7.2f}"
        )
    if args.memory:
        small = build("Hexalit", 6, args.games)
        print(f"peak memory, {args.games} Hexalit games: {peak_memory_kib(small, '.hxl')} KiB")
        big = small * 10
        print(f"peak memory, {args.games * 10} Hexalit games: {peak_memory_kib(big, '.hxl')} KiB")


if __name__ == "__main__":
    main()
