"""The archive operations as library calls, giving
what the commands print: ``check_paths`` (check), ``index_paths`` and
``open_index`` (index, find, dupes, stats) and a crosstable."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from archive_helpers import GOOD, make_archive, run

import hexhop

BROKEN = GOOD.parent / "broken"


def check_json(*args: object) -> tuple[int, dict]:
    result = run("check", "--format", "json", *args)
    return result.exit_code, json.loads(result.stdout)


@pytest.mark.parametrize(
    "paths",
    [
        [GOOD],
        [GOOD, BROKEN / "illegal-trigeo-roll.trg"],
        [BROKEN],
        [GOOD / "missing.hxl", GOOD / "hexalit-kassel-1998.hxl"],
    ],
)
def test_check_paths_gives_what_check_reports(paths: list[Path]) -> None:
    run_ = hexhop.check_paths([str(p) for p in paths])
    assert run_.exit_code is None  # nothing has run yet
    files = [
        {"path": r.path, "games": r.games, **({"error": r.error} if r.error else {})} for r in run_
    ]
    code, report = check_json(*paths)
    assert files == report["files"]
    summary = run_.summary.as_dict()
    summary.pop("seconds"), report["summary"].pop("seconds")
    assert summary == report["summary"]
    assert run_.exit_code == code


def test_check_paths_in_pieces_with_workers_and_limits(tmp_path: Path) -> None:
    big = tmp_path / "big.hxl"
    kassel = (GOOD / "hexalit-kassel-1998.hxl").read_text("utf-8")
    big.write_text("\n".join([kassel] * 205), "utf-8")  # three parts of at most 100 games
    run_ = hexhop.check_paths(big)
    [pieces] = [[len(piece.games) for piece in pieces] for pieces in run_.by_file()]
    assert pieces == [100, 100, 5]
    assert (run_.summary.files, run_.summary.games, run_.exit_code) == (1, 205, 0)
    [whole] = hexhop.check_paths([big], jobs=2)  # in worker processes, the pieces put together
    assert len(whole.games) == 205 and [g["index"] for g in whole.games] == list(range(1, 206))
    limited = hexhop.check_paths(big, limits=hexhop.Limits(max_games=3))
    [result] = limited
    assert len(result.games) == 3 and result.error["code"] == "IO04"
    assert limited.exit_code == 2 == run("check", big, "--max-games", "3").exit_code


def test_check_paths_notes_paths_without_records(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    run_ = hexhop.check_paths([tmp_path / "empty"])
    assert list(run_) == [] and run_.empty == [str(tmp_path / "empty")]
    assert run_.exit_code == 2  # no game found, as check exits


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    arch = make_archive(tmp_path_factory.mktemp("api"))
    db = str(arch.parent / "arch.sqlite")
    summary = hexhop.index_paths(arch, db=db)
    assert (summary.indexed, summary.games, summary.verdict) == (9, 22, 0)
    return arch, db


def test_find_gives_what_find_lists(indexed: tuple[Path, str]) -> None:
    arch, db = indexed
    cases = [
        ({}, []),
        ({"player": "muller"}, ["--player", "muller"]),
        ({"player": ["Brandt", "Sommer"]}, ["--player", "Brandt", "--player", "Sommer"]),
        ({"game": "Trigeo", "winner": "south"}, ["--game", "Trigeo", "--winner", "south"]),
        ({"tag": "Event=*Abend*", "plies": "25.."}, ["--tag", "Event=*Abend*", "--plies", "25.."]),
        ({"after": "B4W3 D7W1"}, ["--after", "B4W3 D7W1"]),
        ({"date": "2004", "north": "J*"}, ["--date", "2004", "--north", "J*"]),
    ]
    with hexhop.open_index(db) as index:
        for filters, options in cases:
            found = [hit.as_json() for hit in index.find(**filters)]
            listed = json.loads(run("find", "--db", db, "--format", "json", *options).stdout)
            assert found == listed, filters
        assert [h.players for h in index.find(player="muller")] == [
            ["Jürgen Müller", "Anna Berger"],
            ["Jurgen Muller", "Zoë Brandt"],
        ]


def test_a_filter_that_cannot_be_read_is_a_hexhop_error(indexed: tuple[Path, str]) -> None:
    _, db = indexed
    with hexhop.open_index(db) as index:
        for filters in ({"date": "2001.13"}, {"board": "7x7"}, {"colour": "red"}, {"plies": "x"}):
            with pytest.raises(hexhop.Error):
                index.find(**filters)
        with pytest.raises(hexhop.UnknownGame):
            index.find(game="Chess")
    with pytest.raises(hexhop.Error):  # closed
        index.find()
    with pytest.raises(hexhop.Error):
        hexhop.open_index(GOOD / "hexalit-kassel-1998.hxl")  # not an index


def test_dupes_and_stats_give_what_the_commands_print(indexed: tuple[Path, str]) -> None:
    _, db = indexed
    with hexhop.open_index(db) as index:
        groups = [
            {"game": g.game, "actions": g.actions, "games": [h.as_json() for h in g.games]}
            for g in index.dupes()
        ]
        assert groups == json.loads(run("dupes", "--db", db, "--format", "json").stdout)
        assert [len(g["games"]) for g in groups] == [2, 2]
        assert [g.game for g in index.dupes(same_players=True)] == ["Trigeo"]
        assert index.dupes(game="Trigeo")[0].game == "Trigeo"
        counts = index.stats(game="Hüpfer", depth=2, limit=0)
        printed = run(
            "stats", "--db", db, "--game", "Hüpfer", "--opening-depth", "2", "--limit", "0"
        )
        assert printed.exit_code == 0
        assert counts == json.loads(
            run(
                "stats",
                "--db",
                db,
                "--game",
                "Hüpfer",
                "--depth",
                "2",
                "--limit",
                "0",
                "--format",
                "json",
            ).stdout
        )
        assert counts["games"] == 15


def test_the_crosstable_of_an_event(indexed: tuple[Path, str]) -> None:
    _, db = indexed
    with hexhop.open_index(db) as index:
        club = index.crosstable("Vereins*")
        # "Jurgen Muller" is not "Jürgen Müller" by the key (u is not ue):
        # a names file joins them
        assert club.players == ["Anna Berger", "Jurgen Muller", "Jürgen Müller", "Zoë Brandt"]
        assert club.score("Jürgen Müller", "Anna Berger") == (0, 0, 1)
        assert club.total("Anna Berger") == (0, 0, 1)
        bremen = index.crosstable(event="Hüpfer-Abend")
        assert str(bremen) == (
            "                 1    2    3 points   SB  won lost open\n"
            "1 Mira Hansen    .  2-0    .      2    2    2    0    0\n"
            "2 Paul Ohlsen  0-2    .  1-0      1    0    1    2    0\n"
            "3 Lena Voss      .  0-1    .      0    0    0    1    0"
        )
        assert bremen.results == {
            "Mira Hansen": {"Paul Ohlsen": [2, 0, 0]},
            "Paul Ohlsen": {"Mira Hansen": [0, 2, 0], "Lena Voss": [1, 0, 0]},
            "Lena Voss": {"Paul Ohlsen": [0, 1, 0]},
        }
        assert index.crosstable(event="Hüpfer-Abend", board="8x8").players == [
            "Mira Hansen",
            "Paul Ohlsen",
        ]
        assert index.crosstable("No such event").players == []


def test_stale_files_and_an_index_made_again(indexed: tuple[Path, str], tmp_path: Path) -> None:
    arch, db = indexed
    again = hexhop.index_paths(arch, db=db)
    assert (again.indexed, again.unchanged, again.games) == (0, 9, 0)
    copy = tmp_path / "copy"
    copy.mkdir()
    with zipfile.ZipFile(copy / "one.zip", "w") as zipped:
        zipped.write(GOOD / "trigeo-goettingen-1999.trg", "t.trg")
    hexhop.index_paths(copy)  # hexhop.sqlite beside it
    (copy / "one.zip").unlink()
    with hexhop.open_index(copy / "hexhop.sqlite") as index:
        assert index.stale() == [str(copy / "one.zip:t.trg")]


def test_under_keeps_the_games_of_some_paths_as_archive_paths_do(
    indexed: tuple[Path, str],
) -> None:
    arch, db = indexed
    good = arch / "good"
    spellings = [str(good), f"{good}/", str(arch / "good" / ".." / "good")]
    with hexhop.open_index(db) as index:
        listed = json.loads(run("find", good, "--db", db, "--format", "json").stdout)
        for spelling in spellings:
            assert [h.as_json() for h in index.find(under=[spelling])] == listed
        assert len(listed) == 6
        assert [h.path for h in index.find(under=[arch / "old.zip"])] == [
            f"{arch}/old.zip:1999/trigeo.trg"
        ]
        assert [g.game for g in index.dupes(under=[arch / "club.hxl"])] == ["Hexalit"]
        assert index.stats(under=[good])["games"] == 6
        assert index.crosstable(under=[arch / "club.hxl"]).players == [
            "Anna Berger",
            "Jurgen Muller",
            "Jürgen Müller",
            "Karl Brandt",
            "Ute Sommer",
            "Zoë Brandt",
        ]
