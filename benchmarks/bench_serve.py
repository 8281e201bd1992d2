"""How fast ``hexhop serve`` answers: searches and game pages on a large index.

Builds (once, kept in ``--work``) an archive of ``--games`` random legal
games of the three games, with players drawn from a list of names and
events, sites and dates, and indexes it with ``hexhop index``; then starts
``hexhop serve --read-only`` on it (a child process, one uvicorn worker,
on 127.0.0.1) and runs a bounded load test: ``--clients`` concurrent
clients for ``--seconds`` seconds, each asking in turn a search (by
player, event, site, date range, result, winner, game and board, validity,
finding code, opening, position; sorted and paged) or a game page. It
stops by itself and reports, per kind of request and over all: count,
p50 and p95 latency, throughput, errors (any status but 200, or a failed
connection).

    pip install '.[serve]'
    python benchmarks/bench_serve.py [--games 100000] [--clients 50] [--seconds 30]
        [--work /tmp/hexhop-bench-serve] [--port 8765]

Besides the load test, ``--each`` times every search kind alone (sequential,
``--repeat`` times each) for the 95th percentile of a single search.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ProcessPoolExecutor

_SCRIPT = os.path.join(os.path.dirname(sys.executable), "hexhop")
HEXHOP = [_SCRIPT] if os.path.exists(_SCRIPT) else [sys.executable, "-m", "hexhop.cli"]

FIRST = ["Anna", "Jürgen", "Zoë", "Karl", "Ute", "Mira", "Paul", "Lena", "Jonas", "Élise"]
LAST = ["Müller", "Berger", "Keller", "Brandt", "Sommer", "Hansen", "Ohlsen", "Voss", "Weiß"]
NAMES = [f"{first} {last}" for first in FIRST for last in LAST]  # 90 players
EVENTS = [
    f"{kind} {town}"
    for kind in ("Vereinsmeisterschaft", "Open", "Pokal", "Blitzturnier")
    for town in ("Kassel", "Göttingen", "Bremen", "Hamburg", "Köln", "München")
]
SITES = ["Kassel", "Göttingen", "Bremen", "Hamburg", "Köln", "München", "Wien", "Zürich"]
GAMES = (("Hexalit", 6), ("Trigeo", 6), ("Hüpfer", 6), ("Hüpfer", 8))
PER_FILE = 1000


def _part(args: tuple[str, int, int, str, int]) -> tuple[str, str]:
    """One file of the archive: (its path, a Position text of one of its games)."""
    folder, number, count, game, board = args
    from hexhop.engine.generate import random_archive
    from hexhop.engine.replay import replay_game
    from hexhop.notation import format_archive
    from hexhop.notation.games import find_game
    from hexhop.notation.model import ParsedGame, Record, Tag

    spec = find_game(game)
    rng = random.Random(number)
    records = []
    for record in random_archive(game, count, number, board=board, max_plies=90):
        players = dict(zip(spec.sides, rng.sample(NAMES, 2)))
        year = rng.randrange(1990, 2026)
        date = f"{year}.{rng.randrange(1, 13):02d}.{rng.randrange(1, 29):02d}"
        extra = {
            "Event": rng.choice(EVENTS),
            "Site": rng.choice(SITES),
            "Date": date,
            **players,
        }
        tags = [Tag(t.name, extra.pop(t.name, t.value), t.span) for t in record.tags]
        tags += [Tag(name, value) for name, value in extra.items()]
        records.append(
            Record(tuple(tags), record.game, record.main, record.result, None, record.index)
        )
    report = replay_game(ParsedGame(1, records[0]))
    position = report.positions[len(report.positions) // 2].text()
    path = os.path.join(folder, f"part-{number:04d}{spec.extension}")
    with open(path, "w", encoding="utf-8") as out:
        out.write(format_archive(records))
    return path, position


def build(work: str, games: int, jobs: int) -> tuple[str, str, list[str]]:
    """The archive folder and its index (made when missing), and Position texts."""
    folder = os.path.join(work, "archive")
    db = os.path.join(work, "archive.sqlite")
    positions_file = os.path.join(work, "positions.txt")
    if not os.path.exists(positions_file):
        os.makedirs(folder, exist_ok=True)
        parts = []
        for number in range(-(-games // PER_FILE)):
            game, board = GAMES[number % len(GAMES)]
            count = min(PER_FILE, games - number * PER_FILE)
            parts.append((folder, number, count, game, board))
        started = time.perf_counter()
        with ProcessPoolExecutor(jobs) as pool:
            made = list(pool.map(_part, parts))
        print(f"built {games} games in {len(made)} files in {time.perf_counter() - started:.0f} s")
        started = time.perf_counter()
        subprocess.run([*HEXHOP, "index", "-q", "-j", str(jobs), folder, "--db", db], check=True)
        print(f"indexed in {time.perf_counter() - started:.0f} s")
        with open(positions_file, "w", encoding="utf-8") as out:
            out.write("\n".join(position for _path, position in made[:8]))
    with open(positions_file, encoding="utf-8") as text:
        positions = text.read().splitlines()
    return folder, db, positions


def searches(positions: list[str], rng: random.Random) -> dict[str, list[dict[str, str]]]:
    """The searches asked, by kind: a few variants of each."""
    name = lambda: rng.choice(NAMES).split()[rng.randrange(2)]  # noqa: E731
    sorts = ["date", "-date", "players", "event", "-plies"]
    return {
        "player": [{"player": name(), "sort": rng.choice(sorts)} for _ in range(20)],
        "two players": [{"player": name(), "player2": name()} for _ in range(10)],
        "event": [{"event": rng.choice(EVENTS).split()[1]} for _ in range(10)],
        "site": [{"site": rng.choice(SITES)} for _ in range(5)],
        "date range": [
            {"date_from": f"{y}", "date_to": f"{y + 2}.06"} for y in range(1990, 2024, 3)
        ],
        "result": [{"result": r} for r in ("1-0", "0-1", "*")],
        "winner": [{"winner": w} for w in ("North", "South", "Red", "Turquoise")],
        "game and board": [{"game": "Hüpfer", "board": "8x8"}, {"game": "Trigeo"}],
        "validity": [{"valid": "invalid"}, {"valid": "valid", "sort": "plies"}],
        "finding": [{"finding": "AN01"}],
        "opening": [
            {"game": "Hexalit", "after": "1. B4W3"},
            {"game": "Trigeo", "after": "1. C7°D7"},
        ],
        "position": [{"position": p} for p in positions],
        "everything": [{"sort": s, "page": str(rng.randrange(1, 200))} for s in sorts],
    }


def _get(url: str) -> tuple[int, float]:
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            answer.read()
            status = answer.status
    except urllib.error.HTTPError as error:
        status = error.code
    except (OSError, urllib.error.URLError):
        status = 0
    return status, time.perf_counter() - started


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def _requests(base: str, kinds: dict[str, list[dict[str, str]]], games: int, rng: random.Random):
    """An endless mix: half searches (of every kind in turn), half game pages."""
    flat = [(kind, query) for kind, queries in kinds.items() for query in queries]
    while True:
        if rng.random() < 0.5:
            kind, query = rng.choice(flat)
            yield "search: " + kind, base + "/?" + urllib.parse.urlencode(query)
        else:
            yield "game page", f"{base}/games/{rng.randrange(1, games + 1)}"


def load(
    base: str, kinds, games: int, clients: int, seconds: float
) -> dict[str, list[tuple[int, float]]]:
    """``clients`` threads asking for ``seconds``: {kind: [(status, seconds)]}."""
    results: dict[str, list[tuple[int, float]]] = {}
    lock = threading.Lock()
    deadline = time.perf_counter() + seconds

    def client(number: int) -> None:
        for kind, url in _requests(base, kinds, games, random.Random(number)):
            if time.perf_counter() >= deadline:
                return
            outcome = _get(url)
            with lock:
                results.setdefault(kind, []).append(outcome)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def report(results: dict[str, list[tuple[int, float]]], seconds: float) -> None:
    every = [outcome for outcomes in results.values() for outcome in outcomes]
    print(f"{'kind':<28} {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'errors':>6}")
    for kind in sorted(results):
        outcomes = results[kind]
        times = [t * 1000 for _s, t in outcomes]
        errors = sum(1 for s, _t in outcomes if s != 200)
        print(
            f"{kind:<28} {len(outcomes):>6} {statistics.median(times):>8.1f}"
            f" {_percentile(times, 0.95):>8.1f} {errors:>6}"
        )
    times = [t * 1000 for _s, t in every]
    errors = sum(1 for s, _t in every if s != 200)
    print(
        f"{'all':<28} {len(every):>6} {statistics.median(times):>8.1f}"
        f" {_percentile(times, 0.95):>8.1f} {errors:>6}"
    )
    print(f"throughput: {len(every) / seconds:.1f} requests/s; errors: {errors}")


def each(base: str, kinds, repeat: int) -> None:
    """Every search kind alone, one after another: p50 and p95 of each."""
    print(f"{'search (alone)':<28} {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    worst = 0.0
    for kind, queries in kinds.items():
        times = []
        for _round in range(repeat):
            for query in queries:
                status, took = _get(base + "/?" + urllib.parse.urlencode(query))
                assert status == 200, (kind, query, status)
                times.append(took * 1000)
        p95 = _percentile(times, 0.95)
        worst = max(worst, p95)
        print(
            f"{kind:<28} {len(times):>6} {statistics.median(times):>8.1f} {p95:>8.1f}"
            f" {max(times):>8.1f}"
        )
    print(f"the slowest kind's p95: {worst:.1f} ms")


def _wait(port: int, server: subprocess.Popen, limit: float = 600) -> None:
    deadline = time.perf_counter() + limit
    while time.perf_counter() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"hexhop serve ended with {server.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("hexhop serve did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--work", default="/tmp/hexhop-bench-serve")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--jobs", type=int, default=2, help="processes to build and index with")
    parser.add_argument("--each", action="store_true", help="also time every search alone")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--build-only", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    folder, db, positions = build(args.work, args.games, args.jobs)
    if args.build_only:
        return
    kinds = searches(positions, random.Random(1))
    server = subprocess.Popen(
        [*HEXHOP, "serve", folder, "--db", db, "--read-only", "--port", str(args.port), "-q"],
    )
    try:
        _wait(args.port, server)
        base = f"http://127.0.0.1:{args.port}"
        with sqlite_count(db) as games:
            pass
        if args.each:
            each(base, kinds, args.repeat)
        started = time.perf_counter()
        results = load(base, kinds, games, args.clients, args.seconds)
        report(results, time.perf_counter() - started)
    finally:
        server.terminate()
        server.wait(30)


class sqlite_count:  # noqa: N801
    """``with sqlite_count(db) as games``: the games of the index."""

    def __init__(self, db: str) -> None:
        import sqlite3

        connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        self.games = connection.execute("SELECT max(id) FROM games").fetchone()[0] or 0
        connection.close()

    def __enter__(self) -> int:
        return int(self.games)

    def __exit__(self, *exc: object) -> None:
        return None


if __name__ == "__main__":
    main()
