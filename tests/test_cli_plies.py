"""Choosing plies for render: --plies specs and spread sheets."""

from __future__ import annotations

import click
import pytest

from hexhop.cli.render_cmd import _stem, parse_plies, spread_plies


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("0", [0]),
        ("0,10-12,last", [0, 10, 11, 12, 30]),
        ("last", [30]),
        ("5-5", [5]),
        ("3, 1", [1, 3]),
        ("28-last", [28, 29, 30]),
    ],
)
def test_parse_plies(spec, expected):
    assert parse_plies(spec, 30) == expected


@pytest.mark.parametrize("spec", ["31", "5-2", "x", "1-", ""])
def test_parse_plies_rejects_bad_specs(spec):
    with pytest.raises(click.BadParameter):
        parse_plies(spec, 30)


def test_spread_plies_keeps_start_and_end():
    assert spread_plies(30, 4) == [0, 10, 20, 30]
    assert spread_plies(3, 12) == [0, 1, 2, 3]


@pytest.mark.parametrize(
    "path, stem",
    [
        ("samples/good/club.hxl", "club"),
        ("arch.zip:2024/final game.hxl", "final_game"),
        ("../../etc/passwd", "passwd"),
    ],
)
def test_output_stems_stay_plain_names(path, stem):
    assert _stem(path) == stem
