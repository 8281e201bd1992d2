"""``hexhop render``: a record's positions as SVG, PNG, GIF or a contact sheet."""

from __future__ import annotations

import functools
import itertools
import os
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import click

from hexhop.engine.replay import GameReport, replay_game
from hexhop.records.sources import Source, iter_sources
from hexhop.render.html import GameSummary

from .command_output import tell
from .interrupt import checkpoint, signals_held, stoppable
from .options import game_option
from .progress import ProgressBar
from .safe_write import make_folder, write_atomically
from .single_game import why_unplayable

EXAMPLE = """
\b
Examples:
  hexhop render samples/good/hexalit-kassel-1998.hxl --out diagrams
  hexhop render game.hxl --format png --plies 0,10-20,last --size 600
  hexhop render game.trg --format gif --out anim
  hexhop render archive.hpf --index 2 --format sheet --plies 0-40
  hexhop render game.hxl --plies 12 --arrow B6-D6 --highlight D6
"""

FORMATS = ("svg", "png", "gif", "sheet", "html")


@dataclass(frozen=True)
class RenderOptions:
    fmt: str
    size: int
    flip: bool
    plies: str | None
    arrows: tuple[tuple[str, str], ...] = ()
    highlights: tuple[str, ...] = ()


def _arrows(
    ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
) -> tuple[tuple[str, str], ...]:
    arrows = []
    for value in values:
        ends = value.split("-")
        if len(ends) != 2 or not all(ends):
            raise click.BadParameter(f"{value!r}: write FROM-TO, e.g. B6-D6 or a1-c1")
        arrows.append((ends[0].strip(), ends[1].strip()))
    return tuple(arrows)


@click.command(epilog=EXAMPLE)
@click.argument("record")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Folder for the pictures (default: named after the record).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="svg",
    show_default=True,
    help="svg/png: one file per ply; gif: an animation; sheet: one PNG with a "
    "grid of diagrams; html: an interactive viewer page.",
)
@click.option(
    "--plies",
    default=None,
    metavar="SPEC",
    help="Which plies, e.g. 0,10-20,last (default: all; for sheet: 12 spread over the game).",
)
@click.option(
    "--index",
    type=click.IntRange(1),
    default=None,
    help="Only this game of an archive (default: every game).",
)
@click.option(
    "--size",
    type=click.IntRange(100, 4000),
    default=400,
    show_default=True,
    help="Width of one diagram in pixels.",
)
@click.option("--flip", is_flag=True, help="Turn the board (South / Turquoise at the top).")
@click.option(
    "--arrow",
    "arrows",
    multiple=True,
    metavar="FROM-TO",
    callback=_arrows,
    help="Draw an arrow on every diagram, e.g. B6-D6 (repeatable; for annotators).",
)
@click.option(
    "--highlight",
    "highlights",
    multiple=True,
    metavar="CELL",
    help="Highlight a cell or point on every diagram (repeatable).",
)
@click.option("--force", is_flag=True, help="Overwrite files that exist.")
@game_option
def render(
    record: str,
    out_dir: str | None,
    fmt: str,
    plies: str | None,
    index: int | None,
    size: int,
    flip: bool,
    arrows: tuple[tuple[str, str], ...],
    highlights: tuple[str, ...],
    force: bool,
    game: str | None,
) -> None:
    """Draw the positions of RECORD (a file, or a folder of records).

    Files are named game1-ply000.svg, game1-ply001.svg, ... (game1.gif,
    game1-sheet.png, game1.html); nothing that exists is overwritten unless
    --force is given, and every file is written atomically.
    """
    state = {"done": 0, "total": None}

    def progress() -> str:
        total = state["total"]
        return (
            f"after {state['done']} of {total} files"
            if total is not None
            else "before any file was written"
        )

    with stoppable(progress):
        options = RenderOptions(fmt, size, flip, plies, arrows, highlights)
        _render(record, out_dir, options, index, force, game, state)


@dataclass(frozen=True)
class _Planned:
    """What the plan keeps of a game to draw: not its replay, which is made
    again when its files are written, so that one game at a time is held."""

    source: Source
    folder: str
    index: int
    files: tuple[tuple[str, tuple[int, ...]], ...]  # (path, plies drawn in it)


