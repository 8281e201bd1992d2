"""``hexhop crosstable``: the crosstable of an event, for a newsletter."""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import click

from hexhop.archive.query import Query, bounded, tag_filter
from hexhop.archive.standings import (
    Crosstable,
    Game,
    archive_standing_games,
    index_games,
    listing_note,
)
from hexhop.messages import _
from hexhop.records.text import csv_line, printable, utf8_safe

from .command_output import emit, force_out_option, out_option, stdout_json, tell
from .find_cmd import find_options, from_index_or_archive, query_of
from .help import Translated
from .interrupt import checked, stoppable
from .options import (
    encoding_option,
    format_option,
    page_options,
    quiet_option,
    shared,
    unused_options,
)
from .progress import ProgressBar, games_read
from .safe_write import refuse_existing, refuse_inputs, write_atomically

if TYPE_CHECKING:
    from hexhop.render.pages import Page

EXAMPLE = """
\b
Examples:
  hexhop crosstable samples/good --event 'Hüpfer-Abend'
  hexhop crosstable --db club.sqlite --event '*Kassel*' --format csv
  hexhop crosstable --db club.sqlite --event 'Vereinsmeisterschaft 1999' --format html
"""

event_option = shared(
    "--event",
    default=None,
    metavar="PATTERN",
    help="Only the games of this event: the Event tag's whole value or a glob.",
)


def with_event(query: Query, event: str | None) -> Query:
    """``query`` and the games of the event ``event`` (a bounded glob)."""
    if event is None:
        return query
    bounded(event, "--event")
    return dataclasses.replace(query, tags=(*query.tags, tag_filter(f"Event={event}")))


def standing_games(
    paths: tuple[str, ...],
    options: dict[str, Any],
    query: Query,
    problems: list[str],
    bar: ProgressBar | None = None,
) -> Iterator[Game]:
    """The games to count, as ``find`` and ``stats`` choose
    (:func:`~.find_cmd.from_index_or_archive`)."""
    return from_index_or_archive(
        paths,
        options,
        problems,
        bar,
        lambda connection, db: index_games(connection, db, query),
        lambda game: game.path,
        lambda sources, check, globs, on_games: archive_standing_games(
            sources, query, check, globs, on_games
        ),
    )


def read_games(
    paths: tuple[str, ...], options: dict[str, Any], event: str | None, quiet: bool
) -> tuple[list[Game], list[str]]:
    """The games the options choose, and the problems told on the way."""
    query = with_event(query_of(options), event)
    problems: list[str] = []
    scan = ProgressBar(None, "game", quiet=quiet)
    with stoppable(lambda: _("after reading {games}").format(games=games_read(scan))):
        games = list(checked(standing_games(paths, {**options, "quiet": quiet}, query, problems)))
    return games, problems


@click.command(cls=Translated, epilog=EXAMPLE)
@click.argument("paths", nargs=-1, metavar="[ARCHIVE]...")
@find_options
@event_option
@format_option(
    ["text", "csv", "json", "html", "pdf"],
    "A table for reading, CSV, one JSON document, an HTML page or a PDF page (needs --out).",
)
@out_option
@page_options(
    "pdf: the paper, a4, a5 or letter (default: the locale's, Letter for en_US and en_CA, else A4)."
)
@force_out_option
@quiet_option("No progress bar and no summary line (problems are still told).")
@encoding_option()
def crosstable(
    paths: tuple[str, ...],
    event: str | None,
    fmt: str,
    out: str | None,
    page: str | None,
    landscape: bool,
    force: bool,
    quiet: bool,
    **options: Any,
) -> None:
    """The crosstable of the games of an index (--db) or of the ARCHIVE
    paths, usually of one --event.

    Each player's row gives won-lost against each opponent (+: and games
    without a winner), the points (one per game won: the rules have no
    draws; a dropped cube is a loss, as stats counts it), the tie-break SB
    and the games won, lost and open. The order: points, then
    Sonneborn-Berger (the points of the players beaten, once per win), then
    the points among the players still level, then the name. Games of an
    unnamed player (?) are left out. The filters of `hexhop find` choose
    the games; ARCHIVE paths use their hexhop.sqlite index when there is
    one (--scan: read them).

    Beyond 50 players, a table with a column each would grow with the
    square of the players: each player's row ends with their games
    instead (number:won-lost against each opponent met), and standard
    error says so.

    Exit status: 0 when some game was counted, 1 when none matched, 2 on a
    usage error, a malformed filter or pattern, an index that cannot be
    used, and when files changed since they were indexed or could not be
    read (the others are counted).
    """
    for warning in unused_options(
        click.get_current_context(), fmt, {"page": ("pdf",), "landscape": ("pdf",)}
    ):
        tell(warning)
    if fmt == "pdf" and out is None:
        raise click.UsageError(_("--format pdf writes a file: give --out FILE.pdf"))
    if out is not None:
        refuse_existing([out], force)
        refuse_inputs([out], paths)
    games, problems = read_games(paths, options, event, quiet)
    table = Crosstable.of(games)
    if not table.full and fmt != "json":
        tell(listing_note(len(table.players)))
    if fmt == "pdf":
        if table.players:
            from hexhop.render import pdf
            from hexhop.render.pages import page_for

            # the layout takes seconds (in a child process): Ctrl-C stops it
            with stoppable(lambda: _("while laying out {path}; nothing written").format(path=out)):
                data = pdf(pdf_pages(table, event, page_for(page, landscape)))
            write_atomically(out or "", data, overwrite=force)
    elif fmt == "json":
        emit(stdout_json(table.as_json(), indent=2) + "\n", out, force)
    elif fmt == "csv":
        emit(csv_text(table), out, force)
    elif fmt == "html":
        emit(html_page(table, event), out, force)
    elif table.players:
        lines = table.standings().split("\n")
        emit("".join(printable(line) + "\n" for line in lines), out, force)
    if out is not None and table.players and not quiet:
        tell(_("wrote {path}").format(path=out))
    if not table.players and not quiet:
        tell(_("no game matched"))
    raise SystemExit(2 if problems else 0 if table.players else 1)


