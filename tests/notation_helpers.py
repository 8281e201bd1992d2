"""Helpers shared by the notation tests: record shapes without positions."""

from __future__ import annotations

from hexhop.notation import Line, ParsedGame, Record, parse_text


def shape(line: Line) -> tuple:
    """A line as nested tuples of what was written, without positions or numbers."""
    return (
        line.comments,
        tuple(
            (node.item, node.glyphs, node.comments, tuple(shape(v) for v in node.variations))
            for node in line.nodes
        ),
    )


def record_shape(record: Record) -> tuple:
    return (
        tuple((t.name, t.value) for t in record.tags),
        record.game,
        shape(record.main),
        record.result,
    )


def one(text: str, **options) -> ParsedGame:
    games = list(parse_text(text, **options))
    assert len(games) == 1, games
    return games[0]


def record(text: str, **options) -> Record:
    game = one(text, **options)
    assert game.findings == (), game.findings
    assert game.record is not None
    return game.record
