"""The options of the commands: one vocabulary, defined here once.

Every option name that more than one command takes is a :class:`Term` of
:data:`VOCABULARY`: one meaning, one kind of value (a flag, a file, a
folder, a value; given once or repeatable), and the list of commands that
take it. The commands make such options with :func:`shared`, so that a
name cannot drift to a second meaning: ``tests/test_option_vocabulary.py``
walks every command's options against this table, and the README's table
of options is this table.

An old spelling stays for one release as a hidden :func:`renamed` option
that says what to write instead.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any, TypeVar

import click

from hexhop.messages import _
from hexhop.notation.boards import huepfer_labels
from hexhop.notation.games import game_list, lookup_game, record_extensions
from hexhop.notation.numbers import MAX_DIGITS, ascii_decimal, ascii_int

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Term:
    """One option name and what it means in every command that takes it."""

    names: tuple[str, ...]  # the spellings, short first: ("-q", "--quiet")
    kind: str  # "flag", "file", "folder" or "value"; "+" after it: repeatable
    meaning: str  # for the README's table (the commands' help says it in their words)
    commands: tuple[str, ...]


def _term(names: str, kind: str, commands: str, meaning: str) -> Term:
    return Term(tuple(names.split()), kind, meaning, tuple(sorted(commands.split())))


_READERS = (
    "analyse check crosstable dupes find index ls merge players puzzles ratings render split stats"
)
_FILTERS = "crosstable find ratings stats"


def _filter_terms() -> list[Term]:
    """The options of the filters (archive/filters.py) that only the
    commands that search take, as the table of filters defines them."""
    from hexhop.archive.filters import BUILT_IN, FILTERS

    elsewhere = ("--game", "--board", "--position", "--missed-win", "--blunder", "--min-depth")
    return [
        _term(
            item.option,
            ("flag" if item.flag else "value") + ("+" if item.multiple else ""),
            _FILTERS,
            item.meaning or item.help,
        )
        for item in FILTERS.values()
        if item.cli and item.name in BUILT_IN and item.option not in elsewhere
    ]


VOCABULARY: dict[str, Term] = {
    term.names[-1]: term
    for term in (
        _term(
            "--format",
            "value",
            "analyse check crosstable dupes find ls moves players puzzles ratings render show "
            "stats",
            "The format of what the command writes: a report format (text, table, json, "
            "jsonl, csv, junit) or a picture format (svg, png, pdf…); each command lists "
            "its own.",
        ),
        _term(
            "-q --quiet",
            "flag",
            "analyse check convert crosstable dupes find fmt generate index ls merge players "
            "puzzles ratings render serve split stats",
            "Say less: no progress bar and no summary of what was written on standard "
            "error (check: only the summary line); problems are still told.",
        ),
        _term(
            "-v --verbose",
            "flag",
            "merge split",
            "Name every game as it is written or left out.",
        ),
        _term(
            "-j --jobs",
            "value",
            "analyse check index puzzles render serve",
            "Work in this many processes, 0: one per core; the output is the same as with 1.",
        ),
        _term(
            "--dask",
            "value",
            "analyse check index puzzles",
            "Work on the Dask scheduler at this address (local: a cluster of -j processes "
            "here); the output is the same as with -j 1. Needs pip install 'hexhop[dask]'.",
        ),
        _term(
            "--out",
            "file",
            "convert crosstable generate merge ratings",
            "The one file to write (instead of standard output, where the command has one).",
        ),
        _term(
            "--out-dir",
            "folder",
            "puzzles render split",
            "The folder to write the command's files to (made if missing).",
        ),
        _term(
            "--force",
            "flag",
            "analyse convert crosstable dupes find generate merge puzzles ratings render stats",
            "Overwrite the files the command writes if they exist (never an input).",
        ),
        _term(
            "--game",
            "value",
            "analyse check convert crosstable dupes find fmt generate index ls merge moves "
            "players puzzles ratings render show split stats",
            "The game: Hexalit, Trigeo or Hüpfer (any spelling) — of records without a "
            "Game tag, or the games to search or write.",
        ),
        _term(
            "--board",
            "value",
            "crosstable find generate moves ratings show stats",
            f"A Hüpfer board: {', '.join(huepfer_labels())}.",
        ),
        _term(
            "--encoding",
            "value",
            _READERS + " convert fmt moves show",
            "Read every file with this encoding (utf-8, cp1252, latin-1, utf-16…: any "
            "name Python's codecs know) instead of telling it from the bytes; fmt "
            "--in-place then writes the file back as UTF-8.",
        ),
        _term(
            "--glob",
            "value+",
            _READERS.replace("analyse ", "").replace("puzzles ", "").replace("render ", ""),
            "Which files of a folder or archive to read (repeatable; default: "
            f"{', '.join(f'`*{extension}`' for extension in record_extensions())}).",
        ),
        _term(
            "--db",
            "value",
            "crosstable dupes find index players puzzles ratings serve stats",
            "The index file (see hexhop index).",
        ),
        _term(
            "--names",
            "file",
            "crosstable dupes find index players ratings stats",
            "The club's names file: which spellings name one player, and the name shown "
            "(default: hexhop-names.txt beside the archive or index; docs/archive.md).",
        ),
        _term(
            "--scan",
            "flag",
            "crosstable dupes find players ratings stats",
            "Read the ARCHIVE paths even if they are indexed.",
        ),
        _term(
            "--event",
            "value",
            "crosstable ratings",
            "The games of one event: the Event tag's whole value or a glob.",
        ),
        _term(
            "--keep-duplicates",
            "flag",
            "crosstable ratings stats",
            "Count every copy of a game the archive holds twice (default: the first, "
            "as hexhop dupes finds them).",
        ),
        _term(
            "--index",
            "value",
            "moves render show",
            "Which game of a file that holds several (1 = the first).",
        ),
        _term("--ply", "value", "moves show", "One ply: a number or last."),
        _term(
            "--position",
            "value",
            "crosstable find moves ratings show stats",
            "A position, as a record's Position tag writes it.",
        ),
        _term(
            "--color",
            "value",
            "check show",
            "auto, always or never: colour on a terminal unless NO_COLOR is set.",
        ),
        _term(
            "--depth",
            "value",
            "analyse index puzzles",
            "How deep the search for a forced win goes, in own actions.",
        ),
        _term(
            "--missed-win",
            "flag",
            _FILTERS,
            "Games where a side had a forced win and played something else (an index made "
            "with index --analyse).",
        ),
        _term(
            "--blunder",
            "flag",
            _FILTERS,
            "Games where an action allowed the opponent a forced win (an index made with "
            "index --analyse).",
        ),
        _term(
            "--min-depth",
            "value",
            "crosstable find puzzles ratings stats",
            "Only wins of at least this many own actions (missed, allowed, or a puzzle's).",
        ),
        _term(
            "--max-nodes",
            "value",
            "analyse index puzzles",
            "The most actions the search looks at per position.",
        ),
        _term(
            "--max-seconds",
            "value",
            "analyse check index puzzles",
            "A time limit in seconds: per file for check, per position for the search.",
        ),
        _term(
            "--max-plies",
            "value",
            "check generate",
            "The most plies of a game: longer games are not replayed (check) or end "
            "there (generate).",
        ),
        _term(
            "--page",
            "value",
            "crosstable puzzles ratings render",
            "The paper of PDF and sheet pages: a4, a5 or letter (default: the locale's "
            "paper, Letter for en_US and en_CA, else A4).",
        ),
        _term(
            "--landscape",
            "flag",
            "crosstable puzzles ratings render",
            "Turn the pages on their side.",
        ),
        _term(
            "--size",
            "value",
            "puzzles render",
            "The width of a diagram in pixels, 250 at the least.",
        ),
        _term(
            "--pieces",
            "value",
            "puzzles render show",
            "dice or chess: Trigeo's dice as chess pieces (King 1, Pawn 2, Knight 3, "
            "Bishop 4, Rook 5, Queen 6), as its rules allow; other games as always.",
        ),
        _term(
            "--limit",
            "value",
            "find puzzles stats",
            "List or write at most this many rows or puzzles (0: all).",
        ),
        _term(
            "--seed",
            "value",
            "generate puzzles",
            "The seed of the pseudo-random choices: the same seed gives the same output.",
        ),
        _term(
            "--export",
            "file",
            "dupes find",
            "Write the games found to this record file, each in its own text.",
        ),
        *_filter_terms(),
    )
}


def vocabulary_table() -> str:
    """The README's table of :data:`VOCABULARY` (Markdown)."""
    rows = ["| option | meaning | commands |", "|---|---|---|"]
    for term in VOCABULARY.values():
        names = ", ".join(f"`{name}`" for name in term.names)
        rows.append(f"| {names} | {term.meaning} | {' '.join(term.commands)} |")
    return "\n".join(rows) + "\n"


