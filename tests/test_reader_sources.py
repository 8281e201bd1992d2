"""Every command reads what check reads: split and merge
read a UTF-16 file (and write its games as UTF-8), and ``read_games`` takes
any path check takes: a file, a folder, a zip or tar archive."""

from __future__ import annotations

import codecs
import io
import json
import tarfile
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

import hexhop
from hexhop.archive.texts import game_texts
from hexhop.cli.main import cli
from hexhop.records.sources import Source

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "samples" / "good"
RECORD = '[Game "Hüpfer"]\r\n[Red "Jörg"]\r\n[Turquoise "Ümit"]\r\n\r\n1. a1-c1@d1 f6-d6@c6 *\r\n'
SECOND = '[Game "Hüpfer"]\n[Red "Zoë"]\n[Turquoise "Ümit"]\n\n1. a1-c1@d1 *\n'
UTF16 = {
    "utf-16-le": codecs.BOM_UTF16_LE + (RECORD + "\r\n" + RECORD).encode("utf-16-le"),
    "utf-16-be": codecs.BOM_UTF16_BE + (RECORD + "\r\n" + RECORD).encode("utf-16-be"),
}


def report(path: Path) -> list[dict]:
    result = CliRunner().invoke(cli, ["check", "--format", "json", str(path)])
    return [game for file in json.loads(result.stdout)["files"] for game in file["games"]]


@pytest.mark.parametrize("encoding", UTF16)
def test_the_archive_texts_of_a_utf16_file_are_its_games_in_utf8(encoding: str) -> None:
    texts = list(game_texts(Source("a.hpf", UTF16[encoding])))
    assert [(t.index, t.line, t.encoding) for t in texts] == [(1, 1, encoding), (2, 7, encoding)]
    assert [t.data for t in texts] == [RECORD.strip().encode("utf-8")] * 2
    assert [t.parsed.findings for t in texts] == [(), ()]


@pytest.mark.parametrize("encoding", UTF16)
def test_merge_reads_a_utf16_file_and_writes_utf8(tmp_path: Path, encoding: str) -> None:
    """Before: "IO02 … is not a text file (it contains binary data)", exit 2."""
    (tmp_path / "notepad.hpf").write_bytes(UTF16[encoding])
    (tmp_path / "plain.hpf").write_text(SECOND, "utf-8")
    out = tmp_path / "all.hpf"
    done = CliRunner().invoke(
        cli,
        ["merge", str(tmp_path / "notepad.hpf"), str(tmp_path / "plain.hpf"), "--out", str(out)],
    )
    assert done.exit_code == 0, done.output
    text = out.read_bytes().decode("utf-8")  # UTF-8 throughout
    assert text.count("Jörg") == 2 and text.count("Zoë") == 1
    games = report(out)
    assert [(g["valid"], g["players"]) for g in games] == [
        (True, ["Jörg", "Ümit"]),
        (True, ["Jörg", "Ümit"]),
        (True, ["Zoë", "Ümit"]),
    ]


@pytest.mark.parametrize("encoding", UTF16)
def test_split_reads_a_utf16_file_and_writes_utf8(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "notepad.hpf"
    path.write_bytes(UTF16[encoding])
    out = tmp_path / "out"
    done = CliRunner().invoke(cli, ["split", str(path), "--out-dir", str(out)])
    assert done.exit_code == 0, done.output
    written = sorted(out.iterdir())
    assert [p.name for p in written] == ["Joerg-Uemit.hpf", "Joerg-Uemit_2.hpf"]
    assert [p.read_bytes() for p in written] == [RECORD.strip().encode("utf-8") + b"\r\n"] * 2


def _zip(path: Path) -> None:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("club/a.hpf", SECOND)
        archive.writestr("club/b.trg", (GOOD / "trigeo-goettingen-1999.trg").read_bytes())
        archive.writestr("club/readme.txt", "not a record")


def _tar(path: Path) -> None:
    with tarfile.open(path, "w:gz") as archive:
        for name, data in (("a.hpf", SECOND.encode()), ("b.hpf", UTF16["utf-16-le"])):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))


def test_read_games_reads_a_zip_as_check_does(tmp_path: Path) -> None:
    """Before: the zip's bytes read as text, a game of junk."""
    path = tmp_path / "club.zip"
    _zip(path)
    games = list(hexhop.read_games(path))
    assert [(g.path, g.game, g.valid) for g in games] == [
        (f"{path}:club/a.hpf", "Hüpfer", True),
        (f"{path}:club/b.trg", "Trigeo", True),
    ]
    assert [g.report.plies for g in games] == [g["plies"] for g in report(path)]


def test_read_games_reads_a_folder_and_a_tar_as_check_does(tmp_path: Path) -> None:
    """Before: IsADirectoryError."""
    _tar(tmp_path / "club.tar.gz")
    (tmp_path / "x.hpf").write_text(SECOND, "utf-8")
    games = list(hexhop.read_games(tmp_path))
    assert [(Path(g.path).name, g.tags.get("Red")) for g in games] == [
        ("club.tar.gz:a.hpf", "Zoë"),
        ("club.tar.gz:b.hpf", "Jörg"),
        ("club.tar.gz:b.hpf", "Jörg"),
        ("x.hpf", "Zoë"),
    ]
    assert [g.report.plies for g in games] == [g["plies"] for g in report(tmp_path)]


def test_read_games_says_why_a_path_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(hexhop.NotationError, match=r"IO01|cannot read .*missing\.hxl"):
        list(hexhop.read_games(tmp_path / "missing.hxl"))
    (tmp_path / "image.hxl").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    with pytest.raises(hexhop.NotationError, match="is not a text file"):
        list(hexhop.read_games(tmp_path / "image.hxl"))
