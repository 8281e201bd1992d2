"""The archive commands give the same answers whatever the order of the files:
nothing one game teaches a cache may answer for a game
of another kind.

``a5xb2`` is a Trigeo move written in lower case (canonical ``A5XB2``) and
a Hüpfer capture path (canonical ``a5xb2``); read in one process, a Hüpfer
game before the Trigeo game once made the Trigeo game's actions ``a5xb2``,
so its upper-case twin was no longer its duplicate.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from archive_helpers import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hexhop
from hexhop.engine.generate import random_archive
from hexhop.notation import format_archive

TRIGEO = '[Game "Trigeo"]\n[North "{north}"]\n[South "Ute Sommer"]\n[Result "*"]\n\n{moves} *\n'
HUEPFER = '[Game "Hüpfer"]\n[Board "8x8"]\n[Red "Mira Hansen"]\n[Result "*"]\n\n1. a5xb2 *\n'
FILES = {
    "a-huepfer.hpf": HUEPFER,
    "b-lower.trg": TRIGEO.format(north="Karl Brandt", moves="1. a5xb2 e6xd6"),
    "c-upper.trg": TRIGEO.format(north="Karl Brandt", moves="1. A5XB2 E6XD6"),
    "d-other.trg": TRIGEO.format(north="Eva Lind", moves="1. B4XC4"),
}


def _mixed_archive(root: Path) -> list[Path]:
    paths = []
    for name, text in FILES.items():
        (root / name).write_text(text, "utf-8")
        paths.append(root / name)
    for game, board in (("Hüpfer", 6), ("Hexalit", None), ("Trigeo", None)):
        games = random_archive(game, 3, 11, board=board, max_plies=12)
        extension = {"Hüpfer": "hpf", "Hexalit": "hxl", "Trigeo": "trg"}[game]
        path = root / f"random.{extension}"
        path.write_text(format_archive(games), "utf-8")
        paths.append(path)
    return paths


def _dupe_groups(paths: list[Path]) -> set[frozenset[str]]:
    result = run("dupes", *paths, "--format", "json")
    assert result.exit_code in (0, 1), result.output
    return {
        frozenset(f"{Path(g['path']).name}:{g['line']}" for g in group["games"])
        for group in json.loads(result.stdout)
    }


def _found(args: list[object]) -> Counter[str]:
    result = run("find", *args, "--format", "jsonl")
    assert result.exit_code in (0, 1), result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    return Counter(f"{Path(row['path']).name}:{row['line']}" for row in rows)


def _merged_actions(paths: list[Path], out: Path) -> Counter[str]:
    result = run("merge", *paths, "--out", out, "--dedupe")
    assert result.exit_code == 0, result.output
    games = Counter(
        " ".join(str(node.item) for node in game.report.nodes)  # canonical spelling
        for game in hexhop.read_games(str(out))
    )
    out.unlink()
    return games


def test_a_huepfer_game_read_first_does_not_hide_a_trigeo_twin(tmp_path: Path) -> None:
    paths = _mixed_archive(tmp_path)
    assert frozenset({"b-lower.trg:1", "c-upper.trg:1"}) in _dupe_groups(paths)


def _answers(paths: list[Path], work: Path) -> tuple[object, ...]:
    db = work / "order.sqlite"
    indexed = run("index", *paths, "--db", db)
    assert indexed.exit_code == 0, indexed.output
    answers = (
        _found(["--db", db]),
        _found(["--db", db, "--after", "1. A5XB2"]),
        _found(["--scan", *paths, "--after", "1. A5XB2"]),
        _dupe_groups(paths),
        _merged_actions(paths, work / "merged.trg"),
    )
    db.unlink()
    return answers


@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(order=st.permutations(range(7)))
def test_the_same_answers_in_any_order(tmp_path: Path, order: list[int]) -> None:
    root = tmp_path / "mixed"
    if not root.exists():
        root.mkdir()
        _mixed_archive(root)
    paths = sorted(root.iterdir(), key=lambda p: p.name)
    expected = _answers(paths, tmp_path)
    assert expected[1]["b-lower.trg:1"] == 1 and expected[1]["c-upper.trg:1"] == 1
    assert _answers([paths[i] for i in order], tmp_path) == expected
