"""``hexhop dupes``: games played twice (the same actions), from the index or the archive."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator

import click

from hexhop.archive.dupes import Entry, archive_entries, groups, index_entries, kept
from hexhop.archive.players import load_names
from hexhop.messages import _, ngettext
from hexhop.messages import date as shown_date
from hexhop.records.text import printable

from .command_output import stdout_json, tell
from .find_cmd import _export, game_option
from .help import Translated
from .interrupt import checked, stoppable
from .options import (
    encoding_option,
    force_option,
    format_option,
    glob_option,
    names_option,
    quiet_option,
    shared,
)
from .progress import ProgressBar, games_bar, games_read
from .safe_write import refuse_existing, refuse_inputs

EXAMPLE = """
\b
Examples:
  hexhop dupes merged-archive/
  hexhop dupes --db club.sqlite --same-players --format json
  hexhop dupes club-a.zip club-b.zip --export club.hxl     # every game once
"""


@click.command(cls=Translated, epilog=EXAMPLE)
@click.argument("paths", nargs=-1, metavar="[ARCHIVE]...")
@shared("--db", default=None, metavar="FILE", help="The index to search (see hexhop index).")
@shared("--scan", is_flag=True, help="Read the ARCHIVE paths even if indexed.")
@click.option("--same-players", is_flag=True, help="The players must be the same too.")
@game_option
@glob_option("As in check.")
@names_option(
    "With --same-players: the club's names file, which spellings name one player "
    "(docs/archive.md); default: hexhop-names.txt beside the first ARCHIVE. An index keeps "
    "the names file it was made with."
)
@format_option(
    ["text", "json"],
    "How to list the groups.",
)
@shared(
    "--export",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Write every game once (the first of each group), in its own text, to FILE.",
)
@force_option("Overwrite --export if it exists.")
@quiet_option("No progress bar and no summary line (problems are still told).")
@encoding_option()
def dupes(
    paths: tuple[str, ...],
    db: str | None,
    scan: bool,
    same_players: bool,
    game: str | None,
    globs: tuple[str, ...],
    names_file: str | None,
    fmt: str,
    export: str | None,
    force: bool,
    quiet: bool,
) -> None:
    """List groups of games with the same actions: the same game, the same
    main line after normalising spelling, annotations and move numbers
    (comments, variations and tags aside). --same-players asks for the
    same players on the same sides too.

    Reads the index (--db, or hexhop.sqlite of the first ARCHIVE when
    there is one), else the ARCHIVE paths.

    Exit status: 0 when some game has a duplicate, 1 when none has, 2 on a
    usage error or an index that cannot be used.
    """
    if export is not None:
        refuse_inputs([export], (*paths, db or "-"))
        refuse_existing([export], force)
    from hexhop.archive import service

    db = service.index_to_use(paths, db, scan)
    if db is None and not paths:
        raise click.UsageError(_("give ARCHIVE paths to read, or --db with an index"))
    names = load_names(names_file, paths[:1])

    def entries(every_game: bool) -> Iterator[Entry]:
        def progress() -> tuple[Callable[[int], None], Callable[[], None]]:
            bar = games_bar(paths, quiet=quiet, globs=globs, bar=None if every_game else read)
            return bar.update, bar.done

        return service.answers(
            paths,
            db,
            game=game,
            globs=globs,
            names_file=names_file,
            analysed=None,
            in_index=lambda connection, db: index_entries(connection, db, same_players, every_game),
            where=lambda entry: entry.hit.real or entry.hit.path,
            in_archive=lambda sources, check, globs, on_games: archive_entries(
                sources, check, globs, same_players, on_games, names
            ),
            tell=tell,
            problems=None,
            progress=progress,
        )

    read = ProgressBar(None, "game", quiet=quiet)

    def so_far() -> str:
        if read.count:  # the ARCHIVE paths read now
            return _("after reading {games}; nothing written").format(games=games_read(read))
        return _("before anything was written")

    with stoppable(so_far):
        found = [
            group
            for group in groups(checked(entries(every_game=False)))
            if game is None or group.game == game
        ]
        if export is not None:
            hits = kept(checked(entries(every_game=True)))
            left_out = _export(hits, export, False, force, (*paths, db or "-"))
    if fmt == "json":
        click.echo("[")
        for number, group in enumerate(found):
            data = {
                "game": group.game,
                "actions": group.actions,
                "games": [hit.as_json() for hit in group.games],
            }
            click.echo(("  " if not number else ", ") + stdout_json(data))
        click.echo("]")
    else:
        for group in found:
            opening = " ".join(group.actions[:8]) + (" …" if len(group.actions) > 8 else "")
            same = ngettext(
                "the same {n} action", "the same {n} actions", len(group.actions)
            ).format(n=len(group.actions))
            heading = ngettext(
                "{n} {game} game with {same}: {opening}",
                "{n} {game} games with {same}: {opening}",
                len(group.games),
            ).format(n=len(group.games), game=group.game, same=same, opening=opening)
            click.echo(printable(heading))
            for hit in group.games:
                players = " – ".join(hit.players[:2])
                date = f"  {shown_date(hit.date)}" if hit.date else ""
                click.echo(printable(f"  {hit.path}:{hit.line}  {players}{date}"))
    extra = sum(len(group.games) - 1 for group in found)
    if not quiet:
        tell(
            _("{groups}, {games}").format(
                groups=ngettext(
                    "{n} group of duplicates", "{n} groups of duplicates", len(found)
                ).format(n=len(found)),
                games=ngettext("{n} game more than once", "{n} games more than once", extra).format(
                    n=extra
                ),
            )
        )
    if export is not None:
        if not quiet:
            tell(
                _("wrote the games without those {extra} to {path}").format(
                    extra=extra, path=export
                )
            )
        if left_out:
            sys.exit(2)
    sys.exit(0 if found else 1)
