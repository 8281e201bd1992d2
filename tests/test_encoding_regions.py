"""The encoding of a file is decided where its bytes are not UTF-8, not
for the whole file: bytes that are not text after good games leave those
games UTF-8, and the damaged game alone carries the notice, at its line.
check, the streaming splitter, the archive texts (merge, split, the
index) and the notation reader read every file alike, byte for byte."""

from __future__ import annotations

import json
import random
from pathlib import Path

from click.testing import CliRunner

from hexhop.archive.texts import game_texts
from hexhop.cli.main import cli
from hexhop.notation import read_archive
from hexhop.notation.reader import decode_lines
from hexhop.notation.streaming import stream_chunks
from hexhop.records.sources import Source

GOOD = (Path(__file__).resolve().parent.parent / "samples" / "good").joinpath(
    "hexalit-kassel-1998.hxl"
)
# the Kassel game with a North player whose name is UTF-8 of several bytes
KASSEL = GOOD.read_bytes().replace(b"Anna Berger", "Anna Müller".encode())
KASSEL_LINES = KASSEL.count(b"\n")


def junk(seed: int = 7, size: int = 3000) -> bytes:
    """``head -c 3000 /dev/urandom | tr -d '\\000\\n\\r'``, seeded."""
    rng = random.Random(seed)
    return bytes(b for b in rng.randbytes(size) if b not in (0, 10, 13))


# game 1 good, game 2 good with bytes that are not text after its result, game 3 good
ARCHIVE = KASSEL + b"\n" + KASSEL + junk() + b"\n\n" + KASSEL
JUNK_LINE = 2 * KASSEL_LINES + 2  # the line after game 2's last line


def test_junk_after_a_good_game_leaves_every_game_utf8() -> None:
    """Before: the whole file read as Windows-1252: 'Anna MÃ¼ller', every
    game SY01 at its first '°' with 0 plies, one NT03 at 1:1."""
    games = list(read_archive(ARCHIVE, path="club.hxl"))
    assert [g.record.tag("North") for g in games] == ["Anna Müller"] * 3
    assert games[0].findings == games[2].findings == ()
    assert len(games[0].record.main.nodes) == len(games[2].record.main.nodes) == 46
    notice = games[1].findings[0]
    assert (notice.code, notice.line, notice.column) == ("NT03", JUNK_LINE, 1)
    assert notice.message == "this line is not valid UTF-8; it was read as Windows-1252"


def test_only_the_junk_line_is_read_as_windows_1252() -> None:
    text, guessed = decode_lines(ARCHIVE)
    assert guessed == (JUNK_LINE,)
    line = text.split("\n")[JUNK_LINE - 1]
    assert line == junk().decode("cp1252", errors="replace")
    assert text.replace(line, "") == (KASSEL + b"\n" + KASSEL + b"\n\n" + KASSEL).decode()


def test_every_reader_decides_alike_and_offsets_stay_byte_exact() -> None:
    chunks, notices = stream_chunks(ARCHIVE, 64)
    assert [index for index, _line, _chunk in chunks] == [1, 2, 3] and notices == {2: JUNK_LINE}
    texts = list(game_texts(Source("club.hxl", ARCHIVE)))
    assert [t.encoding for t in texts] == ["utf-8", "cp1252", "utf-8"]
    assert [t.certain for t in texts] == [True, False, True]
    assert [t.windows_1252 for t in texts] == [False, True, False]
    assert texts[0].data == texts[2].data == KASSEL.strip()
    assert ARCHIVE[texts[2].offset :].strip() == KASSEL.strip()
    assert texts[1].data == (KASSEL + junk()).strip()
    assert [f.code for f in texts[1].parsed.findings][:1] == ["NT03"]


def test_check_and_the_index_see_the_good_games(tmp_path: Path) -> None:
    path = tmp_path / "club.hxl"
    path.write_bytes(ARCHIVE)
    done = CliRunner().invoke(cli, ["check", "--format", "json", str(path)])
    games = json.loads(done.stdout)["files"][0]["games"]
    assert [g["plies"] for g in games][::2] == [42, 42]
    assert [[f["code"] for f in g["findings"]] for g in games][::2] == [[], []]
    assert (games[1]["findings"][0]["code"], games[1]["findings"][0]["line"]) == (
        "NT03",
        JUNK_LINE,
    )
    db = tmp_path / "club.sqlite"
    assert CliRunner().invoke(cli, ["index", str(path), "--db", str(db)]).exit_code == 0
    hits = CliRunner().invoke(
        cli, ["find", "--db", str(db), "--player", "Anna Müller", "--format", "jsonl"]
    )
    assert [json.loads(line)["index"] for line in hits.stdout.splitlines()] == [1, 2, 3]


def test_a_file_of_windows_1252_is_told_once() -> None:
    """A run of games read as Windows-1252 carries one notice, at its first such line."""
    data = (KASSEL.decode() + "\n" + KASSEL.decode()).encode("cp1252")
    first, second = read_archive(data, path="club.hxl")
    assert [(f.code, f.line) for f in first.findings] == [("NT03", 6)]
    assert second.findings == ()
    assert first.record.tag("North") == second.record.tag("North") == "Anna Müller"


def test_spans_decode_as_their_regions_do() -> None:
    """Regions decoded many at a time (all UTF-8, or without one UTF-8
    character of several bytes) read as each region read alone."""
    from hexhop.notation import reader

    rng = random.Random(35)
    pieces = [
        KASSEL,
        KASSEL.decode().encode("cp1252"),
        KASSEL.replace(b"Anna ", b"Anna \xff", 1),
        b'[Event "x"]\r\n\r\n1. B4W3 \xe9 *\r\n',
        junk(3, 200) + b"\n",
    ]
    for _case in range(60):
        data = b"\n".join(rng.choice(pieces) for _ in range(rng.randrange(1, 12)))
        text, guessed = decode_lines(data)
        starts = reader._region_starts(data)
        expected: list[str] = []
        lines: list[int] = []
        line = 1
        for start, end in zip(starts, [*starts[1:], len(data)], strict=True):
            part, found = reader._decode_region(data[start:end])
            expected.append(part)
            lines.extend(line + n for n in found)
            line += reader._line_ends(data, start, end)
        assert (text, guessed) == ("".join(expected), tuple(lines))
