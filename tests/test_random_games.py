"""Random legal games pass the check; one altered action fails at its ply."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from hexhop.engine.games import rules_for
from hexhop.engine.generate import random_archive
from hexhop.engine.replay import replay_game
from hexhop.notation import format_archive, parse_text
from hexhop.notation.model import DiceAction, HopAction, Line, Node, Span

CASES = [("Hexalit", 6), ("Trigeo", 6), ("Hüpfer", 6), ("Hüpfer", 8), ("Hüpfer", 10)]
ROWS, FILES = "ABCDEF", "abcdefghij"


def checked(text: str):
    return [replay_game(parsed) for parsed in parse_text(text)]


@pytest.mark.parametrize(
    "game, board",
    [pytest.param(*c, marks=pytest.mark.slow) if c == ("Hüpfer", 10) else c for c in CASES],
)
def test_random_legal_games_pass_strictly(game, board):
    records = random_archive(game, 25, seed=board, board=board, max_plies=120)
    reports = checked(format_archive(records))
    assert len(reports) == 25
    for report in reports:
        assert report.findings == [], report.findings[:2]
        assert report.plies == len(report.positions) - 1


def random_wrong_action(game: str, board: int, rng: random.Random):
    """A well-formed action with random cells or points (mostly illegal)."""
    if game != "Hüpfer":
        origin = f"{rng.choice(ROWS)}{rng.randint(1, 13)}"
        target = f"{rng.choice(ROWS)}{rng.randint(1, 13)}"
        return DiceAction(origin, rng.choice(["move", "capture"]), target)
    f, r = rng.randrange(board), rng.randrange(board)
    df, dr = rng.choice([(2, 0), (-2, 0), (0, 2), (0, -2)])
    path = (f"{FILES[f]}{r + 1}", f"{FILES[(f + df) % board]}{(r + dr) % board + 1}")
    if rng.random() < 0.5:
        return HopAction(path, ("x",))
    return HopAction(path, ("-",), f"{FILES[rng.randrange(board)]}{rng.randrange(board) + 1}")


def alter(record, ply: int, action):
    """The record with its ply-th action replaced (and everything after dropped)."""
    nodes = [n for n in record.main.nodes if isinstance(n.item, (DiceAction, HopAction))]
    kept = list(record.main.nodes[: record.main.nodes.index(nodes[ply - 1])])
    kept.append(Node(action, Span(0, 0), str(action)))
    tags = tuple(tag for tag in record.tags if tag.name != "Result")
    return replace(record, tags=tags, main=Line(tuple(kept)), result="*")


@pytest.mark.parametrize(
    "game, board",
    [pytest.param(*c, marks=pytest.mark.slow) if c == ("Hüpfer", 10) else c for c in CASES],
)
def test_one_altered_action_fails_at_exactly_its_ply(game, board):
    rng = random.Random(board * 7 + len(game))
    rules = rules_for(game)
    for record in random_archive(game, 15, seed=board + 100, board=board, max_plies=80):
        (report,) = checked(format_archive([record]))
        if report.plies < 2:
            continue
        ply = rng.randint(1, report.plies)
        position = report.positions[ply - 1]
        wrong = random_wrong_action(game, board, rng)
        while rules.check(position, wrong) is None:
            wrong = random_wrong_action(game, board, rng)
        (altered,) = checked(format_archive([alter(record, ply, wrong)]))
        errors = [f for f in altered.findings if f.severity == "error"]
        assert [(f.category, f.ply, f.action) for f in errors] == [("illegal", ply, str(wrong))], (
            altered.findings
        )
        assert len(altered.positions) == ply
