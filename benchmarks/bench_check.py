"""How fast ``hexhop check`` is, next to python-chess reading PGN.

Builds archives of random legal games of each game (and Hüpfer board size),
checks them in this process (parsing included, exactly what ``hexhop
check`` does per file) and, in the same run, lets python-chess read and
check a PGN archive with the same number of plies. The two take turns
(hexhop, python-chess, hexhop, ...) and the medians of the CPU times are
compared, as the machine may be shared. Prints plies/s, the ratio and the
cost of a game with headers only; with ``--memory`` also the peak memory
of ``hexhop check`` on an archive ten times larger (run as a child process).

pgn-extract (``apt-get install pgn-extract``), when it is installed, reads
the same PGN archive in the same turns (``pgn-extract -s``, a child
process: its CPU time includes its start, a millisecond or two). With
``--compiled PYTHON`` (the interpreter of a venv holding the compiled
build, ``HEXHOP_COMPILE=1``), that build checks the same archive in the
same turns too, in a child process that reports only its checking time.

    pip install '.[bench]'
    python benchmarks/bench_check.py [--games 300] [--memory] [--compiled PYTHON]

``--corpus DIR`` checks the archives ``benchmarks/make_corpus.py`` wrote
into DIR (records of the shapes real archives have: cube events, glyphs,
comments, variations, long Hüpfer chains) instead of plain random games;
python-chess reads PGN games of the same main-line lengths (main lines
only: hexhop's side also reads the variations and comments).

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
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from bench_memory import ACCOUNTED  # runs check, writes its CPU and its own peak

from hexhop.engine.games import rules_for
from hexhop.engine.generate import random_archive
from hexhop.engine.replay import replay_game, tag_map
from hexhop.notation import format_archive, read_archive
from hexhop.notation.reader import decode, fallback_game, game_chunks, parse_game_flat
from hexhop.records.checking import CheckOptions, check_source
from hexhop.records.sources import Source

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
    """(plies, invalid games) of checking ``data`` as ``hexhop check`` does
    for one file (reading, replay, the report's game objects)."""
    result = check_source(Source(path, data), CheckOptions())
    plies = sum(game["plies"] for game in result.games)
    return plies, sum(not game["valid"] for game in result.games)


def cpu_time(run: Callable[[], object]) -> float:
    started = time.process_time()
    run()
    return time.process_time() - started


def in_turns(sides: list[Callable[[], float]], rounds: int) -> list[float]:
    """The CPU seconds of each side, run in turns (one of each per round):
    the median of each. A side returns its own CPU seconds."""
    times: list[list[float]] = [[] for _ in sides]
    for _ in range(rounds):
        for side, spent in zip(sides, times):
            spent.append(side())
    return [statistics.median(t) for t in times]


def child_cpu(command: list[str]) -> float:
    """The CPU seconds a child process spends, its own report if it prints
    one (a float on its last line of output), else its whole run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    lines = done.stdout.split()
    if lines and lines[-1].startswith("cpu="):
        return float(lines[-1][4:])
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def timed_check(path: str) -> None:
    """Check ``path`` (after one game, to load everything) and print the CPU
    seconds of checking it: the child side of ``--compiled``."""
    with open(path, "rb") as handle:
        data = handle.read()
    check(data.split(b"\n\n[", 1)[0], path)
    print(f"cpu={cpu_time(lambda: check(data, path))}")


#: what a main-line ply carries besides its move: a glyph, a comment, and
#: the length of a variation to it (0: none)
Dressing = tuple[bool, str | None, int]


def chess_pgn(
    plies_per_game: list[int], seed: int = 7, dressings: list[list[Dressing]] | None = None
) -> str:
    """Random legal chess games with the given lengths, as one PGN archive;
    with ``dressings`` (one list per game, one entry per main-line ply), each
    ply carries the same glyph (a NAG), comment and variation length as the
    hexhop record's, so both readers read records of the same shape."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    out = io.StringIO()
    for index, length in enumerate(plies_per_game):
        dressed = dressings[index] if dressings else []
        board = chess.Board()
        game = chess.pgn.Game()
        node: chess.pgn.GameNode = game
        while len(board.move_stack) < length and not board.is_game_over():
            moves = list(board.legal_moves)
            move = rng.choice(moves)
            parent, node = node, node.add_variation(move)
            ply = len(board.move_stack)
            if ply < len(dressed):
                glyph, comment, variation = dressed[ply]
                if glyph:
                    node.nags.add(rng.choice((1, 2, 5, 6)))
                if comment:
                    node.comment = comment
                if variation and len(moves) > 1:
                    _chess_variation(parent, board, move, variation, rng)
            board.push(move)
        print(game, file=out, end="\n\n")
    return out.getvalue()


def _chess_variation(
    parent: object, board: object, played: object, plies: int, rng: random.Random
) -> None:
    """A random line of ``plies`` moves from ``board`` beside ``played``."""
    side = board.copy()
    node = parent
    for _ in range(plies):
        moves = [m for m in side.legal_moves if node is not parent or m != played]
        if not moves:
            return
        move = rng.choice(moves)
        node = node.add_variation(move)
        side.push(move)


def dressings(data: bytes, path: str) -> list[list[Dressing]]:
    """Each game's main-line plies as :data:`Dressing` (cube events left
    out: chess has none), for :func:`chess_pgn`."""
    from hexhop.notation.model import CubeAnswer, CubeOffer, Line

    def size(line: Line) -> int:
        return sum(1 + sum(size(v) for v in n.variations) for n in line.nodes)

    out = []
    for parsed in read_archive(data, path=path):
        nodes = parsed.record.main.nodes if parsed.record else ()
        plies = [n for n in nodes if not isinstance(n.item, (CubeOffer, CubeAnswer))]
        out.append(
            [
                (bool(n.glyphs), " ".join(n.comments) or None, sum(size(v) for v in n.variations))
                for n in plies
            ]
        )
    return out


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
        done = subprocess.run(
            [sys.executable, "-c", ACCOUNTED, "--quiet", handle.name],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
        return int(float(done.stderr.split()[-1]))  # the child's own peak, last
    finally:
        os.unlink(handle.name)


def write(folder: str, games: int, corpus: str | None = None) -> None:
    """The archives (``corpus``: those make_corpus.py wrote there), each
    with its PGN twin and its header-only twin, into ``folder``."""
    os.makedirs(folder, exist_ok=True)
    for game, board, suffix in CASES:
        data = archive(game, board, games, corpus)
        name = os.path.join(folder, f"{game}{board}")
        with open(name + suffix, "wb") as handle:
            handle.write(data)
        with open(name + ".head" + suffix, "wb") as handle:
            handle.write(headers_only(data))
        with open(name + ".pgn", "w", encoding="utf-8") as handle:
            handle.write(chess_pgn(plies_per_game(data, name + suffix), 7, dressings(data, name)))


def read_only(data: bytes, path: str) -> None:
    """Only the reading of a check: the games split off, their headers and
    main lines read (flat, as ``check`` reads them)."""
    fallback = fallback_game(path, None)
    for index, first_line, chunk in game_chunks(decode(data)[0]):
        parse_game_flat(chunk, first_line, index, fallback)


def rules_only(data: bytes, path: str) -> Callable[[], None]:
    """Only the rules of a check: each game's items checked and played from
    its start, read beforehand (the games must be well formed)."""
    fallback = fallback_game(path, None)
    games = []
    for index, first_line, chunk in game_chunks(decode(data)[0]):
        read = parse_game_flat(chunk, first_line, index, fallback)
        assert read is not None and read[0].game is not None, f"game {index} is not plain"
        record, line = read
        rules = rules_for(record.game)
        games.append((rules, rules.start(tag_map(record), line.items[0]), line.items))

    def run() -> None:
        for rules, start, items in games:
            position = start
            for item in items:
                rules.check(position, item)
                position = rules.apply(position, item).position

    return run


def board_only(data: bytes, path: str) -> Callable[[], None]:
    """Only the rules as ``check`` plays them on the game's in-place board,
    read beforehand: each action played in one step and its mark found,
    each cube event played (the replay's calls, ``engine/replay.py``)."""
    from hexhop.notation.model import CubeAnswer, CubeOffer

    fallback = fallback_game(path, None)
    games = []
    for index, first_line, chunk in game_chunks(decode(data)[0]):
        read = parse_game_flat(chunk, first_line, index, fallback)
        assert read is not None and read[0].game is not None, f"game {index} is not plain"
        record, line = read
        rules = rules_for(record.game)
        games.append((rules, rules.start(tag_map(record), line.items[0]), line.items))

    def run() -> None:
        for rules, start, items in games:
            board = rules.board(start, False)
            for item in items:
                if isinstance(item, (CubeOffer, CubeAnswer)):
                    board.settle()
                    assert board.cube_event(item)
                else:
                    assert board.play(item)
                    board.required_mark()
            board.settle()

    return run


def passes(path: str, count: int, only: str | None = None) -> None:
    """Check ``path`` ``count`` times, after one game to load everything
    (``only``: ``read`` or ``rules``, that part of the check alone)."""
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
    run = (
        rules_only(data, path)
        if only == "rules"
        else board_only(data, path)
        if only == "board"
        else (lambda: read_only(data, path))
        if only == "read"
        else (lambda: check(data, path))
    )
    for _ in range(count):
        run()


def corpus_file(folder: str, game: str, board: int) -> str:
    """The archive of ``game`` in a folder written by ``make_corpus.py``."""
    from make_corpus import ARCHIVES

    return os.path.join(folder, next(n for g, b, n in ARCHIVES if (g, b) == (game, board)))


def archive(game: str, board: int, games: int, corpus: str | None) -> bytes:
    """The archive to measure: ``games`` plain random games, or the one
    make_corpus.py wrote into ``corpus``."""
    if corpus is None:
        return build(game, board, games)
    with open(corpus_file(corpus, game, board), "rb") as handle:
        return handle.read()


def measure(
    game: str,
    board: int,
    suffix: str,
    data: bytes,
    rounds: int,
    compiled: str | None,
    pgn_extract: str | None,
    folder: str,
) -> None:
    """One line of the table: hexhop, python-chess (and the compiled build,
    pgn-extract) in turns, and headers only."""
    path = os.path.join(folder, "bench" + suffix)
    plies, invalid = check(data, path)
    games = len(check_source(Source(path, data), CheckOptions()).games)
    assert invalid == 0, f"{invalid} generated {game} games did not pass the check"
    pgn = chess_pgn(plies_per_game(data, path), 7, dressings(data, path))
    chess_plies = chess_read(pgn)  # a chess game may end sooner
    pgn_path = os.path.join(folder, "bench.pgn")
    with open(path, "wb") as handle:
        handle.write(data)
    with open(pgn_path, "w", encoding="utf-8") as handle:
        handle.write(pgn)
    sides: list[Callable[[], float]] = [
        lambda: cpu_time(lambda: check(data, path)),
        lambda: cpu_time(lambda: chess_read(pgn)),
    ]
    if compiled:
        sides.append(lambda: child_cpu([compiled, __file__, "--time", path]))
    if pgn_extract:
        sides.append(lambda: child_cpu([pgn_extract, "-s", "-o", os.devnull, pgn_path]))
    times = in_turns(sides, rounds)
    heads = headers_only(data)
    head = statistics.median(cpu_time(lambda: check(heads, path)) for _ in range(rounds))
    label = game if game != "Hüpfer" else f"Hüpfer {board}x{board}"
    ours, theirs = plies / times[0], chess_plies / times[1]
    line = f"{label:<14}{plies:>8}{ours:>13,.0f}{theirs:>13,.0f}{ours / theirs:>7.2f}"
    rest = times[2:]
    if compiled:
        fast = plies / rest.pop(0)
        line += f"{fast:>13,.0f}{fast / theirs:>7.2f}"
    if pgn_extract:
        extract = chess_plies / rest.pop(0)
        line += f"{extract:>15,.0f}{ours / extract:>7.2f}"
    print(line + f"{head / games * 1e6:>11.1f} µs", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per archive")
    parser.add_argument("--rounds", type=int, default=5, help="turns of each side")
    parser.add_argument(
        "--memory", action="store_true", help="also measure peak memory on a 10x archive"
    )
    parser.add_argument("--write", metavar="DIR", help="only write the archives into DIR")
    parser.add_argument("--passes", nargs=2, metavar=("N", "FILE"), help="only check FILE N times")
    parser.add_argument(
        "--only",
        choices=("read", "rules", "board"),
        help="with --passes: that part of the check alone (board: the rules on the in-place board)",
    )
    parser.add_argument(
        "--compiled", metavar="PYTHON", help="also the build installed for this interpreter"
    )
    parser.add_argument(
        "--pgn-extract",
        default=shutil.which("pgn-extract") or "/usr/games/pgn-extract",
        help="pgn-extract to compare with, when it exists",
    )
    parser.add_argument(
        "--corpus",
        metavar="DIR",
        help="check the archives make_corpus.py wrote into DIR instead of plain random games",
    )
    parser.add_argument("--time", metavar="FILE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.time:
        timed_check(args.time)
        return
    if args.write:
        write(args.write, args.games, args.corpus)
        return
    if args.passes:
        passes(args.passes[1], int(args.passes[0]), args.only)
        return
    pgn_extract = args.pgn_extract if os.path.exists(args.pgn_extract) else None
    heading = f"{'archive':<14}{'plies':>8}{'hexhop/s':>13}{'chess/s':>13}{'ratio':>7}"
    if args.compiled:
        heading += f"{'compiled/s':>13}{'ratio':>7}"
    if pgn_extract:
        heading += f"{'pgn-extract/s':>15}{'ours÷':>7}"
    print(heading + f"{'headers only':>14}")
    with tempfile.TemporaryDirectory() as folder:
        for game, board, suffix in CASES:
            data = archive(game, board, args.games, args.corpus)
            measure(game, board, suffix, data, args.rounds, args.compiled, pgn_extract, folder)
    print(
        "plies per CPU second, medians of turns; ratio: × python-chess; ours÷: pure ÷ pgn-extract"
    )
    if args.memory:
        small = build("Hexalit", 6, args.games)
        print(f"peak memory, {args.games} Hexalit games: {peak_memory_kib(small, '.hxl')} KiB")
        big = small * 10
        print(f"peak memory, {args.games * 10} Hexalit games: {peak_memory_kib(big, '.hxl')} KiB")


if __name__ == "__main__":
    main()
