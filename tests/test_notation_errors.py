"""Syntax errors: the documented message at the exact line and column."""

from __future__ import annotations

from pathlib import Path

import pytest
from notation_helpers import one

from hexhop.notation import CubeAnswer, CubeOffer, DiceAction, Span, parse_text, read_archive

BROKEN = sorted(Path(__file__).parent.parent.joinpath("samples", "broken").glob("syntax-*"))


def expectation(path: Path) -> str:
    """The first line of a broken sample: ``; expect CODE at L:C: message``."""
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("; expect ")
    return first[len("; expect ") :]


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.name)
def test_broken_sample_gives_its_message(path):
    games = list(read_archive(path.read_bytes(), path=str(path)))
    assert len(games) == 1
    (finding,) = games[0].findings
    assert f"{finding.code} at {finding.line}:{finding.column}: {finding.message}" == expectation(
        path
    )
    assert finding.category == "syntax" and finding.severity == "error"
    record = games[0].record
    assert record is not None and record.tags
    # the actions written before the error stand
    assert [node.text for node in record.main.nodes] == KEPT[path.name]


# the main line of each broken sample: what is written before its error
KEPT = {
    "syntax-capture-birth.hpf": ["a2-c2@c1", "f5-d5@c5", "c1-c3@b3", "f6-d6-d4@d3"],
    "syntax-dash-move.hxl": ["B4W3", "D7W1"],
    "syntax-double-number.hxl": ["B4W3", "D7W1"],
    "syntax-missing-cell.hxl": ["B4W3", "D7W1"],
    "syntax-result-not-last.hpf": ["a2-c2@c1", "f5-d5@c5"],
    "syntax-stray-paren.trg": ["C7°D7", "E6°D7"],
    "syntax-stray-result.hxl": ["B4W3", "D7W1", "A5XB2^", "D7XD5"],
    "syntax-unclosed-comment.hxl": ["B4W3", "D7W1"],
    "syntax-unclosed-tag.trg": [],  # the header is broken: no movetext is read
    "syntax-unclosed-variation.hpf": ["a2-c2@c1"],
}


def test_there_is_a_sample_for_each_kind():
    assert {p.suffix for p in BROKEN} == {".hxl", ".trg", ".hpf"}
    assert {expectation(p).split()[0] for p in BROKEN} >= {"SY01", "SY02", "SY03", "SY04", "SY05"}


HEX = '[Game "Hexalit"]\n'


@pytest.mark.parametrize(
    "text, code, span, message",
    [
        (
            '[Game "Hexalit]\n1. B6XC6',
            "SY01",
            (1, 7),
            "unclosed tag value: the closing '\"' is missing on this line",
        ),
        (
            "[Game Hexalit]",
            "SY01",
            (1, 7),
            "expected a quoted tag value like \"Hexalit\", found 'Hexalit'",
        ),
        (
            '[ "Hexalit"]',
            "SY01",
            (1, 3),
            "expected a tag name like Event after '[', found '\"Hexalit\"'",
        ),
        (
            HEX + "1. B6XC6 12 C6XD6",
            "SY01",
            (2, 10),
            "'12' is not a move number: write '12.' or '12...'",
        ),
        (HEX + "! B6XC6", "SY01", (2, 1), "'!' must follow the action it judges"),
        (HEX + "(B6XC6)", "SY01", (2, 1), "a variation '(' must follow the action it replaces"),
        (
            HEX + "B6XC6 resigns",
            "SY01",
            (2, 7),
            "unexpected 'resigns': expected an action, a move "
            "number, a comment, a variation or the result",
        ),
        (HEX + "B6XC6 }", "SY01", (2, 7), "'}' closes no comment"),
        (
            HEX + "B6XC6 [x]",
            "SY01",
            (2, 7),
            "'[' in the movetext: tags go in the header, before the first action",
        ),
        (HEX + "B6 X", "SY01", (2, 5), "expected a cell like B6 after 'X'"),
        (HEX + "B6?C6", "SY01", (2, 3), "expected X, W or ° after 'B6', found '?'"),
        (HEX + "B5W", "SY01", (2, 4), "expected the face the die shows (1 to 6) after 'W'"),
        (HEX + "1. 1/2-1/2", "SY01", (2, 4), "'1/2-1/2' is not a result: write 1-0, 0-1 or *"),
        ('[Game "Trigeo"]\nE6XF6=', "SY01", (2, 7), "expected the new face (a digit) after '='"),
        (
            '[Game "Hüpfer"]\nB6XC6 B5W4',
            "SY05",
            (2, 7),
            "'B5W4' is not a Hüpfer action: Hüpfer actions are paths like c3xc5 or a1-c1@d1",
        ),
        (
            '[Game "Hüpfer"]\na1',
            "SY05",
            (2, 1),
            "'a1' is not a Hüpfer action: write the whole path, e.g. a1-c1@d1 or c3xc5",
        ),
        (
            '[Game "Hüpfer"]\na1xa3-a5',
            "SY05",
            (2, 1),
            "'a1xa3-a5' is not a Hüpfer action: hops ('-') come before captures ('x'), e.g. a1-a3xa5",
        ),
        ('[Game "Hüpfer"]\na1-', "SY01", (2, 4), "expected a point like c3 after '-'"),
        ('[Game "Hüpfer"]\na1-c1@', "SY01", (2, 7), "expected a point like d1 after '@'"),
    ],
)
def test_messages(text, code, span, message):
    (finding,) = one(text).findings
    assert (finding.code, (finding.line, finding.column), finding.message) == (code, span, message)


def test_finding_span_points_into_the_file_not_the_game():
    text = HEX + "1. B6XC6\n\n" + HEX + "\n\n1. C6XD6 C6-D7"
    games = list(read_archive(text.encode()))
    assert games[1].findings[0].span == Span(7, 10)
    source_line = text.split("\n")[6]
    assert source_line[games[1].findings[0].column - 1 :].startswith("C6-D7")


def test_syntax_error_keeps_the_tags():
    game = one('[Game "Hexalit"]\n[North "Anna"]\n[South "Ben"\n1. B6XC6')
    assert [(t.name, t.value) for t in game.record.tags] == [("Game", "Hexalit"), ("North", "Anna")]
    assert game.record.game == "Hexalit" and game.findings[0].code == "SY04"


@pytest.mark.parametrize(
    "game, text, item",
    [
        ("Hexalit", "E6XF6=6", DiceAction("E6", "move", "F6", promote=6)),
        ("Trigeo", "B5W4", DiceAction("B5", "roll", face=4)),
        ("Trigeo", "double 2", CubeOffer(2)),
        ("Hüpfer", "take", CubeAnswer(True)),
    ],
)
def test_actions_another_game_forbids_still_read(game, text, item):
    """Whether a promotion, a roll or a cube event is allowed is for the rules
    (rules.md §8.8, §8.12): the checker reports them as illegal actions."""
    (parsed,) = parse_text(f'[Game "{game}"]\n{text} *\n')
    assert parsed.findings == ()
    assert parsed.record.main.nodes[0].item == item


@pytest.mark.parametrize("result", ["1-0", "0-1"])
def test_an_offer_without_a_number_before_the_result(result):
    (parsed,) = parse_text(f'[Game "Hexalit"]\n1. B6XC6 double {result}\n')
    assert parsed.findings == ()
    assert parsed.record.main.nodes[-1].item == CubeOffer(None)
    assert parsed.record.result == result
