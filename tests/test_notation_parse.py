"""Every construct of the record language parses, with exact spans."""

from __future__ import annotations

import time

import pytest
from notation_helpers import one, record

from hexhop.notation import (
    CubeAnswer,
    CubeOffer,
    DiceAction,
    HopAction,
    NotationError,
    Span,
    game_from_name,
    game_from_path,
    parse_action,
    parse_text,
    read_archive,
    reader,
)
from hexhop.notation import parser as notation_parser

HEX = '[Game "Hexalit"]\n\n'
TRI = '[Game "Trigeo"]\n\n'
HUP = '[Game "Hüpfer"]\n\n'


def items(text: str, **options) -> list:
    return [node.item for node in record(text, **options).main.nodes]


# ---------------------------------------------------------------- header


def test_tag_escapes_and_several_tags_per_line():
    rec = record('[Game "Hexalit"] [Event "Club \\"Hexe\\" \\\\ 2024"]\n[Note "a\\x"]\n')
    assert [(t.name, t.value) for t in rec.tags] == [
        ("Game", "Hexalit"),
        ("Event", 'Club "Hexe" \\ 2024'),
        ("Note", "a\\x"),
    ]
    assert rec.tags[1].span == Span(1, 18, 1, 49)
    assert rec.tags[2].span == Span(2, 1, 2, 13)


def test_tag_split_over_lines_is_read_by_the_grammar():
    rec = record('[Game\n "Hexalit"\n]\n1. B6XC6')
    assert rec.tag("game") == "Hexalit" and rec.tags[0].span == Span(1, 1, 3, 2)


@pytest.mark.parametrize(
    "value, game",
    [
        ("Hexalit", "Hexalit"),
        ("HEXALIT", "Hexalit"),
        ("trigeo", "Trigeo"),
        ("Hüpfer", "Hüpfer"),
        ("huepfer", "Hüpfer"),
        ("Hupfer", "Hüpfer"),
        ("HÜPFER", "Hüpfer"),
        ("Hu\u0308pfer", "Hüpfer"),
        ("chess", None),
        ("", None),
    ],
)
def test_game_from_name(value, game):
    assert game_from_name(value) == game


@pytest.mark.parametrize(
    "path, game",
    [("a/b.hxl", "Hexalit"), ("x.TRG", "Trigeo"), ("x.hpf", "Hüpfer"), ("x.pgn", None), ("", None)],
)
def test_game_from_path(path, game):
    assert game_from_path(path) == game


def test_the_game_decides_how_actions_read():
    assert items(HEX + "b6xc6") == [DiceAction("B6", "move", "C6")]
    assert items(HUP + "b2xb4") == [HopAction(("b2", "b4"), ("x",))]
    assert items("b2xb4", path="g.hpf") == [HopAction(("b2", "b4"), ("x",))]
    assert items("b6xc6", default_game="huepfer") == [HopAction(("b6", "c6"), ("x",))]
    assert items("b6xc6", path="g.hxl", default_game="Hüpfer")[0].kind == "move"


def test_unknown_and_missing_game():
    game = one('[Event "x"]\n[Game "Chess"]\n\n1. e4 e5')
    assert [(f.code, f.category, f.span.line, f.span.column) for f in game.findings] == [
        ("HD01", "header", 2, 1)
    ]
    assert game.record.game is None and game.record.main.nodes == ()
    assert [f.code for f in one("1. B6XC6").findings] == ["HD02"]
    with pytest.raises(NotationError):
        list(parse_text("1. B6XC6", default_game="chess"))


# ---------------------------------------------------------------- actions


