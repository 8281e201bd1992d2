"""What a ply costs to read and replay, counted in calls (a proxy for time
that does not move with the machine's load), and the values the fast paths
build: the same as the classes' own constructors give.

The enemy's attacked Ones and the dice that turn
back are found in one loop each, and the scanner fills nodes, spans and
tags in place, keeping only the fields that differ from their defaults.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

from hexhop.engine.generate import random_archive
from hexhop.engine.replay import replay_game
from hexhop.notation import format_archive, read_archive
from hexhop.notation.model import DiceAction, Line, Node, Span, Tag

ROOT = Path(__file__).resolve().parent.parent


def _calls_per_ply(data: bytes, path: str) -> float:
    """Python and C calls made to read and replay ``data``, per ply (after a first time)."""
    for parsed in read_archive(data, path=path):
        replay_game(parsed)
    count = plies = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        count += event in ("call", "c_call")

    sys.setprofile(profile)
    try:
        for parsed in read_archive(data, path=path):
            plies += replay_game(parsed).plies
    finally:
        sys.setprofile(None)
    return count / plies


def test_a_dice_ply_costs_few_calls() -> None:
    """50.7 calls a Hexalit ply before these changes (50.5 Trigeo), 46.5 with them."""
    for game, path in (("Hexalit", "games.hxl"), ("Trigeo", "games.trg")):
        data = format_archive(random_archive(game, 4, 11, max_plies=120)).encode()
        assert _calls_per_ply(data, path) <= 48


def test_scanned_nodes_equal_the_constructed_ones_and_survive_pickle() -> None:
    text = '[Game "Hexalit"]\n[Event "Club"]\n\n1. B6XC6! {good} (1. B5XC5) D7XD6 *\n'
    parsed = next(iter(read_archive(text.encode())))
    record = parsed.record
    assert record is not None
    first, second = record.main.nodes
    variation = Line(
        (
            Node(
                DiceAction("B5", "move", "C5"),
                Span(4, 22, 4, 27),
                "B5XC5",
                1,
                1,
                Span(4, 19, 4, 21),
            ),
        ),
        (),
        Span(4, 18, 4, 28),
    )
    assert first == Node(
        DiceAction("B6", "move", "C6"),
        Span(4, 4, 4, 9),
        "B6XC6",
        1,
        1,
        Span(4, 1, 4, 3),
        ("!",),
        ("good",),
        (variation,),
    )
    assert second == Node(DiceAction("D7", "move", "D6"), Span(4, 29, 4, 34), "D7XD6")
    assert repr(second) == repr(Node(DiceAction("D7", "move", "D6"), Span(4, 29, 4, 34), "D7XD6"))
    assert second.glyphs == () and second.number is None and second.number_dots == 0
    assert record.tags[1] == Tag("Event", "Club", Span(2, 1, 2, 15))
    assert pickle.loads(pickle.dumps(parsed)) == parsed


def test_setup_clears_the_files_of_an_earlier_build(tmp_path: Path) -> None:
    """A compiled build must not pack the extension of a module an earlier
    build compiled and this one does not (build/lib.<platform>)."""
    (tmp_path / "setup.py").write_text((ROOT / "setup.py").read_text(encoding="utf-8"))
    stale = [
        tmp_path / "build" / "lib" / "old.py",
        tmp_path / "build" / "lib.linux-x86_64-cpython-311" / "old.so",
    ]
    for path in stale:
        path.parent.mkdir(parents=True)
        path.write_text("")
    keep = tmp_path / "build" / "temp.linux-x86_64-cpython-311" / "cache.o"
    keep.parent.mkdir(parents=True)
    keep.write_text("")
    probe = (
        "import runpy, setuptools; setuptools.setup = lambda **kw: None; runpy.run_path('setup.py')"
    )
    env = {"PATH": "/usr/bin:/bin"}
    subprocess.run([sys.executable, "-c", probe], check=True, cwd=tmp_path, env=env)
    assert [path.exists() for path in stale] == [False, False]
    assert keep.exists()
