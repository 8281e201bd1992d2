"""``hexhop crosstable``: the crosstable of an event, for a newsletter."""

from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import click

from hexhop.archive.counting import Counted, condition_tags, count_once
from hexhop.archive.players import NO_NAMES, Names, NamesFileError, load_names
from hexhop.archive.query import Query, bounded, tag_filter
from hexhop.archive.standings import (
    DEFAULT_TIE_BREAKS,
    TIE_BREAKS,
    Crosstable,
    Game,
    archive_standing_games,
    heading,
    index_games,
    legend,
    listing_note,
    round_table,
    tie_breaks_of,
)
from hexhop.messages import _
from hexhop.records.text import csv_line, printable, utf8_safe

from .command_output import emit, force_out_option, out_option, stdout_json, tell
from .find_cmd import Filtered, find_options, from_index_or_archive, query_of
from .interrupt import checked, stoppable
from .options import (
    encoding_option,
    format_option,
    keep_duplicates_option,
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
    names: Names = NO_NAMES,
) -> Iterator[Game]:
    """The games to count, as ``find`` and ``stats`` choose
    (:func:`~.find_cmd.from_index_or_archive`), each with the tags the
    names file's conditions ask for."""
    return from_index_or_archive(
        paths,
        options,
        problems,
        bar,
        lambda connection, db: index_games(connection, db, query, condition_tags(names)),
        lambda game: game.path,
        lambda sources, check, globs, on_games: archive_standing_games(
            sources, query, check, globs, on_games
        ),
    )


class NamesRefused(click.ClickException):
    """A names file that cannot be read: exit 2 with its file:line:col."""

    exit_code = 2


def names_of(names_file: str | None, paths: tuple[str, ...], options: dict[str, Any]) -> Names:
    """The names file given, else ``hexhop-names.txt`` beside the archive
    (or beside the index given with --db)."""
    beside = paths or ((options["db"],) if options.get("db") else ())
    try:
        return load_names(names_file, beside)
    except NamesFileError as error:
        raise NamesRefused(str(error)) from None


def counted_games(
    paths: tuple[str, ...],
    options: dict[str, Any],
    event: str | None,
    quiet: bool,
    names_file: str | None,
    keep_duplicates: bool,
) -> tuple[Counted[Game], list[str]]:
    """The games to count, each once and each player by key
    (:func:`~hexhop.archive.counting.count_once`), and the problems told;
    standard error says how many copies were set aside."""
    names = names_of(names_file, paths, options)
    # a scan chooses the players' games as the index does, by the names file
    query = with_event(replace(query_of(options), names=names), event)
    problems: list[str] = []
    scan = ProgressBar(None, "game", quiet=quiet)
    with stoppable(lambda: _("after reading {games}").format(games=games_read(scan))):
        chosen = standing_games(paths, {**options, "quiet": quiet}, query, problems, None, names)
        result = count_once(checked(chosen), names, keep_duplicates)
    note = result.once.note()
    if note is not None:
        tell(note)
    return result, problems


def tie_break_option(text: str | None) -> tuple[str, ...]:
    """``--tie-break``, read (a usage error names the word)."""
    if text is None:
        return DEFAULT_TIE_BREAKS
    try:
        return tie_breaks_of(text)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="'--tie-break'") from None


@click.command(cls=Filtered, epilog=EXAMPLE)
@click.argument("paths", nargs=-1, metavar="[ARCHIVE]...")
@find_options
@event_option
@keep_duplicates_option()
@click.option(
    "--tie-break",
    "tie_break",
    default=None,
    metavar="LIST",
    help="The tie-breaks after the points, in order, comma separated: "
    + ", ".join(TIE_BREAKS)
    + " (default: sb,h2h; docs/archive.md says what each counts).",
)
@click.option(
    "--rounds",
    is_flag=True,
    help="Add the round-by-round table (by the Round tag; said on standard error "
    "when the Round tags do not allow one).",
)
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
    names_file: str | None,
    keep_duplicates: bool,
    tie_break: str | None,
    rounds: bool,
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

    A player is a person: the spellings of a name are one player by the
    player key and the club's names file (--names), shown by the names
    file's name or the most used spelling. A game the archive holds twice
    (same game, board, actions and players, as hexhop dupes finds it) is
    counted once; standard error says how many copies were set aside.

    The heading gives the event, the site and the first and last date.
    Each player's row gives won-lost against each opponent ((n): and n
    games without a winner), the points (one per game won: the rules have
    no draws; a dropped cube is a loss, as stats counts it), the
    tie-breaks and the games won, lost and open; a legend under the table
    says so. The order: points, then each tie-break (default:
    Sonneborn-Berger, then the points among the players still level), then
    the name. Games of an unnamed player (?) are left out. The filters of
    `hexhop find` choose the games; ARCHIVE paths use their hexhop.sqlite
    index when there is one (--scan: read them).

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
    order = tie_break_option(tie_break)
    if out is not None:
        refuse_existing([out], force)
        refuse_inputs([out], paths)
    counted, problems = counted_games(paths, options, event, quiet, names_file, keep_duplicates)
    table = Crosstable.of(counted.games, order)
    sheet = Sheet(table, heading(counted.games, event), None)
    if rounds and table.full:
        sheet.rounds = round_table(counted.games, table.players)
        if sheet.rounds is None and table.players:
            tell(_("--rounds: the games' Round tags do not make a round-by-round table"))
    if not table.full and fmt != "json":
        tell(listing_note(len(table.players)))
    _write(sheet, counted, fmt, out, force, page, landscape, paths)
    if out is not None and table.players and not quiet:
        tell(_("wrote {path}").format(path=out))
    if not table.players and not quiet:
        tell(_("no game matched"))
    raise SystemExit(2 if problems else 0 if table.players else 1)


