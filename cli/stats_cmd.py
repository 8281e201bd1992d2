"""``hexhop stats``: what an archive or an index holds, counted."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

import click

from hexhop.archive.counting import Once, People, condition_tags, identified
from hexhop.archive.stats import (
    MAX_DEPTH,
    Children,
    StatRow,
    archive_rows,
    by_person,
    collect,
    index_rows,
    row_table,
)
from hexhop.messages import N_, _, number, side_name
from hexhop.records.text import counted, printable

from .command_output import stdout_json, tell
from .crosstable_cmd import names_of
from .find_cmd import Filtered, find_options, from_index_or_archive, query_of
from .interrupt import checked, stoppable
from .options import (
    Count,
    encoding_option,
    force_option,
    format_option,
    keep_duplicates_option,
    old_spelling,
    quiet_option,
    renamed,
    shared,
)
from .progress import ProgressBar, games_read
from .safe_write import refuse_existing, write_atomically

EXAMPLE = """
\b
Examples:
  hexhop stats samples/good
  hexhop stats --db club.sqlite --opening-depth 6 --top 5
  hexhop stats --db club.sqlite --player Berger --format json
  hexhop stats random.hxl --plot random.svg
"""


class Refused(click.ClickException):
    """A file that cannot be written: exit 2, as for every input or output problem."""

    exit_code = 2


@click.command(cls=Filtered, epilog=EXAMPLE)
@click.argument("paths", nargs=-1)
@find_options
@click.option(
    "--opening-depth",
    "depth",
    type=Count(1, MAX_DEPTH),
    default=4,
    show_default=True,
    help="Actions (plies and cube events) of the opening tree.",
)
@renamed("--depth", "--opening-depth", "depth")
@click.option(
    "--top",
    type=Count(1),
    default=3,
    show_default=True,
    help="The most played actions shown at each branch of the opening tree.",
)
@shared(
    "--limit",
    type=Count(0),
    default=20,
    show_default=True,
    help="Players listed (0: all).",
)
@format_option(
    ["table", "json"],
    "Tables for reading, or one JSON document.",
)
@click.option(
    "--plot",
    default=None,
    metavar="FILE.svg|FILE.png",
    help="Also draw the results and the game lengths as charts (needs hexhop[plot]).",
)
@keep_duplicates_option()
@force_option("Overwrite --plot if it exists.")
@quiet_option("No progress bar and no summary line (problems are still told).")
@encoding_option()
def stats(
    paths: tuple[str, ...],
    depth: int,
    top: int,
    limit: int,
    fmt: str,
    plot: str | None,
    force: bool,
    quiet: bool,
    names_file: str | None,
    keep_duplicates: bool,
    **options: Any,
) -> None:
    """Count an index's games (--db), or those of the ARCHIVE paths.

    Per game and board: the games, the written results and who won by the
    side that moved first (on the board, else by the written result); the
    game lengths in plies; the players (won, lost, of them by dropping the
    cube, open, score = won / decided); the opening tree of the --top most
    played actions over the first --opening-depth actions; the findings by
    code. A player is a person (the player key and the club's names file,
    --names: the name shown and, in JSON, every spelling), and a game the
    archive holds twice is counted once (--keep-duplicates: every copy).
    The filters of `hexhop find` choose the games; as with find,
    ARCHIVE paths use their hexhop.sqlite index when there is one (--scan:
    read them).

    Exit status: 0 when some game was counted, 1 when none was, 2 on a
    usage error, a malformed filter, an index that cannot be used, a plot
    file that exists or a missing plot extra, and when files changed or are
    gone since they were indexed (counted as the index holds them, with a
    warning) or some file could not be read (the others are counted).
    """
    depth = old_spelling("depth", depth)
    plot_format = _plot_format(plot, force) if plot is not None else None
    query = query_of(options)
    read = [0]
    problems: list[str] = []  # files changed since indexed, or unreadable

    def counting(rows: Iterator[StatRow]) -> Iterator[StatRow]:
        for row in rows:
            read[0] += 1
            yield row

    scan = ProgressBar(None, "game", quiet=quiet)

    def so_far() -> str:
        games = games_read(scan) if scan.count else counted(read[0], "game")
        return _("after reading {games}").format(games=games)

    names = names_of(names_file, paths, options)
    query = replace(query, names=names)  # a scan chooses the players' games as the index
    people, once = People(names), Once(keep_duplicates)
    with stoppable(so_far):
        rows = _rows(paths, options, query, depth, problems, scan, condition_tags(names))
        db = row_table(identified(counting(checked(rows)), people, once), depth)
        try:
            counts = collect(db, depth, top, limit)
            counts["players"] = by_person(counts["players"], people)
            counts["set_aside"] = once.set_aside
            note = once.note()
            if note is not None:
                tell(note)
            # the opening trees are read from db as they are written out
            # (the charts do not draw them)
            if fmt == "json":
                _echo_all(_ended(_json_chunks(counts)))
            else:
                _echo_all(line + "\n" for line in tables(counts))
        finally:
            db.close()
    if plot is not None and plot_format is not None:
        from hexhop.archive.plots import chart

        try:
            write_atomically(plot, chart(counts, plot_format), overwrite=force)
        except OSError as error:
            raise Refused(
                _("cannot write {path}: {reason}").format(path=plot, reason=error.strerror)
            ) from None
        if not quiet:
            tell(_("wrote {path}").format(path=plot))
    if not counts["games"] and not quiet:
        tell(_("no game counted"))
    raise SystemExit(2 if problems else 0 if counts["games"] else 1)


def _plot_format(path: str, force: bool) -> str:
    """The chart format of ``path``, checked before any game is read."""
    from hexhop.archive.plots import FORMATS, require

    fmt = os.path.splitext(path)[1].lower().lstrip(".")
    if fmt not in FORMATS:
        raise click.UsageError(
            _("--plot {path!r}: the file name must end in .svg or .png").format(path=path)
        )
    refuse_existing([path], force)
    require()
    return fmt


def _rows(
    paths: tuple[str, ...],
    options: dict[str, Any],
    query: Any,
    depth: int,
    problems: list[str],
    bar: ProgressBar | None = None,
    wanted: tuple[str, ...] = (),
) -> Iterator[StatRow]:
    """The rows to count, as ``find`` chooses (:func:`from_index_or_archive`),
    each with the tags ``wanted`` (a names file's conditions)."""
    return from_index_or_archive(
        paths,
        options,
        problems,
        bar,
        lambda connection, db: index_rows(connection, db, query, depth, wanted),
        lambda row: row.path,
        lambda sources, check, globs, on_games: archive_rows(
            sources, query, check, globs, depth, on_games
        ),
    )


def _echo_all(chunks: Iterable[str]) -> None:
    """Text to standard output in pieces of about 64 KiB."""
    batch: list[str] = []
    size = 0
    for chunk in chunks:
        batch.append(chunk)
        size += len(chunk)
        if size >= 1 << 16:
            click.echo("".join(batch), nl=False)
            batch, size = [], 0
    click.echo("".join(batch), nl=False)


def _ended(chunks: Iterator[str]) -> Iterator[str]:
    yield from chunks
    yield "\n"


def _json_chunks(value: Any, level: int = 0) -> Iterator[str]:
    """``stdout_json(value, indent=2)`` in pieces, the opening trees'
    :class:`Children` read as they are written (they may be larger than
    the memory should hold). The same text."""
    pad = "  " * level
    if not _lazy(value):
        yield stdout_json(value, indent=2).replace("\n", "\n" + pad)
    elif isinstance(value, dict):
        items = list(value.items())
        last_key, last = items[-1]
        if all(not _lazy(item) for _key, item in items[:-1]) and len(items) > 1:
            head = stdout_json(dict(items[:-1]), indent=2).replace("\n", "\n" + pad)
            yield head[: -len("\n" + pad + "}")] + ",\n" + pad + "  "
            yield stdout_json(last_key) + ": "
            yield from _json_chunks(last, level + 1)
            yield "\n" + pad + "}"
            return
        yield "{"
        for number, (key, item) in enumerate(items):
            yield ("," if number else "") + "\n" + pad + "  " + stdout_json(key) + ": "
            yield from _json_chunks(item, level + 1)
        yield "\n" + pad + "}"
    else:
        opened = False
        for item in value:
            yield ("," if opened else "[") + "\n" + pad + "  "
            opened = True
            yield from _json_chunks(item, level + 1)
        yield "\n" + pad + "]" if opened else "[]"


def _lazy(value: Any) -> bool:
    """Whether ``value`` holds opening trees still to be read."""
    if isinstance(value, Children):
        return True
    if isinstance(value, dict):
        return any(_lazy(item) for item in value.values())
    if isinstance(value, list):
        return any(_lazy(item) for item in value)
    return False


# -- the tables ------------------------------------------------------------------

# the columns of the tables, translated where they are shown
BY_GAME = (
    N_("game"),
    N_("games"),
    "1-0",
    "0-1",
    "*",
    N_("none"),
    N_("1st won"),
    N_("2nd won"),
    N_("open"),
    N_("dropped"),
    N_("1st %"),
)
PLAYERS = (N_("player"), N_("games"), N_("won"), N_("lost"), N_("dropped"), N_("open"), N_("score"))
# with an analysed index: games analysed, missed wins, actions that allowed a win
ANALYSED = (N_("analysed"), N_("missed"), N_("blunders"))
FINDINGS = (N_("code"), N_("severity"), N_("games"), N_("found"))


def tables(counts: dict[str, Any]) -> Iterator[str]:
    """The counts as tables for a terminal, in the language spoken now."""
    yield _games(counts["games"])
    if not counts["games"]:
        return
    yield ""
    yield _("Games and results")
    rows = [
        [
            _kind(g),
            g["games"],
            *g["results"].values(),
            g["first_mover_won"],
            g["second_mover_won"] + g["won_mover_unknown"],
            g["open"],
            g["dropped"],
            _percent(g["first_mover_rate"]),
        ]
        for g in counts["by_game"]
    ]
    yield from _table(BY_GAME, rows)
    yield ""
    yield _("Length (plies)")
    for item in counts["lengths"]:
        yield "  " + _("{kind}: {games}, {low}–{high}, mean {mean}, median {median}").format(
            kind=_kind(item),
            games=_games(item["games"]),
            low=item["min"],
            high=item["max"],
            mean=number(item["mean"]),
            median=number(item["median"], spec="g"),
        )
        most = max(b["games"] for b in item["bins"])
        for b in item["bins"]:
            bar = "█" * round(30 * b["games"] / most) if most else ""
            span = f"{b['from']}" if b["from"] == b["to"] else f"{b['from']}–{b['to']}"
            yield f"    {span:>9} {b['games']:>6}  {bar}"
    if counts["players"]:
        yield ""
        yield _("Players")
        analysed = "missed" in counts["players"][0]
        rows = [
            [p["name"], p["games"], p["won"], p["lost"], p["dropped"], p["open"]]
            + [_percent(p["score"])]
            + ([p["analysed"], p["missed"], p["blunders"]] if analysed else [])
            for p in counts["players"]
        ]
        yield from _table(PLAYERS + (ANALYSED if analysed else ()), rows)
    yield ""
    yield _("Openings (games, wins of each side, open)")
    for root in counts["openings"]:
        yield f"  {_kind(root)}: {_games(root['games'])}"
        yield from _tree(root["children"], "    ")
    if counts["findings"]:
        yield ""
        yield _("Findings")
        rows = [
            [f["code"], _(f["severity"]) if f["severity"] else "", f["games"], f["found"]]
            for f in counts["findings"]
        ]
        yield from _table(FINDINGS, rows)


def _tree(nodes: list[dict[str, Any]], indent: str) -> Iterator[str]:
    for node in nodes:
        wins = "  ".join(
            f"{side_name(side)} {_share(n, node['games'])}" for side, n in node["wins"].items()
        )
        text = f"{indent}{printable(node['action'])}"
        still = _("open {share}").format(share=_share(node["open"], node["games"]))
        yield f"{text:<28} {node['games']:>6}  {wins}  {still}"
        yield from _tree(node["children"], indent + "  ")


def _games(count: int) -> str:
    return counted(count, "game")


def _kind(item: dict[str, Any]) -> str:
    game = item["game"] or "?"
    return printable(f"{game} {item['board']}" if item["board"] else game)


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "–"


def _percent(rate: float | None) -> str:
    return "–" if rate is None else f"{100 * rate:.0f}%"


def _table(heading: tuple[str, ...], rows: list[list[Any]]) -> Iterator[str]:
    """Columns as wide as their widest cell: text left, numbers right; the
    heading in the language spoken now."""
    cells = [[printable(str(c)) for c in row] for row in [[_(h) for h in heading], *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(heading))]
    for row in cells:
        parts = [
            row[i].ljust(widths[i]) if i == 0 else row[i].rjust(widths[i]) for i in range(len(row))
        ]
        yield "  " + "  ".join(parts).rstrip()
