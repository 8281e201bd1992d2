"""The rules shared by Hexalit and Trigeo: positions, legal actions, check, play.

A :class:`DiceRules` object is one game; Hexalit and Trigeo differ only in
class constants (rolling, cube, jump fields, promotion), see ``hexalit.py``
and ``trigeo.py``. The board bytes, masks and what a die can do come from
:mod:`dice_board`, Position text and diagrams from :mod:`dice_text`; this
module does not read records, write findings or draw anything.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Final

from hexhop.notation.findings import or_list, words
from hexhop.notation.model import CubeAnswer, CubeOffer, DiceAction, Item, Mark

from ..base import (
    GameRules,
    HeaderError,
    Illegal,
    IllegalAction,
    Played,
    action_sort_key,
    read_action,
    refuse,
)
from .board import (
    CUBE_VALUES,
    FIRST_MASK,
    HOME_BITS,
    JUMP_FIELDS_MASK,
    JUMP_MASK,
    PAWN_CAPTURE_MASK,
    SLIDE_DIRS,
    START_TEXT,
    Die,
    attacked,
    attacked_cells,
    cells_of,
    count_ones,
    die_code,
    escapes,
    masks_of,
    move_die,
    ones,
    put_die,
    reaches,
    targets,
    turn_back,
    turn_back_order,
)
from .geometry import (
    CELLS,
    CORNER_DIRS,
    DIRECTIONS,
    FORWARD,
    INDEX,
    JUMP_FIELDS,
    JUMP_OTHERS,
    LAST_ROW,
    LEAPS,
    LINE_TO,
    NORTH,
    PAWN_CAPTURES,
    RAYS,
    ROW,
    ROWS,
    SIDE_NAMES,
    SOUTH,
)
from .text import diagram_text, listing_text, position_text, read_position_text

#: The safe moves (origin, target, capture) of attacked Ones, as escapes() gives them.
Escapes = tuple[tuple[int, int, bool], ...]


# (a module constant: a class compiled with mypyc has no __slots__ to read back)
_SLOTS: Final = (
    "_game",
    "_board",
    "_masks",
    "_side",
    "_first",
    "_cube",
    "_offer",
    "_offered",
    "_winner",
    "_ply",
    "_end_ply",
    "_forced",
    "_threat",
    "_rolled",
    "_dice",
)


class DicePosition:
    """A Hexalit or Trigeo position; immutable (``play`` returns a new one).

    Equality compares what the Position text shows: game, dice, side to move
    and cube. The game's history (``ply``, ``end_ply``, ``winner``, the side
    that moved first, a pending offer) is kept but not compared.
    """

    __slots__ = _SLOTS

    def __init__(
        self,
        game: str,
        board: bytes,
        masks: tuple[int, ...],
        side: int,
        first: int,
        cube: int | None,
        offer: int | None,
        offered: bool,
        winner: int,
        ply: int,
        end_ply: int | None,
        forced: Escapes,
        threat: bool,
        rolled: tuple[int, ...],
    ):
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
            self._dice = MappingProxyType(
                {CELLS[i]: _die(v) for i, v in enumerate(self._board) if v}
            )
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

    def listing(self) -> str:
        """The rules' own listing of the position (``A4-5 / A5-4 / …``, one
        line per side, North first), then the ``turn:`` line and, with a
        cube, the ``cube:`` line; reading it back gives an equal position."""
        return listing_text(self._board, self._side, self._cube)

    def zobrist_parts(self) -> tuple[str, bytes, tuple[int, ...]]:
        """What :meth:`__eq__` compares, for :mod:`..zobrist`."""
        return self._game, self._board, (self._side, self._cube or 0)

    def _key(self) -> tuple[object, ...]:
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


def _game_over(p: DicePosition) -> str:
    return words(
        "the game is over: {winner} won at ply {end_ply}", winner=p.winner, end_ply=p._end_ply
    )


def _dir_names(dirs: Sequence[int]) -> str:
    return ", ".join(words(DIRECTIONS[d]) for d in dirs)


def _two_moves(board: Sequence[int], o: int, t: int, side: int) -> str:
    enemy = SIDE_NAMES[3 - side]
    ahead, caps = FORWARD[side][o], [CELLS[c] for c in PAWN_CAPTURES[side][o]]
    head = (
        words(
            "the 2 on {origin} moves only forward to {ahead} when it is empty",
            origin=CELLS[o],
            ahead=CELLS[ahead],
        )
        if ahead >= 0
        else words("the 2 on {origin} has no cell ahead of it", origin=CELLS[o])
    )
    text = words(
        "{head}, and captures only on {cells} when a {enemy} die stands there",
        head=head,
        cells=or_list(caps),
        enemy=words(enemy),
    )
    if t == ahead:
        return words(
            "{text}; {target} is not empty, and a 2 never captures forward",
            text=text,
            target=CELLS[t],
        )
    if CELLS[t] in caps:
        return words("{text}, and {target} is empty", text=text, target=CELLS[t])
    return text


def _slide_moves(board: Sequence[int], o: int, t: int, face: int) -> str:
    dirs = SLIDE_DIRS[face][o]
    kind = (
        words("its corner directions")
        if face == 4
        else words("its side directions")
        if face == 5
        else words("all six directions")
    )
    head = words(
        "the {face} on {origin} slides along {kind}", face=face, origin=CELLS[o], kind=kind
    )
    if face != 6:
        head += f" ({_dir_names(dirs)})"
    line = LINE_TO[o].get(t)
    if line is None:
        return words(
            "{head}, and {target} is not on a straight line from {origin}",
            head=head,
            target=CELLS[t],
            origin=CELLS[o],
        )
    d, k = line
    if d not in dirs:
        return words(
            "{head}, and {target} lies {direction} of it",
            head=head,
            target=CELLS[t],
            direction=words(DIRECTIONS[d]),
        )
    block = next(j for j in RAYS[o][d][: k - 1] if board[j])
    return words(
        "{head}, and {block} blocks the way to {target}",
        head=head,
        block=CELLS[block],
        target=CELLS[t],
    )


def face_reason(board: Sequence[int], o: int, t: int, side: int, face: int, jump: bool) -> str:
    """Why the die on ``o`` cannot go to ``t``, in a player's words."""
    if face == 1:
        text = words(
            "the 1 on {origin} steps only to a neighbouring cell, and {target} is not one",
            origin=CELLS[o],
            target=CELLS[t],
        )
    elif face == 2:
        text = _two_moves(board, o, t, side)
    elif face == 3:
        text = words(
            "the 3 on {origin} leaps to the 1st or 2nd cell along its corner directions "
            "({directions}): {cells}",
            origin=CELLS[o],
            directions=_dir_names(CORNER_DIRS[o]),
            cells=", ".join(CELLS[j] for j in LEAPS[o]),
        )
    else:
        text = _slide_moves(board, o, t, face)
    if jump and o in JUMP_FIELDS:
        others = ", ".join(CELLS[j] for j in JUMP_OTHERS[o])
        text = words(
            "{text}; from its jump field it may also leap to {cells}", text=text, cells=others
        )
    return text


