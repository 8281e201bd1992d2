"""``hexhop generate``: random legal games as a record archive."""

from __future__ import annotations

import click

from hexhop.messages import _
from hexhop.notation.boards import DEFAULT_HUEPFER_SIZE, huepfer_board_named
from hexhop.notation.games import game_list
from hexhop.records.text import counted

from .command_output import emit, force_out_option, out_option
from .help import Translated
from .interrupt import checked, stoppable
from .options import BoardChoice, Count, game_name, quiet_option, shared
from .progress import Kept, ProgressBar, so_far

EXAMPLE = """
\b
Examples:
  hexhop generate --game Hexalit --count 100 --seed 1 > random.hxl
  hexhop generate --game Hüpfer --board 10x10 --count 5 --out big.hpf
"""


@click.command(cls=Translated, epilog=EXAMPLE)
@shared(
    "--game",
    callback=game_name,
    metavar="GAME",
    help=f"The game to play random games of (required): {game_list()}.",
)
@shared(
    "--board",
    default=None,
    type=BoardChoice(),
    help="Hüpfer board  [default: {default_board}].",
)
@click.option(
    "--count",
    type=Count(1),
    default=1,
    show_default=True,
    help="How many games to write.",
)
@shared(
    "--seed", type=Count(), default=0, show_default=True, help="The same seed gives the same games."
)
@shared(
    "--max-plies",
    type=Count(1),
    default=200,
    show_default=True,
    help="Stop a game after this many plies (its result is then *).",
)
@out_option
@force_out_option
@quiet_option("No progress bar and no summary of the games written.")
def generate(
    game: str | None,
    board: str | None,
    count: int,
    seed: int,
    max_plies: int,
    out: str | None,
    force: bool,
    quiet: bool,
) -> None:
    """Write random legal games of --game (with correct annotations and
    results) as one record archive, for tests, fuzzing and benchmarks."""
    if game is None:
        raise click.UsageError(_("--game is required (Hexalit, Trigeo or Hüpfer)"))
    from hexhop.engine.generate import random_games
    from hexhop.notation import format_archive
    from hexhop.notation.games import find_game

    sizes = find_game(game).board_sizes
    if board is not None and not sizes:
        raise click.BadParameter(
            _("{game} has one board; --board is for Hüpfer").format(game=game),
            param_hint="--board",
        )
    chosen = huepfer_board_named(board) if board else None
    size = chosen.size if chosen else DEFAULT_HUEPFER_SIZE
    from hexhop.archive.verify import Written, verify
    from hexhop.notation.model import ParsedGame

    bar = ProgressBar(count, "game", quiet=quiet)

    with stoppable(lambda: so_far(bar.count, count, "game", Kept())):
        games = random_games(game, count, seed, board=size, max_plies=max_plies)
        records = list(bar.iterate(checked(games)))
        bar.done()
        written = Written()  # the file is read back as these games before it is kept
        for number, record in enumerate(records, 1):
            written.add(ParsedGame(number, record, ()))
        text = format_archive(records)
        emit(text, out, force, lambda temp: verify(temp, written, shown=out))
    if out is not None and not quiet:
        click.echo(
            _("wrote {games} to {path}").format(games=counted(count, "game"), path=out), err=True
        )
