"""Every command reads a file as check does: a binary file is
"not a text file" (IO02) and exit 2 for each of them, never a game of
syntax errors, a silent nothing, or exit 0."""

from __future__ import annotations

from pathlib import Path

import pytest
from archive_helpers import run

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10"

COMMANDS = {
    "check": ["check", "{in}"],
    "show": ["show", "{in}"],
    "moves": ["moves", "{in}"],
    "convert": ["convert", "--to", "json", "{in}"],
    "fmt": ["fmt", "{in}"],
    "render": ["render", "{in}", "--out-dir", "{out}/drawn"],
    "analyse": ["analyse", "{in}", "--depth", "1"],
    "puzzles": ["puzzles", "{in}", "--depth", "1", "--out-dir", "{out}/puzzles"],
    "find": ["find", "--scan", "{in}"],
    "stats": ["stats", "{in}"],
    "split": ["split", "{in}", "--out-dir", "{out}/split"],
    "merge": ["merge", "{in}", "--out", "{out}/merged.hxl"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_binary_file_is_not_a_text_file_for_every_command(command: str, tmp_path: Path) -> None:
    record = tmp_path / "picture.hxl"
    record.write_bytes(PNG)
    args = [a.format(**{"in": record, "out": tmp_path}) for a in COMMANDS[command]]
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert f"{record} is not a text file (it contains binary data)" in result.output
    assert "SY01" not in result.output


def test_fmt_in_place_never_writes_text_into_a_compressed_file(tmp_path: Path) -> None:
    """A .hxl.gz is read as a record; --in-place would have written plain
    text under the .gz name, which nothing could read again."""
    import gzip

    from archive_helpers import GOOD

    untidy = (GOOD / "hexalit-kassel-1998.hxl").read_text("utf-8").replace(" 2. ", "  2.  ", 1)
    packed = tmp_path / "folder" / "kassel.hxl.gz"
    packed.parent.mkdir()
    packed.write_bytes(gzip.compress(untidy.encode("utf-8"), mtime=0))
    before = packed.read_bytes()
    named = run("fmt", "--in-place", packed)
    assert named.exit_code == 2 and "--in-place cannot rewrite" in named.output
    in_folder = run("fmt", "--in-place", packed.parent)
    assert in_folder.exit_code == 0, in_folder.output
    assert "left as it is: --in-place does not rewrite a compressed file" in in_folder.output
    assert packed.read_bytes() == before
    assert run("fmt", "--check", packed).exit_code == 1  # it was untidy, and is read
