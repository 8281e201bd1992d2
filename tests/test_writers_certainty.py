"""Writers never write a misreading: a game read through a guessed
encoding, or holding U+FFFD, is copied as the bytes it was read from, or
refused and named; only a game whose decoding is certain is re-encoded.
merge, split, find --export, fmt --in-place and analyse --annotate ask one
function (:func:`hexhop.archive.certainty.written_bytes`)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from test_encoding_regions import ARCHIVE, KASSEL, junk

from hexhop.archive.certainty import Uncertain, written_bytes
from hexhop.archive.texts import game_texts
from hexhop.cli.main import cli
from hexhop.records.sources import Source

WINDOWS = '[Game "Hexalit"]\n[North "Jürgen Müller"]\n[Result "*"]\n\n1. B4W3 D7W1 *\n'


def run(*args: str | Path) -> tuple[int, str]:
    done = CliRunner().invoke(cli, [str(a) for a in args])
    return done.exit_code, done.output


def test_the_one_question() -> None:
    utf8, guessed, good = game_texts(Source("club.hxl", ARCHIVE))
    assert written_bytes(utf8) == utf8.data == KASSEL.strip()
    answer = written_bytes(guessed)
    assert answer == Uncertain("club.hxl", 2, 23, True)
    assert str(answer) == (
        "club.hxl: game 2 (line 23) read as Windows-1252 by a guess "
        "(name the encoding with --encoding)"
    )
    (named,) = game_texts(Source("a.hxl", WINDOWS.encode("latin-1"), encoding="latin-1"))
    assert written_bytes(named) == WINDOWS.strip().encode("utf-8")
    lost = Source("b.hxl", WINDOWS.encode().replace(b"J\xc3\xbcrgen", b"J\xc3\xbc\xffrgen"))
    (bad,) = game_texts(lost)
    assert str(written_bytes(bad)) == (
        "b.hxl: game 1 (line 1) holds bytes that could not be read as text (U+FFFD)"
    )


def test_merge_copies_the_damaged_game_as_read(tmp_path: Path) -> None:
    """Before: the merged archive held 'Anna MÃ¼ller' and 'B4Â°…' as real
    UTF-8, and its read-back passed."""
    path = tmp_path / "club.hxl"
    path.write_bytes(ARCHIVE)
    out = tmp_path / "all.hxl"
    code, output = run("merge", path, "--out", out)
    assert code == 0 and "wrote 3 games" in output
    assert f"{path}: game 2 (line 23) read as Windows-1252 by a guess" in output
    assert out.read_bytes() == ARCHIVE.rstrip(b"\n") + b"\n"
    assert "Ã".encode() not in out.read_bytes()


def test_split_writes_the_damaged_game_as_read(tmp_path: Path) -> None:
    path = tmp_path / "club.hxl"
    path.write_bytes(ARCHIVE)
    run("split", path, "--out-dir", tmp_path / "out")
    written = sorted(p.read_bytes() for p in (tmp_path / "out").rglob("*.hxl"))
    assert (KASSEL + junk()).strip() + b"\n" in written


def test_fmt_in_place_refuses_a_guess_and_names_it(tmp_path: Path) -> None:
    """Before: the file was rewritten as the UTF-8 of the guess."""
    path = tmp_path / "a.hxl"
    path.write_bytes(WINDOWS.replace("B4W3", "B4W3  ").encode("cp1252"))
    before = path.read_bytes()
    code, output = run("fmt", "--in-place", path)
    assert code != 0 and path.read_bytes() == before
    assert f"{path}: game 1 (line 1) read as Windows-1252 by a guess" in output
    assert f"{path}: left as it is: its text is not certain" in output
    code, output = run("fmt", "--in-place", "--encoding", "cp1252", path)
    assert code == 0 and path.read_bytes() == WINDOWS.encode("utf-8")


def test_export_copies_a_guess_even_when_canonical(tmp_path: Path) -> None:
    """Before: the game was written as the UTF-8 of the guess."""
    path = tmp_path / "a.hxl"
    path.write_bytes(WINDOWS.encode("cp1252"))
    db = tmp_path / "i.sqlite"
    assert run("index", path, "--db", db)[0] == 0
    for extra in ((), ("--canonical",)):
        out = tmp_path / f"found{len(extra)}.hxl"
        code, _output = run("find", "--db", db, "--player", "Müller", "--export", out, *extra)
        assert code == 0 and out.read_bytes() == WINDOWS.encode("cp1252") + b"\n"


def test_analyse_annotate_refuses_a_guess(tmp_path: Path) -> None:
    path = tmp_path / "a.hxl"
    path.write_bytes(WINDOWS.encode("cp1252"))
    out = tmp_path / "annotated.hxl"
    code, output = run("analyse", path, "--annotate", out, "--depth", "1")
    assert f"{path}: game 1 (line 1) read as Windows-1252 by a guess" in output
    assert "not annotated" in output and not out.exists()
