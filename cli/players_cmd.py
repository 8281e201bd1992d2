"""``hexhop players``: each player of an archive, with every spelling, and
the players that may be one person."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any

import click

from hexhop.archive.players import load_names
from hexhop.archive.roster import (
    REASONS,
    PlayerRow,
    Sides,
    Suggestion,
    roster,
    roster_json,
    sides_in_archive,
    sides_in_index,
    suggest,
    suggestions_file,
)
from hexhop.messages import N_, _, ngettext
from hexhop.records.errors import RecordsError
from hexhop.records.text import csv_line, printable, utf8_safe

from .command_output import stdout_json, tell
from .find_cmd import from_index_or_archive
from .help import Translated
from .interrupt import checked, stoppable
from .options import (
    encoding_option,
    format_option,
    game_option,
    glob_option,
    names_option,
    quiet_option,
    shared,
)
from .progress import ProgressBar, games_read
from .safe_write import refuse_inputs, write_atomically

EXAMPLE = """
\b
Examples:
  hexhop players club/
  hexhop players --db club.sqlite --format json
  hexhop players club/ --suggest-names suggested-names.txt
  hexhop players club/ --names club-names.txt
"""


class NotOverwritten(RecordsError):
    """A file that will not be written over: exit 2, as for every output problem."""

    exit_code = 2


HEADING = (N_("player"), N_("games"), N_("first"), N_("last"), N_("spellings"))


@click.command(cls=Translated, epilog=EXAMPLE)
@click.argument("paths", nargs=-1, metavar="[ARCHIVE]...")
@shared("--db", default=None, metavar="FILE", help="The index to read (see hexhop index).")
@shared("--scan", is_flag=True, help="Read the ARCHIVE paths even if indexed.")
@game_option
@glob_option("As in check.")
@encoding_option()
@names_option(
    "The club's names file: which spellings name one player (docs/archive.md); "
    "default: hexhop-names.txt beside the first ARCHIVE. An index keeps the names "
    "file it was made with (hexhop index --names): another one is told as a change."
)
@format_option(["text", "json", "csv"], "How to list the players (json: every spelling).")
@click.option(
    "--suggest-names",
    "suggest_to",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Write the players that may be one person as a names file to edit (never over "
    "a file that exists).",
)
@quiet_option("No progress bar and no summary line (problems are still told).")
def players(
    paths: tuple[str, ...],
    fmt: str,
    suggest_to: str | None,
    quiet: bool,
    **options: Any,
) -> None:
    """List each player of an index (--db) or of the ARCHIVE paths: the name
    shown, every spelling with its games, the games and the first and last
    date. A player is a key: the name in lower case, accents dropped, ä, ö,
    ü and ß written ae, oe, ue and ss, `Last, First` as `First Last`; the
    names file joins other spellings and keeps two people of one name apart.

    Then the players that may be one person but are not joined (one letter
    apart, a first name as an initial, first and last name swapped) are
    suggested; --suggest-names writes them as a names file to edit.

    Exit status: 0 when some player was listed, 1 when none was, 2 on a
    usage error, a names file or index that cannot be used, a file that
    cannot be read or changed since it was indexed.
    """
    if suggest_to is not None:
        if os.path.lexists(suggest_to):
            raise NotOverwritten(
                _("{path} exists: --suggest-names writes a new file, never over one").format(
                    path=suggest_to
                )
            )
        refuse_inputs([suggest_to], [*paths, *(p for p in (options["db"],) if p)])
    options.update(missed_win=False, blunder=False, quiet=quiet)
    names = load_names(options["names_file"], paths[:1])
    problems: list[str] = []
    scan = ProgressBar(None, "game", quiet=quiet)

    def so_far() -> str:
        return _("after reading {games}").format(games=games_read(scan))

    with stoppable(so_far):
        sides: Iterator[Sides] = from_index_or_archive(
            paths,
            options,
            problems,
            scan,
            sides_in_index,
            lambda side: side.real,
            lambda sources, check, globs, on_games: sides_in_archive(
                sources, check, names, globs, on_games
            ),
        )
        rows = roster(checked(sides))
    suggestions = suggest(rows)
    if suggest_to is not None and suggestions:
        text = suggestions_file(rows, suggestions)
        write_atomically(suggest_to, text.encode("utf-8"))
    _write(rows, suggestions, fmt)
    if not quiet:
        tell(_summary(rows, suggestions, suggest_to))
    sys.exit(2 if problems else 0 if rows else 1)


def _summary(rows: list[PlayerRow], suggestions: list[Suggestion], written: str | None) -> str:
    players = ngettext("{n} player", "{n} players", len(rows)).format(n=len(rows))
    line = ngettext(
        "{players}; {n} pair that may be one person",
        "{players}; {n} pairs that may be one person",
        len(suggestions),
    ).format(players=players, n=len(suggestions))
    if written is not None and suggestions:
        line += "; " + _("written to {path}").format(path=written)
    elif written is not None:
        line += "; " + _("{path} not written").format(path=written)
    return line


def _write(rows: list[PlayerRow], suggestions: list[Suggestion], fmt: str) -> None:
    if fmt == "json":
        click.echo(stdout_json(roster_json(rows, suggestions), indent=2))
        return
    if fmt == "csv":
        click.echo(csv_line(["key", "name", "games", "first", "last", "spellings"]))
        for row in rows:
            spelled = "; ".join(f"{name}={count}" for name, count in row.spellings)
            cells = [row.key, row.name, str(row.games), row.first or "", row.last or "", spelled]
            click.echo(utf8_safe(csv_line(cells)))
        return
    for line in _table(rows, suggestions):
        click.echo(utf8_safe(line))


def _table(rows: list[PlayerRow], suggestions: list[Suggestion]) -> Iterator[str]:
    """The players as a table, then the suggestions."""
    cells = [
        [
            printable(row.name),
            str(row.games),
            row.first or "",
            row.last or "",
            ", ".join(f"{printable(name)} ({count})" for name, count in row.spellings),
        ]
        for row in rows
    ]
    heading = [_(word) for word in HEADING]
    widths = [max([len(heading[i]), *(len(c[i]) for c in cells)]) for i in range(4)]
    for line in [heading, *cells]:
        yield "  ".join(
            [
                line[0].ljust(widths[0]),
                line[1].rjust(widths[1]),
                line[2].ljust(widths[2]),
                line[3].ljust(widths[3]),
                line[4],
            ]
        ).rstrip()
    if suggestions:
        by_key = {row.key: row for row in rows}
        yield ""
        yield _("May be one person (not joined; a names file joins them):")
        for suggestion in suggestions:
            first, second = (by_key[key].name for key in (suggestion.first, suggestion.second))
            why = _(REASONS[suggestion.why])
            yield f"  {printable(first)} / {printable(second)}: {why}"
