"""The analysis kept in the index: ``index --analyse``, what
it stores and when it analyses again, ``find --missed-win`` / ``--blunder``
and ``stats`` answered from it, ``puzzles --db``, the index schema's
upgrade from version 4, and ``analyse`` stopped by Ctrl-C.

The records are the samples the analysis tests use (tests/test_analyse.py):
their notes are known there; here they must come back from the index as
``analyse`` gives them. The solver's work is counted by the games it is
asked to analyse (``analyse_game`` wrapped), never by time.
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

import hexhop.records.analysis as analysis_module
from hexhop.archive.query import Query, register
from hexhop.cli.main import cli
from hexhop.engine.replay import replay_game
from hexhop.messages import set_language
from hexhop.notation import read_archive

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "samples" / "good"
TRIGEO = GOOD / "trigeo-goettingen-1999.trg"
HUEPFER = GOOD / "huepfer-6x6-bremen-2003.hpf"
KASSEL = GOOD / "hexalit-kassel-1998.hxl"
STUDY = GOOD / "hexalit-newsletter-study.hxl"
BROKEN = ROOT / "samples" / "broken" / "illegal-hexalit-pawn-capture.hxl"


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    set_language("en")


def run(*args: object):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def make_club(root: Path) -> Path:
    """Five games in four files: one file holds two games (Kassel, then the
    study), one game stops at an illegal action. Analysed to depth 1 here
    (Kassel and Trigeo take a second to depth 2)."""
    club = root / "club"
    club.mkdir()
    shutil.copy(TRIGEO, club / "trigeo.trg")
    shutil.copy(HUEPFER, club / "huepfer.hpf")
    shutil.copy(BROKEN, club / "broken.hxl")
    two = KASSEL.read_text("utf-8").strip() + "\n\n" + STUDY.read_text("utf-8").strip() + "\n"
    (club / "two.hxl").write_text(two, "utf-8")
    return club


def make_small_club(root: Path) -> Path:
    """Four games in three files, quick to analyse to depth 2, where the
    Hüpfer game has missed wins in 2: the study twice in one file."""
    club = root / "small"
    club.mkdir()
    shutil.copy(HUEPFER, club / "huepfer.hpf")
    shutil.copy(BROKEN, club / "broken.hxl")
    study = STUDY.read_text("utf-8").strip()
    again = study.replace("[Event ", '[Round "2"]\n[Event ', 1)
    (club / "two.hxl").write_text(study + "\n\n" + again + "\n", "utf-8")
    return club


@pytest.fixture
def club(tmp_path: Path) -> Path:
    return make_club(tmp_path)


@pytest.fixture
def small(tmp_path: Path) -> Path:
    return make_small_club(tmp_path)


class Counted:
    """``analyse_game`` wrapped: how many games the solver was asked to analyse."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.calls = 0
        self.real = analysis_module.analyse_game
        monkeypatch.setattr(analysis_module, "analyse_game", self)

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.real(*args, **kwargs)

    def take(self) -> int:
        calls, self.calls = self.calls, 0
        return calls


def index(club: Path, db: Path, *options: object):
    done = run("index", club, "--db", db, "-j", "1", *options)
    assert done.exit_code == 0, done.output
    return done


def stored_notes(db: Path) -> dict[tuple[str, int], list[tuple]]:
    """(file, game) -> its notes as the index keeps them, in ply order."""
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT f.path, g.number, n.kind, n.ply, n.side, n.depth, n.first, n.played,"
            " n.line, n.col FROM notes n JOIN games g ON g.id = n.game"
            " JOIN files f ON f.id = g.file"
        ).fetchall()
    found: dict[tuple[str, int], list[tuple]] = {}
    for path, number, *note in rows:
        found.setdefault((path, number), []).append(tuple(note))
    return {key: sorted(notes, key=lambda n: (n[1], n[0])) for key, notes in found.items()}


def analysed_notes(club: Path, depth: int) -> dict[tuple[str, int], list[tuple]]:
    """The same, from ``analyse --format json`` run on the files."""
    done = run("analyse", club, "--depth", depth, "--format", "json")
    assert done.exit_code == 1  # the broken game stops
    found = {}
    for file in json.loads(done.output)["files"]:
        for game in file["games"]:
            notes = [
                tuple(n[k] for k in ("kind", "ply", "side", "depth", "first", "played"))
                + (n["line"], n["column"])
                for n in game["notes"]
            ]
            if notes:
                found[file["path"], game["index"]] = sorted(notes, key=lambda n: (n[1], n[0]))
    return found


