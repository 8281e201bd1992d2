"""The board of Hexalit and Trigeo as bytes and bit masks, and what a die can do.

A position is 66 bytes, one per cell: 0 for an empty cell, else
``face | home << 3 | side << 6`` (home 0 = not rolled), plus bit masks of
the cells per side and face kept in step with them. Attacks are found by
looking outward from the attacked cell through those masks, never by
generating the enemy's moves. Nothing here knows whose turn it is or the
One rule's verdicts: :mod:`dice` builds the rules on top of this.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from .geometry import (
    ALL_DIRECTIONS,
    CELL_COUNT,
    CORNER_DIRS,
    FORWARD,
    JUMP_FIELDS,
    JUMP_OTHERS,
    LEAPS,
    LEAPS_FROM,
    LINE_TO,
    NEIGHBOURS,
    NORTH,
    PAWN_ATTACKERS,
    PAWN_CAPTURES,
    RAYS,
    SIDE_DIRS,
    SOUTH,
)

SIDE_LETTERS: Final = {NORTH: "N", SOUTH: "S"}
CUBE_VALUES: Final = (2, 4, 8, 16, 32, 64)
MAX_DICE: Final = 15
START_TEXT: Final = (
    "N: A4=5 A5=4 A6=3 A7=1 A8=4 A9=3 A10=5 B4=2 B5=2 B6=2 B7=6 B8=2 B9=2 B10=2 C7=2; "
    "S: D7=2 E4=2 E5=2 E6=2 E7=6 E8=2 E9=2 E10=2 F4=5 F5=4 F6=3 F7=1 F8=4 F9=3 F10=5; "
    "turn: N"
)


# --- cell codes and the tables built from them --------------------------------


def die_code(side: int, face: int, home: int = 0) -> int:
    return face | home << 3 | side << 6


_PLAIN_ONE: Final = {s: die_code(s, 1) for s in (NORTH, SOUTH)}
HOME_BITS: Final = 0o70
_NEIGHBOUR_SET: Final = tuple(frozenset(n) for n in NEIGHBOURS)
_LEAP_SET: Final = tuple(frozenset(n) for n in LEAPS)
SLIDE_DIRS: Final = {4: CORNER_DIRS, 5: SIDE_DIRS, 6: (ALL_DIRECTIONS,) * CELL_COUNT}
_SLIDES: Final = {
    f: tuple(tuple(RAYS[i][d] for d in dirs[i]) for i in range(CELL_COUNT))
    for f, dirs in SLIDE_DIRS.items()
}


def _mask(cells: Iterable[int]) -> int:
    bits = 0
    for c in cells:
        bits |= 1 << c
    return bits


# Where a die that attacks cell x can stand, as bit masks of cells (bit i = cell i).
_NEIGHBOUR_MASK: Final = tuple(_mask(NEIGHBOURS[x]) for x in range(CELL_COUNT))
_PAWN_FROM_MASK: Final = {
    s: tuple(_mask(PAWN_ATTACKERS[s][x]) for x in range(CELL_COUNT)) for s in (NORTH, SOUTH)
}
_LEAP_FROM_MASK: Final = tuple(_mask(LEAPS_FROM[x]) for x in range(CELL_COUNT))
JUMP_MASK: Final = tuple(_mask(JUMP_OTHERS[x]) for x in range(CELL_COUNT))

# The first cells a die of a face can move to from x (the first cell of each slide):
# the die has a move exactly when one of them does not hold a die of its own side.
FIRST_MASK: Final = {1: _NEIGHBOUR_MASK, 3: tuple(_mask(LEAPS[x]) for x in range(CELL_COUNT))}
FIRST_MASK.update(
    {f: tuple(_mask([ray[0] for ray in rays if ray]) for rays in _SLIDES[f]) for f in (4, 5, 6)}
)
JUMP_FIELDS_MASK: Final = _mask(JUMP_FIELDS)
PAWN_CAPTURE_MASK: Final = {
    s: tuple(_mask(PAWN_CAPTURES[s][x]) for x in range(CELL_COUNT)) for s in (NORTH, SOUTH)
}


def _slider_tables() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Per sliding face 4, 5, 6 and cell x: the cells a slider could hit x from on an
    empty board; and per x and such a cell y, the cells between y and x."""
    reach = {face: [0] * CELL_COUNT for face in (4, 5, 6)}
    between = [[0] * CELL_COUNT for _ in range(CELL_COUNT)]
    for y in range(CELL_COUNT):
        for face, dirs in ((4, CORNER_DIRS[y]), (5, SIDE_DIRS[y]), (6, ALL_DIRECTIONS)):
            for d in dirs:
                for k, x in enumerate(RAYS[y][d]):
                    reach[face][x] |= 1 << y
                    between[x][y] = _mask(RAYS[y][d][:k])
    return tuple(tuple(reach[f]) for f in (4, 5, 6)), tuple(map(tuple, between))


_SLIDE_FROM, _BETWEEN_CELLS = _slider_tables()
_SLIDE4_FROM: Final = _SLIDE_FROM[0]
_SLIDE5_FROM: Final = _SLIDE_FROM[1]
_SLIDE6_FROM: Final = _SLIDE_FROM[2]
_BETWEEN: Final = _BETWEEN_CELLS


