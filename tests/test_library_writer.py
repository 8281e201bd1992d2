"""The one writer of the library (hexhop.archive.writing): every command
that writes records and the editor's save keep its promises, in one place."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexhop.archive import writing
from hexhop.archive.writing import Exists, OverInputError, write_file
from hexhop.cli.main import cli
from hexhop.records import raising

A = '[Game "Hexalit"]\n[North "Anna Berger"]\n\n1. B6XC6 E8XD8 *\n'


def temporaries(folder: Path) -> list[str]:
    return [name for name in os.listdir(folder) if name.startswith(".hexhop-")]


@pytest.fixture
def umask_027():
    old = os.umask(0o027)
    yield
    os.umask(old)


def test_a_new_file_has_the_mode_of_the_umask(tmp_path: Path, umask_027) -> None:
    write_file(str(tmp_path / "a.hxl"), b"x")
    assert (tmp_path / "a.hxl").stat().st_mode & 0o7777 == 0o640


@pytest.mark.parametrize(
    "command",
    [
        ["merge", "in", "--out", "out/merged.hxl"],
        ["split", "in", "--out-dir", "out"],
        ["find", "in", "--scan", "--export", "out/found.hxl"],
        ["dupes", "in", "--scan", "--export", "out/once.hxl"],
        ["convert", "in/a.hxl", "--to", "json", "--out", "out/a.json"],
    ],
)
def test_every_command_writes_with_the_mode_of_the_umask(
    tmp_path: Path, umask_027, command: list[str], monkeypatch
) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.hxl").write_text(A, "utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, command)
    assert result.exit_code in (0, 1), result.output  # dupes: 1, no duplicate
    written = sorted((tmp_path / "out").iterdir())
    assert written and all(p.stat().st_mode & 0o7777 == 0o640 for p in written), written
    assert temporaries(tmp_path / "out") == []


def test_a_file_written_over_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "a.hxl"
    target.write_bytes(b"old")
    target.chmod(0o600)
    write_file(str(target), b"new", overwrite=True)
    assert (target.read_bytes(), target.stat().st_mode & 0o7777) == (b"new", 0o600)


def test_the_file_and_its_folder_are_synced_before_the_write_is_done(
    tmp_path: Path, monkeypatch
) -> None:
    synced: list[str] = []
    real = os.fsync

    def fsync(handle: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{handle}"))
        real(handle)

    monkeypatch.setattr(writing.os, "fsync", fsync)
    write_file(str(tmp_path / "a.hxl"), [b"pie", b"ces"])
    assert len(synced) == 2
    assert Path(synced[0]).parent == tmp_path and Path(synced[0]).name.startswith(".hexhop-")
    assert synced[1] == str(tmp_path)
    assert (tmp_path / "a.hxl").read_bytes() == b"pieces"


def test_without_overwrite_nothing_is_replaced(tmp_path: Path) -> None:
    target = tmp_path / "a.hxl"
    os.symlink(tmp_path / "nowhere", target)  # a dangling link takes the name too
    with pytest.raises(Exists) as caught:
        write_file(str(target), b"new")
    assert str(caught.value) == f"{target} exists"
    assert os.readlink(target) == str(tmp_path / "nowhere") and temporaries(tmp_path) == []


def test_a_name_taken_while_writing_is_not_written_over(tmp_path: Path) -> None:
    target = tmp_path / "a.hxl"

    def taken(temporary: str) -> None:  # someone else's file, made during the read-back
        target.write_bytes(b"theirs")

    with pytest.raises(Exists):
        write_file(str(target), b"mine", check=taken)
    assert target.read_bytes() == b"theirs" and temporaries(tmp_path) == []


def test_without_hard_links_the_name_is_still_taken_once(tmp_path: Path, monkeypatch) -> None:
    def no_links(*args: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(writing.os, "link", no_links)
    write_file(str(tmp_path / "a.hxl"), b"new")
    assert (tmp_path / "a.hxl").read_bytes() == b"new"
    with pytest.raises(Exists):
        write_file(str(tmp_path / "a.hxl"), b"other")
    assert (tmp_path / "a.hxl").read_bytes() == b"new" and temporaries(tmp_path) == []


def test_never_over_an_input_nor_the_archive_that_holds_one(tmp_path: Path) -> None:
    source = tmp_path / "a.hxl"
    source.write_text(A, "utf-8")
    os.link(source, tmp_path / "hard.hxl")
    for target in (source, tmp_path / "hard.hxl", tmp_path / "." / "a.hxl"):
        with pytest.raises(OverInputError) as caught:
            write_file(str(target), b"new", overwrite=True, inputs=[str(source)])
        assert str(caught.value) == (
            f"cannot write {target}: it is the input {source}"
            " (no command writes over its input, not even with --force)"
        )
    assert source.read_text("utf-8") == A and temporaries(tmp_path) == []


def test_a_read_back_that_fails_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "a.hxl"
    target.write_bytes(b"old")

    def refuse(temporary: str) -> None:
        assert Path(temporary).read_bytes() == b"new"  # the file as a reader reads it
        raise writing.WriteError(str(target), OSError(5, "read back wrong"))

    with pytest.raises(writing.WriteError):
        write_file(str(target), b"new", overwrite=True, check=refuse)
    assert target.read_bytes() == b"old" and temporaries(tmp_path) == []


def test_signals_are_held_while_bytes_are_written_and_put_in_place(
    tmp_path: Path, monkeypatch
) -> None:
    seen: list[tuple[str, bool]] = []
    real_replace = os.replace

    def check(temporary: str) -> None:
        seen.append(("check", raising.holding()))

    def replace(source: str, target: str) -> None:
        seen.append(("replace", raising.holding()))
        real_replace(source, target)

    monkeypatch.setattr(writing.os, "replace", replace)
    write_file(str(tmp_path / "a"), b"whole", overwrite=True, check=check)
    write_file(str(tmp_path / "b"), iter([b"pie", b"ces"]), overwrite=True, check=check)
    # bytes given whole: held throughout; pieces: held while put in place only
    assert seen == [("check", True), ("replace", True), ("check", False), ("replace", True)]
    assert not raising.holding()


def test_an_interrupt_between_pieces_leaves_nothing(tmp_path: Path) -> None:
    def pieces():
        yield b"first"
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_file(str(tmp_path / "a.hxl"), pieces())
    assert os.listdir(tmp_path) == []


def test_new_files_written_together_are_flushed_together(tmp_path: Path, monkeypatch) -> None:
    """Inside synced_together, a new file is flushed when the block ends (the
    files, then their folder once); a file written over, before it is
    put in place, as always."""
    synced: list[str] = []
    real = os.fsync

    def fsync(handle: int) -> None:
        synced.append(Path(os.readlink(f"/proc/self/fd/{handle}")).name)
        real(handle)

    monkeypatch.setattr(writing.os, "fsync", fsync)
    (tmp_path / "old.svg").write_bytes(b"old")
    with writing.synced_together():
        write_file(str(tmp_path / "a.hxl"), b"a")
        write_file(str(tmp_path / "b.hxl"), b"b")
        assert synced == []
        write_file(str(tmp_path / "old.svg"), b"new", overwrite=True)
        assert len(synced) == 2 and synced[0].startswith(".hexhop-")  # the file, its folder
        assert synced[1] == tmp_path.name
    assert synced[2:] == ["a.hxl", "b.hxl", tmp_path.name]


def test_split_flushes_its_files_together(tmp_path: Path, monkeypatch) -> None:
    calls: list[int] = []
    monkeypatch.setattr(writing.os, "fsync", lambda handle: calls.append(handle))
    games = "\n".join(
        f'[Game "Hexalit"]\n[North "P{n}"]\n[South "Q"]\n\n1. B4W3 *\n' for n in range(5)
    )
    (tmp_path / "five.hxl").write_text(games, "utf-8")
    result = CliRunner().invoke(
        cli, ["split", str(tmp_path / "five.hxl"), "--out-dir", str(tmp_path / "out")]
    )
    assert result.exit_code == 0, result.output
    assert len(calls) == 5 + 1  # each file once, the folder once


def test_render_of_a_folder_looks_at_each_input_once(tmp_path: Path, monkeypatch) -> None:
    """The inputs are looked up once, not again for every file written:
    30 records drawn are 30 pictures and 122 look-ups (30 × 62 more when
    every write looked at every input)."""
    folder = tmp_path / "games"
    folder.mkdir()
    for n in range(30):
        (folder / f"g{n:02d}.hxl").write_text(A, "utf-8")
    looked = []
    real = writing._identities
    monkeypatch.setattr(writing, "_identities", lambda path: looked.append(path) or real(path))
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["render", str(folder), "--plies", "0", "--out-dir", str(out)])
    assert result.exit_code == 0, result.output
    assert len(list(out.rglob("*.svg"))) == 30
    assert len(looked) <= 5 * 30, len(looked)


def test_without_hard_links_a_failed_rename_leaves_no_empty_file(
    tmp_path: Path, monkeypatch
) -> None:
    def no_links(*args: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    def no_rename(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(writing.os, "link", no_links)
    monkeypatch.setattr(writing.os, "replace", no_rename)
    with pytest.raises(writing.WriteError) as caught:
        write_file(str(tmp_path / "a.hxl"), b"new")
    assert str(caught.value) == f"cannot write {tmp_path / 'a.hxl'}: No space left on device"
    assert os.listdir(tmp_path) == []
