"""Properties: arbitrary input never raises, generated records round-trip,
and the fast path reads exactly what the grammar reads."""

from __future__ import annotations

import contextlib
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from notation_helpers import record_shape

from hexhop.notation import (
    GAMES,
    CubeAnswer,
    CubeOffer,
    DiceAction,
    HopAction,
    Line,
    Node,
    NotationError,
    Record,
    Span,
    Tag,
    format_record,
    parse_action,
    parse_text,
    read_archive,
    reader,
)
from hexhop.notation import parser as notation_parser
from hexhop.notation.names import tag_name
from hexhop.notation.writer import TAG_ORDER

FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RECORDS = settings(FAST, max_examples=40)

# ---------------------------------------------------------------- arbitrary input

NOTATION_CHARS = string.ascii_letters + string.digits + ' \n\t[]{}();"\\!?$.*-@x°:=^+'


def _never_raises_but_notation_errors(run) -> None:
    try:
        for game in run():
            assert game.index >= 1
    except NotationError:
        pass


@FAST
@given(st.text() | st.text(alphabet=NOTATION_CHARS), st.sampled_from(GAMES + (None,)))
def test_arbitrary_text_never_raises(text, game):
    _never_raises_but_notation_errors(lambda: parse_text(text, default_game=game))
    _never_raises_but_notation_errors(lambda: parse_text('[Game "Hexalit"]\n' + text))
    with contextlib.suppress(NotationError):
        parse_action(text, game or "Hexalit")


@FAST
@given(st.binary(), st.sampled_from(["", "x.hxl", "x.trg", "x.hpf"]))
def test_arbitrary_bytes_never_raise(data, path):
    _never_raises_but_notation_errors(lambda: read_archive(data, path=path))


# ---------------------------------------------------------------- generated records

CELLS = st.builds(lambda c, r: f"{c}{r}", st.sampled_from("ABCDEFG"), st.integers(1, 7))
POINTS = st.builds(lambda c, r: f"{c}{r}", st.sampled_from("abcdefgh"), st.integers(1, 8))
MARKS = st.sampled_from(["", "", "^", "+"])
FACES = st.integers(1, 6)


def dice_actions(game: str) -> st.SearchStrategy:
    promote = st.none() | FACES if game == "Trigeo" else st.none()
    moves = st.builds(
        DiceAction, CELLS, st.sampled_from(["move", "capture"]), CELLS, st.none(), promote, MARKS
    )
    if game == "Trigeo":
        return moves
    rolls = st.builds(lambda o, f, m: DiceAction(o, "roll", None, f, None, m), CELLS, FACES, MARKS)
    cube = st.builds(CubeOffer, st.none() | st.integers(1, 64)) | st.builds(
        CubeAnswer, st.booleans()
    )
    return st.one_of(moves, rolls, cube)


@st.composite
def hop_actions(draw) -> HopAction:
    hops = draw(st.integers(0, 3))
    captures = 0 if hops and draw(st.booleans()) else draw(st.integers(0 if hops else 1, 3))
    path = tuple(draw(st.lists(POINTS, min_size=hops + captures + 1, max_size=hops + captures + 1)))
    birth = draw(POINTS) if hops and not captures and draw(st.booleans()) else None
    return HopAction(path, ("-",) * hops + ("x",) * captures, birth, draw(MARKS))


COMMENT_CHARS = st.characters(
    blacklist_categories=("Cs", "Cc"), blacklist_characters="}"
) | st.sampled_from("\n[{;")
COMMENTS = st.text(COMMENT_CHARS, max_size=20).map(str.strip) | st.text(
    st.characters(blacklist_categories=("Cs", "Cc")), max_size=12
).map(lambda t: t.strip() + "}")
GLYPHS = st.sampled_from(["!", "?", "!!", "??", "!?", "?!", "$1", "$22"])


