"""Options shared by several commands."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import IO, Any, TypeVar

import click

from hexhop.messages import _
from hexhop.notation.games import game_list, lookup_game

F = TypeVar("F", bound=Callable[..., Any])


def game_name(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """The ``--game`` callback: the game's name for any of its spellings."""
    if value is None:
        return None
    game = lookup_game(value)
    if game is None:
        raise click.BadParameter(
            _("{value}: expected {games}").format(value=repr(value), games=game_list(_("or")))
        )
    return game.name


game_option = click.option(
    "--game",
    callback=game_name,
    metavar="GAME",
    help=f"The game of records without a Game tag: {game_list()}.",
)

index_option = click.option(
    "--index",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Which game of a file that holds several (1 = the first).",
)


def _jobs(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """The ``-j`` callback: 0 is one process per core."""
    if value == 0:
        from hexhop.records.jobs import cores

        return cores()
    return value


def jobs_option(help: str, default: int | None = 1) -> Callable[[F], F]:
    """``-j/--jobs N``, one meaning on every command: work in N processes
    (0: one per core), with the output of one process in the same order.
    ``default`` None: the command chooses for the input (check and index)."""
    return click.option(
        "-j",
        "--jobs",
        type=click.IntRange(0, 64),
        default=default,
        show_default=default is not None,
        callback=_jobs,
        help=help,
    )


def use_color(mode: str, stream: IO[str]) -> bool:
    """Whether to colour: ``always``, ``never``, or for ``auto`` when
    ``stream`` is a terminal and the NO_COLOR convention (no-color.org: the
    variable set and not empty) does not ask for none."""
    if mode != "auto":
        return mode == "always"
    return stream.isatty() and not os.environ.get("NO_COLOR")
