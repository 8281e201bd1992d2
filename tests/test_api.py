"""The Python API for scripts and notebooks."""

from __future__ import annotations

from pathlib import Path

import pytest

from hexhop.engine.api import Game, SVG, legal_actions, position, read_games
from hexhop.engine.base import HeaderError

GOOD = Path(__file__).resolve().parent.parent / "samples" / "good"


def test_read_games_replays_every_game():
    (game,) = read_games(GOOD / "trigeo-goettingen-1999.trg")
    assert isinstance(game, Game)
    assert (game.game, game.valid, game.tags["North"]) == ("Trigeo", True, "Ute Sommer")
    assert game.actions[:3] == ["C7°D7", "E6°D7", "B7°D7"]
    assert len(game.positions) == 41
    assert game.end.winner == "South" and game.end.ply == 40


def test_read_games_from_bytes_with_a_game():
    (game,) = read_games(b"1. a1-c1@d1 *\n", game="Hüpfer")
    assert game.actions == ["a1-c1@d1"]
    assert game.legal_actions(0)[:2] == ["a1-a3@a4", "a1-a3@b3"]


def test_position_and_legal_actions():
    p = position("hexalit", "N: A7=1 C7=2; S: F7=1 D6=2; turn: N")
    assert legal_actions(p)[-3:] == ["C7W6", "C7XD7", "C7°D6"]
    with pytest.raises(HeaderError):
        position("Hexalit", "N: Z9=1")
    with pytest.raises(ValueError):
        position("Chess", "")


def test_svg_displays_inline():
    (game,) = read_games(GOOD / "huepfer-8x8-bremen-2003.hpf")
    picture = game.svg(5)
    assert isinstance(picture, SVG) and picture._repr_svg_().startswith("<svg")
    assert 'data-ply="5"' in picture and "last-to" in picture
    assert game.positions[0]._repr_svg_().startswith("<svg")
    assert game._repr_svg_() == game.svg()
