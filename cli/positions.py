"""Pick the position a command works on: a record's ply or a Position text."""

from __future__ import annotations

from dataclasses import dataclass

import click

from hexhop.engine.base import HeaderError, Position, Rules
from hexhop.engine.games import rules_for
from hexhop.messages import _
from hexhop.notation.findings import make
from hexhop.notation.games import find_game

from .options import game_option, index_option, shared
from .single_game import load_report, pick_ply


def position_options(command):
    """The options of commands that work on one position: RECORD with
    --index and --ply, or --game (and --board) with --position TEXT."""
    for option in reversed(
        (
            click.argument("record", required=False),
            index_option,
            shared("--ply", default=None, metavar="N|last", help="Which ply (default: last)."),
            game_option,
            shared(
                "--board",
                default=None,
                metavar="NxN",
                help="Hüpfer board for --position: {boards}.",
            ),
            shared(
                "--position",
                "position_text",
                default=None,
                metavar="TEXT",
                help="A position (Position tag text) instead of a record.",
            ),
        )
    ):
        command = option(command)
    return command


@dataclass(frozen=True)
class Chosen:
    rules: Rules
    position: Position
    ply: int
    last: str | None  # the text of the action that led here


def position_from_options(
    record: str | None,
    index: int,
    ply: str | None,
    game: str | None,
    board: str | None,
    position_text: str | None,
) -> Chosen:
    """The position named by a command's options, or a usage error."""
    if position_text is not None and record is not None:
        raise click.UsageError(_("give a RECORD or --position TEXT, not both"))
    if board is not None and position_text is None:
        raise click.UsageError(
            _("--board goes with --position (a record's Board tag names its board)")
        )
    if position_text is not None:
        return _from_text(position_text, game, board)
    if record is None:
        raise click.UsageError(_("give a RECORD file or --game with --position TEXT"))
    report = load_report(record, index, game)
    number = pick_ply(report, ply)
    last = report.nodes[number - 1].text or str(report.nodes[number - 1].item) if number else None
    position = report.positions[number]
    return Chosen(rules_for(position.game), position, number, last)


def _from_text(text: str, game: str | None, board: str | None) -> Chosen:
    if game is None:
        raise click.UsageError(_("--position needs --game (Hexalit, Trigeo or Hüpfer)"))
    rules = rules_for(game)
    tags = {"Game": game}
    if board:
        if not find_game(game).board_sizes:
            raise click.BadParameter(
                _("{game} has one board; --board is for Hüpfer").format(game=game),
                param_hint="--board",
            )
        tags["Board"] = board
    try:
        position = rules.parse_position(text, tags)
    except HeaderError as error:
        raise click.BadParameter(
            make(error.code, None, **error.params).message,
            param_hint="--board" if error.tag == "Board" else "--position",
        ) from None
    return Chosen(rules, position, position.ply, None)
