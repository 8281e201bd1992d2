"""``--encoding NAME``: every reading command reads the files with the
codec named, instead of telling it from their bytes (as iconv's and
pgn-extract's users do where a guess is wrong); ``fmt --in-place`` with it
writes the file back as UTF-8, read back as every writer reads back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexhop.cli.main import cli
from hexhop.notation.reader import FORCED_ENCODING

RECORD = '[Game "Hexalit"]\n[North "Jürgen Müller"]\n[South "Ŝ"]\n[Result "*"]\n\n1. B4W3 D7W1 *\n'


def run(*args: str | Path) -> tuple[int, str]:
    done = CliRunner().invoke(cli, [str(a) for a in args])
    return done.exit_code, done.output


@pytest.fixture(autouse=True)
def _reset() -> Iterator[None]:
    yield
    FORCED_ENCODING[0] = None


def players(path: Path, *options: str) -> list[str]:
    _code, output = run("find", "--scan", path, "--format", "jsonl", *options)
    return [json.loads(line)["players"][0] for line in output.splitlines() if line.startswith("{")]


def test_latin_1_read_as_named(tmp_path: Path) -> None:
    """Without the option the 0xDC byte of 'Ü' reads as Windows-1252: as
    Latin-1 only where the user says so."""
    path = tmp_path / "a.hxl"
    path.write_bytes(RECORD.replace("Ŝ", "S").replace("ü", "Ü").encode("latin-1"))
    code, output = run("check", path, "--encoding", "latin-1")
    assert code == 0 and "NT03" not in output and "1 valid" in output
    assert players(path, "--encoding", "latin-1") == ["JÜrgen MÜller"]
    code, output = run("check", path)  # a run never inherits the encoding of the one before
    assert f"{path}:2:1: warning NT03 " in output


def test_utf16_without_a_byte_order_mark(tmp_path: Path) -> None:
    """Before: IO02 "not a text file" (NUL bytes) and no way out."""
    path = tmp_path / "a.hxl"
    path.write_bytes(RECORD.encode("utf-16-le"))
    assert "IO02" in run("check", path)[1]
    code, output = run("check", path, "--encoding", "utf-16")
    assert code == 0 and "1 valid, 0 invalid" in output, output
    assert players(path, "--encoding", "UTF16") == ["Jürgen Müller"]


def test_an_unknown_encoding_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "a.hxl"
    path.write_text(RECORD, "utf-8")
    code, output = run("check", path, "--encoding", "klingon")
    assert code == 2 and "Invalid value for '--encoding': unknown encoding 'klingon'" in output
    code, output = run("ls", path, "--encoding", "rot13")
    assert code == 2 and "Invalid value for '--encoding': 'rot13' is not a text encoding" in output


def test_fmt_in_place_writes_the_file_back_as_utf8(tmp_path: Path) -> None:
    path = tmp_path / "a.hxl"
    path.write_bytes(RECORD.replace("Ŝ", "S").encode("cp1252"))
    code, output = run("fmt", "--in-place", "--encoding", "cp1252", path)
    assert code == 0 and f"reformatted {path}" in output
    assert path.read_bytes() == RECORD.replace("Ŝ", "S").encode("utf-8")
    code, output = run("check", path)
    assert code == 0 and "NT03" not in output


def test_the_index_keeps_the_offsets_of_the_bytes(tmp_path: Path) -> None:
    path = tmp_path / "a.hxl"
    data = (RECORD.replace("Ŝ", "S") + "\n" + RECORD.replace("Ŝ", "T")).encode("cp1252")
    path.write_bytes(data)
    db = tmp_path / "i.sqlite"
    assert run("index", path, "--db", db, "--encoding", "cp1252")[0] == 0
    code, output = run("find", "--db", db, "--player", "Müller", "--format", "jsonl")
    found = [json.loads(line) for line in output.splitlines()]
    assert [(g["index"], g["line"]) for g in found] == [(1, 1), (2, 8)]
