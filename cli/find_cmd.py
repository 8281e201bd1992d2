"""``hexhop find``: games by player, tag, result, date, length, position or opening."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

import click

from hexhop.archive.analysed import (
    files_by_digest,
    stored_notes,
)
from hexhop.archive.filters import BUILT_IN, FILTERS, SORT_ALIASES, SORT_KEYS, Filter
from hexhop.archive.filters import SIDES as FILTER_SIDES
from hexhop.archive.players import load_names
from hexhop.archive.query import (
    Hit,
    Query,
    bounded,
    find_in_archive,
    stale_files,
)
from hexhop.messages import N_, _
from hexhop.messages import date as shown_date
from hexhop.records.text import counted, csv_line, printable, utf8_safe

from .command_output import stdout_json, tell
from .help import Translated
from .interrupt import checked, stoppable
from .options import (
    VOCABULARY,
    Count,
    encoding_option,
    force_option,
    format_option,
    game_name,
    glob_option,
    names_option,
    old_spelling,
    quiet_option,
    renamed,
    shared,
)
from .progress import ProgressBar, beside, clear, games_bar, games_read
from .safe_write import refuse_existing, refuse_inputs, write_atomically

EXAMPLE = """
\b
Examples:
  hexhop find samples/good --player muller
  hexhop find --db club.sqlite --tag 'Event=*Kassel*' --result 0-1
  hexhop find --db club.sqlite --position 'R: a1 b1; T: f6; reserve: 10/12; turn: R'
  hexhop find --db club.sqlite --after '1. B4W3 D7W1' --format csv
  hexhop find --db club.sqlite --player Berger --export berger.hxl
