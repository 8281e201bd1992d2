"""Small command-line fixes: ``render --colors``
takes a JSON object inline and refuses colours no renderer knows, the help
texts say what each command takes, ``find --format json`` is laid out as
JSON usually is."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from hexhop.cli.main import cli
from hexhop.records.colors import COLOR_NAMES, ColorsError, is_color, read_colors

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
KASSEL = SAMPLES / "good" / "hexalit-kassel-1998.hxl"


def run(*args: object) -> Result:
    return CliRunner().invoke(cli, [*map(str, args)])


def render_colors(colors: str | Path, tmp_path: Path) -> Result:
    return run("render", KASSEL, "--plies", "0", "--colors", colors, "--out-dir", tmp_path / "out")


def one_line(result: Result) -> str:
    return " ".join(result.output.split())


# ------------------------------------------------------------ render --colors


def test_a_json_object_given_inline_is_read(tmp_path: Path) -> None:
    result = render_colors('{"dark": "#123456", "light": "saddlebrown"}', tmp_path)
    assert result.exit_code == 0, result.output
    svg = (tmp_path / "out" / "game001-ply000.svg").read_text("utf-8")
    assert "#123456" in svg and "saddlebrown" in svg and "#c9a77c" not in svg


def test_a_file_is_still_read(tmp_path: Path) -> None:
    colors = tmp_path / "club.colors"
    colors.write_text("dark = #123456\nlight = SaddleBrown\n", encoding="utf-8")
    result = render_colors(colors, tmp_path)
    assert result.exit_code == 0, result.output
    assert "#123456" in (tmp_path / "out" / "game001-ply000.svg").read_text("utf-8")


def test_an_unknown_colour_name_in_a_file_names_the_line_and_the_value(tmp_path: Path) -> None:
    colors = tmp_path / "club.colors"
    colors.write_text("# club colours\nlight = #ffffff\ndark = brownish\n", encoding="utf-8")
    result = render_colors(colors, tmp_path)
    assert result.exit_code == 2
    assert f"{colors}:3: dark: 'brownish' is not a colour" in one_line(result)
    assert not (tmp_path / "out").exists()


def test_an_unknown_colour_name_given_inline_is_refused(tmp_path: Path) -> None:
    result = render_colors('{"dark": "brownish"}', tmp_path)
    assert result.exit_code == 2
    assert "--colors: dark: 'brownish' is not a colour" in one_line(result)
    assert not (tmp_path / "out").exists()


def test_inline_json_that_is_not_json_is_a_usage_error(tmp_path: Path) -> None:
    result = render_colors('{"dark": #123456}', tmp_path)
    assert result.exit_code == 2 and "--colors:1:10: not JSON" in one_line(result)


def test_inline_json_nested_too_deeply_is_a_usage_error() -> None:
    with pytest.raises(ColorsError, match="nested too deeply"):
        read_colors('{"dark": ' + "[" * 100_000)


def test_a_path_that_is_no_file_is_still_a_file_error(tmp_path: Path) -> None:
    result = render_colors(tmp_path / "missing.colors", tmp_path)
    assert result.exit_code == 2 and "missing.colors: cannot read" in one_line(result)


def test_the_colour_names_are_the_147_of_svg_and_css() -> None:
    assert len(COLOR_NAMES - {"none", "transparent"}) == 147
    for good in ("saddlebrown", "Gray", "grey", "#abc", "#a1b2c3", "#a1b2c3d4", "rgb(1, 2, 3)"):
        assert is_color(good), good
    for bad in ("brownish", "sky blue", "#12", "#1234567", "", "red;", 3, None):
        assert not is_color(bad), bad


# ------------------------------------------------------------ help texts


def test_generate_game_says_what_it_does_in_generate() -> None:
    text = one_line(run("generate", "--help"))
    assert "--game GAME The game to play random games of (required): Hexalit, Trigeo or" in text
    assert "without a Game tag" not in text


def test_generate_game_still_takes_any_spelling_and_refuses_others() -> None:
    assert run("generate", "--game", "hupfer", "--count", "1").exit_code == 0
    assert run("generate", "--game", "chess").exit_code == 2


# the commands the top-level help says take folders and whole archives, with
# the options each needs to run
FOLDER_COMMANDS = {
    "check": [],
    "fmt": ["--check"],
    "render": ["--plies", "0", "--out-dir", "{out}/r"],
    "analyse": ["--depth", "1"],
    "puzzles": ["--depth", "1", "--out-dir", "{out}/p"],
    "ls": [],
    "index": ["--db", "{out}/i.sqlite"],
    "find": [],
    "dupes": [],
    "stats": [],
    "split": ["--out-dir", "{out}/s"],
    "merge": ["--out", "{out}/m.hxl"],
}


def test_the_top_level_help_names_the_commands_that_take_folders() -> None:
    text = one_line(run("--help"))
    assert "check and fmt also take" not in text
    assert (
        "check, fmt, render, analyse, puzzles and the archive commands (ls, index, find, dupes, "
        "stats, split, merge) also take folders and whole archives; convert, show and moves "
        "take one record." in text
    )


@pytest.mark.parametrize("command", FOLDER_COMMANDS)
def test_each_command_named_takes_a_folder_and_a_whole_archive(
    command: str, tmp_path: Path
) -> None:
    import zipfile

    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "a.hxl").write_bytes(KASSEL.read_bytes())
    archive = tmp_path / "games.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.write(KASSEL, "x/a.hxl")
        zipped.write(SAMPLES / "good" / "hexalit-newsletter-study.hxl", "x/b.hxl")
    for n, path in enumerate((folder, archive)):
        out = tmp_path / f"out{n}"
        out.mkdir()
        options = [option.replace("{out}", str(out)) for option in FOLDER_COMMANDS[command]]
        result = run(command, *options, path)
        assert result.exit_code in (0, 1), (path, result.output)  # dupes: 1 for none found


@pytest.mark.parametrize("command", [["convert", "--to", "json"], ["show"], ["moves"]])
def test_the_commands_of_one_record_refuse_a_folder(command: list[str], tmp_path: Path) -> None:
    (tmp_path / "a.hxl").write_bytes(KASSEL.read_bytes())
    result = run(*command, tmp_path)
    assert result.exit_code == 2 and "is a folder: name one record file in it" in one_line(result)


# ------------------------------------------------------------ find --format json


def test_find_json_is_one_game_a_line_with_the_comma_at_its_end() -> None:
    import json

    text = run("find", SAMPLES / "good", "--format", "json").stdout
    lines = text.splitlines()
    assert lines[0] == "[" and lines[-1] == "]" and len(lines) > 4
    assert all(line.startswith("  {") for line in lines[1:-1])
    assert all(line.endswith("},") for line in lines[1:-2]) and lines[-2].endswith("}")
    jsonl = run("find", SAMPLES / "good", "--format", "jsonl").stdout
    assert json.loads(text) == [json.loads(line) for line in jsonl.splitlines()]


def test_find_json_of_no_game_is_an_empty_array() -> None:
    import json

    result = run("find", KASSEL, "--player", "nobody at all", "--format", "json")
    assert result.exit_code == 1 and result.stdout == "[]\n" and json.loads(result.stdout) == []
