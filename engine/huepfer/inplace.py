"""A Hüpfer position changed in place: push(turn) and pop().

:class:`HopBoard` keeps one ``bytearray`` of cells, the reserves and the
side to move; :meth:`HopBoard.push` plays a whole turn (a :data:`.moves.Turn`
tuple: path, hops, birth) and logs the cells it changed, :meth:`HopBoard.pop`
puts them back. The Zobrist key (:mod:`..zobrist`) follows every changed
cell, so it equals ``position_key`` of :meth:`HopBoard.position`.
Whether the side to move is stuck (and has lost, §6.4) is found out when
``winner`` is asked for, and kept for that ply.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from hexhop.notation.model import HopAction

from ..zobrist import cells_table, state_key
from .moves import NO_BIRTH, Turn, all_turns, can_capture, has_hop_turn
from .position import HuepferPosition, unresolved
from .rules import to_action

#: what pop() restores: the changed cells (cell, old code, ...), the reserves
#: before, the winner as known before and the key
Undo = tuple[list[int], int, int, int, int]

_UNKNOWN: Final = -1  # winner not found out yet (0 none, 1 Red, 2 Turquoise)


class HopBoard:
    """One Hüpfer position, changed in place by push and pop.

    ``me`` is the side to move (1 Red, 2 Turquoise), ``key`` the Zobrist key.
    """

    __slots__ = ("tables", "cells", "reserve", "me", "ply", "key", "_name", "_table", "_won")
    __slots__ += ("_undo", "_first_winner", "_first_end")

    def __init__(self, position: HuepferPosition):
        p = position
        self.tables = p._board
        self.cells = bytearray(p._cells)
        self.reserve = [p._reserve[0], p._reserve[1]]
        self.me = p._turn + 1
        self.ply = p._ply
        name, cells, state = p.zobrist_parts()
        self._name = name
        self._table = cells_table(name, len(cells))
        key = 0
        table = self._table
        for i, v in enumerate(cells):
            if v:
                key ^= table[i << 8 | v]
        self.key = key ^ state_key(name, state)
        winner = p.winner  # the start's own verdict (an end at ply 0 included)
        self._won = 0 if winner is None else (1 if winner == "Red" else 2)
        self._first_winner = self._won
        self._first_end = p.end_ply
        self._undo: list[Undo] = []

    @property
    def winner(self) -> int:
        """The side that has won (the side to move has no turn), or 0."""
        won = self._won
        if won == _UNKNOWN:
            me = self.me
            stuck = not can_capture(self.tables, self.cells, me) and not has_hop_turn(
                self.tables, self.cells, me, self.reserve[me - 1]
            )
            won = self._won = 3 - me if stuck else 0
        return won

    def position(self) -> HuepferPosition:
        """The immutable position this board stands for now."""
        if not self._undo:
            p = HuepferPosition(
                self.tables,
                bytes(self.cells),
                (self.reserve[0], self.reserve[1]),
                self.me - 1,
                None if not self._first_winner else ("Red", "Turquoise")[self._first_winner - 1],
                self.ply,
                self._first_end,
            )
            return p
        return unresolved(
            self.tables,
            bytes(self.cells),
            (self.reserve[0], self.reserve[1]),
            self.me - 1,
            self.ply,
        )

    def action(self, turn: Turn) -> HopAction:
        return to_action(self.tables, turn)

    def move_of(self, action: HopAction) -> Turn:
        index = self.tables.index
        path = tuple(index[name] for name in action.path)
        hops = sum(op == "-" for op in action.ops)
        return path, hops, NO_BIRTH if action.birth is None else index[action.birth]

    # -- the legal turns ----------------------------------------------------------

    def moves(self) -> list[Turn]:
        """Every legal turn, in the order of the rules' ``legal_actions``."""
        if self.winner:
            return []
        me = self.me
        return all_turns(self.tables, bytes(self.cells), me, self.reserve[me - 1])

    def choices(self) -> list[tuple[Turn, ...]]:
        """Turns with a capture first, then the others."""
        return [(t,) for t in self.ordered()]

    def replies(self) -> Iterator[Turn]:
        """The legal turns in the order of :meth:`ordered`."""
        return iter(self.ordered())

    def ordered(self) -> list[Turn]:
        found = self.moves()
        return [t for t in found if _captures(t)] + [t for t in found if not _captures(t)]

    @property
    def mover(self) -> int:
        return self.me

    def win_candidates(self) -> list[tuple[Turn, ...]] | None:
        """The turns that may leave the other side without a turn."""
        return self.choices()

    # -- push and pop ------------------------------------------------------------

    def push(self, turn: Turn) -> None:
        """Play ``turn`` (a legal turn of the side to move)."""
        path, hops, birth = turn
        cells, table = self.cells, self._table
        me = self.me
        between = self.tables.between
        changed: list[int] = []
        red, turquoise = self.reserve
        self._undo.append((changed, red, turquoise, self._won, self.key))
        key = self.key ^ state_key(self._name, (me - 1, red, turquoise))
        here = path[0]
        for step in range(1, len(path)):
            there = path[step]
            changed += (here, cells[here], there, cells[there])
            key ^= table[here << 8 | me] ^ table[there << 8 | me]
            cells[here] = 0
            cells[there] = me
            if step > hops:
                over = between[(here, there)]
                changed += (over, cells[over])
                key ^= table[over << 8 | cells[over]]
                cells[over] = 0
            here = there
        if birth != NO_BIRTH:
            changed += (birth, 0)
            key ^= table[birth << 8 | me]
            cells[birth] = me
            self.reserve[me - 1] -= 1
        self.me = 3 - me
        self.ply += 1
        self._won = _UNKNOWN
        self.key = key ^ state_key(self._name, (2 - me, self.reserve[0], self.reserve[1]))

    def pop(self) -> None:
        """Take back the last push."""
        changed, red, turquoise, won, key = self._undo.pop()
        cells = self.cells
        for j in range(len(changed) - 2, -1, -2):
            cells[changed[j]] = changed[j + 1]
        self.me = 3 - self.me
        self.ply -= 1
        self.reserve[0], self.reserve[1] = red, turquoise
        self._won = won
        self.key = key


def _captures(turn: Turn) -> bool:
    return len(turn[0]) - 1 > turn[1]
