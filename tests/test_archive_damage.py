"""Damaged zip and tar archives: each bad member
or header is one error, the members after it are still read, and nothing
raises or reads more than its limit."""

from __future__ import annotations

import io
import random
import struct
import tarfile
import zipfile

import pytest
from click.testing import CliRunner

from hexhop.cli.main import cli
from hexhop.records.sources import MAX_EXTENDED_HEADER, Limits, iter_sources

GAMES = [f'[Game "Hexalit"]\n[Round "{i}"]\n1. B4W3 *\n'.encode() for i in range(6)]
NAMES = [f"g{i}.hxl" for i in range(6)]


def _zip(compression: int = zipfile.ZIP_DEFLATED, names: list[str] = NAMES) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as archive:
        for name, data in zip(names, GAMES, strict=True):
            archive.writestr(name, data)
    return buffer.getvalue()


def _tar(mode: str = "w", members: list[tuple[tarfile.TarInfo, bytes]] | None = None) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode, format=tarfile.USTAR_FORMAT) as archive:
        for name, data in zip(NAMES, GAMES, strict=True):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _read(tmp_path, name: str, data: bytes, limits: Limits = Limits()):
    path = tmp_path / name
    path.write_bytes(data)
    return {
        source.path.split(":", 1)[1] if ":" in source.path else "": source
        for source in iter_sources([str(path)], limits=limits)
    }


def _good(sources) -> dict[str, bytes]:
    return {name: source.data for name, source in sources.items() if source.data is not None}


def _central(data: bytes, index: int) -> int:
    """Offset of the ``index``-th central directory entry."""
    offset = -1
    for _ in range(index + 1):
        offset = data.index(b"PK\x01\x02", offset + 1)
    return offset


def _local(data: bytes, index: int) -> int:
    return struct.unpack_from("<I", data, _central(data, index) + 42)[0]


def _patch(data: bytes, offset: int, new: bytes) -> bytes:
    return data[:offset] + new + data[offset + len(new) :]


def _expect_only_member_2_bad(sources, fragment: str) -> None:
    assert sources["g2.hxl"].data is None
    assert fragment in sources["g2.hxl"].error
    assert _good(sources) == {n: g for n, g in zip(NAMES, GAMES, strict=True) if n != "g2.hxl"}


def test_corrupt_deflate_data_is_one_error(tmp_path):
    data = _zip()
    start = _local(data, 2) + 30 + len("g2.hxl")
    sources = _read(tmp_path, "a.zip", _patch(data, start, b"\xff\xff\xff"))
    _expect_only_member_2_bad(sources, "damaged archive member")


def test_encrypted_member_is_one_error(tmp_path):
    data = _zip()
    data = _patch(data, _central(data, 2) + 8, b"\x01\x00")
    data = _patch(data, _local(data, 2) + 6, b"\x01\x00")
    _expect_only_member_2_bad(_read(tmp_path, "a.zip", data), "encrypted")


def test_unknown_compression_method_is_one_error(tmp_path):
    data = _zip()
    data = _patch(data, _central(data, 2) + 10, struct.pack("<H", 99))
    _expect_only_member_2_bad(_read(tmp_path, "a.zip", data), "compression")


def test_corrupt_lzma_member_is_one_error(tmp_path):
    data = _zip(zipfile.ZIP_LZMA)
    start = _local(data, 2) + 30 + len("g2.hxl")
    sources = _read(tmp_path, "a.zip", _patch(data, start + 9, b"\xff" * 8))
    _expect_only_member_2_bad(sources, "damaged archive member")


def test_bad_crc_does_not_hide_the_members_after_it(tmp_path):
    data = _zip(zipfile.ZIP_STORED)
    start = _local(data, 2) + 30 + len("g2.hxl")
    sources = _read(tmp_path, "a.zip", _patch(data, start + 20, b"#"))
    _expect_only_member_2_bad(sources, "Bad CRC-32")


def test_member_name_starting_with_nul_is_passed_over(tmp_path):
    data = _zip(names=["g0.hxl", "g1.hxl", "Q.hxl", "g3.hxl", "g4.hxl", "g5.hxl"])
    sources = _read(tmp_path, "a.zip", data.replace(b"Q.hxl", b"\x00.hxl"))
    assert set(sources) == {"g0.hxl", "g1.hxl", "g3.hxl", "g4.hxl", "g5.hxl"}


