"""Check one source and turn the replay into plain data for the reports.

The result of a file is plain dicts and lists (the JSON game objects of
``docs/check-report.schema.json``) so that it crosses process boundaries
cheaply and every output format reads the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hexhop.engine.replay import GameReport, replay_game
from hexhop.notation import read_archive
from hexhop.notation.findings import Finding, make

from .inputs import Source


@dataclass
class FileResult:
    """The games of one file, or the reason it could not be read.

    ``sources`` maps a line number to that line's text, for every line a
    finding points at (the text report shows it with a caret).
    """

    path: str
    games: list[dict] = field(default_factory=list)
    error: dict | None = None
    sources: dict[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class CheckOptions:
    game: str | None = None
    strict: bool = False


def check_source(source: Source, options: CheckOptions) -> FileResult:
    """Check every game of one source; never raises for bad input."""
    result = FileResult(source.path)
    if source.data is None:
        result.error = finding_dict(make("IO01", None, path=source.path,
                                         reason=source.error or "unknown error"))
        return result
    if _looks_binary(source.data):
        result.error = finding_dict(make("IO02", None, path=source.path))
        return result
    lines_wanted: set[int] = set()
    for parsed in read_archive(source.data, path=source.path, default_game=options.game):
        report = replay_game(parsed)
        result.games.append(game_dict(report, options.strict))
        lines_wanted.update(f.line for f in report.findings if f.line)
    if lines_wanted:
        result.sources = _source_lines(source.data, lines_wanted)
    return result


def _looks_binary(data: bytes) -> bool:
    """NUL bytes in the first block: an image or executable, not a record."""
    return b"\x00" in data[:8192]


def _source_lines(data: bytes, wanted: set[int]) -> dict[int, str]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    lines = text.splitlines()
    return {n: lines[n - 1] for n in wanted if 0 < n <= len(lines)}


def game_dict(report: GameReport, strict: bool) -> dict:
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
    names = ("Red", "Turquoise") if report.game == "Hüpfer" else ("North", "South")
    return [tags.get(name, "?") for name in names]


def finding_dict(finding: Finding) -> dict:
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
