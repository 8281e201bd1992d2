"""The ``hexhop`` command group; subcommands are imported only when run."""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import sys
from typing import NoReturn

import click

from hexhop import build_kind
from hexhop.messages import N_, _, language, languages, set_language
from hexhop.notation.findings import NotationError
from hexhop.records.errors import RecordsError
from hexhop.records.text import printable

from .help import Translated, click_speaks_hexhop
from .interrupt import (
    EXIT_SIGINT,
    EXIT_SIGTERM,
    catches_interrupts,
    checkpoint,
    exit_code,
    ignore_signals,
    watch_signals,
)

COMMANDS = {
    "analyse": (
        "analyse_cmd",
        "analyse",
        N_("Find missed wins and actions that allowed a forced win."),
    ),
    "check": ("check_cmd", "check", N_("Check that every action of every game is legal.")),
    "fmt": ("fmt_cmd", "fmt", N_("Rewrite records in canonical form.")),
    "puzzles": (
        "puzzles_cmd",
        "puzzles",
        N_("Write puzzles: positions from games with one winning first action."),
    ),
    "render": (
        "render_cmd",
        "render",
        N_("Draw positions as SVG, PNG, PDF, GIF, sheets or HTML pages."),
    ),
    "convert": (
        "convert_cmd",
        "convert",
        N_("Convert a record to JSON (the full replay) and back."),
    ),
    "show": ("show_cmd", "show", N_("Show a position as a diagram in the terminal.")),
    "moves": ("moves_cmd", "moves", N_("List every legal action of a position.")),
    "generate": ("generate_cmd", "generate", N_("Write random legal games as a record archive.")),
    "ls": (
        "ls_cmd",
        "ls",
        N_("List the record files of an archive and their games, as every command reads them."),
    ),
    "split": ("split_cmd", "split", N_("Write every game of an archive to a file of its own.")),
    "merge": (
        "merge_cmd",
        "merge",
        N_("Write several archives as one, optionally without duplicates."),
    ),
    "index": (
        "index_cmd",
        "index",
        N_("Index an archive's games in SQLite for find, dupes and stats."),
    ),
    "find": (
        "find_cmd",
        "find",
        N_("Find games by player, tag, result, position or opening."),
    ),
    "dupes": ("dupes_cmd", "dupes", N_("Find games played twice (the same actions).")),
    "crosstable": (
        "crosstable_cmd",
        "crosstable",
        N_("The crosstable of an event: each player against each, points and tie-break."),
    ),
    "ratings": (
        "ratings_cmd",
        "ratings",
        N_("Elo ratings of every player over an archive, after each event."),
    ),
    "players": (
        "players_cmd",
        "players",
        N_("List each player with every spelling, and the players that may be one person."),
    ),
    "serve": (
        "serve_cmd",
        "serve",
        N_("Serve an archive as a web application: search, games, players, the editor."),
    ),
    "stats": (
        "stats_cmd",
        "stats",
        N_("Count games, results, lengths, players, openings, findings."),
    ),
}


click_speaks_hexhop()