@pytest.mark.parametrize("local_too", [False, True])
def test_a_member_name_flagged_utf8_that_is_not_is_read_as_an_unflagged_name(tmp_path, local_too):
    """Python's zip reader refuses the whole archive for such a name; the
    flag is cleared on it (in the central directory, and in the member's
    own header when it is there too), so every member is read."""
    data = _zip(names=["g0.hxl", "g1.hxl", "QQ.hxl", "g3.hxl", "g4.hxl", "g5.hxl"])
    data = data.replace(b"QQ.hxl", b"\xff\xfe.hxl")
    data = _patch(data, _central(data, 2) + 8, struct.pack("<H", 0x800))
    if local_too:
        data = _patch(data, _local(data, 2) + 6, struct.pack("<H", 0x800))
    with pytest.raises(UnicodeDecodeError):
        zipfile.ZipFile(io.BytesIO(data))
    sources = _read(tmp_path, "a.zip", data)
    named = b"\xff\xfe.hxl".decode("cp437")
    expected = dict(zip(NAMES, GAMES, strict=True))
    expected[named] = expected.pop("g2.hxl")
    assert _good(sources) == expected


def test_a_zip_whose_directory_cannot_be_followed_is_still_one_error(tmp_path):
    data = _zip(names=["g0.hxl", "g1.hxl", "QQ.hxl", "g3.hxl", "g4.hxl", "g5.hxl"])
    data = data.replace(b"QQ.hxl", b"\xff\xfe.hxl")
    data = _patch(data, _central(data, 2) + 8, struct.pack("<H", 0x800))
    end = data.rindex(b"PK\x05\x06")
    data = _patch(data, end + 16, struct.pack("<I", 0xFFFFFFFF))  # a zip64 directory offset
    (source,) = _read(tmp_path, "a.zip", data).values()
    assert source.data is None
    assert source.error.startswith("cannot read the archive:")


def test_corrupt_xz_tar_is_an_error_after_the_members_before_it(tmp_path):
    data = bytearray(_tar("w:xz"))
    data[len(data) // 2 : len(data) // 2 + 4] = b"\xff" * 4
    sources = _read(tmp_path, "a.tar", bytes(data))
    assert any(s.data is None and "archive" in s.error for s in sources.values())


def test_damaged_tar_header_is_skipped_and_the_rest_read(tmp_path):
    data = _tar()
    header = data.index(b"g2.hxl")  # a name starts its header
    sources = _read(tmp_path, "a.tar", _patch(data, header + 130, b"9"))  # in the mtime
    assert _good(sources) == {n: g for n, g in zip(NAMES, GAMES, strict=True) if n != "g2.hxl"}
    assert sources[f"<byte {header}>"].error == (
        "damaged tar header (bad checksum): 1024 bytes skipped"
    )


def test_damaged_first_tar_header(tmp_path):
    data = _patch(_tar(), 130, b"9")
    sources = _read(tmp_path, "a.tar", data)
    assert _good(sources) == dict(zip(NAMES[1:], GAMES[1:], strict=True))
    assert sources["<byte 0>"].error == "damaged tar header (bad checksum): 1024 bytes skipped"


def test_a_text_file_named_tar_is_one_error(tmp_path):
    (source,) = _read(tmp_path, "a.tar", GAMES[0] * 100).values()
    assert source.error.startswith("cannot read the archive:")


def _extended(kind: bytes, size: int) -> bytes:
    info = tarfile.TarInfo("././@LongLink" if kind == tarfile.GNUTYPE_LONGNAME else "pax")
    info.type, info.size = kind, size
    header = info.tobuf(tarfile.GNU_FORMAT)
    return header + b"a" * size + b"\0" * (-size % 512)


@pytest.mark.parametrize("kind", [tarfile.XHDTYPE, tarfile.GNUTYPE_LONGNAME])
def test_an_oversized_extended_header_is_one_error_not_memory(tmp_path, kind):
    """A 1.5 GB pax or GNU long-name header took 1.5 GB (and a long
    name hid every later member); here one 2 MiB header stands for it."""
    size = 2 * MAX_EXTENDED_HEADER
    sources = _read(tmp_path, "a.tar", _extended(kind, size) + _tar())
    assert sources["<byte 0>"].error == (
        f"extended tar header of {size} bytes (limit {MAX_EXTENDED_HEADER}): skipped"
    )
    assert _good(sources) == dict(zip(NAMES, GAMES, strict=True))


def test_small_extended_headers_still_work(tmp_path):
    long = "d" * 150 + "/long.hxl"
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.GNU_FORMAT) as archive:
        info = tarfile.TarInfo(long)
        info.size = len(GAMES[0])
        archive.addfile(info, io.BytesIO(GAMES[0]))
    assert _good(_read(tmp_path, "a.tgz", buffer.getvalue())) == {long: GAMES[0]}


