"""The puzzles an editor prints: the choice, the difficulty, the motifs.

A fixture event (eight Hexalit and four Hüpfer games of the generator, with
the players, event and date of a club) gives 57 puzzles within 2; the
choice of ``puzzles`` keeps one per game, no near-repeats, in the order of
difficulty, and every puzzle kept is still exact.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexhop.cli.main import cli
from hexhop.engine.games import rules_for
from hexhop.engine.generate import random_games
from hexhop.engine.solver import Solver
from hexhop.engine.zobrist import position_key
from hexhop.notation.model import Tag
from hexhop.notation.writer import format_record
from hexhop.records.analysis import Settings
from hexhop.records.puzzle_choice import (
    NEAR,
    Choice,
    choose,
    facts,
    line_positions,
    motifs,
    near_key,
)
from hexhop.records.puzzles import Puzzle, find_puzzles
from hexhop.records.sources import iter_sources

NAMES = ("Anna Berger", "Jonas Keller", "Mira Hansen", "Paul Ohlsen")


def _event(game: str, count: int, seed: int) -> str:
    """Generated games with a club's players, event and date."""
    texts = []
    for number, record in enumerate(random_games(game, count, seed)):
        tags: list[Tag] = []
        for tag in record.tags:
            if tag.name == "Event":
                tags += [Tag("Event", "Club Open"), Tag("Date", "2026.11.07")]
            elif tag.value == "Random":
                second = tag.name in ("South", "Turquoise")
                tags.append(Tag(tag.name, NAMES[(number + second) % 4]))
            else:
                tags.append(tag)
        texts.append(format_record(replace(record, tags=tuple(tags))))
    return "\n".join(texts)


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("event")
    (folder / "event.hxl").write_text(_event("Hexalit", 8, 11), "utf-8")
    (folder / "event.hpf").write_text(_event("Hüpfer", 4, 11), "utf-8")
    return folder


@pytest.fixture(scope="module")
def found(event: Path) -> list[Puzzle]:
    return find_puzzles(iter_sources([str(event)]), Settings(2))


def _shown(puzzle: Puzzle) -> tuple[object, ...]:
    assert puzzle.source is not None and puzzle.facts is not None
    file = Path(puzzle.source[0]).suffix
    return (file, puzzle.source[1], puzzle.source[2], puzzle.motifs, puzzle.facts.tag())


def run(*args: object):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


# -- the choice -------------------------------------------------------------------


def test_the_sheets_choice_is_exact(found: list[Puzzle]) -> None:
    assert len(found) == 57
    chosen = choose(found, Choice(limit=6, min_depth=2, max_depth=2))
    assert [_shown(p) for p in chosen] == EXPECTED_SHEET


def test_one_per_game_by_default_and_wins_at_once_when_asked(found: list[Puzzle]) -> None:
    chosen = choose(found, Choice())
    games = [p.source[:2] for p in chosen if p.source]
    assert len(games) == len(set(games)) == 12  # every game of the event, once
    assert [_shown(p) for p in chosen[:3]] == EXPECTED_EASIEST
    two = choose(found, Choice(per_game=2))
    per_game = Counter(p.source[:2] for p in two if p.source)
    assert len(two) == 23 and sorted(per_game.values()) == [1] + [2] * 11


def test_the_order_by_difficulty(found: list[Puzzle]) -> None:
    chosen = choose(found, Choice(per_game=0))
    orders = [p.facts.order() for p in chosen if p.facts]
    assert orders == sorted(orders)
    assert orders[0] == (1, 0, 0, 1) and orders[-1] == (2, 43, 3, 3)


def test_source_order_and_a_seeded_shuffle(found: list[Puzzle]) -> None:
    source = choose(found, Choice(per_game=0, order="source"))
    assert [p.source for p in source] == [p.source for p in found if p.source]
    first = choose(found, Choice(per_game=0, order="random", seed=3))
    again = choose(found, Choice(per_game=0, order="random", seed=3))
    other = choose(found, Choice(per_game=0, order="random", seed=4))
    assert [p.key for p in first] == [p.key for p in again]
    assert [p.key for p in first] != [p.key for p in other]
    assert sorted(p.key for p in first) == sorted(p.key for p in source)


