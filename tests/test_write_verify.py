"""Writers verify: merge, split, find --export, dupes
--export, fmt --in-place and analyse --annotate read back what they wrote
with the reader, and a file that does not hold the games written is not
put in place: exit 2, a message naming the file and the first game that
differs, no output (and for fmt --in-place, the file as it was)."""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner

from hexhop.archive.verify import Written, game_digest, standalone, verify
from hexhop.cli import analyse_cmd, find_cmd, fmt_cmd, merge_cmd, split_cmd
from hexhop.cli.main import cli
from hexhop.notation import read_archive

ROOT = Path(__file__).resolve().parent.parent
TRIGEO = ROOT / "samples" / "good" / "trigeo-goettingen-1999.trg"

A = '[Game "Hexalit"]\n[North "Anna Berger"]\n\n1. B6XC6 E8XD8 2. B5XC5 *\n'
B = '[Game "Hexalit"]\n[North "Jonas Keller"]\n\n1. B6XC6 E8XD8 2. B5XC4 *\n'


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def corrupt(monkeypatch, module: ModuleType, old: bytes, new: bytes) -> None:
    """Let ``module`` write ``new`` where its data says ``old``: a writer
    whose file does not hold what it says it wrote."""
    real = module.write_atomically

    def wrong(path, data, **options):
        pieces = [data] if isinstance(data, bytes) else data
        return real(path, (piece.replace(old, new) for piece in pieces), **options)

    monkeypatch.setattr(module, "write_atomically", wrong)


def differs(path, index: int, written: int, read: int) -> str:
    return (
        f"cannot write {path}: it does not read back as written: game {index} differs "
        f"({written} written, {read} read back); nothing was written"
    )


def temporaries(folder: Path) -> list[str]:
    return [name for name in os.listdir(folder) if name.startswith(".hexhop-")]


@pytest.fixture
def two(tmp_path: Path) -> Path:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.hxl").write_text(A, "utf-8")
    (tmp_path / "in" / "b.hxl").write_text(B, "utf-8")
    return tmp_path


# -- the read-back itself ------------------------------------------------------------


def digests(text: str, path: str = "x.hxl") -> Written:
    written = Written()
    for parsed in read_archive(text.encode(), path=path):
        written.add(parsed)
    return written


def test_a_file_holding_the_games_written_passes(tmp_path):
    out = tmp_path / "x.hxl"
    # other spelling, comments, move numbers: the same games
    out.write_text(A.replace("B6XC6", "b6xc6 {so}") + "\n" + B.replace("2. ", ""), "utf-8")
    verify(str(out), digests(A + "\n" + B))


def test_the_first_game_that_differs_is_named(tmp_path):
    out = tmp_path / "x.hxl"
    out.write_text(A + "\n" + A, "utf-8")
    with pytest.raises(Exception) as error:
        verify(str(out), digests(A + "\n" + B))
    assert str(error.value) == differs(out, 2, 2, 2)
    out.write_text(A, "utf-8")  # one missing
    with pytest.raises(Exception) as error:
        verify(str(out), digests(A + "\n" + B), shown="all.hxl")
    assert str(error.value) == differs("all.hxl", 2, 2, 1)
    out.write_text(A + "\n" + B + "\n" + B, "utf-8")  # one more
    with pytest.raises(Exception) as error:
        verify(str(out), digests(A + "\n" + B))
    assert str(error.value) == differs(out, 3, 2, 3)


def test_the_game_comes_from_the_name_it_is_read_under(tmp_path):
    text = '[Event "x"]\n\n1. C7°D7 E6°D7 *\n'  # Trigeo, from the file's name only
    out = tmp_path / "temp.tmp"
    out.write_text(text, "utf-8")
    verify(str(out), digests(text, "a.trg"), shown="b.trg")
    with pytest.raises(Exception, match="game 1 differs"):
        verify(str(out), digests(text, "a.trg"), shown="b.hxl")


@pytest.mark.slow  # 0.6 s: a large archive read back block by block
def test_read_back_a_block_at_a_time_is_the_reader(tmp_path):
    """UTF-16, a byte order mark, Windows-1252 and CRs: what read_archive reads."""
    text = A + "\n" + B.replace("Jonas", "Jonäs")
    for data in (
        text.encode("utf-16"),
        b"\xef\xbb\xbf" + text.encode(),
        text.encode("cp1252"),
        text.replace("\n", "\r\n").encode(),
        (text * 3000).encode(),  # many blocks
    ):
        out = tmp_path / "x.hxl"
        out.write_bytes(data)
        written = Written()
        for parsed in read_archive(data, path="x.hxl"):
            written.add(parsed)
        verify(str(out), written)
        assert len(written) in (2, 6000)


def test_a_game_that_cannot_stand_alone():
    [headless] = read_archive(b"1. B6XC6 *\n", path="notes.txt")
    assert standalone(b"1. B6XC6 *", headless) is None
    [named] = read_archive(b"1. B6XC6 *\n", path="a.hxl")
    assert standalone(b"1. B6XC6 *", named) == b'[Game "Hexalit"]\n1. B6XC6 *'
    [unknown] = read_archive(b'[Event "x"]\n\n1. B6XC6 *\n', path="notes.txt")
    assert standalone(b'[Event "x"]\n\n1. B6XC6 *', unknown) is None
    assert game_digest(named) != game_digest(unknown)


# -- each writer: right, and made to write something else -----------------------------