def test_check_reports_each_damaged_member_and_checks_the_others(tmp_path):
    data = _zip()
    data = _patch(data, _central(data, 1) + 10, struct.pack("<H", 99))
    data = _patch(data, _local(data, 4) + 30 + len("g4.hxl"), b"\xff\xff\xff")
    (tmp_path / "a.zip").write_bytes(data)
    result = CliRunner().invoke(cli, ["check", "--format", "json", str(tmp_path / "a.zip")])
    assert result.exit_code == 2, result.output
    import json

    files = json.loads(result.stdout)["files"]
    assert [(f["path"].rsplit(":", 1)[1], f.get("error", {}).get("code")) for f in files] == [
        ("g0.hxl", None),
        ("g1.hxl", "IO01"),
        ("g2.hxl", None),
        ("g3.hxl", None),
        ("g4.hxl", "IO01"),
        ("g5.hxl", None),
    ]


# -- mutations ---------------------------------------------------------------


def _mutate(data: bytes, rng: random.Random, start: int = 0, end: int | None = None) -> bytes:
    end = len(data) if end is None else end
    out = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        out[rng.randrange(start, end)] = rng.randrange(256)
    return bytes(out)


def _no_crash(tmp_path, name: str, data: bytes):
    limits = Limits(max_member_bytes=100_000, max_archive_bytes=400_000)
    sources = _read(tmp_path, name, data, limits)
    for source in sources.values():
        assert (source.data is None) != (source.error is None)
        assert source.data is None or len(source.data) <= 100_000
    return sources


def test_mutated_zip_members_hide_no_other_member(tmp_path):
    """A few hundred seeded mutations inside one member's local header and
    data: only that member may change or fail."""
    rng = random.Random(17)
    for compression in (
        zipfile.ZIP_STORED,
        zipfile.ZIP_DEFLATED,
        zipfile.ZIP_BZIP2,
        zipfile.ZIP_LZMA,
    ):
        data = _zip(compression)
        for _ in range(60):
            k = rng.randrange(len(NAMES))
            start = _local(data, k)
            end = _local(data, k + 1) if k + 1 < len(NAMES) else _central(data, 0)
            sources = _no_crash(tmp_path, "m.zip", _mutate(data, rng, start, end))
            others = {n: g for n, g in zip(NAMES, GAMES, strict=True) if n != NAMES[k]}
            assert {n: d for n, d in _good(sources).items() if n != NAMES[k]} == others


def test_mutated_tar_members_hide_no_other_member(tmp_path):
    rng = random.Random(8)
    data = _tar()
    for _ in range(150):
        k = rng.randrange(len(NAMES))
        start = k * 1024  # each member: one header block, one data block
        sources = _no_crash(tmp_path, "m.tar", _mutate(data, rng, start, start + 1024))
        others = {n: g for n, g in zip(NAMES, GAMES, strict=True) if n != NAMES[k]}
        assert {n: d for n, d in _good(sources).items() if n in others} == others


@pytest.mark.parametrize(
    "mode,name", [("w:gz", "m.tar.gz"), ("w:xz", "m.tar"), ("w:bz2", "m.tar"), ("w", "m.tar")]
)
def test_mutated_and_cut_archives_never_raise(tmp_path, mode, name):
    rng = random.Random(mode)
    data = _tar(mode)
    for _ in range(40):
        _no_crash(tmp_path, name, _mutate(data, rng))
        _no_crash(tmp_path, name, data[: rng.randrange(len(data))])
    zipped = _zip()
    for _ in range(60):
        _no_crash(tmp_path, "m.zip", _mutate(zipped, rng))
        _no_crash(tmp_path, "m.zip", zipped[: rng.randrange(len(zipped))])
