"""A record as JSON (the full replay) and back.

The JSON document is described by ``record.schema.json``, shipped
beside this module and checked before going back. Going back reads only
what was written (tags, actions, numbers, glyphs, comments, variations,
result); positions and findings are output only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from hexhop.engine.base import Position
from hexhop.engine.replay import Visitor, replay_game
from hexhop.messages import _
from hexhop.notation.errors import ArgumentError
from hexhop.notation.findings import Finding
from hexhop.notation.model import CubeAnswer, CubeOffer, Line, Node, ParsedGame, Record, Span, Tag

from .checking import JsonObject, finding_dict
from .errors import CodecError, TooLargeToShow
from .limits import MAX_SHOWN_ACTIONS, actions_in
from .schema import validate
from .text import json_text

# what the record language allows where the JSON gives free text
_TAG_NAME = re.compile(r"\w+")  # as the grammar's TAG_NAME: letters of any language
_GLYPH = re.compile(r"[!?][!?]?|\$[0-9]+")
_RESULTS = (None, "1-0", "0-1", "*")

FORMAT = "hexhop-record"
VERSION = 1


# -- record → JSON ----------------------------------------------------------


def to_json(
    data: bytes, path: str, game: str | None, on_game: Callable[[int], None] | None = None
) -> str:
    """Every game of the record archive ``data`` as one JSON document
    (``on_game``: told the games done so far after each one)."""
    from hexhop.notation import read_archive

    games = []
    for parsed in read_archive(data, path=path, default_game=game):
        _refuse_too_many_actions(path, parsed)
        games.append(_game_json(parsed))
        if on_game is not None:
            on_game(len(games))
    # escaped as every JSON output is: no character a terminal acts on
    return json_text({"format": FORMAT, "version": VERSION, "games": games}, indent=1) + "\n"


def _refuse_too_many_actions(path: str, parsed: ParsedGame) -> None:
    """:class:`TooLargeToShow` for a game of more actions than
    :data:`~.limits.MAX_SHOWN_ACTIONS`: the document holds the position
    after each one, and is built whole."""
    if actions_in(parsed.record) > MAX_SHOWN_ACTIONS:
        raise TooLargeToShow(
            _(
                "{path}: game {index} has more than {limit} actions, variations included: "
                "no JSON is written"
            ).format(path=path or "<input>", index=parsed.index, limit=MAX_SHOWN_ACTIONS)
        )


def _game_json(parsed: ParsedGame) -> JsonObject:
    lines = _Lines()
    report = replay_game(parsed, lines)
    record = parsed.record
    doc: JsonObject = {
        "index": parsed.index,
        "game": report.game,
        "tags": [[t.name, t.value] for t in record.tags] if record else [],
        "result": record.result if record else None,
        "start": report.positions[0].text() if report.positions else None,
        "end": {"winner": report.end.winner, "ply": report.end.ply} if report.end else None,
        "findings": [finding_dict(f) for f in report.findings],
    }
    if lines.main is not None:
        doc.update(lines.main)
    return doc


class _Lines(Visitor):
    """Each line of the walk as JSON, with the position after each of its
    items (None once the line stopped)."""

    def __init__(self) -> None:
        self.main: JsonObject | None = None
        # per open line: its document and the variations of its next node
        self._open: list[tuple[JsonObject, list[JsonObject]]] = []

    def begin_line(self, line: Line, position: Position | None, played: bool) -> None:
        self._open.append(({"comments": list(line.comments), "moves": []}, []))

    def node(
        self,
        node: Node,
        before: Position | None,
        after: Position | None,
        state: str,
        findings: tuple[Finding, ...],
    ) -> None:
        doc, variations = self._open[-1]
        doc["moves"].append(_node_json(node, after, variations.copy()))
        variations.clear()

    def end_line(self, line: Line) -> None:
        doc, _ = self._open.pop()
        if self._open:
            self._open[-1][1].append(doc)
        else:
            self.main = doc


def _node_json(node: Node, position: Position | None, variations: list[JsonObject]) -> JsonObject:
    cube = isinstance(node.item, (CubeOffer, CubeAnswer))
    return {
        "kind": "cube" if cube else "action",
        "text": str(node.item),
        "written": node.text,
        "line": node.span.line,
        "column": node.span.column,
        "number": node.number,
        "number_dots": node.number_dots,
        "glyphs": list(node.glyphs),
        "comments": list(node.comments),
        "ply": None if position is None else position.ply,
        "position": None if position is None else position.text(),
        "variations": variations,
    }


# -- JSON → record ----------------------------------------------------------


def to_record(data: bytes, path: str) -> str:
    """The record archive written from a JSON document; :class:`CodecError`
    when ``data`` is not one."""
    from hexhop.notation import format_archive

    return format_archive(records_of(data, path))


def records_of(data: bytes, path: str) -> list[Record]:
    """The games of a JSON document as records; :class:`CodecError` when
    ``data`` is not one."""
    try:
        doc = json.loads(data.decode("utf-8-sig"))
        validate(doc, "record.schema.json")  # what is read below has the types it expects
        return [_record(game) for game in doc["games"]]
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
        raise CodecError(f"{path}: not a hexhop record JSON document: {error}") from None


def _record(game: JsonObject) -> Record:
    name = game["game"]
    if name is None:
        raise ArgumentError(f"game {game.get('index')} has no known game")
    tags = tuple(Tag(_checked(_TAG_NAME, str(k), "tag name"), str(v)) for k, v in game["tags"])
    result = game.get("result")
    if result not in _RESULTS:
        raise ArgumentError(f"{result!r} is not a result: expected 1-0, 0-1, * or null")
    return Record(tags, name, _line(game, name), result, index=game["index"])


def _checked(pattern: re.Pattern[str], text: Any, what: str) -> str:
    """``text`` when it is a whole ``pattern``; else a ValueError (the record
    written from it would say something else)."""
    if not isinstance(text, str) or not pattern.fullmatch(text):
        raise ArgumentError(f"{text!r} is not a {what}")
    return text


def _line(doc: JsonObject, game: str, depth: int = 0) -> Line:
    from hexhop.notation import parse_action
    from hexhop.notation.findings import NotationError
    from hexhop.notation.limits import MAX_DEPTH

    if depth > MAX_DEPTH:
        raise ArgumentError(f"variations nested deeper than {MAX_DEPTH} levels")
    nodes = []
    for move in doc["moves"]:
        try:
            item = parse_action(move["text"], game)
        except NotationError as error:
            raise ArgumentError(f"{move['text']!r}: {error}") from None
        nodes.append(
            Node(
                item,
                Span(0, 0),
                move.get("written") or move["text"],
                number=move.get("number"),
                number_dots=move.get("number_dots", 0),
                glyphs=tuple(_checked(_GLYPH, g, "glyph") for g in move.get("glyphs", ())),
                comments=tuple(move.get("comments", ())),
                variations=tuple(_line(v, game, depth + 1) for v in move.get("variations", ())),
            )
        )
    return Line(tuple(nodes), tuple(doc.get("comments", ())))