@dataclasses.dataclass
class Sheet:
    """What a crosstable prints: the table, its heading, the rounds."""

    table: Crosstable
    title: str
    rounds: list[list[str]] | None


def _write(
    sheet: Sheet,
    counted: Counted[Game],
    fmt: str,
    out: str | None,
    force: bool,
    page: str | None,
    landscape: bool,
    inputs: Sequence[str],
) -> None:
    table = sheet.table
    if fmt == "pdf":
        if table.players:
            from hexhop.render import pdf

            # the layout takes seconds (in a child process): Ctrl-C stops it
            with stoppable(lambda: _("while laying out {path}; nothing written").format(path=out)):
                data = pdf(pdf_pages(sheet, paper_for(sheet, page, landscape)))
            write_atomically(out or "", data, overwrite=force, inputs=inputs)
    elif fmt == "json":
        rows = table.as_json()
        spellings = counted.spellings()
        for row in rows:
            row["spellings"] = spellings.get(row["player"], [])
        emit(stdout_json(rows, indent=2) + "\n", out, force)
    elif fmt == "csv":
        emit(csv_text(table), out, force)
    elif fmt == "html":
        emit(html_page(sheet), out, force)
    elif table.players:
        emit("".join(printable(line) + "\n" for line in text_lines(sheet)), out, force)


def text_lines(sheet: Sheet) -> list[str]:
    """The heading, the table, the legend and the rounds, as lines."""
    table = sheet.table
    lines = [sheet.title, "", *table.standings().split("\n")]
    if table.full:
        lines += ["", *legend(table.tie_breaks)]
    if sheet.rounds:
        lines += ["", _("Round by round (opponent's number, + won, - lost, = no winner)")]
        lines += aligned(sheet.rounds)
    return lines


def aligned(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell.ljust(width) if column == 1 else cell.rjust(width)
            for column, (cell, width) in enumerate(zip(row, widths))
        ).rstrip()
        for row in rows
    ]


def csv_text(table: Crosstable) -> str:
    """The table as CSV: a heading, then one row per player, in the cells
    of every CSV (:func:`~hexhop.records.text.csv_cell`)."""
    return "".join(csv_line(row) + "\n" for row in table.rows())


#: The style of a crosstable page: numbers never break over two lines,
#: and a table of 15 players fits a screen of 1280 pixels
TABLE_STYLE = (
    "body{font-family:sans-serif}table{border-collapse:collapse;font-size:90%}"
    "td,th{border:1px solid #888;padding:2px 4px;text-align:center;white-space:nowrap}"
    "td:nth-child(2){text-align:left}.legend{font-size:85%;color:#444}"
)


def html_page(sheet: Sheet) -> str:
    """The table as one HTML page (no script, no outside file): the
    heading, the table, its legend and the rounds."""
    table = sheet.table
    title = _html(sheet.title)
    rows = table.rows()
    lines = [
        "<!DOCTYPE html>",
        '<html><head><meta charset="utf-8">',
        f"<title>{title}</title>",
        f"<style>{TABLE_STYLE}</style>",
        f"</head><body><h1>{title}</h1>",
        *html_table(rows),
    ]
    if table.full:
        items = "".join(f"<li>{_html(line)}</li>" for line in legend(table.tie_breaks))
        lines.append(f'<ul class="legend">{items}</ul>')
    if sheet.rounds:
        heading = _("Round by round (opponent's number, + won, - lost, = no winner)")
        lines += [f"<h2>{_html(heading)}</h2>", *html_table(sheet.rounds)]
    lines += ["</body></html>", ""]
    return "\n".join(lines)


