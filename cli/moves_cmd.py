"""``hexhop moves``: every legal action of a position."""

from __future__ import annotations

from itertools import groupby

import click

from hexhop.engine.base import sorted_texts
from hexhop.messages import _, side_name
from hexhop.notation.numbers import ASCII_DIGITS
from hexhop.records.text import counted

from .command_output import stdout_json
from .help import Translated
from .interrupt import checkpoint
from .options import encoding_option, format_option, old_spelling, renamed
from .positions import position_from_options, position_options

EXAMPLE = """
\b
Examples:
  hexhop moves samples/good/hexalit-kassel-1998.hxl --ply 10
  hexhop moves --game Hexalit --position "N: A7=1 C7=2; S: F7=1 D6=2; turn: N"
  hexhop moves --game Hüpfer --board 8x8 --position "R: a1 b1; T: g7 h8; turn: R" --format count
"""


@click.command(cls=Translated, epilog=EXAMPLE)
@position_options
@format_option(
    ["text", "json", "count"],
    "text: the actions grouped by die or piece; json: position, to_move, actions; "
    "count: only the number of legal actions.",
)
@renamed("--json", "--format", "fmt", flag_value="json")
@renamed("--count", "--format", "fmt", flag_value="count")
@encoding_option()
def moves(
    record: str | None,
    index: int,
    ply: str | None,
    game: str | None,
    board: str | None,
    position_text: str | None,
    fmt: str,
) -> None:
    """List every legal action of a position of RECORD (or of --position),
    in canonical notation, one line per die or piece.

    RECORD is a record file, - for standard input, a member of a .zip or
    .tar(.gz) archive (club.zip:games/a.hxl), or an archive that holds one
    record file."""
    fmt = old_spelling("fmt", fmt)
    chosen = position_from_options(record, index, ply, game, board, position_text)
    position = chosen.position
    actions = [] if position.winner else sorted_texts(list(chosen.rules.legal_actions(position)))
    checkpoint()
    if fmt == "count":
        click.echo(len(actions))
    elif fmt == "json":
        document = {"position": position.text(), "to_move": position.to_move, "actions": actions}
        click.echo(stdout_json(document))
    else:
        _print_grouped(actions, position)


def _origin(text: str) -> str:
    """The die's cell or the piece's point an action starts from."""
    end = 1
    while end < len(text) and text[end] in ASCII_DIGITS:
        end += 1
    return text[:end]


def _print_grouped(actions: list[str], position) -> None:
    if position.winner is not None:
        click.echo(_("The game is over: {side} won.").format(side=side_name(position.winner)))
        return
    click.echo(
        _("{side} to move, {actions}:").format(
            side=side_name(str(position.to_move)), actions=counted(len(actions), "legal action")
        )
    )
    for origin, group in groupby(actions, key=_origin):
        click.echo(f"  {origin:>4}: {' '.join(group)}")
