"""``hexhop render``: a record's positions as SVG, PNG, GIF or a contact sheet."""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass

import click

from hexhop.engine.replay import GameReport, replay_game

from .inputs import iter_sources
from .interrupt import signals_held, stoppable
from .options import game_option
from .records import why_unplayable
from .safe_write import write_atomically

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


def _arrows(ctx: click.Context, param: click.Parameter,
            values: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    arrows = []
    for value in values:
        ends = value.split("-")
        if len(ends) != 2 or not all(ends):
            raise click.BadParameter(f"{value!r}: write FROM-TO, e.g. B6-D6 or a1-c1")
        arrows.append((ends[0].strip(), ends[1].strip()))
    return tuple(arrows)


@click.command(epilog=EXAMPLE)
@click.argument("record")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Folder for the pictures (default: named after the record).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="svg", show_default=True,
              help="svg/png: one file per ply; gif: an animation; sheet: one PNG with a "
                   "grid of diagrams; html: an interactive viewer page.")
@click.option("--plies", default=None, metavar="SPEC",
              help="Which plies, e.g. 0,10-20,last (default: all; for sheet: 12 spread "
                   "over the game).")
@click.option("--index", type=click.IntRange(1), default=None,
              help="Only this game of an archive (default: every game).")
@click.option("--size", type=click.IntRange(100, 4000), default=400, show_default=True,
              help="Width of one diagram in pixels.")
@click.option("--flip", is_flag=True, help="Turn the board (South / Turquoise at the top).")
@click.option("--arrow", "arrows", multiple=True, metavar="FROM-TO", callback=_arrows,
              help="Draw an arrow on every diagram, e.g. B6-D6 (repeatable; for annotators).")
@click.option("--highlight", "highlights", multiple=True, metavar="CELL",
              help="Highlight a cell or point on every diagram (repeatable).")
@click.option("--force", is_flag=True, help="Overwrite files that exist.")
@game_option
def render(record: str, out_dir: str | None, fmt: str, plies: str | None, index: int | None,
           size: int, flip: bool, arrows: tuple[tuple[str, str], ...],
           highlights: tuple[str, ...], force: bool, game: str | None) -> None:
    """Draw the positions of RECORD (a file, or a folder of records).

    Files are named game1-ply000.svg, game1-ply001.svg, ... (game1.gif,
    game1-sheet.png, game1.html); nothing that exists is overwritten unless
    --force is given, and every file is written atomically.
    """
    state = {"done": 0, "total": None}

    def progress() -> str:
        total = state["total"]
        return (f"after {state['done']} of {total} files" if total is not None
                else "before any file was written")

    with stoppable(progress):
        options = RenderOptions(fmt, size, flip, plies, arrows, highlights)
        _render(record, out_dir, options, index, force, game, state)


def _render(record: str, out_dir: str | None, options: RenderOptions, index: int | None,
            force: bool, game: str | None, state: dict) -> None:
    fmt = options.fmt
    sources = list(iter_sources([record]))
    if not sources:
        raise click.ClickException(f"{record}: no record files found")
    out_root = out_dir or _default_out(record)
    if len(sources) == 1 and sources[0].data is None:
        raise click.ClickException(f"{sources[0].path}: cannot read: {sources[0].error}")
    names = _folder_names([source.path for source in sources], record)
    jobs = []
    undrawn: list[tuple[str, GameReport]] = []
    for source, name in zip(sources, names):
        if source.data is None:
            click.echo(f"{source.path}: cannot read: {source.error}", err=True)
            continue
        folder = out_root if len(sources) == 1 else os.path.join(out_root, name)
        skipped: list[GameReport] = []
        jobs += [(folder, report) for report in _reports(source, game, index, skipped)]
        undrawn += [(folder, report) for report in skipped]
    outputs = [out for folder, report in jobs for out in _plan(folder, report, options)]
    if fmt == "html" and len(jobs) + len(undrawn) > 1:
        outputs.append(_html_index(out_root, record, jobs, undrawn))
    if not outputs:
        raise click.ClickException(f"{record}: no game could be drawn")
    _refuse_overwrite([path for path, _ in outputs], force)
    state["total"] = len(outputs)
    for path, make in outputs:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        data = make()
        with signals_held():  # written and counted, or neither
            write_atomically(path, data, overwrite=True)
            state["done"] += 1
    click.echo(f"wrote {len(outputs)} file{'s' * (len(outputs) != 1)} to {out_root}", err=True)


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
            return path[len(prefix):]
    return path


