"""Flat memory in ``hexhop check``: a file's games are
split from its bytes a block at a time, and their results are reported and
dropped a part at a time, with the same bytes in every format; a ten times
larger archive (one file, or a folder of many) costs at most 5 MiB more."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys

import pytest
from child_peak import hexhop_peak_mib

from hexhop.notation.reader import decode_lines, encoding_notices, game_chunks
from hexhop.notation.streaming import stream_chunks
from hexhop.records.checking import CheckOptions, FileResult, check_source
from hexhop.records.report import REPORTERS, file_dict
from hexhop.records.sources import Limits, Source

GAME = '[Game "Hexalit"]\n[North "Ann"]\n\n1. B6XC6 E8XD8 2. B5XC5 *\n'
BAD = '[Game "Hexalit"]\n\n1. B6XC6 E8XD8 2. ZZ9 *\n'
WARNED = '[Game "Hexalit"]\n\n1. B6XC6 E8XD8 2. B5XC5 1-0\n'

# pieces of text that move the splitter's state: tags, blank lines, comments, line ends
WORDS = [
    '[Game "Hexalit"]',
    '[Event "Zoë"]',
    "\n",
    "\n",
    "\r\n",
    "\r",
    "{",
    "}",
    ";",
    " ",
    "1. B6XC6",
    "[",
    "\ufeff",
    "€",
    "*",
]


def encodings(text: str, rng: random.Random) -> list[bytes]:
    return [
        text.encode("utf-8"),
        text.encode("utf-8-sig"),
        text.encode("utf-8") + b"\xe9",  # not UTF-8: Windows-1252
        b"\xfe\xff" + text.encode("utf-16-be") + b"\x00"[: rng.randrange(2)],
        text.encode("utf-16"),
    ]


def test_games_split_a_block_at_a_time_are_the_games_of_the_whole_text():
    rng = random.Random(15)
    for _case in range(250):
        text = "".join(rng.choice(WORDS) for _ in range(rng.randrange(40)))
        for data in encodings(text, rng):
            whole, guessed = decode_lines(data)
            notices: dict[int, int] = {}
            expected = (list(encoding_notices(game_chunks(whole), guessed, notices)), notices)
            for block in (1, 2, 3, 5, 64):
                chunks, found = stream_chunks(data, block)
                assert (list(chunks), found) == expected, (data, block)


def test_a_long_game_across_many_blocks_keeps_its_lines():
    data = (GAME + "{" + "x" * 5000 + "\n}\n" + GAME).encode("utf-8") * 3
    chunks, _ = stream_chunks(data, 7)
    assert list(chunks) == list(game_chunks(data.decode("utf-8")))


def results() -> list[FileResult]:
    """Whole results of files: many games with findings, warnings, an error
    beyond --max-games, an empty file and an unreadable one."""
    options = CheckOptions(limits=Limits(max_games=5))
    texts = {
        "a.hxl": GAME + BAD + WARNED + BAD,
        "one.hxl": BAD,
        "many.hxl": (BAD + GAME + WARNED) * 3,  # 9 games: IO04 after 5
        "empty.hxl": "{nothing}\n",
        "warned.hxl": WARNED,
    }
    found = [check_source(Source(name, text.encode()), options) for name, text in texts.items()]
    return [*found, FileResult("gone.hxl", error=found[2].error)]


def report(fmt: str, files: list[list[FileResult]], **options) -> str:
    out = io.StringIO()
    reporter = REPORTERS[fmt](out, **options)
    for pieces in files:
        for piece in pieces:
            reporter.add(piece)
        reporter.end()
    reporter.finish()
    return out.getvalue()


def pieces(result: FileResult, size: int) -> list[FileResult]:
    games = result.games
    cut = [
        FileResult(result.path, games[i : i + size], None, result.sources)
        for i in range(0, len(games), size)
    ] or [FileResult(result.path)]
    cut[-1].error = result.error  # as check_part says: beyond --max-games, at the end
    return cut


@pytest.mark.parametrize("fmt", ["text", "json", "jsonl", "junit"])
def test_a_file_reported_in_pieces_gives_the_bytes_of_the_whole_file(fmt):
    whole = results()
    assert "IO04" in report(fmt, [[result] for result in whole])
    for options in ({}, {"max_findings": 0}, {"color": True}, {"quiet": True}):
        expected = report(fmt, [[result] for result in whole], **options)
        for size in (1, 2, 4):
            assert report(fmt, [pieces(r, size) for r in whole], **options) == expected


@pytest.mark.parametrize("fmt", ["text", "json", "jsonl", "junit"])
def test_a_piece_that_replaces_the_file_drops_what_came_before(fmt):
    whole = results()
    late = FileResult("many.hxl", error=dict(whole[2].error, code="IO09"), replaces=True)
    expected = report(fmt, [[whole[0]], [late], [whole[1]]])
    assert report(fmt, [[whole[0]], [*pieces(whole[2], 2), late], [whole[1]]]) == expected


def test_the_json_report_is_the_document_json_dumps_writes():
    whole = results()
    document = {"files": [file_dict(r) for r in whole]}
    text = report("json", [pieces(r, 2) for r in whole])
    summary = json.loads(text)["summary"]
    expected = json.dumps({**document, "summary": summary}, ensure_ascii=False, indent=1)
    assert text == expected + "\n"
    assert (
        report("json", [])
        == json.dumps({"files": [], "summary": json.loads(report("json", []))["summary"]}, indent=1)
        + "\n"
    )


def peak_mib(*args: str) -> float:
    _code, peak = hexhop_peak_mib("check", "--quiet", *args)
    return peak


def hupfer_archives(folder):
    """``small.hpf`` (300 Hüpfer games) and ``large.hpf`` (3,000) in
    ``folder``, and the same games as folders of 10-game files."""
    big = folder / "all.hpf"
    subprocess.run(
        [sys.executable, "-m", "hexhop.cli", "generate", "--game", "Hüpfer"]
        + ["--count", "3000", "--seed", "1", "--out", str(big)],
        check=True,
        capture_output=True,
    )
    first, *rest = big.read_text("utf-8").split("\n\n[Game ")
    games = [first] + ["[Game " + game for game in rest]
    for name, count in (("small", 300), ("large", 3000)):
        (folder / f"{name}.hpf").write_text("\n\n".join(games[:count]) + "\n", "utf-8")
        (folder / name).mkdir()
        for start in range(0, count, 10):
            text = "\n\n".join(games[start : start + 10]) + "\n"
            (folder / name / f"{start:05d}.hpf").write_text(text, "utf-8")


@pytest.mark.slow
def test_ten_times_the_archive_costs_at_most_5_mib_more(tmp_path):
    hupfer_archives(tmp_path)
    for fmt in ("json", "text"):
        for small, large in (("small.hpf", "large.hpf"), ("small", "large")):
            before = peak_mib("--format", fmt, str(tmp_path / small))
            after = peak_mib("--format", fmt, str(tmp_path / large))
            assert after - before <= 5.0, (fmt, small, before, after)