# --- the legal actions view ---------------------------------------------------------


class DiceLegalActions:
    """The legal actions of a position: iterable, sized; ``in`` asks ``check``."""

    __slots__ = ("_rules", "_position", "_list")

    def __init__(self, rules: DiceRules, position: DicePosition):
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
        """True for a legal action, given as a value or as its text (``"C7W1"``)."""
        if isinstance(action, str):
            try:
                action = read_action(action, self._rules.name)
            except IllegalAction:
                return False
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


# the standard start by (game, side to move, side that moved first)
_STARTS: Final[dict[tuple[str, int, int], DicePosition]] = {}
_START_BOARD: Final = bytes(read_position_text(START_TEXT, "Hexalit", True, True)[0])


class DiceRules(GameRules[DicePosition]):
    """The rules of Hexalit; Trigeo overrides the class constants."""

    name = "Hexalit"
    sides = ("North", "South")
    rolling = True  # dice showing 2 (and spare 1s) may be rolled
    doubling = True  # the doubling cube is used
    jump_fields = False  # Trigeo's six central cells
    promotion = False  # a 2 reaching its last row may become a 6

    # -- positions ------------------------------------------------------------------

    def start(self, tags: Mapping[str, str], first: Item | None = None) -> DicePosition:
        """The record's start position (rules.md §8.8, §8.10, §8.15)."""
        first_side = self._first_tag(tags)
        text = _side_tag(tags, "Position")
        if text is None:
            mover = first_side or self._owner(_START_BOARD, first) or NORTH
            # the standard start is the same value every time: made once
            key = (self.name, mover, first_side or mover)
            found = _STARTS.get(key)
            if found is None:
                found = _STARTS[key] = self._standard(mover, first_side or mover)
            return found
        board, turn, cube = self._read(text)
        turn = turn or first_side or self._owner(board, first) or NORTH
        position = self._position(board, turn, first_side or turn, cube)
        if not self._has_action(position._board, position._masks, turn, position._forced):
            return self._replace(position, winner=3 - turn, end_ply=0)
        return position

    def _standard(self, turn: int, first: int) -> DicePosition:
        board, _, cube = read_position_text(START_TEXT, self.name, True, True)
        position = self._position(board, turn, first, cube)
        if not self._has_action(position._board, position._masks, turn, position._forced):
            return self._replace(position, winner=3 - turn, end_ply=0)
        return position

    def parse_position(self, text: str, tags: Mapping[str, str] | None = None) -> DicePosition:
        """A position from Position text (turn defaults to the First tag, else North)."""
        first_side = self._first_tag(tags or {})
        board, turn, cube = self._read(text)
        turn = turn or first_side or NORTH
        return self._position(board, turn, first_side or turn, cube)

    def attacked_ones(self, position: DicePosition) -> list[str]:
        """The cells of the side to move's Ones that the other side attacks
        (what a ``^`` or ``+`` points at)."""
        p = position
        return [
            CELLS[x]
            for x in ones(p._masks, p._side)
            if attacked(p._masks, x, 3 - p._side, self.jump_fields)
        ]

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
        threatened = [
            x for x in ones(masks, side) if attacked(masks, x, 3 - side, self.jump_fields)
        ]
        forced = escapes(board, masks, threatened, side, self.jump_fields)
        cells = bytes(board)
        rolled = tuple(i for i, v in enumerate(cells) if v & HOME_BITS)
        return DicePosition(
            self.name,
            cells,
            tuple(masks),
            side,
            first,
            cube,
            None,
            False,
            0,
            0,
            None,
            forced,
            bool(threatened),
            rolled,
        )

    @staticmethod
    def _replace(p: DicePosition, **changes: object) -> DicePosition:
        values = {name[1:]: getattr(p, name) for name in _SLOTS[:-1]}
        values.update(changes)
        return DicePosition(**values)

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
        if self.rolling and (face == 2 or face == 1 and count_ones(p._masks, side) > 1):
            out.extend(DiceAction(CELLS[o], "roll", None, f) for f in range(1, 7))
        return out

    def _has_action(
        self, board: Sequence[int], masks: Sequence[int], side: int, forced: Escapes
    ) -> bool:
        """Whether ``side`` has any legal action (§5.4); cheap in the usual cases."""
        k = side << 3
        if forced or self.rolling and (masks[k + 2] or masks[k + 1].bit_count() > 1):
            return True
        own, enemy = masks[k], masks[(3 - side) << 3]
        free = ~own
        if (
            self.jump_fields
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

    # -- check ----------------------------------------------------------------------------

    def check(self, position: DicePosition, item: Item | str) -> Illegal | None:
        """None when ``item`` may be played now, else why not (marks are ignored);
        text is read as an action of the game (IllegalAction when it is none)."""
        p = position
        if type(item) is not DiceAction:
            return self._check_other(p, item)
        if p._winner or p._offer is not None:
            return self._state_problem(p)
        o = INDEX.get(item.origin)
        if o is None:
            return Illegal(
                "IL02", words("{cell} is not on the board", cell=item.origin), item.origin
            )
        board, side = p._board, p._side
        v = board[o]
        if v >> 6 != side:
            return self._origin_problem(p, item, o)
        if item.kind == "roll":
            return self._check_roll(p, item, o)
        t = INDEX.get(item.target or "")
        if t is None:
            return Illegal(
                "IL02", words("{cell} is not on the board", cell=item.target), item.target
            )
        w = board[t]
        if w >> 6 == side:
            return self._illegal(
                p,
                o,
                words(
                    "{cell} holds a {side} die, and no die moves onto a cell of its own side",
                    cell=CELLS[t],
                    side=SIDE_NAMES[side],
                ),
            )
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
        actions = sorted(
            (str(a) for a in self.generate(p) if a.origin == CELLS[o]), key=action_sort_key
        )
        way_out = (
            words("this die can play {actions}", actions=", ".join(actions))
            if actions
            else words("this die has no legal action")
        )
        return Illegal(code, f"{why}; {way_out}")

    def _state_problem(self, p: DicePosition) -> Illegal:
        if p._winner:
            return Illegal("IL01", _game_over(p))
        return Illegal(
            "IL03",
            words(
                "{side} offered to double the cube to {value}; "
                "{other} must answer take or drop before any action",
                side=p.to_move,
                value=p._offer,
                other=words(SIDE_NAMES[3 - p._side]),
            ),
        )

    def _origin_problem(self, p: DicePosition, item: DiceAction, o: int) -> Illegal:
        if not p._board[o]:
            own = [CELLS[i] for i, v in enumerate(p._board) if v >> 6 == p._side]
            return Illegal(
                "IL01",
                words(
                    "there is no die on {cell}; {side}'s dice stand on {cells}",
                    cell=item.origin,
                    side=p.to_move,
                    cells=", ".join(own) or words("no cell"),
                ),
            )
        return Illegal(
            "IL01",
            words(
                "the die on {cell} belongs to {owner}, and {side} is to move",
                cell=item.origin,
                owner=words(SIDE_NAMES[3 - p._side]),
                side=p.to_move,
            ),
        )

    def _check_roll(self, p: DicePosition, item: DiceAction, o: int) -> Illegal | None:
        board, side = p._board, p._side
        v = board[o]
        face, name = v & 7, CELLS[o]
        if not self.rolling:
            return self._illegal(p, o, words("dice are never rolled in {game}", game=self.name))
        if item.face not in range(1, 7) or item.promote is not None:
            return self._illegal(p, o, words("a roll shows a face from 1 to 6, and nothing else"))
        if face == 1 and count_ones(p._masks, side) == 1:
            return self._illegal(
                p,
                o,
                words(
                    "the 1 on {cell} is {side}'s only die showing 1, "
                    "and a side must always keep a 1",
                    cell=name,
                    side=p.to_move,
                ),
            )
        if face not in (1, 2):
            return self._illegal(
                p,
                o,
                words(
                    "the {face} on {cell} cannot be rolled: only a 2, "
                    "or a 1 while its side has another 1, may be rolled",
                    face=face,
                    cell=name,
                ),
            )
        if p._forced:
            return self._one_rule_problem(p, o, -1)
        return None

    def _operator_problem(self, p: DicePosition, item: DiceAction, o: int, t: int) -> Illegal:
        if p._board[t]:
            why = words(
                "{cell} holds a {side} die, so this is a capture: "
                "write {origin}°{target} (° captures, X moves to an empty cell)",
                cell=CELLS[t],
                side=SIDE_NAMES[3 - p._side],
                origin=item.origin,
                target=item.target,
            )
        else:
            why = words(
                "{cell} is empty, so this is a move: write {origin}X{target} "
                "(X moves to an empty cell, ° captures)",
                cell=CELLS[t],
                origin=item.origin,
                target=item.target,
            )
        return self._illegal(p, o, why)

    def _promotion_problem(self, p: DicePosition, item: DiceAction, o: int, t: int) -> Illegal:
        v, side = p._board[o], p._side
        row = ROWS[LAST_ROW[side]]
        if not self.promotion:
            why = words(
                "there is no promotion in {game}: a 2 on its last row stays a 2", game=self.name
            )
        elif v & 7 != 2:
            why = words(
                "only a 2 may be turned into a 6, and the die on {cell} shows {face}",
                cell=item.origin,
                face=v & 7,
            )
        elif ROW[t] != LAST_ROW[side]:
            why = words(
                "a 2 may be turned into a 6 only in the move that reaches its last row "
                "(row {row}), and {cell} is not on it",
                row=row,
                cell=item.target,
            )
        else:
            why = words(
                "a 2 reaching its last row may only become a 6, not a {face}", face=item.promote
            )
        return self._illegal(p, o, why)

    def _one_rule_problem(self, p: DicePosition, o: int, t: int) -> Illegal:
        """The side must make a safe move with an attacked One (§3.3)."""
        side = p.to_move
        threatened = sorted({f[0] for f in p._forced})
        if o in threatened:
            where = (
                words("{cell} is attacked, so the One would not be safe there", cell=CELLS[t])
                if t >= 0
                else words("the One on {cell} is attacked and can escape", cell=CELLS[o])
            )
            return self._illegal(
                p,
                o,
                words(
                    "{where}, and {side} must move an attacked One to a cell that is not attacked",
                    where=where,
                    side=side,
                ),
            )
        escapes_text = or_list(sorted((str(_action(*f)) for f in p._forced), key=action_sort_key))
        cells = CELLS[threatened[0]]
        for x in threatened[1:]:
            cells = words("{first} and {last}", first=cells, last=CELLS[x])
        if len(threatened) == 1:
            why = words(
                "{side}'s One on {cells} is attacked and can escape, so {side} "
                "must move it to a cell that is not attacked: {escapes}",
                side=side,
                cells=cells,
                escapes=escapes_text,
            )
        else:
            why = words(
                "{side}'s Ones on {cells} are attacked and can escape, so {side} "
                "must move it to a cell that is not attacked: {escapes}",
                side=side,
                cells=cells,
                escapes=escapes_text,
            )
        return self._illegal(p, o, why)

    # -- cube --------------------------------------------------------------------------------

    def _check_other(self, p: DicePosition, item: Item | str) -> Illegal | None:
        if isinstance(item, str):
            return self.check(p, read_action(item, self.name))
        if isinstance(item, CubeOffer):
            return self._check_offer(p, item)
        if isinstance(item, CubeAnswer):
            if not self.doubling:
                return Illegal("IL03", words("there is no doubling cube in {game}", game=self.name))
            if p._offer is None:
                return Illegal("IL03", words("there is no cube offer to answer"))
            return None
        return Illegal(
            "IL01", words("{item} is not an action of {game}", item=item, game=self.name)
        )

    def _check_offer(self, p: DicePosition, item: CubeOffer) -> Illegal | None:
        problem = self._offer_problem(p)
        if problem is None and item.value is not None and item.value != (p._cube or 1) * 2:
            now = (
                words("the cube stands at {value}", value=p._cube)
                if p._cube
                else words("the cube is unused")
            )
            problem = words(
                "{now}, so an offer doubles it to {double}, not {value}",
                now=now,
                double=(p._cube or 1) * 2,
                value=item.value,
            )
        return Illegal("IL03", problem) if problem else None

    def _offer_problem(self, p: DicePosition) -> str | None:
        if not self.doubling:
            return words("there is no doubling cube in {game}", game=self.name)
        if p._winner:
            return _game_over(p)
        if p._offer is not None:
            return words(
                "{side} must first answer the offer to {value}",
                side=SIDE_NAMES[3 - p._side],
                value=p._offer,
            )
        if p._offered:
            return words("{side} has already doubled this turn", side=p.to_move)
        if p._cube is None and p._side != p._first:
            return words(
                "the first offer belongs to {side}, the side that moved first", side=p.first
            )
        if p._cube == CUBE_VALUES[-1]:
            return words(
                "the cube already stands at {value}, its highest value", value=CUBE_VALUES[-1]
            )
        return None

    def _play_other(self, p: DicePosition, item: Item | str) -> Played[DicePosition]:
        """Play text or a cube event, checked first."""
        action = read_action(item, self.name)
        illegal = self.check(p, action)
        if illegal is not None:
            raise refuse(item, illegal)
        if isinstance(action, DiceAction):
            return self._apply(p, action)
        return self._play_cube(p, action)

    def _play_cube(self, p: DicePosition, item: Item) -> Played[DicePosition]:
        if isinstance(item, CubeOffer):
            return Played(self._replace(p, offer=(p._cube or 1) * 2))
        assert isinstance(item, CubeAnswer) and p._offer is not None, "no offer to answer"
        if item.take:
            return Played(self._replace(p, cube=p._offer, offer=None, offered=True))
        return Played(self._replace(p, offer=None, winner=p._side, end_ply=p._ply))

    # -- play ----------------------------------------------------------------------------------

    def play(self, position: DicePosition, item: Item | str) -> Played[DicePosition]:
        """Play ``item`` (an action, a cube event or its text) and return the
        result; the old position is untouched. Everything is checked first:
        IllegalAction, with :meth:`check`'s reason, when it may not be played now."""
        p = position
        if type(item) is not DiceAction:
            return self._play_other(p, item)
        illegal = self.check(p, item)
        if illegal is not None:
            raise refuse(item, illegal)
        return self._apply(p, item)

    def apply(self, position: DicePosition, item: Item) -> Played[DicePosition]:
        """Play an action that :meth:`check` accepted or :meth:`legal_actions`
        gave, without checking it again (the replay, the solver and the
        generator do); cube events are checked as by :meth:`play`."""
        if type(item) is not DiceAction:
            return self._play_other(position, item)
        return self._apply(position, item)

    def _apply(self, p: DicePosition, item: DiceAction) -> Played[DicePosition]:
        """Play a DiceAction that :meth:`check` accepted."""
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
            assert item.face is not None  # a roll carries its face
            put_die(board, masks, o, item.face | home << 3 | side << 6)
            if rolled or home:
                rolled = tuple(sorted({*rolled, o})) if home else tuple(i for i in rolled if i != o)
        else:
            kept = -1
            assert item.target is not None  # a move or capture carries its target
            t = INDEX[item.target]
            move_die(board, masks, o, t, die_code(side, 6) if item.promote else v)
            if rolled:
                rolled = tuple(i for i in rolled if i != o and i != t)
            if v & HOME_BITS:
                turn_back(board, masks, t, side)
        if rolled and not p._forced:
            rolled = self._end_of_turn(board, masks, rolled, side, kept)
        return self._after(p, board, masks, rolled)

    @staticmethod
    def _end_of_turn(
        board: bytearray, masks: list[int], rolled: tuple[int, ...], side: int, kept: int
    ) -> tuple[int, ...]:
        """Rolled dice of ``side`` not rolled this turn turn back (§3.2, §8.6)."""
        due: list[int] = []
        left: list[int] = []  # the rolled dice that stay rolled
        for i in rolled:
            (due if board[i] >> 6 == side and i != kept else left).append(i)
        if not due:
            return rolled
        if len(due) == 1:  # the usual case: no order to find
            turn_back(board, masks, due[0], side)
        else:
            for i in turn_back_order(board, due):
                turn_back(board, masks, i, side)
        return tuple(left)

    def _after(
        self, p: DicePosition, board: bytearray, masks: list[int], rolled: tuple[int, ...]
    ) -> Played[DicePosition]:
        """The new position after the mover's dice turned back, with the checks of §5."""
        mover, jump = p._side, self.jump_fields
        enemy = 3 - mover
        ply = p._ply + 1
        enemy_ones = masks[(enemy << 3) + 1]
        threatened = attacked_cells(masks, enemy_ones, mover, jump)
        forced = escapes(board, masks, threatened, enemy, jump) if threatened else ()
        # lost: no One left, or the only One attacked with no way out
        lost = not enemy_ones or (threatened and enemy_ones.bit_count() == 1 and not forced)
        stuck = not lost and not self._has_action(board, masks, enemy, forced)
        winner, end_ply = (mover, ply) if lost or stuck else (0, None)
        new = DicePosition(
            self.name,
            bytes(board),
            tuple(masks),
            enemy,
            p._first,
            p._cube,
            None,
            False,
            winner,
            ply,
            end_ply,
            forced,
            bool(threatened),
            rolled,
        )
        mark: Mark = "+" if lost else "^" if threatened else ""
        return Played(new, mark, SIDE_NAMES[enemy] if threatened else None)
