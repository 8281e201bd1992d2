"""Limits of ``hexhop check``: beyond each one a clear finding, and the run goes on."""

from __future__ import annotations

import io
import json
import tarfile
import zipfile
from pathlib import Path

from click.testing import CliRunner

from hexhop.cli.main import cli
from hexhop.notation.findings import CATALOGUE
from hexhop.records.sources import Limits, iter_sources

GAME = '[Game "Hexalit"]\n\n1. B6XC6 E8XD8 2. B5XC5 *\n'
ROOT = Path(__file__).resolve().parent.parent


def check(*args: str) -> tuple[int, dict]:
    result = CliRunner().invoke(cli, ["check", "--format", "json", *args], catch_exceptions=False)
    return result.exit_code, json.loads(result.stdout)


def codes(report: dict) -> list[str]:
    found = [f["error"]["code"] for f in report["files"] if "error" in f]
    return found + [x["code"] for f in report["files"] for g in f["games"] for x in g["findings"]]


def test_games_beyond_max_games_are_reported_and_the_next_file_is_checked(tmp_path):
    (tmp_path / "a.hxl").write_text(GAME * 5, "utf-8")
    (tmp_path / "b.hxl").write_text(GAME, "utf-8")
    status, report = check(str(tmp_path), "--max-games", "3")
    first, second = report["files"]
    assert first["error"]["code"] == "IO04" and len(first["games"]) == 3
    assert second["games"][0]["valid"] and "error" not in second
    assert status == 2


def test_max_games_holds_with_two_processes_and_a_file_checked_in_parts(tmp_path):
    (tmp_path / "a.hxl").write_text(GAME * 3000, "utf-8")  # larger than SPLIT_BYTES
    _, report = check(str(tmp_path), "--max-games", "250", "-j", "2")
    assert report["files"][0]["error"]["code"] == "IO04"
    assert len(report["files"][0]["games"]) == 250


def test_a_game_with_too_many_actions_is_not_replayed(tmp_path):
    path = tmp_path / "a.hxl"
    path.write_text('[Game "Hexalit"]\n\n1. B6XC6 E8XD8 (E8XD7) 2. B5XC5 *\n' + GAME, "utf-8")
    _, report = check(str(path), "--max-plies", "3")
    first, second = report["files"][0]["games"]
    assert [f["code"] for f in first["findings"]] == ["IO05"]
    assert "more than 3 actions" in first["findings"][0]["message"]
    assert second["valid"]


def test_a_million_character_comment_is_beyond_the_default_limit(tmp_path):
    path = tmp_path / "a.hxl"
    path.write_text(
        '[Game "Hexalit"]\n\n1. B6XC6 {' + "x" * 1_000_000 + "} E8XD8 *\n" + GAME, "utf-8"
    )
    _, report = check(str(path))
    first, second = report["files"][0]["games"]
    assert [f["code"] for f in first["findings"]] == ["IO06"]
    assert first["findings"][0]["line"] == 3
    assert second["valid"]
    _, report = check(str(path), "--max-comment", "2000000")
    assert report["files"][0]["games"][0]["valid"]


def test_max_depth_lowers_the_nesting_limit(tmp_path):
    path = tmp_path / "a.hxl"
    path.write_text('[Game "Hexalit"]\n\n1. B6XC6 E8XD8 (E8XD7 (E8XC8 (E8XC7))) *\n', "utf-8")
    assert codes(check(str(path), "--max-depth", "2")[1]) == ["SY06"]
    assert "SY06" not in codes(check(str(path), "--max-depth", "3")[1])
    refused = CliRunner().invoke(cli, ["check", str(path), "--max-depth", "65"])
    assert refused.exit_code == 2 and "1<=x<=64" in refused.output


