"""The rules shared by Hexalit and Trigeo: positions, legal actions, check, play.

A :class:`DiceRules` object is one game; Hexalit and Trigeo differ only in
class constants (rolling, cube, jump fields, promotion), see ``hexalit.py``
and ``trigeo.py``. The board tables come from :mod:`geometry`; this module
does not read records, write findings or draw anything but a plain-text
diagram.

Inside, a position is 66 bytes, one per cell: 0 for an empty cell, else
``face | home << 3 | side << 6`` (home 0 = not rolled), plus bit masks of
the cells per side and face kept in step with them. Attacks are found by
looking outward from the attacked cell through those masks, never by
generating the enemy's moves, so that checking and playing one action costs
a few microseconds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import Iterator, Mapping, Sequence

from hexhop.notation.model import CubeAnswer, CubeOffer, DiceAction, Item

from .base import HeaderError, Illegal, Played, action_sort_key
from .geometry import (ALL_DIRECTIONS, CELL_COUNT, CELLS, CORNER_DIRS, DIRECTIONS,
                       FORWARD, INDEX, JUMP_FIELDS, JUMP_OTHERS, LAST_ROW, LEAPS, LEAPS_FROM,
                       LINE_TO, NEIGHBOURS, NORTH, PAWN_ATTACKERS, PAWN_CAPTURES, RAYS, ROW,
                       ROW_SPAN, ROWS, SIDE_DIRS, SIDE_NAMES, SOUTH)

SIDE_LETTERS = {NORTH: "N", SOUTH: "S"}
CUBE_VALUES = (2, 4, 8, 16, 32, 64)
MAX_DICE = 15
START_TEXT = ("N: A4=5 A5=4 A6=3 A7=1 A8=4 A9=3 A10=5 B4=2 B5=2 B6=2 B7=6 B8=2 B9=2 B10=2 C7=2; "
              "S: D7=2 E4=2 E5=2 E6=2 E7=6 E8=2 E9=2 E10=2 F4=5 F5=4 F6=3 F7=1 F8=4 F9=3 F10=5; "
              "turn: N")


# --- cell codes and the tables built from them --------------------------------

def _code(side: int, face: int, home: int = 0) -> int:
    return face | home << 3 | side << 6


_PLAIN_ONE = {s: _code(s, 1) for s in (NORTH, SOUTH)}
_HOME_BITS = 0o70
_NEIGHBOUR_SET = tuple(frozenset(n) for n in NEIGHBOURS)
_LEAP_SET = tuple(frozenset(n) for n in LEAPS)
_SLIDE_DIRS = {4: CORNER_DIRS, 5: SIDE_DIRS, 6: (ALL_DIRECTIONS,) * CELL_COUNT}
_SLIDES = {f: tuple(tuple(RAYS[i][d] for d in dirs[i]) for i in range(CELL_COUNT))
           for f, dirs in _SLIDE_DIRS.items()}


def _mask(cells: Sequence[int]) -> int:
    bits = 0
    for c in cells:
        bits |= 1 << c
    return bits


# Where a die that attacks cell x can stand, as bit masks of cells (bit i = cell i).
_NEIGHBOUR_MASK = tuple(_mask(NEIGHBOURS[x]) for x in range(CELL_COUNT))
_PAWN_FROM_MASK = {s: tuple(_mask(PAWN_ATTACKERS[s][x]) for x in range(CELL_COUNT))
                   for s in (NORTH, SOUTH)}
_LEAP_FROM_MASK = tuple(_mask(LEAPS_FROM[x]) for x in range(CELL_COUNT))
_JUMP_MASK = tuple(_mask(JUMP_OTHERS[x]) for x in range(CELL_COUNT))

# The first cells a die of a face can move to from x (the first cell of each slide):
# the die has a move exactly when one of them does not hold a die of its own side.
_FIRST_MASK = {1: _NEIGHBOUR_MASK, 3: tuple(_mask(LEAPS[x]) for x in range(CELL_COUNT))}
_FIRST_MASK.update({f: tuple(_mask([ray[0] for ray in rays if ray]) for rays in _SLIDES[f])
                    for f in (4, 5, 6)})
_JUMP_FIELDS_MASK = _mask(JUMP_FIELDS)
_PAWN_CAPTURE_MASK = {s: tuple(_mask(PAWN_CAPTURES[s][x]) for x in range(CELL_COUNT))
                      for s in (NORTH, SOUTH)}


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


(_SLIDE4_FROM, _SLIDE5_FROM, _SLIDE6_FROM), _BETWEEN = _slider_tables()


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


def _put(board: bytearray, masks: list[int], i: int, code: int) -> None:
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


def _move(board: bytearray, masks: list[int], o: int, t: int, code: int) -> None:
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


def attacked(masks: Sequence[int], x: int, by: int, jump: bool) -> bool:
    """Whether a die of side ``by`` could capture on cell ``x`` (rules.md §2, §8.2).

    Looks outward from ``x``: no move of ``by`` is generated.
    """
    k = by << 3
    if (_NEIGHBOUR_MASK[x] & masks[k + 1] or _PAWN_FROM_MASK[by][x] & masks[k + 2]
            or _LEAP_FROM_MASK[x] & masks[k + 3]):
        return True
    candidates = (_SLIDE4_FROM[x] & masks[k + 4] | _SLIDE5_FROM[x] & masks[k + 5]
                  | _SLIDE6_FROM[x] & masks[k + 6])
    if candidates:
        occupied, between = masks[8] | masks[16], _BETWEEN[x]
        while candidates:
            low = candidates & -candidates
            if not between[low.bit_length() - 1] & occupied:
                return True
            candidates ^= low
    return bool(jump and _JUMP_MASK[x] & masks[k])


def _steps(board: Sequence[int], cells: Sequence[int], side: int, out: list) -> None:
    for t in cells:
        v = board[t]
        if not v:
            out.append((t, False))
        elif v >> 6 != side:
            out.append((t, True))


def targets(board: Sequence[int], o: int, side: int, face: int, jump: bool) -> list[tuple[int, bool]]:
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
    for j in ray[:count]:
        if board[j]:
            return False
    return True


def reaches(board: Sequence[int], o: int, t: int, side: int, face: int, jump: bool) -> bool:
    """Whether the die on ``o`` can go to ``t`` (which holds no die of ``side``)."""
    if face == 1:
        ok = t in _NEIGHBOUR_SET[o]
    elif face == 2:
        ok = (t == FORWARD[side][o] and not board[t]) or (
            bool(board[t]) and t in PAWN_CAPTURES[side][o])
    elif face == 3:
        ok = t in _LEAP_SET[o]
    else:
        line = LINE_TO[o].get(t)
        ok = (line is not None and line[0] in _SLIDE_DIRS[face][o]
              and _clear(board, RAYS[o][line[0]], line[1] - 1))
    return ok or (jump and o in JUMP_FIELDS and t in JUMP_FIELDS)


def ones(masks: Sequence[int], side: int) -> list[int]:
    """The cells of the dice of ``side`` that show 1, in board order."""
    return cells_of(masks[(side << 3) + 1])


def _count_ones(masks: Sequence[int], side: int) -> int:
    return masks[(side << 3) + 1].bit_count()


def escapes(board: bytearray, masks: list[int], threatened: Sequence[int], side: int,
            jump: bool) -> tuple[tuple[int, int, bool], ...]:
    """The safe moves (origin, target, capture) of the attacked Ones of ``side`` (§3.3)."""
    enemy = 3 - side
    own, foe = side << 3, enemy << 3
    out = []
    for x in threatened:
        for t, capture in targets(board, x, side, 1, jump):
            after, moved = list(masks), 1 << x | 1 << t
            after[own] ^= moved
            after[own + 1] ^= moved
            if capture:
                after[foe] ^= 1 << t
                after[foe + (board[t] & 7)] ^= 1 << t
            if not attacked(after, t, enemy, jump):
                out.append((x, t, capture))
    return tuple(out)


def _turn_back(board: bytearray, masks: list[int], i: int, side: int) -> None:
    """Turn the rolled die on ``i`` back to its home face, never leaving ``side`` without a 1."""
    v = board[i]
    if v & 7 == 1 and masks[(side << 3) + 1] == 1 << i:
        _put(board, masks, i, _PLAIN_ONE[side])
    else:
        _put(board, masks, i, (v >> 3 & 7) | side << 6)


def _turn_back_order(board: Sequence[int], cells: Sequence[int]) -> list[int]:
    """§8.6: dice whose home face is 1 first, then the others in board order."""
    return sorted(cells, key=lambda i: (board[i] >> 3 & 7) != 1)


# --- positions -------------------------------------------------------------------

@dataclass(frozen=True)
class Die:
    """One die as a player sees it: ``home`` is None unless it shows a rolled face."""

    side: str
    face: int
    home: int | None = None


class DicePosition:
    """A Hexalit or Trigeo position; immutable (``play`` returns a new one).

    Equality compares what the Position text shows: game, dice, side to move
    and cube. The game's history (``ply``, ``end_ply``, ``winner``, the side
    that moved first, a pending offer) is kept but not compared.
    """

    __slots__ = ("_game", "_board", "_masks", "_side", "_first", "_cube", "_offer", "_offered",
                 "_winner", "_ply", "_end_ply", "_forced", "_threat", "_rolled", "_dice")

    def __init__(self, game: str, board: bytes, masks: tuple[int, ...], side: int, first: int,
                 cube: int | None, offer: int | None, offered: bool, winner: int, ply: int,
                 end_ply: int | None, forced: tuple, threat: bool, rolled: tuple[int, ...]):
        self._game, self._board, self._masks = game, board, masks
        self._side, self._first = side, first
        self._cube, self._offer, self._offered = cube, offer, offered
        self._winner, self._ply, self._end_ply = winner, ply, end_ply
        self._forced, self._threat, self._rolled = forced, threat, rolled
        self._dice: Mapping[str, Die] | None = None

    @property
    def game(self) -> str:
        return self._game

    @property
    def dice(self) -> Mapping[str, Die]:
        """Cell name -> :class:`Die`, in board order."""
        if self._dice is None:
            self._dice = MappingProxyType({CELLS[i]: _die(v) for i, v in enumerate(self._board) if v})
        return self._dice

    @property
    def to_move(self) -> str:
        return SIDE_NAMES[self._side]

    @property
    def first(self) -> str:
        """The side that moved first (it alone may make the first cube offer)."""
        return SIDE_NAMES[self._first]

    @property
    def cube(self) -> int | None:
        return self._cube

    @property
    def offer(self) -> int | None:
        """The cube value offered by the side to move and not yet answered."""
        return self._offer

    @property
    def winner(self) -> str | None:
        return SIDE_NAMES[self._winner] if self._winner else None

    @property
    def ply(self) -> int:
        return self._ply

    @property
    def end_ply(self) -> int | None:
        return self._end_ply

    @property
    def is_over(self) -> bool:
        return bool(self._winner)

    @property
    def forced_escape(self) -> bool:
        """Whether the One rule binds the side to move this turn (§3.3)."""
        return bool(self._forced)

    @property
    def one_attacked(self) -> bool:
        """Whether a One of the side to move is attacked."""
        return self._threat

    def die(self, cell: str) -> Die | None:
        i = INDEX.get(cell.upper())
        return _die(self._board[i]) if i is not None and self._board[i] else None

    def _repr_svg_(self) -> str:
        """Jupyter and IPython show a position as its diagram."""
        from hexhop.render.svg import board_svg
        return board_svg(self)

    def text(self) -> str:
        return position_text(self._board, self._side, self._cube)

    def _key(self) -> tuple:
        return (self._game, self._board, self._side, self._cube)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DicePosition) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<DicePosition {self._game} ply {self._ply}: {self.text()!r}>"


def _die(v: int) -> Die:
    return Die(SIDE_NAMES[v >> 6], v & 7, (v >> 3 & 7) or None)


def _die_text(i: int, v: int) -> str:
    home = v >> 3 & 7
    return f"{CELLS[i]}={v & 7}" + (f"/{home}" if home else "")


def position_text(board: Sequence[int], side: int, cube: int | None) -> str:
    """The Position text of notation.md: ``N: A7=1 ...; S: ...; turn: N[; cube: 4]``."""
    parts = []
    for s in (NORTH, SOUTH):
        dice = " ".join(_die_text(i, v) for i, v in enumerate(board) if v >> 6 == s)
        parts.append(f"{SIDE_LETTERS[s]}: {dice}".rstrip())
    parts.append(f"turn: {SIDE_LETTERS[side]}")
    if cube is not None:
        parts.append(f"cube: {cube}")
    return "; ".join(parts)


# --- reading Position text --------------------------------------------------------

_DIE_TOKEN = re.compile(r"([A-Za-z])(\d{1,2})=(\d)(?:/(\d))?")
_SIDE_KEYS = {"n": NORTH, "north": NORTH, "s": SOUTH, "south": SOUTH}


def _bad_position(reason: str) -> HeaderError:
    return HeaderError("HD05", "Position", reason=reason)


def _side_value(text: str, what: str) -> int:
    side = _SIDE_KEYS.get(text.strip().lower())
    if side is None:
        raise _bad_position(f"{what} must be N or S, not {text.strip()!r}")
    return side


def _read_die(token: str, side: int, rolling: bool, game: str) -> tuple[int, int]:
    match = _DIE_TOKEN.fullmatch(token)
    if not match:
        raise _bad_position(f"{token!r} is not a die: write cell=face, e.g. C5=4, "
                            "or C5=4/2 for a rolled die")
    cell = match[1].upper() + match[2]
    if cell not in INDEX:
        raise _bad_position(f"{token!r}: {cell} is not on the board")
    face, home = int(match[3]), int(match[4] or 0)
    if not 1 <= face <= 6:
        raise _bad_position(f"{token!r}: a die shows 1 to 6")
    if home == face:
        home = 0
    if home and not rolling:
        raise _bad_position(f"{token!r}: dice are never rolled in {game}, "
                            "so no die shows a rolled face")
    if home not in (0, 1, 2):
        raise _bad_position(f"{token!r}: a rolled die turns back to 1 or 2, not {home}")
    return INDEX[cell], _code(side, face, home)


def _read_dice(value: str, side: int, board: bytearray, rolling: bool, game: str) -> None:
    tokens = value.replace(",", " ").split()
    if len(tokens) > MAX_DICE:
        raise _bad_position(f"{SIDE_NAMES[side]} has {len(tokens)} dice; "
                            f"a side has at most {MAX_DICE}")
    for token in tokens:
        i, code = _read_die(token, side, rolling, game)
        if board[i]:
            raise _bad_position(f"{CELLS[i]} is given twice")
        board[i] = code


def _read_cube(value: str, cube_game: bool, game: str) -> int:
    if not cube_game:
        raise _bad_position(f"there is no doubling cube in {game}")
    if not value.strip().isdigit() or int(value) not in CUBE_VALUES:
        raise _bad_position(f"cube must be 2, 4, 8, 16, 32 or 64, not {value.strip()!r}")
    return int(value)


def read_position_text(text: str, game: str, rolling: bool,
                       cube_game: bool) -> tuple[bytearray, int | None, int | None]:
    """(board, side to move or None, cube or None) from Position text; HeaderError if bad."""
    board = bytearray(CELL_COUNT)
    seen: dict[str, str] = {}
    turn = cube = None
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        key, colon, value = part.partition(":")
        key = key.strip().lower()
        if not colon or key not in ("n", "s", "north", "south", "turn", "cube"):
            raise _bad_position(f"expected 'N:', 'S:', 'turn:' or 'cube:', found {part!r}")
        canonical = SIDE_LETTERS[_SIDE_KEYS[key]] if key in _SIDE_KEYS else key
        if canonical in seen:
            raise _bad_position(f"'{canonical}:' is given twice")
        seen[canonical] = value
        if key in _SIDE_KEYS:
            _read_dice(value, _SIDE_KEYS[key], board, rolling, game)
        elif key == "turn":
            turn = _side_value(value, "turn")
        else:
            cube = _read_cube(value, cube_game, game)
    for letter, side in (("N", NORTH), ("S", SOUTH)):
        if letter not in seen:
            raise _bad_position(f"the {SIDE_NAMES[side]} dice are missing: "
                                f"expected '{letter}: cell=face ...'")
    return board, turn, cube


# --- diagrams -----------------------------------------------------------------------

def _cell_token(v: int) -> str:
    if not v:
        return "."
    letter = "N" if v >> 6 == NORTH else "s"
    home = v >> 3 & 7
    return f"{letter}{v & 7}" + (f"/{home}" if home else "")


def diagram_text(board: Sequence[int], side: int, cube: int | None, winner: int) -> str:
    """Rows A..F, each cell five characters wide at its column: ``N5`` North,
    ``s2`` South, ``N4/2`` a rolled die, ``.`` empty."""
    lines = ["   " + "".join(f"{c:<5}" for c in range(1, 14)).rstrip()]
    for r, (low, high) in enumerate(ROW_SPAN):
        cells = "".join(f"{_cell_token(board[INDEX[f'{ROWS[r]}{c}']]):<5}" for c in range(low, high + 1))
        lines.append((f"{ROWS[r]}  " + " " * 5 * (low - 1) + cells).rstrip())
    status = f"{SIDE_NAMES[side]} to move"
    if cube is not None:
        status += f", cube {cube}"
    if winner:
        status += f", {SIDE_NAMES[winner]} has won"
    return "\n".join(lines + [status])


def read_diagram(text: str) -> bytearray:
    """The board of a diagram as :func:`diagram_text` draws it (only the cell
    tokens count, so the spacing may be loose); ValueError if malformed."""
    board = bytearray(CELL_COUNT)
    for line in text.splitlines():
        tokens = line.split()
        if not tokens or tokens[0] not in tuple(ROWS):
            continue
        r = ROWS.index(tokens[0])
        low, high = ROW_SPAN[r]
        if len(tokens) - 1 != high - low + 1:
            raise ValueError(f"row {tokens[0]} needs {high - low + 1} cells: {line!r}")
        for c, token in zip(range(low, high + 1), tokens[1:]):
            board[INDEX[f"{ROWS[r]}{c}"]] = _token_code(token)
    return board


def _token_code(token: str) -> int:
    if token == ".":
        return 0
    match = re.fullmatch(r"([Ns])([1-6])(?:/([12]))?", token)
    if not match:
        raise ValueError(f"bad cell {token!r}: expected ., N1..N6, s1..s6, N4/2")
    side = NORTH if match[1] == "N" else SOUTH
    face, home = int(match[2]), int(match[3] or 0)
    return _code(side, face, 0 if home == face else home)


# --- describing dice in messages ----------------------------------------------------

def _or_list(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def _dir_names(dirs: Sequence[int]) -> str:
    return ", ".join(DIRECTIONS[d] for d in dirs)


def _two_moves(board: Sequence[int], o: int, t: int, side: int) -> str:
    enemy = SIDE_NAMES[3 - side]
    ahead, caps = FORWARD[side][o], [CELLS[c] for c in PAWN_CAPTURES[side][o]]
    head = (f"the 2 on {CELLS[o]} moves only forward to {CELLS[ahead]} when it is empty"
            if ahead >= 0 else f"the 2 on {CELLS[o]} has no cell ahead of it")
    text = f"{head}, and captures only on {_or_list(caps)} when a {enemy} die stands there"
    if t == ahead:
        return text + f"; {CELLS[t]} is not empty, and a 2 never captures forward"
    if CELLS[t] in caps:
        return text + f", and {CELLS[t]} is empty"
    return text


def _slide_moves(board: Sequence[int], o: int, t: int, face: int) -> str:
    dirs = _SLIDE_DIRS[face][o]
    kind = {4: "its corner directions", 5: "its side directions", 6: "all six directions"}[face]
    head = f"the {face} on {CELLS[o]} slides along {kind}"
    if face != 6:
        head += f" ({_dir_names(dirs)})"
    line = LINE_TO[o].get(t)
    if line is None:
        return head + f", and {CELLS[t]} is not on a straight line from {CELLS[o]}"
    d, k = line
    if d not in dirs:
        return head + f", and {CELLS[t]} lies {DIRECTIONS[d]} of it"
    block = next(j for j in RAYS[o][d][:k - 1] if board[j])
    return head + f", and {CELLS[block]} blocks the way to {CELLS[t]}"


def face_reason(board: Sequence[int], o: int, t: int, side: int, face: int, jump: bool) -> str:
    """Why the die on ``o`` cannot go to ``t``, in a player's words."""
    if face == 1:
        text = f"the 1 on {CELLS[o]} steps only to a neighbouring cell, and {CELLS[t]} is not one"
    elif face == 2:
        text = _two_moves(board, o, t, side)
    elif face == 3:
        text = (f"the 3 on {CELLS[o]} leaps to the 1st or 2nd cell along its corner directions "
                f"({_dir_names(CORNER_DIRS[o])}): {', '.join(CELLS[j] for j in LEAPS[o])}")
    else:
        text = _slide_moves(board, o, t, face)
    if jump and o in JUMP_FIELDS:
        others = ", ".join(CELLS[j] for j in JUMP_OTHERS[o])
        text += f"; from its jump field it may also leap to {others}"
    return text


