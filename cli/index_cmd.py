"""``hexhop index``: the games of an archive into an SQLite index for ``find``."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

import click
from click.core import ParameterSource

from hexhop.archive.analysed import AnalysisSummary, Limits, analyse_index
from hexhop.archive.index import Indexer, Summary, default_path, open_index
from hexhop.archive.players import load_names
from hexhop.archive.query import bounded
from hexhop.messages import _, ngettext, number
from hexhop.records.checking import CheckOptions
from hexhop.records.counting import count_files
from hexhop.records.text import counted

from .command_output import tell
from .help import Translated
from .interrupt import checkpoint, stoppable
from .options import (
    Count,
    Seconds,
    dask_option,
    encoding_option,
    game_option,
    glob_option,
    jobs_option,
    names_option,
    quiet_option,
    shared,
)
from .progress import ProgressBar

EXAMPLE = """
\b
Examples:
  hexhop index samples/good                    # writes samples/good/hexhop.sqlite
  hexhop index club/ club-2.zip --db club.sqlite -j 2
  hexhop index club/ --db club.sqlite --analyse --depth 2
  hexhop find --db club.sqlite --player Muller
"""


@click.command(cls=Translated, epilog=EXAMPLE)
@click.argument("paths", nargs=-1, required=True, metavar="ARCHIVE...")
@shared(
    "--db",
    metavar="FILE",
    default=None,
    help="The index file (default: hexhop.sqlite in the first ARCHIVE folder, or beside it).",
)
@game_option
@glob_option(
    "Which files of a directory or archive to index (repeatable; default: {record_globs})."
)
@jobs_option(
    "Replay games in this many processes, 0: one per core (the index is the same). "
    "Default: one per core for a large input (8 MiB or 2,000 files), else 1.",
    default=None,
)
@dask_option(
    "With --analyse: analyse on the Dask scheduler at ADDRESS (local: a cluster of -j "
    "processes here); the stored analysis is the same. Needs pip install 'hexhop[dask]'."
)
@click.option(
    "--analyse",
    is_flag=True,
    help="Also keep each game's missed wins and actions that allowed a win, as analyse "
    "finds them, for find --missed-win and --blunder, stats and puzzles --db. Only games "
    "not analysed yet, of changed files, or analysed less deep are analysed.",
)
@shared(
    "--depth",
    type=Count(1, 6),
    default=None,
    help="With --analyse: look for wins within this many own actions (default: 2).",
)
@shared(
    "--max-nodes",
    type=Count(1),
    default=200_000,
    show_default=True,
    help="With --analyse: search at most this many actions per position (beyond: undecided).",
)
@shared(
    "--max-seconds",
    type=Seconds(0, min_open=True),
    default=5.0,
    show_default=True,
    help="With --analyse: search at most this long per position (beyond: undecided).",
)
@names_option(
    "The club's names file: which spellings name one player, and the name shown "
    "(docs/archive.md); default: hexhop-names.txt beside the first ARCHIVE. The index keeps "
    "each side's player key; a changed names file makes them again."
)
@quiet_option("No progress bar and no summary line (problems are still told).")
@encoding_option()
def index(
    paths: tuple[str, ...],
    db: str | None,
    game: str | None,
    globs: tuple[str, ...],
    jobs: int | None,
    dask: str | None,
    analyse: bool,
    depth: int | None,
    max_nodes: int,
    max_seconds: float,
    names_file: str | None,
    quiet: bool,
) -> None:
    """Index every game of the ARCHIVE paths (files, folders, .zip and .tar
    archives, read as `hexhop check` reads them) for `hexhop find` and
    `hexhop dupes`.

    Per game the index keeps where it is, its tags, whether it is valid and
    its findings' codes, the end, the actions and a key of every position
    of the main line. Running it again re-reads only files whose content
    changed, and drops the games of files that are gone. Each file is
    written in a transaction of its own, so an interrupted run loses
    nothing that was indexed before. With --analyse, each game's analysis
    is kept too, a file at a time; a game analysed before is analysed
    again only when its file changed or a deeper --depth (or larger
    limits) is asked; without --analyse the analyses of unchanged files
    are kept.

    Exit status: 0 when done, 2 when some file could not be read or changed
    while it was indexed (the others are indexed), when no file held a
    game, or when the index cannot be used. A file without a game beside
    others is noted (unless --quiet), as check notes it.
    """
    for pattern in globs:
        bounded(pattern, "--glob")
    if not analyse:
        for option in ("depth", "max_nodes", "max_seconds"):
            if (
                click.get_current_context().get_parameter_source(option)
                is ParameterSource.COMMANDLINE
            ):
                raise click.UsageError(
                    _("{option} goes with --analyse").format(option="--" + option.replace("_", "-"))
                )
    path = db or default_path(paths[0])
    options = CheckOptions(game=game)
    from hexhop.records.jobs import cores, default_jobs

    if dask is not None and not analyse:  # indexing itself runs here, with -j
        raise click.UsageError(_("--dask is for --analyse: the indexing itself runs here"))

    if jobs is None:
        jobs = default_jobs(paths, globs, options.limits)
    elif jobs == 0:
        jobs = cores()
    names = load_names(names_file, paths[:1])
    connection = open_index(path, create=True)
    indexer = Indexer(connection, path, options, jobs, names=names)
    started = time.perf_counter()
    progress = ProgressBar(None, "file", quiet=quiet)
    if progress.enabled:
        progress.total = count_files(paths, globs=globs)
    summary = indexer.summary

    def so_far() -> str:
        progress.done()
        done = summary.indexed + summary.unchanged
        return _("after {files} (each written whole; run again to go on)").format(
            files=counted(done, "file")
        )

    limits = Limits(depth or 2, max_nodes, max_seconds)
    analysis = AnalysisSummary()
    analysing: list[ProgressBar] = []

    def so_far_analysed() -> str:
        for bar in analysing:
            bar.done()
        return _("after analysing {games} (each file kept whole; run again to go on)").format(
            games=counted(analysis.games, "game")
        )

    try:
        with stoppable(so_far):
            for summary in indexer.run(list(paths), globs):
                checkpoint()
                progress.update(summary.files)
        indexed = time.perf_counter() - started
        progress.done()
        if analyse and summary.held:
            _analyse(
                connection,
                path,
                paths,
                limits,
                (jobs, game, quiet, dask),
                analysis,
                analysing,
                so_far_analysed,
            )
    finally:
        connection.close()
    analysed = time.perf_counter() - started - indexed
    progress.done()
    for problem in summary.problems + analysis.problems:
        tell(problem)
    if not quiet:
        for note in summary.empty:
            tell(note)
        if summary.rekeyed:
            tell(_rekeyed(summary.rekeyed, names.path))
        tell(_summary_line(summary, indexed, path))
        if analyse and summary.held:
            tell(
                _(
                    "Analysed {games} to depth {depth} ({kept} kept as analysed before) "
                    "in {seconds} s"
                ).format(
                    games=counted(analysis.games, "game"),
                    depth=limits.depth,
                    kept=analysis.kept,
                    seconds=number(analysed, 2),
                )
            )
    if not summary.held:
        tell(_("Error: nothing to index: no game was found"))
    sys.exit(2 if analysis.problems else summary.verdict)


def _analyse(
    connection: Any,
    path: str,
    paths: tuple[str, ...],
    limits: Limits,
    how: tuple[int, str | None, bool, str | None],
    summary: AnalysisSummary,
    bars: list[ProgressBar],
    so_far: Callable[[], str],
) -> None:
    """Analyse the games that need it (``how``: jobs, --game, --quiet,
    --dask) into ``summary``, with a bar of the games analysed."""
    jobs, game, quiet, dask = how

    def started(games: int) -> None:
        bars.append(ProgressBar(games, "game", quiet=quiet))

    def on_file(done: AnalysisSummary) -> None:
        checkpoint()
        bars[0].update(done.games)

    with stoppable(so_far):
        analyse_index(
            connection,
            path,
            list(paths),
            limits,
            jobs,
            game,
            on_file=on_file,
            started=started,
            summary=summary,
            dask=dask,
        )
    for bar in bars:
        bar.done()


def _rekeyed(games: int, names: str) -> str:
    """The note that a changed names file (or none now) changed players' keys."""
    if names:
        return _("The players of {games} are named anew by {path}").format(
            games=counted(games, "game"), path=names
        )
    return _("The players of {games} are named anew, without a names file").format(
        games=counted(games, "game")
    )


def _summary_line(summary: Summary, seconds: float, path: str) -> str:
    """What the run did; the sources not indexed counted apart from those indexed."""
    text = (
        _(
            "Indexed {indexed} of {files} ({unchanged} unchanged, {dropped} gone; {failed} "
            "could not be indexed): {games}, {positions} in {seconds} s into {path}"
        )
        if summary.failed
        else _(
            "Indexed {indexed} of {files} ({unchanged} unchanged, {dropped} gone): "
            "{games}, {positions} in {seconds} s into {path}"
        )
    )
    return text.format(
        indexed=summary.indexed,
        files=counted(summary.files, "file"),
        unchanged=summary.unchanged,
        dropped=summary.dropped,
        failed=summary.failed,
        games=counted(summary.games, "game"),
        positions=positions(summary.positions),
        seconds=number(seconds, 2),
        path=path,
    )


def positions(count: int) -> str:
    """``1 position``, ``240 positions`` in the language spoken now."""
    return ngettext("{n} position", "{n} positions", count).format(n=count)
