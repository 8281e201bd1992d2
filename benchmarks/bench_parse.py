"""Parsing speed: actions per second of ``read_archive`` on a large archive.

Builds a seeded archive of syntactically plausible random games (no rules:
the actions need not be legal) in all three games and reads it game by
game.  Usage: ``python benchmarks/bench_parse.py [games] [plies]``.
"""

from __future__ import annotations

import random
import sys
import time

from hexhop.notation import read_archive

_LETTERS = "ABCDEFG"


def _cell(rng: random.Random) -> str:
    return f"{rng.choice(_LETTERS)}{rng.randint(1, 7)}"


def _point(rng: random.Random) -> str:
    return f"{rng.choice('abcdef')}{rng.randint(1, 6)}"


def dice_action(rng: random.Random, game: str) -> str:
    roll = rng.random()
    if game == "Hexalit" and roll < 0.15:
        return f"{_cell(rng)}W{rng.randint(1, 6)}"
    op = "X" if roll < 0.75 else "°"
    text = f"{_cell(rng)}{op}{_cell(rng)}"
    if game == "Trigeo" and rng.random() < 0.05:
        text += f"={rng.randint(1, 6)}"
    return text + ("^" if rng.random() < 0.05 else "")


def hop_action(rng: random.Random) -> str:
    path = [_point(rng)]
    hops = rng.randint(0, 2)
    path += ["-" + _point(rng) for _ in range(hops)]
    if hops and rng.random() < 0.7:
        return "".join(path) + "@" + _point(rng)
    path += ["x" + _point(rng) for _ in range(rng.randint(1, 3))]
    return "".join(path)


def movetext(rng: random.Random, game: str, plies: int) -> str:
    words = []
    for ply in range(1, plies + 1):
        if ply % 2:
            words.append(f"{(ply + 1) // 2}.")
        words.append(hop_action(rng) if game == "Hüpfer" else dice_action(rng, game))
        if rng.random() < 0.02:
            words.append("{a comment on this action}")
        if rng.random() < 0.01:
            alternative = hop_action(rng) if game == "Hüpfer" else dice_action(rng, game)
            words.append(f"({(ply + 1) // 2}{'.' if ply % 2 else '...'} {alternative})")
    words.append(rng.choice(["1-0", "0-1", "*"]))
    lines, line = [], ""
    for word in words:
        if len(line) + len(word) + 1 > 79:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join(lines + [line])


def archive(games: int, plies: int, seed: int = 1) -> bytes:
    rng = random.Random(seed)
    parts = []
    for index in range(games):
        game = ("Hexalit", "Trigeo", "Hüpfer")[index % 3]
        header = (
            f'[Game "{game}"]\n[Event "Bench"]\n[Site "Here"]\n[Date "2024.05.01"]\n'
            f'[Round "{index + 1}"]\n[Result "*"]\n'
        )
        parts.append(header + "\n" + movetext(rng, game, plies) + "\n")
    return "\n".join(parts).encode("utf-8")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    plies = int(sys.argv[2]) if len(sys.argv) > 2 else 80
    data = archive(games, plies)
    start = time.perf_counter()
    list(read_archive(data[:2000]))  # build the grammars outside the timing
    warm = time.perf_counter() - start
    start = time.perf_counter()
    actions = errors = 0
    for game in read_archive(data):
        errors += not game.ok
        actions += len(game.record.main.nodes) if game.record else 0
    seconds = time.perf_counter() - start
    print(
        f"{games} games, {actions} actions, {len(data) / 1e6:.1f} MB, "
        f"{errors} with errors; grammars built in {warm:.2f} s"
    )
    print(f"{actions / seconds:,.0f} actions/s ({seconds:.2f} s)")


if __name__ == "__main__":
    main()
