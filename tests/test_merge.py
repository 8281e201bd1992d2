"""hexhop merge: games one after another with their texts
unchanged, separated by a blank line; --dedupe leaves out games with the
same actions; --out is never overwritten without --force, never half written."""

from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner
from test_writes import full_disk

from hexhop.archive.merge import same_game_key
from hexhop.archive.texts import game_texts
from hexhop.cli.main import cli
from hexhop.records.sources import Source

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "samples" / "good"

A = '[Game "Hexalit"]\n[North "A"]\n\n1. B6XC6 E8XD8 2. B5XC5 *\n'
# the same actions: other spelling, no move numbers, a comment, a variation, other tags
A_AGAIN = '[Game "Hexalit"]\n[North "Z"]\n\nb6xc6 {hm} e8 x d8 (E8XD7) b5xc5 *\n'
B = '[Game "Hexalit"]\n\n1. B6XC6 E8XD8 2. B5XC4 *\n'


def merge(*args: str):
    return CliRunner().invoke(cli, ["merge", *args])


def report(path: Path) -> list[dict]:
    result = CliRunner().invoke(cli, ["check", "--format", "json", str(path)])
    return [game for file in json.loads(result.stdout)["files"] for game in file["games"]]


def key(text: str) -> bytes | None:
    [game] = game_texts(Source("x.hxl", text.encode()))
    return same_game_key(game.parsed)


def test_the_same_game_whatever_the_spelling():
    assert key(A) == key(A_AGAIN) is not None
    assert key(A) != key(B)
    assert key(A.replace("B5XC5", "B5XC5^")) == key(A)  # marks are not actions
    assert key(A.replace("[North", '[Position "N: A7=1; S: F7=1; turn: N"]\n[North')) != key(A)
    assert key('[Game "Hexalit"]\n\n1. B6XC6 Q *\n') is None  # a syntax error: never a duplicate


def test_games_one_after_another_byte_for_byte(tmp_path):
    (tmp_path / "a.hxl").write_bytes(A.replace("\n", "\r\n").encode() + b"\r\n\r\n")
    (tmp_path / "b.hxl").write_text("\n\n" + B, "utf-8")
    out = tmp_path / "all.hxl"
    result = merge(str(tmp_path / "a.hxl"), str(tmp_path / "b.hxl"), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert result.stderr == f"wrote 2 games to {out}\n"
    assert out.read_bytes() == A.replace("\n", "\r\n").encode() + b"\n" + B.encode()


def test_samples_merge_into_one_archive_of_the_same_games(tmp_path):
    out = tmp_path / "all.hxl"
    assert merge(str(GOOD), "--out", str(out)).exit_code == 0
    assert report(out) == [
        {**game, "index": number}
        for number, game in enumerate(report(GOOD), 1)
    ]  # fmt: skip
    texts = out.read_text("utf-8").split("\n\n[Game")
    assert len(texts) == 6


def test_dedupe_keeps_the_first_and_says_how_many_were_left_out(tmp_path):
    (tmp_path / "a.hxl").write_text(A + "\n" + B, "utf-8")
    (tmp_path / "b.hxl").write_text(A_AGAIN + "\n" + B, "utf-8")
    out = tmp_path / "all.hxl"
    args = [str(tmp_path / "a.hxl"), str(tmp_path / "b.hxl"), "--out", str(out), "--dedupe"]
    result = merge(*args, "-v")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        f"{tmp_path / 'b.hxl'}:1: game 1 left out: the same game as {tmp_path / 'a.hxl'}:1 (game 1)",
        f"{tmp_path / 'b.hxl'}:6: game 2 left out: the same game as {tmp_path / 'a.hxl'}:6 (game 2)",
        f"wrote 2 games to {out}, 2 duplicates left out",
    ]
    assert out.read_text("utf-8") == A + "\n" + B
    without = merge(*args[:-1], "--force")
    assert without.stderr == f"wrote 4 games to {out}\n"


def test_out_is_not_overwritten_without_force(tmp_path):
    (tmp_path / "a.hxl").write_text(A, "utf-8")
    out = tmp_path / "all.hxl"
    out.write_text("mine", "utf-8")
    result = merge(str(tmp_path / "a.hxl"), "--out", str(out))
    assert result.exit_code == 2
    assert result.stderr == f"Error: {out} exists; use --force to overwrite it\n"
    assert out.read_text("utf-8") == "mine"
    assert merge(str(tmp_path / "a.hxl"), "--out", str(out), "--force").exit_code == 0
    assert out.read_text("utf-8") == A


