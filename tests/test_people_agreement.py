"""A player is a person, in every command, page and call.

One archive of six people, each written in many spellings (an umlaut and
its ``ue``, capitals, ``Last, First``, a combining umlaut, ``ø`` and
``oe``, the dotless ``ı``), one spelling joined only by the club's names
file, and two people of one name kept apart by it. ``find`` for every
spelling (from the index and read now, any side or one side),
``hexhop players``, ``dupes --same-players``, the web app's players page,
player pages and search, and the API must give the same players and the
same games.
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path

import pytest
from archive_helpers import run
from click.testing import CliRunner
from people_archive import (
    ANNA,
    DENIZ,
    KAETHE,
    KEYS,
    ONLY_BY_NAMES,
    SCHMIDT_BREMEN,
    SCHMIDT_KASSEL,
    SHOWN,
    SOEREN,
    SPELLINGS,
    games_of,
    make_people_archive,
    pairings,
)
from serve_helpers import client

import hexhop
from hexhop.cli.main import cli

PEOPLE = list(SPELLINGS)
# what a club types, and whose games it must find (the Peter Schmidts: both)
SPELLED = {spelling for person in PEOPLE for spelling in SPELLINGS[person]}
TYPED = [
    *(
        (spelling, {person for person in PEOPLE if spelling in SPELLINGS[person]})
        for spelling in sorted(SPELLED)
    ),
    (ONLY_BY_NAMES, {ANNA}),
    ("Muller", {ANNA}),
    ("mueller", {ANNA}),
    ("anna müller", {ANNA}),
    ("Weiss", {KAETHE}),
    ("Soren", {SOEREN}),
    ("Soeren", {SOEREN}),
    ("Kjaer", {SOEREN}),
    ("Yilmaz", {DENIZ}),
    ("YILMAZ", {DENIZ}),
    ("Schmidt (Kassel)", {SCHMIDT_KASSEL}),
    ("Schmidt (Bremen)", {SCHMIDT_BREMEN}),
]


@pytest.fixture(scope="module")
def people(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The archive (with its names file beside it) and its index."""
    root = tmp_path_factory.mktemp("people")
    folder = make_people_archive(root)
    db = root / "people.sqlite"
    done = run("index", folder, "--db", db, "-q")
    assert done.exit_code == 0, done.output
    return folder, db


def _ordinals(folder: Path, db: Path) -> dict[tuple[str, int], int]:
    """Each game's (file name, number) -> its place in the archive, from 1."""
    done = run("find", folder, "--db", db, "--format", "json")
    return {
        (Path(hit["path"]).name, hit["index"]): i
        for i, hit in enumerate(json.loads(done.stdout), 1)
    }


def _expected(persons: set[int], side: int | None = None) -> list[int]:
    if side is None:
        return sorted({n for person in persons for n in games_of(person)})
    return [n for n, game in enumerate(pairings(), 1) if game[side] in persons]


def _found(people: tuple[Path, Path], *args: object) -> list[int]:
    folder, db = people
    places = _ordinals(folder, db)
    done = run("find", folder, *args, "--format", "json")
    assert done.exit_code in (0, 1), done.output
    return [places[(Path(hit["path"]).name, hit["index"])] for hit in json.loads(done.stdout)]


def test_the_archive_is_what_the_test_says(people):
    assert len(pairings()) == 56
    assert [len(games_of(p)) for p in PEOPLE] == [20, 20, 20, 20, 16, 16]
    spelled = {s for game in pairings() for s in game[2:4]}
    for person in PEOPLE:
        assert set(SPELLINGS[person]) <= spelled  # every spelling is in the games
    assert ONLY_BY_NAMES in spelled


@pytest.mark.parametrize(("typed", "persons"), TYPED, ids=[t for t, _p in TYPED])
def test_find_finds_every_game_of_the_people_a_spelling_names(people, typed, persons):
    folder, db = people
    expected = _expected(persons)
    assert _found(people, "--db", db, "--player", typed) == expected
    assert _found(people, "--scan", "--player", typed) == expected


@pytest.mark.parametrize("typed", ["Mueller, Anna", "Søren", "Yılmaz"])
def test_each_side_finds_the_person_on_that_side(people, typed):
    folder, db = people
    person = {"Mueller, Anna": ANNA, "Søren": SOEREN, "Yılmaz": DENIZ}[typed]
    for option, side in (("--north", 0), ("--south", 1)):
        expected = _expected({person}, side)
        assert _found(people, "--db", db, option, typed) == expected
        assert _found(people, "--scan", option, typed) == expected
    both = [n for n in _expected({person}) if n in _expected({ANNA})]
    assert _found(people, "--db", db, "--player", typed, "--player", "Muller") == both