def _render(
    record: str,
    out_dir: str | None,
    options: RenderOptions,
    index: int | None,
    force: bool,
    game: str | None,
    state: dict,
) -> None:
    fmt = options.fmt
    sources = list(iter_sources([record]))
    if not sources:
        raise click.ClickException(f"{record}: no record files found")
    out_root = out_dir or _default_out(record)
    if len(sources) == 1 and sources[0].data is None:
        raise click.ClickException(f"{sources[0].path}: cannot read: {sources[0].error}")
    names = _folder_names([source.path for source in sources], record)
    planned: list[_Planned] = []
    rows: list[tuple[str, int, GameSummary]] = []
    for source, name in zip(sources, names):
        checkpoint()
        if source.data is None:
            tell(f"{source.path}: cannot read: {source.error}")
            continue
        folder = out_root if len(sources) == 1 else os.path.join(out_root, name)
        for report, drawable in _reports(source, game, index):
            checkpoint()
            if drawable:
                planned.append(
                    _Planned(source, folder, report.index, _plan(folder, report, options))
                )
            if fmt == "html":
                rows.append(_index_row(out_root, folder, report, drawable))
    paths = [path for item in planned for path, _ in item.files]
    index_page = fmt == "html" and len(rows) > 1
    if index_page:
        paths.append(os.path.join(out_root, "index.html"))
    if not paths:
        raise click.ClickException(f"{record}: no game could be drawn")
    _refuse_overwrite(paths, force)
    state["total"] = len(paths)
    outputs = _drawn(planned, options, game, out_root if index_page else None)
    if index_page:
        outputs = itertools.chain(outputs, [_html_index(out_root, record, rows)])
    bar = ProgressBar(len(paths))
    for path, make in outputs:
        checkpoint()
        make_folder(os.path.dirname(path) or ".")
        data = make()
        checkpoint()
        with signals_held():  # written and counted, or neither
            write_atomically(path, data, overwrite=True)
            state["done"] += 1
        bar.update(state["done"])
    bar.done()
    tell(f"wrote {len(paths)} file{'s' * (len(paths) != 1)} to {out_root}")


def _default_out(record: str) -> str:
    return _stem(record.rstrip("/\\")) + "-diagrams"


def _stem(path: str) -> str:
    """A safe file-name stem from a path or archive member name."""
    base = re.split(r"[/\\:]", path)[-1]
    stem = base.split(".")[0] or "record"
    return re.sub(r"[^\w.-]", "_", stem)[:80]


def _folder_names(paths: list[str], record: str) -> list[str]:
    """A folder name for each input file, distinct even on a file system that
    ignores case: its stem (``game``), or where stems collide its path inside
    RECORD (``a_game``, ``c_game.v2``), then a counter (``a_game-2``)."""
    stems = [_stem(path) for path in paths]
    counts = Counter(stem.casefold() for stem in stems)
    used = {"index.html"}
    names = []
    for path, stem in zip(paths, stems):
        name = stem if counts[stem.casefold()] == 1 else _path_stem(_inside(path, record))
        unique, number = name, 2
        while unique.casefold() in used:
            unique, number = f"{name}-{number}", number + 1
        used.add(unique.casefold())
        names.append(unique)
    return names


def _inside(path: str, record: str) -> str:
    """``path`` relative to the folder or archive RECORD it was found in."""
    for prefix in (record + ":", record.rstrip("/\\") + os.sep, record.rstrip("/\\") + "/"):
        if path.startswith(prefix):
            return path[len(prefix) :]
    return path


def _path_stem(path: str) -> str:
    """``a/b/game.v2.hxl`` → ``a_b_game.v2``: safe, without the last extension."""
    folder, _, base = re.sub(r"[/\\:]+", "/", path).rpartition("/")
    base = base.rsplit(".", 1)[0] if "." in base.lstrip(".") else base
    name = re.sub(r"[^\w.-]", "_", f"{folder}/{base}" if folder else base)
    return name.strip("._")[-80:].strip("._") or "record"


def _reports(
    source: Source, game: str | None, index: int | None
) -> Iterator[tuple[GameReport, bool]]:
    """Every game of ``source`` (or game ``index``) replayed, with whether it
    can be drawn; for one that cannot, a message says why."""
    from hexhop.notation import read_archive

    found = False
    for parsed in read_archive(source.data or b"", path=source.path, default_game=game):
        if index is not None and parsed.index != index:
            continue
        report = replay_game(parsed)
        drawable = bool(report.positions)
        if not drawable:
            tell(why_unplayable(source.path, report, f"game {parsed.index} cannot be drawn"))
        found = found or drawable
        yield report, drawable
        if index is not None:
            break
    if index is not None and not found:
        raise click.ClickException(f"{source.path}: no game number {index} to draw")


