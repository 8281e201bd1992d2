"""``hexhop puzzles``: unique forced wins from real games."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from hexhop.cli.main import cli
from hexhop.engine.games import rules_for
from hexhop.engine.solver import Solver
from hexhop.records.analysis import Settings
from hexhop.records.puzzles import find_puzzles
from hexhop.records.sources import iter_sources

ROOT = Path(__file__).resolve().parent.parent
HUEPFER = ROOT / "samples" / "good" / "huepfer-6x6-bremen-2003.hpf"

PUZZLE_2 = """[Game "Hüpfer"]
[Event "Puzzle 2"]
[Board "6x6"]
[Position "R: a1 b1 b2 b3 c2; T: c5 d4 e5 e6 f3; reserve: 10/10; turn: R"]
[Result "1-0"]
[Source "samples/good/huepfer-6x6-bremen-2003.hpf"]
[SourceGame "1"]
[SourcePly "6"]
[SourcePlayers "Mira Hansen - Paul Ohlsen"]
[SourceEvent "Hüpfer-Abend"]
[SourceYear "2003"]
[Difficulty "depth 2, defences 1, decoys 0, length 3"]
[Motifs "quiet capture-chain"]

1. a1-c1-c3@c4 {Red to play and win in 2}
{samples/good/huepfer-6x6-bremen-2003.hpf, game 1, ply 6} 1... d4xb4
2. b3xb5xd5xf5 1-0
"""


def run(*args: str):
    return CliRunner().invoke(cli, ["puzzles", *args], catch_exceptions=False)


def test_puzzles_are_records_and_diagrams(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    out = tmp_path / "puzzles"
    result = run(
        "samples/good/huepfer-6x6-bremen-2003.hpf", "--out-dir", str(out), "--per-game", "0"
    )
    assert result.exit_code == 0
    assert result.output == f"wrote 3 puzzles to {out}\n"
    assert sorted(p.name for p in out.iterdir()) == [
        "puzzle001.hpf",
        "puzzle001.svg",
        "puzzle002.hpf",
        "puzzle002.svg",
        "puzzle003.hpf",
        "puzzle003.svg",
    ]
    assert (out / "puzzle002.hpf").read_text("utf-8") == PUZZLE_2
    svg = (out / "puzzle002.svg").read_text("utf-8")
    assert "<title>Puzzle 2: Red to play and win in 2</title>" in svg
    assert "Red to play and win at once" in (out / "puzzle001.svg").read_text("utf-8")
    # every puzzle is a valid record, without even a warning
    check = CliRunner().invoke(cli, ["check", "--strict", str(out)])
    assert check.exit_code == 0, check.output
    # nothing is overwritten without --force
    again = run(str(HUEPFER), "--out", str(out))
    assert again.exit_code == 2 and "exists; use --force" in again.output
    assert run(str(HUEPFER), "--out", str(out), "--force").exit_code == 0


def test_png_diagrams(tmp_path: Path) -> None:
    assert (
        run(str(HUEPFER), "--out", str(tmp_path), "--format", "png", "--depth", "1").exit_code == 0
    )
    assert (tmp_path / "puzzle001.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_pdf_diagrams(tmp_path: Path) -> None:
    """A newsletter lays out in PDF: one puzzle sheet, puzzles.pdf (it
    was one PDF per puzzle; tests/test_pages.py reads its pages)."""
    done = run(
        str(HUEPFER), "--out", str(tmp_path), "--format", "pdf", "--depth", "1", "--min-depth", "1"
    )
    assert done.exit_code == 0
    assert not (tmp_path / "puzzle001.pdf").exists()
    data = (tmp_path / "puzzles.pdf").read_bytes()
    assert data.startswith(b"%PDF-") and b"/Type /Page" in data


def test_unique_solutions_in_source_order_and_deduplicated() -> None:
    settings = Settings(depth=2)
    found = find_puzzles(iter_sources([str(HUEPFER), str(HUEPFER)]), settings)
    assert len(found) == 3  # the same file twice: each position once
    assert len({p.key for p in found}) == 3
    # in source order: the choice (records/puzzle_choice.py) orders them
    assert [p.source[2] for p in found if p.source] == [6, 20, 22]
    for puzzle in found:
        winners = Solver(rules_for(puzzle.game)).winning_choices(puzzle.position, 2)
        assert winners is not None and len(winners) == 1
        assert str(winners[0][0][0]) == str(puzzle.solution[0]).rstrip("^+")


def test_german_caption(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli,
        ["--lang", "de", "puzzles", str(HUEPFER), "--out-dir", str(tmp_path), "--per-game", "0"],
    )
    assert result.output == f"3 Aufgaben nach {tmp_path} geschrieben\n"
    assert "Aufgabe 2: Rot zieht und gewinnt in 2" in (tmp_path / "puzzle002.svg").read_text(
        "utf-8"
    )
