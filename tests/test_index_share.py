"""What ``index`` does beyond ``check`` gives the same index however it is
cut short (the index's share of check's throughput): a Hüpfer
turn spelled from its token, the positions written in key order or as they
come."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from archive_helpers import make_archive, run

from hexhop.archive import facts, index
from hexhop.archive.facts import action_text, spelled
from hexhop.engine.generate import random_archive
from hexhop.notation import format_archive
from hexhop.notation.parser import hop_action
from hexhop.records.checking import replay_text


def _hop_texts(rng: random.Random, count: int) -> list[str]:
    """Turns as the HOP terminal reads them: points in either case with one
    or two digits, ``-``, ``x`` or ``X``, a birth, perhaps a mark."""
    texts = []
    for _ in range(count):
        points = [
            rng.choice("abcdefghijABCDEFGHIJ") + str(rng.randint(0, rng.choice((9, 99))))
            for _ in range(rng.randint(2, 5))
        ]
        shape = rng.randrange(3)
        if shape == 0:  # hops over own pieces, perhaps a birth
            text = "-".join(points) + ("@" + rng.choice(points) if rng.random() < 0.5 else "")
        elif shape == 1:  # captures
            text = "".join(p + rng.choice("xX") for p in points[:-1]) + points[-1]
        else:  # hops, then captures
            text = "-".join(points[:2]) + "".join(rng.choice("xX") + p for p in points[2:])
        texts.append(text + rng.choice(("", "", "^", "+")))
    return texts


def test_a_hop_token_spells_as_its_item(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(facts, "_SPELLINGS", {})
    texts = _hop_texts(random.Random(26), 3000) + ["A1-C1@B1^", "c3XE3xe5+", "b10-b12-d12"]
    items = [hop_action(text) for text in texts]
    assert spelled(texts, items, "Hüpfer") == [action_text(item) for item in items]
    # the second time from what was learnt
    assert spelled(texts, items, "Hüpfer") == [action_text(item) for item in items]


@pytest.mark.parametrize("board", [6, 8, 10])
def test_random_hop_games_spell_as_their_items(board: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(facts, "_SPELLINGS", {})
    text = format_archive(list(random_archive("Hüpfer", 6, board, board=board, max_plies=60)))
    checked = 0
    for chunk in text.split("\n\n[")[:6]:
        chunk = chunk if chunk.startswith("[") else "[" + chunk
        report, flat = replay_text(chunk, 1, 1, "Hüpfer", keys=True)
        assert flat is not None and report.game == "Hüpfer"
        assert spelled(flat.texts, flat.items, "Hüpfer") == [action_text(i) for i in flat.items]
        checked += len(flat.items)
    assert checked > 30


def _positions(db: Path) -> list[tuple[int, int, int]]:
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT key, game, ply FROM positions").fetchall()
    connection.close()
    return rows


def test_positions_in_key_order_or_as_they_come(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_archive(tmp_path)
    monkeypatch.chdir(tmp_path)
    asked: list[bool] = []
    beyond = index.Indexer._beyond_cache

    def noted(self: index.Indexer) -> bool:
        asked.append(beyond(self))
        return asked[-1]

    monkeypatch.setattr(index.Indexer, "_beyond_cache", noted)
    assert run("index", "arch", "--db", "small.sqlite", "-j", "1").exit_code == 0
    assert asked and not any(asked)  # a small index fits in the cache
    monkeypatch.setattr(index, "CACHE_KIB", 0)  # every file is beyond it
    asked.clear()
    assert run("index", "arch", "--db", "sorted.sqlite", "-j", "1").exit_code == 0
    assert asked and all(asked)
    rows = _positions(tmp_path / "small.sqlite")
    assert len(rows) > 100
    assert rows == _positions(tmp_path / "sorted.sqlite")
