"""``hexhop render`` on hostile records: bounded time and memory, text
clipped in pictures, one output file per input member, no character XML
cannot hold."""

from __future__ import annotations

import base64
import gzip
import re
import resource
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

import pytest
from child_peak import RUNNER, reported_peak_kib
from click.testing import CliRunner

from hexhop.cli.main import cli
from hexhop.records.frames import NAME_CHARS
from hexhop.render.html import _packed_script, escape
from hexhop.render.sequence import sheet
from hexhop.render.svg_parts import CLIP_CHARS, NOT_XML, clip, escape_attr, escape_text, xml_chars

MIB = 1024 * 1024


def run_bounded(args: list[str], *, seconds: float, mib: int) -> tuple[int, str, int]:
    """``hexhop ARGS`` in a child process that may not grow past 2×``mib``
    of address space; returns its exit code, stderr and peak RSS in MiB."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 * mib * MIB + 512 * MIB,) * 2)

    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER, *args],
        capture_output=True,
        text=True,
        timeout=seconds * 3,
        preexec_fn=limit,
    )
    elapsed = time.monotonic() - started
    assert elapsed < seconds, f"took {elapsed:.1f} s: {proc.stderr[-500:]}"
    assert "peak-kib " in proc.stderr, f"out of memory: {proc.stderr[-500:]}"
    peak = reported_peak_kib(proc.stderr) // 1024
    assert peak < mib, f"peak {peak} MiB"
    return proc.returncode, proc.stderr, peak


def record(movetext: str, **tags: str) -> str:
    head = {"Game": "Hexalit", "North": "Anna", "South": "Jonas", "Result": "*", **tags}
    return "".join(f'[{name} "{value}"]\n' for name, value in head.items()) + f"\n{movetext} *\n"


@pytest.mark.slow
def test_sibling_variations_cost_little_in_a_viewer_page(tmp_path: Path) -> None:
    """20,000 sibling variations (200 KB) took 2.6 GB and 50 s; as many as
    a viewer page holds (MAX_SHOWN_ACTIONS, the two main-line actions
    included) cost little."""
    from hexhop.records.limits import MAX_SHOWN_ACTIONS

    many = MAX_SHOWN_ACTIONS - 2
    siblings = " ".join(["(1. B4W3)"] * many)
    path = tmp_path / "siblings.hxl"
    path.write_text(record(f"1. B4W3 {siblings} 1... D7W1"), encoding="utf-8")
    assert path.stat().st_size > 195_000
    out = tmp_path / "out"
    code, stderr, _ = run_bounded(
        ["render", str(path), "--format", "html", "--out-dir", str(out)], seconds=20, mib=250
    )
    assert code == 0, stderr
    page = (out / "game001.html").read_text(encoding="utf-8")
    from test_html import embedded

    assert len(embedded(page)["moves"]["e"][0]["v"]) == many  # the script draws them
    assert len(page) < 40 * path.stat().st_size


SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "good"


def _collision_zip(tmp_path: Path) -> Path:
    archive = tmp_path / "club.zip"
    with zipfile.ZipFile(archive, "w") as handle:
        handle.write(SAMPLES / "hexalit-kassel-1998.hxl", "a/game.hxl")
        handle.write(SAMPLES / "trigeo-goettingen-1999.trg", "b/game.trg")
        handle.write(SAMPLES / "hexalit-newsletter-study.hxl", "c/game.v2.hxl")
        handle.write(SAMPLES / "huepfer-6x6-bremen-2003.hpf", "d/Other.hpf")
        handle.write(SAMPLES / "huepfer-8x8-bremen-2003.hpf", "e/other.hpf")
    return archive


def test_members_with_one_stem_get_their_own_folders(tmp_path: Path) -> None:
    """Files a/game.hxl, b/game.trg and c/game.v2.hxl were all drawn into
    game/, one over the other, and "wrote 3 files" was not true."""
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli,
        [
            "render",
            str(_collision_zip(tmp_path)),
            "--index",
            "1",
            "--plies",
            "0",
            "--out-dir",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.svg"))
    assert written == [
        "a_game/game001-ply000.svg",
        "b_game/game001-ply000.svg",
        "c_game.v2/game001-ply000.svg",
        "d_Other/game001-ply000.svg",
        "e_other/game001-ply000.svg",
    ]
    assert f"wrote 5 files to {out}" in result.output
    assert 'data-game="Trigeo"' in (out / "b_game" / "game001-ply000.svg").read_text("utf-8")


def test_index_links_every_member_to_its_own_page(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli,
        [
            "render",
            str(_collision_zip(tmp_path)),
            "--index",
            "1",
            "--format",
            "html",
            "--out-dir",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "wrote 8 files" in result.output  # and viewer.css, viewer.js
    index = (out / "index.html").read_text("utf-8")
    links = re.findall(r'href="([^"]+)"', index)
    assert links == [
        "a_game/game001.html",
        "b_game/game001.html",
        "c_game.v2/game001.html",
        "d_Other/game001.html",
        "e_other/game001.html",
    ]
    assert all((out / link).is_file() for link in links)


def test_a_member_named_twice_is_drawn_twice(tmp_path: Path) -> None:
    archive = tmp_path / "twice.tar"
    with tarfile.open(archive, "w") as handle:
        handle.add(SAMPLES / "hexalit-kassel-1998.hxl", "x/game.hxl")
        handle.add(SAMPLES / "trigeo-goettingen-1999.trg", "x/game.hxl")
        handle.add(SAMPLES / "trigeo-goettingen-1999.trg", "index.html.trg")
        handle.add(SAMPLES / "trigeo-goettingen-1999.trg", "index.trg")
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["render", str(archive), "--format", "html", "--out-dir", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*.html")) == [
        "index.html",
        "index.html-2/game001.html",
        "index/game001.html",
        "x_game-2/game001.html",
        "x_game/game001.html",
    ]
    assert "wrote 7 files" in result.output  # and viewer.css, viewer.js


# As long as the reader lets a tag value be (the IO07 limit): drawing must
# still cost little.
LONG_NAME = "N" * 10_000


@pytest.mark.slow
def test_a_long_player_name_is_clipped_in_pictures(tmp_path: Path) -> None:
    """A 1 MB player name made each PNG frame take 30 s."""
    path = tmp_path / "long.hxl"
    path.write_text(record("1. B4W3", North=LONG_NAME), encoding="utf-8")
    for fmt in ("png", "svg"):
        out = tmp_path / fmt
        code, stderr, _ = run_bounded(
            ["render", str(path), "--format", fmt, "--plies", "1", "--out-dir", str(out)],
            seconds=6,
            mib=250,
        )
        assert code == 0, stderr
    svg = (tmp_path / "svg" / "game001-ply001.svg").read_text("utf-8")
    shown = "N" * (NAME_CHARS - 1) + "…"
    assert f"<title>{shown} – Jonas: after 1. B4W3</title>" in svg
    assert "N" * NAME_CHARS not in svg
    assert (tmp_path / "png" / "game001-ply001.png").read_bytes().startswith(b"\x89PNG")


def test_long_text_is_clipped_in_one_place() -> None:
    assert clip("x" * 10, 10) == "x" * 10
    assert clip("x" * 11, 10) == "x" * 9 + "…"
    assert len(clip("y" * 1_000_000)) == CLIP_CHARS


@pytest.mark.slow
def test_sheet_captions_are_clipped_quickly() -> None:
    """A wall-clock bound, so in the slow tier, and generous (well under a
    second on a two-core machine)."""
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"></svg>'
    started = time.monotonic()
    png = sheet([("z" * 200_000, svg)], columns=1, size=100)
    assert png.startswith(b"\x89PNG") and time.monotonic() - started < 10


def test_viewer_pages_clip_names_in_headings(tmp_path: Path) -> None:
    path = tmp_path / "long.hxl"
    path.write_text(record("1. B4W3", North=LONG_NAME, Event="E" * 5000), encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["render", str(path), "--format", "html", "--out-dir", str(out)]
    )
    assert result.exit_code == 0, result.output
    page = (out / "game001.html").read_text("utf-8")
    title = re.search(r"<title>(.*)</title>", page).group(1)
    assert title == "N" * (CLIP_CHARS - 1) + "… · Hexalit"
    heading = re.search(r"<h1>(.*)</h1>", page).group(1)
    assert "N" * (CLIP_CHARS - 1) + "…</span>" in heading and "N" * CLIP_CHARS not in heading
    assert f"<dd>{LONG_NAME}</dd>" in page  # the tag list keeps the whole text


#: Characters XML cannot hold, or HTML advises against, in tags and comments.
# no NUL: a file with one is binary to check, and so to render (IO02)
CONTROLS = "\x01\x02\x1b\x7f\x85"


def test_control_characters_from_a_record_become_replacement_characters(tmp_path: Path) -> None:
    """HTML pages carried raw NUL, \\x01 and ESC from tags."""
    path = tmp_path / "controls.hxl"
    text = record(
        f"{{a{CONTROLS}b}} 1. B4W3 {{c{CONTROLS}d}} (1. B4W3 {{e{CONTROLS}f}})",
        North=f"N{CONTROLS}n",
        Event=f"ev{CONTROLS}[2J",
    )
    path.write_text(text, encoding="utf-8")
    for fmt in ("html", "svg"):
        result = CliRunner().invoke(
            cli, ["render", str(path), "--format", fmt, "--out-dir", str(tmp_path / fmt)]
        )
        assert result.exit_code == 0, result.output
    page = (tmp_path / "html" / "game001.html").read_text("utf-8")
    svg = (tmp_path / "svg" / "game001-ply001.svg").read_text("utf-8")
    for output in (page, svg):
        assert not NOT_XML.search(output)
    replaced = "\ufffd" * len(CONTROLS)
    body = page.split("<body>", 1)[1]
    assert f"N{replaced}n" in body and f"ev{replaced}[2J" in body
    packed = re.search(r'id="hexhop-data">(.*?)</script>', page, re.S).group(1)
    data = gzip.decompress(base64.b64decode(packed)).decode("utf-8")
    for comment in ("a", "c", "e"):  # the move list is the script's data
        assert f"{comment}{replaced}{chr(ord(comment) + 1)}" in data
    assert f"c{replaced}d" in data and "\\u0000" not in data and "\\u001b" not in data
    assert f"<title>N{replaced}n – Jonas: after 1. B4W3</title>" in svg


def test_lone_surrogates_and_controls_never_reach_markup() -> None:
    hostile = "a\ud800b\udfffc\x00d\x1be\ufffff"
    assert xml_chars(hostile) == "a\ufffdb\ufffdc\ufffdd\ufffde\ufffdf"
    assert escape(hostile + "<&>") == "a\ufffdb\ufffdc\ufffdd\ufffde\ufffdf&lt;&amp;&gt;"
    script = _packed_script("x", {"k": [hostile]})
    script.encode("utf-8")  # no lone surrogate left
    packed = re.search(r'id="x">(.*?)</script>', script).group(1)
    text = gzip.decompress(base64.b64decode(packed)).decode("utf-8")
    assert "a\ufffdb" in text and "\\u0000" not in text
    assert escape_text(hostile) == xml_chars(hostile)
    assert escape_attr(hostile) == xml_chars(hostile)


def test_an_unreadable_file_of_a_folder_is_reported_and_the_rest_drawn(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "a.hxl").symlink_to(folder / "missing.hxl")
    (folder / "b.trg").write_bytes((SAMPLES / "trigeo-goettingen-1999.trg").read_bytes())
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["render", str(folder), "--plies", "0", "--out-dir", str(out)])
    assert result.exit_code == 2, result.output  # as check: some input could not be read
    assert f"cannot read {folder / 'a.hxl'}: No such file or directory" in result.output
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*.svg")) == [
        "b/game001-ply000.svg"
    ]
