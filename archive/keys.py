"""The Zobrist keys of a game's positions, as the index stores them.

The same keys as :func:`hexhop.engine.zobrist.position_keys` (the scheme
of docs/archive.md), signed as SQLite keeps integers, found along a game:
each position's key is the one before with only the cells that changed
XORed out and in. This runs once per position of every game indexed, so
the tables it looks in are made once per board, and what a change of
cells does to the key is remembered: the same few thousand changes (a
piece from here to there, captures, a birth) come again and again.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from hexhop.engine.base import Position
from hexhop.engine.zobrist import state_key, zobrist_number

_TWO_63 = 1 << 63
_TWO_64 = 1 << 64
CHANGES = 4096  # changes remembered per board (no more are learnt: memory stays flat)


def signed(key: int) -> int:
    """A 64-bit key as SQLite stores integers (signed)."""
    return key - _TWO_64 if key >= _TWO_63 else key


def signed_list(keys: list[int]) -> list[int]:
    """:func:`signed` of each key."""
    return [key - _TWO_64 if key >= _TWO_63 else key for key in keys]


# a change of cells (the XOR of the cells as numbers, one byte a cell): the
# mask of the changed cells' bytes and, by their codes before, the key's change
_Changes = dict[int, tuple[int, dict[int, int]]]


class _Numbers(dict[int, int]):
    """Entry ``cell * 256 + code`` of a cells table (0 for an empty cell),
    each made when it is first asked for: a board meets few of them."""

    def __init__(self, table: str) -> None:
        super().__init__()
        self.table = table

    def __missing__(self, n: int) -> int:
        number = self[n] = zobrist_number(self.table, n) if n & 255 else 0
        return number


@cache
def _tables(name: str, cells: int) -> tuple[_Numbers, tuple[int, ...], dict[object, int], _Changes]:
    """For a board of ``cells`` cells: its cell numbers, the mask of the
    bits below each cell's byte, the state keys and the changes met so far."""
    below = tuple((1 << (cell << 3)) - 1 for cell in range(cells))
    return _Numbers(f"{name}/cells"), below, {}, {}


def signed_keys(positions: Iterable[Position]) -> list[int]:
    """The signed 64-bit Zobrist key of each position, each found from the
    one before (a game's positions after each ply)."""
    keys: list[int] = []
    append = keys.append
    name = ""
    size = -1
    numbers = _Numbers("")
    below: tuple[int, ...] = ()
    states: dict[object, int] = {}
    changes: _Changes = {}
    old = b""
    old_bits = key = 0
    for position in positions:
        table_name, cells, state = position.zobrist_parts()
        bits = int.from_bytes(cells, "little")
        if table_name != name or len(cells) != size:
            # from an empty board (key 0): a start position met before is one look-up
            name, size = table_name, len(cells)
            numbers, below, states, changes = _tables(name, size)
            old, old_bits, key = bytes(size), 0, 0
        diff = bits ^ old_bits
        change = changes.get(diff)
        if change is None:
            change = (_mask(diff, below), {})
            if len(changes) < CHANGES:  # the changes met first are the common ones
                changes[diff] = change
        mask, deltas = change
        codes = old_bits & mask  # what stood on the changed cells
        delta = deltas.get(codes)
        if delta is None:
            delta = deltas[codes] = _delta(diff, below, numbers, old, cells)
        key ^= delta
        old, old_bits = cells, bits
        whole = states.get(state)
        if whole is None:
            whole = states[state] = state_key(name, state)
        whole ^= key
        append(whole - _TWO_64 if whole >= _TWO_63 else whole)
    return keys


def _mask(diff: int, below: tuple[int, ...]) -> int:
    """All bits of the bytes (cells) that are not 0 in ``diff``."""
    mask = 0
    while diff:
        cell = (diff.bit_length() - 1) >> 3
        mask |= 255 << (cell << 3)
        diff &= below[cell]
    return mask


def _delta(diff: int, below: tuple[int, ...], numbers: _Numbers, old: bytes, new: bytes) -> int:
    """What the cells changed in ``diff`` do to the key, from ``old`` to ``new``."""
    delta = 0
    while diff:  # the highest changed cell first
        cell = (diff.bit_length() - 1) >> 3
        delta ^= numbers[cell << 8 | old[cell]] ^ numbers[cell << 8 | new[cell]]
        diff &= below[cell]
    return delta