def test_a_motif_filters(found: list[Puzzle]) -> None:
    chains = choose(found, Choice(per_game=0, motifs=("capture-chain",)))
    assert [_shown(p)[:3] for p in chains] == [
        (".hpf", 2, 16),
        (".hpf", 4, 28),
        (".hpf", 4, 8),
        (".hpf", 3, 11),
        (".hpf", 3, 13),
    ]
    both = choose(found, Choice(per_game=0, motifs=("quiet", "capture-chain")))
    assert [_shown(p)[:3] for p in both] == [(".hpf", 3, 13)]
    refused = choose(found, Choice(per_game=0, motifs=("refused-cube",)))
    assert [_shown(p)[:3] for p in refused] == [(".hxl", 1, 38), (".hxl", 2, 18)]


# -- near-repeats ---------------------------------------------------------------------


def _changed(puzzle: Puzzle, cell: str) -> Puzzle:
    """The puzzle with the die on ``cell`` taken away, from another game."""
    rules = rules_for(puzzle.game)
    text = puzzle.position.text()
    north, south = text.split("; S: ")
    words = [w for w in north.split(" ") if not w.startswith(cell + "=")]
    position = rules.parse_position(" ".join(words) + "; S: " + south)
    assert position != puzzle.position
    assert puzzle.source is not None
    return replace(
        puzzle,
        position=position,
        key=position_key(position),
        near=near_key(position, puzzle.solution, puzzle.tags),
        source=(puzzle.source[0], 99, 1),
    )


def test_near_repeats_count_once(found: list[Puzzle]) -> None:
    # 1... D3°C6^ 2. B6XA7 F5XE7+ (game 8, ply 39): North's dice on A10 is
    # far from D3 and C6, the one on C8 is near
    puzzle = next(p for p in found if p.source and p.source[1:] == (8, 39))
    assert puzzle.solution_text() == "1... D3°C6^ 2. B6XA7 F5XE7+"
    far, near = _changed(puzzle, "A10"), _changed(puzzle, "C8")
    assert far.near == puzzle.near and near.near != puzzle.near
    assert choose([puzzle, far], Choice(per_game=0)) == [puzzle]
    assert choose([far, puzzle], Choice(per_game=0)) == [far]
    assert choose([puzzle, near], Choice(per_game=0)) == [puzzle, near]
    assert NEAR == 2


# -- every puzzle kept is exact -------------------------------------------------------


def test_every_chosen_puzzle_solves_again(found: list[Puzzle]) -> None:
    """A fresh solver: the first action is the only one that wins within
    the depth, no shorter win exists, the line ends in the win; the
    difficulty facts and the motifs are counted again from the line."""
    for puzzle in choose(found, Choice(per_game=0)):
        rules = rules_for(puzzle.game)
        solver = Solver(rules)
        winners = solver.winning_choices(puzzle.position, 2)
        assert winners is not None and len(winners) == 1, puzzle.origin
        (choice, depth), first = winners[0], puzzle.solution[0]
        assert str(choice[0]) == str(first).rstrip("^+") and depth == puzzle.depth
        assert solver.solve(puzzle.position, puzzle.depth - 1).status != "win"
        end = line_positions(rules, puzzle.position, puzzle.solution)[-1]
        assert end.winner == puzzle.side
        assert facts(rules, puzzle.position, puzzle.solution, depth) == puzzle.facts
        assert set(motifs(rules, puzzle.position, puzzle.solution)) <= set(puzzle.motifs)


# -- the command ---------------------------------------------------------------------


def test_the_sheet_leaves_out_wins_at_once(event: Path, tmp_path: Path) -> None:
    done = run("puzzles", event, "--format", "pdf", "--limit", "4", "--out-dir", tmp_path / "a")
    assert done.output == f"wrote 4 puzzles to {tmp_path / 'a'}\n"
    record = (tmp_path / "a" / "puzzle001.hpf").read_text("utf-8")
    assert '[Difficulty "depth 2, defences 1, decoys 0, length 3"]' in record
    assert "{" + f"{event / 'event.hpf'}, game 2, ply 18" + "}" in record
    assert '[SourcePlayers "Jonas Keller - Mira Hansen"]' in record
    assert '[SourceEvent "Club Open"]\n[SourceYear "2026"]' in record
    asked = run("puzzles", event, "--format", "pdf", "--min-depth", "1", "--limit", "1")
    assert asked.exit_code == 2  # no --out-dir
    once = run("puzzles", event, "--limit", "1", "--min-depth", "1", "--out-dir", tmp_path / "b")
    assert once.exit_code == 0
    assert "win at once" in (tmp_path / "b" / "puzzle001.svg").read_text("utf-8")


