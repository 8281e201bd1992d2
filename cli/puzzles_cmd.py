"""``hexhop puzzles``: positions from real games with a unique forced win."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator

import click

from hexhop.archive.verify import Written, verify
from hexhop.messages import _, ngettext
from hexhop.notation.games import find_game
from hexhop.notation.model import ParsedGame, Record
from hexhop.records.analysis import Settings
from hexhop.records.counting import count_files, count_games
from hexhop.records.puzzle_choice import ALL_MOTIFS, ORDERS, Choice, choose
from hexhop.records.puzzles import (
    NoLine,
    Puzzle,
    Study,
    find_puzzles,
    puzzle_book,
    stored_puzzles,
)
from hexhop.records.sources import Source, iter_sources
from hexhop.render.pages import page_for

from .command_output import tell
from .help import Translated
from .interrupt import checkpoint, signals_held, stoppable
from .options import (
    Count,
    Seconds,
    dask_option,
    diagram_width,
    encoding_option,
    force_option,
    format_option,
    game_option,
    jobs_option,
    old_spelling,
    page_options,
    pieces_only_for_trigeo,
    pieces_option,
    quiet_option,
    renamed,
    shared,
    unused_options,
)
from .progress import Kept, ProgressBar, kept, so_far
from .safe_write import write_atomically

#: The puzzle sheet of ``--format pdf``.
BOOK = "puzzles.pdf"

EXAMPLE = """
\b
Examples:
  hexhop puzzles samples/good --out-dir puzzles
  hexhop puzzles club.zip --out-dir puzzles --depth 3 --format png
  hexhop puzzles club.zip --out-dir puzzles --format pdf --page a5
  hexhop puzzles --db club.sqlite --out-dir puzzles --min-depth 2
  hexhop puzzles --db club.sqlite --out-dir sheet --limit 12 --format pdf
  hexhop puzzles club.zip --out-dir p --motif capture-chain --order random --seed 7
