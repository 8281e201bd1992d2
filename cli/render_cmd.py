"""``hexhop render``: a record's positions as SVG, PNG, GIF, PDF, a contact
sheet, an HTML viewer page or an article (PDF or HTML)."""

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
from hexhop.messages import _
from hexhop.notation.numbers import ascii_int
from hexhop.records.colors import THEMES, split_pieces
from hexhop.records.file_names import fitted
from hexhop.records.sources import Source, iter_sources
from hexhop.records.text import counted
from hexhop.render.html import SHARED_FILES, GameSummary
from hexhop.render.pages import Page, locale_page_name

from .command_output import tell
from .help import Translated
from .interrupt import checkpoint, signals_held, stoppable
from .options import (
    Count,
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
from .progress import Kept, ProgressBar, games_bar
from .safe_write import (
    Inputs,
    make_folder,
    refuse_existing,
    refuse_inputs,
    synced_together,
    write_atomically,
)
from .single_game import why_unplayable

EXAMPLE = """
\b
Examples:
  hexhop render samples/good/hexalit-kassel-1998.hxl --out diagrams
  hexhop render game.hxl --format png --plies 0,10-20,last --size 600
  hexhop render game.trg --format gif --out anim
  hexhop render archive.hpf --index 2 --format sheet --plies 0-40
  hexhop render game.hxl --plies 12 --arrow B6-D6 --highlight D6
  hexhop render study.hxl --plies 0 --title "Study 4" --caption "North to play"
  hexhop render game.hxl --format pdf --colors newsletter.colors
  cat game.hxl | hexhop render - --format sheet-pdf
  hexhop render game.trg --format article --plies 12,31 --columns 2
"""

FORMATS = ("svg", "png", "gif", "pdf", "sheet", "sheet-pdf", "html", "article", "article-html")
ARTICLES = ("article", "article-html")
#: Width of a diagram in an article when --size is not given: one fits a
#: column of two on an A4 page.
ARTICLE_SIZE = 300
#: Where pictures of a record read from standard input go by default.
STDIN_OUT = "stdin-diagrams"


@dataclass(frozen=True)
class RenderOptions:
    fmt: str
    size: int
    flip: bool
    plies: str | None
    arrows: tuple[tuple[str, str], ...] = ()
    highlights: tuple[str, ...] = ()
    title: str | None = None
    caption: str | None = None
    colors: tuple[tuple[str, str], ...] = ()
    delay: int = 800
    page: str = "a4"  # a4, a5 or letter: the paper of pdf, sheet and article pages
    landscape: bool = False
    columns: int = 1
    pieces: str = "dice"


def _arrows(
    ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
) -> tuple[tuple[str, str], ...]:
    arrows = []
    for value in values:
        ends = value.split("-")
        if len(ends) != 2 or not all(ends):
            raise click.BadParameter(
                _("{value}: write FROM-TO, e.g. B6-D6 or a1-c1").format(value=repr(value))
            )
        arrows.append((ends[0].strip(), ends[1].strip()))
    return tuple(arrows)


def _plies_spec(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A --plies spec checked before any game is read (its range per game later)."""
    if value is not None:
        parse_plies(value, None)
    return value


def _colors(
    ctx: click.Context, param: click.Parameter, value: str | None
) -> tuple[tuple[str, str], ...]:
    from hexhop.records.colors import ColorsError, read_colors

    if value is None:
        return ()
    try:
        return tuple(read_colors(value).items())
    except ColorsError as error:
        raise click.BadParameter(str(error)) from None


@click.command(cls=Translated, epilog=EXAMPLE)
@click.argument("record")
@shared(
    "--out-dir",
    "out_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Folder for the pictures (default: named after the record; stdin-diagrams for -).",
)
@renamed("--out", "--out-dir", "out_dir")
@format_option(
    FORMATS,
    "svg/png: one file per ply; gif: an animation; pdf: one page per ply; "
    "sheet / sheet-pdf: the diagrams in a grid under one heading (3 by 4 on a portrait "
    "A4 or Letter page), as PNG pages at 150 dpi (game001-sheet.png, or "
    "game001-sheet-1.png, -2.png … for several pages) / one PDF; "
    "html: an interactive viewer page; "
    "article / article-html: the moves, comments and diagrams as a printable article, "
    "as PDF (needs the article extra) / one HTML page.",
)
@click.option(
    "--plies",
    default=None,
    metavar="SPEC",
    callback=_plies_spec,
    help="Which plies, e.g. 0,10-20,last (default: all; for sheets: 12 spread over the "
    "game; for articles: the plies marked {#} in the record, else the last). Plies a game "
    "does not have are left out of it, with a warning.",
)
@shared(
    "--index",
    type=Count(1),
    default=None,
    help="Only this game of an archive (default: every game).",
)
@shared(
    "--size",
    type=diagram_width(),
    default=400,
    show_default=True,
    help="Width of one diagram in pixels (in a PDF, a pixel is 0.75 pt, and a diagram "
    "wider than the page is made smaller; sheets fit their diagrams to the page).",
)
@page_options(
    "pdf, sheet, sheet-pdf: the paper, a4, a5 or letter (default: the locale's, "
    "Letter for en_US and en_CA, else A4); 15 mm margins."
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
@click.option(
    "--title",
    default=None,
    help="Title above each diagram and of a sheet, instead of the players' names ('' for none).",
)
@click.option(
    "--caption",
    default=None,
    help="Words after the title (under each diagram of a sheet) instead of the ply and "
    "action ('' for none).",
)
@click.option(
    "--colors",
    default=None,
    metavar="JSON|FILE",
    callback=_colors,
    help='Colours from a JSON object given here (\'{"dark": "saddlebrown"}\') or from a '
    "file (such an object or role = colour lines); roles as in DEFAULT_COLORS "
    "(docs/diagrams.md), e.g. light, dark, north, south, red, turquoise; colours are CSS "
    "colour names, #rgb or #rrggbb.",
)
@click.option(
    "--theme",
    type=click.Choice(sorted(THEMES)),
    default="classic",
    show_default=True,
    help="A set of colours: print is black and white for print; --colors changes single roles.",
)
@pieces_option(
    "dice or chess: draw Trigeo's dice as chess pieces, King 1, Pawn 2, Knight 3, "
    "Bishop 4, Rook 5, Queen 6 (default: dice, or the --colors file's pieces entry); "
    "other games are drawn as always."
)
@click.option(
    "--delay",
    type=Count(20, 60000),
    default=800,
    show_default=True,
    metavar="MS",
    help="gif: milliseconds each frame shows (the last at least 2.5 s).",
)
@click.option(
    "--columns",
    type=Count(1, 2),
    default=1,
    show_default=True,
    help="article: columns of text on the page (1 or 2).",
)
@force_option("Overwrite files that exist.")
@quiet_option("No progress bar and no summary of the files written.")
@game_option
@jobs_option("Draw games in this many processes, 0: one per core (the files are the same).")
@encoding_option()
def render(
    record: str,
    out_dir: str | None,
    fmt: str,
    plies: str | None,
    index: int | None,
    size: int,
    page: str | None,
    landscape: bool,
    flip: bool,
    arrows: tuple[tuple[str, str], ...],
    highlights: tuple[str, ...],
    title: str | None,
    caption: str | None,
    colors: tuple[tuple[str, str], ...],
    theme: str,
    pieces: str | None,
    delay: int,
    columns: int,
    force: bool,
    quiet: bool,
    game: str | None,
    jobs: int,
) -> None:
    """Draw the positions of RECORD as pictures (SVG, PNG, GIF, PDF, contact
    sheets) or HTML viewer pages. RECORD is a record file, a folder of
    records, a zip or tar archive, or - for standard input.

    Files are named game001-ply000.svg, game001-ply001.svg, ... (game001.gif,
    game001.pdf, game001-sheet.png, game001-sheet.pdf, game001.html); nothing
    that exists is overwritten unless --force is given, and every file is
    written atomically. A record with an error is drawn up to the error,
    which is shown as `hexhop check` shows it, and the exit status is 1.
    A file that cannot be read (a binary file, say) is told as check tells
    it, the others are drawn, and the exit status is 2.
    """
    out_dir = old_spelling("out_dir", out_dir)
    state: dict[str, Any] = {"done": 0, "total": None, "unreadable": 0, "quiet": quiet}
    state["kept"] = Kept()

    def progress() -> str:
        total = state["total"]
        if total is None:
            return _("before any file was written")
        files = _("after {done} of {files}").format(
            done=state["done"], files=counted(total, "file")
        )
        return files + "; " + state["kept"].text()

    ctx = click.get_current_context()
    for warning in unused_options(ctx, fmt, _ONLY_FOR):
        tell(warning)
    if fmt in ARTICLES:
        size = _article_size(ctx, fmt, size)
    table, file_pieces = split_pieces({**THEMES[theme], **dict(colors)})
    if fmt not in _ONLY_FOR["colors"]:
        file_pieces = None  # the colours file does nothing there (as told above)
    state["pieces"] = pieces  # given on the command line: told when it draws nothing
    with stoppable(progress):
        options = RenderOptions(
            fmt,
            size,
            flip,
            plies,
            arrows,
            highlights,
            title,
            caption,
            tuple(table.items()),
            delay,
            (page or locale_page_name()).lower(),
            landscape,
            columns,
            pieces or file_pieces or "dice",
        )
        broken = _render(record, out_dir, options, index, force, game, state, jobs)
    if state["unreadable"]:
        raise click.exceptions.Exit(2)
    if broken:
        raise click.exceptions.Exit(1)


@dataclass(frozen=True)
class _Planned:
    """What the plan keeps of a game to draw: not its replay, which is made
    again when its files are written, so that one game at a time is held."""

    source: Source
    folder: str
    index: int
    files: tuple[tuple[str, tuple[int, ...]], ...]  # (path, plies drawn in it)
    game: str = ""


def _render(
    record: str,
    out_dir: str | None,
    options: RenderOptions,
    index: int | None,
    force: bool,
    game: str | None,
    state: dict,
    jobs: int = 1,
) -> bool:
    """Plan, check and write every file; True when a record had an error."""
    fmt = options.fmt
    sources = list(iter_sources([record]))
    if not sources:
        raise click.ClickException(_("{path}: no record files found").format(path=record))
    out_root = out_dir or _default_out(record)
    if len(sources) == 1 and (why := _unreadable(sources[0])) is not None:
        raise Unreadable(why)
    names = _folder_names([source.path for source in sources], record)
    planned: list[_Planned] = []
    rows: list[tuple[str, int, GameSummary]] = []
    broken = False
    beyond: list[str] = []
    planning = games_bar([record], quiet=state["quiet"] or index is not None)
    for source, name in zip(sources, names):
        checkpoint()
        why = _unreadable(source)
        if why is not None:
            tell(why)
            state["unreadable"] += 1
            continue
        folder = out_root if len(sources) == 1 else os.path.join(out_root, name)
        for report, drawable in _reports(source, game, index):
            checkpoint()
            planning.advance()
            broken = _tell_error(source, report) or broken
            if drawable and fmt == "html" and not _fits_a_page(source, report):
                drawable, broken = False, True
            if drawable:
                _check_cells(source, report, options)
                files = _plan(folder, report, options, source.path, beyond)
                drawable = bool(files)
                if files:
                    planned.append(_Planned(source, folder, report.index, files, report.game or ""))
            if fmt == "html":
                rows.append(_index_row(out_root, folder, report, drawable))
    planning.done()
    _tell_pieces(state.get("pieces"), [item.game for item in planned])
    paths = [path for item in planned for path, _plies in item.files]
    index_page = fmt == "html" and len(rows) > 1
    if index_page:
        paths.append(os.path.join(out_root, "index.html"))
        paths.extend(os.path.join(out_root, name) for name in SHARED_FILES)
    if not paths and beyond and not broken:
        raise click.BadParameter(
            _("{plies}: there is nothing to draw").format(plies=beyond[0]), param_hint="--plies"
        )
    if not paths:
        message = _("{path}: no game could be drawn").format(path=record)
        raise Unreadable(message) if state["unreadable"] else click.ClickException(message)
    inputs = Inputs([record, *(source.path for source in sources)])  # looked up once
    refuse_inputs(paths, inputs)
    refuse_existing(paths, force)
    state["total"] = len(paths)
    outputs = _drawn(planned, options, game, out_root if index_page else None, jobs)
    if index_page:
        outputs = itertools.chain(
            outputs, [_html_index(out_root, record, rows)], _shared_files(out_root)
        )
    bar = ProgressBar(len(paths), quiet=state["quiet"])
    with synced_together():  # each file whole; all flushed to the disk at the end
        for path, make in outputs:
            checkpoint()
            make_folder(os.path.dirname(path) or ".")
            data = make()
            checkpoint()
            with signals_held():  # written and counted, or neither
                write_atomically(path, data, overwrite=True, inputs=inputs)
                state["done"] += 1
                state["kept"].add(path)
            bar.update(state["done"])
    bar.done()
    if not state["quiet"]:
        tell(_("wrote {files} to {path}").format(files=counted(len(paths), "file"), path=out_root))
    return broken


#: Options that the formats not named here leave alone.
_ONLY_FOR = {
    "delay": ("gif",),
    "size": ("svg", "png", "gif", "pdf", *ARTICLES),
    "columns": ARTICLES,
    **{
        name: ("svg", "png", "gif", "pdf", "sheet", "sheet-pdf", *ARTICLES)
        for name in ("arrows", "highlights", "title", "caption", "colors", "theme")
    },
    **{name: ("pdf", "sheet", "sheet-pdf", *ARTICLES) for name in ("page", "landscape")},
}


class MissingExtra(click.ClickException):
    """A format needs a package that is not installed: exit 2, as a usage error."""

    exit_code = 2


def _article_size(ctx: click.Context, fmt: str, size: int) -> int:
    """The width of an article's diagrams (:data:`ARTICLE_SIZE` unless
    --size is given); for the PDF, first a clear message when WeasyPrint
    cannot be loaded, before anything is read or written."""
    from click.core import ParameterSource

    from hexhop.render.article import WeasyPrintMissing, weasyprint

    if fmt == "article":
        try:
            weasyprint()
        except WeasyPrintMissing as error:
            raise MissingExtra(
                _(
                    "--format article needs WeasyPrint: pip install 'hexhop[article]' "
                    "(or write --format article-html) ({reason})"
                ).format(reason=str(error)[:200])
            ) from None
    given = ctx.get_parameter_source("size") == ParameterSource.COMMANDLINE
    return size if given else ARTICLE_SIZE


def _tell_pieces(pieces: str | None, games: list[str]) -> None:
    """A warning when ``--pieces chess`` was given for games that are not Trigeo."""
    from hexhop.render.chess_pieces import CHESS_GAMES

    others = [game for game in games if game not in CHESS_GAMES]
    if pieces == "chess" and others:
        tell(pieces_only_for_trigeo(others))


def _default_out(record: str) -> str:
    if record == "-":
        return STDIN_OUT
    return fitted(_stem(record.rstrip("/\\")).lstrip("-"), "-diagrams")


def _tell_error(source: Source, report: GameReport) -> bool:
    """Tell the first error of a game that can be drawn, as ``hexhop check``
    shows it, and where its pictures stop; True when there is one."""
    from hexhop.records.frames import first_error
    from hexhop.records.report import SEVERITIES, caret_lines

    finding = first_error(report)
    if finding is None:
        return False
    if not report.positions:
        return True  # told by _reports
    where = f"{source.path}:{finding.line}:{finding.column}" if finding.line else source.path
    severity = _(SEVERITIES.get(finding.severity, finding.severity))
    tell(f"{where}: {severity} {finding.code} {finding.message}")
    lines = _lines(source.data or b"")
    if finding.line and finding.line <= len(lines):
        window = caret_lines(lines[finding.line - 1], finding.column, finding.action, _plain)
        for line in window.splitlines():
            tell(line)
    drawn = len(report.positions) - 1
    if drawn < report.plies:
        tell(
            _("{path}: game {index}: the pictures stop after ply {ply}").format(
                path=source.path, index=report.index, ply=drawn
            )
        )
    return True


def _plain(text: str, **styles: Any) -> str:
    return text


def _lines(data: bytes) -> list[str]:
    """The lines of a record as the reader numbers them (its encoding, its line ends)."""
    from hexhop.notation.reader import decode

    return decode(data)[0].replace("\r\n", "\n").replace("\r", "\n").split("\n")


class Unreadable(click.ClickException):
    """RECORD, or every file of it, cannot be read: exit 2, as check."""

    exit_code = 2


def _unreadable(source: Source) -> str | None:
    """Why ``source`` cannot be read, as check says it (IO01 to IO03), or None."""
    from hexhop.records.checking import readable_data

    readable = readable_data(source)
    if isinstance(readable, bytes):
        return None
    return str((readable.error or {}).get("message", source.path))


def _check_cells(source: Source, report: GameReport, options: RenderOptions) -> None:
    """A usage error for an arrow or highlight off the board of this game."""
    from hexhop.records.frames import off_board

    ends = [cell for pair in options.arrows for cell in pair]
    for cells, hint in ((ends, "--arrow"), (list(options.highlights), "--highlight")):
        unknown = off_board(report, cells)
        if unknown:
            raise click.BadParameter(
                _("{cells}: not on the board of {game} ({path}, game {index})").format(
                    cells=", ".join(unknown), game=report.game, path=source.path, index=report.index
                ),
                param_hint=hint,
            )


def _stem(path: str) -> str:
    """A safe file-name stem from a path or archive member name."""
    base = re.split(r"[/\\:]", path)[-1]
    stem = base.split(".")[0] or "record"
    return fitted(re.sub(r"[^\w.-]", "_", stem)[:80])


def _folder_names(paths: list[str], record: str) -> list[str]:
    """A folder name for each input file, distinct even on a file system that
    ignores case: its stem (``game``), or where stems collide its path inside
    RECORD (``a_game``, ``c_game.v2``), then a counter (``a_game-2``)."""
    stems = [_stem(path) for path in paths]
    counts = Counter(stem.casefold() for stem in stems)
    used = {"index.html", *SHARED_FILES}  # the files beside the folders
    names = []
    for path, stem in zip(paths, stems):
        name = stem if counts[stem.casefold()] == 1 else _path_stem(_inside(path, record))
        unique, number = fitted(name), 2
        while unique.casefold() in used:
            unique, number = fitted(name, f"-{number}"), number + 1
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


def _fits_a_page(source: Source, report: GameReport) -> bool:
    """Whether a viewer page can hold ``report`` (it keeps every position of
    the walk: :data:`~hexhop.records.limits.MAX_SHOWN_ACTIONS`); if not, says so."""
    from hexhop.records.limits import MAX_SHOWN_ACTIONS, actions_in

    if actions_in(report.record) <= MAX_SHOWN_ACTIONS:
        return True
    tell(
        _(
            "{path}: game {index} has more than {limit} actions, variations included: "
            "the viewer page is not drawn"
        ).format(path=source.path, index=report.index, limit=MAX_SHOWN_ACTIONS)
    )
    return False


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
            why = _("game {index} cannot be drawn").format(index=parsed.index)
            tell(why_unplayable(source.path, report, why))
        found = found or drawable
        yield report, drawable
        if index is not None:
            break
    if index is not None and not found:
        raise click.ClickException(
            _("{path}: no game number {index} to draw").format(path=source.path, index=index)
        )


def _plan(
    folder: str, report: GameReport, options: RenderOptions, path: str, beyond: list[str]
) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The files one game becomes: (path, the plies drawn in it); plies it
    does not have are left out with a warning (and noted in ``beyond``)."""
    last = len(report.positions) - 1
    sheet = options.fmt.startswith("sheet")
    if options.plies:
        chosen, missing = choose_plies(options.plies, last)
        if missing:
            beyond.extend(missing)
            tell(
                _(
                    "warning: {path}: game {index} has plies 0 to {last}; --plies "
                    "{plies} reaches beyond it"
                ).format(path=path, index=report.index, last=last, plies=", ".join(missing))
                + ("" if chosen else _(", nothing is drawn of it"))
            )
            if not chosen:
                return ()
    elif options.fmt in ARTICLES:
        from hexhop.records.article import article_plies

        chosen = article_plies(report)
    else:
        chosen = spread_plies(last, 12) if sheet else list(range(last + 1))
    if options.fmt in ARTICLES:
        chosen = _article_diagrams(chosen, path, report.index)
    name = os.path.join(folder, game_name(report.index))
    if options.fmt in ("svg", "png"):
        return tuple((f"{name}-ply{ply:03d}.{options.fmt}", (ply,)) for ply in chosen)
    if options.fmt == "sheet":
        return sheet_files(name, chosen, _page(options))
    suffix = {
        "gif": ".gif",
        "pdf": ".pdf",
        "sheet": "-sheet.png",
        "sheet-pdf": "-sheet.pdf",
        "html": ".html",
        "article": "-article.pdf",
        "article-html": "-article.html",
    }[options.fmt]
    return ((name + suffix, tuple(chosen)),)


def sheet_files(name: str, plies: list[int], page: Page) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The PNG pages of a sheet: ``game001-sheet.png`` when the diagrams
    fill one page, else ``game001-sheet-1.png``, ``game001-sheet-2.png``, …"""
    columns, rows = page.grid()
    per_page = columns * rows
    chunks = [tuple(plies[i : i + per_page]) for i in range(0, len(plies), per_page)]
    if len(chunks) == 1:
        return ((f"{name}-sheet.png", chunks[0]),)
    return tuple((f"{name}-sheet-{n}.png", chunk) for n, chunk in enumerate(chunks, 1))


def _page(options: RenderOptions) -> Page:
    from hexhop.render.pages import page_for

    return page_for(options.page, options.landscape)


def _article_diagrams(chosen: list[int], path: str, index: int) -> list[int]:
    """The first diagrams of ``chosen`` that an article holds, with a
    warning when there are more."""
    from hexhop.records.article import DIAGRAM_LIMIT

    if len(chosen) > DIAGRAM_LIMIT:
        tell(
            _(
                "warning: {path}: game {index}: an article holds {limit} diagrams; "
                "the first {limit} of {count} are drawn"
            ).format(path=path, index=index, limit=DIAGRAM_LIMIT, count=len(chosen))
        )
    return chosen[:DIAGRAM_LIMIT]


def game_name(index: int) -> str:
    """``game001``: zero-padded, so that files sort in the order of the games."""
    return f"game{index:03d}"


def _drawn(
    planned: list[_Planned],
    options: RenderOptions,
    game: str | None,
    index_root: str | None,
    jobs: int = 1,
) -> Iterator[tuple[str, Callable[[], bytes]]]:
    """(path, function making the bytes) of every planned file, in order;
    each game is read and replayed again, one at a time (with ``jobs`` > 1,
    replayed and drawn in that many processes, a few games ahead)."""
    games = _planned_games(planned, game)
    if jobs > 1:
        from hexhop.records.jobs import run_in_order

        draw = functools.partial(_game_pictures, options=options, index_root=index_root)
        tasks = ((parsed, item.files) for parsed, item in games)
        for pictures in run_in_order(draw, tasks, jobs, failed=_worker_died):
            for path, data in pictures:
                yield path, functools.partial(bytes, data)
        return
    for parsed, item in games:
        frames = _frames(parsed, options)
        for path, plies, first in _numbered(item.files):
            index = _index_link(path, index_root) if index_root else None
            yield path, functools.partial(_picture, frames, options, plies, index, first)


def _planned_games(planned: list[_Planned], game: str | None) -> Iterator[tuple[Any, _Planned]]:
    """(parsed game, its plan) of every planned game, in order."""
    from hexhop.notation import read_archive

    for source, group in itertools.groupby(planned, key=lambda item: item.source):
        wanted = {item.index: item for item in group}
        for parsed in read_archive(source.data or b"", path=source.path, default_game=game):
            item = wanted.pop(parsed.index, None)
            if item is not None:
                yield parsed, item
            if not wanted:
                break


def _frames(parsed: Any, options: RenderOptions) -> Any:
    """The frames of one game, replayed."""
    from hexhop.records import frames as drawing
    from hexhop.records.viewer import Recording

    # the page is made from the replay's walk rather than a walk of its own
    walked = Recording() if options.fmt == "html" else None
    return drawing.Frames(
        replay_game(parsed, walked),
        size=options.size,
        flip=options.flip,
        arrows=options.arrows,
        highlights=options.highlights,
        colors=dict(options.colors),
        pieces=options.pieces,
        title=options.title,
        caption=options.caption,
        walked=walked,
    )


def _game_pictures(
    task: tuple[Any, tuple[tuple[str, tuple[int, ...]], ...]],
    options: RenderOptions,
    index_root: str | None,
) -> list[tuple[str, bytes]]:
    """In a worker: (path, bytes) of every file of one game."""
    parsed, files = task
    frames = _frames(parsed, options)
    pictures = []
    for path, plies, first in _numbered(files):
        index = _index_link(path, index_root) if index_root else None
        pictures.append((path, _picture(frames, options, plies, index, first)))
    return pictures


def _numbered(
    files: tuple[tuple[str, tuple[int, ...]], ...],
) -> Iterator[tuple[str, tuple[int, ...], int]]:
    """(path, plies, number of its first diagram) of a game's files: the
    pages of a sheet go on numbering where the page before stopped."""
    first = 1
    for path, plies in files:
        yield path, plies, first
        first += len(plies)


def _worker_died(task: tuple[Any, Any], error: BaseException) -> list[tuple[str, bytes]]:
    """A game whose worker died: a clear message, never a traceback."""
    parsed = task[0]
    raise click.ClickException(
        _("game {index} could not be drawn: a worker process died").format(index=parsed.index)
    )


def _index_link(page: str, index_root: str) -> str:
    """The link from a game's page to ``index.html`` in ``index_root``."""
    from urllib.parse import quote

    index = os.path.join(index_root, "index.html")
    return quote(os.path.relpath(index, os.path.dirname(page) or ".").replace(os.sep, "/"))


def _picture(
    frames: Any,
    options: RenderOptions,
    plies: tuple[int, ...],
    index: str | None = None,
    first: int = 1,
) -> bytes:
    fmt = options.fmt
    if fmt == "svg":
        return frames.svg_bytes(plies[0])
    if fmt == "png":
        return frames.png_bytes(plies[0])
    if fmt == "gif":
        return frames.gif(list(plies), delay=options.delay)
    if fmt == "pdf":
        return frames.pdf(list(plies), _page(options))
    if fmt == "sheet":
        return frames.sheet(list(plies), _page(options), first=first)
    if fmt == "sheet-pdf":
        return frames.sheet_pdf(list(plies), _page(options))
    if fmt in ARTICLES:
        return _article(frames, options, plies)
    return frames.html(index, shared=index is not None)


def _article(frames: Any, options: RenderOptions, plies: tuple[int, ...]) -> bytes:
    """The article of one game, as PDF or HTML."""
    from hexhop.records.article import article
    from hexhop.render.article import article_html, article_pdf

    words = article(frames, plies)
    layout: dict[str, Any] = {
        "columns": options.columns,
        "width": options.size,
        "page": options.page,
        "landscape": options.landscape,
    }
    if options.fmt == "article":
        return article_pdf(words, **layout)
    return article_html(words, **layout).encode("utf-8")


def _shared_files(out_root: str) -> Iterator[tuple[str, Callable[[], bytes]]]:
    """The style and script files that the pages of an archive link to."""
    from hexhop.render.html import shared_file

    for name in SHARED_FILES:
        data = shared_file(name).encode("utf-8")
        yield os.path.join(out_root, name), functools.partial(bytes, data)


def _index_row(
    out_root: str, folder: str, report: GameReport, drawn: bool
) -> tuple[str, int, GameSummary]:
    """A game's row of ``index.html``, sorted by folder and game number."""
    from urllib.parse import quote

    from hexhop.records.viewer import summary

    page = os.path.relpath(os.path.join(folder, game_name(report.index) + ".html"), out_root)
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


def parse_plies(spec: str, last: int | None) -> list[int]:
    """``0,10-20,last`` → sorted ply numbers; a click error for a bad spec,
    a backwards range or (given ``last``) a ply the game does not have."""
    chosen, missing = choose_plies(spec, last)
    if missing:
        raise click.BadParameter(
            _("{ply}: this game has plies 0 to {last}").format(ply=repr(missing[0]), last=last),
            param_hint="--plies",
        )
    return chosen


def choose_plies(spec: str, last: int | None) -> tuple[list[int], list[str]]:
    """The plies of ``spec`` up to ``last``, and the parts of it that reach
    beyond ``last``; a click error for a bad spec or a backwards range.
    Without ``last`` only the spec is checked."""
    chosen: set[int] = set()
    missing: list[str] = []
    for part in spec.split(","):
        part = part.strip().lower()
        bounds = part.split("-", 1)
        try:
            low, high = (_ply(bound.strip(), last) for bound in (bounds[0], bounds[-1]))
        except ValueError:
            raise click.BadParameter(
                _("{part}: expected N, N-M or last").format(part=repr(part)), param_hint="--plies"
            ) from None
        if low is not None and high is not None and low > high:
            raise click.BadParameter(
                _("{part}: the range is backwards; write {range}").format(
                    part=repr(part), range=f"{bounds[-1]}-{bounds[0]}"
                ),
                param_hint="--plies",
            )
        if last is None or low is None or high is None:
            continue
        if high > last:
            missing.append(part)
        chosen.update(range(low, min(high, last) + 1))
    return sorted(chosen), missing


def _ply(text: str, last: int | None) -> int | None:
    """A ply number; ``last`` is unknown (None) until the game is known."""
    if text == "last":
        return last
    number = ascii_int(text)
    if number is None:
        raise ValueError(text)
    return number


def spread_plies(last: int, count: int) -> list[int]:
    """``count`` plies spread evenly from 0 to ``last`` (both included)."""
    if last + 1 <= count:
        return list(range(last + 1))
    return sorted({round(i * last / (count - 1)) for i in range(count)})
