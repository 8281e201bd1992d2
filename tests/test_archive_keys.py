"""The position keys the index stores: found along a
game from the cells that changed, with what a change does remembered, they
are the keys of the documented scheme found afresh for every position."""

from __future__ import annotations

from pathlib import Path

import pytest

import hexhop
from hexhop.archive import keys as keys_module
from hexhop.archive.facts import signed
from hexhop.archive.keys import signed_keys
from hexhop.engine.base import Position
from hexhop.engine.generate import random_archive
from hexhop.engine.replay import ParsedGame, replay_game
from hexhop.engine.zobrist import position_key

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def afresh(positions: list[Position]) -> list[int]:
    return [signed(position_key(position)) for position in positions]


def games() -> list[list[Position]]:
    """The main lines of the samples and of random games of every game and board."""
    found = [
        game.positions
        for path in sorted(SAMPLES.glob("*/*"))
        if path.suffix in (".hxl", ".trg", ".hpf")
        for game in hexhop.read_games(path)
    ]
    for game, board in (("Hexalit", 6), ("Trigeo", 6), ("Hüpfer", 6), ("Hüpfer", 8)):
        for record in random_archive(game, 6, 14, board=board, max_plies=80):
            found.append(replay_game(ParsedGame(1, record)).positions)
    return [positions for positions in found if positions]


@pytest.mark.parametrize("remembered", [keys_module.CHANGES, 1])
def test_keys_along_a_game_are_the_keys_found_afresh(
    remembered: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(keys_module, "CHANGES", remembered)  # 1: learn almost nothing
    played = games()
    assert len(played) > 30
    assert {p[0].game for p in played} == {"Hexalit", "Trigeo", "Hüpfer"}
    for positions in played:
        assert signed_keys(positions) == afresh(positions)
    # a list mixing games and boards starts afresh at each change of table
    mixed = [p for positions in played[:8] + played[-8:] for p in positions]
    assert signed_keys(mixed) == afresh(mixed)


def test_the_documented_start_key() -> None:
    start = hexhop.read_games(SAMPLES / "good" / "hexalit-kassel-1998.hxl")
    first = next(iter(start)).positions[0]
    assert signed_keys([first]) == [signed(0x13CAB41990889431)]
