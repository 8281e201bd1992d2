"""``hexhop players``: the roster of an archive and the players that may be one person."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from archive_helpers import run

from hexhop.archive.players import player_key, read_names
from hexhop.archive.roster import (
    BUCKET_LIMIT,
    MOST_SUGGESTED,
    PlayerRow,
    Sides,
    Work,
    known_date,
    one_apart,
    roster,
    suggest,
    suggestions_file,
)


def _row(name: str, games: int = 1) -> PlayerRow:
    return PlayerRow(player_key(name), name, [(name, games)], games, None, None)


def _pairs(*names: str) -> list[tuple[str, str, str]]:
    return [(s.first, s.second, s.why) for s in suggest([_row(n) for n in names])]


def test_the_three_kinds_of_suggestion():
    assert _pairs("Anna Müller", "Anna Muller", "Jonas Keller") == [
        ("anna mueller", "anna muller", "one letter apart")
    ]
    assert _pairs("A. Müller", "Anna Müller", "Andreas Müller", "Berta Müller") == [
        ("a. mueller", "andreas mueller", "initial"),
        ("a. mueller", "anna mueller", "initial"),
    ]
    assert _pairs("Mueller Anna", "Anna Müller") == [("anna mueller", "mueller anna", "swapped")]
    # too short to tell, and more than one letter apart: nothing
    assert _pairs("Ann Li", "Ann Lu", "Anna Meier", "Anna Maier-Ott") == [
        ("ann li", "ann lu", "one letter apart")
    ]
    assert _pairs("Al", "Am") == []
    assert _pairs("Gast 1", "Gast 2", "Gast 12") == []  # a digit is not a letter


def test_a_player_is_suggested_with_at_most_five_others():
    names = [f"{letter}aier" for letter in "bcdfghkmnprstw"]  # each one letter from each
    found = suggest([_row(name) for name in names])
    partners = Counter(key for s in found for key in (s.first, s.second))
    assert max(partners.values()) == MOST_SUGGESTED == 5
    assert ("baier", "caier", "one letter apart") in [(s.first, s.second, s.why) for s in found]


def test_one_apart():
    assert one_apart("mueller", "muller") and one_apart("muller", "mueller")
    assert one_apart("meier", "maier") and one_apart("kjaer", "kjear")  # changed, swapped
    assert not one_apart("meier", "meier") and not one_apart("meier", "mayer")
    assert not one_apart("abc", "abcde")


def _club(count: int, seed: int) -> list[PlayerRow]:
    """``count`` players of made-up names, many of them near each other."""
    rnd = random.Random(seed)
    parts = ["an", "na", "mül", "ler", "kä", "the", "wei", "ß", "sø", "ren", "yıl", "maz"]
    parts += ["pe", "ter", "schmidt", "jo", "nas", "kel", "ber", "ger", "mi", "ra", "o", "le"]
    keys: dict[str, str] = {}
    while len(keys) < count:
        first, last = ("".join(rnd.choices(parts, k=rnd.randint(1, 3))) for _ in "ab")
        name = f"{first.title()} {last.title()}"
        keys.setdefault(player_key(name), name)
    return [_row(name) for name in keys.values()]


def test_suggestions_cost_a_few_comparisons_per_player_not_one_per_pair():
    """Every two players of 20,000 would be 2e8 comparisons; by buckets it
    is a few per player, and ten times the players cost about ten times as many."""
    costs = []
    for count in (2_000, 20_000):
        work = Work()
        found = suggest(_club(count, 34), work)
        assert found  # made-up names near each other are found
        assert work.comparisons <= 5 * count
        costs.append(work.comparisons)
    assert costs[1] <= 15 * costs[0]  # a pair each: 100 times
    # one last name for everybody, numbered first names: the initial's bucket
    # is too large to say anything, and a bucket compares at most BUCKET_LIMIT keys
    many = [_row(f"A{'n' * (i % 50)}na{i} Mueller") for i in range(5_000)] + [_row("A. Müller")]
    work = Work()
    assert all(s.why != "initial" for s in suggest(many, work))
    letters = sum(len(row.key) + 1 for row in many)  # the buckets a key is in, at most
    assert work.comparisons <= letters * BUCKET_LIMIT // 2
    assert work.comparisons <= 20 * len(many)  # a pair each: 12,502,500


def test_the_suggestions_file_is_a_names_file_that_joins_them():
    rows = [_row("Anna Müller", 30), _row("Anna Muller", 2), _row("A. Müller", 1)]
    rows.append(_row("Muller, Anna [guest]", 1))  # no spelling a names file cannot list
    text = suggestions_file(rows, suggest(rows))
    assert text.splitlines()[4:] == [
        "",
        "# A. Müller / Anna Müller: a first name as its initial",
        "# Anna Müller / Anna Muller: one letter apart",
        "Anna Müller",
        "    Anna Muller",
        "    A. Müller",
    ]
    names = read_names(text, "suggested.txt")
    assert {names.identify(n).key for n in ("A. Müller", "Anna Muller", "MÜLLER, ANNA")} == {
        "anna mueller"
    }


def test_roster_counts_games_and_dates_and_composes_spellings():
    games = [
        Sides(
            ("Anna Mu\u0308ller", "Jonas"),
            ("anna mueller", "jonas"),
            (None, None),
            "2001.??.??",
            "a",
        ),
        Sides(("Anna Müller", "?"), ("anna mueller", "?"), (None, None), "1999.03.14", "a"),
        Sides(
            ("Mueller, Anna", "Anna Müller"), ("anna mueller",) * 2, ("Anna M.", None), None, "a"
        ),
    ]
    (anna, jonas) = roster(games)
    assert (anna.name, anna.games, anna.first, anna.last) == ("Anna M.", 3, "1999.03.14", "2001")
    assert anna.spellings == [("Anna Müller", 3), ("Mueller, Anna", 1)]
    assert (jonas.name, jonas.games) == ("Jonas", 1)
    assert known_date("1998.??.??") == "1998" and known_date("??") is None


TWO = (
    '[Game "Hexalit"]\n[Date "1999.01.02"]\n[North "Anna Müller"]\n[South "A. Müller"]\n\n'
    "1. B4W3 D7W1 *\n\n"
    '[Game "Hexalit"]\n[Date "1998.??.??"]\n[North "MUELLER, ANNA"]\n[South "Jonas Keller"]\n\n'
    "1. B4W3 E8W3 *\n"
)


def test_players_text_and_csv(tmp_path: Path):
    club = tmp_path / "club.hxl"
    club.write_text(TWO, "utf-8")
    done = run("players", club)
    assert done.exit_code == 0
    assert done.stdout.splitlines() == [
        "player        games  first       last        spellings",
        "A. Müller         1  1999.01.02  1999.01.02  A. Müller (1)",
        "Anna Müller       2  1998        1999.01.02  Anna Müller (1), MUELLER, ANNA (1)",
        "Jonas Keller      1  1998        1998        Jonas Keller (1)",
        "",
        "May be one person (not joined; a names file joins them):",
        "  A. Müller / Anna Müller: a first name as its initial",
    ]
    assert done.stderr == "3 players; 1 pair that may be one person\n"
    csv = run("players", club, "--format", "csv", "-q")
    assert csv.stdout.splitlines()[:2] == [
        "key,name,games,first,last,spellings",
        "a. mueller,A. Müller,1,1999.01.02,1999.01.02,A. Müller=1",
    ]


def test_suggest_names_never_writes_over_a_file(tmp_path: Path):
    club = tmp_path / "club.hxl"
    club.write_text(TWO, "utf-8")
    mine = tmp_path / "mine.txt"
    mine.write_text("mine", "utf-8")
    done = run("players", club, "--suggest-names", mine)
    assert done.exit_code == 2
    assert done.stderr == (
        f"Error: {mine} exists: --suggest-names writes a new file, never over one\n"
    )
    assert mine.read_text("utf-8") == "mine"
    over_input = run("players", club, "--suggest-names", club)
    assert over_input.exit_code == 2 and club.read_text("utf-8") == TWO
    fresh = tmp_path / "new" / "names.txt"
    assert run("players", club, "--suggest-names", fresh, "-q").exit_code == 0
    assert "A. Müller" in fresh.read_text("utf-8")


def test_a_bad_names_file_is_told_at_its_line(tmp_path: Path):
    club = tmp_path / "club.hxl"
    club.write_text(TWO, "utf-8")
    names = tmp_path / "names.txt"
    names.write_text("    Anna Müller\n", "utf-8")
    for command in ("players", "find", "index", "dupes"):
        done = run(command, club, "--names", names)
        assert done.exit_code == 2, command
        assert f"{names}:1:5: a spelling before any player's name" in done.stderr
        assert "Traceback" not in done.output
