"""Every command reads a file as check does (issue 23): a binary file is
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
    "render": ["render", "{in}", "--out", "{out}/drawn"],
    "analyse": ["analyse", "{in}", "--depth", "1"],
    "puzzles": ["puzzles", "{in}", "--depth", "1", "--out", "{out}/puzzles"],
    "find": ["find", "--scan", "{in}"],
    "stats": ["stats", "{in}"],
    "split": ["split", "{in}", "--out", "{out}/split"],
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
