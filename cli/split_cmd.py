"""``hexhop split``: one file per game, named from its tags."""

from __future__ import annotations

import functools
import os
import sys

import click

from hexhop.archive.certainty import certain_or_as_read
from hexhop.archive.split import Names, file_extension, file_stem
from hexhop.archive.texts import archive_games
from hexhop.archive.verify import Written, WrittenDiffers, verify
from hexhop.messages import _
from hexhop.records.text import counted

from .command_output import tell
from .help import Translated
from .interrupt import checkpoint, signals_held, stoppable
from .options import (
    encoding_option,
    game_option,
    glob_option,
    old_spelling,
    quiet_option,
    renamed,
    shared,
)
from .progress import Kept, games_bar, so_far
from .safe_write import ExistsError, WriteError, make_folder, synced_together, write_atomically

EXAMPLE = """
\b
Examples:
  hexhop split club-archive.hxl --out-dir games/
  hexhop split archive.zip old/ --out-dir games/ --verbose
"""


@click.command(cls=Translated, epilog=EXAMPLE)
@click.argument("paths", nargs=-1, required=True)
@shared(
    "--out-dir",
    "out",
    type=click.Path(file_okay=False),
    metavar="DIR",
    help="The folder for the games' files (made if missing).",
)
@renamed("--out", "--out-dir", "out")
@game_option
@glob_option("Which files of a directory or archive to read (repeatable; default: {record_globs}).")
@shared("--verbose", is_flag=True, help="Name the file of every game.")
@quiet_option("No progress bar and no summary of the files written.")
@encoding_option()
def split(
    paths: tuple[str, ...],
    out: str | None,
    game: str | None,
    globs: tuple[str, ...],
    verbose: bool,
    quiet: bool,
) -> None:
    """Write every game of PATHS to a file of its own in DIR, named from
    its tags (DATE_PLAYER-PLAYER_rROUND.hxl, safe ASCII characters only)
    with the extension of its game. The game's text is copied byte for byte.

    PATHS are record files, directories, .zip or .tar(.gz) archives, or -
    for standard input (the files this run writes are not read again when
    DIR is inside one of them). An existing file is never overwritten: a
    name that is taken gets a number (NAME_2.hxl).

    A game that cannot be written (a full disk, a name the file system
    refuses, a read-back that differs) is named and skipped; every other
    game is still written.

    Exit status: 0 when every game was written, 2 on a usage error or when
    some input could not be read or a game not written.
    """
    folder: str = old_spelling("out", out, required=True)
    make_folder(folder)
    names = Names()
    written = unreadable = failed = 0
    mine: set[str] = set()  # the files written: a folder of PATHS may hold DIR
    source, skip = "", False

    def cannot_read(path: str, why: str) -> None:
        nonlocal unreadable
        unreadable += 1
        tell(f"{path}: {why}")  # why: a message of the library, translated there

    bar, kept = games_bar(paths, quiet=quiet, globs=globs), Kept()
    progress = stoppable(lambda: so_far(bar.count, bar.total, "game", kept))
    with progress, synced_together():  # each file whole; all flushed to the disk at the end
        texts = archive_games(list(paths), cannot_read, globs=globs, game=game)
        for done, text in enumerate(texts):
            bar.update(done)
            checkpoint()
            if text.path != source:
                source, skip = text.path, os.path.realpath(text.path) in mine
            if skip:
                continue
            data = certain_or_as_read(text)
            data += b"\r\n" if b"\r\n" in data else b"\n"
            expected = Written()
            expected.add(text.parsed)
            try:
                stem, extension = file_stem(text), file_extension(text)
                with signals_held():  # written, counted and kept, or none of these
                    name = _write_new(folder, names, stem, extension, data, expected)
                    written += 1
                    kept.add(os.path.join(folder, name))
                    bar.update(done + 1)
            except (WriteError, WrittenDiffers) as error:
                # one game that cannot be written stops no other: named, counted, skipped
                failed += 1
                tell(
                    _("{where}: game {index} not written: {error}").format(
                        where=f"{text.path}:{text.line}", index=text.index, error=error
                    )
                )
                continue
            mine.add(os.path.realpath(os.path.join(folder, name)))
            if verbose:
                tell(
                    _("{where}: game {index} -> {path}").format(
                        where=f"{text.path}:{text.line}",
                        index=text.index,
                        path=os.path.join(folder, name),
                    )
                )
    bar.done()
    if not quiet or failed:
        tell(_("wrote {files} to {path}").format(files=counted(written, "file"), path=folder))
    if failed:
        tell(
            _("{games} not written (named above); every other game was written").format(
                games=counted(failed, "game")
            )
        )
    if unreadable or failed:
        sys.exit(2)


def _write_new(
    folder: str, names: Names, stem: str, extension: str, data: bytes, written: Written
) -> str:
    """Write ``data`` under the first free name (a name taken by anything,
    a dangling symbolic link too, is not free); read back under that name,
    it must hold the game ``written``. The name it was written under."""
    for name in names.candidates(stem, extension):
        path = os.path.join(folder, name)
        try:
            write_atomically(path, data, check=functools.partial(_verify, written, path))
        except ExistsError:  # a file of an earlier run, or of someone else: left alone
            continue
        return name
    raise AssertionError("candidates never ends")


def _verify(written: Written, path: str, temp: str) -> None:
    verify(temp, written, shown=path)
