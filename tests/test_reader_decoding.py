"""One bad byte never changes the verdict on the rest of a file:
a file that is mostly UTF-8 is read as UTF-8, its bad bytes as
U+FFFD with an NT04 warning where they are; only a file that is plainly not
UTF-8 is read as Windows-1252. check, the streaming splitter, the archive
texts (merge, split) and the index read every file alike."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexhop.archive.texts import game_texts
from hexhop.cli.main import cli
from hexhop.notation import read_archive
from hexhop.notation.reader import decode, game_chunks, mostly_utf8, text_encoding
from hexhop.notation.streaming import file_chunks, stream_chunks
from hexhop.records.sources import Source

KASSEL = (
    Path(__file__).resolve().parent.parent / "samples" / "good" / "hexalit-kassel-1998.hxl"
).read_text("utf-8")
LINES = KASSEL.count("\n") + 1  # a game's lines and the blank line after it
BAD = b"\xed\xa0\x80"  # a surrogate written in UTF-8: no UTF-8 decoder reads it

# three games with their '°' captures in UTF-8; game 2's North player has a bad sequence
ARCHIVE = b"\n".join(
    [
        KASSEL.encode(),
        KASSEL.encode().replace(b'[North "Anna ', b'[North "Anna ' + BAD, 1),
        KASSEL.encode(),
    ]
)
BAD_LINE = LINES + 6  # [North "Anna \xed\xa0\x80Berger"], the bad bytes at column 14


def test_one_bad_sequence_leaves_the_rest_utf8() -> None:
    """Before: the whole file read as Windows-1252, every '°' as 'Â°' (SY01)."""
    games = list(read_archive(ARCHIVE, path="club.hxl"))
    assert [g.index for g in games] == [1, 2, 3]
    assert games[0].findings == games[2].findings == ()
    (finding,) = games[1].findings
    assert (finding.code, finding.severity, finding.line, finding.column) == (
        "NT04",
        "warning",
        BAD_LINE,
        14,
    )
    assert games[1].record.tag("North") == "Anna \ufffd\ufffd\ufffdBerger"
    main = [[str(node.item) for node in g.record.main.nodes] for g in games]
    assert main[0] == main[1] == main[2] and "B2°E10" in main[1]


def test_decode_replaces_the_bad_bytes_without_the_windows_1252_notice() -> None:
    text, windows_1252 = decode(ARCHIVE)
    assert not windows_1252
    assert text == ARCHIVE.replace(BAD, "\ufffd\ufffd\ufffd".encode()).decode("utf-8")


WINDOWS_1252 = '[Game "Hexalit"]\n[North "Jürgen Müller"]\n\n1. B4W3 D7W1 *\n'.encode("cp1252")


@pytest.mark.parametrize(
    "data",
    [
        KASSEL.encode("cp1252"),  # every '°' the byte 0xB0
        WINDOWS_1252,
        # one pair of bytes that happens to be UTF-8 ('Ã¼') among more that are not
        WINDOWS_1252.replace(b"J\xfcrgen", "JÃ¼rgen Jürgen".encode("cp1252")),
    ],
)
def test_a_file_plainly_not_utf8_is_windows_1252(data: bytes) -> None:
    text, windows_1252 = decode(data)
    assert windows_1252 and text == data.decode("cp1252")
    (game,) = read_archive(data, path="a.hxl")
    assert [f.code for f in game.findings] == ["NT03"]


def test_more_good_sequences_than_bad_ones_is_utf8() -> None:
    data = WINDOWS_1252.decode("cp1252").replace("Jürgen", "Jürgen J\udcfcrgen")
    data_bytes = data.encode("utf-8", "surrogateescape")  # one bad byte, two good 'ü'
    (game,) = read_archive(data_bytes, path="a.hxl")
    assert game.record.tag("North") == "Jürgen J\ufffdrgen Müller"
    assert [(f.code, f.line, f.column) for f in game.findings] == [("NT04", 2, 17)]


def test_every_reader_decides_alike() -> None:
    text, _windows_1252 = decode(ARCHIVE)
    for block in (5, 64, 4096):
        chunks, windows_1252 = stream_chunks(ARCHIVE, block)
        assert list(chunks) == list(game_chunks(text)) and not windows_1252
    texts = list(game_texts(Source("club.hxl", ARCHIVE)))
    assert [t.windows_1252 for t in texts] == [False] * 3
    assert [[f.code for f in t.parsed.findings] for t in texts] == [[], ["NT04"], []]
    assert texts[1].data == ARCHIVE.split(b"\n\n[Game")[1].join([b"[Game", b""]).strip()


def test_check_and_the_index_agree(tmp_path: Path) -> None:
    path = tmp_path / "club.hxl"
    path.write_bytes(ARCHIVE)
    done = CliRunner().invoke(cli, ["check", str(path)])
    assert done.exit_code == 0, done.output
    assert "3 valid (1 with warnings), 0 invalid" in done.output
    assert f"{path}:{BAD_LINE}:14: warning NT04 " in done.output
    db = tmp_path / "club.sqlite"
    assert CliRunner().invoke(cli, ["index", str(path), "--db", str(db)]).exit_code == 0
    for code, found in (("NT04", [2]), ("SY01", []), ("NT03", [])):
        hits = CliRunner().invoke(
            cli, ["find", "--db", str(db), "--finding", code, "--format", "jsonl"]
        )
        assert [json.loads(line)["index"] for line in hits.stdout.splitlines()] == found


@pytest.mark.parametrize(
    ("data", "codec"),
    [
        ("Jürgen".encode() + BAD, "utf-8"),  # a run of bad bytes is one place
        (b"J\xfcrgen", "cp1252"),  # no character of several bytes at all
        (b"J\xfcrgen M\xfcller " + "Müller".encode(), "cp1252"),  # two places, one character
        (codecs.BOM_UTF8 + b"J\xfcrgen", "cp1252"),
        ("\ufffd".encode() * 3 + b"\xfc", "utf-8"),  # U+FFFD written as such is UTF-8
        ("a\ufffd".encode() + b"\xfc", "utf-8"),
        (b"plain ASCII", "utf-8"),
    ],
)
def test_the_encoding_of_a_file(data: bytes, codec: str) -> None:
    assert text_encoding(data)[0] == codec
    for size in (1, 2, 3, 5):  # looked at a block at a time: blocks cut sequences in two
        blocks = [data[i : i + size] for i in range(0, len(data), size)]
        assert mostly_utf8(blocks) is (codec == "utf-8") or data.startswith(codecs.BOM_UTF8)


@pytest.mark.parametrize(
    "data",
    [
        ARCHIVE,
        KASSEL.encode("cp1252"),
        codecs.BOM_UTF8 + ARCHIVE,
        codecs.BOM_UTF16_LE + KASSEL.encode("utf-16-le"),
        codecs.BOM_UTF16_BE + (KASSEL + "\n" + KASSEL).encode("utf-16-be"),
        b"",
    ],
)
def test_a_file_read_a_block_at_a_time_is_read_as_its_bytes(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "club.hxl"
    path.write_bytes(data)
    for block in (3, 100, 65536):
        chunks, windows_1252 = file_chunks(str(path), block)
        expected, expected_1252 = stream_chunks(data)
        assert (list(chunks), windows_1252) == (list(expected), expected_1252)
