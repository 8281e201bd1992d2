"""How fast ``hexhop index`` and ``hexhop find`` are, next to ``check`` and pgn-extract.

Builds an archive of random legal games (in several files, players drawn
from a list of names), then runs, each as a child process of its own:

- ``hexhop check -q`` and ``hexhop index`` on it, ``--repeat`` times in
  turn (the machine may be shared: the median of the ratios counts): CPU
  seconds and games per CPU second (the index's per-core throughput as a
  share of check's), the index's size next to the archive's;
- with ``--cachegrind``, the same ratio in instructions (valgrind's
  cachegrind) on the first two files: a figure that load does not move;
- the peak memory (the child's own ``VmHWM``) of ``check -j 1`` and
  ``index`` (both in one process) on archives of each of
  ``--memory-games`` games (built too), in two layouts: in ``--files``
  files, and in files of ``--per-file`` games;
- ``hexhop find --player`` and ``--position`` on the index: wall seconds,
  start-up included (the median of five runs);
- in the same run, pgn-extract (``apt-get install pgn-extract``) on a PGN
  archive of as many random chess games of the same lengths, made with
  python-chess: its player filter (``-Tp``) and duplicate detection
  (``-D``) against ``hexhop find --player`` and ``hexhop dupes``, as ratios.

    pip install '.[bench]'
    python benchmarks/bench_index.py [--games 10000] [--files 10] [--game Hüpfer]
        [--repeat 3] [--memory-games 10000 100000] [--per-file 1000] [--cachegrind]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import NamedTuple

from bench_memory import COMMAND, accounted

from hexhop.engine.generate import random_archive
from hexhop.engine.replay import replay_game
from hexhop.notation import format_archive
from hexhop.notation.games import find_game
from hexhop.notation.model import ParsedGame, Record, Tag

FIRST = ["Anna", "Jürgen", "Zoë", "Karl", "Ute", "Mira", "Paul", "Lena", "Jonas", "Élise"]
LAST = ["Müller", "Berger", "Keller", "Brandt", "Sommer", "Hansen", "Ohlsen", "Voss", "Weiß"]
NAMES = [f"{first} {last}" for first in FIRST for last in LAST]  # 90 players
_SCRIPT = os.path.join(os.path.dirname(sys.executable), "hexhop")
HEXHOP = [_SCRIPT] if os.path.exists(_SCRIPT) else [sys.executable, "-m", "hexhop.cli"]
HEXHOP_PY = [sys.executable, "-m", "hexhop.cli"]  # under valgrind: the interpreter itself


def named(records: list[Record], sides: tuple[str, str], rng: random.Random) -> list[Record]:
    """The records with players drawn from :data:`NAMES` instead of "Random"."""
    out = []
    for record in records:
        players = dict(zip(sides, rng.sample(NAMES, 2)))
        tags = tuple(Tag(t.name, players.get(t.name, t.value), t.span) for t in record.tags)
        out.append(Record(tags, record.game, record.main, record.result, None, record.index))
    return out


def built(folder: str, game: str, games: int, files: int, seed: int) -> tuple[list[int], str]:
    """:func:`build` in a process of its own: the games made are not in this
    process, whose memory every child starts with (and counts in its peak)."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(1) as pool:
        return pool.submit(build, folder, game, games, files, seed).result()