# -- what index --analyse keeps ---------------------------------------------------


def test_the_index_keeps_the_notes_analyse_gives(club: Path, tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite"
    done = index(club, db, "--analyse", "--depth", "1")
    assert "Analysed 5 games to depth 1 (0 kept as analysed before) in " in done.output
    stored = stored_notes(db)
    assert stored == analysed_notes(club, 1)
    assert stored[str(club / "trigeo.trg"), 1] == [
        ("allows", 3, "North", 1, "2... E7°D7", "B7°D7", 10, 73),
        ("missed", 4, "South", 1, "2... E7°D7", "E8°D7", 11, 1),
        ("allows", 39, "North", 1, "20... E6XD5", "D7XC5", 17, 5),
    ]
    assert (str(club / "huepfer.hpf"), 1) not in stored  # its wins take 2 own actions
    # the second game of a file is stored under its own number
    assert [n[:2] for n in stored[str(club / "two.hxl"), 2]] == [("allows", 21)]
    assert [n[:3] for n in stored[str(club / "broken.hxl"), 1]] == [("stops", 2, "")]
    with sqlite3.connect(db) as connection:
        assert connection.execute(
            "SELECT DISTINCT depth, max_nodes, max_seconds FROM analyses"
        ).fetchall() == [(1, 200_000, 5.0)]
        # the positions searched: the Trigeo game's 40 before the end; a win
        # for the side to move in two (after ply 3, missed at ply 4; after ply 39)
        assert connection.execute(
            "SELECT count(*), sum(status = 'win') FROM solved s JOIN games g ON g.id = s.game"
            " JOIN files f ON f.id = g.file WHERE f.path LIKE '%trigeo.trg'"
        ).fetchone() == (40, 2)


def test_only_changed_files_and_deeper_searches_are_analysed_again(
    small: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    counted = Counted(monkeypatch)
    db = tmp_path / "small.sqlite"
    index(small, db, "--analyse", "--depth", "1")
    assert counted.take() == 4
    again = index(small, db, "--analyse", "--depth", "1")
    assert counted.take() == 0
    assert "Analysed 0 games to depth 1 (4 kept as analysed before) in " in again.output
    index(small, db)  # without --analyse: the analyses stay
    assert counted.take() == 0
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT count(*) FROM analyses").fetchone() == (4,)
    # a changed file: its games are new, and only they are analysed
    with (small / "two.hxl").open("a", encoding="utf-8") as file:
        file.write("\n{a comment at the end}\n")
    changed = index(small, db, "--analyse", "--depth", "1")
    assert counted.take() == 2
    assert "Analysed 2 games to depth 1 (2 kept as analysed before) in " in changed.output
    # deeper: every game again; then shallower: the deeper analysis is kept
    index(small, db, "--analyse", "--depth", "2")
    assert counted.take() == 4
    assert stored_notes(db) == analysed_notes(small, 2)
    counted.take()  # (analyse's own)
    index(small, db, "--analyse", "--depth", "1")
    assert counted.take() == 0
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT DISTINCT depth FROM analyses").fetchall() == [(2,)]
    # larger limits than those searched within: again
    index(small, db, "--analyse", "--depth", "1", "--max-nodes", "300000")
    assert counted.take() == 4
    index(small, db, "--analyse", "--depth", "1")  # the default limits are within those
    assert counted.take() == 0
    # a file gone: its analysis goes with its games
    (small / "huepfer.hpf").unlink()
    index(small, db)
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT count(*) FROM analyses").fetchone() == (3,)
        assert connection.execute(
            "SELECT count(*) FROM notes WHERE game NOT IN (SELECT id FROM games)"
        ).fetchone() == (0,)


def test_depth_and_limits_go_with_analyse(club: Path, tmp_path: Path) -> None:
    done = run("index", club, "--db", tmp_path / "x.sqlite", "--depth", "2")
    assert done.exit_code == 2
    assert "--depth goes with --analyse" in done.output
    assert not (tmp_path / "x.sqlite").exists()


# -- find and stats from the stored analysis -----------------------------------------


@pytest.fixture
def analysed(club: Path, tmp_path: Path) -> Path:
    db = tmp_path / "club.sqlite"
    index(club, db, "--analyse", "--depth", "1")
    return db


@pytest.fixture
def deep(small: Path, tmp_path: Path) -> Path:
    db = tmp_path / "small.sqlite"
    index(small, db, "--analyse", "--depth", "2")
    return db


def found(*args: object) -> list[tuple[str, int]]:
    done = run("find", *args, "--format", "json")
    assert done.exit_code in (0, 1), done.output
    return [(hit["path"], hit["index"]) for hit in json.loads(done.stdout)]


def having(notes: dict[tuple[str, int], list[tuple]], kind: str, depth: int = 1) -> set:
    """The games with a note of ``kind`` of a win in ``depth`` or more."""
    return {key for key, game in notes.items() if any(n[0] == kind and n[3] >= depth for n in game)}


def test_find_answers_as_analyse_does(club: Path, analysed: Path) -> None:
    notes = analysed_notes(club, 1)
    assert set(found("--db", analysed, "--missed-win")) == having(notes, "missed")
    assert set(found("--db", analysed, "--blunder")) == having(notes, "allows")
    both = set(found("--db", analysed, "--missed-win", "--blunder"))
    assert both == having(notes, "missed") & having(notes, "allows") != set()
    # with the other filters, and under ARCHIVE paths
    assert found("--db", analysed, "--blunder", "--game", "Hexalit") == [
        (str(club / "two.hxl"), 1),
        (str(club / "two.hxl"), 2),
    ]
    assert found(club / "trigeo.trg", "--db", analysed, "--blunder") == [
        (str(club / "trigeo.trg"), 1)
    ]
    # each game found with the ply of its first such note, as analyse numbers it
    for option, ply in (("--missed-win", 4), ("--blunder", 3)):
        done = run("find", club / "trigeo.trg", "--db", analysed, option, "--format", "json")
        assert [hit["ply"] for hit in json.loads(done.stdout)] == [ply]


def test_find_min_depth(small: Path, deep: Path) -> None:
    notes = analysed_notes(small, 2)
    assert ("missed", 7, "Red", 2, "4. a1-c1-c3@c4", "a1-c1-c3-a3@a2", 13, 46) in notes[
        str(small / "huepfer.hpf"), 1
    ]
    for kind, option in (("missed", "--missed-win"), ("allows", "--blunder")):
        for depth in (1, 2, 3):
            hits = found("--db", deep, option, "--min-depth", depth)
            assert set(hits) == having(notes, kind, depth), (option, depth)
    assert found("--db", deep, "--missed-win", "--min-depth", "2") == [
        (str(small / "huepfer.hpf"), 1)
    ]
    assert len(found("--db", deep, "--blunder", "--min-depth", "1")) == 3


def test_the_search_uses_the_notes_primary_key(analysed: Path) -> None:
    """An answer in well under a second from a large index: SQLite looks
    the notes of each game up by their key, it never reads the notes table
    through."""
    where, args = Query(notes=("missed", "allows"), min_depth=2).sql()
    with sqlite3.connect(analysed) as connection:
        register(connection)
        plan = [
            row[-1]
            for row in connection.execute(
                f"EXPLAIN QUERY PLAN SELECT g.id FROM games g WHERE {where}", args
            )
        ]
    on_notes = [step for step in plan if re.search(r"\bn\b|notes", step)]
    assert on_notes and all("USING PRIMARY KEY (game=? AND kind=?)" in s for s in on_notes), plan


def test_stats_counts_missed_wins_and_blunders_per_player(club: Path, analysed: Path) -> None:
    notes = analysed_notes(club, 1)
    with sqlite3.connect(analysed) as connection:
        players = {
            (path, number): (first, second)
            for path, number, first, second in connection.execute(
                "SELECT f.path, g.number, g.first, g.second FROM games g"
                " JOIN files f ON f.id = g.file"
            )
        }
    expected: dict[str, Counter] = {}
    first_sides = ("North", "Red")
    for key, pair in players.items():
        for name in pair:
            expected.setdefault(name, Counter())["analysed"] += 1
        for kind, _ply, side, *_rest in notes.get(key, []):
            if kind in ("missed", "allows"):
                name = pair[0] if side in first_sides else pair[1]
                expected[name]["missed" if kind == "missed" else "blunders"] += 1
    done = run("stats", "--db", analysed, "--format", "json")
    assert done.exit_code == 0, done.output
    counted = {
        p["name"]: Counter({k: p[k] for k in ("analysed", "missed", "blunders") if p[k]})
        for p in json.loads(done.output)["players"]
    }
    assert counted == {name: +count for name, count in expected.items() if name != "?"}
    assert counted["Ute Sommer"] == Counter(analysed=1, blunders=2)
    assert counted["Karl Brandt"] == Counter(analysed=1, missed=1)
    table = run("stats", "--db", analysed).output
    assert re.search(
        r"player +games +won +lost +dropped +open +score +analysed +missed +blunders", table
    )
    # a scan and an index without analysis: no such columns
    assert (
        "missed"
        not in json.loads(run("stats", club, "--scan", "--format", "json").output)["players"][0]
    )


def test_without_an_analysed_index_a_clear_message(club: Path, tmp_path: Path) -> None:
    db = tmp_path / "plain.sqlite"
    index(club, db)
    plain = run("find", "--db", db, "--missed-win")
    assert plain.exit_code == 2
    assert plain.output == (
        f"Error: --missed-win answers from an analysed index, and {db} holds no analysis: "
        f"run `hexhop index ARCHIVE --db {db} --analyse` first\n"
    )
    scan = run("find", club, "--scan", "--blunder")
    assert scan.exit_code == 2
    assert "answer from an index made with `hexhop index ARCHIVE --analyse`" in scan.output
    alone = run("stats", "--db", db, "--min-depth", "2")
    assert alone.exit_code == 2
    assert "--min-depth goes with --missed-win or --blunder" in alone.output
    # some games analysed, others not: the answer, with a warning
    index(club / "trigeo.trg", db, "--analyse", "--depth", "1")
    partly = run("find", "--db", db, "--missed-win")
    assert partly.exit_code == 0
    assert (
        f"warning: 4 of 5 games of {db} are not analysed: run "
        f"`hexhop index ARCHIVE --db {db} --analyse` again"
    ) in partly.output


def test_german(club: Path, tmp_path: Path) -> None:
    db = tmp_path / "plain.sqlite"
    done = run("--lang", "de", "index", club, "--db", db, "--analyse", "--depth", "1")
    assert "5 Partien bis Tiefe 1 untersucht (0 wie zuvor untersucht behalten) in " in done.output
    table = run("--lang", "de", "stats", "--db", db).output
    assert re.search(r"untersucht +verpasst +Patzer", table)
    index(club, tmp_path / "plain2.sqlite")
    plain = run("--lang", "de", "find", "--db", tmp_path / "plain2.sqlite", "--blunder")
    assert "--blunder antwortet aus einem untersuchten Index" in plain.output
    help_text = " ".join(run("--lang", "de", "find", "--help").output.split())
    assert "Partien, in denen eine Seite einen erzwungenen Gewinn verpasst hat" in help_text


# -- puzzles from the stored analysis ---------------------------------------------------


def written(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("depth", [1, 2])
def test_puzzles_from_the_index_are_those_of_a_search(
    club: Path, small: Path, tmp_path: Path, depth: int
) -> None:
    folder = club if depth == 1 else small  # (Kassel and Trigeo take long to depth 2)
    db = tmp_path / "x.sqlite"
    index(folder, db, "--analyse", "--depth", depth)
    scan, stored = tmp_path / "scan", tmp_path / "stored"
    every = ("--per-game", "0")
    assert run("puzzles", folder, "--depth", depth, "--out-dir", scan, "-q", *every).exit_code == 0
    done = run("puzzles", "--db", db, "--depth", depth, "--out-dir", stored, "-q", *every)
    assert done.exit_code == 0, done.output
    assert written(stored) == written(scan)  # positions, solutions, sources: byte for byte
    assert len(written(scan)) >= 2 * 3


def test_a_puzzle_names_its_source_game(club: Path, analysed: Path, tmp_path: Path) -> None:
    out = tmp_path / "p"
    assert run("puzzles", "--db", analysed, "--depth", "1", "--out-dir", out, "-q").exit_code == 0
    records = sorted(p for p in out.iterdir() if p.suffix != ".svg")
    assert records
    for record in records:
        (puzzle,) = read_archive(record.read_bytes(), path=str(record))
        tags = (
            puzzle.record.tags_dict()
            if hasattr(puzzle.record, "tags_dict")
            else {tag.name: tag.value for tag in puzzle.record.tags}
        )
        source = Path(tags["Source"])
        games = list(read_archive(source.read_bytes(), path=str(source)))
        game = games[int(tags["SourceGame"]) - 1]
        position = replay_game(game).positions[int(tags["SourcePly"])]
        assert position.text() == tags["Position"], record.name


def test_puzzles_min_depth_and_a_shallow_index(
    small: Path, deep: Path, analysed: Path, tmp_path: Path
) -> None:
    scan, stored = tmp_path / "scan", tmp_path / "stored"
    run("puzzles", small, "--depth", "2", "--min-depth", "2", "--out-dir", scan, "-q")
    run("puzzles", "--db", deep, "--depth", "2", "--min-depth", "2", "--out-dir", stored, "-q")
    assert written(stored) == written(scan)
    records = [p.read_text("utf-8") for p in stored.iterdir() if p.suffix != ".svg"]
    assert records and all("to play and win in 2" in text for text in records)
    shallow = analysed  # analysed to depth 1
    deeper = run("puzzles", "--db", shallow, "--depth", "2", "--out-dir", tmp_path / "x")
    assert deeper.exit_code == 2
    assert (
        f"{shallow} was analysed to depth 1: run `hexhop index ARCHIVE --db {shallow} "
        "--analyse --depth 2` for puzzles of depth 2"
    ) in deeper.output
    assert not (tmp_path / "x").exists()


# -- the schema: upgrade from version 4, refusal of what hexhop did not make ------------


def as_schema_4(db: Path, *more: str) -> None:
    """The index as hexhop 4 made it: no analysis tables and no player keys (and ``more``)."""
    as_schema_5(db)
    connection = sqlite3.connect(db, isolation_level=None)
    try:
        for table in ("analyses", "notes", "solved"):
            connection.execute(f"DROP TABLE {table}")
        for statement in more:
            connection.execute(statement)
        connection.execute("PRAGMA user_version = 4")
    finally:
        connection.close()


def as_schema_5(db: Path) -> None:
    """The index as hexhop 5 made it: no player keys, no names file."""
    connection = sqlite3.connect(db, isolation_level=None)
    try:
        connection.execute("DROP INDEX games_first_key")
        connection.execute("DROP INDEX games_second_key")
        connection.execute("DROP TABLE names_file")
        for column in ("first_key", "second_key", "first_shown", "second_shown"):
            connection.execute(f"ALTER TABLE games DROP COLUMN {column}")
        connection.execute("PRAGMA user_version = 5")
    finally:
        connection.close()


def version(db: Path) -> int:
    with sqlite3.connect(db) as connection:
        return connection.execute("PRAGMA user_version").fetchone()[0]


def test_a_schema_4_index_is_read_as_it_is_and_upgraded_by_index(
    small: Path, tmp_path: Path
) -> None:
    club = small
    db = tmp_path / "old.sqlite"
    index(club, db)
    as_schema_4(db)
    before = db.read_bytes()
    assert len(found("--db", db, "--player", "Ohlsen")) == 1
    no = run("find", "--db", db, "--missed-win")
    assert no.exit_code == 2 and "holds no analysis" in no.output
    assert db.read_bytes() == before and version(db) == 4  # readers leave it as it is
    index(club, db, "--analyse", "--depth", "1")
    assert version(db) == 6
    assert stored_notes(db) == analysed_notes(club, 1)
    assert len(found("--db", db, "--blunder")) == 2  # the study, twice


def test_tables_hexhop_did_not_make_are_refused(small: Path, tmp_path: Path) -> None:
    club = small
    for schema in (4, 5, 6):
        db = tmp_path / f"foreign-{schema}.sqlite"
        index(club, db)
        if schema == 4:
            as_schema_4(db, "CREATE TABLE extra (x)")
        else:
            if schema == 5:
                as_schema_5(db)
            with sqlite3.connect(db) as connection:
                connection.execute("CREATE TABLE extra (x)")
        before = db.read_bytes()
        for command in (["find", "--db", db], ["index", club, "--db", db, "--analyse"]):
            done = run(*command)
            assert done.exit_code == 2
            assert (
                f"{db} is damaged or was not made by hexhop (its schema is not the one hexhop "
                "makes: extra): index into a new file"
            ) in done.output
        assert db.read_bytes() == before and version(db) == schema


# -- analyse stopped -------------------------------------------------------------------


def test_analyse_stopped_prints_the_notes_of_the_games_done(
    club: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while the third game is analysed (the second of two.hxl):
    the notes of the two games done, their summary, and exit 130."""
    real = analysis_module.analyse_game
    calls = []

    def stopped(*args, **kwargs):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(analysis_module, "analyse_game", stopped)
    files = [club / "trigeo.trg", club / "huepfer.hpf", club / "two.hxl"]
    done = CliRunner().invoke(cli, ["analyse", *map(str, files), "--depth", "1"])
    assert done.exit_code == 130
    lines = done.output.splitlines()
    assert lines[0].startswith(f"{club / 'trigeo.trg'}:10:73: North played 2. B7°D7 at ply 3 ")
    assert any(line.startswith(f"{club / 'two.hxl'}:") for line in lines)  # Kassel, done
    assert not any(":14:36:" in line for line in lines)  # the study's note: not reached
    assert re.search(r"^analysed 3 games, 105 plies: 3 missed, 5 allowed", done.output, re.M)
    assert lines[-1] == "interrupted at game 4 of 4 (3 analysed, their notes printed)"
    calls.clear()
    as_json = CliRunner().invoke(
        cli, ["analyse", *map(str, files), "--depth", "1", "--format", "json"]
    )
    assert as_json.exit_code == 130
    document = json.loads(as_json.stdout)
    assert document["interrupted"] is True
    assert [(f["path"], len(f["games"])) for f in document["files"]] == [
        (str(files[0]), 1),
        (str(files[1]), 1),
        (str(files[2]), 1),
    ]


def test_index_analyse_stopped_keeps_the_files_done(
    small: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while the third game is analysed (the first of two.hxl): the
    two files done keep their analysis, and the next run goes on."""
    real = analysis_module.analyse_game
    calls = []

    def stopped(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(analysis_module, "analyse_game", stopped)
    db = tmp_path / "small.sqlite"
    done = CliRunner().invoke(cli, ["index", str(small), "--db", str(db), "-j", "1", "--analyse"])
    assert done.exit_code == 130
    assert done.output.splitlines()[-1] == (
        "interrupted after analysing 2 games (each file kept whole; run again to go on)"
    )
    with sqlite3.connect(db) as connection:
        assert connection.execute(
            "SELECT f.path FROM analyses a JOIN games g ON g.id = a.game"
            " JOIN files f ON f.id = g.file ORDER BY f.seq"
        ).fetchall() == [(str(small / "broken.hxl"),), (str(small / "huepfer.hpf"),)]
    monkeypatch.setattr(analysis_module, "analyse_game", real)
    again = index(small, db, "--analyse")
    assert "Analysed 2 games to depth 2 (2 kept as analysed before) in " in again.output


def test_standard_input_is_indexed_but_not_analysed(tmp_path: Path) -> None:
    db = tmp_path / "x.sqlite"
    done = CliRunner().invoke(
        cli, ["index", "-", "--db", str(db), "--analyse"], input=TRIGEO.read_bytes()
    )
    assert done.exit_code == 2
    assert "standard input cannot be read again: its games are not analysed" in done.output
    assert "Indexed 1 of 1 file" in done.output


def test_crosstable_and_ratings_take_the_same_filters(club: Path, analysed: Path) -> None:
    """The standings of the games with a blunder: those find lists (the
    study, a game of one player against himself, is not rated)."""
    hits = found("--db", analysed, "--blunder")
    assert len(hits) == 3
    ratings = json.loads(run("ratings", "--db", analysed, "--blunder", "--format", "json").stdout)
    assert ratings["games"] == 2
    assert {p["player"] for p in ratings["players"]} == {
        "Ute Sommer",
        "Karl Brandt",
        "Anna Berger",
        "Jonas Keller",
    }
    table = json.loads(run("crosstable", "--db", analysed, "--blunder", "--format", "json").stdout)
    assert {row["player"] for row in table} == {p["player"] for p in ratings["players"]}


# a game without an action, from a position where Red wins at once in one way
# only (docs/analysis.md); the analysis looks at actions, the puzzles at positions
NO_ACTION = """[Game "Hüpfer"]
[Board "6x6"]
[Position "R: a1; T: a2; reserve: 0/0; turn: R"]
[Result "*"]

*
"""


def test_a_game_without_an_action_gives_its_puzzle_too(small: Path, tmp_path: Path) -> None:
    (small / "start.hpf").write_text(NO_ACTION, "utf-8")
    db = tmp_path / "x.sqlite"
    index(small, db, "--analyse", "--depth", "1")
    scan, stored = tmp_path / "scan", tmp_path / "stored"
    run("puzzles", small, "--depth", "1", "--out-dir", scan, "-q")
    run("puzzles", "--db", db, "--depth", "1", "--out-dir", stored, "-q")
    assert written(stored) == written(scan)
    assert any(
        '[SourcePly "0"]' in p.read_text("utf-8") for p in stored.iterdir() if p.suffix == ".hpf"
    )
