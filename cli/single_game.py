"""Load one game of a record file for the commands that work on a single game."""

from __future__ import annotations

import click

from hexhop.engine.replay import GameReport, replay_game
from hexhop.messages import _
from hexhop.notation.numbers import ascii_int
from hexhop.records.sources import read_record
from hexhop.records.text import counted

from .command_output import tell


def load_report(path: str, index: int, game: str | None) -> GameReport:
    """Replay game ``index`` of ``path``; a clear click error when impossible."""
    from hexhop.notation import read_archive

    path, data = read_record(path)
    games = 0
    for parsed in read_archive(data, path=path, default_game=game):
        games = parsed.index
        if parsed.index == index:
            report = replay_game(parsed)
            _fail_on_unplayable(path, report)
            _tell_where_it_stops(path, report)
            return report
    raise click.BadParameter(
        _("{index}: {path} holds {games}").format(
            index=index, path=path, games=counted(games, "game")
        ),
        param_hint="--index",
    )


def _tell_where_it_stops(path: str, report: GameReport) -> None:
    """A note on standard error when an error ends the replay before the
    record does: the last position shown is not the record's last. The
    error is an action that cannot be played, or a syntax error, before
    which the record was read (its finding has no ply)."""
    stop = len(report.positions)  # the ply that could not be played
    errors = [f for f in report.findings if f.severity == "error"]
    first = next((f for f in errors if f.ply == stop), None)
    if first is None:
        first = next((f for f in errors if f.ply is None), None)
    if first is not None:
        where = f"{path}:{first.line}:{first.column}" if first.line else path
        tell(
            _("{where}: note: the game stops after ply {ply}: {code} {message}").format(
                where=where, ply=stop - 1, code=first.code, message=first.message
            )
        )


def _fail_on_unplayable(path: str, report: GameReport) -> None:
    if not report.positions:
        raise click.ClickException(why_unplayable(path, report, _("the game cannot be replayed")))


def why_unplayable(path: str, report: GameReport, prefix: str) -> str:
    """``path:line:col: prefix: CODE message`` for the first error of a game
    that could not be replayed at all (a header or syntax error)."""
    first = next((f for f in report.findings if f.severity == "error"), None)
    if first is None:
        return f"{path}: {prefix}"
    where = f"{path}:{first.line}:{first.column}" if first.line else path
    return f"{where}: {prefix}: {first.code} {first.message}"


def pick_ply(report: GameReport, ply: str | None) -> int:
    """The ply asked for (a number or ``last``), checked against the game."""
    last = len(report.positions) - 1
    if ply is None or ply == "last":
        return last
    number = ascii_int(ply)
    if number is None:
        raise click.BadParameter(
            _("{ply}: expected a number or 'last'").format(ply=repr(ply)), param_hint="--ply"
        )
    if not 0 <= number <= last:
        raise click.BadParameter(
            _("{ply}: this game has plies 0 to {last}").format(ply=number, last=last),
            param_hint="--ply",
        )
    return number
