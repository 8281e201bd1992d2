"""No command writes over its input, or over the archive that holds it,
not even with --force: one rule for every writer, by
real path and by device and inode (other spellings, symbolic and hard links)."""

from __future__ import annotations

import os
import shutil
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexhop.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "samples" / "good"
HUEPFER = GOOD / "huepfer-6x6-bremen-2003.hpf"
HEXALIT = GOOD / "hexalit-kassel-1998.hxl"
NOT_EVEN = " (no command writes over its input, not even with --force)"


def run(*args: str, cwd: Path | None = None):
    if cwd is None:
        return CliRunner().invoke(cli, list(args))
    before = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(cli, list(args))
    finally:
        os.chdir(before)


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    """``arc.zip`` holding ``in.hpf`` and ``other.hpf``."""
    with zipfile.ZipFile(tmp_path / "arc.zip", "w") as zipped:
        zipped.write(HUEPFER, "in.hpf")
        zipped.write(HUEPFER, "other.hpf")
    return tmp_path / "arc.zip"


def refused(result, path, given, holder: bool = False) -> None:
    what = "the archive that holds the input" if holder else "the input"
    assert result.exit_code == 2, result.output
    assert f"Error: cannot write {path}: it is {what} {given}{NOT_EVEN}\n" in result.stderr


def test_analyse_annotate_keeps_the_archive_of_its_input(archive):
    before = archive.read_bytes()
    member = f"{archive}:in.hpf"
    result = run("analyse", member, "--depth", "1", "--annotate", str(archive), "--force")
    refused(result, archive, member, holder=True)
    assert archive.read_bytes() == before
    assert zipfile.ZipFile(archive).namelist() == ["in.hpf", "other.hpf"]


def test_convert_refuses_its_source_by_any_name(tmp_path):
    shutil.copy(HEXALIT, tmp_path / "a.hxl")
    before = (tmp_path / "a.hxl").read_bytes()
    os.symlink(tmp_path / "a.hxl", tmp_path / "link.hxl")
    os.link(tmp_path / "a.hxl", tmp_path / "hard.hxl")
    for out in ("a.hxl", "./sub/../a.hxl", "link.hxl", "hard.hxl"):
        (tmp_path / "sub").mkdir(exist_ok=True)
        result = run("convert", "a.hxl", "--to", "json", "--out", out, "--force", cwd=tmp_path)
        refused(result, out, "a.hxl")
    assert (tmp_path / "a.hxl").read_bytes() == before


def test_merge_refuses_a_hard_link_of_an_input(tmp_path):
    shutil.copy(HEXALIT, tmp_path / "a.hxl")
    os.link(tmp_path / "a.hxl", tmp_path / "same.hxl")
    before = (tmp_path / "a.hxl").read_bytes()
    out = tmp_path / "same.hxl"
    result = run("merge", str(tmp_path / "a.hxl"), str(HUEPFER), "--out", str(out), "--force")
    refused(result, out, tmp_path / "a.hxl")
    assert (tmp_path / "a.hxl").read_bytes() == before


def test_find_and_dupes_export_keep_the_archive_and_the_index(archive, tmp_path):
    before = archive.read_bytes()
    for command in ("find", "dupes"):
        result = run(command, str(archive), "--scan", "--export", str(archive), "--force")
        refused(result, archive, archive)
    assert archive.read_bytes() == before
    # an indexed file a found game comes from, named another way
    shutil.copy(HEXALIT, tmp_path / "a.hxl")
    db = tmp_path / "club.sqlite"
    assert run("index", str(tmp_path / "a.hxl"), "--db", str(db)).exit_code == 0
    index = db.read_bytes()
    result = run("find", "--db", str(db), "--export", str(db), "--force")
    refused(result, db, db)
    assert db.read_bytes() == index
    os.link(tmp_path / "a.hxl", tmp_path / "b.hxl")
    result = run("find", "--db", str(db), "--export", str(tmp_path / "b.hxl"), "--force")
    refused(result, tmp_path / "b.hxl", tmp_path / "a.hxl")
    assert (tmp_path / "a.hxl").read_bytes() == HEXALIT.read_bytes()


def test_render_and_puzzles_keep_their_input(tmp_path):
    shutil.copy(HEXALIT, tmp_path / "game001.html")  # a record under the name of a page
    result = run(
        "render", str(tmp_path / "game001.html"), "--format", "html", "--out-dir", str(tmp_path)
    )
    assert result.exit_code == 2
    result = run(
        "render",
        str(tmp_path / "game001.html"),
        "--format",
        "html",
        "--out-dir",
        str(tmp_path),
        "--force",
    )
    refused(result, tmp_path / "game001.html", tmp_path / "game001.html")
    assert (tmp_path / "game001.html").read_bytes() == HEXALIT.read_bytes()


def test_fmt_in_place_leaves_archive_members_alone(tmp_path):
    folder = tmp_path / "club"
    folder.mkdir()
    messy = b'[Game "Hexalit"]\n1.B6XC6  *\n'
    (folder / "a.hxl").write_bytes(messy)
    with zipfile.ZipFile(folder / "old.zip", "w") as zipped:
        zipped.writestr("b.hxl", messy)
    before = (folder / "old.zip").read_bytes()
    result = run("fmt", "--in-place", str(folder))
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        f"reformatted {folder / 'a.hxl'}",
        f"{folder / 'old.zip'}:b.hxl: left as it is: "
        "--in-place does not rewrite a member of an archive",
    ]
    assert sorted(os.listdir(folder)) == ["a.hxl", "old.zip"]  # no file "old.zip:b.hxl"
    assert (folder / "old.zip").read_bytes() == before