def build(folder: str, game: str, games: int, files: int, seed: int) -> tuple[list[int], str]:
    """Write the archive; (plies of each game, the Position text of a middle position)."""
    spec = find_game(game)
    rng = random.Random(seed)
    lengths: list[int] = []
    position = ""
    per_file = -(-games // files)
    for number in range(files):
        count = min(per_file, games - number * per_file)
        if count <= 0:
            break
        records = named(
            list(random_archive(game, count, seed + number, max_plies=150)), spec.sides, rng
        )
        for record in records:
            lengths.append(len(record.main.nodes))
        if not position:
            report = replay_game(ParsedGame(1, records[0]))
            position = report.positions[len(report.positions) // 2].text()
        path = os.path.join(folder, f"part-{number:03d}{spec.extension}")
        with open(path, "w", encoding="utf-8") as out:
            out.write(format_archive(records))
    return lengths, position


def chess_pgn(path: str, lengths: list[int], seed: int) -> None:
    """Random legal chess games of the given lengths, players from :data:`NAMES`."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as out:
        for length in lengths:
            board = chess.Board()
            game = chess.pgn.Game()
            game.headers["White"], game.headers["Black"] = rng.sample(NAMES, 2)
            node = game
            while len(board.move_stack) < length and not board.is_game_over():
                move = rng.choice(list(board.legal_moves))
                node = node.add_variation(move)
                board.push(move)
            print(game, file=out, end="\n\n")


def child(args: list[str]) -> tuple[float, float, int, int]:
    """(wall seconds, CPU seconds, peak memory in MiB, exit status) of a child process."""
    started = time.perf_counter()
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024, status >> 8


def measured(args: list[str]) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak MiB) of ``hexhop ARGS`` run in a
    child of its own: its own peak, not the high-water mark it starts with."""
    peak, cpu, wall, _main = accounted(args, COMMAND)
    return wall, cpu, peak


def median_wall(args: list[str], runs: int = 5) -> float:
    return statistics.median(child(args)[0] for _ in range(runs))


def fresh(db: str) -> None:
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)


def instructions(args: list[str]) -> int:
    """Instructions a child process runs (valgrind's cachegrind, no cache simulation)."""
    done = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
        + args,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
    )
    line = next(line for line in done.stderr.splitlines() if "I   refs" in line or "I refs" in line)
    return int(line.split()[-1].replace(",", ""))


class Peaks(NamedTuple):
    files: int
    text: float  # MiB
    check: float  # MiB
    index: float


