"""Every command that reads an archive sees the same games at the same places:
``check``, ``index`` with ``find``, ``find --scan``, ``dupes``,
``stats``, ``players``, ``split``, ``merge``, ``render``, ``analyse``, ``puzzles``,
``convert`` and ``read_games``, on one archive that holds what real
archives hold: a game whose comment is never closed in the middle of a
file, UTF-16, Windows-1252, one bad UTF-8 sequence, CRLF with a byte order
mark, a zip, a tar.gz, a gzipped record, an empty file and a binary one;
a game cut off inside an action, one ending on a cube offer never
answered, a game glued to the result line of the one before, and a Hüpfer
action in a shape the notation does not have.

``check --format json`` is the reference: the list of (place, plies) of
every game it read. Each other command must name the same places, or (for
the writers) write games whose actions read back as the same.
"""

from __future__ import annotations

import gzip
import io
import json
import random
import re
import sqlite3
import tarfile
import zipfile
from collections import Counter
from pathlib import Path

import pytest
from archive_helpers import GOOD, run

import hexhop
from hexhop.engine.generate import random_archive
from hexhop.notation import format_archive

KASSEL = (GOOD / "hexalit-kassel-1998.hxl").read_text("utf-8")  # has wins in 1 (puzzles)


def _random(game: str, count: int, seed: int, board: int = 6) -> str:
    games = random_archive(game, count, seed, board=board, max_plies=14)
    return format_archive(games)


def _games_of(text: str) -> list[str]:
    return [part for part in re.split(r"\n(?=\[Game )", text.strip()) if part]


def _damaged() -> str:
    """Eight Hexalit games; game 3 opens a comment it never closes; game 4
    is cut off in the middle of its last action (a full disk), which keeps
    the actions before it; game 5 ends on a cube offer never answered;
    game 6's result is followed on its line by game 7's first tag (glued
    by an old tool); game 8 is the Kassel game."""
    games = [game.strip() for game in _games_of(_random("Hexalit", 7, 101))]
    games.append(KASSEL.strip())
    games[2] = games[2].replace("1. ", "1. {a comment never closed ", 1)
    games[3] = games[3].removesuffix("E8W6 *") + "E8W"
    games[4] = games[4].replace(" *", " double 4 *")
    glued = games[5] + " " + games[6]
    return "\n\n".join([*games[:5], glued, games[7]]) + "\n"


def _shapes() -> str:
    """A Hüpfer game with an action in a shape outside the three of the
    notation after its fourth action: the four stand."""
    [game] = _games_of(_random("Hüpfer", 1, 110, board=8))
    head, moves = game.split("\n\n", 1)
    words = moves.split()
    words.insert(6, "d6xb6-b8")  # 1. a b 2. c d 3. … : after the fourth action
    return head + "\n\n" + " ".join(words) + "\n"


def make_hostile_archive(root: Path) -> Path:
    club = root / "club"
    club.mkdir()
    (club / "damaged.hxl").write_text(_damaged(), "utf-8")
    (club / "utf16.trg").write_bytes(_random("Trigeo", 2, 102).encode("utf-16"))
    cp1252 = _random("Hexalit", 1, 103).replace("Random", "Jürgen Müller", 1)
    (club / "windows.hxl").write_bytes(cp1252.encode("cp1252"))
    bad_byte = _random("Hexalit", 1, 104).replace("Random", "Ede \udced\udca0\udc80", 1)
    (club / "bad-byte.hxl").write_bytes(bad_byte.encode("utf-8", "surrogateescape"))
    crlf = "\ufeff" + _random("Hüpfer", 3, 105).replace("\n", "\r\n")
    (club / "crlf.hpf").write_bytes(crlf.encode("utf-8"))
    (club / "shapes.hpf").write_text(_shapes(), "utf-8")
    with zipfile.ZipFile(club / "members.zip", "w") as zf:
        zf.writestr("a.hxl", _random("Hexalit", 2, 106))
        zf.writestr("sub/b.hpf", _random("Hüpfer", 1, 107, board=8))
    with tarfile.open(club / "old.tar.gz", "w:gz") as tf:
        data = _random("Trigeo", 2, 108).encode("utf-8")
        info = tarfile.TarInfo("c.trg")
        info.size = len(data)
        tf.addfile(info, io.BytesIO(data))
    (club / "packed.hxl.gz").write_bytes(gzip.compress(_random("Hexalit", 1, 109).encode()))
    # bytes that are not text after good games (a disk that filled, a tool that glued)
    junk = bytes(b for b in random.Random(110).randbytes(3000) if b not in (0, 10, 13))
    good = _random("Hexalit", 2, 111).replace("Random", "Jürgen Müller", 1).encode()
    after = _random("Hexalit", 1, 112).encode()
    (club / "junk-after.hxl").write_bytes(good + junk + b"\n\n" + after)
    _nested_archives(club)
    (club / "empty.hxl").write_bytes(b"")
    (club / "binary.hxl").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    return club


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return out.getvalue()