def lines(items: st.SearchStrategy, depth: int) -> st.SearchStrategy:
    variations = (
        st.lists(st.deferred(lambda: lines(items, depth - 1)), max_size=2) if depth else st.just([])
    )
    nodes = st.builds(
        lambda item, glyphs, comments, variations: Node(
            item,
            Span(0, 0),
            "",
            glyphs=tuple(glyphs),
            comments=tuple(comments),
            variations=tuple(variations),
        ),
        items,
        st.lists(GLYPHS, max_size=2),
        st.lists(COMMENTS, max_size=2),
        variations,
    )
    return st.builds(
        lambda ns, cs: Line(tuple(ns), tuple(cs)),
        st.lists(nodes, max_size=6),
        st.lists(COMMENTS, max_size=1),
    )


TAG_VALUES = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=15)
TAG_NAMES = st.text(string.ascii_letters + string.digits + "_", min_size=1, max_size=8).filter(
    lambda name: name.lower() not in TAG_ORDER and tag_name(name) == name
)  # the formatter moves those into place, and writes German ones in English


@st.composite
def records(draw) -> Record:
    game = draw(st.sampled_from(GAMES))
    items = hop_actions() if game == "Hüpfer" else dice_actions(game)
    tags = (Tag("Game", game),) + tuple(
        Tag(name, value)
        for name, value in draw(st.lists(st.tuples(TAG_NAMES, TAG_VALUES), max_size=4))
    )
    result = draw(st.sampled_from([None, "1-0", "0-1", "*"]))
    return Record(tags, game, draw(lines(items, 2)), result)


@pytest.mark.slow
@RECORDS
@given(records(), st.integers(20, 100))
def test_round_trip_and_idempotent_format(rec, width):
    text = format_record(rec, width=width)
    (parsed,) = parse_text(text)
    assert parsed.findings == (), (text, parsed.findings)
    assert record_shape(parsed.record) == record_shape(rec)
    again = format_record(parsed.record, width=width)
    assert again == text
    (reparsed,) = parse_text(again)
    assert record_shape(reparsed.record) == record_shape(parsed.record)


@pytest.mark.slow
@RECORDS
@given(records())
def test_every_action_reads_back_from_its_text(rec):
    def walk(line):
        for node in line.nodes:
            yield node.item
            for variation in node.variations:
                yield from walk(variation)

    for item in walk(rec.main):
        assert parse_action(str(item), rec.game) == item


SPACING = st.sampled_from([" ", "  ", "\t", " \t "])  # newlines would end a ; comment


@pytest.mark.slow
@RECORDS
@given(records(), st.data())
def test_fast_path_reads_what_the_grammar_reads(rec, data):
    words = format_record(rec, width=30).split(" ")
    text = "".join(w + data.draw(SPACING) for w in words)
    for first_line, chunk, _ in reader.split_games(text):
        fast = notation_parser.parse_header(chunk, first_line)
        assert fast == notation_parser.parse_header(chunk, first_line, fast=False)
        if fast.rest is not None:
            assert notation_parser.parse_movetext(
                rec.game, fast.rest
            ) == notation_parser.parse_movetext(rec.game, fast.rest, fast=False)


@FAST
@given(
    st.sampled_from(GAMES),
    st.lists(
        st.sampled_from(
            [
                "B6XC6",
                "b5 w 4",
                "E6XF6=6",
                "a1-c1@d1",
                "c3xc5",
                "double 2",
                "take",
                "1.",
                "12...",
                "!",
                "$3",
                "{c}",
                "; d\n",
                "(",
                ")",
                "*",
                "1-0",
                "\n",
                "x",
                "{",
            ]
        ),
        max_size=14,
    ),
)
def test_fast_path_agrees_or_defers_on_token_soup(game, words):
    text = " ".join(words)
    rest = notation_parser.Rest(text, 1, 1, 1, 1)
    assert outcome(lambda: notation_parser.parse_movetext(game, rest)) == outcome(
        lambda: notation_parser.parse_movetext(game, rest, fast=False)
    )


def outcome(run):
    try:
        return run()
    except Exception as error:  # the same kind of failure on both paths
        return type(error).__name__
