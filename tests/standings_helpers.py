"""A small club archive whose crosstable and ratings were worked out by hand."""

from __future__ import annotations

from pathlib import Path

from archive_helpers import run


def game(north: str, south: str, result: str, event: str, date: str | None) -> str:
    dated = f'[Date "{date}"]\n' if date is not None else ""
    return (
        f'[Game "Hexalit"]\n[Event "{event}"]\n{dated}[North "{north}"]\n'
        f'[South "{south}"]\n[Result "{result}"]\n\n{result}\n\n'
    )


# Cup (first in the file, last by date): Ben (North, to move) offers the
# cube and Anna drops it: a loss for Anna, as stats counts it.
CUP = (
    '[Game "Hexalit"]\n[Event "Cup"]\n[Date "2026.02.01"]\n[North "Ben"]\n'
    '[South "Anna"]\n[First "North"]\n[Result "1-0"]\n\n1. double 2 drop 1-0\n\n'
)
CLUB = (
    game("Anna", "Ben", "1-0", "Club", "2026.01.10")
    + game("Cem", "Dora", "0-1", "Club", "2026.01.10")
    + game("Anna", "Cem", "0-1", "Club", "2026.01.17")
    + game("Ben", "Dora", "1-0", "Club", "2026.01.17")
    + game("Anna", "Dora", "1-0", "Club", "2026.01.24")
    + game("Ben", "Cem", "*", "Club", "2026.01.24")  # open: no points, not rated
)
UNDATED = game("Cem", "Dora", "1-0", "Cup", None)  # in the Cup, but not rated


def club(root: Path) -> tuple[Path, Path]:
    """``root/club`` (one file: the Cup game, the Club, an undated Cup
    game) and its index ``root/club.sqlite``."""
    folder = root / "club"
    folder.mkdir()
    (folder / "club.hxl").write_text(CUP + CLUB + UNDATED, "utf-8")
    db = root / "club.sqlite"
    assert run("index", folder, "--db", db, "-q").exit_code == 0
    return folder, db
