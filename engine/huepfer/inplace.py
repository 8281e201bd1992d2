"""The Hüpfer rules (rules.md §6, §8.10, §8.13): a position changed in place.

:class:`HopBoard` is the one place that knows the rules: whether a written
turn may be played (:meth:`HopBoard.legal`, :meth:`HopBoard.play`: the
walk along its path), the compulsory capture (:meth:`HopBoard.can_capture`),
the legal turns (:meth:`HopBoard.moves`, with the generator of
:mod:`.moves`) and the end (a side to move without a turn has lost,
:attr:`HopBoard.winner`, at ply 0 too). It keeps one ``bytearray`` of
cells, the reserves and the side to move; :meth:`HopBoard.push` plays a
whole turn (a :data:`.moves.Turn` tuple: path, hops, birth) and logs the
cells it changed, :meth:`HopBoard.pop` puts them back. The Zobrist key
(:mod:`..zobrist`) follows every changed cell, so it equals
``position_key`` of :meth:`HopBoard.snapshot`, the immutable position
it stands for. The words of a refusal are :mod:`.explain`'s, asked for
only after the board has refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from hexhop.notation.model import CubeAnswer, CubeOffer, HopAction, Item, Mark

from ..base import Illegal
from ..zobrist import cells_table, state_key, state_numbers, zobrist_number
from . import explain
from .board import Board
from .moves import (
    NO_BIRTH,
    Turn,
    all_turns,
    has_hop_turn,
    hops_into,
    piece_capture,
    turns_of,
)
from .position import SIDES, HuepferPosition, known_winner, unresolved

#: what pop() restores: the changed cells (cell, old code, ...), the reserves
#: before, the winner as known before, the key and the bit boards of the pieces
Undo = tuple[list[int], int, int, int, int, int, int]

_UNKNOWN: Final = -1  # winner not found out yet (0 none, 1 Red, 2 Turquoise)
_KEPT: Final = 64  # the reserves whose numbers of the key a board keeps at hand


class HopBoard:
    """One Hüpfer position, changed in place by push and pop.

    ``me`` is the side to move (1 Red, 2 Turquoise), ``key`` the Zobrist key.
    """

    __slots__ = (
        "tables",
        "cells",
        "reserve",
        "me",
        "ply",
        "key",
        "_name",
        "_table",
        "_turn_keys",
        "_reserve_keys",
        "_won",
        "_undo",
        "_first_end",
        "_bits",
        "_masks",
        "_keyed",
        "_first_ply",
        "_overs",
        "_near",
    )

    def __init__(self, position: HuepferPosition, keyed: bool = True):
        """``keyed``: whether the board keeps ``key`` (a check without the
        keys plays on a board whose key is 0 and means nothing)."""
        p = position
        self._keyed = keyed
        self._first_ply = p._ply
        self.tables = p._board
        self._name, self._table, self._overs, self._near, self._masks = _geometry(p)
        self.cells = bytearray(p._cells)
        self.reserve = [p._reserve[0], p._reserve[1]]
        self.me = p._turn + 1
        self.ply = p._ply
        key = 0
        if keyed:
            key = p._zkey if p._zkey is not None else _key_of(self._table, p)
            p._zkey = key
        self.key = key
        # the state's numbers (side to move, each reserve) a push XORs in and out
        # (a Reserve tag may ask for any number: the first few are kept)
        self._turn_keys, self._reserve_keys = (
            _state_keys(self._name, self.reserve) if keyed else _NO_KEYS
        )
        # what the snapshot knows of its end; else found out here (§8.10)
        known = known_winner(p)
        self._won = _UNKNOWN if known is None else known
        self._first_end = p._end_ply if known else None
        self._undo: list[Undo] = []
        # bit boards (bit p: point p) of Red's and Turquoise's pieces, by side
        bits = p._bitboards
        if bits is None:
            bits = p._bitboards = (_bits_of(self.cells, 1), _bits_of(self.cells, 2))
        self._bits = [0, bits[0], bits[1]]

    def can_capture(self, me: int) -> bool:
        """Whether side ``me`` has a capture (compulsory then, §6): a piece of
        its own, an enemy piece next to it and an empty point behind that,
        along some line. The one home of that rule."""
        return self._jumpers(me, self._bits[3 - me]) != 0

    def _jumpers(self, me: int, over: int) -> int:
        """The bit board of the pieces of ``me`` that can jump a piece of the
        bit board ``over`` (the enemy's: a capture; their own: a hop) onto
        an empty point right behind it."""
        bits = self._bits
        mine = bits[me]
        full, up, down, on, back, size = self._masks
        empty = full ^ bits[1] ^ bits[2]
        double = size << 1
        return mine & (
            up & over >> 1 & empty >> 2
            | down & over << 1 & empty << 2
            | on & over >> size & empty >> double
            | back & over << size & empty << double
        )

    @property
    def winner(self) -> int:
        """The side that has won (the side to move has no turn, §6.4), or 0."""
        if self._won == _UNKNOWN:
            self.settle()
        return self._won

    def settle(self) -> None:
        """Find out whether the side to move is stuck, once per ply (``winner``
        asks for it: a push leaves nothing else open)."""
        if self._won == _UNKNOWN:
            me = self.me
            stuck = not self.can_capture(me) and not has_hop_turn(
                self.tables, self.cells, me, self.reserve[me - 1]
            )
            self._won = 3 - me if stuck else 0

    @property
    def end_ply(self) -> int | None:
        """The ply at which the side to move was found stuck, or None."""
        if not self.winner:
            return None
        if self.ply == self._first_ply and self._first_end is not None:
            return self._first_end
        return self.ply

    @property
    def to_move(self) -> str:
        return SIDES[self.me - 1]

    def required_mark(self) -> Mark:
        """Hüpfer turns carry no mark."""
        return ""

    def threatened(self) -> str | None:
        """Hüpfer has no One to attack."""
        return None

    def cube_event(self, item: CubeOffer | CubeAnswer) -> bool:
        """Hüpfer has no cube: never played."""
        return False

    def snapshot(self) -> HuepferPosition:
        """The immutable position this board stands for now (its end as far
        as the board knows it, and its key when the board keeps one)."""
        won = self._won
        cells = bytes(self.cells)
        reserve = (self.reserve[0], self.reserve[1])
        if won == _UNKNOWN:
            p = unresolved(self.tables, cells, reserve, self.me - 1, self.ply, verdict)
        else:
            winner = SIDES[won - 1] if won else None
            end = self.end_ply
            p = HuepferPosition(self.tables, cells, reserve, self.me - 1, winner, self.ply, end)
        if self._keyed:
            p._zkey = self.key
        p._bitboards = (self._bits[1], self._bits[2])
        return p

    def copy(self) -> HopBoard:
        """An independent board at the same position (no turn to pop)."""
        return HopBoard(self.snapshot(), self._keyed)

    def problem(self, item: Item) -> Illegal | None:
        """None when ``item`` may be played now, else why not in a player's
        words (:mod:`.explain`, asked only once the board has refused)."""
        if isinstance(item, (CubeOffer, CubeAnswer)):
            return explain.no_cube()
        if not isinstance(item, HopAction):
            return explain.not_a_turn()
        if self.legal(item) is not None:
            return None
        if self.winner:
            return explain.game_over(SIDES[self.winner - 1], self.end_ply)
        return explain.refusal(self, item)

    def action(self, turn: Turn) -> HopAction:
        """The :class:`HopAction` of a turn of this board."""
        path, hops, birth = turn
        names = self.tables.names
        ops = ("-",) * hops + ("x",) * (len(path) - 1 - hops)
        return HopAction(
            tuple(names[p] for p in path), ops, None if birth == NO_BIRTH else names[birth]
        )

    def move_of(self, action: HopAction) -> Turn:
        """The turn written as ``action`` (points in any case); KeyError for
        a point not on this board."""
        plain = self._plain(action)
        if plain is None:
            raise KeyError(str(action))
        index = self.tables.index
        path = tuple(index[name] for name in plain.path)
        hops = sum(op == "-" for op in plain.ops)
        return path, hops, NO_BIRTH if plain.birth is None else index[plain.birth]

    def _plain(self, action: HopAction) -> HopAction | None:
        """``action`` with its points named as the board names them
        (``A1`` is ``a1``), or None when one is not a point here."""
        tables = self.tables
        index = tables.index
        names = action.path if action.birth is None else (*action.path, action.birth)
        if all(name in index for name in names):
            return action
        points = [tables.point(name) for name in names]
        if None in points:
            return None
        found = tuple(tables.names[p] for p in points if p is not None)
        if action.birth is None:
            return HopAction(found, action.ops, None)
        return HopAction(found[:-1], action.ops, found[-1])

    def legal(self, action: HopAction) -> Turn | None:
        """The turn of ``action`` (its mark aside) when it may be played
        now, else None; the board is left as it was. The words of a refusal
        are :meth:`problem`'s."""
        if action.ops == _ONE_HOP and action.birth is not None:
            turn = self._hop_and_birth(action, False, False)
        elif self.play(action, True):
            self.pop()
            turn = self.move_of(action)
        else:
            return None
        if turn is not None and self._won == _UNKNOWN:
            self._won = 0  # a legal turn: the side to move is not stuck
        return turn

    def play(self, action: HopAction, keep: bool = False) -> bool:
        """Push the turn written as ``action`` if it may be played now,
        following the written path on the cells (:meth:`_walk`: the rules of
        a turn, §6); else leave the board as it is and answer False: the
        test of :meth:`legal` and the push in one walk. ``keep``: whether
        :meth:`pop` may take it back (without, no record of the changes is
        kept)."""
        if self._won > 0:
            return False
        index = self.tables.index
        ops = action.ops
        if ops == _ONE_HOP and action.birth is not None:
            return self._hop_and_birth(action, True, keep) is not None
        try:
            path = list(map(index.__getitem__, action.path))
            birth = NO_BIRTH if action.birth is None else index[action.birth]
        except KeyError:
            plain = self._plain(action)
            return plain is not None and plain is not action and self.play(plain, keep)
        hops = _HOPS.get(ops)
        if hops is None:
            hops = _leading_hops(ops)
        if hops < 0 or len(path) != len(ops) + 1:
            return False
        cells, me = self.cells, self.me
        if cells[path[0]] != me or hops and self.can_capture(me):
            return False
        changed: list[int] = []  # (cell, old code) for pop, or to put back at once
        bits = self._bits
        red, turquoise = bits[1], bits[2]
        key = self._walk(path, hops, birth, changed)
        if key < 0:
            for j in range(len(changed) - 2, -1, -2):
                cells[changed[j]] = changed[j + 1]
            return False
        reserve = self.reserve
        if keep:
            self._undo.append(
                (changed, reserve[0], reserve[1], self._won, self.key, red, turquoise)
            )
        if birth != NO_BIRTH:
            left = reserve[me - 1]
            reserve[me - 1] = left - 1
            if not self._keyed:
                self.me = 3 - me
                self.ply += 1
                self._won = _UNKNOWN
                return True
            key ^= self._reserve_change(me, left)
        self.me = 3 - me
        self.ply += 1
        self._won = _UNKNOWN
        if self._keyed:
            self.key = key ^ self._turn_keys
        return True

    def _hop_and_birth(self, action: HopAction, play: bool, keep: bool) -> Turn | None:
        """:meth:`legal` (``play`` False) and :meth:`play` for the turn written
        most: one hop, then a birth; played, the answer is :data:`_PLAYED`.
        Every test is made on the cells as they are: the start and the
        landing are two points apart, so the landing's captures do not go
        over the start, and the birth is next to the landing, so it is
        neither the start nor the landing."""
        try:
            start, landing = action.path
        except ValueError:  # not one hop after all
            return None
        if self._won > 0:
            return None
        index = self.tables.index
        here = index.get(start, -1)
        there = index.get(landing, -1)
        birth = index.get(action.birth, -1)  # type: ignore[arg-type]  # a birth is written
        if here < 0 or there < 0 or birth < 0:
            plain = self._plain(action)
            if plain is None or plain is action:
                return None
            return self._hop_and_birth(plain, play, keep)
        cells, me = self.cells, self.me
        over = self._overs[here].get(there, -1)
        if over < 0 or cells[here] != me or cells[over] != me or cells[there] or cells[birth]:
            return None
        reserve = self.reserve
        left = reserve[me - 1]
        if not left or birth not in self.tables.neighbours[there] or self.can_capture(me):
            return None
        enemy = 3 - me
        bits = self._bits
        tables = self.tables
        if bits[enemy] & self._near[there] and piece_capture(tables, cells, there, me) is not None:
            return None  # after the hop the piece must capture (§8.13)
        if not play:
            return (here, there), 1, birth
        if keep:
            changed = [here, me, there, 0, birth, 0]
            self._undo.append(
                (changed, reserve[0], reserve[1], self._won, self.key, bits[1], bits[2])
            )
        cells[here] = 0
        cells[there] = cells[birth] = me
        bits[me] ^= 1 << here | 1 << there | 1 << birth
        reserve[me - 1] = left - 1
        if self._keyed:
            table = self._table
            key = self.key ^ table[here << 8 | me] ^ table[there << 8 | me]
            key ^= table[birth << 8 | me]
            key ^= self._reserve_change(me, left)
            self.key = key ^ self._turn_keys
        self.me = enemy
        self.ply += 1
        self._won = _UNKNOWN
        return _PLAYED

    def _reserve_change(self, me: int, left: int) -> int:
        """What a birth does to the key: side ``me``'s reserve from ``left``
        to ``left - 1`` (the first numbers kept at hand, others made)."""
        numbers = self._reserve_keys[me - 1]
        if left < len(numbers):
            return numbers[left] ^ numbers[left - 1]
        part = f"{self._name}/state{me}"
        return zobrist_number(part, left) ^ zobrist_number(part, left - 1)

    def _walk(self, path: list[int], hops: int, birth: int, changed: list[int]) -> int:
        """:meth:`play` on the cells, which it changes (logged in ``changed``,
        a birth last): the key after the cells' changes (0 on a board
        without keys), or -1 at the first step the rules refuse; the bit
        boards change only when the turn is played."""
        cells, me, tables, table = self.cells, self.me, self.tables, self._table
        overs = self._overs
        near = self._near
        keyed = self._keyed
        enemy = 3 - me
        bits = self._bits
        mine, theirs = bits[me], bits[enemy]
        steps = len(path) - 1
        key = self.key if keyed else 0
        here = path[0]
        for step in range(steps):
            there = path[step + 1]
            over = overs[here].get(there, -1)
            hop = step < hops
            if over < 0 or cells[there] or cells[over] != (me if hop else enemy):
                return -1
            if hop and path.index(there) <= step:  # a point this hop visited before
                return -1
            changed += (here, me, there, 0)
            if keyed:
                key ^= table[here << 8 | me] ^ table[there << 8 | me]
            mine ^= 1 << here | 1 << there
            cells[here] = 0
            cells[there] = me
            if not hop:
                changed += (over, enemy)
                if keyed:
                    key ^= table[over << 8 | enemy]
                theirs ^= 1 << over
                cells[over] = 0
            elif (
                (step + 1 != hops or hops == steps)
                and theirs & near[there]
                and piece_capture(tables, cells, there, me) is not None
            ):
                return -1  # after this hop the piece must capture (§8.13)
            here = there
        if hops < steps:  # a capture turn: it goes on while it can, and no piece is born
            if birth != NO_BIRTH:
                return -1
            if theirs & near[here] and piece_capture(tables, cells, here, me) is not None:
                return -1  # a capture turn goes on while it can
            bits[me], bits[enemy] = mine, theirs
            return key
        if not self.reserve[me - 1] or birth == NO_BIRTH or cells[birth]:
            return -1
        if birth not in tables.neighbours[here]:
            return -1
        changed += (birth, 0)
        cells[birth] = me
        bits[me] = mine | 1 << birth
        return key ^ table[birth << 8 | me] if keyed else 0

    # -- the legal turns ----------------------------------------------------------

    def moves(self) -> list[Turn]:
        """Every legal turn (the order of the rules' ``legal_actions``)."""
        if self.winner:
            return []
        me = self.me
        capturing = self.can_capture(me)
        return all_turns(self.tables, bytes(self.cells), me, self.reserve[me - 1], capturing)

    def choices(self) -> list[tuple[Turn, ...]]:
        """Turns with a capture first, then the others."""
        return [(t,) for t in self.ordered()]

    def replies(self) -> Iterator[Turn]:
        """The legal turns one piece at a time, made as they are asked for (a
        defence usually stops at its first turn): each piece's turns with a
        capture first; the board may be pushed and popped between two."""
        if self.winner:
            return
        me, tables = self.me, self.tables
        cells = bytes(self.cells)
        reserve = self.reserve[me - 1]
        capturing = self.can_capture(me)
        p = cells.find(me)
        while p >= 0:
            found = turns_of(tables, cells, p, me, reserve, capturing)
            if capturing:
                yield from found
            else:
                later = []
                for turn in found:
                    if _captures(turn):
                        yield turn
                    else:
                        later.append(turn)
                yield from later
            p = cells.find(me, p + 1)

    def ordered(self) -> list[Turn]:
        found = self.moves()
        return [t for t in found if _captures(t)] + [t for t in found if not _captures(t)]

    @property
    def mover(self) -> int:
        return self.me

    def win_candidates(self) -> list[tuple[Turn, ...]] | None:
        """The turns that may leave the other side without a turn.

        A few turns the other side has now (its witnesses: a capture, or a
        hop with an empty point for the newborn piece next to its landing
        while its reserve lasts) stay possible after any turn that changes
        none of their points: the hop then either ends with a birth or goes
        on capturing, and a capture possible elsewhere is a turn as well. A
        turn wins only if it changes a point of every witness.
        """
        if self.winner:
            return []
        witnesses = self._witnesses(3 - self.me)
        if not witnesses:
            return self.choices()
        me, tables = self.me, self.tables
        if self.can_capture(me):
            turns = self.moves()
        else:  # the hops, with only the births that could touch every witness
            turns = []
            cells = bytearray(self.cells)
            reserve = self.reserve[me - 1]
            zones = []  # the points a path must reach to touch a witness (a birth next to it)
            for witness in witnesses:
                zone = witness
                bits = witness
                while bits:
                    low = bits & -bits
                    for n in tables.neighbours[low.bit_length() - 1]:
                        zone |= 1 << n
                    bits ^= low
                zones.append(zone)
            hoppers = self._jumpers(me, self._bits[me])  # the pieces with a first hop
            while hoppers:
                low = hoppers & -hoppers
                p = low.bit_length() - 1
                if self._may_touch(p, zones):
                    hops_into(tables, cells, p, me, reserve, witnesses, turns)
                hoppers ^= low
        between = tables.between
        out: list[tuple[Turn, ...]] = []
        for turn in turns:
            path, hops, birth = turn
            changed = 0
            for p in path:
                changed |= 1 << p
            for step in range(hops + 1, len(path)):
                changed |= 1 << between[(path[step - 1], path[step])]
            if birth != NO_BIRTH:
                changed |= 1 << birth
            for witness in witnesses:
                if not witness & changed:
                    break
            else:
                out.append((turn,))
        return out

    def _may_touch(self, start: int, zones: list[int]) -> bool:
        """Whether a hop turn of the piece on ``start`` might reach every zone:
        the points its hops can land on (however they are chained) with the
        start reach each, and no landing lets it capture (a capture goes
        anywhere)."""
        cells, tables, me = self.cells, self.tables, self.me
        enemy = 3 - me
        jumps = tables.jumps
        reached = 1 << start
        todo = [start]
        while todo:
            here = todo.pop()
            for over, landing in jumps[here]:
                if cells[over] != me or over == start or reached >> landing & 1:
                    continue
                if cells[landing] and landing != start:
                    continue
                reached |= 1 << landing
                for far_over, far in jumps[landing]:
                    if cells[far_over] == enemy and (not cells[far] or far == start):
                        return True
                todo.append(landing)
        return all(zone & reached for zone in zones)

    def _witnesses(self, side: int) -> list[int]:
        """Up to three turns (their first jump) of ``side`` on points apart,
        each as a mask of the points it needs."""
        cells, tables = self.cells, self.tables
        jumps, neighbours = tables.jumps, tables.neighbours
        reserve = self.reserve[side - 1]
        found: list[int] = []
        taken = 0
        p = cells.find(side)
        while p >= 0:
            for over, landing in jumps[p]:
                jumped = cells[over]
                if not jumped or cells[landing]:
                    continue
                need = 1 << p | 1 << over | 1 << landing
                if jumped == side:  # a hop: a newborn piece must find a point
                    if not reserve:
                        continue
                    for n in neighbours[landing]:
                        if not cells[n] and not taken >> n & 1:
                            need |= 1 << n
                            break
                    else:
                        continue
                if not need & taken:
                    found.append(need)
                    taken |= need
                    if len(found) == 3:
                        return found
            p = cells.find(side, p + 1)
        return found

    def wins_by(self, turn: Turn) -> bool:
        """Whether ``turn`` leaves the other side without a turn."""
        mover = self.me
        self.push(turn)
        won = self.winner == mover
        self.pop()
        return won

    # -- push and pop ------------------------------------------------------------

    def push(self, turn: Turn, settle: bool = True) -> None:
        """Play ``turn`` (a legal turn of the side to move). ``settle`` is
        the dice boards' choice: here the end is found out when ``winner``
        is asked for, and every push may be popped."""
        path, hops, birth = turn
        cells, table = self.cells, self._table
        me = self.me
        overs = self._overs
        changed: list[int] = []
        reserve, bits = self.reserve, self._bits
        red, turquoise = bits[1], bits[2]
        self._undo.append((changed, reserve[0], reserve[1], self._won, self.key, red, turquoise))
        mine, theirs = (red, turquoise) if me == 1 else (turquoise, red)
        key = self.key ^ self._turn_keys
        here = path[0]
        for step in range(1, len(path)):
            there = path[step]
            changed += (here, cells[here], there, cells[there])
            key ^= table[here << 8 | me] ^ table[there << 8 | me]
            mine ^= 1 << here | 1 << there
            cells[here] = 0
            cells[there] = me
            if step > hops:
                over = overs[here][there]
                changed += (over, cells[over])
                key ^= table[over << 8 | cells[over]]
                theirs ^= 1 << over
                cells[over] = 0
            here = there
        if birth != NO_BIRTH:
            changed += (birth, 0)
            key ^= table[birth << 8 | me]
            mine |= 1 << birth
            cells[birth] = me
            left = reserve[me - 1]
            key ^= self._reserve_change(me, left)
            reserve[me - 1] = left - 1
        bits[me], bits[3 - me] = mine, theirs
        self.me = 3 - me
        self.ply += 1
        self._won = _UNKNOWN
        self.key = key

    def pop(self) -> None:
        """Take back the last push."""
        changed, red, turquoise, won, key, red_bits, turquoise_bits = self._undo.pop()
        cells = self.cells
        for j in range(len(changed) - 2, -1, -2):
            cells[changed[j]] = changed[j + 1]
        self.me = 3 - self.me
        self.ply -= 1
        self.reserve[0], self.reserve[1] = red, turquoise
        self._won = won
        self.key = key
        bits = self._bits
        bits[1], bits[2] = red_bits, turquoise_bits


_NO_KEYS: Final[tuple[int, tuple[tuple[int, ...], tuple[int, ...]]]] = (0, ((), ()))
_STATE_KEYS: dict[tuple[str, int, int], tuple[int, tuple[tuple[int, ...], tuple[int, ...]]]] = {}


def _state_keys(
    name: str, reserve: list[int]
) -> tuple[int, tuple[tuple[int, ...], tuple[int, ...]]]:
    """The numbers of the key a push XORs in and out: the side to move's
    change, and each side's reserve numbers (the first few), made once per
    board and reserves."""
    red, turquoise = min(reserve[0], _KEPT) + 1, min(reserve[1], _KEPT) + 1
    found = _STATE_KEYS.get((name, red, turquoise))
    if found is None:
        turn = state_numbers(name, 0, 2)
        reserves = (state_numbers(name, 1, red), state_numbers(name, 2, turquoise))
        found = (turn[0] ^ turn[1], reserves)
        if len(_STATE_KEYS) < 256:
            _STATE_KEYS[(name, red, turquoise)] = found
    return found


def verdict(position: HuepferPosition) -> int:
    """The side that has won at ``position`` (0: none): the board's
    ``winner``, which :func:`.position.unresolved` positions ask for."""
    return HopBoard(position, False).winner


def _key_of(table: tuple[int, ...], position: HuepferPosition) -> int:
    """The Zobrist key of a snapshot that does not carry one."""
    name, cells, state = position.zobrist_parts()
    key = 0
    for i, v in enumerate(cells):
        if v:
            key ^= table[i << 8 | v]
    return key ^ state_key(name, state)


def _leading_hops(ops: tuple[str, ...]) -> int:
    """The number of hops before the captures of a written turn, or -1 when
    it is no turn (no step, a hop after a capture, a step unknown); kept
    for the few hundred shapes of turn that are written."""
    hops = 0
    for op in ops:
        if op != "-":
            break
        hops += 1
    found = hops if ops and ops.count("x") == len(ops) - hops else -1
    if len(_HOPS) < 1024:
        _HOPS[ops] = found
    return found


_HOPS: dict[tuple[str, ...], int] = {}
_PLAYED: Final[Turn] = ((), 0, NO_BIRTH)  # what _hop_and_birth answers once it has played
_ONE_HOP: Final = ("-",)


Masks = tuple[int, int, int, int, int, int]
Geometry = tuple[str, tuple[int, ...], list[dict[int, int]], tuple[int, ...], Masks]
_GEOMETRY: dict[int, Geometry] = {}


def _geometry(position: HuepferPosition) -> Geometry:
    """By board size, what a board looks up: the name of the Zobrist
    tables, the cells' numbers of the key, and the tables of
    :func:`_overs`, :func:`_near` and :func:`_masks` (made once)."""
    tables = position._board
    found = _GEOMETRY.get(tables.size)
    if found is None:
        name, cells, _state = position.zobrist_parts()
        table = cells_table(name, len(cells), (1, 2))
        found = (name, table, _overs(tables), _near(tables), _masks(tables))
        _GEOMETRY[tables.size] = found
    return found


def _bits_of(cells: bytes | bytearray, side: int) -> int:
    """The bit board (bit p: point p) of the pieces of ``side``: the cells
    as binary digits (1 where ``side`` stands), point 0 the lowest, read
    by ``int`` in one go."""
    return int(cells.translate(_DIGITS[side])[::-1], 2)


# by side: the cells' codes (0 empty, 1 Red, 2 Turquoise) to binary digits
_DIGITS: Final = (b"", bytes.maketrans(b"\0\1\2", b"010"), bytes.maketrans(b"\0\1\2", b"001"))


def _masks(board: Board) -> Masks:
    """The bit boards :meth:`HopBoard._jumpers` needs: every point, the
    points a jump can start from along each line (rank up, rank down, file
    up, file down), and the size (a file's step)."""
    size = board.size
    starts = [
        sum(1 << p for p in range(size * size) if (p, p + 2 * step) in board.between)
        for step in (1, -1, size, -size)
    ]
    return (1 << size * size) - 1, starts[0], starts[1], starts[2], starts[3], size


def _overs(board: Board) -> list[dict[int, int]]:
    """By point: the landings of its jumps, each to the point jumped over
    (``Board.between`` with the point looked up first, so that no pair is
    made to look it up)."""
    found: list[dict[int, int]] = [{} for _ in board.names]
    for (start, landing), over in board.between.items():
        found[start][landing] = over
    return found


def _near(board: Board) -> tuple[int, ...]:
    """By point: the bit board of the points next to it along a line (an
    enemy piece there is what a capture from it needs first)."""
    return tuple(sum(1 << n for n in near) for near in board.neighbours)


def _captures(turn: Turn) -> bool:
    return len(turn[0]) - 1 > turn[1]
