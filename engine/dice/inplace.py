"""The rules of Hexalit and Trigeo: one board changed in place by push and pop.

:class:`DiceBoard` is the only code that knows the rules of the dice games:
the legal moves, whether an action may be played (:meth:`DiceBoard.legal`),
playing it (:meth:`DiceBoard.push`, with the dice that turn back), the
cube, the mark an action must carry, the end of the game, and the verdicts
on a position read from text (:meth:`DiceBoard.begin`). An immutable
:class:`~.position.DicePosition` is its snapshot; :class:`~.rules.DiceRules`
answers the public calls through it, and :mod:`.explain` words a refusal
from it. :meth:`DiceBoard.push` keeps a small undo record (the cells it
changed and the state before) that :meth:`DiceBoard.pop` takes back; the
Zobrist key (:mod:`..zobrist`) follows each changed cell, so it always
equals ``position_key`` of the position the board stands for.

A move is a tuple ``(origin, target, capture, face, promote)`` of cell
numbers and small ints: ``target`` is -1 for a roll (``face`` then is the
face rolled), ``promote`` is 6 for a Trigeo promotion, else 0. The
differential test (tests/test_inplace_core.py) replays random games here
and on the independent implementation of tests/reference.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from hexhop.notation.model import CubeAnswer, CubeOffer, DiceAction, Item, Mark

from ..base import Illegal
from ..zobrist import cells_table, state_key
from .board import (
    CUBE_VALUES,
    FIRST_MASK,
    HOME_BITS,
    JUMP_FIELDS_MASK,
    JUMP_MASK,
    PAWN_CAPTURE_MASK,
    attack_masks,
    attacked,
    attacked_cells,
    between_mask,
    cells_of,
    escapes,
    put_die,
    reach_masks,
    reaches,
    targets,
    turn_back_order,
)
from .explain import explain
from .geometry import CELL_COUNT, CELLS, FORWARD, INDEX, LAST_ROW, ROW, SIDE_NAMES
from .position import DicePosition, Escapes
from .variant import Variant

#: (origin, target or -1 for a roll, capture, face rolled or 0, promote 6 or 0)
Move = tuple[int, int, bool, int, int]
#: what pop() restores: the changed cells (cell, old code, ...) and the state before
Undo = tuple[list[int], list[int], tuple[int, ...], Escapes, bool, int, "int | None", int, bool]

_FACES: Final = (1, 2, 3, 4, 5, 6)
# the codes a die can show in play: any face, not rolled or rolled from 1 or 2, either side
_CODES: Final = tuple(f | h << 3 | s << 6 for s in (1, 2) for h in (0, 1, 2) for f in _FACES)
_CODE_SET: Final = frozenset((0, *_CODES))
# by game and cube: the Zobrist table of the usual codes and the state keys (a board
# is made per public call, so its making must not hash the codes each time)
_ZOBRIST: Final[dict[tuple[str, int], tuple[tuple[int, ...], tuple[int, int, int]]]] = {}
# per side (1, 2) and jump fields (False, True): the reach of each face from each cell
_REACH: Final = {side: {jump: reach_masks(side, jump) for jump in (False, True)} for side in (1, 2)}


class DiceBoard:
    """One Hexalit or Trigeo position, changed in place by push and pop.

    ``side`` is the side to move (1 North, 2 South), ``winner`` 0 while the
    game goes on, ``key`` the Zobrist key of the position.
    """

    __slots__ = (
        "rules",
        "name",
        "board",
        "masks",
        "side",
        "first",
        "cube",
        "offer",
        "winner",
        "ply",
        "end_ply",
        "forced",
        "threat",
        "rolled",
        "key",
        "_table",
        "_usual",
        "_side_keys",
        "_undo",
        "_rolling",
        "_jump",
        "_promotion",
        "pending",
        "offered",
        "unsettled",
    )

    def __init__(self, rules: Variant, position: DicePosition):
        p = position
        self.rules = rules
        self.name = p._game
        self.board = bytearray(p._board)
        self.masks = list(p._masks)
        self.side = p._side
        self.first = p._first
        self.cube = p._cube
        self.offer = p._offer is not None
        self.offered = p._offered
        self.winner = p._winner
        self.ply = p._ply
        self.end_ply = p._end_ply
        self.forced: Escapes = p._forced
        self.threat = p._threat
        self.rolled: tuple[int, ...] = p._rolled
        key = p._zkey  # a snapshot carries its key when its cells show the usual codes
        self._usual = key is not None or _CODE_SET.issuperset(p._board)
        # the Zobrist table and the state keys of "North to move" and "South to move"
        self._table, self._side_keys = _zobrist(self.name, self.cube or 0)
        if not self._usual:
            self._table = _table(self.name, p._board)
        self.key = key if key is not None else self._cells_key(p._board)
        self._undo: list[Undo] = []
        self._rolling = rules.rolling
        self._jump = rules.jump_fields
        self._promotion = rules.promotion
        self.pending = p._offer  # the cube value offered and not yet answered
        self.unsettled = False  # push(move, False) left "is the side to move stuck?" open

    def _cells_key(self, cells: bytes) -> int:
        """The Zobrist key from every cell (a snapshot usually carries it)."""
        key = self._side_keys[self.side]
        table = self._table
        for i, v in enumerate(cells):
            if v:
                key ^= table[i << 8 | v]
        return key

    def begin(self, verdict: bool) -> None:
        """The rules' verdicts on a position read from text, at ply 0: an
        attacked One of the side to move binds it to escape (§3.3), and with
        ``verdict`` (a record's start) a side without any action has lost."""
        side, masks, jump = self.side, self.masks, self._jump
        threatened = attacked_cells(masks, masks[(side << 3) + 1], 3 - side, jump)
        self.forced = escapes(self.board, masks, threatened, side, jump)
        self.threat = bool(threatened)
        if verdict and not self._has_action(side, self.forced):
            self.winner, self.end_ply = 3 - side, 0

    # -- values -----------------------------------------------------------------

    def snapshot(self) -> DicePosition:
        """The immutable position this board stands for now (settled)."""
        self.settle()
        return DicePosition(
            self.name,
            bytes(self.board),
            tuple(self.masks),
            self.side,
            self.first,
            self.cube,
            self.pending,
            self.offered,
            self.winner,
            self.ply,
            self.end_ply,
            self.forced,
            self.threat,
            self.rolled,
            self.key if self._usual else None,
        )

    def copy(self) -> DiceBoard:
        """An independent board at the same position (without the undo records)."""
        return DiceBoard(self.rules, self.snapshot())

    @property
    def to_move(self) -> str:
        return SIDE_NAMES[self.side]

    def threatened(self) -> str | None:
        """The side whose One the last push attacks (the side to move), else None."""
        return SIDE_NAMES[self.side] if self.threat else None

    def action(self, move: Move) -> DiceAction:
        """The notation value of ``move`` (without a mark)."""
        o, t, capture, face, promote = move
        if t < 0:
            return DiceAction(CELLS[o], "roll", None, face)
        return DiceAction(
            CELLS[o], "capture" if capture else "move", CELLS[t], None, promote or None
        )

    def move_of(self, action: DiceAction) -> Move:
        """The move of a notation value (a legal action of this position)."""
        o = INDEX[action.origin]
        if action.kind == "roll":
            assert action.face is not None  # a roll carries its face
            return (o, -1, False, action.face, 0)
        assert action.target is not None  # a move or capture carries its target
        return (o, INDEX[action.target], action.kind == "capture", 0, action.promote or 0)

    def legal(self, action: DiceAction) -> Move | None:
        """The move of ``action`` when it may be played now (its mark is not
        looked at), else None; the rules' one answer to "is it legal", without
        the words of a refusal (:meth:`problem` gives those). Changes nothing."""
        if self.winner or self.offer:
            return None
        o = INDEX.get(action.origin, -1)
        if o < 0:
            return None
        board, side = self.board, self.side
        v = board[o]
        if v >> 6 != side:
            return None
        promote = action.promote
        if action.kind == "roll":
            face = action.face
            if not self._rolling or face is None or not 1 <= face <= 6 or promote is not None:
                return None
            shown = v & 7
            if shown == 1 and self.masks[(side << 3) + 1].bit_count() == 1:
                return None
            if shown > 2 or self.forced:
                return None
            return (o, -1, False, face, 0)
        t = INDEX.get(action.target or "", -1)
        if t < 0:
            return None
        w = board[t]
        if w >> 6 == side or not reaches(board, o, t, side, v & 7, self._jump):
            return None
        if bool(w) != (action.kind == "capture"):
            return None
        if promote is not None and not self.may_promote(v, t, promote):
            return None
        if self.forced and not any(f[0] == o and f[1] == t for f in self.forced):
            return None
        return (o, t, bool(w), 0, 6 if promote else 0)

    def play(self, action: DiceAction) -> bool:
        """Push the move of ``action`` when it may be played now (no undo
        kept, whether the side to move is stuck left to :meth:`settle`);
        False, the board as it was, when it may not."""
        move = self.legal(action)
        if move is None:
            return False
        self.push(move, False)
        return True

    def may_promote(self, v: int, t: int, promote: int) -> bool:
        """Whether the die ``v`` may turn into ``promote`` on reaching ``t`` (§8.12)."""
        return self._promotion and v & 7 == 2 and ROW[t] == LAST_ROW[self.side] and promote == 6

    def problem(self, item: Item) -> Illegal | None:
        """None when ``item`` (an action value or a cube event) may be played
        now, else why not in a player's words (:mod:`.explain`, asked only
        after this board said no). Changes nothing but settling the board."""
        self.settle()
        if isinstance(item, DiceAction):
            return None if self.legal(item) is not None else explain(self, item)
        if isinstance(item, (CubeOffer, CubeAnswer)) and self.cube_allowed(item):
            return None
        return explain(self, item)

    def cube_allowed(self, item: CubeOffer | CubeAnswer) -> bool:
        """Whether the cube event may be played now (§4): the side that moved
        first makes the first offer, one offer a turn, up to 64, answered
        before anything else."""
        if not self.rules.doubling:
            return False
        if isinstance(item, CubeAnswer):
            return self.pending is not None
        if self.winner or self.offer or self.offered:
            return False
        cube = self.cube
        if (cube is None and self.side != self.first) or cube == CUBE_VALUES[-1]:
            return False
        return item.value is None or item.value == (cube or 1) * 2

    def cube_event(self, item: CubeOffer | CubeAnswer) -> bool:
        """Play a cube offer or answer when :meth:`cube_allowed`; False
        (nothing changed) when not. :meth:`pop` does not take it back."""
        self.settle()  # a side left stuck by the last push has lost: no cube then
        if not self.cube_allowed(item):
            return False
        if isinstance(item, CubeOffer):
            self.pending, self.offer = (self.cube or 1) * 2, True
            return True
        pending = self.pending
        assert pending is not None  # cube_allowed: an offer to answer
        self.pending, self.offer = None, False
        if not item.take:  # dropped: the side that offered wins
            self.winner, self.end_ply = self.side, self.ply
            return True
        self.cube, self.offered = pending, True
        old = self._side_keys[self.side]
        self._side_keys = _zobrist(self.name, pending)[1]
        self.key ^= old ^ self._side_keys[self.side]
        return True

    def required_mark(self) -> Mark:
        """The mark the last action pushed must carry (``"+"`` when it took
        the other side's last One or left its only One attacked with no way
        out, ``"^"`` when it attacks a One, else ``""``): ``Played.mark``."""
        ones = self.masks[(self.side << 3) + 1]
        if not ones or (self.threat and ones & ones - 1 == 0 and not self.forced):
            return "+"
        return "^" if self.threat else ""

    # -- the legal moves ------------------------------------------------------------

    def moves(self) -> list[Move]:
        """Every legal move of the side to move, die by die in board order
        (each die's targets in board order, then its rolls): the order
        :meth:`.rules.DiceRules.generate` gives."""
        if self.winner or self.offer:
            return []
        if self.forced:
            return [(o, t, c, 0, 0) for o, t, c in self.forced]
        board, side, jump = self.board, self.side, self._jump
        promotion, rolling = self._promotion, self._rolling
        spare_one = self.masks[(side << 3) + 1].bit_count() > 1
        last = LAST_ROW[side]
        out: list[Move] = []
        for o in cells_of(self.masks[side << 3]):
            face = board[o] & 7
            for t, capture in sorted(targets(board, o, side, face, jump)):
                out.append((o, t, capture, 0, 0))
                if promotion and face == 2 and ROW[t] == last:
                    out.append((o, t, capture, 0, 6))
            if rolling and (face == 2 or face == 1 and spare_one):
                for f in _FACES:
                    out.append((o, -1, False, f, 0))
        return out

    def choices(self) -> list[tuple[Move, ...]]:
        """The search's choices: captures, other moves, then one choice per
        rolled die holding its six faces (as :func:`..solver.choices`)."""
        captures: list[tuple[Move, ...]] = []
        others: list[tuple[Move, ...]] = []
        rolls: list[tuple[Move, ...]] = []
        faces: list[Move] = []
        for move in self.moves():
            if move[1] < 0:
                faces.append(move)
                if len(faces) == 6:
                    rolls.append(tuple(faces))
                    faces = []
            elif move[2]:
                captures.append((move,))
            else:
                others.append((move,))
        return captures + others + rolls

    def replies(self) -> Iterator[Move]:
        """The legal moves one die at a time, made as they are asked for (a
        defence usually stops at its first move): each die's captures first,
        then its other moves, then its rolls; the board may be pushed and
        popped between two moves."""
        if self.winner or self.offer:
            return
        if self.forced:
            for o, t, c in self.forced:
                yield (o, t, c, 0, 0)
            return
        board, side, jump = self.board, self.side, self._jump
        promotion, rolling = self._promotion, self._rolling
        spare_one = self.masks[(side << 3) + 1].bit_count() > 1
        last = LAST_ROW[side]
        bits = self.masks[side << 3]
        while bits:
            low = bits & -bits
            o = low.bit_length() - 1
            bits ^= low
            face = board[o] & 7
            found = targets(board, o, side, face, jump)
            found.sort()
            for first in (True, False):  # captures first
                for t, capture in found:
                    if capture is first:
                        yield (o, t, capture, 0, 0)
                        if promotion and face == 2 and ROW[t] == last:
                            yield (o, t, capture, 0, 6)
            if rolling and (face == 2 or face == 1 and spare_one):
                for f in _FACES:
                    yield (o, -1, False, f, 0)

    def ordered(self) -> list[Move]:
        """The legal moves, captures first (the order the defence tries)."""
        found = self.moves()
        return [m for m in found if m[2]] + [m for m in found if not m[2]]

    @property
    def mover(self) -> int:
        return self.side

    def win_candidates(self) -> list[tuple[Move, ...]] | None:
        """The choices that may win with their very action (every face of a
        roll), found without playing the others; None when a win is sure
        without playing anything.

        After an action of P the other side Q has lost only when it is left
        with no One, with its one One attacked and no way out, or with no
        legal action (rules.md §5). P's action takes at most one of Q's
        dice and changes no other, so:

        - Hexalit, Q with two Ones or more: a side with two Ones may roll
          one, so Q keeping two is neither lost nor stuck. Three: nothing
          wins; two: only a capture of one of them may.
        - Q with one One, on x, that P attacks (and P free to act): P
          captures it, and Q has no One left.
        - Q with one One that P does not attack: P must make x attacked
          (or leave Q stuck). Only the moved die (with the face it shows
          after the move), a slider whose line to x the moved die leaves,
          a rolled die with the face it shows, or a die of P turning back
          can attack x afterwards; a move that does none of this cannot
          win. When Q might be left without an action, or a die of P
          turning back might attack x, every choice is tried.
        """
        if self.winner or self.offer:
            return []
        mover, masks, board = self.side, self.masks, self.board
        enemy = 3 - mover
        enemy_ones = masks[(enemy << 3) + 1]
        count = enemy_ones.bit_count()
        if self._rolling and count >= 2:
            if count >= 3:
                return []
            return [(m,) for m in self.moves() if m[2] and enemy_ones >> m[1] & 1]
        if count != 1:
            return self.choices()
        x = enemy_ones.bit_length() - 1
        jump = self._jump
        if attacked(masks, x, mover, jump):
            return self.choices() if self.forced else None
        if not self._stays_mobile(enemy):
            return self.choices()
        hits = attack_masks(x, mover, jump)
        if self.forced:  # safe moves of the mover's Ones; no die turns back this turn
            return self._escapes_attacking(x, hits)
        if self.rolled:
            home_hits = hits[1] | hits[2]
            for r in self.rolled:
                if board[r] >> 6 == mover and home_hits >> r & 1:
                    return self.choices()
        k = mover << 3
        occupied = masks[8] | masks[16]
        opened = 0  # cells a slider of P looks at x through
        for face in (4, 5, 6):
            sliders = hits[face] & masks[k + face]
            while sliders:
                low = sliders & -sliders
                y = low.bit_length() - 1
                between = between_mask(x, y)
                if between & occupied:
                    opened |= between
                sliders ^= low
        every_face = hits[1] & hits[2] & hits[3] & hits[4] & hits[5] & hits[6]
        reach = _REACH[mover][jump]
        promotion, rolling = self._promotion, self._rolling
        spare_one = masks[k + 1].bit_count() > 1
        last = LAST_ROW[mover]
        own = masks[k]
        forward = FORWARD[mover]
        found: list[tuple[Move, ...]] = []
        rolls: list[tuple[Move, ...]] = []
        leap_in = JUMP_MASK[x] if jump else 0  # a leap between jump fields ignores the way
        bits = own
        while bits:
            low = bits & -bits
            o = low.bit_length() - 1
            bits ^= low
            v = board[o]
            face = v & 7
            if every_face >> o & 1 and rolling and (face == 2 or face == 1 and spare_one):
                rolls.append(tuple((o, -1, False, f, 0) for f in _FACES))
            if opened & low:  # moving this die may open a slider's line: every move
                for t, capture in targets(board, o, mover, face, jump):
                    found.append(((o, t, capture, 0, 0),))
                    if promotion and face == 2 and ROW[t] == last:
                        found.append(((o, t, capture, 0, 6),))
                continue
            if v & HOME_BITS:
                faces: tuple[int, ...] = (face, v >> 3 & 7, 1)
                after = hits[face] | hits[v >> 3 & 7] | hits[1]
            elif promotion and face == 2:
                faces = (2, 6)
                after = hits[2] | hits[6]
            else:
                faces = (face,)
                after = hits[face]
            cells = reach[face][o] & (after | leap_in) & ~own
            if not cells:
                continue
            rest = occupied ^ low  # the cells a slide from the target must pass
            while cells:
                bit = cells & -cells
                t = bit.bit_length() - 1
                cells ^= bit
                capture = bool(board[t])
                # can the die go there? (a leap between jump fields always can)
                if not (jump and JUMP_FIELDS_MASK >> o & 1 and JUMP_FIELDS_MASK >> t & 1):
                    if face == 2:
                        if (t == forward[o]) == capture:
                            continue
                    elif face >= 4 and between_mask(t, o) & occupied:
                        continue
                # does it attack x from there, with a face it may show?
                if not leap_in >> t & 1:
                    for f in faces:
                        if hits[f] >> t & 1 and (f < 4 or not between_mask(x, t) & rest):
                            break
                    else:
                        continue
                found.append(((o, t, capture, 0, 0),))
                if promotion and face == 2 and ROW[t] == last:
                    found.append(((o, t, capture, 0, 6),))
        return found + rolls

    def wins_by(self, move: Move) -> bool:
        """Whether ``move`` wins at once (the other side has lost after it):
        the board's own verdict after :meth:`push`, taken back."""
        mover = self.side
        self.push(move, verdict_only=True)
        won = self.winner == mover
        self.pop()
        return won

    def _escapes_attacking(self, x: int, hits: tuple[int, ...]) -> list[tuple[Move, ...]]:
        """The forced escapes (§3.3) after which the One on ``x`` of the other
        side may be attacked: the One itself attacks it from its new cell (as
        a 1, or as the 2 a rolled One turns back to), or it leaves a slider's
        line to ``x``. (Such a turn turns back no other die.)"""
        k = self.side << 3
        occupied = self.masks[8] | self.masks[16]
        opened = 0
        for face in (4, 5, 6):
            sliders = hits[face] & self.masks[k + face]
            while sliders:
                low = sliders & -sliders
                opened |= between_mask(x, low.bit_length() - 1) & occupied
                sliders ^= low
        board = self.board
        found: list[tuple[Move, ...]] = []
        for o, t, c in self.forced:
            # a rolled One turns back after its move (§3.2) and may show 2
            after = hits[1] | hits[2] if board[o] & HOME_BITS else hits[1]
            if after >> t & 1 or opened >> o & 1 or t == x:
                found.append(((o, t, c, 0, 0),))
        return found

    def _stays_mobile(self, side: int) -> bool:
        """Whether ``side`` keeps a legal action whatever single action the
        other side makes: two of its dice can move now (a move onto a cell
        not of its own side; those cells stay such, as the other side takes
        at most one die), or in Hexalit two show 2 (they may be rolled)."""
        masks, board = self.masks, self.board
        k = side << 3
        mobile = masks[k + 2].bit_count() if self._rolling else 0
        if mobile >= 2:
            return True
        free = ~masks[k]
        jump = self._jump
        bits = masks[k] ^ masks[k + 2]
        if jump:
            bits |= masks[k + 2] & JUMP_FIELDS_MASK
        while bits:
            low = bits & -bits
            o = low.bit_length() - 1
            face = board[o] & 7
            if (face != 2 and FIRST_MASK[face][o] & free) or (jump and JUMP_MASK[o] & free):
                mobile += 1
                if mobile >= 2:
                    return True
            bits ^= low
        return False

    # -- push and pop ---------------------------------------------------------------

    def _put(self, i: int, code: int, changed: list[int]) -> None:
        """Set cell ``i`` to ``code``: masks and key follow; the old code is logged."""
        old = self.board[i]
        changed.append(i)
        changed.append(old)
        table = self._table
        self.key ^= table[i << 8 | old] ^ table[i << 8 | code]
        put_die(self.board, self.masks, i, code)

    def _turn_back(self, i: int, side: int, changed: list[int]) -> None:
        """The rolled die on ``i`` shows its home face again, or 1 when it is
        the side's only 1 (a side always keeps a 1, §3.2)."""
        v = self.board[i]
        if v & 7 == 1 and self.masks[(side << 3) + 1] == 1 << i:
            self._put(i, 1 | side << 6, changed)
        else:
            self._put(i, (v >> 3 & 7) | side << 6, changed)

    def push(self, move: Move, settle: bool = True, verdict_only: bool = False) -> None:
        """Play ``move`` (a legal move of the side to move): the die moves,
        captures or is rolled, a rolled die that moves turns back, and so do
        the mover's other rolled dice (§3.2); then the checks of §5. With ``settle``
        False (the replay's, which never takes a move back), no undo record
        is kept for :meth:`pop`, and whether the side to move is then stuck
        (and has lost) is left to :meth:`settle`: a legal move of that side
        shows that it is not, and most games go on. With ``verdict_only``
        (:meth:`wins_by`, which pops at once), an attacked One's escapes are
        looked for only until one is found: enough for the verdict, not for
        playing on."""
        o, t, _capture, face, promote = move
        side = self.side
        board = self.board
        changed: list[int] = []
        if settle:
            self._undo.append(
                (
                    changed,
                    self.masks.copy(),  # put back whole: cheaper than undoing each change
                    self.rolled,
                    self.forced,
                    self.threat,
                    self.winner,
                    self.end_ply,
                    self.key,
                    self.offered,
                )
            )
        self.offered = False
        v = board[o]
        rolled = self.rolled
        if t < 0:
            kept = o
            home = v >> 3 & 7 or v & 7
            if face == home:
                home = 0
            self._put(o, face | home << 3 | side << 6, changed)
            if rolled or home:
                rolled = tuple(sorted({*rolled, o})) if home else tuple(i for i in rolled if i != o)
        else:
            kept = -1
            # self._put(o, 0) and self._put(t, code), written out: the usual push
            code = 6 | side << 6 if promote else v
            w = board[t]
            masks, table = self.masks, self._table
            k = side << 3
            from_bit, to_bit = 1 << o, 1 << t
            if w:
                j = (w >> 6) << 3
                masks[j] ^= to_bit
                masks[j + (w & 7)] ^= to_bit
            masks[k] ^= from_bit | to_bit
            masks[k + (v & 7)] ^= from_bit
            masks[k + (code & 7)] |= to_bit
            board[o] = 0
            board[t] = code
            self.key ^= table[o << 8 | v] ^ table[t << 8 | w] ^ table[t << 8 | code]
            changed += (o, v, t, w)
            if rolled:
                rolled = tuple(i for i in rolled if i != o and i != t)
            if v & HOME_BITS:
                self._turn_back(t, side, changed)
        if rolled and not self.forced:  # a forced escape turns back no die
            rolled = self._end_of_turn(rolled, side, kept, changed)
        self.rolled = rolled
        self._after(side, settle, verdict_only)

    def _end_of_turn(
        self, rolled: tuple[int, ...], side: int, kept: int, changed: list[int]
    ) -> tuple[int, ...]:
        """The rolled dice of ``side`` not rolled this turn (``kept``) turn
        back (§3.2, §8.6); the rolled dice left are returned."""
        due: list[int] = []
        left: list[int] = []
        for i in rolled:
            (due if self.board[i] >> 6 == side and i != kept else left).append(i)
        if not due:
            return rolled
        if len(due) == 1:  # the usual case: no order to find
            self._turn_back(due[0], side, changed)
        else:
            for i in turn_back_order(self.board, due):
                self._turn_back(i, side, changed)
        return tuple(left)

    def settle(self) -> None:
        """Find out what :meth:`push` left open: whether the side to move
        is stuck (it has then lost, §5)."""
        if self.unsettled:
            self.unsettled = False
            if not self._has_action(self.side, self.forced):
                self.winner, self.end_ply = 3 - self.side, self.ply

    def _after(self, mover: int, settle: bool = True, verdict_only: bool = False) -> None:
        """The checks of §5 after ``mover``'s action: the other side lost (no
        One left, or its only One attacked with no way out), bound to escape
        (§3.3), or (only with ``settle``; else :meth:`settle`) stuck."""
        masks, jump = self.masks, self._jump
        enemy = 3 - mover
        self.ply += 1
        enemy_ones = masks[(enemy << 3) + 1]
        threatened = attacked_cells(masks, enemy_ones, mover, jump)
        forced = (
            escapes(self.board, masks, threatened, enemy, jump, verdict_only) if threatened else ()
        )
        lost = not enemy_ones or (threatened and enemy_ones.bit_count() == 1 and not forced)
        if lost or (
            settle and not has_action(self.board, masks, enemy, forced, self._rolling, jump)
        ):
            self.winner, self.end_ply = mover, self.ply
        self.unsettled = not (lost or settle)
        self.forced = forced
        self.threat = bool(threatened)
        self.side = enemy
        keys = self._side_keys
        self.key ^= keys[mover] ^ keys[enemy]

    def _has_action(self, side: int, forced: Escapes) -> bool:
        return has_action(self.board, self.masks, side, forced, self._rolling, self._jump)

    def _has_action_with(self, masks: list[int], side: int, forced: Escapes) -> bool:
        return has_action(self.board, masks, side, forced, self._rolling, self._jump)

    def pop(self) -> None:
        """Take back the last push."""
        changed, masks, rolled, forced, threat, winner, end_ply, key, offered = self._undo.pop()
        board = self.board
        for j in range(len(changed) - 2, -1, -2):
            board[changed[j]] = changed[j + 1]
        self.masks[:] = masks
        self.side = 3 - self.side
        self.ply -= 1
        self.rolled = rolled
        self.forced = forced
        self.threat = threat
        self.winner = winner
        self.end_ply = end_ply
        self.key = key
        self.offered = offered


def _zobrist(name: str, cube: int) -> tuple[tuple[int, ...], tuple[int, int, int]]:
    """The game's Zobrist table of the codes a die shows in play, and the
    state keys by side to move (index 1, 2) with the cube at ``cube``."""
    found = _ZOBRIST.get((name, cube))
    if found is None:
        table = cells_table(name, CELL_COUNT, tuple(sorted(_CODE_SET)))
        keys = (0, state_key(name, (1, cube)), state_key(name, (2, cube)))
        found = _ZOBRIST[name, cube] = (table, keys)
    return found


def _table(name: str, cells: bytes) -> tuple[int, ...]:
    """The Zobrist table for the unusual codes a position read from text may show."""
    return cells_table(name, len(cells), tuple(sorted(_CODE_SET.union(cells))))


def has_action(
    board: Sequence[int],
    masks: Sequence[int],
    side: int,
    forced: Escapes,
    rolling: bool,
    jump: bool,
) -> bool:
    """Whether ``side`` has any legal action (§5.4); cheap in the usual cases."""
    k = side << 3
    if forced or rolling and (masks[k + 2] or masks[k + 1].bit_count() > 1):
        return True
    own, enemy = masks[k], masks[(3 - side) << 3]
    free = ~own
    if (
        jump
        and own & JUMP_FIELDS_MASK
        and any(JUMP_MASK[o] & free for o in cells_of(own & JUMP_FIELDS_MASK))
    ):
        return True
    for face in (6, 5, 4, 1, 3):  # the likeliest to move first
        first = FIRST_MASK[face]
        bits = masks[k + face]
        while bits:
            low = bits & -bits
            if first[low.bit_length() - 1] & free:
                return True
            bits ^= low
    forward, captures = FORWARD[side], PAWN_CAPTURE_MASK[side]
    bits = masks[k + 2]
    while bits:
        low = bits & -bits
        o = low.bit_length() - 1
        f = forward[o]
        if f >= 0 and not board[f] or captures[o] & enemy:
            return True
        bits ^= low
    return False
