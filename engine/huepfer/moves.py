"""Hüpfer turn generation on the board's cells: captures, hops, births.

Works on a ``bytes``/``bytearray`` of cells (0 empty, 1 Red, 2 Turquoise)
and the tables of :mod:`.board`; it is the generator of
:class:`.inplace.HopBoard`, which decides whether a side must capture
and passes that in. It knows nothing of names, positions or notation.
A turn is a :data:`Turn` tuple ``(path, hops, birth)``: every point from
the start to the last landing, the number of leading hops (the remaining
steps are captures) and the birth point, or -1 when no piece is born.

Capture chains end because each capture removes a piece; hop chains end
because a hop never lands on a point visited in the same turn. The
functions that search mutate a ``bytearray`` and restore it before they
return.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from .board import Board

Turn = tuple[tuple[int, ...], int, int]
NO_BIRTH: Final = -1


def piece_capture(board: Board, cells: bytes | bytearray, p: int, me: int) -> int | None:
    """A landing of some capture by the piece of ``me`` on ``p``, or None."""
    enemy = 3 - me
    for over, landing in board.jumps[p]:
        if cells[over] == enemy and cells[landing] == 0:
            return landing
    return None


def _capture_tails(board: Board, cells: bytearray, p: int, me: int) -> Iterator[tuple[int, ...]]:
    """Every way for the piece on ``p`` to go on capturing until it cannot.

    Yields the landings after ``p``; yields ``()`` once when it cannot
    capture at all. ``cells`` is changed while a tail is being yielded.
    """
    enemy = 3 - me
    found = False
    for over, landing in board.jumps[p]:
        if cells[over] == enemy and cells[landing] == 0:
            found = True
            cells[p] = 0
            cells[over] = 0
            cells[landing] = me
            for tail in _capture_tails(board, cells, landing, me):
                yield (landing,) + tail
            cells[landing] = 0
            cells[over] = enemy
            cells[p] = me
    if not found:
        yield ()


def capture_turns(board: Board, cells: bytes, start: int, me: int) -> list[Turn]:
    """Every complete capture sequence of the piece on ``start``."""
    work = bytearray(cells)
    return [
        ((start,) + tail, 0, NO_BIRTH) for tail in _capture_tails(board, work, start, me) if tail
    ]


def hop_turns(board: Board, cells: bytes, start: int, me: int, reserve: int) -> list[Turn]:
    """Every complete hop turn of the piece on ``start`` (no capture available).

    A hop after which the hopper can capture continues as captures; a hop
    sequence that stops without capturing needs a birth, so it is only
    produced when ``reserve`` is positive, once per empty point next to
    the final point.
    """
    out: list[Turn] = []
    hops_into(board, bytearray(cells), start, me, reserve, (), out)
    return out


def hops_into(
    board: Board,
    cells: bytearray,
    start: int,
    me: int,
    reserve: int,
    witnesses: tuple[int, ...] | list[int],
    out: list[Turn],
) -> None:
    """:func:`hop_turns` appended to ``out``; with ``witnesses`` (masks of
    points, for the solver's "wins at once"), a turn that ends with a birth
    only when its path or its birth touches every witness."""
    _hops(board, cells, start, me, reserve, [start], 1 << start, witnesses, out)


def _hops(
    board: Board,
    cells: bytearray,
    p: int,
    me: int,
    reserve: int,
    path: list[int],
    passed: int,
    witnesses: tuple[int, ...] | list[int],
    out: list[Turn],
) -> None:
    """The hops on from ``p`` (``passed``: the points of ``path`` as a mask)."""
    for over, landing in board.jumps[p]:
        if cells[over] != me or cells[landing] != 0 or landing in path:
            continue
        cells[p] = 0
        cells[landing] = me
        path.append(landing)
        hops = len(path) - 1
        if piece_capture(board, cells, landing, me) is not None:
            head = tuple(path)
            for tail in _capture_tails(board, cells, landing, me):
                out.append((head + tail, hops, NO_BIRTH))
        else:
            now = passed | 1 << landing
            if reserve:
                need = -1  # the points a birth may be on: in every witness not touched
                for witness in witnesses:
                    if not witness & now:
                        need &= witness
                if need:
                    head = tuple(path)
                    for near in board.neighbours[landing]:
                        if cells[near] == 0 and need >> near & 1:
                            out.append((head, hops, near))
            _hops(board, cells, landing, me, reserve, path, now, witnesses, out)
        path.pop()
        cells[landing] = 0
        cells[p] = me


def turns_of(
    board: Board, cells: bytes, start: int, me: int, reserve: int, capturing: bool
) -> list[Turn]:
    """Every legal turn of the piece on ``start``; ``capturing`` says whether
    its side must capture this turn."""
    if cells[start] != me:
        return []
    if capturing:
        return capture_turns(board, cells, start, me)
    return hop_turns(board, cells, start, me, reserve)


def all_turns(board: Board, cells: bytes, me: int, reserve: int, capturing: bool) -> list[Turn]:
    """Every legal turn of side ``me``; ``capturing`` (whether it must
    capture) is the board's fact (:meth:`.inplace.HopBoard.can_capture`)."""
    out: list[Turn] = []
    for p, cell in enumerate(cells):
        if cell == me:
            out.extend(turns_of(board, cells, p, me, reserve, capturing))
    return out


def has_hop_turn(board: Board, cells: bytes | bytearray, me: int, reserve: int) -> bool:
    """Whether side ``me`` has a legal hop turn, ignoring compulsory capture."""
    work = bytearray(cells)
    p = cells.find(me)
    while p >= 0:
        if _hop_exists(board, work, p, me, reserve, [p]):
            return True
        p = cells.find(me, p + 1)
    return False


def _hop_exists(
    board: Board, cells: bytearray, p: int, me: int, reserve: int, path: list[int]
) -> bool:
    for over, landing in board.jumps[p]:
        if cells[over] != me or cells[landing] != 0 or landing in path:
            continue
        cells[p] = 0
        cells[landing] = me
        found = piece_capture(board, cells, landing, me) is not None or (
            reserve > 0 and any(cells[n] == 0 for n in board.neighbours[landing])
        )
        if not found:
            path.append(landing)
            found = _hop_exists(board, cells, landing, me, reserve, path)
            path.pop()
        cells[landing] = 0
        cells[p] = me
        if found:
            return True
    return False
