"""The ``hexhop`` command group; subcommands are imported only when run."""

from __future__ import annotations

import importlib

import click

COMMANDS = {
    "check": ("check_cmd", "check", "Check that every action of every game is legal."),
    "fmt": ("fmt_cmd", "fmt", "Rewrite records in canonical form."),
    "render": ("render_cmd", "render", "Draw a record's positions as SVG, PNG, GIF or a sheet."),
    "convert": ("convert_cmd", "convert", "Convert a record to JSON (the full replay) and back."),
    "show": ("show_cmd", "show", "Show a position as a diagram in the terminal."),
    "moves": ("moves_cmd", "moves", "List every legal action of a position."),
    "generate": ("generate_cmd", "generate", "Write random legal games as a record archive."),
}


class LazyGroup(click.Group):
    """Imports a subcommand's module only when that subcommand runs, so that
    ``hexhop --version`` and ``--help`` start fast."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attr, _ = COMMANDS[name]
        return getattr(importlib.import_module(f"{__package__}.{module}"), attr)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][2]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="hexhop", prog_name="hexhop")
def cli() -> None:
    """Validate, format and draw recorded games of Hexalit, Trigeo and Hüpfer."""


def main() -> None:
    cli(prog_name="hexhop")
