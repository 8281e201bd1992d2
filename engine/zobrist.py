"""Zobrist keys: one 64-bit number per position, the same on every machine.

A key is the XOR of one fixed random number per occupied cell (per cell
and what stands there), for the side to move and for the game's other
state (the cube, the reserves). The numbers come from a splitmix64 stream
seeded with the first 8 bytes of BLAKE2b of a table's name, so they never
depend on Python's ``hash`` or on the run. docs/archive.md describes the
scheme.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import cache

from .base import Position

MASK = (1 << 64) - 1


def zobrist_number(name: str, n: int) -> int:
    """Number ``n`` (from 0) of the table called ``name``: output ``n`` of
    splitmix64 seeded with BLAKE2b-64 of the name (any ``n`` >= 0)."""
    z = (_seed(name) + (n + 1) * _GOLDEN) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


_GOLDEN = 0x9E3779B97F4A7C15


@cache
def _seed(name: str) -> int:
    return int.from_bytes(hashlib.blake2b(name.encode(), digest_size=8).digest(), "little")


@cache
def _cells_table(name: str, cells: int) -> tuple[int, ...]:
    """Entry ``cell * 256 + code`` of table ``name/cells``; 0 for an empty cell."""
    table = f"{name}/cells"
    return tuple(zobrist_number(table, i) if i & 255 else 0 for i in range(cells * 256))


@cache
def _cells_numbers(name: str) -> dict[int, int]:
    """Entries of table ``name/cells`` made so far, by number."""
    return {}


def cells_key(name: str, cells: bytes, before: tuple[bytes, int] | None = None) -> int:
    """The XOR of number ``cell * 256 + code`` of table ``name/cells`` for every
    cell whose code (a byte) is not 0.

    ``before``: (cells, their key) of a position of the same board, e.g. the
    one before the last action; then only the cells that differ are looked at.
    """
    if before is None or len(before[0]) != len(cells):
        # only the numbers of occupied cells, each made once: one key
        # (find --position) need not build the whole table
        numbers = _cells_numbers(name)
        key = 0
        for i, code in enumerate(cells):
            if code:
                n = i << 8 | code
                number = numbers.get(n)
                if number is None:
                    number = numbers[n] = zobrist_number(f"{name}/cells", n)
                key ^= number
        return key
    table = _cells_table(name, len(cells))
    old, key = before
    diff = int.from_bytes(old, "little") ^ int.from_bytes(cells, "little")
    while diff:
        i = (diff.bit_length() - 1) >> 3
        key ^= table[i << 8 | old[i]] ^ table[i << 8 | cells[i]]
        diff &= (1 << (i << 3)) - 1
    return key


@cache
def state_key(name: str, values: tuple[int, ...]) -> int:
    """The XOR of number ``values[i]`` of table ``name/state{i}``, for each i."""
    key = 0
    for i, value in enumerate(values):
        key ^= zobrist_number(f"{name}/state{i}", value)
    return key


@cache
def state_numbers(name: str, part: int, count: int) -> tuple[int, ...]:
    """Numbers 0 to ``count - 1`` of table ``name/state{part}``: what
    :func:`state_key` XORs in for ``values[part]`` (a board changed in place
    XORs out the old value's and in the new one's)."""
    return tuple(zobrist_number(f"{name}/state{part}", value) for value in range(count))


@cache
def cells_table(name: str, cells: int, codes: tuple[int, ...]) -> tuple[int, ...]:
    """Entry ``cell * 256 + code`` of table ``name/cells`` for a board of
    ``cells`` cells, made once, for the given ``codes`` only (0 elsewhere,
    as for an empty cell): a board changed in place XORs out a cell's old
    entry and in its new one, and needs the codes its pieces can show."""
    table = [0] * (cells * 256)
    numbers = f"{name}/cells"
    for cell in range(cells):
        for code in codes:
            if code & 255:
                n = cell << 8 | code & 255
                table[n] = zobrist_number(numbers, n)
    return tuple(table)


def position_key(position: Position) -> int:
    """The Zobrist key of ``position``: its cells' key XOR its state's key."""
    name, cells, state = position.zobrist_parts()
    return cells_key(name, cells) ^ state_key(name, state)


def position_keys(positions: Iterable[Position]) -> list[int]:
    """The keys of a sequence of positions, each found from the one before
    (a game's positions after each ply, say): only changed cells cost time."""
    keys = []
    name = ""
    table: tuple[int, ...] = ()
    old = b""
    old_bits = key = 0
    for position in positions:
        table_name, cells, state = position.zobrist_parts()
        bits = int.from_bytes(cells, "little")
        if table_name != name or len(cells) != len(old):
            name, table = table_name, _cells_table(table_name, len(cells))
            key = cells_key(name, cells)
        else:
            diff = bits ^ old_bits
            while diff:
                i = (diff.bit_length() - 1) >> 3
                key ^= table[i << 8 | old[i]] ^ table[i << 8 | cells[i]]
                diff &= (1 << (i << 3)) - 1
        old, old_bits = cells, bits
        keys.append(key ^ state_key(name, state))
    return keys