# --- board functions --------------------------------------------------------------------
# A board is a bytes/bytearray of 66 codes; its masks a sequence of 24 ints:
# masks[side * 8] has a bit per die of that side, masks[side * 8 + f] per die showing f.


def masks_of(board: Sequence[int]) -> list[int]:
    masks = [0] * 24
    for i, v in enumerate(board):
        if v:
            k, bit = (v >> 6) << 3, 1 << i
            masks[k] |= bit
            masks[k + (v & 7)] |= bit
    return masks


def put_die(board: bytearray, masks: list[int], i: int, code: int) -> None:
    """Set cell ``i`` to ``code`` and keep the masks in step."""
    old, bit = board[i], 1 << i
    if old:
        k = (old >> 6) << 3
        masks[k] ^= bit
        masks[k + (old & 7)] ^= bit
    if code:
        k = (code >> 6) << 3
        masks[k] |= bit
        masks[k + (code & 7)] |= bit
    board[i] = code


def move_die(board: bytearray, masks: list[int], o: int, t: int, code: int) -> None:
    """The die on ``o`` goes to ``t`` (capturing what stands there) and shows ``code``."""
    w, to = board[t], 1 << t
    if w:
        k = (w >> 6) << 3
        masks[k] ^= to
        masks[k + (w & 7)] ^= to
    k = (code >> 6) << 3
    masks[k] ^= 1 << o | to
    masks[k + (board[o] & 7)] ^= 1 << o
    masks[k + (code & 7)] |= to
    board[o], board[t] = 0, code


