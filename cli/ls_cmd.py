"""``hexhop ls``: the record files of an archive, as every command reads them."""

from __future__ import annotations

import sys

import click

from hexhop.archive.listing import Listed, listing
from hexhop.messages import _
from hexhop.records.counting import count_files
from hexhop.records.text import counted, printable

from .command_output import stdout_json, tell
from .help import Translated
from .interrupt import checked, stoppable
from .options import encoding_option, format_option, game_option, glob_option, quiet_option
from .progress import ProgressBar, beside

EXAMPLE = """
\b
Examples:
  hexhop ls club.zip
  hexhop ls samples/ --format json
  hexhop ls club.tar.gz --glob '*.trg'
"""


@click.command(cls=Translated, epilog=EXAMPLE)
@click.argument("paths", nargs=-1, required=True, metavar="ARCHIVE...")
@game_option
@glob_option("Which files of a directory or archive to list (repeatable; default: {record_globs}).")
@format_option(
    ["text", "json"],
    "text: one file a line (games, bytes, name); json: one document.",
)
@quiet_option("No progress bar and no summary line (problems are still told).")
@encoding_option()
def ls(
    paths: tuple[str, ...], game: str | None, globs: tuple[str, ...], fmt: str, quiet: bool
) -> None:
    """List the record files of the ARCHIVE paths (files, folders, .zip and
    .tar archives, compressed files, - for standard input) in the order
    every command reads them, each with its number of games and its size.
    A member of an archive is named as the reports name it
    (club.zip:games/a.hxl), which every command takes as a RECORD.

    Exit status: 0 when every file could be read, 2 on a usage error or
    when some file could not be read (told as check tells it; the others
    are listed).
    """
    files = games = unreadable = 0
    rows: list[Listed] = []
    bar = ProgressBar(None, "file", quiet=quiet)
    out = beside(sys.stdout)  # the list and the progress bar on one terminal
    if bar.enabled:
        bar.total = count_files(paths, globs=globs)
    with stoppable(lambda: _("after {files}").format(files=counted(files, "file"))):
        for entry in checked(listing(list(paths), globs=globs, game=game)):
            files += 1
            bar.update(files)
            if not isinstance(entry, Listed):
                unreadable += 1
                tell(f"{entry.path}: {entry.message}")
                continue
            games += entry.games
            if fmt == "json":
                rows.append(entry)
            else:
                line = printable(f"{entry.games:>6}  {entry.size:>10}  {entry.path}")
                click.echo(line, file=out)
    bar.done()
    if fmt == "json":
        click.echo(stdout_json([row.as_json() for row in rows], indent=2))
    if not quiet:
        tell(
            _("{files}, {games}").format(
                files=counted(files - unreadable, "file"), games=counted(games, "game")
            )
        )
    sys.exit(2 if unreadable else 0)
