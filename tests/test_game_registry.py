"""One game registry.

The registry in ``hexhop.notation.games`` is the one place that lists the
games, their aliases and file extensions; nothing outside a game's own
modules compares a game's name.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import hexhop.notation
from hexhop.engine.games import rules_for
from hexhop.engine.huepfer.board import board
from hexhop.notation.games import GAMES, GameSpec, find_game, game_for_path, game_list, lookup_game

ROOT = Path(hexhop.notation.__file__).parent.parent
LAYERS = ("notation", "engine", "render", "records", "cli", "api", "archive", "serve")
REGISTRY = "notation/games.py"

# a game's own modules, and the drawers of a family, may tell its games apart
GAME_MODULES = {
    "engine/dice/rules.py",
    "engine/dice/text.py",
    "engine/dice/hexalit.py",
    "engine/dice/trigeo.py",
    "engine/huepfer/rules.py",
    "engine/huepfer/board.py",
    "engine/huepfer/moves.py",
    "engine/huepfer/position.py",
    "render/dice.py",
    "render/huepfer.py",
}

NAMES = (
    "|".join(re.escape(g.name) for g in GAMES)
    + "|"
    + "|".join(re.escape(a) for g in GAMES for a in g.aliases)
)
# a family is named like its first game: ``spec.family == "huepfer"`` is no name test
COMPARISON = re.compile(
    rf"""(?<!\.family )(==|!=)\s*["'](?i:{NAMES})["']"""  # game == "Hexalit"
    rf"""|["'](?i:{NAMES})["']\s*(==|!=)"""  # "Hexalit" == game
    rf"""|\bin\s*[(\[{{][^)\]}}]*["'](?i:{NAMES})["']"""
)  # game in ("Hexalit", ...)
EXTENSION = re.compile(r"""["']\.(?:hxl|trg|hpf)["']""", re.IGNORECASE)
ALIAS = re.compile(
    rf"""(?:^\s*|[{{,]\s*)["'](?:{NAMES})["']\s*:""",  # a name table's key
    re.IGNORECASE,
)
NAME_LIST = re.compile(
    rf"""["'](?:{NAMES})["']\s*,\s*["'](?:{NAMES})["']""",  # ("Hexalit", "Trigeo")
    re.IGNORECASE,
)


def _sources() -> list[tuple[str, str]]:
    return [
        (p.relative_to(ROOT).as_posix(), p.read_text("utf-8"))
        for layer in LAYERS
        for p in sorted((ROOT / layer).rglob("*.py"))
    ]


def _hits(pattern: re.Pattern[str], skip: set[str]) -> list[str]:
    """Lines of code (comments cut off) outside ``skip`` where ``pattern`` is found."""
    return [
        f"{path}:{n}: {line.strip()}"
        for path, text in _sources()
        if path not in skip
        for n, line in enumerate(text.splitlines(), 1)
        if pattern.search(line.split("#", 1)[0])
    ]


def test_the_sources_are_found() -> None:
    paths = {path for path, _ in _sources()}
    assert REGISTRY in paths and "cli/terminal.py" in paths and "engine/generate.py" in paths


def test_no_game_name_comparison_outside_the_game_modules() -> None:
    assert _hits(COMPARISON, GAME_MODULES | {REGISTRY}) == []


def test_the_comparison_pattern_finds_what_it_must() -> None:
    for line in (
        'if game == "Hüpfer":',
        "x = 'trigeo' != game",
        'game in ("Hexalit", "Trigeo")',
        'if report.game == "Huepfer"',
    ):
        assert COMPARISON.search(line), line
    assert not COMPARISON.search('name = "Hexalit"')
    assert not COMPARISON.search('if spec.family == "huepfer":')


def test_the_table_patterns_find_what_they_must() -> None:
    assert ALIAS.search('_NAMES = {"hexalit": "Hexalit", "trigeo": "Trigeo"}')
    assert ALIAS.search('          "huepfer": "Hüpfer", "hupfer": "Hüpfer"}')
    assert not ALIAS.search('    if spec.family == "huepfer":')
    assert EXTENSION.search('RECORD_EXTENSIONS = (".hxl", ".trg", ".hpf")')
    assert NAME_LIST.search('DICE_GAMES = ("Hexalit", "Trigeo")')
    assert not NAME_LIST.search('p = hexhop.position("Hexalit", "N: A7=1; S: F7=1; turn: N")')


def test_only_the_registry_lists_names_extensions_and_aliases() -> None:
    assert _hits(EXTENSION, {REGISTRY}) == []
    assert _hits(ALIAS, {REGISTRY}) == []
    assert _hits(NAME_LIST, {REGISTRY}) == []


@pytest.mark.parametrize(
    "written, name",
    [
        ("Hexalit", "Hexalit"),
        ("TRIGEO", "Trigeo"),
        (" hüpfer ", "Hüpfer"),
        ("Huepfer", "Hüpfer"),
        ("hupfer", "Hüpfer"),
        ("Hu\u0308pfer", "Hüpfer"),
    ],
)
def test_names_and_aliases(written: str, name: str) -> None:
    assert find_game(written).name == name


def test_an_unknown_game() -> None:
    assert lookup_game("chess") is None and lookup_game(None) is None
    with pytest.raises(
        ValueError, match=r"unknown game 'chess': expected Hexalit, Trigeo or Hüpfer"
    ):
        find_game("chess")
    assert game_list() == "Hexalit, Trigeo or Hüpfer"


def test_extensions() -> None:
    assert [game_for_path(p).name for p in ("a.hxl", "b/c.TRG", Path("d.hpf"))] == [
        "Hexalit",
        "Trigeo",
        "Hüpfer",
    ]  # type: ignore[union-attr]
    assert game_for_path("a.txt") is None and game_for_path(3) is None


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_the_registry_agrees_with_the_rules(game: GameSpec) -> None:
    rules = rules_for(game.name)
    assert rules.name == game.name and rules.sides == game.sides
    assert rules_for(game.aliases[0] if game.aliases else game.name.upper()) is rules
    if game.family == "dice":
        assert rules.jump_fields == game.jump_fields  # type: ignore[attr-defined]
    else:
        assert game.board_sizes == (6, 8, 10)
        assert [board(size).label for size in game.board_sizes] == ["6x6", "8x8", "10x10"]
    assert (ROOT / "notation" / game.grammar).is_file()


def test_the_web_app_s_pages_and_scripts_name_no_board_or_extension() -> None:
    """The editor's boards and the games' extensions come from the
    registries through the template context, never written in a page."""
    board_or_extension = re.compile(r"\b[0-9]+x[0-9]+\b|\.(?:hxl|trg|hpf)\b", re.IGNORECASE)
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for folder in ("serve/templates", "serve/static")
        for path in sorted((ROOT / folder).rglob("*"))
        if path.suffix in (".html", ".js")
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if board_or_extension.search(line)
    ]
    assert found == []
    assert board_or_extension.search('<option value="6x6">') and board_or_extension.search("a.HXL")
