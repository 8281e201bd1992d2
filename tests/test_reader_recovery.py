"""One damaged game never takes its neighbours with it:
an unclosed ``{`` comment ends where the next game plainly begins, and
every reader of an archive (check, the streaming splitter, the archive
texts of merge and split, the index) cuts the games at the same places."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexhop.archive.texts import game_texts
from hexhop.cli.main import cli
from hexhop.notation import read_archive
from hexhop.notation.reader import game_chunks, split_games
from hexhop.notation.streaming import stream_chunks
from hexhop.records.sources import Source

MOVES = "1. B4W3 D7W1 2. A5XB2^ D7XD5 *"


def game(i: int, moves: str = MOVES) -> str:
    return f'[Game "Hexalit"]\n[North "Nord{i}"]\n[South "Sued{i}"]\n\n{moves}\n'


def archive(damaged: str = "1. B4W3 D7W1 { 2. A5XB2^ D7XD5 *", at: int = 2) -> str:
    """Eight games of six lines each (the last one blank): game ``k``
    starts on line 6k - 5; game ``at`` has ``damaged`` for movetext."""
    return "\n".join(game(i, damaged if i == at else MOVES) for i in range(1, 9))


DAMAGED = archive()  # the '{' on line 11, column 14: game 3 starts on line 13


def test_an_unclosed_comment_ends_where_the_next_games_tags_begin() -> None:
    """Before: 2 games; the comment of game 2 swallowed games 3 to 8."""
    games = list(read_archive(DAMAGED.encode(), path="club.hxl"))
    assert len(games) == 8
    assert [g.findings for g in games if g.index != 2] == [()] * 7
    (finding,) = games[1].findings
    assert (finding.code, finding.line, finding.column) == ("SY02", 11, 14)
    assert finding.message == (
        "unclosed comment started at 11:14; the game ends at line 13, "
        "where the next game's tags begin"
    )
    assert [g.record.tag("North") for g in games[2:]] == [f"Nord{i}" for i in range(3, 9)]
    assert games[2].record.span.line == 13


def test_without_a_next_game_the_message_is_the_old_one() -> None:
    games = list(read_archive(archive(at=8).encode(), path="club.hxl"))
    assert len(games) == 8
    (finding,) = games[7].findings
    assert finding.message == "unclosed comment started at 47:14"


@pytest.mark.parametrize(
    "between",
    [
        '[Event "no blank line before it"]\n',  # a tag line right after the '{' line
        '\n[Event "x"] and more text\n',  # not a tag line alone
        '\n[Event "x" ]]\n',
        "\n[Event x]\n",
        '\n   \n[Event "unclosed]\n',
    ],
)
def test_only_a_whole_tag_line_after_a_blank_line_ends_the_comment(between: str) -> None:
    text = game(1, "1. B4W3 {\n" + between + "} D7W1 *") + "\n" + game(2)
    games = list(read_archive(text.encode(), path="a.hxl"))
    assert len(games) == 2
    assert [g.findings for g in games] == [(), ()]


def test_blanks_around_the_tag_and_crlf_still_resynchronise() -> None:
    text = game(1, "1. B4W3 {never closed\n \t\n") + '\t[Game  "Hexalit" ]  \n\n1. B4W3 *\n'
    for data in (text, text.replace("\n", "\r\n")):
        games = list(read_archive(data.encode(), path="a.hxl"))
        assert [g.findings[0].code if g.findings else None for g in games] == ["SY02", None]
        assert games[1].record.span.line == 8


def test_a_closed_comment_holding_a_tag_line_after_a_blank_line_is_cut_there() -> None:
    """The price of the rule, as documented: such a comment is read as a damaged game."""
    text = game(1, '1. B4W3 { a note\n\n[Event "quoted"]\n} D7W1 *')
    assert len(list(game_chunks(text))) == 2


def test_split_games_cuts_where_the_streaming_splitter_cuts() -> None:
    text = "\n".join([DAMAGED, archive(at=5), archive(at=8)])
    whole = list(game_chunks(text))
    assert len(whole) == 24
    for block in (7, 64, 1000):
        chunks, windows_1252 = stream_chunks(text.encode(), block)
        assert list(chunks) == whole and not windows_1252
    assert [first for first, _chunk, _tags in split_games(DAMAGED)] == list(range(1, 49, 6))


def test_archive_texts_cut_the_same_games() -> None:
    texts = list(game_texts(Source("club.hxl", DAMAGED.encode())))
    assert [t.line for t in texts] == list(range(1, 49, 6))
    assert texts[1].data == game(2, "1. B4W3 D7W1 { 2. A5XB2^ D7XD5 *").strip().encode()
    assert texts[2].data == game(3).strip().encode()


def test_check_counts_every_game(tmp_path: Path) -> None:
    path = tmp_path / "club.hxl"
    path.write_text(DAMAGED, "utf-8")
    done = CliRunner().invoke(cli, ["check", str(path)])
    assert done.exit_code == 1
    assert "7 valid, 1 invalid" in done.output
    assert (
        f"{path}:11:14: error SY02 unclosed comment started at 11:14; the game ends at "
        "line 13, where the next game's tags begin" in done.output
    )
    done = CliRunner().invoke(cli, ["check", "--format", "json", str(path)])
    summary = json.loads(done.stdout)["summary"]
    assert (summary["games"], summary["valid"]) == (8, 7)


def test_index_and_find_see_every_game(tmp_path: Path) -> None:
    path = tmp_path / "club.hxl"
    path.write_text(DAMAGED, "utf-8")
    db = tmp_path / "club.sqlite"
    done = CliRunner().invoke(cli, ["index", str(path), "--db", str(db)])
    assert done.exit_code in (0, 1), done.output
    for source in (["--db", str(db)], ["--scan"]):
        found = CliRunner().invoke(
            cli, ["find", str(path), *source, "--player", "nord7", "--format", "jsonl"]
        )
        assert found.exit_code == 0, found.output
        assert [json.loads(line)["index"] for line in found.stdout.splitlines()] == [7]
        every = CliRunner().invoke(cli, ["find", str(path), *source, "--format", "jsonl"])
        assert len(every.stdout.splitlines()) == 8


def test_a_block_that_ends_just_after_a_tag_in_a_comment_cuts_nothing() -> None:
    """The streaming splitter sees the text a block at a time: a line cut
    off after ``[Event "x"]`` is not yet a whole tag line."""
    text = game(1, '1. B4W3 {\n\n[Event "x"] said the note } D7W1 *') + "\n" + game(2)
    whole = list(game_chunks(text))
    assert len(whole) == 2 and whole[0][2].count("Event") == 1
    for block in range(1, 120):
        chunks, _windows_1252 = stream_chunks(text.encode(), block)
        assert list(chunks) == whole, block