def _players(*args: object) -> dict[str, object]:
    done = run("players", *args, "--format", "json")
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)


def _spelling_counts(person: int) -> dict[str, int]:
    counts: dict[str, int] = {}
    for north, south, north_name, south_name, _site in pairings():
        for who, name in ((north, north_name), (south, south_name)):
            if who == person:
                name = name.replace("Mu\u0308", "Mü")  # one spelling however composed
                counts[name] = counts.get(name, 0) + 1
    return counts


def test_players_lists_each_person_once_with_every_spelling(people):
    folder, db = people
    listed = _players(folder, "--db", db)
    assert listed == _players(folder, "--scan")
    rows = listed["players"]
    assert [row["key"] for row in rows] == [KEYS[p] for p in sorted(PEOPLE, key=SHOWN.get)]
    for person in PEOPLE:
        row = next(r for r in rows if r["key"] == KEYS[person])
        assert row["name"] == SHOWN[person]
        assert row["games"] == len(games_of(person))
        assert {s["name"]: s["games"] for s in row["spellings"]} == _spelling_counts(person)
        assert row["first"] <= row["last"]
    assert listed["suggestions"] == []  # the names file joined Muller, Anna


def test_without_the_names_file_players_suggests_what_it_joins(people, tmp_path):
    folder, _db = people
    bare = tmp_path / "bare"
    shutil.copytree(folder, bare)
    (bare / "hexhop-names.txt").unlink()
    listed = _players(bare, "--scan")
    assert [row["name"] for row in listed["players"]] == [
        "Anna Müller",
        "Deniz Yılmaz",
        "Käthe Weiß",
        "Muller, Anna",
        "Peter Schmidt",
        "Søren Kjær",
    ]
    assert listed["suggestions"] == [
        {
            "players": [
                {"key": "anna mueller", "name": "Anna Müller"},
                {"key": "anna muller", "name": "Muller, Anna"},
            ],
            "why": "one letter apart",
        }
    ]
    written = tmp_path / "suggested.txt"
    done = run("players", bare, "--scan", "--suggest-names", written, "-q")
    assert done.exit_code == 0, done.output
    (bare / "hexhop-names.txt").write_text(written.read_text("utf-8"), "utf-8")
    joined = _players(bare, "--scan")  # the file written, used as it is, joins them
    assert [row["name"] for row in joined["players"]][:2] == ["Anna Müller", "Deniz Yılmaz"]
    assert joined["suggestions"] == []


def test_dupes_same_players_are_the_same_keys(people, tmp_path):
    """Three games copied into another file, each player spelled otherwise:
    the same players (one key), so ``dupes --same-players`` finds them."""
    folder, _db = people
    club = tmp_path / "club"
    shutil.copytree(folder, club)
    text = (club / "2010-a.hxl").read_text("utf-8")
    games = re.split(r"\n(?=\[Game )", text.strip())[:3]
    respelled = []
    for game in games:
        for person in PEOPLE:
            names = SPELLINGS[person]
            if len(names) > 1:
                game = game.replace(f'"{names[0]}"', f'"{names[1]}"')
        respelled.append(game)
    (club / "nachtrag.hxl").write_text("\n\n".join(respelled) + "\n", "utf-8")
    for source in (["--scan", club], ["--db", tmp_path / "club.sqlite", club]):
        if "--db" in source:
            assert run("index", club, "--db", tmp_path / "club.sqlite", "-q").exit_code == 0
        done = run("dupes", *source, "--same-players", "--format", "json")
        assert done.exit_code == 0, done.output
        groups = json.loads(done.stdout)
        assert len(groups) == 3
        assert all(len(group["games"]) == 2 for group in groups)


def _ids(db: Path) -> dict[int, int]:
    """The index's game ids -> the games' places in the archive."""
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT g.id FROM games g JOIN files f ON f.id = g.file ORDER BY f.seq, g.number"
        ).fetchall()
    return {game_id: place for place, (game_id,) in enumerate(rows, 1)}


