"""``hexhop puzzles``: positions from real games with a unique forced win."""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator

import click

from hexhop.archive.verify import Written, verify
from hexhop.messages import _
from hexhop.notation.games import find_game
from hexhop.notation.model import ParsedGame, Record
from hexhop.records.analysis import Settings
from hexhop.records.puzzles import find_puzzles
from hexhop.records.sources import Source, iter_sources

from .command_output import tell
from .help import Translated
from .options import game_option, jobs_option
from .safe_write import refuse_inputs, write_atomically

EXAMPLE = """
\b
Examples:
  hexhop puzzles samples/good --out puzzles
  hexhop puzzles club.zip --out puzzles --depth 3 --format png
"""


@click.command(cls=Translated, epilog=EXAMPLE)
@click.argument("paths", nargs=-1, required=True)
@click.option("--out", required=True, type=click.Path(file_okay=False), help="Folder to write to.")
@game_option
@click.option(
    "--depth",
    type=click.IntRange(1, 4),
    default=2,
    show_default=True,
    help="Wins within this many own actions.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["svg", "png", "pdf"]),
    default="svg",
    show_default=True,
    help="Format of the diagrams.",
)
@click.option(
    "--size",
    type=click.IntRange(250, 4000),
    default=400,
    show_default=True,
    help="Width of a diagram in pixels.",
)
@click.option("--force", is_flag=True, help="Overwrite files in --out.")
@click.option(
    "--max-nodes",
    type=click.IntRange(1),
    default=200_000,
    show_default=True,
    help="Search at most this many actions per position.",
)
@click.option(
    "--max-seconds",
    type=click.FloatRange(0, min_open=True),
    default=5.0,
    show_default=True,
    help="Search at most this long per position.",
)
@jobs_option("Search files in this many processes, 0: one per core (the puzzles are the same).")
def puzzles(
    paths: tuple[str, ...],
    out: str,
    game: str | None,
    depth: int,
    fmt: str,
    size: int,
    force: bool,
    max_nodes: int,
    max_seconds: float,
    jobs: int,
) -> None:
    """Write puzzles from the games of PATHS: positions where exactly one
    first action wins by force within --depth own actions.

    Each puzzle is a record (puzzle001.hxl …) with a Position tag and the
    solution as its movetext, and a diagram (puzzle001.svg …) captioned
    like "North to play and win in 2". Equal positions are written once;
    the easiest come first.

    Exit status: 0 when done, 2 on a usage error or when some input could
    not be read (the others are read).
    """
    from hexhop.render.svg import board_svg

    settings = Settings(depth, max_nodes, max_seconds, game)
    inputs = list(paths)  # and every file read: never written over

    def sources() -> Iterator[Source]:
        for source in iter_sources(list(paths)):
            inputs.append(source.path)
            yield source

    unreadable: list[str] = []

    def cannot_read(why: str) -> None:
        tell(why)
        unreadable.append(why)

    found = find_puzzles(sources(), settings, cannot_read, jobs)
    for number, puzzle in enumerate(found, 1):
        stem = os.path.join(out, f"puzzle{number:03d}")
        record = puzzle.text(number).encode("utf-8")
        title = _("Puzzle {number}").format(number=number) + ": " + puzzle.caption()
        picture = board_svg(puzzle.position, size=size, title=title)
        data = _picture_bytes(picture, fmt, size)
        _write(
            stem + find_game(puzzle.game).extension, record, force, inputs, puzzle.record(number)
        )
        _write(f"{stem}.{fmt}", data, force, inputs)
    tell(_("wrote {count} puzzles to {out}").format(count=len(found), out=out))
    if unreadable:  # as check: the other files were read
        raise SystemExit(2)


def _picture_bytes(svg: str, fmt: str, size: int) -> bytes:
    if fmt == "png":
        from hexhop.render.png import svg_to_png

        return svg_to_png(svg, size=size)
    if fmt == "pdf":
        from hexhop.render.sequence import pdf

        return pdf([svg])
    return svg.encode("utf-8")


def _write(
    path: str, data: bytes, force: bool, inputs: list[str], record: Record | None = None
) -> None:
    """Write one file; a puzzle's record is read back as that record before it is kept."""
    refuse_inputs([path], inputs)
    check = None
    if record is not None:
        written = Written()
        written.add(ParsedGame(1, record, ()))
        check = functools.partial(verify, written=written, shown=path)
    write_atomically(path, data, overwrite=force, check=check)
