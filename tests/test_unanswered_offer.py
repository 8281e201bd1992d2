"""A record that ends right after a cube offer.

The rules answer an offer at once (take or drop). A game adjourned while
its offer waited (result ``*``, or none) is valid with a note at the
offer; a decided result after an offer never answered is an error there.
Both readers of a main line (flat, for check and the index, and the record
tree) say the same.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from archive_helpers import run

from hexhop.engine.replay import replay_game
from hexhop.notation import parse_text

NT05 = "the record ends with the cube offer double 2, not yet answered: the game was adjourned"


def _st03(result: str) -> str:
    return (
        "the record ends with the cube offer double 2, never answered, "
        f"but the result is {result}: an offer is answered at once"
    )


@pytest.mark.parametrize(
    "tag, marker, valid, code, message",
    [
        ("", "*", True, "NT05", NT05),
        ("", "", True, "NT05", NT05),
        ('[Result "*"]\n', "", True, "NT05", NT05),
        ("", "1-0", False, "ST03", _st03("1-0")),
        ('[Result "0-1"]\n', "", False, "ST03", _st03("0-1")),
    ],
)
def test_an_offer_left_unanswered_at_the_end(
    tmp_path: Path, tag: str, marker: str, valid: bool, code: str, message: str
) -> None:
    text = f'[Game "Hexalit"]\n{tag}\n1. B4W3 D7W1 2. double 2 {marker}\n'
    path = tmp_path / "c.hxl"
    path.write_text(text, "utf-8")
    result = run("check", "--format", "json", path)
    [game] = json.loads(result.stdout)["files"][0]["games"]
    assert game["valid"] is valid and game["plies"] == 2
    line = text.count("\n", 0, text.index("1. B4W3")) + 1
    assert game["findings"] == [
        {
            "severity": "warning" if valid else "error",
            "category": "notation" if valid else "state",
            "code": code,
            "message": message,
            "line": line,
            "column": 17,
            "ply": 3,
            "action": "double 2",
        }
    ]
    # the record tree says the same
    [parsed] = parse_text(text)
    report = replay_game(parsed)
    assert [(f.code, f.line, f.column, f.ply, f.message) for f in report.findings] == [
        (code, line, 17, 3, message)
    ]


@pytest.mark.parametrize("answer", ["take", "drop"])
def test_an_answered_offer_at_the_end_is_no_finding(answer: str) -> None:
    [parsed] = parse_text(f'[Game "Hexalit"]\n\n1. B4W3 D7W1 2. double 2 {answer} *\n')
    codes = [f.code for f in replay_game(parsed).findings]
    assert "NT05" not in codes and "ST03" not in codes


def test_an_offer_in_a_variation_or_before_an_action_is_no_finding() -> None:
    text = '[Game "Hexalit"]\n\n1. B4W3 D7W1 (1... double 2) 2. double 2 take B5W3 *\n'
    [parsed] = parse_text(text)
    assert [f.code for f in replay_game(parsed).findings if f.code in ("NT05", "ST03")] == []
