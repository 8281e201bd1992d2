"""``hexhop merge``: several archives as one, each game's text unchanged."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import click

from hexhop.archive.index import container
from hexhop.archive.merge import Merge, Outcome
from hexhop.archive.texts import GameText, archive_games
from hexhop.archive.verify import left_out_message, verify
from hexhop.messages import _
from hexhop.records.text import counted

from .command_output import tell
from .help import Translated
from .interrupt import checkpoint, stoppable
from .options import encoding_option, force_option, game_option, glob_option, quiet_option, shared
from .progress import Kept, games_bar, so_far
from .safe_write import refuse_existing, refuse_inputs, write_atomically

EXAMPLE = """
\b
Examples:
  hexhop merge kassel.hxl bremen.hxl --out all.hxl
  hexhop merge club-a/ club-b.zip --dedupe --out club.hxl
"""


@click.command(cls=Translated, epilog=EXAMPLE)
@click.argument("paths", nargs=-1, required=True)
@shared(
    "--out",
    required=True,
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="The merged archive.",
)
@force_option("Overwrite --out if it exists.")
@click.option(
    "--dedupe",
    is_flag=True,
    help="Leave out a game with the same actions as one before it "
    "(spelling, move numbers, comments and variations aside).",
)
@game_option
@glob_option("Which files of a directory or archive to read (repeatable; default: {record_globs}).")
@shared("--verbose", is_flag=True, help="Name every game --dedupe leaves out.")
@quiet_option("No progress bar and no summary of the games written.")
@encoding_option()
def merge(
    paths: tuple[str, ...],
    out: str,
    force: bool,
    dedupe: bool,
    game: str | None,
    globs: tuple[str, ...],
    verbose: bool,
    quiet: bool,
) -> None:
    """Write the games of PATHS one after another to FILE, separated by a
    blank line, each with its text unchanged. A game that has its game only
    from its file's extension gets a Game tag, and a Windows-1252 file is
    written as UTF-8, so that FILE reads back as the same games.

    PATHS are record files, directories, .zip or .tar(.gz) archives, or -
    for standard input. FILE is written whole or not at all: it is read
    back and must hold the games written, and it is never one of PATHS
    (nor the archive that holds one), not even with --force.

    Exit status: 0 when done, 2 on a usage error, when FILE exists (without
    --force) or is an input, when it would not read back as written, or
    when some input could not be read or some game could not be merged
    (the others are).
    """
    refuse_inputs([out], paths)
    refuse_existing([out], force)
    merged = Merge(dedupe=dedupe)
    unreadable = 0
    # FILE found in a folder of PATHS is the output, not an input (named, it is refused)
    target = os.path.realpath(out)

    def cannot_read(path: str, why: str) -> None:
        nonlocal unreadable
        unreadable += 1
        tell(f"{path}: {why}")

    bar = games_bar(paths, quiet=quiet, globs=globs)

    def pieces() -> Iterator[bytes]:
        source, skip = "", False
        texts = archive_games(list(paths), cannot_read, globs=globs, game=game)
        for done, text in enumerate(texts):
            bar.update(done)
            checkpoint()
            if text.path != source:
                source, skip = text.path, os.path.realpath(container(text.path)) == target
                if skip:
                    tell(_("{path}: left out: it is --out").format(path=text.path))
            if not skip:
                outcome, piece = merged.add(text)
                _tell(outcome, text, merged, verbose)
                yield piece

    with stoppable(lambda: so_far(bar.count, bar.total, "game", Kept())):
        write_atomically(
            out,
            pieces(),
            overwrite=force,
            check=lambda temp: verify(temp, merged.written, shown=out),
            inputs=paths,
        )
    bar.done()
    _summary(merged, out, dedupe, quiet)
    if unreadable or merged.headless:
        sys.exit(2)


def _tell(outcome: Outcome, text: GameText, merged: Merge, verbose: bool) -> None:
    """Say why ``text`` was left out (a duplicate only with ``verbose``)."""
    if outcome == "headless":
        tell(left_out_message(text.path, text.line, text.index))
    elif outcome == "duplicate" and verbose:
        first, first_number, first_line = merged.dropped[-1][1]
        tell(
            _("{where}: game {index} left out: the same game as {first} (game {number})").format(
                where=f"{text.path}:{text.line}",
                index=text.index,
                first=f"{first}:{first_line}",
                number=first_number,
            )
        )


def _summary(merged: Merge, out: str, dedupe: bool, quiet: bool) -> None:
    for game in merged.copied:
        tell(_("{game}: copied byte for byte").format(game=game))
    for path, encoding in sorted(merged.transcoded.items()):
        tell(_("{path}: read as {encoding}, written as UTF-8").format(path=path, encoding=encoding))
    if merged.tagged:
        tell(
            _("added a Game tag to {games} that had their game from the file name").format(
                games=counted(merged.tagged, "game")
            )
        )
    if quiet:
        return
    dropped = (
        _(", {duplicates} left out").format(duplicates=counted(len(merged.dropped), "duplicate"))
        if dedupe
        else ""
    )
    tell(
        _("wrote {games} to {path}{dropped}").format(
            games=counted(merged.games, "game"), path=out, dropped=dropped
        )
    )
