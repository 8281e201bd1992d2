"""Names a writer chooses: a name taken by
anything, a symbolic link that leads nowhere too, is not written over; a
name made from record text is at most 255 bytes in UTF-8, cut at a
character boundary, its extension and number kept."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexhop.archive.split import Names
from hexhop.cli.main import cli
from hexhop.records.file_names import fitted

ROOT = Path(__file__).resolve().parent.parent
HEXALIT = ROOT / "samples" / "good" / "hexalit-kassel-1998.hxl"
# Trigeo games without players or date: named after their file, many-1.trg …
GAME = '[Game "Trigeo"]\n[Round "?"]\n\n1. C7°D7 E6°D7 *\n'


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_split_does_not_replace_a_dangling_link(tmp_path):
    (tmp_path / "many.trg").write_text((GAME + "\n") * 3, "utf-8")
    out = tmp_path / "out"
    out.mkdir()
    os.symlink("/nonexistent", out / "many-3.trg")
    result = run("split", str(tmp_path / "many.trg"), "--out-dir", str(out))
    assert result.exit_code == 0, result.output
    assert os.readlink(out / "many-3.trg") == "/nonexistent"
    assert sorted(os.listdir(out)) == ["many-1.trg", "many-2.trg", "many-3.trg", "many-3_2.trg"]
    assert (out / "many-3_2.trg").read_text("utf-8") == GAME


@pytest.mark.parametrize("command", ["render", "merge", "export"])
def test_a_dangling_link_is_an_existing_output(tmp_path, command):
    target = tmp_path / "gone"
    if command == "render":
        out = tmp_path / "pictures" / "game001-ply000.svg"
        args = ["render", str(HEXALIT), "--out-dir", str(tmp_path / "pictures")]
    elif command == "merge":
        out = tmp_path / "all.hxl"
        args = ["merge", str(HEXALIT), "--out", str(out)]
    else:
        out = tmp_path / "found.hxl"
        args = ["find", str(HEXALIT), "--scan", "--export", str(out)]
    out.parent.mkdir(exist_ok=True)
    os.symlink(target, out)
    result = run(*args)
    assert result.exit_code == 2
    assert f"{out} exists; use --force to overwrite it" in result.stderr
    assert os.readlink(out) == str(target) and not target.exists()


def test_names_are_cut_to_255_bytes_at_a_character_boundary():
    assert fitted("game", ".hxl") == "game.hxl"
    clef = "𝄞" * 80  # four bytes each
    name = fitted(clef, "_2.hxl")
    assert name == "𝄞" * 62 + "_2.hxl" and len(name.encode()) == 254
    assert fitted("a" + clef) == "a" + "𝄞" * 63  # 253 bytes: no half character
    assert len(fitted("ü" * 300, "-diagrams").encode()) <= 255
    names = Names().candidates("x" * 300, ".hxl")
    first, second = next(names), next(names)
    assert first == "x" * 251 + ".hxl" and second == "x" * 249 + "_2.hxl"


@pytest.mark.parametrize("char", ["𝄞", "𠀀"])  # a symbol, and a letter (a word character)
def test_render_html_of_a_member_with_a_long_name(tmp_path, char):
    archive = tmp_path / "club.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.write(HEXALIT, char * 80 + ".hxl")
        zipped.write(HEXALIT, "b.hxl")
    site = tmp_path / "site"
    result = run("render", str(archive), "--format", "html", "--out-dir", str(site))
    assert result.exit_code == 0, result.output
    assert (site / "index.html").is_file() and (site / "b" / "game001.html").is_file()
    [long] = [
        name for name in os.listdir(site) if name not in ("b", "index.html") and "." not in name
    ]
    assert len(long.encode()) <= 255 and (site / long / "game001.html").is_file()
