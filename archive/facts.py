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
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import cast

from hexhop.engine.deadline import checkpoint, within
from hexhop.engine.replay import GameReport
from hexhop.notation.findings import make
from hexhop.notation.games import GAMES, lookup_game
from hexhop.notation.model import CubeAnswer, CubeOffer, HopAction, Item, Line
from hexhop.notation.reader import offset_bytes, same_line_ends
from hexhop.notation.streaming import stream_chunks
from hexhop.records.checking import (
    CheckOptions,
    JsonObject,
    fallback_of,
    finding_dict,
    readable_data,
    replay_text,
)
from hexhop.records.limits import read_limits
from hexhop.records.sources import Source

from .keys import signed as signed  # find and the tests read it from here
from .keys import signed_keys, signed_list
from .texts import _LineStarts

BATCH = 200  # games parsed, replayed and written together
# per game, a node's text: its action_text (``d7xd8`` reads differently in
# Trigeo and in Hüpfer, so one game's spellings never answer for another's)
_SPELLINGS: dict[str | None, dict[str, str]] = {}


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
    notices: Mapping[int, int] = field(default_factory=dict)  # game number: line of its NT03


def source_facts(source: Source, options: CheckOptions) -> SourceFacts:
    """The facts of every game of ``source``; never raises for bad input."""
    facts, parts = prepare(source, options)
    for part in parts:
        facts.games.extend(part_facts(part, options))
    return facts


def prepare(
    source: Source, options: CheckOptions, games_per_part: int = BATCH
) -> tuple[SourceFacts, Iterator[FactsPart]]:
    """The facts of ``source`` without its games (its hash, or why it cannot
    be read) and its games in parts of ``games_per_part``, cut from the
    bytes a block at a time as the parts are asked for (so a large file is
    never held as text). The IO04 error of a file with too many games is set
    on the facts once the parts have come to it."""
    data = source.data or b""
    digest = hashlib.blake2b(data, digest_size=16).hexdigest() if source.data is not None else ""
    facts = SourceFacts(source.path, digest, len(data))
    readable = readable_data(source)
    if not isinstance(readable, bytes):
        facts.error = readable.error
        return facts, iter(())
    return facts, _parts(facts, readable, options, max(1, games_per_part), source.encoding)


def _parts(
    facts: SourceFacts, data: bytes, options: CheckOptions, size: int, encoding: str | None
) -> Iterator[FactsPart]:
    data = offset_bytes(data, encoding)  # the offsets find --export and dupes --export copy by
    if encoding is not None and not same_line_ends(encoding):
        encoding = ""  # the offset bytes are the text in UTF-8
    chunks, notices = stream_chunks(data, encoding=encoding)
    fallback = fallback_of(facts.path, options)
    limit = options.limits.max_games
    lines = _LineStarts(data)
    games: list[tuple[int, int, str, int, int]] = []
    before: tuple[int, int, str, int] | None = None  # the game whose end is not known yet
    end = len(data)  # where the last game ends
    is_ascii = data.isascii()
    guess = -1  # where the next game starts if its text is the bytes' text
    codec = encoding or ""  # of ``data``: "" is each line's own (UTF-8, else Windows-1252)
    for index, first_line, chunk in chunks:
        start = line_start = lines.start_of(first_line, guess)
        ends = start  # where the game before ends
        if before is not None and not before[2].endswith("\n"):
            # the game begins on the line where the one before ends (after its
            # result); its text has that line's first part blanked
            prefix = len(before[2]) - (before[2].rfind("\n") + 1)
            start = lines.after_chars(start, prefix, codec)
            ends = len(data[line_start:start].rstrip(b" \t")) + line_start
        guess = line_start + (len(chunk) if is_ascii else len(chunk.encode()))
        if index > limit:  # the last game kept runs to this one
            facts.error = finding_dict(make("IO04", None, path=facts.path, limit=limit))
            end = ends
            break
        if before is not None:
            games.append((*before, ends - before[3]))
            if len(games) == size:
                yield FactsPart(facts.path, games, fallback, _of(notices, games))
                games = []
        before = (index, first_line, chunk, start)
    if before is not None:
        games.append((*before, end - before[3]))
    if games:
        yield FactsPart(facts.path, games, fallback, _of(notices, games))


