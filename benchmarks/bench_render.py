"""Frames per second of hexhop.render next to python-chess's chess.svg.

Plays seeded random games (the engines' legal actions for Hexalit, Trigeo
and Hüpfer 8x8, python-chess's legal moves for chess), then draws every
position with its last action highlighted, as a replay or GIF export does:

- SVG: ``board_svg`` vs ``chess.svg.board`` (warm: board geometry already
  built; the first frame of a process builds it once);
- PNG: whole frames on both sides, ``svg_to_png(board_svg(...))`` vs
  ``cairosvg.svg2png(chess.svg.board(...))``, the same number of frames,
  in turns (hexhop, chess, hexhop, …) for ``--rounds`` rounds; medians.
  hexhop's raster cache is emptied before each of its turns, so every turn
  draws the game's first frame from nothing, as a fresh process would.

All rates are frames per CPU second of this process: on a shared machine
other work stretches wall time.

Run: ``python benchmarks/bench_render.py [--plies 60] [--png-frames 30] [--rounds 5]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

SIZE = 400


def game_frames(game: str, tags: dict[str, str], plies: int, seed: int) -> list[tuple[Any, Any]]:
    """(position, last action) pairs of a seeded random game."""
    from hexhop.engine.games import rules_for
    from hexhop.render import describe_last

    rules = rules_for(game)
    position = rules.start(tags, None)
    rng = random.Random(seed)
    frames: list[tuple[Any, Any]] = [(position, None)]
    while len(frames) <= plies and position.winner is None:
        actions = sorted(rules.legal_actions(position), key=str)
        if not actions:
            break
        action = rng.choice(actions)
        after = rules.play(position, action).position
        frames.append((after, describe_last(position, after, action)))
        position = after
    return frames


def chess_frames(plies: int, seed: int) -> list[tuple[Any, Any]]:
    import chess

    board = chess.Board()
    rng = random.Random(seed)
    frames: list[tuple[Any, Any]] = [(board.copy(), None)]
    while len(frames) <= plies and not board.is_game_over():
        move = rng.choice(sorted(board.legal_moves, key=lambda m: m.uci()))
        board.push(move)
        frames.append((board.copy(), move))
    return frames


def rate(draw: Callable[[Any, Any], Any], frames: Sequence[tuple[Any, Any]], repeat: int) -> float:
    """Frames per CPU second over ``repeat`` passes through ``frames``."""
    start = time.process_time()
    for _ in range(repeat):
        for position, last in frames:
            draw(position, last)
    return repeat * len(frames) / (time.process_time() - start)


def png_rates(
    ours: Callable[[], object], theirs: Callable[[], object], frames: int, rounds: int
) -> tuple[float, float, list[float]]:
    """Median frames per CPU second of ``ours`` and ``theirs`` (each draws
    ``frames`` frames), run in turns, and the ratio of each round. CPU
    time, because other work on a shared machine stretches wall time."""
    from hexhop.render import raster

    mine: list[float] = []
    chess: list[float] = []
    for _ in range(rounds):
        raster.CACHE.clear()
        start = time.process_time()
        ours()
        mine.append(frames / (time.process_time() - start))
        start = time.process_time()
        theirs()
        chess.append(frames / (time.process_time() - start))
    ratios = [a / b for a, b in zip(mine, chess, strict=True)]
    return statistics.median(mine), statistics.median(chess), ratios


def first_frame_ms(game: str, tags: dict[str, str]) -> float:
    """Time of the very first frame in a fresh interpreter state: the static
    board is built then (cleared caches stand in for a fresh process)."""
    from hexhop.engine.games import rules_for
    from hexhop.render import board_svg, dice, geometry, huepfer

    for module in (dice, geometry, huepfer):
        for value in vars(module).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()
    position = rules_for(game).start(tags, None)
    start = time.process_time()
    board_svg(position, size=SIZE)
    return (time.process_time() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=60, help="plies per game (default 60)")
    parser.add_argument("--repeat", type=int, default=5, help="SVG passes (default 5)")
    parser.add_argument(
        "--png-frames", type=int, default=30, help="frames rasterised per game (default 30)"
    )
    parser.add_argument("--rounds", type=int, default=5, help="PNG turns per side (default 5)")
    args = parser.parse_args()

    import cairosvg
    import chess
    import chess.svg

    from hexhop.render import board_svg, svg_to_png

    chess_games = chess_frames(args.plies, 7)

    def chess_svg(board: Any, move: Any) -> str:
        return chess.svg.board(board, lastmove=move, size=SIZE)

    def ours(position: Any, last: Any) -> str:
        return board_svg(position, last=last, size=SIZE)

    chess_svg_rate = rate(chess_svg, chess_games, args.repeat)
    chess_png = chess_games[: args.png_frames]

    print(
        f"{'':14} {'SVG/s':>9} {'× chess':>8} {'PNG/s':>7} {'chess':>7} "
        f"{'× chess':>8} {'rounds':>11} {'1st ms':>7}"
    )
    print(f"{'chess.svg':14} {chess_svg_rate:9.0f} {1:8.2f}")
    for label, game, tags, seed in (
        ("Hexalit", "Hexalit", {}, 1),
        ("Trigeo", "Trigeo", {}, 2),
        ("Hüpfer 6x6", "Hüpfer", {}, 3),
        ("Hüpfer 8x8", "Hüpfer", {"Board": "8x8"}, 4),
        ("Hüpfer 10x10", "Hüpfer", {"Board": "10x10"}, 5),
    ):
        first = first_frame_ms(game, tags)
        frames = game_frames(game, tags, args.plies, seed)
        svg_rate = rate(ours, frames, args.repeat)
        png_frames = frames[: args.png_frames]
        count = min(len(png_frames), len(chess_png))

        def our_pngs(todo: Sequence[tuple[Any, Any]] = png_frames[:count]) -> None:
            for position, last in todo:
                svg_to_png(ours(position, last), size=SIZE)

        def their_pngs(todo: Sequence[tuple[Any, Any]] = chess_png[:count]) -> None:
            for board, move in todo:
                cairosvg.svg2png(bytestring=chess_svg(board, move).encode("utf-8"))

        png_rate, chess_rate, ratios = png_rates(our_pngs, their_pngs, count, args.rounds)
        spread = f"{min(ratios):.2f}–{max(ratios):.2f}"
        print(
            f"{label:14} {svg_rate:9.0f} {svg_rate / chess_svg_rate:8.2f} "
            f"{png_rate:7.1f} {chess_rate:7.1f} {png_rate / chess_rate:8.2f} "
            f"{spread:>11} {first:7.2f}"
        )
    print(
        f"({len(chess_games)} chess frames for SVG; {args.plies} plies per game; "
        f"PNG: {args.png_frames} frames a turn, {args.rounds} turns a side, medians; "
        f"size {SIZE} px)"
    )


if __name__ == "__main__":
    main()
