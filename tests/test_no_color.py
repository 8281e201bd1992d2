"""Colour follows --color, and for --color auto a terminal and the NO_COLOR
convention (no-color.org): set and not empty, it turns colour off."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexhop.cli.main import cli
from hexhop.cli.options import use_color

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
GAME = str(SAMPLES / "good" / "hexalit-kassel-1998.hxl")
BROKEN = str(SAMPLES / "broken" / "action-after-end.hpf")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("mode", "stream", "no_color", "expected"),
    [
        ("auto", Terminal(), None, True),
        ("auto", Terminal(), "1", False),
        ("auto", Terminal(), "", True),  # set but empty: not asked
        ("auto", io.StringIO(), None, False),
        ("always", io.StringIO(), "1", True),
        ("never", Terminal(), None, False),
    ],
)
def test_use_color(monkeypatch, mode, stream, no_color, expected) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    if no_color is not None:
        monkeypatch.setenv("NO_COLOR", no_color)
    assert use_color(mode, stream) is expected


@pytest.mark.parametrize("command", [["show", GAME], ["check", BROKEN]])
def test_color_always_wins_over_no_color(monkeypatch, command) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    coloured = CliRunner().invoke(cli, [*command, "--color", "always"])
    assert "\x1b[" in coloured.stdout
    plain = CliRunner().invoke(cli, [*command, "--color", "never"])
    assert "\x1b[" not in plain.stdout
