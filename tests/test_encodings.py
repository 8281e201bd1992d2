"""Byte order marks: UTF-8 and UTF-16 files read as text."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexhop.cli.main import cli
from hexhop.notation import read_archive
from hexhop.notation.reader import decode, looks_binary

RECORD = '[Game "Hüpfer"]\n[Red "Jörg"]\n[Turquoise "Ümit"]\n\n1. a1-c1@d1 f6-d6@c6 *\n'

ENCODED = {
    "utf-16-le": codecs.BOM_UTF16_LE + RECORD.replace("\n", "\r\n").encode("utf-16-le"),
    "utf-16-be": codecs.BOM_UTF16_BE + RECORD.encode("utf-16-be"),
    "utf-8-bom": codecs.BOM_UTF8 + RECORD.encode("utf-8"),
}


@pytest.mark.parametrize("encoding", ENCODED)
def test_decoded_without_notice(encoding):
    assert decode(ENCODED[encoding]) == (
        RECORD.replace("\n", "\r\n") if encoding == "utf-16-le" else RECORD,
        False,
    )
    assert not looks_binary(ENCODED[encoding])


@pytest.mark.parametrize("encoding", ENCODED)
def test_read_as_the_utf8_record(encoding):
    (plain,) = read_archive(RECORD.encode("utf-8"))
    (game,) = read_archive(ENCODED[encoding])
    assert game.findings == ()
    assert game.record == plain.record


def test_binary_data_still_looks_binary():
    assert looks_binary(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert looks_binary(codecs.BOM_UTF32_LE + "[Game]".encode("utf-32-le"))


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_check_reads_a_notepad_unicode_file(tmp_path: Path, encoding):
    """Before: "… is not a text file (it contains binary data)", exit 1."""
    path = tmp_path / "game.hpf"
    path.write_bytes(ENCODED[encoding])
    done = CliRunner().invoke(cli, ["check", str(path)])
    assert done.exit_code == 0, done.output
    assert "1 valid, 0 invalid" in done.output


def test_a_broken_utf16_file_points_at_the_right_line(tmp_path: Path):
    path = tmp_path / "game.hpf"
    path.write_bytes(
        ENCODED["utf-16-le"].replace("f6-d6@c6".encode("utf-16-le"), "f6-d6@".encode("utf-16-le"))
    )
    done = CliRunner().invoke(cli, ["check", str(path)])
    assert done.exit_code == 1
    assert f"{path}:5:19: error SY01 expected a point like d1 after '@'" in done.output


CANONICAL = (
    Path(__file__).resolve().parent.parent / "samples" / "good" / "hexalit-kassel-1998.hxl"
).read_text("utf-8")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "cp1252"])
def test_fmt_compares_the_text_of_any_encoding(tmp_path: Path, encoding):
    """A canonical record saved as UTF-16 or Windows-1252 needs no formatting,
    and a diff shows its characters (fmt compared the bytes read as UTF-8)."""
    path = tmp_path / "a.hxl"
    text = CANONICAL.replace("Kassel", "Kässel")
    bom = codecs.BOM_UTF16_BE if encoding == "utf-16-be" else b""
    path.write_bytes(bom + text.encode(encoding))
    result = CliRunner().invoke(cli, ["fmt", "--check", str(path)])
    assert (result.exit_code, result.output) == (0, "")
    path.write_bytes(bom + text.replace("[Round", "[ Round", 1).encode(encoding))
    result = CliRunner().invoke(cli, ["fmt", "--diff", str(path)])
    assert "Kässel" in result.stdout and "\ufffd" not in result.stdout
    assert "-[ Round" in result.stdout and "+[Round" in result.stdout
