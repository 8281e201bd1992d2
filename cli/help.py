"""Help in the language chosen on the command line.

click reads a command's help texts when its module is imported, before
``--lang`` or the environment has chosen a language; so the English texts
stay as they are written (they are the message ids) and are translated
when the help is shown. What the registries know (the Hüpfer boards, the
records' extensions) is written into a help text then too, from a
placeholder (:func:`from_registries`), so that a board or game added to a
registry is named in every help.
"""

from __future__ import annotations

import copy
import inspect
import re
from typing import Any

import click

from hexhop.messages import N_, _, ngettext

#: click's own help of --help and --version, shown through the catalogue too
CLICK_HELP = (N_("Show this message and exit."), N_("Show the version and exit."))

#: click's names in a usage line and for the values of options, shown
#: through the catalogue: the options, the PATHS argument and the types
METAVARS = {
    text: text
    for text in (
        N_("[OPTIONS]"),
        N_("PATHS"),
        N_("INTEGER RANGE"),
        N_("INTEGER"),
        N_("FLOAT RANGE"),
        N_("FLOAT"),
        N_("TEXT"),
        N_("PATH"),
        N_("FILENAME"),
        N_("DIRECTORY"),
        N_("FILE"),
        # the value names the options give themselves
        N_("GAME"),
        N_("SPEC"),
        N_("CELL"),
        N_("NAME"),
        N_("PATTERN"),
        N_("DIR"),
        N_("CHARS"),
        N_("ACTIONS"),
        N_("SIDE"),
        N_("CODE"),
        N_("ADDRESS"),
        N_("FROM-TO"),
        N_("FROM..TO"),
        N_("KEY=VALUE"),
    )
}
_METAVAR = re.compile(
    r"(?<![A-Z_])("
    + "|".join(re.escape(text) for text in sorted(METAVARS, key=len, reverse=True))
    + r")(?![A-Z_])"
)
#: the usage line's own names; an argument keeps its name, which the help
#: text uses, unless it is PATHS
USAGE_METAVARS = ("[OPTIONS]", "PATHS")


def metavar(text: str, names: tuple[str, ...] | None = None) -> str:
    """A usage piece or an option's value name with click's English names
    (only ``names`` of them, when given) in the language spoken now:
    ``[OPTIONS]`` is ``[OPTIONEN]`` in German, ``INTEGER RANGE`` ``GANZZAHL``."""

    def shown(found: re.Match[str]) -> str:
        word = found.group()
        return _(METAVARS[word]) if names is None or word in names else word

    return _METAVAR.sub(shown, text)


def from_registries(text: str) -> str:
    """``text`` with ``{boards}`` (``6x6, 8x8, 10x10``), ``{default_board}``
    (``6x6``) and ``{record_globs}`` (``*.hxl, *.trg, *.hpf``) written from
    the registries as they are now; other braces are left as they are."""
    from hexhop.notation.boards import DEFAULT_HUEPFER_SIZE, board_label, huepfer_labels
    from hexhop.notation.games import record_extensions

    words = {
        "{boards}": ", ".join(huepfer_labels()),
        "{default_board}": board_label(DEFAULT_HUEPFER_SIZE),
        "{record_globs}": ", ".join(f"*{extension}" for extension in record_extensions()),
    }
    for placeholder, word in words.items():
        text = text.replace(placeholder, word)
    return text


class Translated(click.Command):
    """A command whose help, option help and epilog are shown in the
    language spoken when the help is asked for."""

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        pieces = " ".join(
            metavar(piece, USAGE_METAVARS) for piece in self.collect_usage_pieces(ctx)
        )
        formatter.write_usage(ctx.command_path, pieces, _("Usage:") + " ")

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        shown = copy.copy(self)
        shown.help = from_registries(_(inspect.cleandoc(self.help))) if self.help else self.help
        super(Translated, shown).format_help_text(ctx, formatter)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [
            row
            for param in self.get_params(ctx)
            if not isinstance(param, click.Argument) and (row := _help_record(param, ctx))
        ]
        if rows:
            with formatter.section(_("Options")):
                formatter.write_dl(rows)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        shown = copy.copy(self)
        shown.epilog = _(inspect.cleandoc(self.epilog)) if self.epilog else self.epilog
        super(Translated, shown).format_epilog(ctx, formatter)


def click_speaks_hexhop() -> None:
    """Let click's own messages (``Error: …``, ``Missing argument``,
    ``[default: …]``) go through hexhop's catalogue, in the language chosen
    for the run: click looks them up with gettext's functions, which read
    the environment and the global catalogue only. English stays
    click's own text (the English ids are click's)."""
    import click.core
    import click.decorators
    import click.exceptions
    import click.formatting
    import click.parser
    import click.types

    for module in (
        click.core,
        click.decorators,
        click.exceptions,
        click.formatting,
        click.parser,
        click.types,
    ):
        module._ = _  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = ngettext  # type: ignore[attr-defined]
    # a missing argument is named as the usage line names it (PFADE in German)
    hint = click.core.Argument.get_error_hint
    if not getattr(hint, "hexhop", False):

        def shown_hint(self: click.Argument, ctx: click.Context | None) -> str:
            return metavar(hint(self, ctx), USAGE_METAVARS)

        shown_hint.hexhop = True  # type: ignore[attr-defined]
        click.core.Argument.get_error_hint = shown_hint  # type: ignore[method-assign]


def _help_record(param: click.Parameter, ctx: click.Context) -> tuple[str, str] | None:
    shown: Any = copy.copy(param)
    if getattr(param, "help", None):
        shown.help = from_registries(_(shown.help))
    if isinstance(param, click.Option) and not param.is_flag:
        shown.metavar = metavar(param.metavar or param.make_metavar(ctx))
    return shown.get_help_record(ctx)


def help_texts(command: click.Command) -> list[str]:
    """Every English help text of ``command`` (its help and epilog without
    their indentation, and its options' help): the message ids its help is
    shown with."""
    texts = [inspect.cleandoc(command.help or ""), inspect.cleandoc(command.epilog or "")]
    texts += [getattr(param, "help", None) or "" for param in command.params]
    return [text for text in texts if text]