def test_merge(two, monkeypatch):
    out = two / "all.hxl"
    result = run("merge", str(two / "in"), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_text("utf-8") == A + "\n" + B
    out.unlink()
    corrupt(monkeypatch, merge_cmd, b"B5XC4", b"B5XC3")
    result = run("merge", str(two / "in"), "--out", str(out))
    assert result.exit_code == 2
    assert result.stderr == f"Error: {differs(out, 2, 2, 2)}\n"
    assert not out.exists() and not temporaries(two)


def test_merge_with_force_keeps_the_old_file(two, monkeypatch):
    out = two / "all.hxl"
    out.write_text("old", "utf-8")
    corrupt(monkeypatch, merge_cmd, b"B5XC4", b"B5XC3")
    result = run("merge", str(two / "in"), "--out", str(out), "--force")
    assert result.exit_code == 2
    assert out.read_text("utf-8") == "old" and not temporaries(two)


def test_split(two, monkeypatch):
    (two / "ab.hxl").write_text(A + "\n" + B, "utf-8")
    result = run("split", str(two / "ab.hxl"), "--out-dir", str(two / "out"))
    assert result.exit_code == 0, result.output
    assert sorted(os.listdir(two / "out")) == ["Berger.hxl", "Keller.hxl"]
    assert (two / "out" / "Keller.hxl").read_text("utf-8") == B
    corrupt(monkeypatch, split_cmd, b"B5XC4", b"B5XC3")
    result = run("split", str(two / "ab.hxl"), "--out-dir", str(two / "again"))
    assert result.exit_code == 2
    keller = two / "again" / "Keller.hxl"
    assert result.stderr == (
        f"{two / 'ab.hxl'}:6: game 2 not written: {differs(keller, 1, 1, 1)}\n"
        f"wrote 1 file to {two / 'again'}\n"
        "1 game not written (named above); every other game was written\n"
    )
    assert os.listdir(two / "again") == ["Berger.hxl"]


@pytest.mark.parametrize("command", ["find", "dupes"])
def test_find_and_dupes_export(two, monkeypatch, command):
    out = two / "found.hxl"
    args = [command, str(two / "in"), "--export", str(out)] + (
        ["--scan"] if command == "find" else []
    )
    result = run(*args)
    assert result.exit_code == (0 if command == "find" else 1), result.output
    assert out.read_text("utf-8") == A + "\n" + B + "\n"  # a blank line after each game
    out.unlink()
    corrupt(monkeypatch, find_cmd, b"B5XC4", b"B5XC3")
    result = run(*args)
    assert result.exit_code == 2
    assert f"Error: {differs(out, 2, 2, 2)}\n" in result.stderr
    assert not out.exists() and not temporaries(two)


def test_find_export_canonical(two):
    out = two / "found.hxl"
    (two / "in" / "c.hxl").write_text(A.replace("2. B5XC5", "2.B5XC5  {x}"), "utf-8")
    result = run("find", str(two / "in"), "--scan", "--export", str(out), "--canonical")
    assert result.exit_code == 0, result.output
    assert out.read_text("utf-8") == A + "\n" + B + "\n" + A.replace("B5XC5", "B5XC5 {x}")


def test_fmt_in_place(tmp_path, monkeypatch):
    record = tmp_path / "a.hxl"
    messy = A.replace("1. B6XC6", "1.B6XC6 ") + "\n" + B.replace("2. B5XC4", "2.  B5XC4")
    record.write_text(messy, "utf-8")
    corrupt(monkeypatch, fmt_cmd, b"B5XC4", b"B5XC3")
    result = run("fmt", "--in-place", str(record))
    assert result.exit_code == 2
    assert result.stderr == f"{differs(record, 2, 2, 2)}; the file is left as it was\n"
    assert record.read_text("utf-8") == messy and not temporaries(tmp_path)
    monkeypatch.undo()
    result = run("fmt", "--in-place", str(record))
    assert result.exit_code == 0, result.output
    assert record.read_text("utf-8") == A + "\n" + B


def test_analyse_annotate(tmp_path, monkeypatch):
    out = tmp_path / "annotated.trg"
    assert run("analyse", str(TRIGEO), "--annotate", str(out)).exit_code == 0
    assert "20. D7XC5?" in out.read_text("utf-8")
    out.unlink()
    corrupt(monkeypatch, analyse_cmd, b"D7XC5", b"D7XC6")
    result = run("analyse", str(TRIGEO), "--annotate", str(out))
    assert result.exit_code == 2
    assert f"Error: {differs(out, 1, 1, 1)}\n" in result.stderr
    assert not out.exists() and not temporaries(tmp_path)


def test_a_comment_left_open_never_takes_the_next_game_silently(tmp_path):
    """A game whose ``{`` is never closed, merged before another: either
    the file reads back as both games, or nothing is written."""
    (tmp_path / "a.hxl").write_text('[Game "Hexalit"]\n\n1. B6XC6 {no end\n', "utf-8")
    (tmp_path / "b.hxl").write_text(B, "utf-8")
    out = tmp_path / "all.hxl"
    result = run("merge", str(tmp_path / "a.hxl"), str(tmp_path / "b.hxl"), "--out", str(out))
    if result.exit_code == 0:
        games = list(read_archive(out.read_bytes(), path=str(out)))
        assert len(games) == 2 and games[1].record is not None
        assert games[1].record.tag("North") == "Jonas Keller"
    else:
        assert result.exit_code == 2
        assert f"Error: {differs(out, 1, 2, 1)}\n" == result.stderr
        assert not out.exists()