@pytest.mark.parametrize(
    "text, action",
    [
        ("B6XC6", DiceAction("B6", "move", "C6")),
        ("b6xc6", DiceAction("B6", "move", "C6")),
        ("B6xC6", DiceAction("B6", "move", "C6")),
        ("B6 X C6", DiceAction("B6", "move", "C6")),
        ("B6°C7", DiceAction("B6", "capture", "C7")),
        ("B6:C7", DiceAction("B6", "capture", "C7")),
        ("B6ºC7", DiceAction("B6", "capture", "C7")),
        ("B6˚C7", DiceAction("B6", "capture", "C7")),
        ("b6 ° c7", DiceAction("B6", "capture", "C7")),
        ("B5W4", DiceAction("B5", "roll", face=4)),
        ("b5w4", DiceAction("B5", "roll", face=4)),
        ("B5 W 4", DiceAction("B5", "roll", face=4)),
        ("E1°D2^", DiceAction("E1", "capture", "D2", mark="^")),
        ("C6XD6+", DiceAction("C6", "move", "D6", mark="+")),
        ("double", CubeOffer()),
        ("double 4", CubeOffer(4)),
        ("Doppler 4", CubeOffer(4)),
        ("DOUBLE 2", CubeOffer(2)),
        ("take", CubeAnswer(True)),
        ("drop", CubeAnswer(False)),
        ("angenommen", CubeAnswer(True)),
        ("abgelehnt", CubeAnswer(False)),
    ],
)
def test_hexalit_spellings(text, action):
    assert items(HEX + text) == [action]
    assert parse_action(text, "Hexalit") == action
    assert parse_action(str(action), "Hexalit") == action


@pytest.mark.parametrize(
    "text, action",
    [
        ("E6XF6=6", DiceAction("E6", "move", "F6", promote=6)),
        ("E6XF6 = 6", DiceAction("E6", "move", "F6", promote=6)),
        ("D2°E6=5+", DiceAction("D2", "capture", "E6", promote=5, mark="+")),
        ("a1:b2", DiceAction("A1", "capture", "B2")),
    ],
)
def test_trigeo_spellings(text, action):
    assert items(TRI + text) == [action]
    assert parse_action(str(action), "Trigeo") == action


@pytest.mark.parametrize(
    "text, action",
    [
        ("c3xc5", HopAction(("c3", "c5"), ("x",))),
        ("c3xc5xe5", HopAction(("c3", "c5", "e5"), ("x", "x"))),
        ("a1-c1@d1", HopAction(("a1", "c1"), ("-",), "d1")),
        ("a2-c2-c4@c5", HopAction(("a2", "c2", "c4"), ("-", "-"), "c5")),
        ("a1-a3xa5xc5", HopAction(("a1", "a3", "a5", "c5"), ("-", "x", "x"))),
        ("A1-C1@D1", HopAction(("a1", "c1"), ("-",), "d1")),
        ("c3Xc5^", HopAction(("c3", "c5"), ("x",), mark="^")),
        ("a1-c1", HopAction(("a1", "c1"), ("-",))),
    ],
)
def test_huepfer_paths(text, action):
    assert items(HUP + text) == [action]
    assert parse_action(str(action), "Hüpfer") == action


def test_parse_action_refuses_more_than_one_action():
    for text in ("1. B6XC6", "B6XC6 C6XD6", "B6XC6 {x}", "", "B6-C6"):
        with pytest.raises(NotationError):
            parse_action(text, "Hexalit")
    with pytest.raises(NotationError):
        parse_action("B6XC6", "Chess")


# ---------------------------------------------------------------- movetext


def test_move_numbers():
    nodes = record(HEX + "12. B6XC6 {c} 12... C6XD6 13.E1XD1").main.nodes
    assert [(n.number, n.number_dots) for n in nodes] == [(12, 1), (12, 3), (13, 1)]
    assert nodes[0].number_span == Span(3, 1, 3, 4)
    assert nodes[2].span == Span(3, 30, 3, 35)


@pytest.mark.parametrize("glyph", ["!", "?", "!!", "??", "!?", "?!", "$14"])
def test_glyphs(glyph):
    assert record(HEX + f"B6XC6{glyph} C6XD6 {glyph}").main.nodes[0].glyphs == (glyph,)
    assert record(HEX + f"B6XC6 {glyph} $1").main.nodes[0].glyphs == (glyph, "$1")