def test_a_game_named_by_its_extension_gets_a_game_tag(tmp_path):
    (tmp_path / "h.hpf").write_text('[Red "R"]\n\n1. a1-c1@d1 *\n', "utf-8")
    (tmp_path / "a.hxl").write_text(A, "utf-8")
    out = tmp_path / "all.hxl"
    result = merge(str(tmp_path / "h.hpf"), str(tmp_path / "a.hxl"), "--out", str(out))
    assert "added a Game tag to 1 game that had their game from the file name" in result.stderr
    assert out.read_text("utf-8") == '[Game "Hüpfer"]\n[Red "R"]\n\n1. a1-c1@d1 *\n\n' + A
    assert [game["game"] for game in report(out)] == ["Hüpfer", "Hexalit"]


def test_a_guess_is_copied_as_read_and_a_named_encoding_written_as_utf8(tmp_path):
    """A game read as Windows-1252 by a guess is never written as the text
    of the guess: its bytes are copied; named with --encoding, it is
    written as UTF-8."""
    old = '[Game "Hexalit"]\n[North "Bär"]\n\n1. B6XC6 *\n'
    (tmp_path / "old.hxl").write_bytes(old.encode("cp1252"))
    (tmp_path / "a.hxl").write_text(A, "utf-8")
    out = tmp_path / "all.hxl"
    result = merge(str(tmp_path / "old.hxl"), str(tmp_path / "a.hxl"), "--out", str(out))
    assert (
        f"{tmp_path / 'old.hxl'}: game 1 (line 1) read as Windows-1252 by a guess "
        "(name the encoding with --encoding): copied byte for byte"
    ) in result.stderr
    assert out.read_bytes() == (old + "\n" + A).encode("cp1252")
    named = tmp_path / "named.hxl"
    result = merge(
        str(tmp_path / "old.hxl"),
        str(tmp_path / "a.hxl"),
        "--out",
        str(named),
        "--encoding",
        "cp1252",
    )
    assert f"{tmp_path / 'old.hxl'}: read as cp1252, written as UTF-8" in result.stderr
    assert named.read_text("utf-8") == old + "\n" + A


def test_an_input_that_cannot_be_read_is_told_and_the_rest_merged(tmp_path):
    (tmp_path / "a.hxl").write_text(A, "utf-8")
    missing = tmp_path / "missing.hxl"
    out = tmp_path / "all.hxl"
    result = merge(str(missing), str(tmp_path / "a.hxl"), "--out", str(out))
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"{missing}: IO01 cannot read {missing}: No such file or directory",
        f"wrote 1 game to {out}",
    ]
    assert out.read_text("utf-8") == A


def test_a_full_disk_leaves_no_half_file(tmp_path):
    (tmp_path / "a.hxl").write_text(A * 4, "utf-8")
    (tmp_path / "all.hxl").write_text("old", "utf-8")
    result = full_disk("merge", "a.hxl", "--out", "all.hxl", "--force", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("Error: cannot write all.hxl: ")
    assert sorted(os.listdir(tmp_path)) == ["a.hxl", "all.hxl"]
    assert (tmp_path / "all.hxl").read_text("utf-8") == "old"


def test_out_found_in_an_input_folder_is_not_read_as_an_input(tmp_path):
    (tmp_path / "a.hxl").write_text(A, "utf-8")
    out = tmp_path / "all.hxl"
    assert merge(str(tmp_path), "--out", str(out)).exit_code == 0
    result = merge(str(tmp_path), "--out", str(out), "--force")
    assert result.exit_code == 0, result.output
    assert result.stderr == f"{out}: left out: it is --out\nwrote 1 game to {out}\n"
    assert out.read_text("utf-8") == A
    # named itself, it is an input: never written over, not even with --force
    (tmp_path / "b.hxl").write_text(B, "utf-8")
    result = merge(str(out), str(tmp_path / "b.hxl"), "--out", str(out), "--force")
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: cannot write {out}: it is the input {out} "
        "(no command writes over its input, not even with --force)\n"
    )
    assert out.read_text("utf-8") == A


def test_a_game_without_a_header_whose_game_is_unknown_is_left_out(tmp_path):
    (tmp_path / "a.hxl").write_text(A, "utf-8")
    (tmp_path / "notes.txt").write_text("1. B6XC6 *\n", "utf-8")
    out = tmp_path / "all.hxl"
    result = merge(str(tmp_path / "a.hxl"), str(tmp_path / "notes.txt"), "--out", str(out))
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"{tmp_path / 'notes.txt'}:1: game 1 left out: it has no header, and its game cannot be told (--game names it)",
        f"wrote 1 game to {out}",
    ]
    assert out.read_text("utf-8") == A  # not run on into the game before
    args = [str(tmp_path / "a.hxl"), str(tmp_path / "notes.txt"), "--out", str(out), "--force"]
    assert merge(*args, "--game", "Hexalit").exit_code == 0
    assert out.read_text("utf-8") == A + '\n[Game "Hexalit"]\n1. B6XC6 *\n'