def html_table(rows: Sequence[Sequence[object]]) -> list[str]:
    lines = ["<table>", "<tr>" + "".join(f"<th>{_html(c)}</th>" for c in rows[0]) + "</tr>"]
    for row in rows[1:]:
        lines.append("<tr>" + "".join(f"<td>{_html(c)}</td>" for c in row) + "</tr>")
    return [*lines, "</table>"]


def _html(value: object) -> str:
    """A cell of the page: escaped, its control characters as the terminal escapes."""
    return html.escape(printable(utf8_safe(str(value))))


#: How much wider than the page's text a table may be before it is laid
#: out on a page turned on its side: scaled to fit, a table of 15 players
#: with long names would print below 6 points on A4 upright
WIDE_TABLE = 1.3


def paper_for(sheet: Sheet, name: str | None, landscape: bool) -> Page:
    """The paper of the crosstable's PDF: the one asked for; a table much
    wider than an upright page (:data:`WIDE_TABLE`) is turned on its side,
    and standard error says so."""
    from hexhop.render.pages import page_for

    paper = page_for(name, landscape)
    if landscape or not sheet.table.full or not sheet.table.players:
        return paper
    width = float(re.search(r'width="([0-9.]+)"', svg_page(sheet)).group(1))  # type: ignore[union-attr]
    if width <= paper.inner_width_px * WIDE_TABLE:
        return paper
    tell(_("the table is wider than an upright page: laid out in landscape"))
    return page_for(name, True)


def pdf_pages(sheet: Sheet, paper: Page) -> list[str]:
    """The PDF's pages as SVG: the table, its legend and the rounds on one
    page, or the listing of a crosstable of many players on as many pages
    as it needs."""
    from hexhop.render.sequence import diagram_page_svg, text_pages_svg

    table = sheet.table
    if table.full:
        return [diagram_page_svg(svg_page(sheet), (), paper, at_top=True)]
    return text_pages_svg(printable(utf8_safe(sheet.title)), listing_lines(table), paper)


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


def svg_page(sheet: Sheet) -> str:
    """The table as one SVG picture (for the PDF page): a heading, a row
    per player, each column as wide as its widest cell, then the legend
    and the rounds."""
    from hexhop.render.svg_parts import FONT, SVG_NS, escape_attr

    font, pad, line = 12, 10, 20
    table = sheet.table
    blocks = [[[printable(utf8_safe(str(c))) for c in row] for row in table.rows()]]
    if sheet.rounds:
        blocks.append([[printable(utf8_safe(c)) for c in row] for row in sheet.rounds])
    notes = [printable(utf8_safe(text)) for text in legend(table.tie_breaks)]
    title = printable(utf8_safe(sheet.title))
    parts: list[str] = []
    y, width = 40, len(title) * 16 * 0.62 + 2 * pad
    for rows in blocks:
        drawn, wide = svg_rows(rows, y, font, pad, line)
        parts += drawn
        width = max(width, wide + 2 * pad)
        y += line * len(rows) + line
        if rows is blocks[0]:
            for note in notes:
                parts.append(svg_text(pad, y, note, 10))
                width = max(width, len(note) * 10 * 0.62 + 2 * pad)
                y += 14
            y += line
    parts.insert(0, svg_text(pad, 24, title, 16, bold=True))
    height = y
    return (
        f'<svg xmlns="{SVG_NS}" width="{width:.0f}" height="{height}" '
        f'viewBox="0 0 {width:.0f} {height}" font-family="{escape_attr(FONT)}">'
        '<rect width="100%" height="100%" fill="#ffffff"/>' + "".join(parts) + "</svg>"
    )


def svg_text(x: float, y: float, text: str, size: int, bold: bool = False) -> str:
    from hexhop.render.svg_parts import escape_text

    weight = ' font-weight="bold"' if bold else ""
    return f'<text x="{x}" y="{y}" font-size="{size}"{weight}>{escape_text(text)}</text>'


def svg_rows(
    rows: list[list[str]], top: int, font: int, pad: int, line: int
) -> tuple[list[str], float]:
    """A table's rows from ``top``, the heading bold, every other row grey;
    and the table's width."""
    from hexhop.render.svg_parts import escape_text

    # the heading is bold: its letters are wider than the cells' digits
    widths = [
        max([len(rows[0][i]) * 0.7, *(len(row[i]) * 0.62 for row in rows[1:])]) * font + pad
        for i in range(len(rows[0]))
    ]
    parts = []
    for number, row in enumerate(rows):
        y = top + line * (number + 1) - 6
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
    return parts, sum(widths)
