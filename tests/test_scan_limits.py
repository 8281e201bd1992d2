"""Limits applied while a record is read, for every command.

Blanks before a record must not make a regex backtrack exponentially; a
long tag value, a long movetext or a long Hüpfer path must not grow memory
with the input before any limit is looked at; blank lines must stay cheap;
a 5,000-digit number is no internal error; fmt of a comment across lines
is idempotent.

Commands run in a child process with a timeout and an address-space limit,
so that a regression fails the test instead of hanging or swapping.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from fuzz_support import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from safety_runner import shared

from hexhop.cli.main import cli
from hexhop.notation import NotationError, parse_action, parse_text, read_archive
from hexhop.notation import parser as notation_parser
from hexhop.notation.limits import ReadLimits
from hexhop.notation.reader import only_comments, split_games
from hexhop.notation.writer import format_archive

HEX = '[Game "Hexalit"]\n\n'
MIB = 1024 * 1024


def run(
    *args: str, cwd: Path, seconds: float = 20, memory_mib: int = 600
) -> subprocess.CompletedProcess:
    """``hexhop ARGS`` in a child process bounded in time and address space."""
    return shared().complete(
        list(args),
        cwd=cwd,
        text=True,
        timeout=seconds,
        memory_mib=memory_mib,
        env={"PYTHONWARNINGS": "ignore"},
    )


def codes(result: subprocess.CompletedProcess) -> list[str]:
    report = json.loads(result.stdout)
    return [x["code"] for f in report["files"] for g in f["games"] for x in g["findings"]]


# ---------------------------------------------------------------- blanks before a record


@pytest.mark.parametrize(
    "command",
    [
        ["check", "a.hxl"],
        ["fmt", "a.hxl"],
        ["convert", "--to", "json", "a.hxl"],
        ["show", "a.hxl"],
        ["moves", "a.hxl"],
        ["render", "a.hxl", "--out-dir", "out"],
    ],
)
def test_blanks_before_a_record_do_not_hang_any_command(tmp_path, command):
    """printf '%40s1. B4W3 *\\n' '' > a.hxl hung every command (a run that
    hangs is ended, and fails, after ``run``'s bound)."""
    (tmp_path / "a.hxl").write_text(" " * 40 + "1. B4W3 *\n", "utf-8")
    result = run(*command, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr


def test_thirty_blank_lines_before_a_record_without_tags(tmp_path):
    text = "\n" * 30 + " " * 5000 + "\n1. B4W3 *\n"
    started = time.process_time()
    (game,) = parse_text(text, path="a.hxl")
    assert game.ok and time.process_time() - started < 1


def test_only_comments_is_linear():
    started = time.process_time()
    assert not only_comments(" " * 100_000 + "1.")
    assert not only_comments("{" * 100_000)
    assert only_comments("{a}\n; b\n \t" * 10_000)
    assert not only_comments("{a} x")
    assert time.process_time() - started < 1


# ---------------------------------------------------------------- long values


@pytest.fixture(scope="module")
def floods(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("floods")
    (folder / "tag.hxl").write_text(
        '[Game "Hexalit"]\n[Event "' + "x" * 5_000_000 + '"]\n\n1. B6XC6 *\n', "utf-8"
    )
    (folder / "moves.hxl").write_text(HEX + "B4W3 D7W1 " * 2_000_000 + "*\n", "utf-8")
    (folder / "path.hpf").write_text(
        '[Game "Hüpfer"]\n\n1. a1' + "-c1-a1" * 1_500_000 + " *\n", "utf-8"
    )
    (folder / "escapes.hxl").write_text(
        '[Game "Hexalit"]\n[Event "' + "\\\\" * 2_500_000 + '"]\n\n1. B6XC6 *\n', "utf-8"
    )
    (folder / "soup.hxl").write_text(HEX + "1. 2. " + "B4W3 $1 " * 1_000_000 + "*\n", "utf-8")
    return folder


@pytest.mark.parametrize(
    "name, code, where",
    [
        ("tag.hxl", "IO07", (2, 1)),
        ("escapes.hxl", "IO07", (2, 1)),
        pytest.param("moves.hxl", "IO05", (3, 500_001), marks=pytest.mark.slow),
        ("path.hpf", "IO08", (3, 4)),
        pytest.param("soup.hxl", "IO05", None, marks=pytest.mark.slow),
    ],
)
def test_a_flood_is_refused_within_time_and_memory(floods, name, code, where):
    """Within 400 MiB of address space, and in time: a run that hangs is
    ended, and fails, after ``run``'s bound."""
    result = run("check", "--format", "json", name, cwd=floods, memory_mib=400)
    assert codes(result) == [code], result.stderr
    finding = json.loads(result.stdout)["files"][0]["games"][0]["findings"][0]
    if where:
        assert (finding["line"], finding["column"]) == where


@pytest.mark.slow
@pytest.mark.parametrize("command", [["fmt"], ["show"], ["convert", "--to", "json"]])
def test_every_command_reads_with_the_limits(floods, command):
    result = run(*command, "moves.hxl", cwd=floods, memory_mib=400)
    assert "IO05" in result.stderr + result.stdout and "Traceback" not in result.stderr


def test_the_check_options_set_the_new_limits(tmp_path):
    path = tmp_path / "a.hxl"
    path.write_text('[Game "Hexalit"]\n[Site "Open 2024"]\n\n1. B6XC6 *\n', "utf-8")
    runner = CliRunner()
    short = runner.invoke(cli, ["check", "--format", "json", "--max-tag-length", "5", str(path)])
    assert [x["code"] for x in json.loads(short.stdout)["files"][0]["games"][0]["findings"]] == [
        "IO07"
    ]
    token = runner.invoke(cli, ["check", "--format", "json", "--max-token-length", "4", str(path)])
    finding = json.loads(token.stdout)["files"][0]["games"][0]["findings"][0]
    assert finding["code"] == "IO08" and (finding["line"], finding["column"]) == (4, 4)
    assert finding["message"].startswith("'B6XC6…' is longer than the limit of 4 characters")
    assert runner.invoke(cli, ["check", "--max-token-length", "4001", str(path)]).exit_code == 2


def test_limits_of_the_reader():
    limits = ReadLimits(max_actions=3, max_comment=5, max_depth=2)

    def first(text: str) -> tuple[str, int, int]:
        (game,) = read_archive((HEX + text).encode(), limits=limits)
        if not game.findings:
            return "", 0, 0
        finding = game.findings[0]
        return finding.code, finding.line, finding.column  # type: ignore[return-value]

    assert first("1. B6XC6 E8XD8 2. B5XC5 E8XD7 *") == ("IO05", 3, 25)
    assert first("1. B6XC6 {123456} *") == ("IO06", 3, 10)
    assert first("1. B6XC6 {" + " " * 500 + "1234} *") == ("", 0, 0)  # 4 characters
    assert first("1. B6XC6 ; 123456\n*") == ("IO06", 3, 10)
    assert first("1. B6XC6 (E8XD8 (E8XD7 (E8XC8))) *") == ("SY06", 3, 24)
    # beyond a limit after a syntax error the parser does not read on
    assert first("1. 2. B6XC6 E8XD8 B5XC5 E8XD7 *") == ("IO05", 3, 25)


def test_the_parser_reads_only_what_the_scanner_measured():
    """An error early in a long movetext is explained from a bounded part."""
    text = HEX + "1. B6XC6 ) " + "E8XD8 " * 50_000 + "*"
    started = time.process_time()
    (game,) = parse_text(text)
    assert time.process_time() - started < 2
    assert [(f.code, f.message, f.column) for f in game.findings] == [
        ("SY01", "')' closes no variation", 10)
    ]


# ---------------------------------------------------------------- blank lines


def test_blank_lines_cost_next_to_nothing():
    text = "\n" * 5_000_000 + HEX + "1. B6XC6 *\n" + "\n" * 5_000_000 + HEX + "{a\n\nb}\n" * 3
    started = time.process_time()
    chunks = list(split_games(text))
    assert time.process_time() - started < 0.5
    assert [(first, tags) for first, _, tags in chunks] == [(1, True), (10_000_004, True)]


@pytest.mark.slow
def test_a_zip_of_newline_members_is_checked_quickly(tmp_path):
    path = tmp_path / "blank.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for i in range(3):
            archive.writestr(f"m{i}.hxl", b"\n" * 20_000_000)
    started = time.monotonic()
    result = run("check", str(path), cwd=tmp_path)
    assert time.monotonic() - started < 15, result.stderr
    # only blank lines: nothing to check, which is a usage error
    assert result.returncode == 2 and "no game was found" in result.stderr


SPLIT_PIECES = st.sampled_from(
    [
        "\n",
        "\n\n",
        " ",
        '[Game "Hexalit"]',
        '[A "b"]',
        "1. B6XC6",
        "{",
        "}",
        ";",
        '{a\n[B "c"]}',
        "*",
        "x",
        "\t\n",
        '[A "}"]',
        "\n\n{\n",
        "1-0",
        " * ",
        '* [Game "Trigeo"]',
    ]
)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(SPLIT_PIECES, max_size=25))
def test_split_games_splits_as_line_by_line_reading_does(pieces):
    text = "".join(pieces)
    assert list(split_games(text)) == list(_split_line_by_line(text))


# a result, then a tag pair on the same line
_RESULT_THEN_TAG = re.compile(
    r'(?:(?<![\w.-])(?:1-0|0-1)(?![\w-])|\*)[ \t]*(?=\[[ \t]*\w+[ \t]*"[^"\\\n]*(?:\\.[^"\\\n]*)*"[ \t]*\])'
)
_TAG_LINE = re.compile(r'\s*\[\s*\w+\s*"[^"\\\n]*(?:\\.[^"\\\n]*)*"\s*\]\s*')


def _split_line_by_line(text: str):
    """The plain reading of split_games's rule, one line at a time."""
    start, first_line, pad = 0, 1, 0
    tags = blank = moves = in_comment = after_blank = False
    pos = 0
    for number, line in enumerate(text.split("\n"), 1):
        head = line.lstrip()
        if in_comment and after_blank and _TAG_LINE.fullmatch(line):  # the next game
            yield first_line, " " * pad + text[start:pos], tags
            start, first_line, pad = pos, number, 0
            blank = moves = in_comment = False
        after_blank = in_comment and not head
        if head.startswith("[") and not in_comment:
            if moves or (tags and blank):
                yield first_line, " " * pad + text[start:pos], tags
                start, first_line, pad = pos, number, 0
                blank = moves = False
            tags = True
        elif not head:
            blank = blank or tags
        else:
            moves = True
            for i, char in enumerate(line):
                if in_comment:
                    in_comment = char != "}"
                elif char == "{":
                    in_comment = True
                elif char == ";":
                    break
                else:
                    found = _RESULT_THEN_TAG.match(line, i)
                    if found:  # a result, then the next game's tags: it begins at '['
                        yield first_line, " " * pad + text[start : pos + found.end()], tags
                        start, first_line, pad = pos + found.end(), number, found.end()
                        tags, blank, moves, in_comment = True, False, False, False
                        break
        pos += len(line) + 1
    if start < len(text):
        yield first_line, " " * pad + text[start:], tags


# ---------------------------------------------------------------- long numbers


@pytest.mark.parametrize(
    "movetext, column",
    [
        ("1. " + "9" * 5000 + ". B6XC6 *", 4),
        ("1. B6XC6 double " + "4" * 5000 + " *", 10),
    ],
)
def test_a_huge_number_is_a_clear_finding(movetext, column):
    (game,) = parse_text(HEX + movetext)
    (finding,) = game.findings
    assert (finding.code, finding.line, finding.column) == ("IO08", 3, column)
    assert "internal error" not in finding.message


def test_a_huge_number_in_one_action():
    with pytest.raises(NotationError) as raised:
        parse_action("double " + "4" * 5000, "Hexalit")
    assert raised.value.finding.code == "IO08"


# ---------------------------------------------------------------- comments across lines


def fmt(text: str) -> str:
    games = list(read_archive(text.encode()))
    assert all(game.ok for game in games), [game.findings for game in games]
    return format_archive(games)


def test_fmt_of_comments_across_lines_is_idempotent(tmp_path):
    text = (
        HEX + "1. B6XC6 {a long comment that\nspans two lines and goes on and on and on "
        'and on and on} E8XD8 2. B5XC5 {x\n[Event "y"]\n\n  z} (2. B5XC4 {p\nq}) *\n'
    )
    once = fmt(text)
    assert fmt(once) == once
    path = tmp_path / "a.hxl"
    path.write_text(text, "utf-8")
    runner = CliRunner()
    assert runner.invoke(cli, ["fmt", "--in-place", str(path)]).exit_code == 0
    assert runner.invoke(cli, ["fmt", "--check", str(path)]).exit_code == 0


COMMENT_TEXT = st.text(st.sampled_from('ab [];(\n\t x"'), max_size=30)
WORDS = st.sampled_from(["B6XC6", "E8XD8", "!", "$2", "double 2", "take"])


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(st.one_of(WORDS, COMMENT_TEXT.map(lambda t: "{" + t + "}")), max_size=20),
    st.sampled_from([" ", "\n", " \n "]),
)
def test_fmt_is_idempotent_with_comments_across_lines(words, gap):
    games = list(read_archive((HEX + "1. B6XC6 " + gap.join(words) + " *\n").encode()))
    if not all(game.ok for game in games):
        return
    once = format_archive(games)
    assert fmt(once) == once


SMALL_WINDOW = ReadLimits(max_token=12, max_comment=12)  # tokens are matched 76 at a time
WINDOW_WORDS = st.sampled_from(
    [
        "B6XC6",
        "E6XF6=6",
        "!?",
        "!!",
        "$12",
        "12...",
        "double 12",
        "take",
        "{comment}",
        "; line\n",
        "(",
        ")",
        "E1°D2^",
    ]
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(WINDOW_WORDS, st.integers(1, 80)), max_size=30))
def test_tokens_across_window_edges_read_as_the_grammar_reads_them(words):
    """Tokens that straddle the scanner's window are matched again from their start."""
    text = "".join(word + " " * gap for word, gap in words)
    rest = notation_parser.Rest(text, 1, 1, 1, 1)

    def outcome(fast: bool) -> object:
        try:
            return notation_parser.parse_movetext("Trigeo", rest, fast=fast, limits=SMALL_WINDOW)
        except Exception as error:
            return type(error).__name__

    assert outcome(True) == outcome(False)