def test_comments():
    main = record(HEX + "{intro} ; more\n B6XC6 {  after  } ; line {x}\nC6XD6 {multi\nline}").main
    assert main.comments == ("intro", "more")
    assert main.nodes[0].comments == ("after", "line {x}")
    assert main.nodes[1].comments == ("multi\nline",)


def test_nested_variations():
    rec = record(HEX + "1. B6XC6 F1XE1 (1... F1XF2 (1... G1XF1 {deep}) 2. B5W4) 2. C6XD6 *")
    first = rec.main.nodes[1].variations[0]
    assert [str(n.item) for n in first.nodes] == ["F1XF2", "B5W4"]
    inner = first.nodes[0].variations[0]
    assert inner.nodes[0].comments == ("deep",)
    assert first.span == Span(3, 16, 3, 56)
    assert rec.result == "*" and rec.result_span == Span(3, 66, 3, 67)


@pytest.mark.parametrize("result", ["1-0", "0-1", "*"])
def test_results(result):
    rec = record(HEX + f"B6XC6 {result} {{after}}")
    assert rec.result == result
    assert rec.main.nodes[-1].comments == ("after",)
    assert record(HEX + "B6XC6").result is None


def test_cube_tokens_are_nodes_between_actions():
    nodes = record(HEX + "1. B6XC6 F1XE1 2. double 2 take B5W4 Doppler abgelehnt").main.nodes
    assert [type(n.item).__name__ for n in nodes] == [
        "DiceAction",
        "DiceAction",
        "CubeOffer",
        "CubeAnswer",
        "DiceAction",
        "CubeOffer",
        "CubeAnswer",
    ]
    assert nodes[2].number == 2 and nodes[2].text == "double 2"


def test_spans_and_text_are_the_files():
    text = '[Game "Hexalit"]\n[North "A"]\n\n1. B6 X C6 F1XE1\n  2. b5w4'
    rec = record(text)
    nodes = rec.main.nodes
    assert nodes[0].span == Span(4, 4, 4, 11) and nodes[0].text == "B6 X C6"
    assert nodes[2].span == Span(5, 6, 5, 10) and nodes[2].text == "b5w4"
    assert rec.span == Span(1, 1, 5, 10) and rec.index == 1
    assert rec.main.span.line == 4


def test_tags_and_movetext_on_one_line():
    rec = record('[Game "Hexalit"] 1. B6XC6')
    assert rec.main.nodes[0].span == Span(1, 21, 1, 26)


# ---------------------------------------------------------------- archives

ARCHIVE = (
    HEX + "1. B6XC6 *\n\n" + '[Game "Hüpfer"]\n[Result "1-0"]\n\n1. a1-c1@d1\n'
    "2. c3xc5 1-0\n\n" + TRI + "1. E6XF6=6\n"
)


def test_multi_game_archive():
    games = list(parse_text(ARCHIVE))
    assert [g.index for g in games] == [1, 2, 3]
    assert [g.record.game for g in games] == ["Hexalit", "Hüpfer", "Trigeo"]
    assert games[1].record.main.nodes[1].span == Span(9, 4, 9, 9)
    assert games[1].record.index == 2 and games[2].record.span.line == 11


def test_header_without_movetext_then_next_game():
    games = list(parse_text('[Game "Hexalit"]\n[Result "*"]\n\n[Game "Trigeo"]\n1. B6XC6'))
    assert [(g.record.game, len(g.record.main.nodes)) for g in games] == [
        ("Hexalit", 0),
        ("Trigeo", 1),
    ]


def test_a_broken_game_does_not_stop_the_next():
    games = list(parse_text(HEX + "1. B6-C6\n\n" + HEX + "1. B6XC6"))
    assert [g.ok for g in games] == [False, True]
    assert games[0].record.tags[0].value == "Hexalit" and games[0].record.main.nodes == ()


def test_bracket_inside_a_multiline_comment_does_not_split():
    games = list(parse_text(HEX + "1. B6XC6 {see\n[this] game}\nC6XD6"))
    assert len(games) == 1 and games[0].record.main.nodes[0].comments == ("see\n[this] game",)