def test_a_seed_gives_the_same_puzzles(event: Path, tmp_path: Path) -> None:
    args = ("--order", "random", "--seed", "5", "--limit", "3", "--per-game", "0", "-q")
    assert run("puzzles", event, *args, "--out-dir", tmp_path / "a").exit_code == 0
    assert run("puzzles", event, *args, "--out-dir", tmp_path / "b").exit_code == 0
    a = sorted((tmp_path / "a").iterdir())
    assert [p.read_bytes() for p in a] == [(tmp_path / "b" / p.name).read_bytes() for p in a]


@pytest.mark.parametrize("bad", ["٣", "3.0", "+3", "-1"])
def test_numbers_are_ascii_digits(event: Path, tmp_path: Path, bad: str) -> None:
    for option in ("--limit", "--per-game"):
        done = run("puzzles", event, option, bad, "--out-dir", tmp_path)
        assert done.exit_code == 2 and f"Invalid value for '{option}'" in done.output


def test_an_unknown_motif_is_a_usage_error(event: Path, tmp_path: Path) -> None:
    done = run("puzzles", event, "--motif", "fork", "--out-dir", tmp_path)
    assert done.exit_code == 2 and "'fork' is not one of" in done.output


# -- from the stored analysis -------------------------------------------------------


def test_the_index_keeps_the_puzzles(
    event: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "x.sqlite"
    assert run("index", event, "--db", db, "--analyse", "-q").exit_code == 0
    with sqlite3.connect(db) as connection:
        kept = connection.execute("SELECT count(*) FROM puzzle_facts").fetchone()[0]
    assert kept == KEPT_STUDIES
    scan = ("puzzles", event, "--limit", "12", "-q", "--out-dir", tmp_path / "scan")
    assert run(*scan).exit_code == 0

    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("searched")

    monkeypatch.setattr(Solver, "winning_choices", no_search)
    monkeypatch.setattr(Solver, "solve", no_search)
    stored = ("puzzles", "--db", db, "--limit", "12", "-q", "--out-dir", tmp_path / "db")
    assert run(*stored).exit_code == 0
    written = sorted(p.name for p in (tmp_path / "scan").iterdir())
    assert len(written) == 24
    for name in written:
        assert (tmp_path / "db" / name).read_bytes() == (tmp_path / "scan" / name).read_bytes()


def test_damaged_puzzle_facts_are_told(event: Path, tmp_path: Path) -> None:
    db = tmp_path / "x.sqlite"
    assert run("index", event, "--db", db, "--analyse", "--depth", "1", "-q").exit_code == 0
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE puzzle_facts SET winners = '٣'")
    done = run("puzzles", "--db", db, "--depth", "1", "--out-dir", tmp_path / "p")
    assert done.exit_code == 2
    assert "puzzle_facts.winners holds '٣'" in done.output
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE puzzle_facts SET winners = '1'")
        connection.execute("UPDATE puzzle_facts SET solution = 'A1XA2+'")
    done = run("puzzles", "--db", db, "--depth", "1", "--out-dir", tmp_path / "p")
    assert done.exit_code == 2 and not (tmp_path / "p").exists()
    assert "(puzzle_facts.solution holds 'A1XA2+' (" in done.output
    assert "event.hpf, game 1, ply " in done.output


# (file, game, ply, motifs, difficulty) of the sheet's six: depth 2, one per game
EXPECTED_SHEET = [
    (".hpf", 2, 18, (), "depth 2, defences 1, decoys 0, length 3"),
    (".hpf", 4, 8, ("capture-chain",), "depth 2, defences 1, decoys 0, length 3"),
    (".hpf", 3, 11, ("capture-chain",), "depth 2, defences 1, decoys 1, length 3"),
    (".hxl", 7, 162, ("boxed-one",), "depth 2, defences 2, decoys 2, length 3"),
    (".hxl", 5, 141, ("boxed-one",), "depth 2, defences 4, decoys 9, length 3"),
    (".hxl", 8, 39, ("boxed-one",), "depth 2, defences 2, decoys 10, length 3"),
]
EXPECTED_EASIEST = [
    (".hpf", 1, 25, ("quiet", "birth-blocks"), "depth 1, defences 0, decoys 0, length 1"),
    (".hpf", 2, 16, ("capture-chain",), "depth 1, defences 0, decoys 0, length 1"),
    (".hpf", 3, 17, (), "depth 1, defences 0, decoys 0, length 1"),
]
# the positions of the event where the analysis (to depth 2) found a win
KEPT_STUDIES = 84
