"""Regressions found by cross-checking the engine against tests/reference (rules.md,
notation.md and the error catalogue)."""

from __future__ import annotations

from hexhop.engine.replay import End, replay_game
from hexhop.notation import parse_text

STUDY = '[Game "Hexalit"]\n[Position "N: A7=1 B7=6; S: F7=1 E6=2; turn: N"]\n'


def replay(text: str):
    (parsed,) = parse_text(text, path="test.hxl")
    return replay_game(parsed)


def codes(report) -> list[tuple[str, int | None]]:
    return [(f.code, f.ply) for f in report.findings]


def test_no_result_after_the_end_is_left_open():
    """A game that ended on the board and has no result at all (no marker, no Result tag)
    is as open as one ending in '*': NT02 (docs/errors.md: "'*' (or missing)")."""
    report = replay(STUDY + "\n1. B7°F7+\n")
    assert report.end == End("North", 1) and report.result is None
    assert codes(report) == [("NT02", None)]
    assert report.valid() and not report.valid(strict=True)


def test_no_result_in_an_unfinished_game_is_fine():
    report = replay(STUDY + "\n1. B7XC7\n")
    assert report.end is None and codes(report) == [("AN01", 1)]


def test_sixteen_dice_on_a_side_are_a_header_error():
    """docs/rules.md, Position values: a side owns 15 dice."""
    dice = " ".join(f"C{c}=2" for c in range(1, 14)) + " B5=2 B6=2 B7=1"
    report = replay(f'[Game "Hexalit"]\n[Position "N: {dice}; S: F7=1; turn: N"]\n*\n')
    assert codes(report) == [("HD05", None)]
