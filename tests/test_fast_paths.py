"""The shortcuts that make checking fast give the answers the plain way gives.

Hüpfer's end of game is searched for only when
asked, captures are found on bit boards, the standard dice start is made
once, and a game with headers only is read and replayed in few calls.
"""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest

from hexhop.engine.dice.hexalit import HEXALIT
from hexhop.engine.generate import random_archive
from hexhop.engine.huepfer import inplace as huepfer_inplace
from hexhop.engine.huepfer.board import board
from hexhop.engine.huepfer.inplace import HopBoard
from hexhop.engine.huepfer.moves import piece_capture
from hexhop.engine.huepfer.position import HuepferPosition
from hexhop.engine.replay import replay_game
from hexhop.notation import format_archive, read_archive


def _plain_capture(size: int, cells: bytes, me: int) -> bool:
    tables = board(size)
    return any(
        piece_capture(tables, cells, p, me) is not None for p, c in enumerate(cells) if c == me
    )


@pytest.mark.parametrize("size", [6, 8, 10])
def test_the_boards_capture_test_agrees_with_a_search_piece_by_piece(size: int) -> None:
    rng = random.Random(size)
    for _ in range(3000):
        fill = rng.random()
        cells = bytes(rng.choice((1, 2)) if rng.random() < fill else 0 for _ in range(size**2))
        on = HopBoard(HuepferPosition(board(size), cells, (0, 0), 0), False)
        for me in (1, 2):
            assert on.can_capture(me) == _plain_capture(size, cells, me), (
                cells,
                me,
            )


def test_a_huepfer_replay_looks_for_a_stuck_side_only_at_the_end(monkeypatch: Any) -> None:
    """A legal turn shows the side to move was not stuck: no search per ply."""
    calls = []
    search = huepfer_inplace.has_hop_turn

    def counted(*args: Any) -> bool:
        calls.append(args)
        return search(*args)

    monkeypatch.setattr(huepfer_inplace, "has_hop_turn", counted)
    data = format_archive(random_archive("Hüpfer", 3, 5, board=10, max_plies=80)).encode()
    for parsed in read_archive(data, path="games.hpf"):
        calls.clear()
        report = replay_game(parsed)
        assert report.valid() and report.plies > 20
        assert len(calls) <= 1  # the last position's, for the result check


def test_the_standard_dice_start_is_made_once() -> None:
    tags = {"First": "South"}
    assert HEXALIT.start(tags) is HEXALIT.start(dict(tags))
    assert HEXALIT.start({}) is not HEXALIT.start(tags)
    assert HEXALIT.start(tags).to_move == "South"


def _calls(data: bytes) -> int:
    """Python and C calls made to read and replay ``data`` (after a first time)."""
    for parsed in read_archive(data):
        replay_game(parsed)
    count = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        count += event in ("call", "c_call")

    sys.setprofile(profile)
    try:
        for parsed in read_archive(data):
            replay_game(parsed)
    finally:
        sys.setprofile(None)
    return count


def test_a_game_with_headers_only_costs_few_calls() -> None:
    """481 calls before the header fast paths, 181 with them (a proxy for
    time that does not move with the machine's load); 225 since the file's
    encoding is decided where the damage is and ``--encoding`` is asked."""
    data = b'[Game "Hexalit"]\n[Event "Club"]\n[North "A"]\n[South "B"]\n[Result "*"]\n\n'
    assert _calls(data) <= 240


def test_a_tag_written_again_gets_its_own_place_and_the_same_value() -> None:
    text = (
        '[Game "Hexalit"]\n[Anzieher "Nord"]\n[Event "A \\"B\\""]\n\n*\n\n'
        '[Game "Hexalit"]\n  [Anzieher "Nord"] [Event "A \\"B\\""]\n\n*\n'
    )
    first, second = (game.record for game in read_archive(text.encode()))
    assert first is not None and second is not None
    for record in (first, second):
        assert [(t.name, t.value) for t in record.tags] == [
            ("Game", "Hexalit"),
            ("First", "North"),
            ("Event", 'A "B"'),
        ]
    assert [(t.span.line, t.span.column, t.span.end_column) for t in first.tags] == [
        (1, 1, 17),
        (2, 1, 18),
        (3, 1, 18),
    ]
    assert [(t.span.line, t.span.column, t.span.end_column) for t in second.tags] == [
        (7, 1, 17),
        (8, 3, 20),
        (8, 21, 38),
    ]


def test_a_huepfer_position_not_yet_settled_survives_pickle_and_copy() -> None:
    import copy
    import pickle

    from hexhop.engine.huepfer.rules import HUEPFER

    start = HUEPFER.standard(8)
    for twin in (pickle.loads(pickle.dumps(start)), copy.copy(start)):
        assert twin == start and twin.winner is None and twin.ply == 0
        assert HUEPFER.check(twin, next(iter(HUEPFER.legal_actions(twin)))) is None
    stuck = HUEPFER.parse_position("R: a1; T:; reserve: 0/0", {"Board": "6x6"})
    assert pickle.loads(pickle.dumps(stuck)).winner == "Turquoise"