def _path_stem(path: str) -> str:
    """``a/b/game.v2.hxl`` → ``a_b_game.v2``: safe, without the last extension."""
    folder, _, base = re.sub(r"[/\\:]+", "/", path).rpartition("/")
    base = base.rsplit(".", 1)[0] if "." in base.lstrip(".") else base
    name = re.sub(r"[^\w.-]", "_", f"{folder}/{base}" if folder else base)
    return name.strip("._")[-80:].strip("._") or "record"


def _reports(source, game: str | None, index: int | None,
             skipped: list[GameReport] | None = None) -> list[GameReport]:
    """The drawable games of ``source``; the others go to ``skipped`` (for
    the html index) after a message saying why they cannot be drawn."""
    from hexhop.notation import read_archive
    reports = []
    for parsed in read_archive(source.data, path=source.path, default_game=game):
        if index is not None and parsed.index != index:
            continue
        report = replay_game(parsed)
        if not report.positions:
            click.echo(why_unplayable(source.path, report,
                                      f"game {parsed.index} cannot be drawn"), err=True)
            if skipped is not None:
                skipped.append(report)
            continue
        reports.append(report)
    if index is not None and not reports:
        raise click.ClickException(f"{source.path}: no game number {index} to draw")
    return reports


def _plan(folder: str, report: GameReport, options: RenderOptions) -> list[tuple[str, object]]:
    """The files one game becomes: (path, function making the bytes)."""
    from . import drawing
    last = len(report.positions) - 1
    default = "spread" if options.fmt == "sheet" else None
    chosen = parse_plies(options.plies, last) if options.plies else (
        spread_plies(last, 12) if default else list(range(last + 1)))
    name = f"game{report.index}"
    frame = drawing.Frames(report, size=options.size, flip=options.flip,
                           arrows=options.arrows, highlights=options.highlights)
    if options.fmt in ("svg", "png"):
        return [(os.path.join(folder, f"{name}-ply{ply:03d}.{options.fmt}"),
                 _bound(frame.svg_bytes if options.fmt == "svg" else frame.png_bytes, ply))
                for ply in chosen]
    if options.fmt == "gif":
        return [(os.path.join(folder, f"{name}.gif"), lambda: frame.gif(chosen))]
    if options.fmt == "sheet":
        return [(os.path.join(folder, f"{name}-sheet.png"), lambda: frame.sheet(chosen))]
    return [(os.path.join(folder, f"{name}.html"), lambda: frame.html())]


def _html_index(out_root: str, record: str, drawn: list[tuple[str, GameReport]],
                undrawn: list[tuple[str, GameReport]]) -> tuple[str, object]:
    """``index.html`` in ``out_root``: every game, drawn or not, linking to its page."""
    from urllib.parse import quote

    from hexhop.render.html import index_page

    from .html_data import summary

    def href(folder: str, report: GameReport) -> str:
        path = os.path.relpath(os.path.join(folder, f"game{report.index}.html"), out_root)
        return quote(path.replace(os.sep, "/"))

    def source(folder: str) -> str:
        name = os.path.relpath(folder, out_root)
        return "" if name == "." else name

    rows = sorted([(folder, r.index, summary(r, href(folder, r), source(folder)))
                   for folder, r in drawn]
                  + [(folder, r.index, summary(r, None, source(folder))) for folder, r in undrawn],
                  key=lambda row: (row[0], row[1]))
    title = os.path.basename(record.rstrip("/\\")) or record
    def page() -> bytes:
        return index_page([row[2] for row in rows], title=title).encode("utf-8")
    return os.path.join(out_root, "index.html"), page


def _bound(function, ply: int):
    return lambda: function(ply)


def parse_plies(spec: str, last: int) -> list[int]:
    """``0,10-20,last`` → sorted ply numbers; a click error for a bad spec."""
    chosen: set[int] = set()
    for part in spec.split(","):
        part = part.strip().lower()
        bounds = part.split("-", 1)
        try:
            low, high = _ply(bounds[0], last), _ply(bounds[-1], last)
        except ValueError:
            raise click.BadParameter(f"{part!r}: expected N, N-M or last", param_hint="--plies")
        if low > high or high > last:
            raise click.BadParameter(f"{part!r}: this game has plies 0 to {last}",
                                     param_hint="--plies")
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
        raise click.ClickException(f"{len(existing)} file(s) exist: {shown}; "
                                   "use --force to overwrite them")
