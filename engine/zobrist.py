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
from collections.abc import Sequence
from functools import cache

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


def cells_key(name: str, cells: bytes) -> int:
    """The XOR of number ``cell * 256 + code`` of table ``name/cells`` for every
    cell whose code (a byte) is not 0."""
    table = _cells_table(name, len(cells))
    key = 0
    for i, code in enumerate(cells):
        if code:
            key ^= table[i << 8 | code]
    return key


def state_key(name: str, values: Sequence[int]) -> int:
    """The XOR of number ``values[i]`` of table ``name/state{i}``, for each i."""
    key = 0
    for i, value in enumerate(values):
        key ^= zobrist_number(f"{name}/state{i}", value)
    return key
