"""One vocabulary of options: every name means one thing in every command.

The test walks every command's options. A name that two commands take
must be a term of ``cli/options.py``'s VOCABULARY, made there by
``shared``, with the term's kind of value, in exactly the commands the
term lists; a short name stands for one long name everywhere; the
README's table is the vocabulary; and the options the vocabulary promises
(``--format``, ``-q``, ``-j``) are where the README says they are.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from hexhop.cli.main import COMMANDS, cli
from hexhop.cli.options import VOCABULARY, SharedOption, vocabulary_table

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples" / "good"
KASSEL = str(SAMPLES / "hexalit-kassel-1998.hxl")


def _commands() -> dict[str, click.Command]:
    ctx = click.Context(cli)
    found = {name: cli.get_command(ctx, name) for name in COMMANDS}
    return {name: command for name, command in found.items() if command is not None}


def _name(option: click.Option) -> str:
    """The option as the vocabulary spells it: its last long name
    (``--valid/--invalid`` for a pair of flags)."""
    if option.secondary_opts:
        return "/".join(option.opts + option.secondary_opts)
    return [name for name in option.opts if name.startswith("--")][-1]


def _kind(option: click.Option) -> str:
    if option.is_flag:
        kind = "flag"
    elif isinstance(option.type, click.Path):
        kind = "folder" if not option.type.file_okay else "file"
    else:
        kind = "value"
    return kind + ("+" if option.multiple else "")


def _uses() -> dict[str, list[tuple[str, click.Option]]]:
    uses: dict[str, list[tuple[str, click.Option]]] = {}
    for command_name, command in _commands().items():
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                uses.setdefault(_name(param), []).append((command_name, param))
    return uses


def test_a_name_two_commands_take_is_a_term_of_the_vocabulary():
    shared_names = {name: uses for name, uses in _uses().items() if len(uses) > 1}
    assert shared_names  # the walk found options at all
    for name, uses in shared_names.items():
        assert name in VOCABULARY, f"{name} is taken by {[c for c, _ in uses]}: define it once"


def test_every_use_of_a_term_is_made_by_the_vocabulary_with_its_kind():
    for name, uses in _uses().items():
        if name not in VOCABULARY:
            continue
        term = VOCABULARY[name]
        for command, option in uses:
            assert isinstance(option, SharedOption), f"{command} {name}: not made by shared()"
            assert option.term is term
            assert _kind(option) == term.kind, f"{command} {name}: {_kind(option)}"
            assert tuple(option.opts + option.secondary_opts) == term.names or (
                option.secondary_opts and name == term.names[0]
            )


def test_a_term_lists_exactly_the_commands_that_take_it():
    uses = _uses()
    for name, term in VOCABULARY.items():
        assert tuple(sorted(command for command, _ in uses.get(name, []))) == term.commands, name


def test_no_command_takes_a_term_under_another_name():
    spellings = {spelling: name for name, term in VOCABULARY.items() for spelling in term.names}
    for command, options in _commands().items():
        for param in options.params:
            if not isinstance(param, click.Option) or param.hidden:
                continue
            for spelling in param.opts + param.secondary_opts:
                owner = spellings.get(spelling)
                assert owner in (None, _name(param)), f"{command} {spelling} belongs to {owner}"


def test_a_short_name_stands_for_one_long_name_everywhere():
    meanings: dict[str, set[str]] = {}
    for options in _commands().values():
        for param in options.params:
            if isinstance(param, click.Option):
                for short in (o for o in param.opts if not o.startswith("--")):
                    meanings.setdefault(short, set()).add(_name(param))
    assert meanings == {"-q": {"--quiet"}, "-v": {"--verbose"}, "-j": {"--jobs"}}


ARCHIVE_READERS_AND_WRITERS = {
    "analyse", "check", "convert", "dupes", "find", "fmt", "generate", "index", "ls", "merge",
    "puzzles", "render", "split", "stats",
}  # fmt: skip


@pytest.mark.parametrize(
    ("name", "commands"),
    [
        ("--format", {"check", "find", "dupes", "stats", "moves", "analyse"}),
        ("--quiet", ARCHIVE_READERS_AND_WRITERS),
        ("--jobs", {"check", "index", "analyse", "puzzles", "render"}),
    ],
)
def test_the_options_every_reader_has(name, commands):
    assert commands <= set(VOCABULARY[name].commands)


def test_the_readme_table_is_the_vocabulary():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert vocabulary_table() in readme


def test_every_command_option_has_help():
    for command, options in _commands().items():
        for param in options.params:
            if isinstance(param, click.Option) and not param.hidden:
                assert param.help, f"{command} {_name(param)}"


# -- the old spellings still work, with a note, for one release --------------


def _run(*args: str, cwd: Path):
    """Run hexhop in a new folder of ``cwd``: its result and the files it wrote."""
    folder = cwd / f"run{len(list(cwd.iterdir()))}"
    folder.mkdir()
    before = os.getcwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    finally:
        os.chdir(before)
    files = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    return result, files


NOTE = re.compile(r"hexhop: (\S+) is now (\S+(?: \S+)?); \1 goes in the next release")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (["split", str(SAMPLES), "--out", "games"], ["split", str(SAMPLES), "--out-dir", "games"]),
        (
            ["render", KASSEL, "--plies", "0", "--out", "pics"],
            ["render", KASSEL, "--plies", "0", "--out-dir", "pics"],
        ),
        (["moves", KASSEL, "--ply", "3", "--json"], ["moves", KASSEL, "--ply", "3", "--format", "json"]),
        (["moves", KASSEL, "--ply", "3", "--count"], ["moves", KASSEL, "--ply", "3", "--format", "count"]),
        (["find", str(SAMPLES), "--scan", "--plies", "..40"], ["find", str(SAMPLES), "--scan", "--length", "..40"]),
        (["stats", str(SAMPLES), "--scan", "--depth", "2"], ["stats", str(SAMPLES), "--scan", "--opening-depth", "2"]),
    ],
)  # fmt: skip
def test_an_old_spelling_does_what_the_new_one_does_and_says_so(old, new, tmp_path):
    before, old_files = _run(*old, cwd=tmp_path)
    after, new_files = _run(*new, cwd=tmp_path)
    assert before.exit_code == after.exit_code == 0
    assert before.stdout == after.stdout
    match = NOTE.search(before.stderr)
    assert match is not None, before.stderr
    assert not NOTE.search(after.stderr)
    assert before.stderr.replace(match.group(0) + "\n", "") == after.stderr
    assert old_files == new_files


def test_the_old_and_new_spelling_together_are_a_usage_error(tmp_path):
    result, files = _run("split", str(SAMPLES), "--out", "a", "--out-dir", "b", cwd=tmp_path)
    assert result.exit_code == 2
    assert "Error: give --out-dir only: --out is its old spelling" in result.stderr
    assert files == []


def test_a_required_renamed_option_is_missing_under_its_new_name(tmp_path):
    result, _files = _run("puzzles", str(SAMPLES), cwd=tmp_path)
    assert result.exit_code == 2
    assert "Error: Missing option '--out-dir'." in result.stderr


def test_two_old_spellings_of_one_option_are_a_usage_error(tmp_path):
    result, _files = _run("moves", KASSEL, "--json", "--count", cwd=tmp_path)
    assert result.exit_code == 2
    assert "Error: give --format only: --json is its old spelling" in result.stderr
