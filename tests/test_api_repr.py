"""repr(game) is one line, as python-chess shows a game: not a
dump of the whole replay."""

from __future__ import annotations

from pathlib import Path

import hexhop

GOOD = Path(__file__).resolve().parent.parent / "samples" / "good"


def test_a_game_shows_as_one_line() -> None:
    path = GOOD / "hexalit-kassel-1998.hxl"
    [game] = hexhop.read_games(path)
    assert repr(game) == (
        f"<Game Hexalit 'Anna Berger' v 'Jonas Keller', 42 plies, valid ({path}, game 1)>"
    )


def test_a_game_of_bytes_names_its_sides_and_number() -> None:
    data = (GOOD / "huepfer-6x6-bremen-2003.hpf").read_bytes()
    [game] = hexhop.read_games(data)
    assert repr(game) == "<Game Hüpfer 'Mira Hansen' v 'Paul Ohlsen', 23 plies, valid (game 1)>"
    [broken] = hexhop.read_games(b"1. B4W3 D7W1 2. A0XB2 *", game="Hexalit")
    assert repr(broken) == "<Game Hexalit '?' v '?', 3 plies, invalid (game 1)>"
