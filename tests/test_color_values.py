"""``render --colors`` reads every colour with one parser: a CSS name,
``#rgb``/``#rrggbb`` (alpha too), ``rgb()`` of integers 0–255 or of
percentages, ``rgba()`` with an alpha from 0 to 1. Anything else is a
clean error naming the value, for SVG and PNG alike (the PNG writer once
failed with a traceback on what was let through)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from hexhop.cli.main import cli
from hexhop.records.colors import is_color

GAME = '[Game "Hexalit"]\n\n1. B4W3 D7W1 *\n'

MALFORMED = [
    "rgb(%,%,%)",
    "rgb(1,1,1,...,)",
    "rgb()",
    "rgb(,,)",
    "rgb(1,2)",
    "rgb(1,2,3,0.5)",
    "rgb(1 2 3)",
    "rgb(256,0,0)",
    "rgb(-1,0,0)",
    "rgb(+1,0,0)",
    "rgb(1.5,2,3)",
    "rgb(1e2,0,0)",
    "rgb(0x1,0,0)",
    "rgb(10%,2,3)",
    "rgb(101%,0%,0%)",
    "rgb(1%,2%,3)",
    "rgb(١,2,3)",  # an Arabic-Indic one
    "rgb(²,2,3)",  # a superscript two
    "rgb((1,2,3))",
    "rgb(1,2,3)x",
    "rgb(1,2,3 ",
    "rgba(1,2,3)",
    "rgba(1,2,3,)",
    "rgba(1,2,3,.)",
    "rgba(1,2,3,2)",
    "rgba(1,2,3,1.5)",
    "rgba(1,2,3,50%)",
    "rgba(1,2,3,0.5,1)",
    "#",
    "#abcde",
    "#ggg",
    "#١٢٣",
    "brownish",
    "",
]
WELL_FORMED = [
    "#abc",
    "#ABCD",
    "#aabbcc",
    "#aabbccdd",
    "rgb(1,2,3)",
    "rgb( 1 , 2 , 3 )",
    "RGB(0,0,255)",
    "rgb(10%,20%,30%)",
    "rgb(10.5%,20%,100%)",
    "rgba(1,2,3,0.5)",
    "rgba(1,2,3,.5)",
    "rgba(0%,0%,0%,1)",
    "saddlebrown",
]


def render(tmp_path: Path, fmt: str, color: str) -> Result:
    record = tmp_path / "a.hxl"
    record.write_text(GAME, "utf-8")
    colors = json.dumps({"dark": color})
    args = ["render", str(record), "--format", fmt, "--plies", "last", "--colors", colors]
    return CliRunner().invoke(cli, [*args, "--out-dir", str(tmp_path / "out")])


@pytest.mark.parametrize("fmt", ["png", "svg"])
@pytest.mark.parametrize("color", MALFORMED)
def test_a_malformed_colour_is_a_clean_error(tmp_path, fmt, color):
    result = render(tmp_path, fmt, color)
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    told = (
        f"Error: Invalid value for '--colors': --colors: dark: {color!r} is not a colour "
        "(a CSS colour name such as saddlebrown, #rgb or #rrggbb)"
    )
    assert " ".join(told.split()) in " ".join(result.output.split())  # as click wraps it
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


@pytest.mark.parametrize("color", WELL_FORMED)
def test_a_well_formed_colour_is_drawn_as_png(tmp_path, color):
    result = render(tmp_path, "png", color)
    assert result.exit_code == 0, result.output
    [picture] = (tmp_path / "out").iterdir()
    assert picture.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_one_parser_says_what_a_colour_is():
    assert [c for c in WELL_FORMED if not is_color(c)] == []
    assert [c for c in MALFORMED if is_color(c)] == []
    assert not is_color(None) and not is_color(255)
