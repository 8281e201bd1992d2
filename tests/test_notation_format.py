"""The canonical form written by format_record / format_archive."""

from __future__ import annotations

from notation_helpers import record, record_shape

from hexhop.notation import (
    CubeOffer,
    DiceAction,
    Line,
    Node,
    Record,
    Span,
    Tag,
    format_archive,
    format_record,
    parse_text,
)


def fmt(text: str, **options) -> str:
    return format_record(record(text, **options))


def test_canonical_tag_order_and_escapes():
    text = (
        '[Result "1-0"] [Zeta "z"] [South "B"] [Game "hexalit"]\n[First "North"]\n'
        '[North "A \\"the\\" \\\\ best"] [Event "E"] [Annotator "x"]\n\n1. B6XC6 1-0'
    )
    assert fmt(text) == (
        '[Game "hexalit"]\n[Event "E"]\n[North "A \\"the\\" \\\\ best"]\n[South "B"]\n'
        '[First "North"]\n[Result "1-0"]\n[Zeta "z"]\n[Annotator "x"]\n\n1. B6XC6 1-0\n'
    )


def test_huepfer_tag_order():
    text = (
        '[Reserve "12"] [Board "8x8"] [Turquoise "T"] [Red "R"] [Date "2024.??.??"] [Game "Hüpfer"]'
    )
    assert fmt(text).splitlines() == [
        '[Game "Hüpfer"]',
        '[Date "2024.??.??"]',
        '[Red "R"]',
        '[Turquoise "T"]',
        '[Board "8x8"]',
        '[Reserve "12"]',
    ]


def test_canonical_symbols_and_numbers():
    text = '[Game "Hexalit"]\n7. b6 x c6 b5w4 f1:e1^ 9... B6ºC7 {hm} c6˚d6 (c6xd7 $2) e1xd1'
    assert fmt(text).split("\n\n")[1] == (
        "1. B6XC6 B5W4 2. F1°E1^ B6°C7 {hm} 3. C6°D6 (3. C6XD7 $2) 3... E1XD1\n"
    )


def test_cube_tokens_take_the_number_of_their_turn():
    text = '[Game "Hexalit"]\nB6XC6 double 2 take C6XD6 Doppler 4 angenommen E1XD1 double abgelehnt'
    assert fmt(text).split("\n\n")[1] == (
        "1. B6XC6 double 2 take C6XD6 2. double 4 take E1XD1 double drop\n"
    )


def test_glyphs_comments_and_line_comments():
    text = '[Game "Trigeo"]\n{start} E6XF6 = 6 !? $4 ? ;  a } brace\nD2°E6=5+ {x}'
    assert fmt(text).split("\n\n")[1] == (
        "{start} 1. E6XF6=6!? $4 ? ; a } brace\n1... D2°E6=5+ {x}\n"
    )


def test_line_comment_inside_a_variation_keeps_the_parenthesis_outside():
    text = '[Game "Hüpfer"]\na1-c1@d1 (A1-C1@B2 ; }\n) c3XC5 *'
    out = fmt(text).split("\n\n")[1]
    assert out == "1. a1-c1@d1 (1. a1-c1@b2 ; }\n) 1... c3xc5 *\n"
    assert fmt(out, path="x.hpf") == out


def test_wrapping_at_79_columns():
    moves = " ".join("B6XC6 C6XD6" for _ in range(40))
    out = fmt('[Game "Hexalit"]\n' + moves)
    body = out.split("\n\n")[1].splitlines()
    assert all(len(line) <= 79 for line in body) and len(body) > 3
    assert fmt(out) == out
    narrow = format_record(record(out), width=30)
    assert all(len(line) <= 30 for line in narrow.split("\n\n")[1].splitlines())


def test_empty_variation_and_no_header():
    assert fmt("B6XC6 () *", path="x.hxl") == "1. B6XC6 () *\n"


def test_format_archive_round_trips():
    text = '[Game "Hexalit"]\n[Result "*"]\n\n[Game "Trigeo"]\n1. B6XC6 1-0\n[Game "Hüpfer"]\n'
    games = list(parse_text(text))
    out = format_archive(games)
    assert out == (
        '[Game "Hexalit"]\n[Result "*"]\n\n[Game "Trigeo"]\n\n1. B6XC6 1-0\n\n[Game "Hüpfer"]\n'
    )
    again = list(parse_text(out))
    assert [record_shape(g.record) for g in again] == [record_shape(g.record) for g in games]
    assert format_archive(g.record for g in again) == out


def test_records_built_in_code_are_written_too():
    node = Node(CubeOffer(2), Span(0, 0), "", comments=("a\nb }",))
    move = Node(DiceAction("B6", "move", "C6"), Span(0, 0), "")
    rec = Record(
        (Tag("Game", "Hexalit"), Tag("Event", "new\nline")), "Hexalit", Line((move, node)), "*"
    )
    assert format_record(rec) == (
        '[Game "Hexalit"]\n[Event "new line"]\n\n1. B6XC6 double 2 ; a b }\n*\n'
    )