def csv_text(table: Crosstable) -> str:
    """The table as CSV: a heading, then one row per player, in the cells
    of every CSV (:func:`~hexhop.records.text.csv_cell`)."""
    return "".join(csv_line(row) + "\n" for row in table.rows())


def html_page(table: Crosstable, event: str | None) -> str:
    """The table as one HTML page (no script, no outside file)."""
    title = _html(event if event is not None else _("Crosstable"))
    rows = table.rows()
    lines = [
        "<!DOCTYPE html>",
        '<html><head><meta charset="utf-8">',
        f"<title>{title}</title>",
        "<style>table{border-collapse:collapse}td,th{border:1px solid #888;"
        "padding:2px 6px;text-align:center}td:nth-child(2){text-align:left}</style>",
        f"</head><body><h1>{title}</h1>",
        "<table>",
        "<tr>" + "".join(f"<th>{_html(c)}</th>" for c in rows[0]) + "</tr>",
    ]
    for row in rows[1:]:
        lines.append("<tr>" + "".join(f"<td>{_html(c)}</td>" for c in row) + "</tr>")
    lines += ["</table>", "</body></html>", ""]
    return "\n".join(lines)


def _html(value: object) -> str:
    """A cell of the page: escaped, its control characters as the terminal escapes."""
    return html.escape(printable(utf8_safe(str(value))))


def pdf_pages(table: Crosstable, event: str | None, paper: Page) -> list[str]:
    """The PDF's pages as SVG: the table on one page, or the listing of
    a crosstable of many players on as many pages as it needs."""
    from hexhop.render.sequence import diagram_page_svg, text_pages_svg

    if table.full:
        return [diagram_page_svg(svg_page(table, event), (), paper, at_top=True)]
    title = printable(utf8_safe(event if event is not None else _("Crosstable")))
    return text_pages_svg(title, listing_lines(table), paper)


GAMES_PER_LINE = 10  # of a player's games on one line of the PDF's listing


def listing_lines(table: Crosstable) -> list[str]:
    """The listing as lines of text in any font: a player's standing,
    then their games, at most :data:`GAMES_PER_LINE` to a line."""
    lines: list[str] = []
    for rank, name in enumerate(table.players, 1):
        won, lost, open_ = table.total(name)
        lines.append(
            _(
                "{rank}. {player}: {points} points, SB {sb}, won {won}, lost {lost}, open {open}"
            ).format(
                rank=rank,
                player=printable(utf8_safe(name)),
                points=table.points(name),
                sb=table.tie_break(name),
                won=won,
                lost=lost,
                open=open_,
            )
        )
        games = [f"{number}:{cell}" for number, cell in table.opponents(name)]
        for start in range(0, len(games), GAMES_PER_LINE):
            lines.append("    " + "  ".join(games[start : start + GAMES_PER_LINE]))
    return lines


def svg_page(table: Crosstable, event: str | None) -> str:
    """The table as one SVG picture (for the PDF page): a heading, then
    a row per player, each column as wide as its widest cell."""
    from hexhop.render.svg_parts import FONT, SVG_NS, escape_attr, escape_text

    rows = [[printable(utf8_safe(str(c))) for c in row] for row in table.rows()]
    font, pad, line = 12, 10, 20
    widths = [max(len(row[i]) for row in rows) * font * 0.62 + pad for i in range(len(rows[0]))]
    title = printable(utf8_safe(event if event is not None else _("Crosstable")))
    width = max(sum(widths), len(title) * 16 * 0.62) + 2 * pad
    height = 40 + line * len(rows) + pad
    parts = [
        f'<text x="{pad}" y="24" font-size="16" font-weight="bold">{escape_text(title)}</text>'
    ]
    for number, row in enumerate(rows):
        y = 40 + line * (number + 1) - 6
        x: float = pad
        if number % 2 == 0:
            parts.append(
                f'<rect x="{pad}" y="{y - 14}" width="{sum(widths):.1f}" height="{line}" '
                'fill="#eeeeee"/>'
            )
        for column, cell in enumerate(row):
            bold = ' font-weight="bold"' if number == 0 else ""
            anchor, at = ("start", x + 3) if column == 1 else ("middle", x + widths[column] / 2)
            parts.append(
                f'<text x="{at:.1f}" y="{y}" font-size="{font}" text-anchor="{anchor}"{bold}>'
                f"{escape_text(cell)}</text>"
            )
            x += widths[column]
    return (
        f'<svg xmlns="{SVG_NS}" width="{width:.0f}" height="{height}" '
        f'viewBox="0 0 {width:.0f} {height}" font-family="{escape_attr(FONT)}">'
        '<rect width="100%" height="100%" fill="#ffffff"/>' + "".join(parts) + "</svg>"
    )