def _tar(members: dict[str, bytes], mode: str = "w:gz") -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode=mode) as tf:  # type: ignore[call-overload]
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return out.getvalue()


def _nested_archives(club: Path) -> None:
    """A zip with a zip, a tar.gz and (too deep to read) zips in zips in
    it; a tar with a gzipped record in it."""
    game = {seed: _random("Hexalit", 1, seed).encode() for seed in (113, 114, 115, 116, 117)}
    too_deep = _zip({"l2.zip": _zip({"l3.zip": _zip({"z.hxl": game[116]})})})
    (club / "nested.zip").write_bytes(
        _zip(
            {
                "a.hxl": game[113],
                "inner.zip": _zip({"b.hxl": game[114]}),
                "more.tar.gz": _tar({"c.hxl": game[115]}),
                "deep.zip": too_deep,
            }
        )
    )
    (club / "plain.tar").write_bytes(_tar({"d.hxl.gz": gzip.compress(game[117])}, "w"))


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_hostile_archive(tmp_path_factory.mktemp("agreement"))


def _check(club: Path) -> list[tuple[str, int, int]]:
    result = run("check", "--format", "json", club)
    report = json.loads(result.stdout)
    return [
        (file["path"], game["index"], game["plies"])
        for file in report["files"]
        for game in file.get("games", [])
    ]


@pytest.fixture(scope="module")
def reference(club: Path) -> list[tuple[str, int, int]]:
    games = _check(club)
    damaged = [g for g in games if g[0].endswith("damaged.hxl")]
    assert [index for _, index, _ in damaged] == list(range(1, 9))
    assert len(games) == 8 + 2 + 1 + 1 + 3 + 1 + 2 + 1 + 2 + 1 + 3 + 4
    # the damage kinds: the actions before a syntax error stand, an offer
    # never answered and a glued game are read as the games they are
    assert [plies for _, _, plies in damaged][2:7] == [0, 13, 14, 14, 14]
    [shapes] = [plies for path, _, plies in games if path.endswith("shapes.hpf")]
    assert shapes == 4
    nested = sorted(path.split("club/", 1)[1] for path, _i, _p in games if ".zip:" in path)
    assert [n for n in nested if n.startswith("nested")] == [
        "nested.zip:a.hxl",
        "nested.zip:inner.zip:b.hxl",
        "nested.zip:more.tar.gz:c.hxl",
    ]
    assert any(path.endswith("plain.tar:d.hxl.gz") for path, _i, _p in games)
    junk = [plies for path, _index, plies in games if path.endswith("junk-after.hxl")]
    assert junk[0] > 0 and junk[2] > 0  # the games around the junk stay good
    return games


def _actions(path: Path) -> Counter[str]:
    return Counter(
        " ".join(str(node.item) for node in game.report.nodes) for game in hexhop.read_games(path)
    )


def _rows(result_stdout: str) -> list[tuple[str, int, int]]:
    rows = [json.loads(line) for line in result_stdout.splitlines()]
    return [(row["path"], row["index"], row["plies"]) for row in rows]


