"""What keeps ``hexhop index`` and ``find --position`` fast (issue 14, Numbers):
the same keys and rows, less work."""

from __future__ import annotations

from hexhop.engine import zobrist
from hexhop.engine.games import rules_for


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
