"""``hexhop fmt``: write records in canonical form, like ``black`` for code."""

from __future__ import annotations

import difflib
import os
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

import click

from hexhop.messages import _
from hexhop.records.counting import count_files
from hexhop.records.report import SEVERITIES
from hexhop.records.sources import ARCHIVE_EXTENSIONS, Source, compressor_of, iter_sources
from hexhop.records.text import counted

from .command_output import tell
from .help import Translated
from .interrupt import checkpoint, signals_held, stoppable
from .options import Count, encoding_option, game_option, quiet_option
from .progress import Kept, ProgressBar, beside
from .safe_write import WriteError, write_atomically
from .terminal import printable

if TYPE_CHECKING:  # imported when a file is formatted
    from hexhop.archive.verify import Written

EXAMPLE = """
\b
Examples:
  hexhop fmt game.hxl                 print the canonical form
  hexhop fmt --check samples/good     exit 1 if a file would change
  cat game.hxl | hexhop fmt -         read standard input
  hexhop fmt club.zip:games/a.hxl     one member of an archive (printed)
  hexhop fmt --diff game.hxl          show what would change
  hexhop fmt --in-place game.hxl      rewrite the file (atomically)
"""


@click.command(cls=Translated, epilog=EXAMPLE)
@click.argument("files", nargs=-1, required=True)
@game_option
@click.option(
    "--check",
    "check_only",
    is_flag=True,
    help="Write nothing; exit 1 when some file is not in canonical form.",
)
@click.option("--diff", is_flag=True, help="Print a unified diff instead of the records.")
@click.option("--in-place", is_flag=True, help="Rewrite the files themselves.")
@click.option(
    "--width",
    type=Count(20, 1000),
    default=79,
    show_default=True,
    help="Wrap movetext at this column.",
)
@quiet_option("No progress bar; do not name the files that are (or would be) reformatted.")
@encoding_option()
def fmt(
    files: tuple[str, ...],
    game: str | None,
    check_only: bool,
    diff: bool,
    in_place: bool,
    width: int,
    quiet: bool,
) -> None:
    """Rewrite FILES in canonical form: tag order, symbols, move numbers,
    wrapping. Every comment, glyph and variation is kept. A file with a
    syntax error is reported and left alone.

    FILES are record files, folders (their {record_globs} files),
    - for standard input, and .zip or .tar(.gz) archives; the members of
    an archive and standard input are printed or checked, never rewritten
    (--in-place refuses them).

    Exit status: 0 when done (with --check: nothing would change), 1 when
    --check finds a file to change, 2 when a file cannot be read or parsed.
    """
    if in_place:
        for path in files:
            if path == "-" or _archive(path):
                raise click.UsageError(
                    _(
                        "--in-place cannot rewrite {path}: "
                        "only record files and folders are rewritten"
                    ).format(path=_("standard input") if path == "-" else path)
                )
    changed = failed = done = 0
    # how many files there are is known when no folder or archive is to be searched
    listed = all(path == "-" or os.path.isfile(path) and not _archive(path) for path in files)

    bar, rewritten = ProgressBar(None, "file", quiet=quiet), Kept()
    room = sys.stdout.isatty() and not (check_only or in_place)  # the records go to its terminal
    bar.total = len(files) if listed else count_files(files) if bar.enabled else None

    def progress() -> str:
        kept = "; " + rewritten.text() if in_place else ""
        if bar.total is not None:
            files_done = _("after {done} of {files}").format(
                done=done, files=counted(bar.total, "file")
            )
        else:
            files_done = _("after {files}").format(files=counted(done, "file"))
        return files_done + kept

    with stoppable(progress):
        for source in iter_sources(list(files)):
            checkpoint()
            result = _format_source(source, game, width)  # the slow part: Ctrl-C stops it
            checkpoint()
            if room:
                bar.done()
            with signals_held():  # written, reported and counted, or none of these
                outcome = _finish(source.path, result, check_only, diff, in_place, quiet)
                done += 1
                if in_place and outcome == "changed":
                    rewritten.add(source.path)
            bar.update(done)
            failed += outcome == "failed"
            changed += outcome == "changed"
    bar.done()
    if failed:
        sys.exit(2)
    if check_only and changed:
        sys.exit(1)


def _archive(path: str) -> bool:
    """An archive, or a compressed record file: read, never rewritten."""
    return path.lower().endswith(ARCHIVE_EXTENSIONS) or compressor_of(path) is not None


@dataclass
class _Formatted:
    """A file's text before and after, and the games written (for the read-back)."""

    old: str
    new: str
    written: Written
    game: str | None
    recode: bool = False  # read with --encoding, not yet the UTF-8 of the new text
    uncertain: tuple[str, ...] = ()  # the games whose text is not certain, named