def test_find_scan_sees_the_games_check_sees(club: Path, reference: list) -> None:
    result = run("find", "--scan", club, "--format", "jsonl")
    assert _rows(result.stdout) == reference


def test_the_index_holds_the_games_check_sees(club: Path, reference: list, tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite"
    run("index", club, "--db", db)
    result = run("find", "--db", db, "--format", "jsonl")
    assert sorted(_rows(result.stdout)) == sorted(reference)


def test_ls_lists_the_files_and_games_check_sees(club: Path, reference: list) -> None:
    result = run("ls", club, "--format", "json")
    listed = [(f["path"], f["games"]) for f in json.loads(result.stdout) if f["games"]]
    per_file = Counter(path for path, _index, _plies in reference)
    assert listed == list(per_file.items())


def test_find_sorted_and_limited_sees_the_games_check_sees(club: Path, reference: list) -> None:
    result = run("find", "--scan", club, "--format", "jsonl", "--sort", "length", "--limit", "0")
    assert sorted(_rows(result.stdout)) == sorted(reference)


def test_stats_counts_the_games_check_sees(club: Path, reference: list) -> None:
    result = run("stats", club, "--format", "json")
    assert json.loads(result.stdout)["games"] == len(reference)


def test_analyse_reads_the_games_check_sees(club: Path, reference: list) -> None:
    result = run("analyse", club, "--depth", "1", "--format", "json", "--max-nodes", "50")
    report = json.loads(result.stdout)
    games = [
        (file["path"], game["index"], game["plies"])
        for file in report["files"]
        for game in file.get("games") or []
    ]
    assert games == reference


def test_the_stored_analysis_covers_the_games_check_sees(
    club: Path, reference: list, tmp_path: Path
) -> None:
    """index --analyse analyses every game check sees; find --missed-win
    and --blunder, stats and puzzles --db answer for those games as
    analyse and puzzles do."""
    db = tmp_path / "club.sqlite"
    settings = ("--depth", "1", "--max-nodes", "50")
    run("index", club, "--db", db, "--analyse", *settings)
    report = json.loads(run("analyse", club, "--format", "json", *settings).stdout)
    notes = {
        (file["path"], game["index"]): {note["kind"] for note in game["notes"]}
        for file in report["files"]
        for game in file.get("games") or []
    }
    with sqlite3.connect(db) as connection:
        analysed = connection.execute(
            "SELECT f.path, g.number, g.plies FROM analyses a JOIN games g ON g.id = a.game"
            " JOIN files f ON f.id = g.file"
        ).fetchall()
    assert sorted(analysed) == sorted(reference)
    for option, kind in (("--missed-win", "missed"), ("--blunder", "allows")):
        found = _rows(run("find", "--db", db, option, "--format", "jsonl").stdout)
        assert {(path, index) for path, index, _ in found} == {
            game for game, kinds in notes.items() if kind in kinds
        }, option
        counted = json.loads(run("stats", "--db", db, option, "--format", "json").stdout)
        assert counted["games"] == len(found)
    out, scan = tmp_path / "stored", tmp_path / "scan"
    run("puzzles", "--db", db, "--depth", "1", "--out-dir", out, "--max-nodes", "50")
    run("puzzles", club, "--depth", "1", "--out-dir", scan, "--max-nodes", "50")
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in scan.iterdir())
    for stored in out.iterdir():
        assert stored.read_bytes() == (scan / stored.name).read_bytes(), stored.name


def test_read_games_reads_the_games_check_sees(club: Path, reference: list) -> None:
    unreadable: list[hexhop.Finding] = []
    games = [
        (g.path, g.report.index, g.report.plies)
        for g in hexhop.read_games(club, unreadable=unreadable.append)
    ]
    assert games == reference
    assert [finding.code for finding in unreadable] == ["IO02", "IO01"]
    assert unreadable[1].message.endswith(
        "nested.zip:deep.zip:l2.zip:l3.zip: an archive inside 3 archives: not read "
        "(archives are read 3 deep)"
    )


