"""Where records come from: directories, archives, symlinks, limits."""

from __future__ import annotations

import io
import os
import tarfile
import zipfile

from hexhop.records.sources import Limits, iter_sources, wanted


def _write(path, text='[Game "Hexalit"]\n*\n'):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_directory_is_walked_files_first_then_subfolders_sorted(tmp_path):
    _write(tmp_path / "b.hxl")
    _write(tmp_path / "a" / "z.trg")
    _write(tmp_path / "a" / "notes.txt")
    _write(tmp_path / "c.hpf")
    paths = [os.path.relpath(s.path, tmp_path) for s in iter_sources([str(tmp_path)])]
    assert paths == ["b.hxl", "c.hpf", os.path.join("a", "z.trg")]


def test_glob_replaces_the_default_extensions(tmp_path):
    _write(tmp_path / "game.txt")
    _write(tmp_path / "game.hxl")
    paths = [os.path.basename(s.path) for s in iter_sources([str(tmp_path)], globs=("*.txt",))]
    assert paths == ["game.txt"]


def test_zip_members_are_read_in_place_and_named_after_the_archive(tmp_path):
    archive = tmp_path / "club.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("2024/b.hxl", "B")
        zf.writestr("2024/a.hpf", "A")
        zf.writestr("readme.txt", "not a record")
    sources = list(iter_sources([str(archive)]))
    assert [s.path for s in sources] == [f"{archive}:2024/a.hpf", f"{archive}:2024/b.hxl"]
    assert [s.data for s in sources] == [b"A", b"B"]
    assert sorted(os.listdir(tmp_path)) == ["club.zip"]  # nothing extracted


def test_tar_gz_members_are_read(tmp_path):
    archive = tmp_path / "club.tar.gz"
    with tarfile.open(archive, "w:gz") as tf:
        data = b'[Game "Trigeo"]\n*\n'
        info = tarfile.TarInfo("games/one.trg")
        info.size = len(data)
        tf.addfile(info, io.BytesIO(data))
    sources = list(iter_sources([str(archive)]))
    assert [(s.path, s.data) for s in sources] == [(f"{archive}:games/one.trg", data)]


def test_a_zip_bomb_is_reported_not_expanded(tmp_path):
    archive = tmp_path / "bomb.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("big.hxl", b"0" * 200_000)
    (source,) = iter_sources([str(archive)], limits=Limits(max_member_bytes=10_000))
    assert source.data is None
    assert "too large" in source.error


def test_damaged_archive_and_missing_file_become_errors(tmp_path):
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"not a zip at all")
    sources = list(iter_sources([str(bad), str(tmp_path / "missing.hxl")]))
    assert [s.data for s in sources] == [None, None]
    assert "archive" in sources[0].error
    assert "No such file" in sources[1].error


def test_symlinks_leading_out_of_the_tree_are_not_followed(tmp_path):
    outside = _write(tmp_path / "outside" / "secret.hxl")
    tree = tmp_path / "tree"
    _write(tree / "inside.hxl")
    os.symlink(outside, tree / "link.hxl")
    paths = [os.path.basename(s.path) for s in iter_sources([str(tree)])]
    assert paths == ["inside.hxl"]


def test_wanted_matches_names_case_insensitively():
    assert wanted("dir/GAME.HXL", ())
    assert not wanted("dir/game.pgn", ())
    assert wanted("dir/game.pgn", ("*.pgn",))
