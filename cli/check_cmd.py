"""``hexhop check``: validate records, from one file to a whole archive."""

from __future__ import annotations

import sys
import time
from contextlib import closing

import click

from hexhop.messages import _
from hexhop.records.checking import CheckOptions
from hexhop.records.sources import RECORD_EXTENSIONS, Limits
from hexhop.records.text import counted
from hexhop.runs import CheckRun

from .command_output import tell
from .help import Translated
from .interrupt import checkpoint, signals_held, stoppable
from .options import (
    Count,
    Seconds,
    dask_option,
    encoding_option,
    format_option,
    game_option,
    glob_option,
    jobs_option,
    quiet_option,
    shared,
    use_color,
)
from .progress import beside, games_bar

EXAMPLE = """
\b
Examples:
  hexhop check samples/good
  hexhop check club-archive.zip --format json > report.json
  hexhop check -j 2 --quiet archive/
  cat game.hxl | hexhop check - --game Hexalit
"""


@click.command(cls=Translated, epilog=EXAMPLE)
@click.argument("paths", nargs=-1, required=True)
@game_option
@glob_option(
    "Which files of a directory or archive to check (repeatable; default: {record_globs})."
)
@format_option(
    ["text", "json", "jsonl", "junit"],
    "Report format.",
)
@click.option("--strict", is_flag=True, help="Warnings make a game invalid too.")
@shared(
    "--color",
    type=click.Choice(["auto", "always", "never"]),
    default="auto",
    show_default=True,
    help="Colour in the text report (auto: on a terminal, unless NO_COLOR is set).",
)
@jobs_option(
    "Check files in this many processes, 0: one per core (output order stays the "
    "same). Default: one per core for a large input (8 MiB or 2,000 files), else 1.",
    default=None,
)
@dask_option(
    "Check on the Dask scheduler at ADDRESS (local: a cluster of -j processes "
    "here); the report is the same. Needs pip install 'hexhop[dask]'.",
)
@quiet_option("Print only the summary; no progress bar.")
@click.option(
    "--max-findings",
    type=Count(0),
    default=100,
    show_default=True,
    help="Show at most this many findings of a game in the text report "
    "(the json, jsonl and junit reports hold them all).",
)
@shared(
    "--max-seconds",
    type=Seconds(0, min_open=True),
    default=60.0,
    show_default=True,
    help="Stop checking a file after this long (IO09); with -j, each part of a large file.",
)
@click.option(
    "--max-file-size",
    type=Count(1),
    default=64,
    show_default=True,
    metavar="MIB",
    help="Skip (and report, IO03) files larger than this.",
)
@click.option(
    "--max-member-size",
    type=Count(1),
    default=64,
    show_default=True,
    metavar="MIB",
    help="Skip (and report, IO01) zip and tar members that unpack to more than this.",
)
@click.option(
    "--max-archive-size",
    type=Count(1),
    default=1024,
    show_default=True,
    metavar="MIB",
    help="Stop unpacking a zip or tar archive after this much in all (the rest is reported, IO01).",
)
@click.option(
    "--max-games",
    type=Count(1),
    default=Limits.max_games,
    show_default=True,
    help="Check at most this many games of one file (IO04 for the rest).",
)
@shared(
    "--max-plies",
    type=Count(1),
    default=Limits.max_actions,
    show_default=True,
    help="Games with more actions than this, variations included, are not replayed (IO05).",
)
@click.option(
    "--max-comment",
    type=Count(1),
    default=Limits.max_comment,
    show_default=True,
    metavar="CHARS",
    help="Games with a longer comment are not replayed (IO06).",
)
@click.option(
    "--max-depth",
    type=Count(1, Limits.max_depth),
    default=Limits.max_depth,
    show_default=True,
    help="Variations nested deeper than this are an error (SY06).",
)
@click.option(
    "--max-tag-length",
    type=Count(1),
    default=Limits.max_tag_value,
    show_default=True,
    metavar="CHARS",
    help="Games with a longer tag value are not read (IO07).",
)
@click.option(
    "--max-token-length",
    type=Count(1, 4000),
    default=Limits.max_token,
    show_default=True,
    metavar="CHARS",
    help="Games with a longer action, move number or tag name are not read (IO08).",
)
@encoding_option()
def check(
    paths: tuple[str, ...],
    game: str | None,
    globs: tuple[str, ...],
    fmt: str,
    strict: bool,
    color: str,
    jobs: int | None,
    dask: str | None,
    quiet: bool,
    max_findings: int,
    max_seconds: float,
    max_file_size: int,
    max_member_size: int,
    max_archive_size: int,
    max_games: int,
    max_plies: int,
    max_comment: int,
    max_depth: int,
    max_tag_length: int,
    max_token_length: int,
) -> None:
    """Check that every action of every game in PATHS is legal.

    PATHS are record files (also compressed: .hxl.gz, .trg.bz2, .hpf.xz),
    directories (searched recursively), .zip, .tar, .tar.gz, .tar.bz2 or
    .tar.xz archives (read in place), or - for standard input.

    Limits (--max-...) keep hostile input from eating the machine; what
    goes beyond one is reported and the run goes on.

    Exit status: 0 when every game is valid, 1 when some game is invalid,
    2 on a usage error or when some input could not be read.
    """
    from hexhop.records.report import REPORTERS

    colored = use_color(color, sys.stdout)
    out = beside(sys.stdout)  # the report and the progress bar on one terminal
    reporter = REPORTERS[fmt](out, color=colored, quiet=quiet, max_findings=max_findings)
    mib = 1024 * 1024
    limits = Limits(
        max_file_bytes=max_file_size * mib,
        max_member_bytes=max_member_size * mib,
        max_archive_bytes=max_archive_size * mib,
        max_games=max_games,
        max_actions=max_plies,
        max_comment=max_comment,
        max_depth=max_depth,
        max_tag_value=max_tag_length,
        max_token=max_token_length,
    )
    options = CheckOptions(game=game, strict=strict, limits=limits)
    run = CheckRun(list(paths), options, globs=globs, jobs=jobs, seconds=max_seconds, dask=dask)

    started = time.perf_counter()
    progress = games_bar(paths, quiet=quiet, globs=globs, limits=limits)

    def report_so_far() -> str:
        progress.done()
        reporter.summary.seconds = time.perf_counter() - started
        reporter.finish()
        return _("after {files}").format(files=counted(reporter.summary.files, "file"))

    with stoppable(report_so_far), closing(run.by_file()) as results:
        for pieces in results:  # each file's result, in pieces as its games are checked
            before, games = progress.count, 0
            for piece in pieces:
                checkpoint()
                with signals_held():
                    reporter.add(piece)
                games = len(piece.games) + (0 if piece.replaces else games)
                progress.update(before + games)
            with signals_held():  # a file's report is written whole
                reporter.end()
    report_so_far()
    _nothing_checked(run.empty, globs, run.summary)
    sys.exit(run.exit_code)


def _nothing_checked(empty: list[str], globs: tuple[str, ...], summary) -> None:
    """Hints on standard error for paths with no record file, and for a run
    that checked no game at all (which then exits with 2)."""
    looked_for = ", ".join(globs or tuple(f"*{ext}" for ext in RECORD_EXTENSIONS))
    for path in empty:
        tell(
            _(
                "{path}: no record files here (looked for {patterns}); "
                "--glob PATTERN checks other files"
            ).format(path=path, patterns=looked_for)
        )
    if summary.games == 0 and not summary.unreadable:
        tell(_("Error: nothing to check: no game was found"))
