"""A small archive for the index, find and dupes tests, built in a temporary folder."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

from click.testing import CliRunner, Result

from hexhop.cli.main import cli
from hexhop.engine.generate import random_archive
from hexhop.notation import format_archive

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "samples" / "good"

# Three club games: Müller twice with the same actions (spelt differently:
# move numbers, symbols, annotations), and one other game.
CLUB = (
    '[Game "Hexalit"]\r\n[Event "Vereinsmeisterschaft"]\r\n[Date "2004.05.01"]\r\n'
    '[North "Jürgen Müller"]\r\n[South "Anna Berger"]\r\n[Result "*"]\r\n\r\n'
    "1. B4W3 D7W1 2. A5XB2 *\r\n\r\n"
    '[Game "Hexalit"]\r\n[Event "Vereinsmeisterschaft"]\r\n[Date "2004.06.12"]\r\n'
    '[North "Jurgen Muller"]\r\n[South "Zoë Brandt"]\r\n[Result "*"]\r\n\r\n'
    "1. B4w3 1... D7W1 2. A5xB2 {same moves} *\r\n\r\n"
    '[Game "Trigeo"]\r\n[Event "Freie Partie"]\r\n[Date "2005.01.20"]\r\n'
    '[North "Karl Brandt"]\r\n[South "Ute Sommer"]\r\n[Result "*"]\r\n\r\n'
    "1. C7°D7 E6°D7 *\r\n"
)


def make_archive(root: Path) -> Path:
    """``root/arch``: the good samples, a club file (CRLF), a zip holding a
    copy of one sample, and 12 random Hüpfer games in one file."""
    arch = root / "arch"
    shutil.copytree(GOOD, arch / "good")
    (arch / "club.hxl").write_bytes(CLUB.encode("utf-8"))
    with zipfile.ZipFile(arch / "old.zip", "w") as zf:
        zf.write(GOOD / "trigeo-goettingen-1999.trg", "1999/trigeo.trg")
    games = random_archive("Hüpfer", 12, 7, board=6, max_plies=30)
    (arch / "random.hpf").write_text(format_archive(games), "utf-8")
    return arch


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, [str(a) for a in args])