"""


@click.command(cls=Translated, epilog=EXAMPLE)
@click.argument("paths", nargs=-1)
@shared("--out-dir", "out", type=click.Path(file_okay=False), help="Folder to write to.")
@renamed("--out", "--out-dir", "out")
@game_option
@shared(
    "--depth",
    type=Count(1, 4),
    default=2,
    show_default=True,
    help="Wins within this many own actions.",
)
@format_option(
    ["svg", "png", "pdf"],
    "Format of the diagrams; pdf: one puzzle sheet, puzzles.pdf, with every puzzle "
    "on pages of --page and the solutions on the last page(s).",
)
@shared(
    "--size",
    type=diagram_width(),
    default=400,
    show_default=True,
    help="Width of a diagram in pixels.",
)
@page_options(
    "pdf: the paper, a4, a5 or letter (default: the locale's, Letter for en_US and en_CA, else A4)."
)
@pieces_option(
    "dice or chess: draw Trigeo's dice as chess pieces, King 1, Pawn 2, Knight 3, "
    "Bishop 4, Rook 5, Queen 6 (default: dice); other games are drawn as always."
)
@force_option("Overwrite files in --out-dir.")
@shared(
    "--max-nodes",
    type=Count(1),
    default=200_000,
    show_default=True,
    help="Search at most this many actions per position.",
)
@shared(
    "--max-seconds",
    type=Seconds(0, min_open=True),
    default=5.0,
    show_default=True,
    help="Search at most this long per position.",
)
@shared(
    "--min-depth",
    type=Count(1),
    default=None,
    metavar="N",
    help="Only puzzles whose win takes at least N own actions (default: 2 for the pdf "
    "sheet, which leaves out wins at once unless asked, else 1); --depth is the most.",
)
@shared(
    "--limit",
    type=Count(0),
    default=0,
    show_default=True,
    help="Write at most this many puzzles, chosen in --order (0: all).",
)
@click.option(
    "--per-game",
    type=Count(0),
    default=1,
    show_default=True,
    metavar="N",
    help="At most N puzzles from one game (0: any number).",
)
@click.option(
    "--order",
    type=click.Choice(ORDERS),
    default="difficulty",
    show_default=True,
    help="difficulty: the easiest first (depth, then decoys, defences and length); "
    "source: as the games are; random: shuffled by --seed.",
)
@shared(
    "--seed",
    type=Count(),
    default=0,
    show_default=True,
    help="The seed of --order random: the same seed gives the same puzzles in the same order.",
)
@click.option(
    "--motif",
    "motifs",
    multiple=True,
    type=click.Choice(ALL_MOTIFS),
    help="Only puzzles with this motif (repeatable: with every one given); "
    "docs/analysis.md says what each means.",
)
@shared(
    "--db",
    default=None,
    metavar="FILE",
    help="Draw the puzzles from the analysis this index keeps (hexhop index --analyse) "
    "instead of searching every position again; PATHS, if given, choose its files.",
)
@jobs_option("Search files in this many processes, 0: one per core (the puzzles are the same).")
@dask_option(
    "Search PATHS on the Dask scheduler at ADDRESS (local: a cluster of -j processes here; "
    "not with --db); the puzzles are the same. Needs pip install 'hexhop[dask]'."
)
@quiet_option("No progress bar and no summary of the puzzles written.")
@encoding_option()
def puzzles(
    paths: tuple[str, ...],
    out: str,
    game: str | None,
    depth: int,
    fmt: str,
    size: int,
    page: str | None,
    landscape: bool,
    pieces: str | None,
    force: bool,
    max_nodes: int,
    max_seconds: float,
    min_depth: int | None,
    limit: int,
    per_game: int,
    order: str,
    seed: int,
    motifs: tuple[str, ...],
    db: str | None,
    quiet: bool,
    jobs: int,
    dask: str | None,
) -> None:
    """Write puzzles from the games of PATHS: positions where exactly one
    first action wins by force within --depth own actions.

    Each puzzle is a record (puzzle001.hxl …) with a Position tag and the
    solution as its movetext, and a diagram (puzzle001.svg …) captioned
    like "North to play and win in 2"; with --format pdf, the diagrams are
    one puzzle sheet, puzzles.pdf, the solutions on its last page(s).
    Equal positions and near-repeats are written once, at most --per-game
    from one game, at most --limit in all, in --order (the easiest first).
    Each record names the game it comes from in its Source, SourceGame,
    SourcePly, SourcePlayers, SourceEvent and SourceYear tags, and its
    difficulty and motifs in its Difficulty and Motifs tags; the sheet
    prints the source under each diagram. With --db, only the positions
    where the index's stored analysis leaves a win within --depth possible
    are looked at, read from the puzzles it keeps (else searched again):
    the same puzzles as a search of the same games.

    Exit status: 0 when done, 2 on a usage error or when some input could
    not be read (the others are read).
    """
    from hexhop.render.chess_pieces import draws_chess
    from hexhop.render.svg import board_svg

    out = old_spelling("out", out, required=True)
    only_for = {"size": ("svg", "png"), "page": ("pdf",), "landscape": ("pdf",)}
    for warning in unused_options(click.get_current_context(), fmt, only_for):
        tell(warning)
    if not paths and db is None:
        raise click.UsageError(_("give PATHS to search, or --db with an analysed index"))
    if dask is not None and db is not None:  # the index's puzzles are read here, not searched
        raise click.UsageError(_("--dask searches PATHS; with --db nothing is searched"))
    settings = Settings(depth, max_nodes, max_seconds, game)
    inputs = list(paths) + ([db] if db is not None else [])  # and every file read

    def sources() -> Iterator[Source]:
        for source in iter_sources(list(paths)):
            inputs.append(source.path)
            yield source

    unreadable: list[str] = []

    def cannot_read(why: str) -> None:
        tell(why)
        unreadable.append(why)

    stored, studies = (
        _stored_games(db, paths, settings.depth, inputs) if db is not None else (None, None)
    )
    # one process: a bar of the games searched; several: of the files
    if stored is not None:
        total: int | None = sum(len(wanted) for _source, wanted in stored)
    else:
        total = count_games(paths) if jobs <= 1 and dask is None else count_files(paths)
    several = (jobs > 1 or dask is not None) and stored is None
    progress = _Progress(ProgressBar(total, "file" if several else "game", quiet=quiet), quiet)
    with stoppable(progress.so_far):
        if stored is not None:
            found = _from_index(db or "", stored, settings, cannot_read, progress, studies)
        else:
            found = find_puzzles(
                sources(),
                settings,
                cannot_read,
                jobs,
                on_game=progress.bar.update,
                progress=progress.bar.update,
                dask=dask,
            )
        lowest = min_depth if min_depth is not None else (2 if fmt == "pdf" else 1)
        choice = Choice(limit, per_game, order, seed, lowest, depth, motifs)
        found = choose(found, choice)
        progress.writing(len(found))
        others = [p.game for p in found if not draws_chess(p.game, "chess")]
        if pieces == "chess" and others:
            tell(pieces_only_for_trigeo(others))
        for number, puzzle in enumerate(found, 1):
            checkpoint()
            stem = os.path.join(out, f"puzzle{number:03d}")
            record = puzzle.text(number).encode("utf-8")
            title = _("Puzzle {number}").format(number=number) + ": " + puzzle.caption()
            data = None
            if fmt != "pdf":  # the puzzle sheet draws its own diagrams
                picture = board_svg(
                    puzzle.position, size=size, title=title, pieces=pieces or "dice"
                )
                data = _picture_bytes(picture, fmt, size)
            record_path = stem + find_game(puzzle.game).extension
            with signals_held():  # a puzzle's two files and their count, or none of these
                _write(record_path, record, force, inputs, puzzle.record(number))
                if data is not None:
                    _write(f"{stem}.{fmt}", data, force, inputs)
                progress.kept += [record_path] + ([f"{stem}.{fmt}"] if data is not None else [])
                progress.bar.update(number)
        if fmt == "pdf" and found:
            book = os.path.join(out, BOOK)
            _write(
                book, puzzle_book(found, page_for(page, landscape), pieces or "dice"), force, inputs
            )
            progress.kept.append(book)
    progress.bar.done()
    if not quiet:
        tell(_("wrote {count} puzzles to {out}").format(count=len(found), out=out))
    if unreadable:  # as check: the other files were read
        raise SystemExit(2)


def _from_index(
    db: str,
    stored: list[tuple[Source, dict[int, tuple[int, ...]]]],
    settings: Settings,
    cannot_read: Callable[[str], None],
    progress: _Progress,
    studies: dict[str, dict[tuple[int, int], Study]] | None,
) -> list[Puzzle]:
    """The puzzles of the stored analysis; a solution kept that is no line
    is a damaged index (exit 2)."""
    from hexhop.archive.index import damaged

    try:
        return stored_puzzles(
            stored, settings, cannot_read, on_game=progress.bar.update, studies=studies
        )
    except NoLine as error:
        raise damaged(db, str(error)) from None


def _stored_games(
    db: str, paths: tuple[str, ...], depth: int, inputs: list[str]
) -> tuple[
    list[tuple[Source, dict[int, tuple[int, ...]]]], dict[str, dict[tuple[int, int], Study]]
]:
    """The games of the index ``db`` (under ``paths``, when given) with the
    positions its analysis leaves to search, each file read again (a file
    that changed since it was indexed stops the command, exit 2); and what
    the index keeps of those positions, by file and (game, ply)."""
    from hexhop.archive.analysed import (
        StoredFile,
        candidates,
        kept_studies,
        require_analysis,
        source_of,
    )
    from hexhop.archive.index import IndexProblem
    from hexhop.archive.query import open_to_search, real_roots, under_any

    connection = open_to_search(db)
    try:
        warning = require_analysis(connection, db, "--db")
        if warning is not None:
            tell(warning)
        roots = real_roots(paths)
        files: dict[str, tuple[StoredFile, dict[int, tuple[int, ...]]]] = {}
        for found in candidates(connection, db, depth):
            if paths and not under_any(found.real, roots):
                continue
            entry = files.setdefault(
                found.real, (StoredFile(0, found.path, found.real, found.digest, 0), {})
            )
            entry[1][found.number] = found.plies
        asked = {
            (real, number): plies
            for real, (_file, plies_of) in files.items()
            for number, plies in plies_of.items()
        }
        studies = kept_studies(connection, db, asked)
    finally:
        connection.close()
    games = []
    for stored, wanted in files.values():
        source, why = source_of(stored)
        if source is None:
            raise IndexProblem(why or stored.path)
        inputs.append(stored.real)
        games.append((source, wanted))
    return games, studies


class _Progress:
    """The games searched, then the puzzles written: on the bar, and in what
    an interrupted run tells."""

    def __init__(self, bar: ProgressBar, quiet: bool):
        self.bar = bar
        self.quiet = quiet
        self.puzzles: int | None = None  # known once the search is done
        self.kept: list[str] = []

    def writing(self, puzzles: int) -> None:
        self.bar.done()
        self.puzzles = puzzles
        self.bar = ProgressBar(puzzles, "puzzle", quiet=self.quiet)

    def so_far(self) -> str:
        done = self.bar.count
        if self.puzzles is None and self.bar.what == "file":  # searched in several processes
            return so_far(done, self.bar.total, "file", Kept())
        if self.puzzles is None:
            total = self.bar.total
            where = (
                _("at game {number} of {total}").format(number=done + 1, total=total)
                if total is not None
                else _("at game {number}").format(number=done + 1)
            )
            return _("{where} ({done} searched, nothing written)").format(where=where, done=done)
        return _("after {done} of {total}; {kept}").format(
            done=done, total=counted_puzzles(self.puzzles), kept=kept(self.kept)
        )


def counted_puzzles(number: int) -> str:
    return ngettext("{n} puzzle", "{n} puzzles", number).format(n=number)


def _picture_bytes(svg: str, fmt: str, size: int) -> bytes:
    if fmt == "png":
        from hexhop.render.png import svg_to_png

        return svg_to_png(svg, size=size)
    return svg.encode("utf-8")


def _write(
    path: str, data: bytes, force: bool, inputs: list[str], record: Record | None = None
) -> None:
    """Write one file; a puzzle's record is read back as that record before it is kept."""
    check = None
    if record is not None:
        written = Written()
        written.add(ParsedGame(1, record, ()))
        check = functools.partial(verify, written=written, shown=path)
    write_atomically(path, data, overwrite=force, check=check, inputs=inputs)
