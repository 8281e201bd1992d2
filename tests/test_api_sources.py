"""``read_games`` takes what ``hexhop check`` takes, and
each game says which file it came from, as check's report names it."""

from __future__ import annotations

import bz2
import gzip
import lzma
import shutil
import tarfile
import zipfile
from pathlib import Path

import pytest

import hexhop

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "samples" / "good"
KASSEL = GOOD / "hexalit-kassel-1998.hxl"
TRIGEO = GOOD / "trigeo-goettingen-1999.trg"
NORTH = {"hexalit-kassel-1998.hxl": "Anna Berger", "trigeo-goettingen-1999.trg": "Ute Sommer"}


@pytest.fixture
def club(tmp_path: Path) -> Path:
    """A folder of two record files, one in a subfolder, and a text file."""
    folder = tmp_path / "club"
    (folder / "games").mkdir(parents=True)
    shutil.copy(KASSEL, folder / "games" / KASSEL.name)
    shutil.copy(TRIGEO, folder / TRIGEO.name)
    (folder / "notes.txt").write_text("not a record", "utf-8")
    return folder


def read(source: object, **options: object) -> list[tuple[str, str]]:
    return [(game.path, game.tags["North"]) for game in hexhop.read_games(source, **options)]


def checked(*paths: str) -> list[str]:
    """The files ``check`` reports, in its order."""
    return [result.path for result in hexhop.check_paths(list(paths))]


def test_a_folder(club: Path) -> None:
    games = read(club)
    assert games == [  # a folder's files before its subfolders', as check reads them
        (f"{club}/trigeo-goettingen-1999.trg", "Ute Sommer"),
        (f"{club}/games/hexalit-kassel-1998.hxl", "Anna Berger"),
    ]
    assert [path for path, _ in games] == checked(str(club))


def test_a_list_of_paths(club: Path) -> None:
    assert read([TRIGEO, str(KASSEL)]) == [
        (str(TRIGEO), "Ute Sommer"),
        (str(KASSEL), "Anna Berger"),
    ]


@pytest.mark.parametrize("name", ["club.zip", "club.tar", "club.tar.gz", "club.tar.xz"])
def test_an_archive_and_its_members(club: Path, tmp_path: Path, name: str) -> None:
    archive = tmp_path / name
    if name.endswith(".zip"):
        with zipfile.ZipFile(archive, "w") as zipped:
            for file in sorted(club.rglob("*")):
                if file.is_file():
                    zipped.write(file, file.relative_to(club).as_posix())
    else:
        mode = {"club.tar": "w", "club.tar.gz": "w:gz", "club.tar.xz": "w:xz"}[name]
        with tarfile.open(archive, mode) as tarred:
            for file in sorted(club.rglob("*")):
                if file.is_file():
                    tarred.add(file, file.relative_to(club).as_posix())
    games = read(archive)
    assert games == [
        (f"{archive}:games/hexalit-kassel-1998.hxl", "Anna Berger"),
        (f"{archive}:trigeo-goettingen-1999.trg", "Ute Sommer"),
    ]
    assert [path for path, _ in games] == checked(str(archive))
    member = f"{archive}:trigeo-goettingen-1999.trg"
    assert read(member) == [(member, "Ute Sommer")]
    assert read(f"{archive}:games/hexalit-kassel-1998.hxl") == [games[0]]
    [notes] = hexhop.read_games(f"{archive}:notes.txt", game="Hexalit")  # as check reads it
    assert notes.path == f"{archive}:notes.txt" and [f.code for f in notes.findings] == ["SY01"]


@pytest.mark.parametrize(("suffix", "pack"), [(".gz", gzip), (".bz2", bz2), (".xz", lzma)])
def test_a_compressed_record_file(tmp_path: Path, suffix: str, pack: object) -> None:
    path = tmp_path / f"kassel.hxl{suffix}"
    path.write_bytes(pack.compress(KASSEL.read_bytes()))  # type: ignore[attr-defined]
    [game] = hexhop.read_games(path)
    [plain] = hexhop.read_games(KASSEL)
    assert game.path == str(path) and game.positions == plain.positions
    assert game.record() == plain.record()


def test_a_missing_member_and_a_file_that_is_no_text(club: Path, tmp_path: Path) -> None:
    archive = tmp_path / "club.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.write(KASSEL, KASSEL.name)
        zipped.writestr("broken.hxl", b"\x00\x01\x02binary\x00")
    with pytest.raises(hexhop.NotationError) as caught:
        list(hexhop.read_games(f"{archive}:broken.hxl"))
    assert caught.value.finding.code == "IO02"
    unreadable: list[hexhop.Finding] = []
    games = read(archive, unreadable=unreadable.append)
    assert games == [(f"{archive}:{KASSEL.name}", "Anna Berger")]
    assert [finding.code for finding in unreadable] == ["IO02"]
