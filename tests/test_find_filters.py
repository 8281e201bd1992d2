"""The filters of ``find`` and ``stats`` give the answer a user expects:
``--board`` chooses the board, ``--tag`` takes the
German tag names the reader takes, a name written with ü is found as ue and
the other way round, an impossible ``--date`` and an overlong pattern are
usage errors. From the index and from the archive alike."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from archive_helpers import make_archive, run

from hexhop.engine.generate import random_archive
from hexhop.notation import format_archive

MUELLER = (
    '[Game "Hexalit"]\n[Turnier "Pokal"]\n[Nord "Hans Mueller"]\n[Süd "Gerd Weiß"]\n'
    '[Result "*"]\n\n1. B4W3 D7W1 *\n'
)


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("filters")
    arch = make_archive(root)  # random.hpf: 12 Hüpfer games on 6x6
    eight = random_archive("Hüpfer", 5, 3, board=8, max_plies=20)
    (arch / "eight.hpf").write_text(format_archive(eight), "utf-8")
    (arch / "mueller.hxl").write_text(MUELLER, "utf-8")
    db = root / "arch.sqlite"
    assert run("index", arch, "--db", db).exit_code == 0
    return arch, db


def _found(arch: Path, db: Path | None, *query: str) -> list[str]:
    source = ("--db", db) if db else ("--scan",)
    result = run("find", arch, *source, *query, "--format", "jsonl")
    assert result.exit_code in (0, 1), result.output
    games = [json.loads(line) for line in result.stdout.splitlines()]
    return [f"{Path(g['path'].split(':')[0]).name}#{g['index']}" for g in games]


def _both(indexed: tuple[Path, Path], *query: str) -> list[str]:
    arch, db = indexed
    found = _found(arch, db, *query)
    assert _found(arch, None, *query) == found
    return found


def test_board_is_a_filter(indexed: tuple[Path, Path]) -> None:
    eight = _both(indexed, "--game", "Hüpfer", "--board", "8x8")
    assert sorted(eight) == [f"eight.hpf#{n}" for n in range(1, 6)] + [
        "huepfer-8x8-bremen-2003.hpf#1"
    ]
    six = _both(indexed, "--game", "Hüpfer", "--board", "6")
    assert "eight.hpf#1" not in six and "random.hpf#1" in six
    assert _both(indexed, "--board", "10x10") == ["huepfer-10x10-bremen-2003.hpf#1"]


def test_stats_counts_the_board_chosen(indexed: tuple[Path, Path]) -> None:
    arch, db = indexed
    for source in (("--db", db), ("--scan",)):
        done = run("stats", arch, *source, "--board", "8x8", "--format", "json")
        assert done.exit_code == 0, done.output
        counts = json.loads(done.stdout)
        assert counts["games"] == 6
        assert [(g["game"], g["board"]) for g in counts["by_game"]] == [("Hüpfer", "8x8")]


@pytest.mark.parametrize("name", ["Turnier", "turnier", "Veranstaltung", "Event"])
def test_german_tag_names(indexed: tuple[Path, Path], name: str) -> None:
    assert _both(indexed, "--tag", f"{name}=*meister*") == ["club.hxl#1", "club.hxl#2"]
    assert _both(indexed, "--tag", f"{name}=pokal") == ["mueller.hxl#1"]


def test_german_side_tag_names(indexed: tuple[Path, Path]) -> None:
    assert _both(indexed, "--tag", "Nord=*mueller") == ["club.hxl#1", "mueller.hxl#1"]
    assert _both(indexed, "--tag", "Süd=Gerd Weiss") == ["mueller.hxl#1"]


@pytest.mark.parametrize(
    "name, expected",
    [
        ("MUELLER", ["club.hxl#1", "mueller.hxl#1"]),  # Jürgen Müller; Hans Mueller
        ("Müller", ["club.hxl#1", "club.hxl#2", "mueller.hxl#1"]),
        ("muller", ["club.hxl#1", "club.hxl#2"]),  # not Mueller: documented
        ("Jürgen Mü*", ["club.hxl#1", "club.hxl#2"]),  # Jurgen Muller too
        ("juergen m*", ["club.hxl#1"]),
        ("weiss", ["mueller.hxl#1"]),
        ("Weiß", ["mueller.hxl#1"]),
    ],
)
def test_umlauts_and_their_spelling_with_e(
    indexed: tuple[Path, Path], name: str, expected: list[str]
) -> None:
    assert _both(indexed, "--player", name) == expected


def test_a_side_is_matched_both_ways(indexed: tuple[Path, Path]) -> None:
    assert _both(indexed, "--north", "juergen") == ["club.hxl#1"]
    assert _both(indexed, "--north", "Hans Müller") == ["mueller.hxl#1"]


@pytest.mark.parametrize(
    "date, message",
    [
        ("2001.13", "2001.13 is not a date"),
        ("2001.00", "2001.00 is not a date"),
        ("2001.02.32", "2001.02.32 is not a date"),
        ("1998..2001.13.01", "2001.13.01 is not a date"),
        ("2001.12.00", "2001.12.00 is not a date"),
    ],
)
def test_impossible_dates_are_usage_errors(
    indexed: tuple[Path, Path], date: str, message: str
) -> None:
    arch, db = indexed
    for command in ("find", "stats"):
        done = run(command, arch, "--db", db, "--date", date)
        assert done.exit_code == 2, done.output
        assert message in done.stderr


def test_possible_dates_are_taken(indexed: tuple[Path, Path]) -> None:
    assert _both(indexed, "--date", "2004.05.01..2004.12.31") == ["club.hxl#1", "club.hxl#2"]
    assert _both(indexed, "--date", "2004.06") == ["club.hxl#2"]


@pytest.mark.parametrize("option", ["--player", "--north", "--tag", "--glob"])
def test_an_overlong_pattern_is_a_usage_error(indexed: tuple[Path, Path], option: str) -> None:
    arch, db = indexed
    pattern = "[a-" * 20000
    value = f"Event={pattern}" if option == "--tag" else pattern
    for command in ("find", "stats"):
        done = run(command, arch, "--db", db, option, value)
        assert done.exit_code == 2, done.output
        assert "the pattern is 60000 characters long; at most 1000 are read" in done.stderr


def test_a_bad_board_is_a_usage_error(indexed: tuple[Path, Path]) -> None:
    arch, db = indexed
    done = run("find", arch, "--db", db, "--board", "7x7")
    assert done.exit_code == 2
    assert "--board '7x7': expected one of 6x6, 8x8, 10x10" in done.stderr


HOSTILE_NAMES = "".join(
    f'[Game "Hexalit"]\n[North "{"a" * 9000}{n}"]\n[South "{"[a-" * 3000}"]\n\n*\n\n'
    for n in range(20)
)


@pytest.mark.slow
@pytest.mark.parametrize("pattern", ["[a-" * 333, "*a" * 500, "*[a-z]?" * 140 + "b"])
def test_long_patterns_against_long_names_end_soon(tmp_path: Path, pattern: str) -> None:
    """Patterns at the bound, against names of 9,000 characters: fnmatch
    took quadratic time (in C, deaf to SIGTERM); a child process must end
    well within the timeout, from the index and from the archive."""
    (tmp_path / "long.hxl").write_text(HOSTILE_NAMES, "utf-8")
    db = tmp_path / "x.sqlite"
    assert run("index", tmp_path, "--db", db).exit_code == 0
    for source in (("--db", str(db)), ("--scan",)):
        done = subprocess.run(
            [sys.executable, "-m", "hexhop.cli", "find", str(tmp_path), *source]
            + ["--player", pattern, "--tag", f"North={pattern}"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        assert done.returncode == 1, done.stderr
        assert "Traceback" not in done.stderr
