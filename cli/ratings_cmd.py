"""``hexhop ratings``: Elo ratings of every player over an archive."""

from __future__ import annotations

from typing import Any

import click

from hexhop.archive.standings import K_FACTOR, START, Ratings, rate
from hexhop.messages import _, number
from hexhop.records.text import counted, printable

from .command_output import stdout_json, tell
from .crosstable_cmd import event_option, read_games
from .find_cmd import find_options
from .help import Translated
from .options import encoding_option, format_option, quiet_option

EXAMPLE = """
\b
Examples:
  hexhop ratings samples/good
  hexhop ratings --db club.sqlite --game hexalit --format json
"""


@click.command(cls=Translated, epilog=EXAMPLE)
@click.argument("paths", nargs=-1, metavar="[ARCHIVE]...")
@find_options
@event_option
@format_option(["text", "json"], "Tables for reading, or one JSON document.")
@quiet_option("No progress bar and no summary line (problems are still told).")
@encoding_option()
def ratings(
    paths: tuple[str, ...], event: str | None, fmt: str, quiet: bool, **options: Any
) -> None:
    """Elo ratings of the players of an index (--db) or of the ARCHIVE
    paths, and each player's rating after each event.

    Every player starts at 1500; each game moves both players' ratings by
    K = 20 times (score - expected score), the expected score 1 / (1 +
    10^((other's rating - own) / 400)), a win scoring 1 and a loss 0 (no
    draws; a dropped cube is a loss, as stats counts it). The games are
    taken in the order of their Date tag, games of the same date in
    archive order. Games without a date (no year) and games without a
    winner (*) are left out and counted on standard error; games of an
    unnamed player (?) are left out. The filters of `hexhop find` choose
    the games; ARCHIVE paths use their hexhop.sqlite index when there is
    one (--scan: read them).

    Exit status: 0 when some game was rated, 1 when none was, 2 on a usage
    error, a malformed filter or pattern, an index that cannot be used, and
    when files changed since they were indexed or could not be read.
    """
    games, problems = read_games(paths, options, event, quiet)
    result = rate(games, START, K_FACTOR)
    if result.undated:
        tell(_("left out: {games} without a date").format(games=counted(result.undated, "game")))
    if result.open and not quiet:
        tell(_("left out: {games} without a winner").format(games=counted(result.open, "game")))
    if fmt == "json":
        click.echo(stdout_json(result.as_json(), indent=2))
    elif result.rated:
        click.echo("\n".join(printable(line) for line in text(result).split("\n")))
    if not result.rated and not quiet:
        tell(_("no game rated"))
    raise SystemExit(2 if problems else 0 if result.rated else 1)


def text(result: Ratings) -> str:
    """The ratings now, then each event's players with their rating after it."""
    names = result.players()
    width = max(len(_("player")), *(len(n) for n in names))
    lines = [
        _("Elo ratings (start {start:g}, K {k:g}) of {games}").format(
            start=result.start, k=result.k, games=counted(result.rated, "game")
        ),
        f"  {_('player'):<{width}}  {_('rating'):>7}  {_('games'):>5}",
    ]
    for name in names:
        rating = number(result.ratings[name], 1)
        lines.append(f"  {name:<{width}}  {rating:>7}  {result.games[name]:>5}")
    for event, after in result.events.items():
        lines.append("")
        lines.append(_("After {event}").format(event=event))
        for name in sorted(after, key=lambda n: (-after[n], n)):
            lines.append(f"  {name:<{width}}  {number(after[name], 1):>7}")
    return "\n".join(lines)
