"""Archives inside archives are read, 3 deep, under the outer archive's
limits: a zip in a zip, a tar.gz in a zip, a gzipped record in a tar; their
members are named ``outer.zip:inner.zip:game.hxl`` and can be named so;
an archive deeper than that is named as not read."""

from __future__ import annotations

import gzip
import io
import tarfile
import zipfile
from pathlib import Path

from click.testing import CliRunner

from hexhop.cli.main import cli
from hexhop.records.sources import MAX_NESTING, Limits, iter_sources, read_record

GAME = (
    (Path(__file__).resolve().parent.parent / "samples" / "good")
    .joinpath("hexalit-kassel-1998.hxl")
    .read_bytes()
)


def zipped(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def tarred(members: dict[str, bytes], mode: str = "w:gz") -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode=mode) as archive:  # type: ignore[call-overload]
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


def outer(tmp_path: Path) -> Path:
    path = tmp_path / "outer.zip"
    path.write_bytes(
        zipped(
            {
                "a.hxl": GAME,
                "inner.zip": zipped({"x.hxl": GAME, "y.hxl": GAME, "z.hxl": GAME}),
                "old.tar.gz": tarred({"t.hxl": GAME, "p.hxl.gz": gzip.compress(GAME)}),
            }
        )
    )
    return path


def test_a_zip_in_a_zip_is_read_beside_the_other_members(tmp_path: Path) -> None:
    """Before: the 3 games of inner.zip were passed over without a word."""
    path = outer(tmp_path)
    names = [source.path for source in iter_sources([str(path)])]
    assert names == [
        f"{path}:a.hxl",
        f"{path}:inner.zip:x.hxl",
        f"{path}:inner.zip:y.hxl",
        f"{path}:inner.zip:z.hxl",
        f"{path}:old.tar.gz:t.hxl",
        f"{path}:old.tar.gz:p.hxl.gz",
    ]
    done = CliRunner().invoke(cli, ["check", str(path)])
    assert done.exit_code == 0 and "Checked 6 files, 6 games, 252 plies" in done.output


def test_a_member_of_an_inner_archive_is_named_as_reports_name_it(tmp_path: Path) -> None:
    """Before: naming the inner zip gave IO02 "not a text file"."""
    path = outer(tmp_path)
    assert read_record(f"{path}:old.tar.gz:p.hxl.gz") == (f"{path}:old.tar.gz:p.hxl.gz", GAME)
    done = CliRunner().invoke(cli, ["check", f"{path}:inner.zip"])
    assert done.exit_code == 0 and "Checked 3 files, 3 games" in done.output
    done = CliRunner().invoke(cli, ["show", f"{path}:inner.zip"])
    assert done.exit_code == 2
    assert f"holds 3 record files: name one as ARCHIVE:MEMBER, like {path}:inner.zip:x.hxl" in (
        done.output
    )


def test_what_inner_archives_unpack_counts_against_the_outer_limit(tmp_path: Path) -> None:
    path = outer(tmp_path)
    inner = len(zipped({"x.hxl": GAME, "y.hxl": GAME, "z.hxl": GAME}))
    limit = len(GAME) + inner + 2 * len(GAME)  # a.hxl, inner.zip, x.hxl, y.hxl
    sources = list(iter_sources([str(path)], limits=Limits(max_archive_bytes=limit)))
    assert [s.error is None for s in sources] == [True, True, True, False, False]
    assert sources[3].error == "too large when unpacked: 907 bytes (limit 0)"
    assert sources[4].path == f"{path}:old.tar.gz"  # nothing left to unpack it with


def test_an_archive_deeper_than_the_limit_is_named(tmp_path: Path) -> None:
    nest = zipped({"last.hxl": GAME})
    for depth in range(MAX_NESTING + 1):
        nest = zipped({f"z{depth}.zip": nest, f"g{depth}.hxl": GAME})
    path = tmp_path / "deep.zip"
    path.write_bytes(nest)
    sources = list(iter_sources([str(path)]))
    assert [s.path.removeprefix(str(path)) for s in sources] == [
        ":g3.hxl",
        ":z3.zip:g2.hxl",
        ":z3.zip:z2.zip:g1.hxl",
        ":z3.zip:z2.zip:z1.zip",
    ]
    assert sources[-1].error == "an archive inside 3 archives: not read (archives are read 3 deep)"
    done = CliRunner().invoke(cli, ["ls", str(path)])
    assert f"{path}:z3.zip:z2.zip:z1.zip: IO01 " in done.output
