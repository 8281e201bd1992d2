"""Check one source and turn the replay into plain data for the reports.

The result of a file is plain dicts and lists (the JSON game objects of
``check-report.schema.json`` beside it) so that it crosses process boundaries
cheaply and every output format reads the same thing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, TypeAlias

from hexhop.engine.deadline import checkpoint
from hexhop.engine.replay import GameReport, replay_flat, replay_game
from hexhop.messages import _
from hexhop.notation.findings import Finding, make
from hexhop.notation.flat import FlatLine
from hexhop.notation.games import lookup_game
from hexhop.notation.limits import DEFAULT_LIMITS, ReadLimits
from hexhop.notation.reader import (
    fallback_game,
    looks_binary,
    parse_game,
    parse_game_flat,
    with_encoding_notice,
)
from hexhop.notation.span import Span
from hexhop.notation.streaming import block_chunks, stream_chunks

from .limits import read_limits
from .sources import Limits, OpenFile, Source

# a JSON object of the check report (check-report.schema.json)
JsonObject: TypeAlias = "dict[str, Any]"


@dataclass
class FileResult:
    """The games of one file, or the reason it could not be read.

    ``sources`` maps a line number to that line's text, for every line a
    finding points at (the text report shows it with a caret).

    A file's result may also come in pieces, one per :class:`Part`, in
    order (the reporters put them together); ``replaces`` marks a piece
    that stands for the whole file (one that ran out of time).
    """

    path: str
    games: list[JsonObject] = field(default_factory=list)
    error: JsonObject | None = None
    sources: dict[int, str] = field(default_factory=dict)
    replaces: bool = False


@dataclass(frozen=True)
class CheckOptions:
    game: str | None = None
    strict: bool = False
    limits: Limits = Limits()


@dataclass(frozen=True)
class Part:
    """Games of one source to check together: the whole file, or a slice of
    a large one checked in a worker process of its own.

    ``games`` holds (game number, first line, text) as ``game_chunks`` gives
    them; ``notices`` holds the games that carry an NT03 notice (game
    number: its line), some of their lines read as Windows-1252.
    """

    path: str
    games: Iterable[tuple[int, int, str]]
    fallback: str | None
    notices: Mapping[int, int] = field(default_factory=dict)


def check_source(source: Source, options: CheckOptions) -> FileResult:
    """Check every game of one source; never raises for bad input."""
    data = readable(source)
    if isinstance(data, FileResult):
        return data
    chunks, notices = _chunks(data, source.encoding)
    part = Part(source.path, chunks, fallback_of(source.path, options), notices)
    return check_part(part, options)


def _chunks(
    data: bytes | OpenFile, encoding: str | None = None
) -> tuple[Iterator[tuple[int, int, str]], dict[int, int]]:
    """The games of the bytes, or of a file read a block at a time."""
    if isinstance(data, OpenFile):
        return block_chunks(data.head(4), data.blocks, encoding=encoding)
    return stream_chunks(data, encoding=encoding)


def split_source(source: Source, options: CheckOptions, games_per_part: int) -> list[Part] | None:
    """A readable source cut into parts of ``games_per_part`` games, or None
    when it cannot be read (then :func:`check_source` reports why)."""
    parts = source_parts(source, options, games_per_part)
    return None if isinstance(parts, FileResult) else list(parts)


def source_parts(
    source: Source, options: CheckOptions, games_per_part: int
) -> Iterator[Part] | FileResult:
    """The parts of ``games_per_part`` games of a source, one after the
    other as they are needed (at least one, perhaps without games), or the
    result saying why the source cannot be read."""
    data = readable(source)
    if isinstance(data, FileResult):
        return data
    chunks, notices = _chunks(data, source.encoding)  # the text is not held whole next to the bytes
    fallback = fallback_of(source.path, options)
    return _parts(source.path, chunks, fallback, notices, games_per_part)


def _parts(
    path: str,
    chunks: Iterator[tuple[int, int, str]],
    fallback: str | None,
    notices: dict[int, int],
    size: int,
) -> Iterator[Part]:
    games = list(islice(chunks, size))
    yield Part(path, games, fallback, _of(notices, games))
    while games := list(islice(chunks, size)):
        yield Part(path, games, fallback, _of(notices, games))


def _of(notices: dict[int, int], games: list[tuple[int, int, str]]) -> dict[int, int]:
    """The notices of ``games`` (the part sent to a worker holds only its own)."""
    return {index: notices[index] for index, _line, _chunk in games if index in notices}


def check_part(part: Part, options: CheckOptions) -> FileResult:
    """Parse and replay the games of one part (a checkpoint of the deadline
    before each game, :mod:`hexhop.engine.deadline`)."""
    result = FileResult(part.path)
    limits = read_limits(options.limits)
    for index, first_line, chunk in part.games:
        checkpoint()
        if index > options.limits.max_games:
            result.error = finding_dict(
                make("IO04", None, path=part.path, limit=options.limits.max_games)
            )
            break
        notice = part.notices.get(index, 0)
        report = check_game(chunk, first_line, index, part.fallback, limits, notice)
        result.games.append(game_dict(report, options.strict))
        _keep_lines(result.sources, report.findings, chunk, first_line)
    return result


def check_game(
    chunk: str,
    first_line: int,
    index: int,
    fallback: str | None,
    limits: ReadLimits = DEFAULT_LIMITS,
    windows_1252: int = 0,
) -> GameReport:
    """Read and replay one game's text as ``hexhop check`` does: the main
    line in flat arrays when the text is plainly well formed (no node
    objects, :func:`.replay_flat`), else the record tree; the report's
    findings, end and counts are the same either way. ``windows_1252``:
    the line of the game's NT03 notice (:func:`.reader.encoding_notices`),
    0 for none."""
    return replay_text(chunk, first_line, index, fallback, limits, windows_1252)[0]


def replay_text(
    chunk: str,
    first_line: int,
    index: int,
    fallback: str | None,
    limits: ReadLimits = DEFAULT_LIMITS,
    windows_1252: int = 0,
    every: bool = False,
    keys: bool = False,
) -> tuple[GameReport, FlatLine | None]:
    """:func:`check_game`'s report, and the flat main line it was read as
    (None when the record tree was read: the report then holds it); with
    ``every``, the report keeps every position of the main line; with
    ``keys``, the main line read flat gives the key of each of them
    instead (``GameReport.keys``)."""
    flat = parse_game_flat(chunk, first_line, index, fallback, limits)
    if flat is not None:
        notice = (make("NT03", Span(int(windows_1252), 1)),) if windows_1252 else ()
        record, line = flat
        return replay_flat(record, line, notice, every, keys), line
    parsed = parse_game(chunk, first_line, index, fallback, limits)
    if windows_1252:
        parsed = with_encoding_notice(parsed, int(windows_1252))
    return replay_game(parsed, every=every, keys=keys), None


def merge(parts: list[FileResult]) -> FileResult:
    """One file's result from the results of its parts, in order."""
    whole = FileResult(parts[0].path)
    for part in parts:
        whole.games.extend(part.games)
        whole.sources.update(part.sources)
        whole.error = whole.error or part.error
    return whole


