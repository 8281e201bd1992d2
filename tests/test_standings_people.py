"""The standings count people and games, not spellings and copies.

An archive of one double round-robin of 6 players (30 games), each player
written in several spellings (umlauts and their transliteration, case,
``Last, First``, a combining umlaut, a dotless ı, ø), one spelling only
the club's names file joins (``Z. Brandt``), and 5 of the games again in
a second file (``import/nachtrag-2010.hxl``, players spelt otherwise).
``crosstable``, ``ratings``, ``stats`` and the web app's event page give
6 players and 30 games, from a scan and from the index alike.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest
from archive_helpers import run

from hexhop.engine.generate import random_archive
from hexhop.notation import format_archive

EVENT = "Hexalit-Vereinsmeisterschaft 2010"
#: each player's spellings, the first the one used most
SPELLINGS = {
    "Anna Müller": [
        "Anna Müller",
        "Mueller, Anna",
        "ANNA MÜLLER",
        "Müller, Anna",
        unicodedata.normalize("NFD", "Anna Müller"),
        "Anna Mueller",
    ],
    "Käthe Weiß": ["Käthe Weiß", "Kaethe Weiss", "KÄTHE WEISS"],
    "Søren Kjær": ["Søren Kjær", "Soeren Kjaer"],
    "Ahmet Yılmaz": ["Ahmet Yılmaz", "Ahmet Yilmaz", "Yılmaz, Ahmet"],
    "Jürgen Becker": ["Jürgen Becker", "Juergen Becker", "Becker, Jürgen"],
    "Zoë Brandt": ["Zoë Brandt", "Zoe Brandt", "Z. Brandt"],
}
PEOPLE = list(SPELLINGS)
NAMES_FILE = "# the club's names\nZoë Brandt\n    Z. Brandt\n"
COPIED = (2, 7, 11, 19, 26)  # the games (0-based) that import/nachtrag-2010.hxl holds again


def schedule() -> list[tuple[int, int, int]]:
    """(round, north, south) of a double round-robin by the circle method:
    5 rounds, then the same with the sides changed."""
    games = []
    others = list(range(1, 6))
    for round_ in range(5):
        ring = [0, *others]
        for table in range(3):
            a, b = ring[table], ring[5 - table]
            games.append((round_ + 1, a, b) if (round_ + table) % 2 else (round_ + 1, b, a))
        others = others[-1:] + others[:-1]
    return games + [(r + 5, s, n) for r, n, s in games]


def result(number: int, north: int, south: int) -> str:
    """The written result of game ``number``: the player listed first in
    :data:`PEOPLE` wins, but in every fourth game; game 13 has no winner."""
    if number == 13:
        return "*"
    first_wins = north < south
    if number % 4 == 3:
        first_wins = not first_wins
    return "1-0" if first_wins else "0-1"


def spelled(player: int, number: int) -> str:
    names = SPELLINGS[PEOPLE[player]]
    # the first spelling every other game, so that it is the one used most
    return names[0] if number % 2 == 0 else names[(number // 2) % len(names)]


def game_text(record_text: str, number: int, north: str, south: str, round_: int, res: str) -> str:
    """A random game's text with the event's tags."""
    head, _, moves = record_text.partition("\n\n")
    tags = (
        f'[Game "Hexalit"]\n[Event "{EVENT}"]\n[Site "Kassel"]\n'
        f'[Date "2010.{1 + round_:02d}.{10 + number % 3:02d}"]\n[Round "{round_}"]\n'
        f'[North "{north}"]\n[South "{south}"]\n[Result "{res}"]\n'
    )
    moves = re.sub(r"\s(\*|1-0|0-1)\s*$", f" {res}\n", moves.strip() + "\n")
    return tags + "\n" + moves + "\n"


def make(folder: Path) -> Path:
    arch = folder / "arch"
    (arch / "import").mkdir(parents=True)
    records = random_archive("Hexalit", 30, 2010, max_plies=10)
    texts = [format_archive([record]) for record in records]
    main, copies = [], []
    for number, ((round_, north, south), text) in enumerate(zip(schedule(), texts)):
        res = result(number, north, south)
        main.append(
            game_text(text, number, spelled(north, number), spelled(south, number), round_, res)
        )
        if number in COPIED:  # the same game, its players spelt otherwise
            other = SPELLINGS[PEOPLE[north]][1], SPELLINGS[PEOPLE[south]][1]
            copies.append(game_text(text, number, *other, round_, res))
    (arch / "vm2010.hxl").write_text("".join(main), "utf-8")
    (arch / "import" / "nachtrag-2010.hxl").write_text("".join(copies), "utf-8")
    (arch / "hexhop-names.txt").write_text(NAMES_FILE, "utf-8")
    return arch


def expected_points() -> dict[str, tuple[int, int, int]]:
    """(won, lost, open) of each person, counted from the schedule."""
    counts = {name: [0, 0, 0] for name in PEOPLE}
    for number, (_round, north, south) in enumerate(schedule()):
        res = result(number, north, south)
        if res == "*":
            counts[PEOPLE[north]][2] += 1
            counts[PEOPLE[south]][2] += 1
            continue
        winner, loser = (north, south) if res == "1-0" else (south, north)
        counts[PEOPLE[winner]][0] += 1
        counts[PEOPLE[loser]][1] += 1
    return {name: (won, lost, open_) for name, (won, lost, open_) in counts.items()}


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    arch = make(tmp_path_factory.mktemp("people"))
    db = arch / "hexhop.sqlite"
    done = run("index", arch, "--db", db, "-q")
    assert done.exit_code == 0, done.output
    return arch, db


SOURCES = [("--scan",), ("--db",), ()]


def _args(archive: tuple[Path, Path], source: tuple[str, ...]) -> list[object]:
    arch, db = archive
    if source == ("--db",):
        return ["--db", db]
    return [arch, *source]


def test_the_archive_is_what_the_test_says(archive: tuple[Path, Path]) -> None:
    assert len(schedule()) == 30
    pairs = {frozenset((n, s)) for _r, n, s in schedule()}
    assert len(pairs) == 15
    done = run("dupes", archive[0], "--scan", "--format", "json")
    assert len(json.loads(done.stdout)) == 5  # dupes knows the 5 copies


@pytest.mark.parametrize("source", SOURCES, ids=["scan", "index", "indexed-folder"])
def test_the_crosstable_has_six_people_and_thirty_games(
    archive: tuple[Path, Path], source: tuple[str, ...]
) -> None:
    done = run("crosstable", *_args(archive, source), "--event", EVENT, "--format", "json", "-q")
    assert done.exit_code == 0, done.output
    rows = json.loads(done.stdout)
    assert sorted(row["player"] for row in rows) == sorted(PEOPLE)
    assert sum(row["won"] + row["lost"] + row["open"] for row in rows) == 2 * 30
    assert {row["player"]: (row["won"], row["lost"], row["open"]) for row in rows} == (
        expected_points()
    )
    assert expected_points() == {
        "Anna Müller": (7, 3, 0),
        "Käthe Weiß": (8, 2, 0),
        "Søren Kjær": (4, 5, 1),
        "Ahmet Yılmaz": (3, 7, 0),
        "Jürgen Becker": (3, 7, 0),
        "Zoë Brandt": (4, 5, 1),
    }
    anna = next(row for row in rows if row["player"] == "Anna Müller")
    assert sum(s["games"] for s in anna["spellings"]) == 10
    assert done.stderr == (
        "counted once: 5 duplicates of games counted already set aside "
        "(hexhop dupes lists them; --keep-duplicates counts every copy)\n"
    )


def test_every_copy_and_no_names_file(archive: tuple[Path, Path], tmp_path: Path) -> None:
    arch, _db = archive
    every = run(
        "crosstable", arch, "--scan", "--event", EVENT, "--format", "json", "--keep-duplicates"
    )
    rows = json.loads(every.stdout)
    assert sum(row["won"] + row["lost"] + row["open"] for row in rows) == 2 * 35
    assert "set aside" not in every.stderr
    empty = tmp_path / "names.txt"
    empty.write_text("", "utf-8")
    unjoined = run(
        "crosstable", arch, "--scan", "--event", EVENT, "--format", "json", "--names", empty
    )
    names = sorted(row["player"] for row in json.loads(unjoined.stdout))
    assert names == sorted([*PEOPLE, "Z. Brandt"])  # the key alone does not join initials


def test_the_text_table_says_what_it_counts(archive: tuple[Path, Path]) -> None:
    done = run("crosstable", archive[0], "--event", EVENT, "--rounds", "-q")
    lines = done.stdout.splitlines()
    assert lines[0] == f"{EVENT} \u00b7 Kassel \u00b7 2010.02.10\u20132010.11.12"
    assert len([line for line in lines if re.match(r"^\d\s+\S", line)]) == 6 + 6  # table, rounds
    assert "0-0 (1)" in done.stdout or "1-0 (1)" in done.stdout or "0-1 (1)" in done.stdout
    assert "+" not in "".join(lines[2:9]).replace(" (", "")
    assert "(n): and n games without a winner (not counted as won or lost)" in lines


@pytest.mark.parametrize("source", SOURCES, ids=["scan", "index", "indexed-folder"])
def test_ratings_one_row_per_person(archive: tuple[Path, Path], source: tuple[str, ...]) -> None:
    done = run("ratings", *_args(archive, source), "--format", "json", "-q")
    assert done.exit_code == 0, done.output
    document = json.loads(done.stdout)
    (hexalit,) = document["lists"]
    assert (hexalit["game"], hexalit["board"], hexalit["games"], hexalit["open"]) == (
        "Hexalit",
        None,
        29,
        1,
    )
    assert sorted(row["player"] for row in hexalit["players"]) == sorted(PEOPLE)
    assert {row["player"]: row["games"] for row in document["players"]} == {
        name: won + lost for name, (won, lost, _open) in expected_points().items()
    }
    assert document["set_aside"] == 5
    assert round(sum(row["rating"] for row in hexalit["players"]), 6) == 6 * 1500


def test_the_ratings_after_the_event_are_the_archives(archive: tuple[Path, Path]) -> None:
    whole = json.loads(run("ratings", archive[0], "--format", "json", "-q").stdout)
    after = json.loads(
        run("ratings", archive[0], "--event", EVENT, "--format", "json", "-q").stdout
    )
    assert after["players"] == whole["players"]  # its last event: the same list


@pytest.mark.parametrize("source", SOURCES, ids=["scan", "index", "indexed-folder"])
def test_stats_lists_one_player_per_person(
    archive: tuple[Path, Path], source: tuple[str, ...]
) -> None:
    done = run("stats", *_args(archive, source), "--format", "json", "--limit", "0", "-q")
    assert done.exit_code == 0, done.output
    counts = json.loads(done.stdout)
    assert counts["games"] == 30
    assert counts["set_aside"] == 5
    players = {p["name"]: p for p in counts["players"]}
    assert sorted(players) == sorted(PEOPLE)
    assert {name: (p["won"], p["lost"], p["open"]) for name, p in players.items()} == (
        expected_points()
    )
    anna = [s["spelling"] for s in players["Anna Müller"]["spellings"]]
    assert anna[0] == "Anna Müller"
    assert unicodedata.normalize("NFD", "Anna Müller") in anna


def test_the_web_event_page_agrees(archive: tuple[Path, Path]) -> None:
    pytest.importorskip("starlette")
    from serve_helpers import client

    arch, db = archive
    page = client(db, (arch,)).get(f"/events/{EVENT}")
    assert page.status_code == 200
    table = re.search(r'<table class="crosstable" id="crosstable">(.*?)</table>', page.text, re.S)
    assert table is not None
    rows = [
        re.findall(r"<td[^>]*>(?:<a[^>]*>)?([^<]*)", row)
        for row in table.group(1).split("</thead>")[1].split("</tr>")
        if "<td" in row
    ]
    cli = json.loads(run("crosstable", "--db", db, "--event", EVENT, "--format", "json").stdout)
    assert [(row[1], row[-3:]) for row in rows] == [
        (r["player"], [str(r["won"]), str(r["lost"]), str(r["open"])]) for r in cli
    ]
    assert "5 duplicates of games counted already set aside" in page.text
    ratings = re.search(r'<table class="list" id="ratings">(.*?)</table>', page.text, re.S)
    assert ratings is not None
    listed = re.findall(r'<a href="/players/[^"]*">([^<]*)</a>', ratings.group(1))
    assert sorted(listed) == sorted(PEOPLE)


def test_the_same_game_is_defined_once() -> None:
    from hexhop.archive.counting import Once, same_game

    mark = same_game("Hexalit", None, "B4W3 D7W1", "anna mueller", "kaethe weiss")
    assert mark == same_game("Hexalit", None, " B4W3  D7W1 ", "anna mueller", "kaethe weiss")
    # another side, board, game or player, or no action at all: not the same game
    assert mark != same_game("Hexalit", None, "B4W3 D7W1", "kaethe weiss", "anna mueller")
    assert same_game("Hüpfer", 6, "a1-b2", "a", "b") != same_game("Hüpfer", 8, "a1-b2", "a", "b")
    assert mark != same_game("Trigeo", None, "B4W3 D7W1", "anna mueller", "kaethe weiss")
    assert same_game("Hexalit", None, "", "a", "b") is None
    once = Once()
    assert [once.first(m) for m in (mark, None, mark, None, mark)] == [
        True,
        True,
        False,
        True,
        False,
    ]
    assert once.set_aside == 2
    every = Once(keep_duplicates=True)
    assert [every.first(m) for m in (mark, mark)] == [True, True] and every.note() is None


def test_tie_breaks_on_request(archive: tuple[Path, Path]) -> None:
    arch, _db = archive
    done = run("crosstable", arch, "--event", EVENT, "--tie-break", "buchholz,lost", "-q")
    lines = done.stdout.splitlines()
    assert lines[2].split()[-6:] == ["points", "Bu", "-L", "won", "lost", "open"]
    # Søren and Zoë are level on 4 points; Buchholz (the points of every
    # opponent, once per game played) is 2 * (29 - 4) for both in a double
    # round-robin: the name decides
    rows = json.loads(
        run(
            "crosstable", arch, "--event", EVENT, "--tie-break", "buchholz", "--format", "json"
        ).stdout
    )
    assert [(r["player"], r["points"], r["tie_breaks"]) for r in rows][2:4] == [
        ("Søren Kjær", 4, {"buchholz": 50}),
        ("Zoë Brandt", 4, {"buchholz": 50}),
    ]
    assert "Bu: Buchholz: for each game played, the points of the opponent" in lines
    wins = run("crosstable", arch, "--tie-break", "sb,wins")
    assert wins.exit_code == 2
    assert (
        "Invalid value for '--tie-break': wins: the points are the games won "
        "(the rules have no draws), not a tie-break"
    ) in wins.stderr
    other = run("crosstable", arch, "--tie-break", "sb,,elo")
    assert other.exit_code == 2
    assert '"": not a tie-break (one of sb, buchholz, h2h, lost, decided)' in other.stderr


def test_the_rating_list_for_a_newsletter(archive: tuple[Path, Path], tmp_path: Path) -> None:
    arch, _db = archive
    page = run("ratings", arch, "--event", EVENT, "--format", "html", "-q").stdout
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page
    assert f"<h2>Hexalit after {EVENT}</h2>" in page
    assert "<tr><th>#</th><th>player</th><th>rating</th><th>change</th><th>games</th></tr>" in page
    assert len(re.findall(r"<tr><td>\d+</td>", page)) == 6
    out = tmp_path / "list.pdf"
    done = run("ratings", arch, "--format", "pdf", "--out", out, "-q")
    assert done.exit_code == 0, done.output
    assert len(re.findall(rb"/Type\s*/Page\b", out.read_bytes())) == 1
    again = run("ratings", arch, "--format", "pdf", "--out", out)
    assert again.exit_code == 2 and out.read_bytes().startswith(b"%PDF")
    missing = run("ratings", arch, "--format", "pdf")
    assert missing.exit_code == 2
    assert "--format pdf writes a file: give --out FILE.pdf" in missing.stderr


def test_fifteen_players_fit_a_page(tmp_path: Path) -> None:
    """A table of 15 players with long names goes on a page turned on its
    side, in one piece (tests/ only count its pages: the picture was looked at)."""
    names = [f"Spielerin Nummer {i} von Hohenberg-Lüdenscheid" for i in range(15)]
    games = "".join(
        f'[Game "Hexalit"]\n[Event "VM"]\n[North "{a}"]\n[South "{b}"]\n[Result "*"]\n\n*\n\n'
        for a in names
        for b in names
        if a != b
    )
    (tmp_path / "vm.hxl").write_text(games, "utf-8")
    out = tmp_path / "vm.pdf"
    done = run("crosstable", tmp_path, "--format", "pdf", "--out", out, "-q")
    assert done.stderr == "the table is wider than an upright page: laid out in landscape\n"
    data = out.read_bytes()
    assert len(re.findall(rb"/Type\s*/Page\b", data)) == 1
    box = re.search(rb"/MediaBox\s*\[\s*0 0 ([0-9.]+) ([0-9.]+)", data)
    assert box is not None and float(box.group(1)) > float(box.group(2))
    html = run("crosstable", tmp_path, "--format", "html", "-q").stdout
    assert "white-space:nowrap" in html and "<td>0-0 (2)</td>" in html


def test_a_names_file_that_is_not_one(archive: tuple[Path, Path], tmp_path: Path) -> None:
    arch, _db = archive
    names = tmp_path / "names.txt"
    names.write_text("Anna Müller\n    Anna M.\nBerta Müller\n    Anna M.\n", "utf-8")
    for command in ("crosstable", "ratings", "stats"):
        done = run(command, arch, "--names", names)
        assert done.exit_code == 2, command
        assert done.stderr == (
            f"Error: {names}:4:1: this spelling names Anna Müller (line 2) and Berta Müller: "
            'tell them apart with a condition such as [Site "Kassel*"]\n'
        )


def test_the_ratings_after_an_event_mean_one_thing(archive: tuple[Path, Path]) -> None:
    """The command, the API and the web page give the same list after the event."""
    pytest.importorskip("starlette")
    from serve_helpers import client

    import hexhop

    arch, db = archive
    command = json.loads(run("ratings", "--db", db, "--event", EVENT, "--format", "json").stdout)
    with hexhop.open_index(db) as index:
        (api,) = index.ratings(EVENT)
    listed = [(r["player"], round(r["rating"])) for r in command["players"]]
    assert [(name, round(api.ratings[name])) for name in api.players()] == listed
    page = client(db, (arch,)).get(f"/events/{EVENT}").text
    ratings = re.search(r'<table class="list" id="ratings">(.*?)</table>', page, re.S)
    assert ratings is not None
    shown = re.findall(
        r'<a href="/players/[^"]*">([^<]*)</a></td><td class="number">(\d+)</td>', ratings.group(1)
    )
    assert [(name, int(rating)) for name, rating in shown] == listed
