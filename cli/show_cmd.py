"""``hexhop show``: a position as a diagram in the terminal."""

from __future__ import annotations

import sys

import click

from hexhop.engine.base import Position
from hexhop.messages import _, side_name

from .help import Translated
from .interrupt import checkpoint
from .options import (
    encoding_option,
    format_option,
    pieces_only_for_trigeo,
    pieces_option,
    shared,
    unused_options,
    use_color,
)
from .positions import position_from_options, position_options
from .terminal import diagram, printable, reserves_line

EXAMPLE = """
\b
Examples:
  hexhop show samples/good/hexalit-kassel-1998.hxl --ply 12
  hexhop show archive.hxl --index 3 --ply last
  hexhop show archive.hxl --ply 20 --format position     # only the Position text
  hexhop show archive.hxl --ply 20 --format listing      # the rules' listing
  hexhop show --game Trigeo --position "N: A7=1 B7=6; S: F7=1 E7=6; turn: N"
"""


@click.command(cls=Translated, epilog=EXAMPLE)
@position_options
@format_option(
    ["text", "position", "listing"],
    "text: the diagram and what it shows; position: only the Position text, one line; "
    "listing: the rules' own listing (A4-5 / A5-4 / …), one line per side, then "
    "the side to move (Hexalit and Trigeo).",
)
@shared(
    "--color",
    "color_mode",
    type=click.Choice(["auto", "always", "never"]),
    default="auto",
    show_default=True,
    help="Colour the sides (auto: on a terminal, unless NO_COLOR is set).",
)
@pieces_option(
    "dice or chess: write Trigeo's dice as the letters of chess pieces (K King 1, "
    "P Pawn 2, N Knight 3, B Bishop 4, R Rook 5, Q Queen 6; in German K, B, S, L, T, D) "
    "in the diagram (default: dice)."
)
@encoding_option()
def show(
    record: str | None,
    index: int,
    ply: str | None,
    game: str | None,
    board: str | None,
    position_text: str | None,
    fmt: str,
    color_mode: str,
    pieces: str | None,
) -> None:
    """Show a position of RECORD (or of --position) as a diagram, with the
    last action, the side to move and the Position text to copy into a new
    record.

    RECORD is a record file, - for standard input, a member of a .zip or
    .tar(.gz) archive (club.zip:games/a.hxl), or an archive that holds one
    record file."""
    chosen = position_from_options(record, index, ply, game, board, position_text)
    checkpoint()
    for warning in unused_options(click.get_current_context(), fmt, {"pieces": ("text",)}):
        click.echo(warning, err=True)
    if fmt == "position":
        click.echo(chosen.position.text())
        return
    if fmt == "listing":
        click.echo(_listing(chosen.position))
        return
    color = use_color(color_mode, sys.stdout)
    letters = _letters(chosen.position, pieces)
    # click strips colour from output that is not a terminal unless told
    click.echo(diagram(chosen.position, color=color, letters=letters), color=color)
    click.echo()
    if letters:
        legend = " ".join(f"{letter}={face}" for face, letter in sorted(letters.items()))
        click.echo(_("Pieces: {legend}").format(legend=legend))
    if chosen.last is not None:
        click.echo(
            _("Last action: {action}   (ply {ply})").format(
                action=printable(chosen.last), ply=chosen.ply
            )
        )
    position = chosen.position
    for line in (reserves_line(position), _cube_line(position)):
        if line:
            click.echo(line)
    if position.winner is not None:
        click.echo(
            _("Game over: {side} won at ply {ply}").format(
                side=side_name(position.winner), ply=position.end_ply
            )
        )
    else:
        click.echo(_("To move: {side}").format(side=side_name(str(position.to_move))))
    click.echo(_("Position: {text}").format(text=position.text()))


def piece_letters() -> dict[int, str]:
    """The letters of the chess pieces for the faces 1 to 6 (King, Pawn,
    Knight, Bishop, Rook, Queen) in the language of the messages: KPNBRQ
    in English, KBSLTD in German."""
    # the msgid is the six English letters; its translation the six letters
    # of the language, in the same order
    letters = _("KPNBRQ")
    if len(letters) != 6:
        letters = "KPNBRQ"
    return dict(enumerate(letters, 1))


def _letters(position: Position, pieces: str | None) -> dict[int, str] | None:
    """The letters that stand for the faces with ``--pieces chess``: for
    Trigeo only (a warning says so for the other games)."""
    from hexhop.render.chess_pieces import draws_chess

    if pieces != "chess":
        return None
    if not draws_chess(position.game, pieces):
        click.echo(pieces_only_for_trigeo([position.game], position=True), err=True)
        return None
    return piece_letters()


def _listing(position: Position) -> str:
    """The rules' listing of a dice position; a usage error for Hüpfer."""
    listing = getattr(position, "listing", None)
    if listing is None:
        raise click.UsageError(
            _(
                "--format listing is for Hexalit and Trigeo; {game} has none "
                "(--format position gives its Position text)"
            ).format(game=position.game)
        )
    return str(listing())


def _cube_line(position) -> str:
    cube = getattr(position, "cube", None)
    return _("Cube: {value}").format(value=cube) if cube else ""
