"""Findings for parsed games beyond the limits of a check run.

The byte limits are applied while reading (:mod:`.inputs`); here each
parsed game is measured: actions (main line and variations), comment
length and variation depth.  A game beyond a limit gets one finding and
is not replayed.  Nothing here knows the rules.
"""

from __future__ import annotations

from hexhop.notation.findings import Finding, make
from hexhop.notation.model import CubeAnswer, CubeOffer, Line, ParsedGame, Record, Span

from .inputs import Limits

_CUBE = (CubeOffer, CubeAnswer)


def within_limits(parsed: ParsedGame, limits: Limits) -> ParsedGame:
    """``parsed``, with a finding added when it goes beyond ``limits``."""
    record = parsed.record
    if record is None or not parsed.ok:
        return parsed
    finding = _beyond(record, limits)
    if finding is None:
        return parsed
    return ParsedGame(parsed.index, record, (*parsed.findings, finding))


def _beyond(record: Record, limits: Limits) -> Finding | None:
    """The first limit ``record`` goes beyond, walking its lines without recursion."""
    actions = 0
    stack: list[tuple[Line, int]] = [(record.main, 0)]
    while stack:
        line, depth = stack.pop()
        if depth > limits.max_depth:
            return make("SY06", _place(line.span, record), limit=limits.max_depth)
        long = _long_comment(line.comments, limits)
        if long is not None:
            return make("IO06", _place(line.span, record), length=long,
                        limit=limits.max_comment)
        for node in line.nodes:
            if not isinstance(node.item, _CUBE):
                actions += 1
            long = _long_comment(node.comments, limits)
            if long is not None:
                return make("IO06", node.span, length=long, limit=limits.max_comment)
            stack.extend((variation, depth + 1) for variation in node.variations)
    if actions > limits.max_actions:
        return make("IO05", record.span, count=actions, limit=limits.max_actions)
    return None


def _long_comment(comments: tuple[str, ...], limits: Limits) -> int | None:
    """The length of the first comment longer than the limit, or None."""
    return next((len(c) for c in comments if len(c) > limits.max_comment), None)


def _place(span: Span, record: Record) -> Span | None:
    """``span``, or the record's when the line has none (line 0)."""
    return span if span.line else record.span