# --- the legal actions view ---------------------------------------------------------

class DiceLegalActions:
    """The legal actions of a position: iterable, sized; ``in`` asks ``check``."""

    __slots__ = ("_rules", "_position", "_list")

    def __init__(self, rules: "DiceRules", position: DicePosition):
        self._rules, self._position = rules, position
        self._list: list[DiceAction] | None = None

    def _all(self) -> list[DiceAction]:
        if self._list is None:
            self._list = self._rules.generate(self._position)
        return self._list

    def __iter__(self) -> Iterator[DiceAction]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __bool__(self) -> bool:
        return bool(self._all())

    def __contains__(self, action: object) -> bool:
        return isinstance(action, DiceAction) and self._rules.check(self._position, action) is None

    def texts(self) -> list[str]:
        return sorted((str(a) for a in self._all()), key=action_sort_key)

    def __repr__(self) -> str:
        return f"<DiceLegalActions ({', '.join(self.texts())})>"


# --- the rules ------------------------------------------------------------------------

def _action(o: int, t: int, capture: bool, promote: int | None = None) -> DiceAction:
    return DiceAction(CELLS[o], "capture" if capture else "move", CELLS[t], None, promote)


def _side_tag(tags: Mapping[str, str], name: str) -> str | None:
    lower = name.lower()
    return next((v for k, v in tags.items() if k.lower() == lower), None)


