"""How fast ``hexhop check`` is, next to python-chess reading PGN.

Builds archives of random legal games of each game (and Hüpfer board size),
checks them in this process (parsing included, exactly what ``hexhop
check`` does per file) and, in the same run, lets python-chess read and
check a PGN archive with the same number of plies. The two take turns
(hexhop, python-chess, hexhop, ...) and the medians of the CPU times are
compared, as the machine may be shared. Prints plies/s, the ratio and the
cost of a game with headers only; with ``--memory`` also the peak memory
of ``hexhop check`` on an archive ten times larger (run as a child process).

    pip install '.[bench]'
    python benchmarks/bench_check.py [--games 300] [--memory]

On a busy machine CPU times still move; instruction counts do not.
``--write DIR`` writes the archives, their PGN twins and header-only
archives, and ``--passes N FILE`` checks one of them N times (a ``.pgn``
with python-chess), to run under ``valgrind --tool=cachegrind``: the
instructions of 3 passes minus those of 1, halved, are one pass.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

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


def check(data: bytes, path: str) -> tuple[int, int]:
    """(plies, invalid games) of checking ``data`` as ``hexhop check`` does."""
    plies = invalid = 0
    for parsed in read_archive(data, path=path):
        report = replay_game(parsed)
        plies += report.plies
        invalid += not report.valid()
    return plies, invalid


def cpu_time(run: Callable[[], object]) -> float:
    started = time.process_time()
    run()
    return time.process_time() - started


def paired(first: Callable[[], object], second: Callable[[], object], rounds: int) -> list[float]:
    """The CPU seconds of ``first`` and ``second`` run in turns: medians of each."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(rounds):
        times[0].append(cpu_time(first))
        times[1].append(cpu_time(second))
    return [statistics.median(t) for t in times]


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


def chess_read(pgn: str) -> int:
    import chess.pgn

    plies = 0
    stream = io.StringIO(pgn)
    while (game := chess.pgn.read_game(stream)) is not None:
        plies += sum(1 for _ in game.mainline_moves())
    return plies


def headers_only(data: bytes) -> bytes:
    """The archive with every movetext left out (the tags and result tag stay)."""
    return re.sub(rb"\n\n(?!\[)[^\[]*?(?=\n\n\[|\Z)", b"\n\n", data)


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


def write(folder: str, games: int) -> None:
    os.makedirs(folder, exist_ok=True)
    for game, board, suffix in CASES:
        data = build(game, board, games)
        name = os.path.join(folder, f"{game}{board}")
        with open(name + suffix, "wb") as handle:
            handle.write(data)
        with open(name + ".head" + suffix, "wb") as handle:
            handle.write(headers_only(data))
        with open(name + ".pgn", "w", encoding="utf-8") as handle:
            handle.write(chess_pgn(plies_per_game(data, name + suffix)))


def passes(path: str, count: int) -> None:
    """Check ``path`` ``count`` times, after one game to load everything."""
    if path.endswith(".pgn"):
        with open(path, encoding="utf-8") as handle:
            pgn = handle.read()
        chess_read(pgn.split("\n\n[", 1)[0])
        for _ in range(count):
            chess_read(pgn)
        return
    with open(path, "rb") as handle:
        data = handle.read()
    check(data.split(b"\n\n[", 1)[0], path)
    for _ in range(count):
        check(data, path)


def measure(game: str, board: int, suffix: str, games: int, rounds: int) -> None:
    """One line of the table: hexhop and python-chess in turns, and headers only."""
    path = "bench" + suffix
    data = build(game, board, games)
    plies, invalid = check(data, path)
    assert invalid == 0, f"{invalid} generated {game} games did not pass the check"
    pgn = chess_pgn(plies_per_game(data, path))
    chess_plies = chess_read(pgn)  # a chess game may end sooner
    ours, theirs = paired(lambda: check(data, path), lambda: chess_read(pgn), rounds)
    heads = headers_only(data)
    head = statistics.median(cpu_time(lambda: check(heads, path)) for _ in range(rounds))
    label = game if game != "Hüpfer" else f"Hüpfer {board}x{board}"
    print(
        f"{label:<14}{plies:>8}{plies / ours:>16,.0f}{chess_plies / theirs:>15,.0f}"
        f"{plies / ours / (chess_plies / theirs):>7.2f}{head / games * 1e6:>11.1f} µs",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per archive")
    parser.add_argument("--rounds", type=int, default=5, help="turns of each side")
    parser.add_argument(
        "--memory", action="store_true", help="also measure peak memory on a 10x archive"
    )
    parser.add_argument("--write", metavar="DIR", help="only write the archives into DIR")
    parser.add_argument("--passes", nargs=2, metavar=("N", "FILE"), help="only check FILE N times")
    args = parser.parse_args()
    if args.write:
        write(args.write, args.games)
        return
    if args.passes:
        passes(args.passes[1], int(args.passes[0]))
        return
    print(
        f"{'archive':<14}{'plies':>8}{'hexhop plies/s':>16}{'chess plies/s':>15}"
        f"{'ratio':>7}{'headers only':>14}"
    )
    for game, board, suffix in CASES:
        measure(game, board, suffix, args.games, args.rounds)
    if args.memory:
        small = build("Hexalit", 6, args.games)
        print(f"peak memory, {args.games} Hexalit games: {peak_memory_kib(small, '.hxl')} KiB")
        big = small * 10
        print(f"peak memory, {args.games * 10} Hexalit games: {peak_memory_kib(big, '.hxl')} KiB")


if __name__ == "__main__":
    main()
