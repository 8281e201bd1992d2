"""One walk through a record: the replay tells a visitor
about every node of every line once; the checker, the viewer data, the JSON
codec and the script API consume it and play nothing themselves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import hexhop
from hexhop.engine.games import rules_for
from hexhop.engine.replay import Visitor, replay_game, walk
from hexhop.notation import parse_text
from hexhop.records.codec import to_json
from hexhop.records.viewer import page_data

ROOT = Path(__file__).resolve().parent.parent

RECORD = """[Game "Hexalit"]
[First "North"]

{start} 1. B6XC6 (1. B4W3 (1. A1XA1 E8XD8) E8XD8) E8XD8 2. Z9XZ9 (2. B5W4) 2... E5W6 (2... E5W5) *
"""


class Recorder(Visitor):
    def __init__(self) -> None:
        self.events: list[tuple] = []

    def begin_line(self, line, position, played):
        self.events.append(("begin", position.ply if position else None, played, line.comments))

    def node(self, node, before, after, state, findings):
        self.events.append(
            (
                node.text,
                state,
                before.ply if before else None,
                after.ply if after else None,
                [f.code for f in findings],
            )
        )

    def end_line(self, line):
        self.events.append(("end",))


EXPECTED = [
    ("begin", 0, True, ("start",)),
    ("begin", 0, True, ()),
    ("begin", 0, True, ()),
    ("A1XA1", "refused", 0, None, ["IL02"]),
    ("E8XD8", "unplayed", 0, None, []),
    ("end",),
    ("B4W3", "played", 0, 1, []),
    ("E8XD8", "played", 1, 2, []),
    ("end",),
    ("B6XC6", "played", 0, 1, []),
    ("E8XD8", "played", 1, 2, []),
    ("begin", 2, True, ()),
    ("B5W4", "played", 2, 3, []),
    ("end",),
    ("Z9XZ9", "refused", 2, None, ["IL02"]),
    ("begin", 2, False, ()),
    ("E5W5", "unplayed", 2, None, []),
    ("end",),
    ("E5W6", "unplayed", 2, None, []),
    ("end",),
]


def parsed_game(text: str = RECORD):
    (parsed,) = parse_text(text, path="walk.hxl")
    return parsed


def test_the_walk_visits_every_node_once_in_record_order():
    recorder = Recorder()
    report = replay_game(parsed_game(), recorder)
    assert recorder.events == EXPECTED
    assert [f.code for f in report.findings] == ["IL02", "IL02"]
    assert [p.ply for p in report.positions] == [0, 1, 2]


def test_walking_a_report_again_tells_the_same():
    recorder = Recorder()
    walk(replay_game(parsed_game()), recorder)
    assert recorder.events == EXPECTED


def test_a_record_without_a_start_is_walked_unplayed():
    recorder = Recorder()
    report = replay_game(parsed_game(RECORD.replace('[First "North"]', '[First "East"]')), recorder)
    assert not report.positions
    assert recorder.events[0] == ("begin", None, False, ("start",))
    states = {e[1] for e in recorder.events if len(e) == 5}
    assert states == {"unplayed"}


def test_the_script_api_walks_variations():
    (game,) = hexhop.read_games(RECORD.encode("utf-8"), game="Hexalit")
    recorder = Recorder()
    game.accept(recorder)
    assert recorder.events == EXPECTED


@pytest.fixture
def checks(monkeypatch) -> list[str]:
    """The actions the Hexalit board is asked about."""
    asked: list[str] = []
    rules = rules_for("Hexalit")
    board = type(rules.board(rules.start({}, None)))
    legal, problem = board.legal, board.problem
    explaining = []  # the explainer of a refusal may ask again: not counted

    def counting(self, item):
        if not explaining:
            asked.append(str(item))
        return legal(self, item)

    def explained(self, item):
        explaining.append(item)
        try:
            return problem(self, item)
        finally:
            explaining.pop()

    monkeypatch.setattr(board, "legal", counting)
    monkeypatch.setattr(board, "problem", explained)
    return asked


# the nodes the walk plays or refuses: the unplayed ones are never asked about
WALKED = ["A1XA1", "B4W3", "E8XD8", "B6XC6", "E8XD8", "B5W4", "Z9XZ9"]


def test_the_checker_asks_the_board_once_per_node(checks):
    replay_game(parsed_game())
    assert sorted(checks) == sorted(WALKED)


def test_the_json_codec_walks_along_with_the_checker(checks):
    to_json(RECORD.encode("utf-8"), "walk.hxl", None)
    assert sorted(checks) == sorted(WALKED)


def test_the_viewer_walks_the_report_once(checks):
    report = replay_game(parsed_game())
    checks.clear()
    page_data(report)
    assert sorted(checks) == sorted(WALKED)


CALL = re.compile(r"\.(check|play)\(")


def test_only_the_engine_plays_actions():
    """No module outside the engine (the rules and the replay) asks the rules
    to check or play an action: they consume the walk. (Calls in the code,
    read with ast: an example in a docstring is not a call.)"""
    import ast

    callers = []
    for folder in ("api", "cli", "notation", "records", "render"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and CALL.fullmatch(f".{node.func.attr}(")
                ):
                    callers.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert callers == []