class DiceRules:
    """The rules of Hexalit; Trigeo overrides the class constants."""

    name = "Hexalit"
    sides = ("North", "South")
    rolling = True        # dice showing 2 (and spare 1s) may be rolled
    doubling = True       # the doubling cube is used
    jump_fields = False   # Trigeo's six central cells
    promotion = False     # a 2 reaching its last row may become a 6

    # -- positions ------------------------------------------------------------------

    def start(self, tags: Mapping[str, str], first: Item | None = None) -> DicePosition:
        """The record's start position (rules.md §8.8, §8.10, §8.15)."""
        first_side = self._first_tag(tags)
        text = _side_tag(tags, "Position")
        if text is None:
            board, turn, cube = read_position_text(START_TEXT, self.name, True, True)
            turn = None
        else:
            board, turn, cube = self._read(text)
        turn = turn or first_side or self._owner(board, first) or NORTH
        position = self._position(board, turn, first_side or turn, cube)
        if not self._has_action(position._board, position._masks, turn, position._forced):
            return self._replace(position, winner=3 - turn, end_ply=0)
        return position

    def parse_position(self, text: str, tags: Mapping[str, str] | None = None) -> DicePosition:
        """A position from Position text (turn defaults to the First tag, else North)."""
        first_side = self._first_tag(tags or {})
        board, turn, cube = self._read(text)
        turn = turn or first_side or NORTH
        return self._position(board, turn, first_side or turn, cube)

    def position_from_diagram(self, text: str, turn: str = "North",
                              cube: int | None = None) -> DicePosition:
        """A position from a diagram as :meth:`diagram` draws it (for tests)."""
        side = _side_value(turn, "turn")
        return self._position(read_diagram(text), side, side, cube)

    def attacked_ones(self, position: DicePosition) -> list[str]:
        """The cells of the side to move's Ones that the other side attacks
        (what a ``^`` or ``+`` points at)."""
        p = position
        return [CELLS[x] for x in ones(p._masks, p._side)
                if attacked(p._masks, x, 3 - p._side, self.jump_fields)]

    def diagram(self, position: DicePosition) -> str:
        p = position
        return diagram_text(p._board, p._side, p._cube, p._winner)

    def _read(self, text: str) -> tuple[bytearray, int | None, int | None]:
        return read_position_text(text, self.name, self.rolling, self.doubling)

    def _first_tag(self, tags: Mapping[str, str]) -> int | None:
        value = _side_tag(tags, "First")
        if value is None:
            return None
        side = {"north": NORTH, "south": SOUTH}.get(value.strip().lower())
        if side is None:
            raise HeaderError("HD06", "First", value=value)
        return side

    @staticmethod
    def _owner(board: Sequence[int], first: Item | None) -> int | None:
        if isinstance(first, DiceAction) and first.origin in INDEX:
            return board[INDEX[first.origin]] >> 6 or None
        return None

    def _position(self, board: bytearray, side: int, first: int, cube: int | None) -> DicePosition:
        masks = masks_of(board)
        threatened = [x for x in ones(masks, side) if attacked(masks, x, 3 - side, self.jump_fields)]
        forced = escapes(board, masks, threatened, side, self.jump_fields)
        rolled = tuple(i for i, v in enumerate(board) if v & _HOME_BITS)
        return DicePosition(self.name, bytes(board), tuple(masks), side, first, cube, None, False,
                            0, 0, None, forced, bool(threatened), rolled)

    @staticmethod
    def _replace(p: DicePosition, **changes: object) -> DicePosition:
        values = {name[1:]: getattr(p, name) for name in DicePosition.__slots__[:-1]}
        values.update(changes)
        return DicePosition(**values)  # type: ignore[arg-type]

    # -- legal actions ------------------------------------------------------------------

    def legal_actions(self, position: DicePosition) -> DiceLegalActions:
        return DiceLegalActions(self, position)

    def generate(self, position: DicePosition) -> list[DiceAction]:
        """Every legal action of the side to move, in board order (no cube events)."""
        p = position
        if p._winner or p._offer is not None:
            return []
        if p._forced:
            return [_action(o, t, c) for o, t, c in p._forced]
        out: list[DiceAction] = []
        for o in cells_of(p._masks[p._side << 3]):
            out.extend(self._die_actions(p, o))
        return out

    def _die_actions(self, p: DicePosition, o: int) -> list[DiceAction]:
        """The actions of one die when the One rule does not bind."""
        board, side = p._board, p._side
        v = board[o]
        face = v & 7
        out = []
        for t, capture in sorted(targets(board, o, side, face, self.jump_fields)):
            out.append(_action(o, t, capture))
            if self.promotion and face == 2 and ROW[t] == LAST_ROW[side]:
                out.append(_action(o, t, capture, 6))
        if self.rolling and (face == 2 or face == 1 and _count_ones(p._masks, side) > 1):
            out.extend(DiceAction(CELLS[o], "roll", None, f) for f in range(1, 7))
        return out

    def _has_action(self, board: Sequence[int], masks: Sequence[int], side: int,
                    forced: tuple) -> bool:
        """Whether ``side`` has any legal action (§5.4); cheap in the usual cases."""
        k = side << 3
        if forced or self.rolling and (masks[k + 2] or masks[k + 1].bit_count() > 1):
            return True
        own, enemy = masks[k], masks[(3 - side) << 3]
        free = ~own
        if self.jump_fields and own & _JUMP_FIELDS_MASK:
            if any(_JUMP_MASK[o] & free for o in cells_of(own & _JUMP_FIELDS_MASK)):
                return True
        for face in (6, 5, 4, 1, 3):  # the likeliest to move first
            first = _FIRST_MASK[face]
            bits = masks[k + face]
            while bits:
                low = bits & -bits
                if first[low.bit_length() - 1] & free:
                    return True
                bits ^= low
        forward, captures = FORWARD[side], _PAWN_CAPTURE_MASK[side]
        bits = masks[k + 2]
        while bits:
            low = bits & -bits
            o = low.bit_length() - 1
            f = forward[o]
            if f >= 0 and not board[f] or captures[o] & enemy:
                return True
            bits ^= low
        return False

    # -- check ----------------------------------------------------------------------------

    def check(self, position: DicePosition, item: Item) -> Illegal | None:
        """None when ``item`` may be played now, else why not (marks are ignored)."""
        p = position
        if type(item) is not DiceAction:
            return self._check_other(p, item)
        if p._winner or p._offer is not None:
            return self._state_problem(p)
        o = INDEX.get(item.origin)
        if o is None:
            return Illegal("IL02", f"{item.origin} is not on the board", item.origin)
        board, side = p._board, p._side
        v = board[o]
        if v >> 6 != side:
            return self._origin_problem(p, item, o)
        if item.kind == "roll":
            return self._check_roll(p, item, o)
        t = INDEX.get(item.target or "")
        if t is None:
            return Illegal("IL02", f"{item.target} is not on the board", item.target)
        w = board[t]
        if w >> 6 == side:
            return self._illegal(p, o, f"{CELLS[t]} holds a {SIDE_NAMES[side]} die, "
                                       "and no die moves onto a cell of its own side")
        if not reaches(board, o, t, side, v & 7, self.jump_fields):
            return self._illegal(p, o, face_reason(board, o, t, side, v & 7, self.jump_fields))
        if bool(w) != (item.kind == "capture"):
            return self._operator_problem(p, item, o, t)
        if item.promote is not None and not self._may_promote(v, t, side, item.promote):
            return self._promotion_problem(p, item, o, t)
        if p._forced and not any(f[0] == o and f[1] == t for f in p._forced):
            return self._one_rule_problem(p, o, t)
        return None

    def _may_promote(self, v: int, t: int, side: int, promote: int) -> bool:
        return self.promotion and v & 7 == 2 and ROW[t] == LAST_ROW[side] and promote == 6

    def _illegal(self, p: DicePosition, o: int, why: str, code: str = "IL01") -> Illegal:
        """``why``, followed by what the die on ``o`` may do instead."""
        actions = sorted((str(a) for a in self.generate(p) if a.origin == CELLS[o]),
                         key=action_sort_key)
        way_out = (f"this die can play {', '.join(actions)}" if actions
                   else "this die has no legal action")
        return Illegal(code, f"{why}; {way_out}")

    def _state_problem(self, p: DicePosition) -> Illegal:
        if p._winner:
            return Illegal("IL01", f"the game is over: {p.winner} won at ply {p._end_ply}")
        other = SIDE_NAMES[3 - p._side]
        return Illegal("IL03", f"{p.to_move} offered to double the cube to {p._offer}; "
                               f"{other} must answer take or drop before any action")

    def _origin_problem(self, p: DicePosition, item: DiceAction, o: int) -> Illegal:
        if not p._board[o]:
            own = [CELLS[i] for i, v in enumerate(p._board) if v >> 6 == p._side]
            return Illegal("IL01", f"there is no die on {item.origin}; "
                                   f"{p.to_move}'s dice stand on {', '.join(own) or 'no cell'}")
        return Illegal("IL01", f"the die on {item.origin} belongs to {SIDE_NAMES[3 - p._side]}, "
                               f"and {p.to_move} is to move")

    def _check_roll(self, p: DicePosition, item: DiceAction, o: int) -> Illegal | None:
        board, side = p._board, p._side
        v = board[o]
        face, name = v & 7, CELLS[o]
        if not self.rolling:
            return self._illegal(p, o, f"dice are never rolled in {self.name}")
        if item.face not in range(1, 7) or item.promote is not None:
            return self._illegal(p, o, "a roll shows a face from 1 to 6, and nothing else")
        if face == 1 and _count_ones(p._masks, side) == 1:
            return self._illegal(p, o, f"the 1 on {name} is {p.to_move}'s only die showing 1, "
                                       "and a side must always keep a 1")
        if face not in (1, 2):
            return self._illegal(p, o, f"the {face} on {name} cannot be rolled: only a 2, "
                                       "or a 1 while its side has another 1, may be rolled")
        if p._forced:
            return self._one_rule_problem(p, o, -1)
        return None

    def _operator_problem(self, p: DicePosition, item: DiceAction, o: int, t: int) -> Illegal:
        if p._board[t]:
            why = (f"{CELLS[t]} holds a {SIDE_NAMES[3 - p._side]} die, so this is a capture: "
                   f"write {item.origin}°{item.target} (° captures, X moves to an empty cell)")
        else:
            why = (f"{CELLS[t]} is empty, so this is a move: write {item.origin}X{item.target} "
                   "(X moves to an empty cell, ° captures)")
        return self._illegal(p, o, why)

    def _promotion_problem(self, p: DicePosition, item: DiceAction, o: int, t: int) -> Illegal:
        v, side = p._board[o], p._side
        row = ROWS[LAST_ROW[side]]
        if not self.promotion:
            why = f"there is no promotion in {self.name}: a 2 on its last row stays a 2"
        elif v & 7 != 2:
            why = f"only a 2 may be turned into a 6, and the die on {item.origin} shows {v & 7}"
        elif ROW[t] != LAST_ROW[side]:
            why = (f"a 2 may be turned into a 6 only in the move that reaches its last row "
                   f"(row {row}), and {item.target} is not on it")
        else:
            why = f"a 2 reaching its last row may only become a 6, not a {item.promote}"
        return self._illegal(p, o, why)

    def _one_rule_problem(self, p: DicePosition, o: int, t: int) -> Illegal:
        """The side must make a safe move with an attacked One (§3.3)."""
        side = p.to_move
        threatened = sorted({f[0] for f in p._forced})
        if o in threatened:
            where = f"{CELLS[t]} is attacked, so the One would not be safe there" if t >= 0 else (
                f"the One on {CELLS[o]} is attacked and can escape")
            return self._illegal(p, o, f"{where}, and {side} must move an attacked One "
                                       "to a cell that is not attacked")
        escapes_text = _or_list(sorted((str(_action(*f)) for f in p._forced), key=action_sort_key))
        cells = " and ".join(CELLS[x] for x in threatened)
        ones_text = f"One on {cells} is" if len(threatened) == 1 else f"Ones on {cells} are"
        return self._illegal(p, o, f"{side}'s {ones_text} attacked and can escape, so {side} "
                                   f"must move it to a cell that is not attacked: {escapes_text}")

    # -- cube --------------------------------------------------------------------------------

    def _check_other(self, p: DicePosition, item: Item) -> Illegal | None:
        if isinstance(item, CubeOffer):
            return self._check_offer(p, item)
        if isinstance(item, CubeAnswer):
            if not self.doubling:
                return Illegal("IL03", f"there is no doubling cube in {self.name}")
            if p._offer is None:
                return Illegal("IL03", "there is no cube offer to answer")
            return None
        return Illegal("IL01", f"{item} is not an action of {self.name}")

    def _check_offer(self, p: DicePosition, item: CubeOffer) -> Illegal | None:
        problem = self._offer_problem(p)
        if problem is None and item.value is not None and item.value != (p._cube or 1) * 2:
            now = f"the cube stands at {p._cube}" if p._cube else "the cube is unused"
            problem = f"{now}, so an offer doubles it to {(p._cube or 1) * 2}, not {item.value}"
        return Illegal("IL03", problem) if problem else None

    def _offer_problem(self, p: DicePosition) -> str | None:
        if not self.doubling:
            return f"there is no doubling cube in {self.name}"
        if p._winner:
            return f"the game is over: {p.winner} won at ply {p._end_ply}"
        if p._offer is not None:
            return f"{SIDE_NAMES[3 - p._side]} must first answer the offer to {p._offer}"
        if p._offered:
            return f"{p.to_move} has already doubled this turn"
        if p._cube is None and p._side != p._first:
            return f"the first offer belongs to {p.first}, the side that moved first"
        if p._cube == CUBE_VALUES[-1]:
            return f"the cube already stands at {CUBE_VALUES[-1]}, its highest value"
        return None

    def _play_cube(self, p: DicePosition, item: Item) -> Played:
        if isinstance(item, CubeOffer):
            return Played(self._replace(p, offer=(p._cube or 1) * 2))
        assert isinstance(item, CubeAnswer) and p._offer is not None, "no offer to answer"
        if item.take:
            return Played(self._replace(p, cube=p._offer, offer=None, offered=True))
        return Played(self._replace(p, offer=None, winner=p._side, end_ply=p._ply))

    # -- play ----------------------------------------------------------------------------------

    def play(self, position: DicePosition, item: Item) -> Played:
        """Play an item that :meth:`check` accepted; the old position is untouched."""
        p = position
        if type(item) is not DiceAction:
            return self._play_cube(p, item)
        side = p._side
        board, masks = bytearray(p._board), list(p._masks)
        o = INDEX[item.origin]
        v = board[o]
        rolled = p._rolled
        if item.kind == "roll":
            kept = o
            home = v >> 3 & 7 or v & 7
            if item.face == home:
                home = 0
            _put(board, masks, o, item.face | home << 3 | side << 6)  # type: ignore[operator]
            if rolled or home:
                rolled = tuple(sorted({*rolled, o})) if home else tuple(i for i in rolled if i != o)
        else:
            kept = -1
            t = INDEX[item.target]  # type: ignore[index]
            _move(board, masks, o, t, _code(side, 6) if item.promote else v)
            if rolled:
                rolled = tuple(i for i in rolled if i != o and i != t)
            if v & _HOME_BITS:
                _turn_back(board, masks, t, side)
        if rolled and not p._forced:
            rolled = self._end_of_turn(board, masks, rolled, side, kept)
        return self._after(p, board, masks, rolled)

    @staticmethod
    def _end_of_turn(board: bytearray, masks: list[int], rolled: tuple[int, ...], side: int,
                     kept: int) -> tuple[int, ...]:
        """Rolled dice of ``side`` not rolled this turn turn back (§3.2, §8.6)."""
        due = [i for i in rolled if board[i] >> 6 == side and i != kept]
        for i in _turn_back_order(board, due):
            _turn_back(board, masks, i, side)
        return tuple(i for i in rolled if i not in due) if due else rolled

    def _after(self, p: DicePosition, board: bytearray, masks: list[int],
               rolled: tuple[int, ...]) -> Played:
        """The new position after the mover's dice turned back, with the checks of §5."""
        mover, jump = p._side, self.jump_fields
        enemy = 3 - mover
        ply = p._ply + 1
        enemy_ones = ones(masks, enemy)
        threatened = [x for x in enemy_ones if attacked(masks, x, mover, jump)]
        forced = escapes(board, masks, threatened, enemy, jump) if threatened else ()
        lost = not enemy_ones or (threatened and len(enemy_ones) == 1 and not forced)
        stuck = not lost and not self._has_action(board, masks, enemy, forced)
        winner, end_ply = (mover, ply) if lost or stuck else (0, None)
        new = DicePosition(self.name, bytes(board), tuple(masks), enemy, p._first, p._cube, None, False,
                           winner, ply, end_ply, forced, bool(threatened), rolled)
        mark = "+" if lost else "^" if threatened else ""
        return Played(new, mark, SIDE_NAMES[enemy] if threatened else None)