def test_leading_comments_are_not_a_game():
    games = list(parse_text("; archive of the club\n{ 2024 }\n\n" + HEX + "1. B6XC6"))
    assert len(games) == 1 and games[0].record.main.nodes[0].span.line == 6


@pytest.mark.parametrize(
    "data",
    [
        HEX.encode() + b"1. B6XC6 *",
        b"\xef\xbb\xbf" + HEX.encode() + b"1. B6XC6 *",
        HEX.replace("\n", "\r\n").encode() + b"1. B6XC6 *\r\n",
    ],
)
def test_bom_and_crlf(data):
    games = list(read_archive(data))
    assert games[0].findings == ()
    assert games[0].record.main.nodes[0].span == Span(3, 4, 3, 9)
    assert games[0].record.tags[0].span == Span(1, 1, 1, 17)


def test_windows_1252_is_read_with_a_notice_on_the_first_game():
    data = (HEX + "1. B6\xb0C7 *\n\n" + HEX + "1. C6\xb0D7").encode("cp1252")
    first, second = read_archive(data)
    assert [f.code for f in first.findings] == ["NT03"]
    assert first.findings[0].category == "notation" and first.ok
    assert first.record.main.nodes[0].item == DiceAction("B6", "capture", "C7")
    assert second.findings == ()


# ---------------------------------------------------------------- limits


def test_deep_variations_are_refused_without_blowing_the_stack():
    depth = 5000
    game = one(HEX + "B6XC6 " + "(C6XD6 " * depth + ")" * depth)
    assert [f.code for f in game.findings] == ["SY06"]
    assert game.findings[0].span == Span(3, 7 + 7 * notation_parser.MAX_DEPTH)
    game = one(HEX + "B6XC6 " + "(" * depth)
    assert game.findings[0].code in ("SY03", "SY06")


def test_variations_up_to_the_limit_are_fine():
    depth = notation_parser.MAX_DEPTH
    rec = record(HEX + "B6XC6 " + "(C6XD6 " * depth + ")" * depth)
    assert rec.main.nodes[0].variations


# ---------------------------------------------------------------- both paths

CONSTRUCTS = [
    HEX
    + "{a} 1. B6XC6! $3 {b} (1. B6XC7 (1. B6:C8 {x}) ; y\n) 1... F1XE1 2. double 4 take B5 W 4^ *",
    TRI + "1. E6XF6 = 6 D2°E6=5+?! (1... E1XD1 ()) 0-1 {done} ; really",
    HUP + "1. a1-c1@d1 (1. A2-C2-C4@C5 {m}) f6-d6@c6 2. c3xc5xe5 a1-a3xa5xc5+ 1-0",
    '[Game "Hexalit"]  [Event "x\\"y"]\n\n\n   1. B6XC6 {multi\nline} C6XD6 double\n4',
    '[Game "Hexalit"]\n',
    '[Game "Hexalit"] B6XC6',
]


@pytest.mark.parametrize("text", CONSTRUCTS)
def test_fast_path_and_grammar_agree(text):
    ((first_line, chunk, _),) = reader.split_games(text)
    fast = notation_parser.parse_header(chunk, first_line)
    slow = notation_parser.parse_header(chunk, first_line, fast=False)
    assert fast == slow
    if fast.rest is not None:
        game = reader._game_of(fast.tags, None)[0]
        assert notation_parser.parse_movetext(game, fast.rest) == notation_parser.parse_movetext(
            game, fast.rest, fast=False
        )


def test_a_flood_of_glyphs_and_comments_on_one_action_reads_in_linear_time():
    """The shared line accumulator gathers what follows an
    action in lists, so 50,000 glyphs and comments take no quadratic time."""
    text = "1. B6XC6 " + "! {c} " * 50_000 + "1-0"
    start = time.process_time()  # CPU time: other processes do not count
    movetext = notation_parser.parse_movetext("Hexalit", notation_parser.Rest(text, 1, 1, 1, 1))
    assert time.process_time() - start < 1.5
    (node,) = movetext.line.nodes
    assert node.glyphs == ("!",) * 50_000 and node.comments == ("c",) * 50_000