def test_nesting_beyond_the_parser_limit_is_sy06(tmp_path):
    path = tmp_path / "a.hxl"
    path.write_text(
        '[Game "Hexalit"]\n\n1. B6XC6 ' + "(E8XD8 " * 200 + ")" * 200 + " *\n" + GAME, "utf-8"
    )
    status, report = check(str(path))
    assert codes(report) == ["SY06"] and report["files"][0]["games"][1]["valid"]


def test_a_file_beyond_max_file_size_is_io03(tmp_path):
    (tmp_path / "big.hxl").write_text(GAME + " " * (1024 * 1024), "utf-8")
    (tmp_path / "small.hxl").write_text(GAME, "utf-8")
    status, report = check(str(tmp_path), "--max-file-size", "1")
    assert report["files"][0]["error"]["code"] == "IO03"
    assert report["files"][1]["games"][0]["valid"]
    assert status == 2


def test_a_zip_bomb_member_is_reported_not_expanded(tmp_path):
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a.hxl", GAME)
        archive.writestr("bomb.hxl", b" " * (3 * 1024 * 1024))  # 3 MiB of spaces: ~3 KiB packed
        archive.writestr("z.hxl", GAME)
    assert bomb.stat().st_size < 20_000
    status, report = check(str(bomb), "--max-member-size", "1")
    assert [f.get("error", {}).get("code") for f in report["files"]] == [None, "IO01", None]
    assert "too large when unpacked" in report["files"][1]["error"]["message"]
    assert report["files"][2]["games"][0]["valid"]


def test_max_archive_size_stops_unpacking_the_rest(tmp_path):
    path = tmp_path / "many.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for i in range(3):
            archive.writestr(f"{i}.hxl", GAME + " " * (600 * 1024))
    _, report = check(str(path), "--max-archive-size", "1")
    errors = [f.get("error", {}).get("code") for f in report["files"]]
    assert errors == [None, "IO01", "IO01"]


def test_a_member_that_lies_about_its_size_is_cut_off(tmp_path):
    """A zip whose header understates the size: reading stops at the limit."""
    path = tmp_path / "liar.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a.hxl", b" " * 4096)
    limits = Limits(max_member_bytes=1024)
    data = path.read_bytes()
    # patch the recorded uncompressed size (local header and central directory) to 10
    patched = data.replace((4096).to_bytes(4, "little"), (10).to_bytes(4, "little"))
    path.write_bytes(patched)
    [source] = list(iter_sources([str(path)], limits=limits))
    assert source.data is None and source.error


def test_tar_links_and_devices_are_skipped(tmp_path):
    path = tmp_path / "links.tar"
    outside = tmp_path / "secret.hxl"
    outside.write_text(GAME, "utf-8")
    with tarfile.open(path, "w") as archive:
        for name, kind in (
            ("sym.hxl", tarfile.SYMTYPE),
            ("hard.hxl", tarfile.LNKTYPE),
            ("dev.hxl", tarfile.CHRTYPE),
            ("fifo.hxl", tarfile.FIFOTYPE),
        ):
            info = tarfile.TarInfo(name)
            info.type = kind
            info.linkname = str(outside)
            archive.addfile(info)
        info = tarfile.TarInfo("real.hxl")
        body = GAME.encode()
        info.size = len(body)
        archive.addfile(info, io.BytesIO(body))
    assert [s.path.rsplit(":", 1)[1] for s in iter_sources([str(path)])] == ["real.hxl"]


def test_every_limit_is_documented():
    readme = (ROOT / "README.md").read_text("utf-8")
    section = readme.split("## Safety and limits", 1)[1].split("\n## ", 1)[0]
    for option in (
        "--max-file-size",
        "--max-member-size",
        "--max-archive-size",
        "--max-games",
        "--max-plies",
        "--max-comment",
        "--max-depth",
    ):
        assert option in section
    errors = (ROOT / "docs" / "errors.md").read_text("utf-8")
    for code in ("IO04", "IO05", "IO06"):
        assert code in CATALOGUE and f"| {code} |" in errors