def test_the_web_app_shows_the_same_players_and_games(people):
    folder, db = people
    app = client(db, (folder,))
    ids = _ids(db)
    listing = app.get("/players")
    links = re.findall(r'<a href="/players/([^"]*)">([^<]*)</a>', listing.text)
    expected = sorted(PEOPLE, key=SHOWN.get)
    assert [name for _link, name in links] == [SHOWN[p] for p in expected]
    for person, (link, _name) in zip(expected, links):
        page = app.get(f"/players/{link}")
        assert page.status_code == 200
        spellings = re.search(r'<table class="list" id="spellings">(.*?)</table>', page.text, re.S)
        cells = re.findall(r"<td[^>]*>([^<]*)</td>", spellings.group(1))
        assert dict(zip(cells[::2], map(int, cells[1::2]))) == _spelling_counts(person)
        games = sorted(ids[int(i)] for i in re.findall(r'href="/games/(\d+)"', page.text))
        assert games == games_of(person)
    for typed, persons in TYPED:
        search = app.get("/", params={"player": typed})
        games = sorted(ids[int(i)] for i in re.findall(r'href="/games/(\d+)"', search.text))
        assert games == _expected(persons), typed
        found = app.get("/players", params={"q": typed})
        names = re.findall(r'<a href="/players/[^"]*">([^<]*)</a>', found.text)
        assert set(names) == {SHOWN[p] for p in persons}, typed


def test_the_api_gives_the_same_players_and_games(people):
    folder, db = people
    places = _ordinals(folder, db)
    with hexhop.open_index(db) as index:
        assert index.players() == _players(folder, "--db", db)
        for typed, persons in TYPED:
            hits = index.find(player=typed)
            assert [places[(Path(h.path).name, h.number)] for h in hits] == _expected(persons)


def test_a_changed_names_file_is_told_until_index_runs_again(people, tmp_path):
    folder, _db = people
    club = tmp_path / "club"
    shutil.copytree(folder, club)
    db = tmp_path / "club.sqlite"
    assert run("index", club, "--db", db, "-q").exit_code == 0
    names = club / "hexhop-names.txt"
    names.write_text(names.read_text("utf-8").replace("    Muller, Anna\n", ""), "utf-8")
    told = run("find", club, "--db", db, "--player", "Muller, Anna", "--format", "json")
    assert told.exit_code == 2
    assert (
        f"warning: 1 file changed or gone since {db} was indexed ({names}): the answers are "
        f"what the index holds; run `hexhop index {club} --db {db}` again"
    ) in told.stderr
    assert len(json.loads(told.stdout)) == 20  # what the index holds: still joined
    again = run("index", club, "--db", db)
    assert again.exit_code == 0
    assert f"The players of 1 game are named anew by {names}" in again.stderr
    now = run("find", club, "--db", db, "--player", "Muller, Anna", "--format", "json")
    assert now.exit_code == 0 and now.stderr == ""
    assert len(json.loads(now.stdout)) == 20  # both: Muller finds Müller, and herself
    rows = _players(club, "--db", db)["players"]
    assert [(row["name"], row["games"]) for row in rows][:4] == [
        ("Anna Müller", 19),
        ("Deniz Yılmaz", 20),
        ("Käthe Weiß", 20),
        ("Muller, Anna", 1),  # a player of her own now
    ]
    names.unlink()  # a names file gone is told too
    gone = run("find", club, "--db", db, "--player", "Muller")
    assert gone.exit_code == 2 and f"({names})" in gone.stderr


def test_find_exports_every_game_of_the_person_read_now(people, tmp_path):
    """Read now, the games are held until the archive is read; their bytes
    are read again for the export (kept for standard input)."""
    folder, db = people
    from_index, read_now = tmp_path / "index.hxl", tmp_path / "scan.hxl"
    assert (
        run("find", folder, "--db", db, "--player", "Muller", "--export", from_index).exit_code == 0
    )
    assert run("find", folder, "--scan", "--player", "Muller", "--export", read_now).exit_code == 0
    assert read_now.read_bytes() == from_index.read_bytes()
    assert read_now.read_text("utf-8").count("[Game ") == len(games_of(ANNA))
    text = (folder / "2010-a.hxl").read_text("utf-8")
    piped = tmp_path / "piped.hxl"
    done = CliRunner().invoke(
        cli, ["find", "-", "--player", "Muller", "--export", str(piped)], input=text
    )
    assert done.exit_code == 0, done.output
    expected = [n for n in games_of(ANNA) if n <= len(pairings()) // 2]
    assert piped.read_text("utf-8").count("[Game ") == len(expected)


def test_the_index_serve_makes_names_the_people_as_hexhop_index_does(people, tmp_path):
    """``hexhop serve ARCHIVE`` indexes with the names file beside the
    archive, as ``hexhop index`` does: the same players on its pages."""
    from hexhop.cli.serve_cmd import _index
    from hexhop.serve import data

    folder, db = people
    served = tmp_path / "served.sqlite"
    assert _index((str(folder),), str(served), 1, True) == 56
    listed = json.loads(run("players", "--db", db, "--format", "json").stdout)["players"]
    assert [p.as_json() for p in data.players(str(served))] == listed
    assert len(listed) == 6  # Muller, Anna is Anna Müller; the two Peter Schmidts are two