def _finish(
    path: str,
    result: _Formatted | None,
    check_only: bool,
    diff: bool,
    in_place: bool,
    quiet: bool,
) -> str:
    """Print or write one formatted file as asked: ``failed``, ``changed`` or ``same``."""
    from hexhop.archive.index import container
    from hexhop.archive.verify import WrittenDiffers

    if result is None:
        return "failed"
    if not (check_only or diff or in_place):
        click.echo(result.new, nl=False, file=beside(sys.stdout))
        return "same"
    if result.old == result.new and not result.recode:
        return "same"
    if in_place and container(path) != path:  # found in an archive of a folder given
        tell(
            _("{path}: left as it is: --in-place does not rewrite a member of an archive").format(
                path=printable(path)
            )
        )
        return "same"
    if in_place and compressor_of(path) is not None:  # plain text in a .gz is no record
        tell(
            _("{path}: left as it is: --in-place does not rewrite a compressed file").format(
                path=printable(path)
            )
        )
        return "same"
    if in_place and result.uncertain:
        for why in result.uncertain:
            tell(why)
        tell(_("{path}: left as it is: its text is not certain").format(path=printable(path)))
        return "failed"
    try:
        _report_change(path, result, check_only, diff, in_place, quiet)
    except WriteError as error:
        tell(
            _("{path}: cannot write {path}: {reason}; the file is left as it was").format(
                path=printable(path), reason=error.reason
            )
        )
        return "failed"
    except WrittenDiffers as error:
        tell(_("{error}; the file is left as it was").format(error=error))
        return "failed"
    return "changed"


def _report_change(
    path: str, result: _Formatted, check_only: bool, diff: bool, in_place: bool, quiet: bool
) -> None:
    old, new = result.old, result.new
    if check_only:
        if not quiet:
            tell(_("would reformat {path}").format(path=printable(path)))
    elif diff:
        click.echo(
            "".join(
                difflib.unified_diff(
                    old.splitlines(True),
                    new.splitlines(True),
                    path,
                    _("{path} (formatted)").format(path=path),
                )
            ),
            nl=False,
            file=beside(sys.stdout),
        )
    elif in_place:
        from hexhop.archive.verify import verify

        # through a symbolic link: the file it leads to is formatted, the link kept;
        # read back as the file is read (its name, --game), it must hold the same games
        write_atomically(
            os.path.realpath(path),
            new.encode("utf-8"),
            overwrite=True,
            check=lambda temp: verify(temp, result.written, shown=path, default_game=result.game),
        )
        if not quiet:
            tell(_("reformatted {path}").format(path=printable(path)))


def _format_source(source: Source, game: str | None, width: int) -> _Formatted | None:
    """The old and new text, or None after printing why the file cannot be formatted."""
    from hexhop.notation import NotationError, format_archive, read_archive
    from hexhop.records.checking import readable_data

    path = source.path
    data = readable_data(source)  # as check reads it: IO01 to IO03
    if not isinstance(data, bytes):
        error = data.error or {}
        message = printable(str(error.get("message", "")))
        tell(f"{printable(path)}: {error.get('code', 'IO01')} {message}")
        return None
    try:
        games = list(read_archive(data, path=path, default_game=game))
    except NotationError as error:  # more games than the limit: not one is formatted
        tell(f"{printable(path)}: {error.finding.code} {printable(error.finding.message)}")
        return None
    errors = [f for parsed in games for f in parsed.findings if f.severity == "error"]
    if errors:
        for finding in errors:
            tell(
                f"{printable(path)}:{finding.line}:{finding.column}: "
                f"{_(SEVERITIES[finding.severity])} {finding.code} "
                f"{printable(finding.message)}"
            )
        tell(_("{path}: not formatted (fix the errors above first)").format(path=printable(path)))
        return None
    from hexhop.notation.reader import FORCED_ENCODING, decode

    new = format_archive(games, width=width)
    # read as the reader reads it (UTF-16, Windows-1252), so that only the
    # text is compared and a diff shows characters, not replaced bytes
    old, guessed = decode(data)
    old = old.replace("\r\n", "\n")
    from hexhop.archive.verify import Written

    written = Written()
    for parsed in games:
        if parsed.record is not None:  # format_archive leaves the others out
            written.add(parsed)
    recode = FORCED_ENCODING[0] is not None and data != new.encode("utf-8")
    uncertain: tuple[str, ...] = ()
    if guessed or "\ufffd" in old:  # never a misreading written as the file's text
        from hexhop.archive.certainty import uncertain_games

        uncertain = tuple(map(str, uncertain_games(path, data, game)))
    return _Formatted(old, new, written, game, recode, uncertain)