def peaks(work: str, game: str, games: int, layouts: list[int], seed: int) -> list[Peaks]:
    """(files, MiB of text, check's and index's peak MiB) on a new archive of
    ``games`` games in each number of files of ``layouts``: the same games,
    built in the most files and put together for fewer."""
    many = max(layouts)
    folder = os.path.join(work, f"memory-{games}-{many}")
    os.mkdir(folder)
    built(folder, game, games, many, seed)
    names = sorted(os.listdir(folder))
    text = sum(os.path.getsize(os.path.join(folder, name)) for name in names) / 2**20
    found = []
    for files in sorted(layouts):
        target = folder
        if files != many:
            target = os.path.join(work, f"memory-{games}-{files}")
            os.mkdir(target)
            per = -(-len(names) // files)
            for number in range(0, len(names), per):
                with open(os.path.join(target, f"part-{number:03d}.hpf"), "wb") as out:
                    for name in names[number : number + per]:
                        with open(os.path.join(folder, name), "rb") as part:
                            out.write(part.read() + b"\n")
        db = os.path.join(work, f"memory-{games}-{files}.sqlite")
        check = measured(["check", "-q", "-j", "1", target])
        index = measured(["index", "-q", "-j", "1", target, "--db", db])
        found.append(Peaks(files, text, check[2], index[2]))
        fresh(db)
        if target != folder:
            shutil.rmtree(target)
    shutil.rmtree(folder)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--files", type=int, default=10)
    parser.add_argument("--game", default="Hüpfer")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3, help="check and index runs in turn")
    parser.add_argument(
        "--memory-games", type=int, nargs="*", default=[10_000, 100_000], metavar="N"
    )
    parser.add_argument(
        "--per-file", type=int, default=1000, help="games a file in the second memory layout"
    )
    parser.add_argument("--cachegrind", action="store_true", help="count instructions too")
    parser.add_argument(
        "--pgn-extract", default=shutil.which("pgn-extract") or "/usr/games/pgn-extract"
    )
    options = parser.parse_args()

    work = tempfile.mkdtemp(prefix="hexhop-bench-index-")
    try:
        folder = os.path.join(work, "archive")
        os.mkdir(folder)
        started = time.perf_counter()
        lengths, position = built(folder, options.game, options.games, options.files, options.seed)
        text_bytes = sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder))
        print(
            f"archive: {len(lengths)} {options.game} games, {sum(lengths)} plies, "
            f"{text_bytes / 2**20:.1f} MiB in {options.files} files "
            f"(built in {time.perf_counter() - started:.0f} s)"
        )
        db = os.path.join(work, "index.sqlite")
        games = len(lengths)
        ratios = []
        for run in range(options.repeat):
            fresh(db)
            check = measured(["check", "-q", "-j", "1", folder])
            index = measured(["index", "-q", "-j", "1", folder, "--db", db])
            ratios.append(check[1] / index[1])
            print(
                f"run {run + 1}: check {check[1]:.2f} CPU s ({games / check[1]:.0f} games/CPU s), "
                f"index {index[1]:.2f} CPU s ({games / index[1]:.0f} games/CPU s), "
                f"ratio {ratios[-1]:.2f}; peak {check[2]:.1f} / {index[2]:.1f} MiB"
            )
        print(
            f"index throughput per core / check's: median {statistics.median(ratios):.2f} "
            f"of {options.repeat} runs in turn"
        )
        if options.cachegrind:
            two = os.path.join(work, "two")
            os.mkdir(two)
            for name in sorted(os.listdir(folder))[:2]:
                shutil.copy(os.path.join(folder, name), two)
            small = os.path.join(work, "two.sqlite")
            check_ir = instructions([*HEXHOP_PY, "check", "-q", "-j", "1", two])
            index_ir = instructions([*HEXHOP_PY, "index", "-q", "-j", "1", two, "--db", small])
            print(
                f"instructions on the first two files: check {check_ir / 1e9:.2f} G, "
                f"index {index_ir / 1e9:.2f} G, ratio {check_ir / index_ir:.3f}"
            )
        size = os.path.getsize(db)
        print(f"index size: {size / 2**20:.1f} MiB = {size / text_bytes:.2f} x the archive text")
        again = child([*HEXHOP, "index", "-q", folder, "--db", db])
        print(f"index again (nothing changed): {again[0]:.2f} s wall")

        player = "jurgen muller"
        find_player = median_wall([*HEXHOP, "find", "--db", db, "--player", player])
        find_position = median_wall([*HEXHOP, "find", "--db", db, "--position", position])
        version = median_wall([*HEXHOP, "--version"])
        print(
            f"find --player {player!r}: {find_player:.3f} s wall "
            f"(hexhop --version: {version:.3f} s)"
        )
        print(f"find --position (a middle position of game 1): {find_position:.3f} s wall")
        scan_player = median_wall([*HEXHOP, "find", folder, "--scan", "--player", player], runs=1)
        dupes_index = median_wall([*HEXHOP, "dupes", "--db", db], runs=3)
        dupes_scan = median_wall([*HEXHOP, "dupes", folder, "--scan"], runs=1)
        print(f"find --player without the index: {scan_player:.2f} s wall")
        print(
            f"dupes: {dupes_index:.3f} s wall from the index, "
            f"{dupes_scan:.2f} s reading the archive"
        )

        print("peak memory (MiB): games, files, MiB of text, check, index")
        for count in options.memory_games:
            layouts = sorted({options.files, -(-count // options.per_file)})
            if count == games and layouts == [options.files]:
                found = [Peaks(options.files, text_bytes / 2**20, check[2], index[2])]
            else:
                found = peaks(work, options.game, count, layouts, options.seed)
            for memory in found:
                print(
                    f"  {count:>8} {memory.files:>5} files {memory.text:6.1f} MiB: "
                    f"check {memory.check:5.1f}, index {memory.index:5.1f}"
                )

        if not os.path.exists(options.pgn_extract):
            print("pgn-extract not found: no comparison")
            return
        pgn = os.path.join(work, "chess.pgn")
        chess_pgn(pgn, lengths, options.seed)
        out = os.path.join(work, "out.pgn")
        tag = median_wall(
            [options.pgn_extract, "-s", "-Tp" + "Jürgen Müller", pgn, "-o", out], runs=3
        )
        dupes = median_wall([options.pgn_extract, "-s", "-D", pgn, "-o", out], runs=3)
        print(f"pgn-extract on {games} chess games ({os.path.getsize(pgn) / 2**20:.1f} MiB):")
        print(
            f"  player filter -Tp: {tag:.3f} s; hexhop find --player / pgn-extract: "
            f"{find_player / tag:.2f} (index), {scan_player / tag:.1f} (no index)"
        )
        print(
            f"  duplicates -D: {dupes:.3f} s; hexhop dupes / pgn-extract: "
            f"{dupes_index / dupes:.2f} (index), {dupes_scan / dupes:.1f} (no index)"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