def readable_data(source: Source) -> bytes | FileResult:
    """The bytes of ``source``, or the result saying why they cannot be read."""
    data = readable(source)
    return data.read() if isinstance(data, OpenFile) else data


def readable(source: Source) -> bytes | OpenFile | FileResult:
    """The bytes of ``source`` (or the file, to be read a block at a time),
    or the result saying why they cannot be read."""
    data: bytes | OpenFile | None = source.data if source.opened is None else source.opened
    if source.too_large is not None:
        size, limit = source.too_large
        error = make("IO03", None, path=source.path, size=size, limit=limit)
    elif data is None:
        error = make("IO01", None, path=source.path, reason=source.error or _("unknown error"))
    elif looks_binary(data if isinstance(data, bytes) else data.head(_HEAD)):
        error = make("IO02", None, path=source.path)
    else:
        return data
    return FileResult(source.path, error=finding_dict(error))


_HEAD = 8192  # the bytes looks_binary looks at


def fallback_of(path: str, options: CheckOptions) -> str | None:
    """The game of a record without a Game tag: --game, else the extension."""
    return fallback_game(path.rsplit(":", 1)[-1], options.game)


def _keep_lines(
    sources: dict[int, str], findings: Iterable[Finding], chunk: str, first_line: int
) -> None:
    """Remember the source lines the findings point at (for the caret)."""
    lines = None
    for finding in findings:
        number = finding.line
        if number and number not in sources:
            lines = lines or chunk.split("\n")
            if 0 <= number - first_line < len(lines):
                sources[number] = lines[number - first_line]


def game_dict(report: GameReport, strict: bool) -> JsonObject:
    """The JSON game object of one replayed game."""
    end = {"winner": report.end.winner, "ply": report.end.ply} if report.end else None
    return {
        "index": report.index,
        "game": report.game,
        "valid": report.valid(strict),
        "plies": report.plies,
        "result": report.result,
        "end": end,
        "players": _players(report),
        "findings": [finding_dict(f) for f in report.findings],
    }


def _players(report: GameReport) -> list[str]:
    tags = report.tags
    game = lookup_game(report.game)
    names = game.sides if game else ("North", "South")
    return [tags.get(name, "?") for name in names]


def finding_dict(finding: Finding) -> JsonObject:
    return {
        "severity": finding.severity,
        "category": finding.category,
        "code": finding.code,
        "message": finding.message,
        "line": finding.line,
        "column": finding.column,
        "ply": finding.ply,
        "action": finding.action,
    }