class SharedOption(click.Option):
    """An option of the vocabulary: :attr:`term` is its entry."""

    def __init__(self, *args: Any, term: Term, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.term = term


def shared(name: str, *declarations: str, **attributes: Any) -> Callable[[F], F]:
    """The option ``name`` of :data:`VOCABULARY` (``"--out"``), spelled as
    the vocabulary spells it; ``declarations`` may add the parameter's
    Python name, ``attributes`` are click's (the help in the command's words)."""
    term = VOCABULARY[name]
    return click.option(*term.names, *declarations, cls=SharedOption, term=term, **attributes)


def renamed(old: str, new: str, parameter: str, *, flag_value: Any = None) -> Callable[[F], F]:
    """The hidden old spelling ``old`` of the option ``new`` (whose Python
    name is ``parameter``): it still works for one release and says what
    to write instead. ``flag_value``: ``old`` is a flag that means
    ``new flag_value`` (``--json`` for ``--format json``)."""

    def stash(ctx: click.Context, param: click.Parameter, value: Any) -> None:
        if value is None or value is False:
            return
        click.echo(
            _("hexhop: {old} is now {new}; {old} goes in the next release").format(
                old=old, new=new if flag_value is None else f"{new} {flag_value}"
            ),
            err=True,
        )
        if f"hexhop.renamed.{parameter}" in ctx.meta:  # two old spellings of one option
            raise click.UsageError(
                _("give {option} only: {old} is its old spelling").format(
                    option=new, old=ctx.meta[f"hexhop.renamed.{parameter}.old"]
                )
            )
        if flag_value is None:  # checked and converted as the new option's value is
            new_option = next(p for p in ctx.command.params if p.name == parameter)
            value = new_option.type_cast_value(ctx, value)
        ctx.meta[f"hexhop.renamed.{parameter}"] = value if flag_value is None else flag_value
        ctx.meta[f"hexhop.renamed.{parameter}.old"] = old

    return click.option(
        old,
        "renamed_" + old.lstrip("-").replace("-", "_"),
        is_flag=flag_value is not None,
        default=None,
        hidden=True,
        expose_value=False,
        callback=stash,
    )


def old_spelling(parameter: str, value: Any, *, required: bool = False) -> Any:
    """``value`` of the option ``parameter`` of the running command, or
    what its old spelling gave when the new one was not given (a usage
    error when both were; a missing option when ``required`` and neither)."""
    ctx = click.get_current_context()
    option = next(param for param in ctx.command.params if param.name == parameter)
    key = f"hexhop.renamed.{parameter}"
    if key in ctx.meta:
        if ctx.get_parameter_source(parameter) is click.core.ParameterSource.COMMANDLINE:
            raise click.UsageError(
                _("give {option} only: {old} is its old spelling").format(
                    option=option.opts[-1], old=ctx.meta[f"{key}.old"]
                )
            )
        value = ctx.meta[key]
    if required and value is None:
        raise click.MissingParameter(ctx=ctx, param=option)
    return value


def game_name(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """The ``--game`` callback: the game's name for any of its spellings."""
    if value is None:
        return None
    game = lookup_game(value)
    if game is None:
        raise click.BadParameter(
            _("{value}: expected {games}").format(value=repr(value), games=game_list(_("or")))
        )
    return game.name


game_option = shared(
    "--game",
    callback=game_name,
    metavar="GAME",
    help=f"The game of records without a Game tag: {game_list()}.",
)


class Count(click.IntRange):
    """A whole number in the digits 0-9 (:func:`~hexhop.notation.numbers.ascii_int`),
    within a range: click's own ``int`` reads ``٣`` as 3 and ``" 3"`` too.

    A ``-`` sign is read (a seed may be below zero; elsewhere the range
    refuses it in click's words); no ``+``, no blank, no ``_``, at most
    ``MAX_DIGITS`` digits."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            minus = value.startswith("-")
            number = ascii_int(value[1:] if minus else value)
            if number is None:
                self.fail(_not_a_number(value, self.name), param, ctx)
            value = -number if minus else number
        return super().convert(value, param, ctx)


class Seconds(click.FloatRange):
    """A number of seconds in the digits 0-9 with at most one point (``0.5``,
    :func:`~hexhop.notation.numbers.ascii_decimal`), within a range: no
    exponent, ``inf`` or ``nan``, which click's own ``float`` reads."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            number = ascii_decimal(value)
            if number is None:
                self.fail(_not_a_number(value, self.name), param, ctx)
            value = number
        return super().convert(value, param, ctx)


def _not_a_number(value: str, kind: str) -> str:
    """click's own words for a value that is not a number (English, as click
    speaks), and the rule it broke."""
    shown = value if len(value) <= 40 else value[:40] + "…"
    return f"{shown!r} is not a valid {kind}. Write it in at most {MAX_DIGITS} digits 0-9."


index_option = shared(
    "--index",
    type=Count(1),
    default=1,
    show_default=True,
    help="Which game of a file that holds several (1 = the first).",
)


class DiagramWidth(Count):
    """The width of a diagram in pixels: from the smallest at which its pips
    and labels can be read (``hexhop.render.svg_parts.MIN_SIZE``) up."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = Count().convert(value, param, ctx)
        if self.min is not None and number < self.min:
            self.fail(
                _(
                    "{value} pixels is too narrow: a diagram needs at least {least} pixels "
                    "for its pips and labels to be read"
                ).format(value=number, least=self.min),
                param,
                ctx,
            )
        return super().convert(number, param, ctx)


def diagram_width(most: int = 4000) -> DiagramWidth:
    """The type of ``--size`` (the render package is imported here, not
    by every command that reads this module)."""
    from hexhop.render.svg_parts import MIN_SIZE

    return DiagramWidth(MIN_SIZE, most)


def format_option(formats: Sequence[str], help: str) -> Callable[[F], F]:
    """``--format`` with the formats a command writes, the first one the default."""
    return shared(
        "--format",
        "fmt",
        type=click.Choice(formats),
        default=formats[0],
        show_default=True,
        help=help,
    )


def quiet_option(help: str) -> Callable[[F], F]:
    return shared("--quiet", "quiet", is_flag=True, help=help)


def force_option(help: str) -> Callable[[F], F]:
    return shared("--force", is_flag=True, help=help)


def names_option(
    help: str = "The club's names file: which spellings name one player and the name shown "
    "(docs/archive.md); default: hexhop-names.txt in the archive's folder.",
) -> Callable[[F], F]:
    return shared("--names", "names_file", type=click.Path(dir_okay=False), default=None, help=help)


def keep_duplicates_option(
    help: str = "Count every copy of a game the archive holds more than once (default: "
    "the first copy in archive order; hexhop dupes lists them).",
) -> Callable[[F], F]:
    return shared("--keep-duplicates", is_flag=True, help=help)


class BoardChoice(click.Choice):
    """A Hüpfer board label (``8x8``) of the board registry as it is when
    the option is read or its help shown, not when the command was
    imported: a board added to :mod:`hexhop.notation.boards` is taken."""

    def __init__(self) -> None:
        super().__init__(huepfer_labels())

    @property
    def choices(self) -> tuple[str, ...]:
        return huepfer_labels()

    @choices.setter
    def choices(self, value: object) -> None:
        """click's constructor sets the choices once: they are read from the registry."""


def _encoding(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """The codec ``--encoding`` names, set for every reader of this run
    (None, when not given, sets the default back: a run never inherits
    another's)."""
    from hexhop.notation.forced import force_encoding, forced_codec

    if value is None:
        force_encoding(None)
        return None
    try:
        codec = forced_codec(value)
    except LookupError as error:
        raise click.BadParameter(str(error)) from None
    force_encoding(codec)
    ctx.call_on_close(lambda: force_encoding(None))  # the run's alone, not the next one's
    return codec


def encoding_option(
    help: str = "Read the files with this encoding (utf-8, cp1252, utf-16…) instead of "
    "telling it from their bytes.",
) -> Callable[[F], F]:
    return shared(
        "--encoding",
        metavar="NAME",
        default=None,
        expose_value=False,
        is_eager=True,
        callback=_encoding,
        help=help,
    )


def glob_option(help: str) -> Callable[[F], F]:
    return shared("--glob", "globs", multiple=True, metavar="PATTERN", help=help)


def page_options(help: str) -> Callable[[F], F]:
    """``--page a4|a5|letter`` and ``--landscape``: the paper of the pages a
    command writes (``help`` says which); no ``--page``: the locale's."""
    from hexhop.render.pages import PAGE_NAMES

    page = shared(
        "--page",
        type=click.Choice(PAGE_NAMES, case_sensitive=False),
        default=None,
        help=help,
    )
    landscape = shared("--landscape", is_flag=True, help="Turn the pages on their side.")

    def both(function: F) -> F:
        return page(landscape(function))

    return both


def unused_options(ctx: click.Context, fmt: str, only_for: dict[str, tuple[str, ...]]) -> list[str]:
    """A warning for each option given on the command line that ``--format
    fmt`` does not use: ``only_for`` maps a parameter to the formats that use it."""
    from click.core import ParameterSource

    return [
        _("warning: {option} has no effect with --format {format}").format(
            option=param.opts[0], format=fmt
        )
        for param in ctx.command.params
        if fmt not in only_for.get(param.name or "", (fmt,))
        and ctx.get_parameter_source(param.name or "") == ParameterSource.COMMANDLINE
    ]


def _jobs(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """The ``-j`` callback: 0 is one process per core."""
    if value == 0:
        from hexhop.records.jobs import cores

        return cores()
    return value


def jobs_option(help: str, default: int | None = 1) -> Callable[[F], F]:
    """``-j/--jobs N``, one meaning on every command: work in N processes
    (0: one per core), with the output of one process in the same order.
    ``default`` None: the command chooses for the input (check and index)."""
    return shared(
        "--jobs",
        type=Count(0, 64),
        default=default,
        show_default=default is not None,
        callback=_jobs,
        help=help,
    )


def dask_option(help: str) -> Callable[[F], F]:
    """``--dask ADDRESS``, one meaning on every command: the work of ``-j``
    on a Dask cluster (``local``: one of ``-j`` processes here), with the
    output of one process."""
    return shared("--dask", metavar="ADDRESS", default=None, help=help)


def pieces_option(help: str) -> Callable[[F], F]:
    """``--pieces dice|chess``: how Trigeo's dice are drawn (None when not
    given: the command's default, or a colours file's ``pieces`` entry)."""
    from hexhop.render.chess_pieces import PIECES

    return shared("--pieces", type=click.Choice(PIECES), default=None, help=help)


def pieces_only_for_trigeo(games: list[str], *, position: bool = False) -> str:
    """The warning that ``--pieces chess`` draws ``games`` (none of them
    Trigeo) as always, as their rules know no set of chess pieces;
    ``position``: ``show``'s one position."""
    names = ", ".join(sorted(set(games)))
    if position:
        return _(
            "warning: --pieces chess applies to Trigeo only, whose rules allow a set of "
            "chess pieces: this {game} position is shown as always"
        ).format(game=names)
    return _(
        "warning: --pieces chess applies to Trigeo only, whose rules allow a set of "
        "chess pieces: the {games} games are drawn as always"
    ).format(games=names)


def use_color(mode: str, stream: IO[str]) -> bool:
    """Whether to colour: ``always``, ``never``, or for ``auto`` when
    ``stream`` is a terminal and the NO_COLOR convention (no-color.org: the
    variable set and not empty) does not ask for none."""
    if mode != "auto":
        return mode == "always"
    return stream.isatty() and not os.environ.get("NO_COLOR")
