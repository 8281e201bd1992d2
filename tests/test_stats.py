"""``hexhop stats``: exact counts from an index and from
a scan alike, the JSON document, the charts of the plot extra, bad input."""

from __future__ import annotations

import json
import sqlite3
import sys
import xml.etree.ElementTree as ElementTree
from collections import Counter
from pathlib import Path

import pytest
from archive_helpers import GOOD, make_archive, run

import hexhop
from hexhop.engine.generate import random_archive
from hexhop.notation import format_archive

BROKEN = GOOD.parent / "broken"

# Two Hexalit games ended by a dropped cube: North moves first and South
# drops; South moves first (First tag) and North drops.
DROPS = (
    '[Game "Hexalit"]\n[North "Ann"]\n[South "Ben"]\n[First "North"]\n[Result "1-0"]\n\n'
    "1. double 2 drop 1-0\n\n"
    '[Game "Hexalit"]\n[North "Ben"]\n[South "Ann"]\n[First "South"]\n[Result "0-1"]\n\n'
    "1. D7W1 B4W3 2. double 2 drop 0-1\n"
)


def _stats(*args: object) -> dict:
    result = run("stats", *args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The archive of the find tests, two cube drops and the broken samples, indexed."""
    root = tmp_path_factory.mktemp("stats")
    arch = make_archive(root)
    (arch / "drops.hxl").write_text(DROPS, "utf-8")
    for path in BROKEN.iterdir():
        (arch / "broken").mkdir(exist_ok=True)
        (arch / "broken" / path.name).write_bytes(path.read_bytes())
    db = root / "arch.sqlite"
    assert run("index", arch, "--db", db).exit_code == 0
    return arch, db


def test_samples_exact() -> None:
    counts = _stats(GOOD)
    assert counts["games"] == 6
    assert [
        (g["game"], g["board"], g["games"], g["results"], g["first_mover_won"])
        + (g["second_mover_won"], g["open"], g["first_mover_rate"])
        for g in counts["by_game"]
    ] == [
        # the newsletter study: South moves first (Position tag) and loses 1-0
        ("Hexalit", None, 2, {"1-0": 1, "0-1": 1, "*": 0, "none": 0}, 0, 2, 0, 0.0),
        ("Hüpfer", "6x6", 1, {"1-0": 1, "0-1": 0, "*": 0, "none": 0}, 1, 0, 0, 1.0),
        ("Hüpfer", "8x8", 1, {"1-0": 1, "0-1": 0, "*": 0, "none": 0}, 1, 0, 0, 1.0),
        ("Hüpfer", "10x10", 1, {"1-0": 0, "0-1": 1, "*": 0, "none": 0}, 0, 1, 0, 0.0),
        ("Trigeo", None, 1, {"1-0": 0, "0-1": 1, "*": 0, "none": 0}, 0, 1, 0, 0.0),
    ]
    assert [
        (p["name"], p["games"], p["won"], p["lost"], p["score"]) for p in counts["players"]
    ] == [
        ("Paul Ohlsen", 3, 1, 2, 0.3333),
        ("Mira Hansen", 2, 2, 0, 1.0),
        ("Study", 2, 1, 1, 0.5),
        ("Jonas Keller", 1, 1, 0, 1.0),
        ("Karl Brandt", 1, 1, 0, 1.0),
        ("Anna Berger", 1, 0, 1, 0.0),
        ("Lena Voss", 1, 0, 1, 0.0),
        ("Ute Sommer", 1, 0, 1, 0.0),
    ]
    hexalit = counts["lengths"][0]
    assert (hexalit["min"], hexalit["max"], hexalit["mean"], hexalit["median"]) == (
        22,
        42,
        32.0,
        32,
    )
    assert [b["games"] for b in hexalit["bins"]] == [1, 0, 0, 0, 1]
    assert [(b["from"], b["to"]) for b in hexalit["bins"]][:2] == [(20, 24), (25, 29)]
    trigeo = counts["openings"][-1]
    assert trigeo["game"] == "Trigeo"
    path = []
    node = trigeo
    while node["children"]:
        node = node["children"][0]
        path.append(node["action"])
        assert (node["games"], node["wins"], node["open"]) == (1, {"North": 0, "South": 1}, 0)
    assert path == ["C7°D7", "E6°D7", "B7°D7", "E8°D7"]  # --depth 4
    assert counts["findings"] == []


def test_table_on_samples() -> None:
    result = run("stats", GOOD, "--opening-depth", "1")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "6 games"
    assert (
        "  game          games  1-0  0-1  *  none  1st won  2nd won  open  dropped  1st %" in lines
    )
    assert (
        "  Hexalit           2    1    1  0     0        0        2     0        0     0%" in lines
    )
    assert "  Paul Ohlsen       3    1     2        0     0    33%" in lines
    assert "    C7°D7                         1  North 0%  South 100%  open 0%" in lines


def test_index_and_scan_agree(archive: tuple[Path, Path]) -> None:
    arch, db = archive
    scanned = _stats(arch, "--scan", "--opening-depth", "5", "--top", "4", "--limit", "0")
    assert _stats("--db", db, "--opening-depth", "5", "--top", "4", "--limit", "0") == scanned
    # samples, club, zip, random, drops, broken: the copies the archive
    # holds (the same game between the same players, a broken copy by the
    # actions before its error) are counted once
    every = _stats(arch, "--scan", "--keep-duplicates", "--limit", "0")
    assert every["games"] == 6 + 3 + 1 + 12 + 2 + 24
    assert every["set_aside"] == 0
    assert scanned["games"] == every["games"] - 4
    assert scanned["set_aside"] == 4
    # with a filter of find, too
    only = _stats(arch, "--scan", "--player", "ann")
    assert only == _stats("--db", db, "--player", "ann")
    found = run("find", "--db", db, "--player", "ann", "--format", "jsonl").stdout.splitlines()
    assert only["games"] == len(found) == 12


def test_archive_counts_against_the_api(archive: tuple[Path, Path]) -> None:
    """Results, first-mover wins, lengths and findings, counted again from
    hexhop.read_games (every copy of a game, as the API reads them)."""
    arch, db = archive
    counts = _stats("--db", db, "--limit", "0", "--keep-duplicates")
    games = [
        game
        for path in sorted(arch.rglob("*"))
        if path.suffix in (".hxl", ".trg", ".hpf")
        for game in hexhop.read_games(str(path))
    ] + list(hexhop.read_games(GOOD / "trigeo-goettingen-1999.trg"))  # the zip's copy
    assert counts["games"] == len(games)
    found = Counter(f.code for game in games for f in game.findings)
    assert {f["code"]: f["found"] for f in counts["findings"]} == dict(found)
    lengths = Counter(len(game.actions) for game in games if game.tags.get("Game") == "Hüpfer")
    hupfer = sum(
        b["games"] for item in counts["lengths"] if item["game"] == "Hüpfer" for b in item["bins"]
    )
    assert hupfer == sum(lengths.values())
    for kind in counts["by_game"]:
        won = kind["first_mover_won"] + kind["second_mover_won"] + kind["won_mover_unknown"]
        assert won + kind["open"] == kind["games"]


def test_cube_drops(tmp_path: Path) -> None:
    (tmp_path / "drops.hxl").write_text(DROPS, "utf-8")
    counts = _stats(tmp_path)
    (hexalit,) = counts["by_game"]
    assert (hexalit["first_mover_won"], hexalit["second_mover_won"], hexalit["dropped"]) == (
        2,
        0,
        2,
    )
    assert [{k: v for k, v in p.items() if k != "spellings"} for p in counts["players"]] == [
        {"name": "Ann", "games": 2, "won": 2, "lost": 0, "dropped": 0, "open": 0, "score": 1.0},
        {"name": "Ben", "games": 2, "won": 0, "lost": 2, "dropped": 2, "open": 0, "score": 0.0},
    ]
    assert counts["players"][0]["spellings"] == [{"spelling": "Ann", "games": 2}]
    first = counts["openings"][0]["children"]
    assert [n["action"] for n in first] == ["D7W1", "double 2"]  # a cube offer is one action
    assert [n["action"] for n in first[1]["children"]] == ["drop"]


def test_generated_archive_exact(tmp_path: Path) -> None:
    games = random_archive("Trigeo", 10, 11, max_plies=40)
    (tmp_path / "gen.trg").write_text(format_archive(games), "utf-8")
    counts = _stats(tmp_path, "--opening-depth", "2", "--top", "2")
    assert counts["games"] == 10
    replayed = list(hexhop.read_games(str(tmp_path / "gen.trg")))
    ends = Counter(game.end.winner if game.end else None for game in replayed)
    (trigeo,) = counts["by_game"]
    assert trigeo["first_mover_won"] == ends["North"]  # random games: North moves first
    assert trigeo["second_mover_won"] == ends["South"]
    assert trigeo["open"] == ends[None]
    assert trigeo["results"]["*"] == ends[None]
    firsts = Counter(game.actions[0] for game in replayed)
    tree = counts["openings"][0]["children"]
    assert [(n["action"], n["games"]) for n in tree] == sorted(
        firsts.items(), key=lambda item: (-item[1], item[0])
    )[:2]


def test_json_shape(archive: tuple[Path, Path]) -> None:
    counts = _stats("--db", archive[1], "--limit", "3")
    assert set(counts) == {"games", "by_game", "lengths", "players", "openings", "findings"} | {
        "set_aside"
    }
    assert set(counts["by_game"][0]) == {
        "game",
        "board",
        "games",
        "results",
        "first_mover_won",
        "second_mover_won",
        "won_mover_unknown",
        "open",
        "dropped",
        "first_mover_rate",
    }
    assert set(counts["lengths"][0]) == {"game", "board", "games", "min", "max", "mean"} | {
        "median",
        "bins",
    }
    assert len(counts["players"]) == 3
    assert set(counts["players"][0]) == {"name", "games", "won", "lost", "dropped", "open"} | {
        "score",
        "spellings",
    }
    node = counts["openings"][0]["children"][0]
    assert set(node) == {"action", "games", "wins", "open", "children"}
    assert set(counts["findings"][0]) == {"code", "severity", "games", "found"}


def test_svg_plot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    svg = tmp_path / "s.svg"
    result = run("stats", GOOD, "--plot", svg)
    assert result.exit_code == 0, result.output
    assert result.stderr == f"wrote {svg}\n"
    root = ElementTree.parse(svg).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    text = svg.read_text("utf-8")
    assert "6 games" in text and "Results" in text and "Length" in text
    # an existing file stays unless --force
    svg.write_text("mine")
    result = run("stats", GOOD, "--plot", svg)
    assert result.exit_code == 2
    assert result.stderr == f"Error: {svg} exists; use --force to overwrite it\n"
    assert svg.read_text() == "mine"


def test_png_plot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "s.png"
    png.write_text("mine")
    result = run("stats", GOOD, "--plot", png, "--force", "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 6
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_plot_without_the_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    result = run("stats", GOOD, "--plot", tmp_path / "s.png")
    assert result.exit_code == 2
    assert result.stdout == ""  # refused before anything was counted
    assert result.stderr == (
        "Error: --plot needs matplotlib, which is not installed: pip install 'hexhop[plot]'\n"
    )
    assert not (tmp_path / "s.png").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("--opening-depth", "0"),
            "Invalid value for '--opening-depth': 0 is not in the range 1<=x<=16.",
        ),
        (
            ("--opening-depth", "17"),
            "Invalid value for '--opening-depth': 17 is not in the range 1<=x<=16.",
        ),
        (("--top", "x"), "Invalid value for '--top': 'x' is not a valid integer range."),
        (("--plot", "s.pdf"), "--plot 's.pdf': the file name must end in .svg or .png"),
        (("--length", "9..1"), "--length '9..1': expected MIN..MAX with 0 <= MIN <= MAX"),
        (("--format", "csv"), "Invalid value for '--format'"),
    ],
)
def test_malformed_options(args: tuple[str, ...], message: str) -> None:
    result = run("stats", GOOD, *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_bad_databases(tmp_path: Path) -> None:
    corrupt = tmp_path / "corrupt.sqlite"
    corrupt.write_bytes(b"SQLite format 3\x00" + b"\xff" * 200)
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as connection:
        connection.execute("CREATE TABLE t (x)")
    connection.close()
    before = foreign.read_bytes()
    for path, message in (
        (corrupt, f"{corrupt} is damaged or not an SQLite database"),
        (foreign, f"{foreign} is an SQLite database but not a hexhop index"),
        (tmp_path / "none.sqlite", f"no index at {tmp_path / 'none.sqlite'}"),
    ):
        result = run("stats", "--db", path)
        assert result.exit_code == 2, result.output
        assert message in result.stderr
        assert "Traceback" not in result.output
    assert foreign.read_bytes() == before


def test_nothing_counted(archive: tuple[Path, Path]) -> None:
    result = run("stats", "--db", archive[1], "--player", "nobody")
    assert result.exit_code == 1
    assert result.stdout == "0 games\n"
    assert "no game counted" in result.stderr


def test_unreadable_source_is_told(tmp_path: Path) -> None:
    (tmp_path / "good.hxl").write_bytes((GOOD / "hexalit-kassel-1998.hxl").read_bytes())
    (tmp_path / "binary.hxl").write_bytes(b"\x00\x01\x02")
    result = run("stats", tmp_path, "--format", "json")
    assert result.exit_code == 2  # as check, index and find: the others are counted
    assert "binary.hxl is not a text file" in result.stderr
    assert json.loads(result.stdout)["games"] == 1


LONG_DROP = (
    '[Game "Hexalit"]\n[North "Long"]\n[South "Drop"]\n[First "North"]\n[Result "1-0"]\n\n'
    "A10XA11 E8W3 A9XB11 E9W4 B11XC11 D7W4 B8W4 F5XE2 A11XB11 D7W2 C7W1 E5W1^ C7XC9 E9W1"
    " B9W2 E9W4 B4W6 E4W5 B8W4 E5W2 double 2 drop 1-0\n"
)


def test_drop_after_the_opening_the_index_keeps(tmp_path: Path) -> None:
    """The index keeps 16 actions as text: a later drop is found all the same."""
    (tmp_path / "long.hxl").write_text(LONG_DROP, "utf-8")
    db = tmp_path / "long.sqlite"
    assert run("index", tmp_path, "--db", db).exit_code == 0
    scanned = _stats(tmp_path, "--scan")
    assert _stats("--db", db) == scanned
    assert scanned["by_game"][0]["dropped"] == 1
    assert scanned["players"][1] == {
        "name": "Drop",
        "games": 1,
        "won": 0,
        "lost": 1,
        "dropped": 1,
        "open": 0,
        "score": 0.0,
        "spellings": [{"spelling": "Drop", "games": 1}],
    }
