"""Options shared by several commands."""

from __future__ import annotations

import click

GAME_NAMES = {"hexalit": "Hexalit", "trigeo": "Trigeo", "hüpfer": "Hüpfer",
              "huepfer": "Hüpfer", "hupfer": "Hüpfer"}


def _game(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return GAME_NAMES[value.lower()]
    except KeyError:
        raise click.BadParameter(f"{value!r}: expected Hexalit, Trigeo or Hüpfer") from None


game_option = click.option(
    "--game", callback=_game, metavar="GAME",
    help="The game of records without a Game tag: Hexalit, Trigeo or Hüpfer.")

index_option = click.option(
    "--index", type=click.IntRange(1), default=1, show_default=True,
    help="Which game of an archive (1 = the first).")
