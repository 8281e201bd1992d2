"""``hexhop ratings``: Elo ratings of every player over an archive, one list per game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from hexhop.archive.standings import K_FACTOR, START, Ratings, event_matcher, rate_lists
from hexhop.messages import _, number
from hexhop.records.text import counted, printable, utf8_safe

from .command_output import emit, force_out_option, out_option, stdout_json, tell
from .crosstable_cmd import (
    TABLE_STYLE,
    counted_games,
    event_option,
    html_table,
    svg_rows,
    svg_text,
)
from .find_cmd import Filtered, find_options
from .interrupt import stoppable
from .options import (
    encoding_option,
    format_option,
    keep_duplicates_option,
    page_options,
    quiet_option,
    unused_options,
)
from .safe_write import refuse_existing, refuse_inputs, write_atomically

if TYPE_CHECKING:
    from hexhop.render.pages import Page

EXAMPLE = """
\b
Examples:
  hexhop ratings samples/good
  hexhop ratings --db club.sqlite --game hexalit --format json
  hexhop ratings --db club.sqlite --event 'Vereinsmeisterschaft 2010' --format pdf --out list.pdf
"""

ROWS_PER_PAGE = 40  # of a rating list on one page of the PDF


@click.command(cls=Filtered, epilog=EXAMPLE)
@click.argument("paths", nargs=-1, metavar="[ARCHIVE]...")
@find_options
@event_option
@keep_duplicates_option()
@format_option(
    ["text", "json", "html", "pdf"],
    "Tables for reading, one JSON document, an HTML page or a PDF (needs --out).",
)
@out_option
@page_options(
    "pdf: the paper, a4, a5 or letter (default: the locale's, Letter for en_US and en_CA, else A4)."
)
@force_out_option
@quiet_option("No progress bar and no summary line (problems are still told).")
@encoding_option()
def ratings(
    paths: tuple[str, ...],
    event: str | None,
    names_file: str | None,
    keep_duplicates: bool,
    fmt: str,
    out: str | None,
    page: str | None,
    landscape: bool,
    force: bool,
    quiet: bool,
    **options: Any,
) -> None:
    """Elo ratings of the players of an index (--db) or of the ARCHIVE
    paths: one list per game (Hexalit, Trigeo, and Hüpfer per board size,
    each rated alone; --game and --board choose), each player with their
    change over the last event.

    The ratings after an event (--event X) are the ratings over the whole
    archive (as the other filters choose it) up to and including X's last
    game in date order, of X's players, each with their change over X: the
    same list the web app's event page shows.

    Every player starts at 1500; each game moves both players' ratings by
    K = 20 times (score - expected score), the expected score 1 / (1 +
    10^((other's rating - own) / 400)), a win scoring 1 and a loss 0 (no
    draws; a dropped cube is a loss, as stats counts it). The games are
    taken in the order of their Date tag, games of the same date in
    archive order. Games without a date (no year) and games without a
    winner (*) are left out and counted on standard error; games of an
    unnamed player (?) are left out. A player is a person (the player key
    and the names file, --names), and a game the archive holds twice is
    rated once (--keep-duplicates: every copy). The filters of `hexhop
    find` choose the games; ARCHIVE paths use their hexhop.sqlite index
    when there is one (--scan: read them).

    Exit status: 0 when some game was rated, 1 when none was, 2 on a usage
    error, a malformed filter or pattern, an index that cannot be used, and
    when files changed since they were indexed or could not be read.
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
    chosen = None if event is None else event_matcher(event)
    games, problems = counted_games(paths, options, None, quiet, names_file, keep_duplicates)
    lists = rate_lists(games.games, START, K_FACTOR, chosen)
    rated = sum(r.rated for r in lists)
    undated, open_ = sum(r.undated for r in lists), sum(r.open for r in lists)
    if undated:
        tell(_("left out: {games} without a date").format(games=counted(undated, "game")))
    if open_ and not quiet:
        tell(_("left out: {games} without a winner").format(games=counted(open_, "game")))
    if fmt == "json":
        document = as_json(lists)
        document["set_aside"] = games.once.set_aside
        emit(stdout_json(document, indent=2) + "\n", out, force)
    elif fmt == "html" and rated:
        emit(html_page(lists, event), out, force)
    elif fmt == "pdf" and rated:
        from hexhop.render import pdf
        from hexhop.render.pages import page_for

        with stoppable(lambda: _("while laying out {path}; nothing written").format(path=out)):
            data = pdf(pdf_pages(lists, event, page_for(page, landscape)))
        write_atomically(out or "", data, overwrite=force)
    elif rated:
        lines = text(lists).split("\n")
        emit("".join(printable(line) + "\n" for line in lines), out, force)
    if out is not None and rated and not quiet:
        tell(_("wrote {path}").format(path=out))
    if not rated and not quiet:
        tell(_("no game rated"))
    raise SystemExit(2 if problems else 0 if rated else 1)


def as_json(lists: list[Ratings]) -> dict[str, Any]:
    """The lists as plain data; the fields of one list of every game stay
    at the top (``players`` and ``events`` of every list, each with its
    ``game`` and ``board``), and ``lists`` holds each list whole."""
    whole = [r.as_json() for r in lists]
    return {
        "start": START,
        "k": K_FACTOR,
        "games": sum(r.rated for r in lists),
        "undated": sum(r.undated for r in lists),
        "open": sum(r.open for r in lists),
        "players": [
            {**row, "game": one["game"], "board": one["board"]}
            for one in whole
            for row in one["players"]
        ],
        "events": [
            {**row, "game": one["game"], "board": one["board"]}
            for one in whole
            for row in one["events"]
        ],
        "lists": whole,
    }


def change_text(value: float) -> str:
    """``+12.3``, ``-4.0``, ``0.0``: a rating's change, its sign always written."""
    text = number(abs(value), 1)
    return ("+" if value > 0.05 else "-" if value < -0.05 else "\u00b1") + text


def list_title(result: Ratings) -> str:
    if result.after is None:
        return result.kind
    return _("{list} after {event}").format(list=result.kind, event=result.after)


def list_rows(result: Ratings) -> list[list[str]]:
    """A list as a table: rank, player, rating, change over the event, games."""
    rows = [["#", _("player"), _("rating"), _("change"), _("games")]]
    for rank, name in enumerate(result.players(), 1):
        rows.append(
            [
                str(rank),
                name,
                number(result.ratings[name], 1),
                change_text(result.change.get(name, 0.0)),
                str(result.games[name]),
            ]
        )
    return rows


def text(lists: list[Ratings]) -> str:
    """Each list now (or after the event given), then each event's players
    with their rating after it."""
    lines: list[str] = []
    for result in lists:
        names = result.players()
        width = max(len(_("player")), *(len(n) for n in names)) if names else 6
        if lines:
            lines.append("")
        lines.append(
            _("{list}: Elo ratings (start {start:g}, K {k:g}) of {games}").format(
                list=list_title(result),
                start=result.start,
                k=result.k,
                games=counted(result.rated, "game"),
            )
        )
        words = (_("rating"), _("change"), _("games"))
        wide = [max(7, len(words[0])), max(7, len(words[1])), max(5, len(words[2]))]
        lines.append(
            f"  {_('player'):<{width}}  {words[0]:>{wide[0]}}  {words[1]:>{wide[1]}}"
            f"  {words[2]:>{wide[2]}}"
        )
        for name in names:
            rating = number(result.ratings[name], 1)
            change = change_text(result.change.get(name, 0.0))
            lines.append(
                f"  {name:<{width}}  {rating:>{wide[0]}}  {change:>{wide[1]}}"
                f"  {result.games[name]:>{wide[2]}}"
            )
        for event, after in result.events.items():
            lines.append("")
            lines.append(_("After {event}").format(event=event))
            for name in sorted(after, key=lambda n: (-after[n], n)):
                lines.append(f"  {name:<{width}}  {number(after[name], 1):>7}")
    return "\n".join(lines)


def html_page(lists: list[Ratings], event: str | None) -> str:
    """The rating lists as one HTML page for a newsletter (no script, no
    outside file): a table per list with each player's change."""
    title = _html(event and _("Ratings after {event}").format(event=event) or _("Ratings"))
    lines = [
        "<!DOCTYPE html>",
        '<html><head><meta charset="utf-8">',
        f"<title>{title}</title>",
        f"<style>{TABLE_STYLE}</style>",
        f"</head><body><h1>{title}</h1>",
    ]
    for result in lists:
        lines.append(f"<h2>{_html(list_title(result))}</h2>")
        lines += html_table(list_rows(result))
    note = _(
        "Elo, every player starting at 1500, K = 20; change: over the event the list is after."
    )
    lines += [f'<p class="legend">{_html(note)}</p>', "</body></html>", ""]
    return "\n".join(lines)


def _html(value: object) -> str:
    import html

    return html.escape(printable(utf8_safe(str(value))))


def pdf_pages(lists: list[Ratings], event: str | None, paper: Page) -> list[str]:
    """The PDF's pages as SVG: each list as a table, :data:`ROWS_PER_PAGE`
    players to a page."""
    from hexhop.render.sequence import diagram_page_svg

    pages = []
    for result in lists:
        rows = [[printable(utf8_safe(c)) for c in row] for row in list_rows(result)]
        for start in range(1, len(rows), ROWS_PER_PAGE):
            chunk = [rows[0], *rows[start : start + ROWS_PER_PAGE]]
            pages.append(diagram_page_svg(_svg(list_title(result), chunk), (), paper, at_top=True))
    return pages


def _svg(title: str, rows: list[list[str]]) -> str:
    from hexhop.render.svg_parts import FONT, SVG_NS, escape_attr

    font, pad, line = 12, 10, 20
    title = printable(utf8_safe(title))
    drawn, wide = svg_rows(rows, 40, font, pad, line)
    width = max(wide + 2 * pad, len(title) * 16 * 0.62 + 2 * pad)
    height = 40 + line * len(rows) + pad
    return (
        f'<svg xmlns="{SVG_NS}" width="{width:.0f}" height="{height}" '
        f'viewBox="0 0 {width:.0f} {height}" font-family="{escape_attr(FONT)}">'
        '<rect width="100%" height="100%" fill="#ffffff"/>'
        + svg_text(pad, 24, title, 16, bold=True)
        + "".join(drawn)
        + "</svg>"
    )