def _of(notices: dict[int, int], games: list[tuple[int, int, str, int, int]]) -> dict[int, int]:
    """The notices of ``games`` (a part sent to a worker holds only its own)."""
    return {game[0]: notices[game[0]] for game in games if game[0] in notices}


def part_facts(part: FactsPart, options: CheckOptions) -> list[GameFacts]:
    """Parse and replay the games of one part (a checkpoint of the deadline
    before each game, :mod:`hexhop.engine.deadline`)."""
    limits = read_limits(options.limits)
    games = []
    for index, first_line, chunk, offset, length in part.games:
        checkpoint()
        report, flat = replay_text(
            chunk, first_line, index, part.fallback, limits, part.notices.get(index, 0), keys=True
        )
        actions = None if flat is None else spelled(flat.texts, flat.items, report.game)
        games.append(game_facts(report, options.strict, first_line, offset, length, actions))
    return games


def timed_part_facts(
    part: FactsPart, options: CheckOptions, seconds: float
) -> list[GameFacts] | None:
    """:func:`part_facts`, or None when it runs past ``seconds``."""
    return within(seconds, part_facts, part, options)


def game_facts(
    report: GameReport,
    strict: bool,
    line: int,
    offset: int,
    length: int,
    actions: list[str] | None = None,
) -> GameFacts:
    """The facts of a replayed game; ``actions`` (the main line's, spelled
    as :func:`main_actions` spells them) when the report holds no record."""
    end = report.end
    if actions is None:
        actions = main_actions(report.record.main, report.game) if report.record else []
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
        actions=actions,
        keys=signed_keys(report.positions) if report.keys is None else signed_list(report.keys),
    )


def players(report: GameReport) -> list[str]:
    """The players in move order, ``?`` for a missing one (as ``check`` reports them)."""
    game = lookup_game(report.game)
    sides = game.sides if game else GAMES[0].sides  # the registry's first game
    return [report.tags.get(side, "?") for side in sides]


def main_actions(line: Line, game: str | None) -> list[str]:
    """:func:`action_text` of each node; a spelling seen before in the same
    game is looked up (in one game, a node's text, annotation included,
    always reads as the same item)."""
    nodes = line.nodes
    return spelled([node.text for node in nodes], [node.item for node in nodes], game)


def spelled(texts: list[str], items: list[Item], game: str | None) -> list[str]:
    """:func:`action_text` of each item, written as ``texts``: what
    :func:`main_actions` gives for a main line in flat arrays."""
    known = _SPELLINGS.setdefault(game, {})
    found = list(map(known.get, texts))
    # most games bring a spelling or two not met before: only those are
    # worked out (the list is searched for them at C speed)
    try:
        i = found.index(None)
        while True:
            found[i] = _learnt(texts[i], items[i], known)
            i = found.index(None, i + 1)
    except ValueError:
        pass
    return cast("list[str]", found)  # no None in it


def _learnt(written: str, item: Item, known: dict[str, str]) -> str:
    # a Hüpfer turn's token (the HOP terminal: points and operators, then
    # perhaps one mark) is its canonical spelling in lower case and without
    # the mark, as ``action_text`` would give it
    text = written.lower().rstrip("^+") if type(item) is HopAction else action_text(item)
    if len(known) < 16_384:
        known[written] = text
    return text


def action_text(item: Item) -> str:
    """An action or cube event in canonical spelling, without ``^`` or ``+``
    (they say what the action did, not what was played)."""
    if isinstance(item, (CubeOffer, CubeAnswer)):
        return str(item)
    return str(item).rstrip("^+")