"""

SIDES = FILTER_SIDES
# the table's columns (the last two: with --position)
HEADING = (N_("players"), N_("result"), N_("date"), N_("event"), N_("plies"))
PLY, WHERE = N_("ply"), N_("where")


# the callback of the other commands, with a help text for searching
game_option = shared(
    "--game",
    callback=game_name,
    metavar="GAME",
    help=FILTERS["game"].help,
)


def filter_option(item: Filter) -> Callable[[F], F]:
    """The option of a filter of the table (archive/filters.py): made by
    the vocabulary when it names the filter (shared()), else as the table says."""
    attributes: dict[str, Any] = {"help": item.help}
    if item.flag:
        attributes["is_flag"] = True
        if "/" in item.option:
            attributes["default"] = None
    else:
        attributes.update(metavar=item.metavar, default=None)
        if item.multiple:
            attributes.update(multiple=True, default=())
        if item.least is not None:
            attributes["type"] = Count(item.least)
    if item.name == "game":
        attributes["callback"] = game_name
    if item.option in VOCABULARY:
        return shared(item.option, item.parameter, **attributes)
    return click.option(item.option, item.parameter, **attributes)


def _filter_options() -> list[Callable[[F], F]]:
    """The options of the table's filters that the commands take, and the
    old spelling --plies of --length."""
    options: list[Callable[[F], F]] = []
    for item in FILTERS.values():
        if item.cli and item.name in BUILT_IN:
            options.append(filter_option(item))
        if item.name == "length":
            options.append(renamed("--plies", "--length", "length"))
    return options


class Filtered(Translated):
    """A command that takes the table's filters: a filter added to the
    table after the command was made is an option of it too."""

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        params = super().get_params(ctx)
        have = {param.name for param in params}
        added: list[click.Parameter] = []
        for item in FILTERS.values():
            if item.cli and item.parameter not in have:
                holder = filter_option(item)(lambda: None)
                added.extend(getattr(holder, "__click_params__", []))
        return added + params if added else params


def find_options(command):
    """The filters of ``find`` (``stats`` takes them too): the table's, then where to read."""
    options = [
        *_filter_options(),
        shared(
            "--db", default=None, metavar="FILE", help="The index to search (see hexhop index)."
        ),
        shared("--scan", is_flag=True, help="Read the ARCHIVE paths even if indexed."),
        glob_option("As in check."),
        names_option(
            "The club's names file: which spellings name one player (docs/archive.md); "
            "default: hexhop-names.txt beside the first ARCHIVE. An index keeps the names "
            "file it was made with (hexhop index --names): another one is told as a change."
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def query_of(options: dict[str, Any], paths: Iterable[str] = ()) -> Query:
    """The query the filters of ``find_options`` describe (QueryError: exit 2),
    with the names file of ``--names`` or beside the first of ``paths``
    (NamesFileError: exit 2)."""
    for pattern in options["globs"]:
        bounded(pattern, "--glob")
    note_kinds(options)
    values = {item.name: options.get(item.parameter) for item in FILTERS.values() if item.cli}
    values["length"] = old_spelling("length", options["length"])
    from hexhop.archive import service  # the service, when a search is made

    return service.query_of(
        values,
        label=lambda item: item.option.split("/")[0],
        names=load_names(options.get("names_file"), list(paths)[:1]),
    )


def note_kinds(options: dict[str, Any]) -> tuple[str, ...]:
    """The kinds of stored notes --missed-win and --blunder look for."""
    kinds = tuple(
        kind
        for option, kind in (("missed_win", "missed"), ("blunder", "allows"))
        if options[option]
    )
    if options["min_depth"] is not None and not kinds:
        raise click.UsageError(_("--min-depth goes with --missed-win or --blunder"))
    return kinds


def index_to_use(paths: tuple[str, ...], options: dict[str, Any]) -> str | None:
    """The index to answer from (:func:`hexhop.archive.service.index_to_use`)."""
    from hexhop.archive import service

    return service.index_to_use(paths, options["db"], options["scan"])


def from_index_or_archive(
    paths: tuple[str, ...],
    options: dict[str, Any],
    problems: list[str] | None,
    bar: ProgressBar | None,
    in_index: Callable[[Any, str], Iterable[T]],
    where: Callable[[T], str],
    in_archive: Callable[
        [list[str], Any, tuple[str, ...], Callable[[int], None]], Iterable[T | str]
    ],
) -> Iterator[T]:
    """What find, stats and crosstable read: from the index (--db, or
    hexhop.sqlite of the first ARCHIVE when there is one: ``in_index(connection,
    db)``, kept when ``where(item)`` is under the ARCHIVE paths), else from the
    ARCHIVE paths read now (``in_archive(paths, check options, globs,
    on_games)``). The index's files that changed or are gone are told first,
    and added to ``problems``, as are the files that cannot be read."""
    from hexhop.archive import service

    db = index_to_use(paths, options)
    analysed = options["missed_win"] or options["blunder"]
    if db is None and not analysed and not paths:
        raise click.UsageError(_("give ARCHIVE paths to read, or --db with an index"))

    def progress() -> tuple[Callable[[int], None], Callable[[], None]]:
        shown = games_bar(paths, quiet=options.get("quiet", False), globs=options["globs"], bar=bar)
        return shown.update, shown.done

    yield from service.answers(
        paths,
        db,
        game=options["game"],
        globs=options["globs"],
        names_file=options.get("names_file"),
        analysed="--missed-win" if options["missed_win"] else "--blunder" if analysed else None,
        in_index=in_index,
        where=where,
        in_archive=in_archive,
        tell=tell,
        problems=problems,
        progress=progress,
    )


def hits_of(
    paths: tuple[str, ...],
    options: dict[str, Any],
    query: Query,
    problems: list[str] | None = None,
    bar: ProgressBar | None = None,
) -> Iterator[Hit]:
    """The matching games (see :func:`from_index_or_archive`)."""
    return from_index_or_archive(
        paths,
        options,
        problems,
        bar,
        lambda connection, db: _with_notes(
            connection, db, _service().find(connection, db, query), query
        ),
        lambda hit: hit.real,
        lambda sources, check, globs, on_games: find_in_archive(
            sources, query, check, globs, on_games
        ),
    )


COPIES_ASKED = 50  # copies of one file asked for a game's notes: they hold the same games


def _with_notes(connection: Any, db: str, hits: Iterable[Hit], query: Query) -> Iterator[Hit]:
    """The hits of --missed-win and --blunder, each with the notes that
    matched in words: who missed or allowed which win, where."""
    if not query.notes:
        yield from hits
        return
    files = files_by_digest(connection, db)
    for hit in hits:
        copies = files.get(hit.digest, [])[:COPIES_ASKED]
        found = stored_notes(connection, db, copies, hit.number, query.notes, query.min_depth)
        hit.notes = [note.as_dict() for note in found]
        yield hit


def _service() -> Any:
    from hexhop.archive import service  # the service, when a search is made

    return service


def warn_stale(
    connection: Any,
    db: str,
    paths: tuple[str, ...],
    stale: list[str] | None,
    names_file: str | None = None,
) -> None:
    """Tell the index's files (under ``paths``) that changed or are gone
    since they were indexed, the names file when it is not the one the
    index was made with (``names_file``: the one given), and the run of
    ``index`` that brings it up to date."""
    found = stale_files(connection, db, paths, names_file)
    if not found:
        return
    if stale is not None:
        stale.extend(found)
    from hexhop.archive import service

    tell(service.stale_warning(found, db, paths, names_file))


T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


class SortChoice(click.Choice):
    """The sort keys (archive/filters.py SORT_KEYS); the web app's old
    spellings (``players``, ``plies``) read as their keys, not listed."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and value in SORT_ALIASES:
            value = SORT_ALIASES[value]
        return super().convert(value, param, ctx)


def _under(path: str, root: str) -> bool:
    root = root.rstrip("/") or "/"
    return path == root or path.startswith((root + "/", root + ":", root + os.sep))


@click.command(cls=Filtered, epilog=EXAMPLE)
@click.argument("paths", nargs=-1, metavar="[ARCHIVE]...")
@find_options
@click.option(
    "--sort",
    type=SortChoice(SORT_KEYS),
    default="archive",
    show_default=True,
    help="List the games in the order of the archive, or by date, first player, event "
    "or length (the games found are then held in memory).",
)
@click.option(
    "--reverse",
    is_flag=True,
    help="The other way round (--sort date --reverse: the latest first).",
)
@shared(
    "--limit",
    type=Count(0),
    default=0,
    show_default=True,
    help="List (or export) at most this many games (0: all).",
)
@format_option(
    ["table", "json", "jsonl", "csv"],
    "How to list the games.",
)
@shared(
    "--export",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Write the matching games, each in its own text byte for byte, to one record archive.",
)
@click.option("--canonical", is_flag=True, help="With --export: write the games as fmt does.")
@force_option("Overwrite --export if it exists.")
@quiet_option("No progress bar and no summary line (problems are still told).")
@encoding_option()
def find(
    paths: tuple[str, ...],
    sort: str,
    reverse: bool,
    limit: int,
    fmt: str,
    export: str | None,
    canonical: bool,
    force: bool,
    quiet: bool,
    **options: Any,
) -> None:
    """Find games in an index (--db), or straight in the ARCHIVE paths.

    Every filter given must hold. Player names match in part, case and
    accents aside; --tag and a name with * ? [ match as globs. --position
    takes Position tag text (in every game and board that can read it,
    unless --game and --board say which); --after takes actions as written
    in a record, move numbers allowed. With ARCHIVE paths and no --db, the
    index hexhop.sqlite of the first one is used when there is one.

    Exit status: 0 when some game matched, 1 when none did, 2 on a usage
    error, a malformed filter or an index that cannot be used, and when
    files changed or are gone since they were indexed (the games the index
    holds are listed, with a warning) or some file could not be read (the
    others are searched).
    """
    query = query_of(options, paths)
    found = [0]
    problems: list[str] = []  # files changed since indexed, or unreadable

    def counting(hits: Iterator[Hit]) -> Iterator[Hit]:
        for hit in hits:
            found[0] += 1
            yield hit

    scan = ProgressBar(None, "game", quiet=quiet)
    out = beside(sys.stdout)  # the list and the progress bar on one terminal

    def so_far() -> str:
        if scan.count:  # the ARCHIVE paths read now
            return _("after reading {games}, {found} found").format(
                games=games_read(scan), found=found[0]
            )
        return _("after {games}").format(games=counted(found[0], "game"))

    with stoppable(so_far):
        hits = counting(
            ordered(checked(hits_of(paths, options, query, problems, scan)), sort, reverse, limit)
        )
        if export is not None:
            inputs = (*paths, index_to_use(paths, options) or "-")
            left_out = _export(hits, export, canonical, force, inputs)
        else:
            room = sys.stdout.isatty()  # the list goes to the progress bar's terminal
            for line in _lines(hits, fmt, bool(query.positions) or query.analysed, query.analysed):
                if room:
                    clear()
                click.echo(utf8_safe(line), file=out)
    if export is not None:
        if not quiet:
            games = counted(found[0] - left_out, "game")
            tell(_("wrote {games} to {path}").format(games=games, path=export))
        if left_out:
            sys.exit(2)
    elif not found[0] and not quiet:
        tell(_("no game matched"))
    sys.exit(2 if problems else 0 if found[0] else 1)


def ordered(hits: Iterator[Hit], sort: str, reverse: bool, limit: int) -> Iterator[Hit]:
    """The hits in the order ``sort`` names, at most ``limit`` of them
    (the archive service's order: :func:`hexhop.archive.service.ordered`)."""
    from hexhop.archive import service

    return service.ordered(hits, sort, reverse, limit)


def _export(
    hits: Iterator[Hit], path: str, canonical: bool, force: bool, inputs: tuple[str, ...]
) -> int:
    """Write the hits' games to ``path``, read back and checked, as they
    come; how many were left out (told: they cannot stand alone)."""
    refuse_inputs([path], inputs)
    refuse_existing([path], force)
    from hexhop.archive.export import export_pieces
    from hexhop.archive.verify import Written, left_out_message, verify

    written, left_out = Written(), list[Hit]()

    def leave_out(hit: Hit) -> None:
        left_out.append(hit)
        tell(left_out_message(hit.path, hit.line, hit.number))

    def sources(hits: Iterator[Hit]) -> Iterator[Hit]:
        source = ""
        for hit in hits:  # never over a file a game comes from
            if hit.path != source:
                source = hit.path
                refuse_inputs([path], [source])
            yield hit

    pieces = export_pieces(sources(hits), written, leave_out, canonical=canonical)
    write_atomically(
        path,
        pieces,
        overwrite=force,
        check=lambda temp: verify(temp, written, shown=path),
        inputs=inputs,
    )
    return len(left_out)


def _lines(
    hits: Iterator[Hit], fmt: str, with_ply: bool, with_notes: bool = False
) -> Iterator[str]:
    if fmt == "jsonl":
        for hit in hits:
            yield stdout_json(hit.as_json())
    elif fmt == "json":
        # one game a line, its comma at the end: a line is written once the
        # next game (or the end) is known, [] when none matched
        held: str | None = None
        for hit in hits:
            yield "[" if held is None else f"  {held},"
            held = stdout_json(hit.as_json())
        yield "[]" if held is None else f"  {held}\n]"
    elif fmt == "csv":
        columns = ["path", "index", "line", "game", "first", "second", "result", "date"]
        columns += ["event", "plies", "valid"] + (["ply"] if with_ply else [])
        columns += ["notes"] if with_notes else []  # --missed-win, --blunder: in words
        yield csv_line(columns)
        for hit in hits:
            row = [hit.path, hit.number, hit.line, hit.game, *hit.players[:2], hit.result]
            row += [hit.date, hit.event, hit.plies, hit.valid] + ([hit.ply] if with_ply else [])
            yield csv_line(row + ([_note_lines(hit)] if with_notes else []))
    else:
        heading = [_(text) for text in (*HEADING, *((PLY,) if with_ply else ()), WHERE)]
        # a column is as wide as its heading in every language
        widths = [max(width, len(text)) for width, text in zip(_WIDTHS, heading)]
        for number, hit in enumerate(hits):
            if not number:
                yield _row(heading, widths)
            cells = [
                " – ".join(hit.players[:2]),
                hit.result or "",
                shown_date(hit.date or ""),
                hit.event or "",
                str(hit.plies),
                *([str(hit.ply)] if with_ply else []),
                f"{hit.path}:{hit.line}",
            ]
            yield _row(cells, widths)
            for note in hit.notes:  # --missed-win, --blunder: who missed what, in words
                yield "  " + printable(note["message"])


def _note_lines(hit: Hit) -> str:
    return "; ".join(note["message"] for note in hit.notes)


_WIDTHS = (32, 6, 10, 28, 5, 5)


def _row(cells: list[str], widths: list[int]) -> str:
    out = []
    for i, cell in enumerate(cells):
        text = printable(str(cell))
        if i < len(cells) - 1:
            width = widths[min(i, len(widths) - 1)]
            text = text if len(text) <= width else text[: width - 1] + "…"
            text = text.ljust(width)
        out.append(text)
    return "  ".join(out).rstrip()