class LazyGroup(Translated, click.Group):
    """Imports a subcommand's module only when that subcommand runs, so that
    ``hexhop --version`` and ``--help`` start fast."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attr, _ = COMMANDS[name]
        return getattr(importlib.import_module(f"{__package__}.{module}"), attr)

    def main(self, *args, **kwargs):
        """Run the program, in the language of ``--lang`` or the environment;
        a caller in the same process gets back the language it spoke."""
        before = language()
        try:
            return super().main(*args, **kwargs)
        finally:
            set_language(before)

    @catches_interrupts
    def make_context(self, *args, **kwargs) -> click.Context:
        # everything a catcher calls runs inside its try: an interrupt raised
        # in a callee before it would reach click's "Aborted!"
        try:
            if kwargs.get("parent") is None:  # the language of the environment, until --lang
                set_language()
            return super().make_context(*args, **kwargs)
        except KeyboardInterrupt as stop:
            _interrupted(stop)

    @catches_interrupts
    def invoke(self, ctx: click.Context):
        """Run the command; Ctrl-C or SIGTERM where the command does not
        handle them ends it quietly (no traceback, no "Aborted!"), and
        record text in an error message cannot drive the terminal; an error
        the library raises is told as a click error."""
        try:
            checkpoint()  # a signal that came while the arguments were read
            return super().invoke(ctx)
        except click.ClickException as error:
            # click types message Final, but the same exception must go on
            # (a UsageError keeps its context and help hint)
            error.message = _printable(error.message)  # type: ignore[misc]
            raise
        except RecordsError as error:
            told = click.ClickException(_printable(str(error)))
            # click types exit_code ClassVar; its main reads it from the instance
            told.exit_code = error.exit_code  # type: ignore[misc]
            raise told from None
        except NotationError as error:  # a file the reader refuses whole (IO04): unreadable
            finding = error.finding
            told = click.ClickException(_printable(f"{finding.code} {finding.message}"))
            told.exit_code = 2  # type: ignore[misc]
            raise told from None
        except KeyboardInterrupt as stop:
            _interrupted(stop)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_options(ctx, formatter)
        self.format_commands(ctx, formatter)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, _(COMMANDS[name][2])) for name in self.list_commands(ctx)]
        with formatter.section(_("Commands")):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(
    package_name="hexhop",
    prog_name="hexhop",
    message=f"%(prog)s, version %(version)s, {build_kind()}",
)
@click.option(
    "--lang",
    type=click.Choice(languages()),
    is_eager=True,  # before --help, so that the help is in this language
    expose_value=False,
    callback=lambda ctx, param, value: value and set_language(value),
    help="Language of the messages (default: from HEXHOP_LANG, LANGUAGE, LC_ALL, "
    "LC_MESSAGES or LANG, the first one set).",
)
def cli() -> None:
    """Validate, format and draw recorded games of Hexalit, Trigeo and Hüpfer:
    pictures (SVG, PNG, PDF, GIF, sheets) and web pages (HTML) of every position.

    A RECORD is a record file, - (standard input) or one member of a .zip
    or .tar(.gz) archive written as the check report names it
    (club.zip:games/a.hxl). check, fmt, render, analyse, puzzles and the
    archive commands (ls, index, find, dupes, stats, split, merge) also take
    folders and whole archives; convert, show and moves take one record.
    Run hexhop COMMAND --help for its options and examples."""


def _interrupted(stop: KeyboardInterrupt) -> NoReturn:
    click.echo(_("interrupted"), err=True)
    sys.exit(exit_code(stop))


def main() -> None:
    """The ``hexhop`` program: Ctrl-C and SIGTERM stop it from here on."""
    escape_what_output_cannot_hold()
    watch_signals()
    try:
        cli(prog_name="hexhop")
    except KeyboardInterrupt as stop:  # between two commands' handlers
        _exit_now(exit_code(stop))
    except SystemExit as done:
        if done.code in (EXIT_SIGINT, EXIT_SIGTERM):
            _exit_now(done.code)
        raise
    finally:
        ignore_signals()


def escape_what_output_cannot_hold() -> None:
    """Standard output and error write a character their encoding cannot
    hold as an escape (``\\u2013``, ``\\xfc``) instead of failing: every
    command and every click message, in any locale and ``PYTHONIOENCODING``.
    A stream that is not a text file (``io.StringIO``) is left as it is."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            with contextlib.suppress(ValueError, OSError):  # closed, or not writable
                stream.reconfigure(errors="backslashreplace")


def _exit_now(code: int) -> NoReturn:
    """Exit with ``code`` after an interrupt. Python would kill itself with
    SIGINT instead when the interrupt passed through ``exec`` of a string
    (as dataclasses do while a module is imported)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


def _printable(message: str) -> str:
    """``message`` with every line made safe for the terminal."""
    return "\n".join(printable(line) for line in message.split("\n"))