def cells_of(bits: int) -> list[int]:
    """The cells of a mask, in board order."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def attacked_cells(masks: Sequence[int], cells: int, by: int, jump: bool) -> list[int]:
    """The cells of the mask ``cells`` that side ``by`` attacks, in board
    order (a loop, not a list of cells first: it runs after every action)."""
    found = []
    while cells:
        low = cells & -cells
        x = low.bit_length() - 1
        if attacked(masks, x, by, jump):
            found.append(x)
        cells ^= low
    return found


def attacked(masks: Sequence[int], x: int, by: int, jump: bool) -> bool:
    """Whether a die of side ``by`` could capture on cell ``x`` (rules.md §2, §8.2).

    Looks outward from ``x``: no move of ``by`` is generated.
    """
    k = by << 3
    if (
        _NEIGHBOUR_MASK[x] & masks[k + 1]
        or _PAWN_FROM_MASK[by][x] & masks[k + 2]
        or _LEAP_FROM_MASK[x] & masks[k + 3]
    ):
        return True
    candidates = (
        _SLIDE4_FROM[x] & masks[k + 4]
        | _SLIDE5_FROM[x] & masks[k + 5]
        | _SLIDE6_FROM[x] & masks[k + 6]
    )
    if candidates:
        occupied, between = masks[8] | masks[16], _BETWEEN[x]
        while candidates:
            low = candidates & -candidates
            if not between[low.bit_length() - 1] & occupied:
                return True
            candidates ^= low
    return bool(jump and JUMP_MASK[x] & masks[k])


def attack_masks(x: int, by: int, jump: bool) -> tuple[int, ...]:
    """Per face 0..6: the cells from which a die of side ``by`` showing that
    face could capture on ``x`` on an empty board (entry 0 is 0); with
    ``jump``, the other jump fields are added to every face."""
    return _ATTACK_MASKS[jump][by][x]


def _attack_masks(x: int, by: int, jump: bool) -> tuple[int, ...]:
    extra = JUMP_MASK[x] if jump else 0
    return (
        0,
        _NEIGHBOUR_MASK[x] | extra,
        _PAWN_FROM_MASK[by][x] | extra,
        _LEAP_FROM_MASK[x] | extra,
        _SLIDE4_FROM[x] | extra,
        _SLIDE5_FROM[x] | extra,
        _SLIDE6_FROM[x] | extra,
    )


#: attack_masks by jump fields, side and cell (the solver asks for them at every node)
_ATTACK_MASKS: Final = {
    jump: {by: tuple(_attack_masks(x, by, jump) for x in range(CELL_COUNT)) for by in (1, 2)}
    for jump in (False, True)
}


def between_mask(x: int, y: int) -> int:
    """The cells strictly between ``y`` and ``x`` on their line (0 when none)."""
    return _BETWEEN[x][y]


def reach_masks(side: int, jump: bool) -> tuple[tuple[int, ...], ...]:
    """Per face 0..6 and cell: every cell a die of ``side`` could go to on an
    empty board (for a 2 its forward cell and its two capture cells)."""
    out: list[tuple[int, ...]] = [(0,) * CELL_COUNT]
    for face in range(1, 7):
        row = []
        for o in range(CELL_COUNT):
            if face == 1:
                bits = _NEIGHBOUR_MASK[o]
            elif face == 2:
                f = FORWARD[side][o]
                bits = PAWN_CAPTURE_MASK[side][o] | (1 << f if f >= 0 else 0)
            elif face == 3:
                bits = _mask(LEAPS[o])
            else:
                bits = _mask([t for ray in _SLIDES[face][o] for t in ray])
            row.append(bits | (JUMP_MASK[o] if jump else 0))
        out.append(tuple(row))
    return tuple(out)


def _steps(
    board: Sequence[int], cells: Sequence[int], side: int, out: list[tuple[int, bool]]
) -> None:
    for t in cells:
        v = board[t]
        if not v:
            out.append((t, False))
        elif v >> 6 != side:
            out.append((t, True))


def targets(
    board: Sequence[int], o: int, side: int, face: int, jump: bool
) -> list[tuple[int, bool]]:
    """(target, is_capture) for every move of a die of ``side`` showing ``face`` on ``o``.

    Does not apply the One rule and knows nothing of rolls or promotion.
    """
    out: list[tuple[int, bool]] = []
    if face == 1:
        _steps(board, NEIGHBOURS[o], side, out)
    elif face == 2:
        f = FORWARD[side][o]
        if f >= 0 and not board[f]:
            out.append((f, False))
        for t in PAWN_CAPTURES[side][o]:
            v = board[t]
            if v and v >> 6 != side:
                out.append((t, True))
    elif face == 3:
        _steps(board, LEAPS[o], side, out)
    else:
        for ray in _SLIDES[face][o]:
            for t in ray:
                v = board[t]
                if not v:
                    out.append((t, False))
                    continue
                if v >> 6 != side:
                    out.append((t, True))
                break
    if jump and o in JUMP_FIELDS:
        seen = {t for t, _ in out}
        _steps(board, [t for t in JUMP_OTHERS[o] if t not in seen], side, out)
    return out


def _clear(board: Sequence[int], ray: Sequence[int], count: int) -> bool:
    for j in ray[:count]:  # noqa: SIM110 - a loop is faster than all() on this hot path
        if board[j]:
            return False
    return True


def reaches(board: Sequence[int], o: int, t: int, side: int, face: int, jump: bool) -> bool:
    """Whether the die on ``o`` can go to ``t`` (which holds no die of ``side``)."""
    if face == 1:
        ok = t in _NEIGHBOUR_SET[o]
    elif face == 2:
        ok = (t == FORWARD[side][o] and not board[t]) or (
            bool(board[t]) and t in PAWN_CAPTURES[side][o]
        )
    elif face == 3:
        ok = t in _LEAP_SET[o]
    else:
        line = LINE_TO[o].get(t)
        ok = (
            line is not None
            and line[0] in SLIDE_DIRS[face][o]
            and _clear(board, RAYS[o][line[0]], line[1] - 1)
        )
    return ok or (jump and o in JUMP_FIELDS and t in JUMP_FIELDS)


def ones(masks: Sequence[int], side: int) -> list[int]:
    """The cells of the dice of ``side`` that show 1, in board order."""
    return cells_of(masks[(side << 3) + 1])


def count_ones(masks: Sequence[int], side: int) -> int:
    return masks[(side << 3) + 1].bit_count()


def escapes(
    board: bytearray,
    masks: list[int],
    threatened: Sequence[int],
    side: int,
    jump: bool,
    first: bool = False,
) -> tuple[tuple[int, int, bool], ...]:
    """The safe moves (origin, target, capture) of the attacked Ones of
    ``side`` (§3.3); with ``first``, only the first (whether there is one).
    ``masks`` is changed while a move is tried and left as it was."""
    enemy = 3 - side
    own, foe = side << 3, enemy << 3
    out = []
    for x in threatened:
        for t, capture in targets(board, x, side, 1, jump):
            moved, bit = 1 << x | 1 << t, 1 << t
            taken = foe + (board[t] & 7)
            masks[own] ^= moved  # the One on t: what attacked() reads, tried in place
            if capture:
                masks[foe] ^= bit
                masks[taken] ^= bit
            safe = not attacked(masks, t, enemy, jump)
            masks[own] ^= moved
            if capture:
                masks[foe] ^= bit
                masks[taken] ^= bit
            if safe:
                out.append((x, t, capture))
                if first:
                    return tuple(out)
    return tuple(out)


def turn_back(board: bytearray, masks: list[int], i: int, side: int) -> None:
    """Turn the rolled die on ``i`` back to its home face, never leaving ``side`` without a 1."""
    v = board[i]
    if v & 7 == 1 and masks[(side << 3) + 1] == 1 << i:
        put_die(board, masks, i, _PLAIN_ONE[side])
    else:
        put_die(board, masks, i, (v >> 3 & 7) | side << 6)


def turn_back_order(board: Sequence[int], cells: Sequence[int]) -> list[int]:
    """§8.6: dice whose home face is 1 first, then the others in board order."""
    return sorted(cells, key=lambda i: (board[i] >> 3 & 7) != 1)


# --- positions -------------------------------------------------------------------


@dataclass(frozen=True)
class Die:
    """One die as a player sees it: ``home`` is None unless it shows a rolled face."""

    side: str
    face: int
    home: int | None = None