def test_render_draws_every_game_check_sees(club: Path, reference: list, tmp_path: Path) -> None:
    out = tmp_path / "drawn"
    result = run("render", club, "--format", "svg", "--plies", "0", "--out-dir", out)
    assert result.exit_code == 2  # binary.hxl, as check
    drawn = sorted(out.rglob("game*-ply000.svg"))
    not_drawn = re.findall(r"game (\d+) cannot be drawn", result.output)
    # damaged.hxl's game whose comment is never closed (junk-after.hxl's game
    # 2, whose result the junk follows, is drawn up to its SY01)
    assert not_drawn == ["3"]
    assert len(drawn) + len(not_drawn) == len(reference)


def test_convert_reads_every_game_of_the_damaged_file(club: Path, reference: list) -> None:
    result = run("convert", "--to", "json", club / "damaged.hxl")
    games = json.loads(result.stdout)["games"]
    expected = [(index, plies) for path, index, plies in reference if path.endswith("damaged.hxl")]
    assert [(g["index"], len(g["moves"])) for g in games][:1] == expected[:1]
    assert len(games) == len(expected) == 8


def test_puzzles_come_from_games_check_sees(club: Path, reference: list, tmp_path: Path) -> None:
    out = tmp_path / "puzzles"
    run("puzzles", club, "--depth", "1", "--out-dir", out, "--max-nodes", "2000")
    sources = set()
    for record in out.glob("puzzle*.*"):
        if record.suffix in (".hxl", ".trg", ".hpf"):
            found = re.search(r"\{(.+), game (\d+), ply \d+\}", record.read_text("utf-8"))
            assert found, record
            sources.add((found[1], int(found[2])))
    assert sources <= {(path, index) for path, index, _ in reference}
    assert any(path.endswith("damaged.hxl") and index == 8 for path, index in sources)


def test_merge_writes_every_game_check_sees(club: Path, reference: list, tmp_path: Path) -> None:
    out = tmp_path / "all.hxl"
    result = run("merge", club, "--out", out)
    assert f"wrote {len(reference)} games" in result.output
    assert sum(_actions(out).values()) == len(reference)


def test_split_writes_every_game_check_sees(club: Path, reference: list, tmp_path: Path) -> None:
    out = tmp_path / "split"
    run("split", club, "--out-dir", out)
    written = [path for path in out.rglob("*") if path.is_file()]
    assert len(written) == len(reference)


def test_dupes_export_keeps_every_game(club: Path, reference: list, tmp_path: Path) -> None:
    out = tmp_path / "once.hxl"
    run("dupes", club, "--export", out)
    merged = tmp_path / "all-for-dupes.hxl"
    run("merge", club, "--out", merged)
    assert _actions(out) == _actions(merged)
    assert sum(_actions(out).values()) == len(reference)


def test_players_count_the_players_of_the_games_check_sees(
    club: Path, reference: list, tmp_path: Path
) -> None:
    """``players`` (read now and from the index) names each side of every
    game ``find`` lists once, under the side's key."""
    from hexhop.archive.players import player_key

    scanned = json.loads(run("players", club, "--scan", "--format", "json").stdout)
    db = tmp_path / "club.sqlite"
    run("index", club, "--db", db, "-q")
    assert json.loads(run("players", club, "--db", db, "--format", "json").stdout) == scanned
    games = [
        json.loads(line)
        for line in run("find", "--scan", club, "--format", "jsonl").stdout.splitlines()
    ]
    assert len(games) == len(reference)
    sides: Counter[str] = Counter()
    played: Counter[str] = Counter()
    for game in games:
        named = [name for name in game["players"] if name.strip() not in ("", "?")]
        sides.update(player_key(name) for name in named)
        played.update({player_key(name) for name in named})
    rows = scanned["players"]
    assert {row["key"]: sum(s["games"] for s in row["spellings"]) for row in rows} == sides
    assert {row["key"]: row["games"] for row in rows} == played
