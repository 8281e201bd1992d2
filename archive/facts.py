"""What the archive tools know of each game, from one parse and one replay.

:func:`source_facts` reads one source as ``hexhop check`` does (the same
limits, reader and replay) and keeps, per game, where its text is, its
tags, the check's verdict, the end, the actions and the key of every
position of its main line. The values are plain data, so they cross
process boundaries cheaply; the index stores them and ``find`` without an
index filters them directly.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from hexhop.engine.replay import GameReport, replay_game
from hexhop.engine.zobrist import position_keys
from hexhop.notation.findings import make
from hexhop.notation.games import lookup_game
from hexhop.notation.model import CubeAnswer, CubeOffer, Item, Line
from hexhop.notation.reader import decode, game_chunks, parse_game, with_encoding_notice
from hexhop.records.checking import (
    CheckOptions,
    JsonObject,
    fallback_of,
    finding_dict,
    readable_data,
)
from hexhop.records.limits import read_limits
from hexhop.records.sources import Source

from .index import signed as signed  # find and the tests read it from here

_LINE_BREAK = re.compile(rb"\r\n?|\n")
_TWO_63 = 1 << 63
_TWO_64 = 1 << 64


@dataclass
class GameFacts:
    """One game: where it is, what it says and what the replay found.

    ``offset`` and ``length`` are the bytes of the game's own text in its
    file (from its first line to the next game's first line); ``actions``
    the main line's actions and cube events in canonical spelling without
    ``^``/``+``; ``keys`` the (signed 64-bit) Zobrist keys of the main
    line's positions, ``keys[i]`` after ply ``i``, as far as it was legal.
    """

    number: int
    line: int
    offset: int
    length: int
    game: str | None
    board: int | None
    tags: dict[str, str]
    valid: bool
    codes: list[str]
    result: str | None
    winner: str | None
    end_ply: int | None
    plies: int
    players: list[str]
    actions: list[str]
    keys: list[int]


@dataclass
class SourceFacts:
    """The games of one source, or the finding that says why it cannot be read.

    ``digest`` is the BLAKE2b hash of the source's bytes (empty when there
    were none): the index compares it to tell an unchanged file.
    """

    path: str
    digest: str
    size: int
    games: list[GameFacts] = field(default_factory=list)
    error: JsonObject | None = None


@dataclass(frozen=True)
class FactsPart:
    """Games of one source to replay together (in a worker process, say):
    (game number, first line, text, byte offset, byte length) of each."""

    path: str
    games: list[tuple[int, int, str, int, int]]
    fallback: str | None
    windows_1252: bool = False


def source_facts(source: Source, options: CheckOptions) -> SourceFacts:
    """The facts of every game of ``source``; never raises for bad input."""
    facts, parts = prepare(source, options)
    for part in parts:
        facts.games.extend(part_facts(part, options))
    return facts


def prepare(
    source: Source, options: CheckOptions, games_per_part: int = 0
) -> tuple[SourceFacts, list[FactsPart]]:
    """The facts of ``source`` without its games (its hash, or why it cannot
    be read) and its games cut into parts of ``games_per_part`` (0: one part)."""
    data = source.data or b""
    digest = hashlib.blake2b(data, digest_size=16).hexdigest() if source.data is not None else ""
    facts = SourceFacts(source.path, digest, len(data))
    readable = readable_data(source)
    if not isinstance(readable, bytes):
        facts.error = readable.error
        return facts, []
    text, windows_1252 = decode(readable)
    chunks = list(game_chunks(text))
    limit = options.limits.max_games
    if len(chunks) > limit:
        facts.error = finding_dict(make("IO04", None, path=source.path, limit=limit))
    starts = line_offsets(readable, [first for _, first, _ in chunks])
    starts.append(len(readable))
    games = [
        (index, first_line, chunk, start, end - start)
        for (index, first_line, chunk), start, end in zip(chunks[:limit], starts, starts[1:])
    ]
    size = games_per_part or len(games) or 1
    fallback = fallback_of(source.path, options)
    parts = [
        FactsPart(source.path, games[i : i + size], fallback, windows_1252)
        for i in range(0, len(games), size)
    ]
    return facts, parts


def part_facts(part: FactsPart, options: CheckOptions) -> list[GameFacts]:
    """Parse and replay the games of one part."""
    limits = read_limits(options.limits)
    games = []
    for index, first_line, chunk, offset, length in part.games:
        parsed = parse_game(chunk, first_line, index, part.fallback, limits)
        if part.windows_1252:
            parsed = with_encoding_notice(parsed)
        report = replay_game(parsed)
        games.append(game_facts(report, options.strict, first_line, offset, length))
    return games


def game_facts(report: GameReport, strict: bool, line: int, offset: int, length: int) -> GameFacts:
    end = report.end
    first = report.positions[0] if report.positions else None
    return GameFacts(
        number=report.index,
        line=line,
        offset=offset,
        length=length,
        game=report.game,
        board=getattr(first, "size", None),
        tags=dict(report.tags),
        valid=report.valid(strict),
        codes=[finding.code for finding in report.findings],
        result=report.result,
        winner=end.winner if end else None,
        end_ply=end.ply if end else None,
        plies=report.plies,
        players=players(report),
        actions=main_actions(report.record.main) if report.record else [],
        # signed(), inline: this runs once per position
        keys=[key - _TWO_64 if key >= _TWO_63 else key for key in position_keys(report.positions)],
    )


def players(report: GameReport) -> list[str]:
    """The players in move order, ``?`` for a missing one (as ``check`` reports them)."""
    game = lookup_game(report.game)
    sides = game.sides if game else ("North", "South")
    return [report.tags.get(side, "?") for side in sides]


def main_actions(line: Line) -> list[str]:
    return [action_text(node.item) for node in line.nodes]


def action_text(item: Item) -> str:
    """An action or cube event in canonical spelling, without ``^`` or ``+``
    (they say what the action did, not what was played)."""
    if isinstance(item, (CubeOffer, CubeAnswer)):
        return str(item)
    return str(item).rstrip("^+")


def line_offsets(data: bytes, lines: Iterable[int]) -> list[int]:
    """The byte offset where each of ``lines`` (ascending, from 1) starts in
    ``data``; a line break is CR LF, CR or LF, as the reader counts them."""
    wanted = iter(lines)
    offsets: list[int] = []
    target = next(wanted, None)
    start = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    number = 1
    breaks: Iterator[re.Match[bytes]] = _LINE_BREAK.finditer(data)
    while target is not None:
        while number < target:
            found = next(breaks, None)
            if found is None:
                start = len(data)
                break
            start = found.end()
            number += 1
        offsets.append(start)
        target = next(wanted, None)
    return offsets