def _plan(
    folder: str, report: GameReport, options: RenderOptions
) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The files one game becomes: (path, the plies drawn in it)."""
    last = len(report.positions) - 1
    chosen = tuple(
        parse_plies(options.plies, last)
        if options.plies
        else (spread_plies(last, 12) if options.fmt == "sheet" else range(last + 1))
    )
    name = os.path.join(folder, f"game{report.index}")
    if options.fmt in ("svg", "png"):
        return tuple((f"{name}-ply{ply:03d}.{options.fmt}", (ply,)) for ply in chosen)
    suffix = {"gif": ".gif", "sheet": "-sheet.png", "html": ".html"}[options.fmt]
    return ((name + suffix, chosen),)


def _drawn(
    planned: list[_Planned], options: RenderOptions, game: str | None, index_root: str | None
) -> Iterator[tuple[str, Callable[[], bytes]]]:
    """(path, function making the bytes) of every planned file, in order;
    each game is read and replayed again, one at a time."""
    from hexhop.notation import read_archive
    from hexhop.records import frames as drawing

    for source, group in itertools.groupby(planned, key=lambda item: item.source):
        wanted = {item.index: item for item in group}
        for parsed in read_archive(source.data or b"", path=source.path, default_game=game):
            item = wanted.pop(parsed.index, None)
            if item is not None:
                frames = drawing.Frames(
                    replay_game(parsed),
                    size=options.size,
                    flip=options.flip,
                    arrows=options.arrows,
                    highlights=options.highlights,
                )
                for path, plies in item.files:
                    index = _index_link(path, index_root) if index_root else None
                    yield path, functools.partial(_picture, frames, options.fmt, plies, index)
            if not wanted:
                break


def _index_link(page: str, index_root: str) -> str:
    """The link from a game's page to ``index.html`` in ``index_root``."""
    from urllib.parse import quote

    index = os.path.join(index_root, "index.html")
    return quote(os.path.relpath(index, os.path.dirname(page) or ".").replace(os.sep, "/"))


def _picture(frames: Any, fmt: str, plies: tuple[int, ...], index: str | None = None) -> bytes:
    if fmt == "svg":
        return frames.svg_bytes(plies[0])
    if fmt == "png":
        return frames.png_bytes(plies[0])
    if fmt == "gif":
        return frames.gif(list(plies))
    if fmt == "sheet":
        return frames.sheet(list(plies))
    return frames.html(index)


def _index_row(
    out_root: str, folder: str, report: GameReport, drawn: bool
) -> tuple[str, int, GameSummary]:
    """A game's row of ``index.html``, sorted by folder and game number."""
    from urllib.parse import quote

    from hexhop.records.viewer import summary

    page = os.path.relpath(os.path.join(folder, f"game{report.index}.html"), out_root)
    name = os.path.relpath(folder, out_root)
    return (
        folder,
        report.index,
        summary(
            report, quote(page.replace(os.sep, "/")) if drawn else None, "" if name == "." else name
        ),
    )


def _html_index(
    out_root: str, record: str, rows: list[tuple[str, int, GameSummary]]
) -> tuple[str, Callable[[], bytes]]:
    """``index.html`` in ``out_root``: every game, drawn or not, linking to its page."""
    from hexhop.render.html import index_page

    title = os.path.basename(record.rstrip("/\\")) or record

    def page() -> bytes:
        ordered = sorted(rows, key=lambda row: (row[0], row[1]))
        return index_page([row[2] for row in ordered], title=title).encode("utf-8")

    return os.path.join(out_root, "index.html"), page


def parse_plies(spec: str, last: int) -> list[int]:
    """``0,10-20,last`` → sorted ply numbers; a click error for a bad spec."""
    chosen: set[int] = set()
    for part in spec.split(","):
        part = part.strip().lower()
        bounds = part.split("-", 1)
        try:
            low, high = _ply(bounds[0], last), _ply(bounds[-1], last)
        except ValueError:
            raise click.BadParameter(
                f"{part!r}: expected N, N-M or last", param_hint="--plies"
            ) from None
        if low > high or high > last:
            raise click.BadParameter(
                f"{part!r}: this game has plies 0 to {last}", param_hint="--plies"
            )
        chosen.update(range(low, high + 1))
    return sorted(chosen)


def _ply(text: str, last: int) -> int:
    return last if text == "last" else int(text)


def spread_plies(last: int, count: int) -> list[int]:
    """``count`` plies spread evenly from 0 to ``last`` (both included)."""
    if last + 1 <= count:
        return list(range(last + 1))
    return sorted({round(i * last / (count - 1)) for i in range(count)})


def _refuse_overwrite(paths: list[str], force: bool) -> None:
    existing = [p for p in paths if os.path.exists(p)]
    if existing and not force:
        shown = ", ".join(existing[:3]) + (" ..." if len(existing) > 3 else "")
        raise click.ClickException(
            f"{len(existing)} file(s) exist: {shown}; use --force to overwrite them"
        )
