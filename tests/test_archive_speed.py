"""What keeps ``hexhop index`` and ``find --position`` fast:
the same keys and rows, less work."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from archive_helpers import GOOD

from hexhop.archive.index import Indexer, open_index
from hexhop.engine import zobrist
from hexhop.engine.games import rules_for
from hexhop.records.checking import CheckOptions


def test_one_position_key_does_not_build_the_whole_table() -> None:
    """find --position needs one key per board size: only the occupied
    cells' numbers are made, not a table of cells x 256 numbers."""
    position = rules_for("Hexalit").start({}, None)
    zobrist._cells_table.cache_clear()
    zobrist._cells_numbers.cache_clear()
    assert zobrist.position_key(position) == 0x13CAB41990889431
    assert zobrist._cells_table.cache_info().currsize == 0
    name, cells, _ = position.zobrist_parts()
    table = zobrist._cells_table(name, len(cells))
    assert zobrist.cells_key(name, cells) == zobrist.cells_key(name, cells, (bytes(len(cells)), 0))
    assert all(table[n] == number for n, number in zobrist._cells_numbers(name).items())


def _indexed_statements(folder: Path, db: Path) -> list[str]:
    connection = open_index(str(db), create=True)
    statements: list[str] = []
    connection.set_trace_callback(statements.append)
    try:
        list(Indexer(connection, str(db), CheckOptions()).run([str(folder)]))
    finally:
        connection.close()
    return statements


def test_positions_are_swept_only_after_games_were_replaced(tmp_path: Path) -> None:
    """A first run deletes no games, so it skips the sweep over every position
    row; a run that replaces a changed file still sweeps (and leaves no
    position without its game)."""
    folder = tmp_path / "a"
    folder.mkdir()
    shutil.copy(GOOD / "huepfer-6x6-bremen-2003.hpf", folder / "x.hpf")
    db = tmp_path / "x.sqlite"
    sweep = "DELETE FROM positions WHERE game NOT IN (SELECT id FROM games)"
    assert sweep not in _indexed_statements(folder, db)
    text = (folder / "x.hpf").read_text(encoding="utf-8")
    (folder / "x.hpf").write_text(text.replace("Bremen", "Hamburg"), encoding="utf-8")
    assert sweep in _indexed_statements(folder, db)
    with sqlite3.connect(db) as connection:
        orphans = connection.execute(
            "SELECT count(*) FROM positions WHERE game NOT IN (SELECT id FROM games)"
        ).fetchone()[0]
        assert orphans == 0
        assert connection.execute("SELECT count(*) FROM positions").fetchone()[0] > 0


def test_a_new_index_has_16_kib_pages(tmp_path: Path) -> None:
    """Fewer, larger pages: a file's commit writes fewer of them."""
    db = tmp_path / "x.sqlite"
    open_index(str(db), create=True).close()
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA page_size").fetchone()[0] == 16384
