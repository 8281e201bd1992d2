"""``hexhop analyse``: missed wins and actions that gave a win away."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import ExitStack, closing
from functools import partial

import click

from hexhop.archive.certainty import uncertain_games
from hexhop.messages import _, number, side_name
from hexhop.records.analysis import (
    FileAnalysis,
    GameAnalysis,
    Settings,
    analyse_source,
    analyse_sources,
)
from hexhop.records.counting import count_games
from hexhop.records.sources import Source, iter_sources
from hexhop.records.text import counted

from .command_output import tell
from .help import Translated
from .interrupt import signals_held, stoppable
from .options import (
    Count,
    Seconds,
    dask_option,
    encoding_option,
    force_option,
    format_option,
    game_option,
    jobs_option,
    quiet_option,
    shared,
)
from .progress import ProgressBar
from .safe_write import refuse_existing, refuse_inputs, write_atomically
from .terminal import printable

EXAMPLE = """
\b
Examples:
  hexhop analyse samples/good
  hexhop analyse game.hxl --depth 3 --format json
  hexhop analyse game.hxl --annotate game-annotated.hxl
"""


@click.command(cls=Translated, epilog=EXAMPLE)
@click.argument("paths", nargs=-1, required=True)
@game_option
@shared(
    "--depth",
    type=Count(1, 6),
    default=2,
    show_default=True,
    help="Look for wins within this many own actions.",
)
@format_option(
    ["text", "json"],
    "Report format.",
)
@click.option(
    "--annotate",
    metavar="OUT",
    type=click.Path(dir_okay=False),
    help="Write a copy of the record with ? and ?? and comments to OUT (one RECORD only).",
)
@force_option("Overwrite --annotate OUT if it exists.")
@shared(
    "--max-nodes",
    type=Count(1),
    default=200_000,
    show_default=True,
    help="Search at most this many actions per position (beyond: undecided).",
)
@shared(
    "--max-seconds",
    type=Seconds(0, min_open=True),
    default=5.0,
    show_default=True,
    help="Search at most this long per position (beyond: undecided).",
)
@jobs_option("Analyse files in this many processes, 0: one per core (output order stays the same).")
@dask_option(
    "Analyse on the Dask scheduler at ADDRESS (local: a cluster of -j processes here); "
    "the report and the annotated copy are the same. Needs pip install 'hexhop[dask]'."
)
@quiet_option("No progress bar; problems are still told.")
@encoding_option()
def analyse(
    paths: tuple[str, ...],
    game: str | None,
    depth: int,
    fmt: str,
    annotate: str | None,
    force: bool,
    max_nodes: int,
    max_seconds: float,
    jobs: int,
    dask: str | None,
    quiet: bool,
) -> None:
    """Find missed wins and actions that allowed the opponent a forced win.

    For every ply of every game's main line: whether the side to move had
    a forced win within --depth own actions and played something else, and
    whether its action gave the opponent a forced win it did not have.
    A Hexalit roll counts as a win only when every face wins; the cube is
    left out. A record with an illegal action is analysed up to it.

    Exit status: 0 when every game was analysed to its end, 1 when some
    game stops at an illegal action, 2 when some input could not be read.
    """
    settings = Settings(depth, max_nodes, max_seconds, game)
    sources = iter_sources(list(paths))
    games = _Games(paths, quiet)
    results: list[FileAnalysis] = []
    with stoppable(games.so_far), ExitStack() as stack:
        if annotate is not None:
            results = [_annotate(list(sources), settings, (annotate, force, dask), games)]
        else:
            games.report = _("their notes printed")
            try:
                # (on_game, progress, on_analysed)
                found = analyse_sources(
                    sources, settings, jobs, games.on_game, None, games.analysed, dask=dask
                )
                stack.enter_context(closing(found))  # stopped: the workers end now
                for result in games.each(found):
                    with signals_held():  # a file's notes are printed whole, and once
                        results.append(result)
                        games.current = None
                        if fmt != "json":
                            games.bar.done()
                            _print(result)
            except KeyboardInterrupt:
                # the notes of the games done, the file being analysed's too
                done = results + games.unfinished()
                games.bar.done()
                if fmt == "json":
                    _json(depth, done, interrupted=True)
                else:
                    for result in done[len(results) :]:
                        _print(result)
                    _summary(done)
                raise
    games.bar.done()
    if fmt == "json":
        _json(depth, results)
    else:
        if annotate is not None:
            for result in results:
                _print(result)
        _summary(results)
    if not results or any(r.error for r in results):
        sys.exit(2)
    stops = any(n.kind == "stops" for r in results for g in r.games for n in g.notes)
    sys.exit(1 if stops else 0)


class _Games:
    """The games analysed so far, on the progress bar and in what an
    interrupted run tells."""

    def __init__(self, paths: tuple[str, ...], quiet: bool):
        self.bar = ProgressBar(count_games(paths), "game", quiet=quiet)
        self.before = 0  # in the files done
        self.report = _("report not written")
        self.current: FileAnalysis | None = None  # the games done of the file being analysed

    def on_game(self, done: int) -> None:  # in the file being analysed
        self.bar.update(self.before + done)

    def analysed(self, path: str, game: GameAnalysis) -> None:
        """A game of the file being analysed is done (one process)."""
        if self.current is None or self.current.path != path:
            self.current = FileAnalysis(path)
        self.current.games.append(game)

    def unfinished(self) -> list[FileAnalysis]:
        """The games done of the file whose analysis was stopped."""
        current, self.current = self.current, None
        return [current] if current is not None else []

    def each(self, results: Iterator[FileAnalysis]) -> Iterator[FileAnalysis]:
        for result in results:
            self.before += len(result.games)
            self.bar.update(self.before)
            yield result

    def so_far(self) -> str:
        done, total = self.bar.count, self.bar.total
        where = (
            _("at game {number} of {total}").format(number=done + 1, total=total)
            if total is not None
            else _("at game {number}").format(number=done + 1)
        )
        return _("{where} ({done} analysed, {report})").format(
            where=where, done=done, report=self.report
        )


def _annotate(
    sources: list[Source],
    settings: Settings,
    how: tuple[str, bool, str | None],
    games: _Games,
) -> FileAnalysis:
    """Analyse the one source and write its annotated copy (``how``: OUT,
    --force, --dask)."""
    out, force, dask = how
    if len(sources) != 1:
        raise click.UsageError(_("--annotate takes exactly one RECORD"))
    source = sources[0]
    refuse_inputs([out], [source.path])
    refuse_existing([out], force)
    games.report = _("{path} not written").format(path=out)
    if dask is None:
        result = analyse_source(source, settings, annotate=True, on_game=games.on_game)
    else:  # on the cluster, as one call
        result = _annotated_on_dask(source, settings, dask)
    uncertain = uncertain_games(source.path, source.data or b"", settings.game)
    for why in uncertain:  # its annotated copy would write a misreading as its text
        tell(_("{why}: not annotated").format(why=why))
    if result.error is None and not uncertain:
        if result.annotated is None:
            tell(_("{path}: not annotated: a game has a syntax error").format(path=source.path))
        else:
            _write_annotated(source, settings.game, result.annotated, out, force)
    return result


def _annotated_on_dask(source: Source, settings: Settings, dask: str) -> FileAnalysis:
    """The annotated analysis of ``source``, made on the Dask scheduler at ``dask``."""
    from hexhop.records.jobs import failure_message, run_in_order

    def failed(source: Source, error: BaseException) -> FileAnalysis:
        return FileAnalysis(source.path, error=failure_message(source.path, error))

    analyse = partial(analyse_source, settings=settings, annotate=True)
    [result] = run_in_order(analyse, [source], 1, failed=failed, dask=dask)
    return result


def _write_annotated(
    source: Source, game: str | None, annotated: str, out: str, force: bool
) -> None:
    """Write the annotated copy to ``out``: read back (its game from its
    name, else ``--game``) it must hold the games of ``source``."""
    from hexhop.archive.verify import Written, verify
    from hexhop.notation import read_archive

    written = Written()
    for parsed in read_archive(source.data or b"", path=source.path, default_game=game):
        if parsed.record is not None:  # as format_archive writes them
            written.add(parsed)
    write_atomically(
        out,
        annotated.encode("utf-8"),
        overwrite=force,
        check=lambda temp: verify(temp, written, shown=out, default_game=game),
        inputs=[source.path],
    )


def _json(depth: int, results: list[FileAnalysis], interrupted: bool = False) -> None:
    document: dict[str, object] = {"depth": depth, "files": [r.as_dict() for r in results]}
    if interrupted:  # Ctrl-C or SIGTERM: the games done so far
        document["interrupted"] = True
    click.echo(json.dumps(document, ensure_ascii=False, indent=2))


def _print(result: FileAnalysis) -> None:
    if result.error:
        tell(f"{result.path}: {result.error}")
        return
    for game in result.games:
        for note in game.notes:
            where = f"{result.path}:{note.line}:{note.column}" if note.line else result.path
            # a missed or allowed win says its ply and side in its own words
            ply = (
                _("ply {ply}, {side}: ").format(ply=note.ply, side=side_name(note.side))
                if note.side and note.kind not in ("missed", "allows")
                else ""
            )
            click.echo(printable(f"{where}: {ply}{note.message}"))


def _by_player(games: list[GameAnalysis]) -> None:
    """The missed and allowed wins of each player (a side without a name:
    the side), as a table, when there are some; most first, then by name."""
    counts: dict[str, list[int]] = {}
    for game in games:
        for note in game.notes:
            if note.kind in ("missed", "allows"):
                name = game.players.get(note.side) or side_name(note.side)
                counts.setdefault(name, [0, 0])[note.kind == "allows"] += 1
    if not counts:
        return
    rows = sorted(counts.items(), key=lambda item: (-sum(item[1]), item[0].casefold()))
    heading = [_("player"), _("missed"), _("allowed")]
    width = max(len(heading[0]), *(len(name) for name in counts))
    widths = [len(heading[1]), len(heading[2])]
    click.echo(printable(f"{heading[0]:<{width}}  {heading[1]}  {heading[2]}"))
    for name, (missed, allows) in rows:
        cells = f"{missed:>{widths[0]}}  {allows:>{widths[1]}}"
        click.echo(printable(f"{name:<{width}}  {cells}"))


def _summary(results: list[FileAnalysis]) -> None:
    games = [g for r in results for g in r.games]
    _by_player(games)
    missed = sum(n.kind == "missed" for g in games for n in g.notes)
    allows = sum(n.kind == "allows" for g in games for n in g.notes)
    plies = sum(g.analysed for g in games)
    seconds = sum(g.seconds for g in games)
    click.echo(
        _("analysed {games}, {plies}: {missed} missed, {allows} allowed ({seconds} s)").format(
            games=counted(len(games), "game"),
            plies=counted(plies, "ply"),
            missed=missed,
            allows=allows,
            seconds=number(seconds, 1),
        )
    )
