"""Every command that writes a file refuses one that is already there,
the same way: the same message, exit 2 (exit 1 means findings, or that
nothing matched), and the file left as it was; --force overwrites it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from hexhop.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
GAME = str(ROOT / "samples" / "good" / "hexalit-kassel-1998.hxl")
KEEP = b"somebody's file\n"


def commands(out: str) -> dict[str, list[str]]:
    return {
        "convert": ["convert", GAME, "--to", "json", "--out", out],
        "find": ["find", "--scan", GAME, "--game", "Hexalit", "--export", out],
        "dupes": ["dupes", "--scan", GAME, GAME, "--export", out],
        "merge": ["merge", GAME, "--out", out],
        "stats": ["stats", "--scan", GAME, "--plot", out],
    }


@pytest.mark.parametrize("command", ["convert", "find", "dupes", "merge", "stats"])
def test_an_existing_output_file_is_refused_with_exit_2(tmp_path: Path, command: str) -> None:
    out = tmp_path / ("chart.svg" if command == "stats" else "out.hxl")
    out.write_bytes(KEEP)
    result = CliRunner().invoke(cli, commands(str(out))[command])
    assert result.exit_code == 2, result.output
    assert result.stderr == f"Error: {out} exists; use --force to overwrite it\n"
    assert out.read_bytes() == KEEP


@pytest.mark.parametrize("command", ["convert", "find", "merge", "stats"])
def test_force_overwrites_it(tmp_path: Path, command: str) -> None:
    out = tmp_path / ("chart.svg" if command == "stats" else "out.hxl")
    out.write_bytes(KEEP)
    result = CliRunner().invoke(cli, [*commands(str(out))[command], "--force"])
    assert result.exit_code == 0, result.output
    assert out.read_bytes() != KEEP


def test_render_names_the_files_in_the_way(tmp_path: Path) -> None:
    out = tmp_path / "pictures"
    out.mkdir()
    for name in ("game001-ply000.svg", "game001-ply001.svg"):
        (out / name).write_bytes(KEEP)
    result = CliRunner().invoke(cli, ["render", GAME, "--out-dir", str(out), "--plies", "0-2"])
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"Error: 2 files exist: {out / 'game001-ply000.svg'}, {out / 'game001-ply001.svg'}; "
        "use --force to overwrite them\n"
    )
    assert sorted(path.name for path in out.iterdir()) == [
        "game001-ply000.svg",
        "game001-ply001.svg",
    ]
    assert (out / "game001-ply000.svg").read_bytes() == KEEP


def test_render_of_one_file_in_the_way_says_it_once(tmp_path: Path) -> None:
    out = tmp_path / "pictures"
    out.mkdir()
    (out / "game001-ply000.svg").write_bytes(KEEP)
    result = CliRunner().invoke(cli, ["render", GAME, "--out-dir", str(out), "--plies", "0"])
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"Error: {out / 'game001-ply000.svg'} exists; use --force to overwrite it\n"
    )


def test_german(tmp_path: Path) -> None:
    out = tmp_path / "pictures"
    out.mkdir()
    for name in ("game001-ply000.svg", "game001-ply001.svg"):
        (out / name).write_bytes(KEEP)
    result = CliRunner().invoke(
        cli, ["--lang", "de", "render", GAME, "--out-dir", str(out), "--plies", "0-1"]
    )
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("Fehler: 2 Dateien gibt es schon: ")
