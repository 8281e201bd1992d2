"""Compressed record files and tarballs as users have them:
``club.hxl.gz`` (any record extension, also .bz2 and .xz), ``.tar.bz2``
and ``.tar.xz``, read in place under the limits of zip and tar.gz; a
compression bomb is one IO01 naming the file, never a MemoryError."""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import tarfile
from pathlib import Path

import pytest
from click.testing import CliRunner

import hexhop
from hexhop.archive.texts import game_texts
from hexhop.cli.main import cli
from hexhop.records.sources import Limits, iter_sources, read_record

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "samples" / "good"
# no Game tag: the game is told from the name, .trg of club.trg.gz
TRIGEO = (GOOD / "trigeo-goettingen-1999.trg").read_bytes().replace(b'[Game "Trigeo"]\n', b"")
COMPRESS = {".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress}


def check(*args: str) -> tuple[int, dict]:
    done = CliRunner().invoke(cli, ["check", "--format", "json", *args])
    return done.exit_code, json.loads(done.stdout)


@pytest.mark.parametrize("suffix", COMPRESS)
def test_a_compressed_record_is_read_and_its_game_told_from_its_name(
    tmp_path: Path, suffix: str
) -> None:
    """Before: IO02, "… is not a text file (it contains binary data)"."""
    path = tmp_path / f"club.trg{suffix}"
    path.write_bytes(COMPRESS[suffix](TRIGEO))
    code, report = check(str(path))
    assert code == 0, report
    (file,) = report["files"]
    assert file["path"] == str(path) and file.get("error") is None
    assert [(g["game"], g["valid"], g["plies"]) for g in file["games"]] == [("Trigeo", True, 40)]
    assert read_record(str(path)) == (str(path), TRIGEO)
    (game,) = hexhop.read_games(path)
    assert game.game == "Trigeo" and game.report.plies == 40


def test_a_folder_holds_compressed_records(tmp_path: Path) -> None:
    (tmp_path / "a.hpf.gz").write_bytes(
        gzip.compress((GOOD / "huepfer-6x6-bremen-2003.hpf").read_bytes())
    )
    (tmp_path / "b.hxl").write_bytes((GOOD / "hexalit-kassel-1998.hxl").read_bytes())
    (tmp_path / "notes.txt.gz").write_bytes(gzip.compress(b"not a record"))
    code, report = check(str(tmp_path))
    assert code == 0
    assert [Path(f["path"]).name for f in report["files"]] == ["a.hpf.gz", "b.hxl"]


def test_split_names_the_game_of_a_compressed_record(tmp_path: Path) -> None:
    path = tmp_path / "club.trg.gz"
    path.write_bytes(gzip.compress(TRIGEO))
    [text] = game_texts(next(iter_sources([str(path)])))
    assert text.parsed.record.game == "Trigeo" and text.data == TRIGEO.strip()
    out = tmp_path / "out"
    done = CliRunner().invoke(cli, ["split", str(path), "--out-dir", str(out)])
    assert done.exit_code == 0, done.output
    assert [p.suffix for p in out.iterdir()] == [".trg"]


def _tarball(mode: str) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode) as archive:
        for sample in sorted(GOOD.iterdir()):
            info = tarfile.TarInfo(f"games/{sample.name}")
            info.size = sample.stat().st_size
            archive.addfile(info, io.BytesIO(sample.read_bytes()))
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("suffix", "mode"),
    [(".tar.bz2", "w:bz2"), (".tar.xz", "w:xz"), (".tbz2", "w:bz2"), (".txz", "w:xz")],
)
def test_tarballs_compressed_with_bzip2_and_xz(tmp_path: Path, suffix: str, mode: str) -> None:
    """Before: the tarball read as one record file of binary data."""
    path = tmp_path / f"club{suffix}"
    path.write_bytes(_tarball(mode))
    code, report = check(str(path))
    assert code == 0
    assert [f["path"] for f in report["files"]] == [
        f"{path}:games/{sample.name}" for sample in sorted(GOOD.iterdir())
    ]
    assert all(g["valid"] for f in report["files"] for g in f["games"])
    member = f"{path}:games/trigeo-goettingen-1999.trg"
    assert read_record(member) == (member, (GOOD / "trigeo-goettingen-1999.trg").read_bytes())


def _gzip_of_zeros(size: int) -> bytes:
    """A gzip file of ``size`` zero bytes (a multiple of 16 MiB): one member
    of 16 MiB of zeros, repeated (a gzip file may hold several members)."""
    member = gzip.compress(bytes(16 << 20), compresslevel=9)
    return member * (size // (16 << 20))


def test_a_compression_bomb_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bomb.hxl.gz"
    path.write_bytes(_gzip_of_zeros(2 << 30))  # 2 GiB of zeros
    assert path.stat().st_size < 3 << 20
    code, report = check(str(path))
    assert code == 2  # an input that could not be read
    (file,) = report["files"]
    assert file["error"]["code"] == "IO01"
    assert file["error"]["message"] == f"cannot read {path}: unpacks to more than {64 << 20} bytes"
    (source,) = iter_sources([str(path)], limits=Limits(max_file_bytes=5 << 20))
    assert source.data is None and source.error == f"unpacks to more than {5 << 20} bytes"
    (source,) = iter_sources([str(path)], limits=Limits(max_file_bytes=1000))
    assert source.too_large == (path.stat().st_size, 1000)  # the file itself is too large


def test_a_damaged_compressed_file_is_one_error(tmp_path: Path) -> None:
    path = tmp_path / "club.hxl.gz"
    path.write_bytes(gzip.compress(TRIGEO)[:-30])
    (source,) = iter_sources([str(path)])
    assert source.data is None and source.error.startswith("damaged compressed file: ")
    path.write_bytes(b"plain text, not gzip")
    (source,) = iter_sources([str(path)])
    assert source.data is None and source.error.startswith("damaged compressed file: ")
