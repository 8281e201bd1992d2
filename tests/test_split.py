"""hexhop split: one file per game, named from its tags in
safe ASCII, with its game's extension, numbered when a name is taken, never
over an existing file, each game's bytes as they were in the source."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_writes import full_disk

from hexhop.archive.split import (
    Names,
    ascii_word,
    date_part,
    file_stem,
    name_from_tags,
    surname,
)
from hexhop.archive.texts import game_texts
from hexhop.cli.main import cli
from hexhop.records.sources import Source

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "samples" / "good"

HEXALIT = (
    '[Game "Hexalit"]\n[Date "2024.05.01"]\n[Round "3"]\n'
    '[North "Müller, Anna"]\n[South "Jürgen Schmidt"]\n\n1. B6XC6 E8XD8 *\n'
)
TRIGEO = '[Game "Trigeo"]\n[North "Ødegård"]\n[South "Straße"]\n\n1. b4xc4 {a comment} *\n'


def split(*args: str):
    return CliRunner().invoke(cli, ["split", *args])


def test_names_come_from_the_tags_in_safe_ascii():
    assert ascii_word("Müller") == "Mueller"
    assert ascii_word("Straße") == "Strasse"
    assert ascii_word("Ødegård / ../etc") == "Oedegaard-etc"  # Ø has no decomposition: LETTERS
    assert surname("Müller, Anna") == "Mueller"
    assert surname("Anna von Müller") == "Mueller"
    assert date_part("2024.05.01") == "2024-05-01"
    assert date_part("1998.??.??") == "1998"
    assert date_part("????.??.??") == ""
    [game] = game_texts(Source("a.hxl", HEXALIT.encode()))
    assert file_stem(game) == "2024-05-01_Mueller-Schmidt_r3"


def test_a_game_without_tags_is_named_after_its_file_and_number():
    games = list(game_texts(Source("dir/Club Archiv.hxl", b"1. B6XC6 *\n")))
    assert file_stem(games[0]) == "Club-Archiv-1"


def test_names_taken_get_numbers_and_case_does_not_tell_names_apart():
    names = Names()
    assert next(names.candidates("a", ".hxl")) == "a.hxl"
    assert next(names.candidates("A", ".hxl")) == "A_2.hxl"
    taken = names.candidates("a", ".hxl")
    assert [next(taken), next(taken)] == ["a_3.hxl", "a_4.hxl"]


def test_split_writes_each_game_byte_for_byte(tmp_path):
    # CRLF line ends, a BOM and a comment between games: each game is cut
    # where the reader cuts it and copied with its own bytes
    first = HEXALIT.replace("\n", "\r\n").encode()
    second = TRIGEO.encode()
    archive = tmp_path / "club.hxl"
    archive.write_bytes(b"\xef\xbb\xbf" + first + b"\r\n\r\n" + second + b"\n\n\n")
    result = split(str(archive), "--out-dir", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert result.stderr == f"wrote 2 files to {tmp_path / 'out'}\n"
    out = tmp_path / "out"
    assert sorted(os.listdir(out)) == ["2024-05-01_Mueller-Schmidt_r3.hxl", "Oedegaard-Strasse.trg"]
    assert (out / "2024-05-01_Mueller-Schmidt_r3.hxl").read_bytes() == first
    assert (out / "Oedegaard-Strasse.trg").read_bytes() == second


def test_windows_1252_bytes_are_kept(tmp_path):
    data = '[Game "Hexalit"]\n[North "Bär"]\n\n1. B6XC6 {30° warm} *\n'.encode("cp1252")
    (tmp_path / "old.hxl").write_bytes(data)
    assert split(str(tmp_path / "old.hxl"), "--out-dir", str(tmp_path / "out")).exit_code == 0
    assert (tmp_path / "out" / "Baer.hxl").read_bytes() == data


def test_the_games_extension_not_the_files(tmp_path):
    (tmp_path / "mixed.hxl").write_text(TRIGEO + "\n" + HEXALIT, "utf-8")
    (tmp_path / "noext.txt").write_text("1. a1-c1@d1 *\n", "utf-8")
    result = split(str(tmp_path / "mixed.hxl"), str(tmp_path / "noext.txt"), "--glob", "*")
    assert result.exit_code == 2  # --out-dir is required
    result = split(
        str(tmp_path / "mixed.hxl"), str(tmp_path / "noext.txt"), "--game", "Hüpfer",
        "--out-dir", str(tmp_path / "out"),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert sorted(os.listdir(tmp_path / "out")) == [
        "2024-05-01_Mueller-Schmidt_r3.hxl",
        "Oedegaard-Strasse.trg",
        "noext-1.hpf",
    ]


def test_an_existing_file_is_never_overwritten(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "2024-05-01_Mueller-Schmidt_r3.hxl").write_text("mine", "utf-8")
    (tmp_path / "a.hxl").write_text(HEXALIT + "\n" + HEXALIT, "utf-8")
    result = split(str(tmp_path / "a.hxl"), "--out-dir", str(out), "-v")
    assert result.exit_code == 0, result.output
    assert (out / "2024-05-01_Mueller-Schmidt_r3.hxl").read_text("utf-8") == "mine"
    assert (out / "2024-05-01_Mueller-Schmidt_r3_2.hxl").read_text("utf-8") == HEXALIT
    assert (out / "2024-05-01_Mueller-Schmidt_r3_3.hxl").read_text("utf-8") == HEXALIT
    assert f"{tmp_path / 'a.hxl'}:9: game 2 -> {out / '2024-05-01_Mueller-Schmidt_r3_3.hxl'}" in (
        result.stderr
    )


def test_samples_and_zip_members(tmp_path):
    zipped = tmp_path / "good.zip"
    with zipfile.ZipFile(zipped, "w") as archive:
        for path in sorted(GOOD.iterdir()):
            archive.write(path, f"good/{path.name}")
    result = split(str(zipped), "--out-dir", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    names = sorted(os.listdir(tmp_path / "out"))
    assert names == [
        "1998-03-14_Berger-Keller_r4.hxl",
        "1999-11-06_Sommer-Brandt_r2.trg",
        "2001_Study-Study.hxl",
        "2003-02-21_Hansen-Ohlsen_r1.hpf",
        "2003-03-07_Hansen-Ohlsen_r2.hpf",
        "2003-04-11_Voss-Ohlsen_r3.hpf",
    ]
    written = sorted((tmp_path / "out" / name).read_bytes() for name in names)
    assert written == sorted(path.read_bytes() for path in GOOD.iterdir())


def test_a_file_that_cannot_be_read_is_told_and_the_rest_are_split(tmp_path):
    (tmp_path / "a.hxl").write_text(HEXALIT, "utf-8")
    (tmp_path / "b.hxl").write_bytes(b"\x00\x01binary")
    missing = tmp_path / "missing.hxl"
    result = split(str(missing), str(tmp_path / "b.hxl"), str(tmp_path / "a.hxl"),
                   "--out-dir", str(tmp_path / "out"))  # fmt: skip
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"{missing}: IO01 cannot read {missing}: No such file or directory",
        f"{tmp_path / 'b.hxl'}: IO02 {tmp_path / 'b.hxl'} is not a text file (it contains binary data)",
        f"wrote 1 file to {tmp_path / 'out'}",
    ]
    assert os.listdir(tmp_path / "out") == ["2024-05-01_Mueller-Schmidt_r3.hxl"]


def test_a_full_disk_is_told_for_each_game_with_what_was_kept(tmp_path):
    (tmp_path / "a.hxl").write_text(HEXALIT, "utf-8")
    result = full_disk("split", "a.hxl", "--out-dir", "out", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith(
        "a.hxl:1: game 1 not written: cannot write out/2024-05-01_Mueller-Schmidt_r3.hxl: "
    )
    assert result.stderr.endswith(
        "\nwrote 0 files to out\n1 game not written (named above); every other game was written\n"
    )
    assert os.listdir(tmp_path / "out") == []  # no half file, no temporary file


def test_line_starts_in_files_of_every_kind_of_line_end():
    """Games are found in the bytes by line number; lines are skipped in
    blocks, so check against the line starts counted one by one."""
    import random
    import re

    from hexhop.archive.texts import _LineStarts

    rng = random.Random(14)
    for _ in range(300):
        pieces = rng.choices(
            [b"\n", b"\r\n", b"\r", b"a", b"\xc3\xa4", b" " * 300], k=rng.randrange(1, 600)
        )
        data = b"".join(pieces)
        if rng.random() < 0.5:  # only LF line ends: a guess is looked at
            data = data.replace(b"\r", b"")
        starts = [0] + [m.end() for m in re.finditer(rb"\r\n|\r|\n", data)]
        lines = _LineStarts(data)
        wanted = sorted(rng.sample(range(1, len(starts) + 3), min(5, len(starts))))
        for line in wanted:
            expected = starts[line - 1] if line <= len(starts) else len(data)
            assert lines.start_of(line) == expected, (data, line)
        # a guess, right or wrong, gives the same answers
        guessing = _LineStarts(data)
        for line in wanted:
            expected = starts[line - 1] if line <= len(starts) else len(data)
            guess = rng.choice([expected, expected - 1, expected + 1, rng.randrange(len(data) + 2)])
            assert guessing.start_of(line, guess) == expected, (data, line, guess)


@pytest.mark.slow
def test_a_game_after_millions_of_blank_lines_is_found_quickly(tmp_path):
    """A wall-clock bound, so in the slow tier, and generous: about 0.25 s
    on a two-core machine; line by line it took 5 s."""
    import time

    data = b"\n" * 5_000_000 + HEXALIT.encode()
    started = time.perf_counter()
    [game] = game_texts(Source("a.hxl", data))
    assert time.perf_counter() - started < 4.0
    assert (game.line, game.offset, game.data) == (5_000_001, 5_000_000, HEXALIT.encode().strip())


def test_the_files_written_are_not_split_again_when_out_is_inside_an_input(tmp_path):
    (tmp_path / "a.hxl").write_text(HEXALIT + "\n" + TRIGEO, "utf-8")
    result = split(str(tmp_path), "--out-dir", str(tmp_path / "z-games"))
    assert result.exit_code == 0, result.output
    assert result.stderr == f"wrote 2 files to {tmp_path / 'z-games'}\n"
    assert len(os.listdir(tmp_path / "z-games")) == 2


@pytest.mark.parametrize(
    "name, word",
    [
        ("MÜLLER", "MUELLER"),
        ("Müller", "Mueller"),
        ("Mu\u0308ller", "Mueller"),  # a combining umlaut
        ("Bäcker", "Baecker"),
        ("BÄCKER", "BAECKER"),
        ("Ülker", "Uelker"),
        ("STRAßE", "STRASSE"),
        ("Weiß", "Weiss"),
        ("Søren Kjær", "Soeren-Kjaer"),
        ("Yılmaz", "Yilmaz"),
        ("Łukasz", "Lukasz"),
        ("Chloé", "Chloe"),
        ("MÃ¼ller", "Mueller"),  # UTF-8 read as Windows-1252: read again, never MA14ller
        ("Ｍüller", "Mueller"),  # fullwidth
        ("Anna²", "Anna"),  # a superscript is no digit of a name
    ],
)
def test_a_name_keeps_the_case_of_its_word(name: str, word: str) -> None:
    assert ascii_word(name) == word


def test_name_from_tags_is_the_one_rule(tmp_path: Path) -> None:
    tags = {"date": "2024.05.01", "NORTH": "MÜLLER, ANNA", "South": "Bäcker", "Round": "2"}
    # one file name for every spelling of a player: capitals are not kept
    assert name_from_tags(tags, "Hexalit") == "2024-05-01_Mueller-Baecker_r2"
    assert name_from_tags({"Red": "Müller", "Turquoise": "Ødegård"}, "Hüpfer") == (
        "Mueller-Oedegaard"
    )
    assert name_from_tags({"Event": "no name here"}, "Hexalit") == ""
    assert name_from_tags({"North": "Con"}, "Hexalit") == "Con_"  # a device of Windows


def test_split_writes_readable_names(tmp_path: Path) -> None:
    records = "\n".join(
        f'[Game "Hexalit"]\n[North "{north}"]\n[South "{south}"]\n\n1. B6XC6 *\n'
        for north, south in [("MÜLLER", "BÄCKER"), ("Anna Müller", "Käthe Weiß")]
    )
    (tmp_path / "club.hxl").write_text(records, "utf-8")
    result = split(str(tmp_path / "club.hxl"), "--out-dir", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert sorted(os.listdir(tmp_path / "out")) == ["Mueller-Baecker.hxl", "Mueller-Weiss.hxl"]


def test_a_game_that_cannot_be_written_stops_no_other(tmp_path: Path, monkeypatch) -> None:
    """A batch never stops for one bad game: the others are written, the bad
    one is named, and the run ends with exit 2 and what was kept."""
    from hexhop.archive import writing

    games = "\n".join(
        f'[Game "Hexalit"]\n[North "P{n}"]\n[South "Q{n}"]\n\n1. B6XC6 *\n' for n in range(4)
    )
    (tmp_path / "club.hxl").write_text(games, "utf-8")
    real = writing.write_file

    def refuse_the_second(path, *args, **kwargs):
        if os.path.basename(path).startswith("P1-"):
            raise writing.WriteError(path, OSError(28, "No space left on device"))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(writing, "write_file", refuse_the_second)
    monkeypatch.setattr("hexhop.cli.safe_write.write_file", refuse_the_second)
    result = split(str(tmp_path / "club.hxl"), "--out-dir", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert sorted(os.listdir(tmp_path / "out")) == ["P0-Q0.hxl", "P2-Q2.hxl", "P3-Q3.hxl"]
    assert "club.hxl:7: game 2 not written: cannot write " in result.output
    assert "wrote 3 files to " in result.output
    assert "1 game not written (named above); every other game was written" in result.output
