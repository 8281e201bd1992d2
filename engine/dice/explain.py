"""Why a Hexalit or Trigeo action or cube event is not legal, in a player's words.

The explainer is called only after the board (:class:`.inplace.DiceBoard`)
said "not legal": it reads the same board to choose its words (why, and
which actions the die had instead, from the board's own moves), and never
decides legality itself. It changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from hexhop.notation.findings import or_list, words
from hexhop.notation.model import CubeAnswer, CubeOffer, DiceAction, Item

from ..base import Illegal, action_sort_key
from .board import CUBE_VALUES, SLIDE_DIRS, count_ones, reaches
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
    PAWN_CAPTURES,
    RAYS,
    ROW,
    ROWS,
    SIDE_NAMES,
)
from .position import Escapes
from .variant import Variant


class DiceBoard(Protocol):
    """What the explainer reads of a board (:class:`.inplace.DiceBoard`)."""

    rules: Variant
    name: str
    board: bytearray
    masks: list[int]
    side: int
    first: int
    cube: int | None
    pending: int | None
    offered: bool
    winner: int
    end_ply: int | None
    forced: Escapes

    @property
    def to_move(self) -> str: ...
    def may_promote(self, v: int, t: int, promote: int) -> bool: ...
    def moves(self) -> list[tuple[int, int, bool, int, int]]: ...
    def action(self, move: tuple[int, int, bool, int, int]) -> DiceAction: ...


def explain(b: DiceBoard, item: Item) -> Illegal:
    """Why ``item`` (which ``b`` found not legal now) may not be played."""
    if isinstance(item, DiceAction):
        return _action_problem(b, item)
    if isinstance(item, CubeOffer):
        return _check_offer(b, item)
    if isinstance(item, CubeAnswer):
        if not b.rules.doubling:
            return Illegal("IL03", words("there is no doubling cube in {game}", game=b.name))
        return Illegal("IL03", words("there is no cube offer to answer"))
    return Illegal("IL01", words("{item} is not an action of {game}", item=item, game=b.name))


def _game_over(b: DiceBoard) -> str:
    return words(
        "the game is over: {winner} won at ply {end_ply}",
        winner=SIDE_NAMES[b.winner],
        end_ply=b.end_ply,
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


# --- actions ------------------------------------------------------------------------


def _action_problem(b: DiceBoard, item: DiceAction) -> Illegal:
    """The first condition of the action's that fails, in the order a player checks them."""
    if b.winner or b.pending is not None:
        return _state_problem(b)
    o = INDEX.get(item.origin)
    if o is None:
        return Illegal("IL02", words("{cell} is not on the board", cell=item.origin), item.origin)
    board, side = b.board, b.side
    v = board[o]
    if v >> 6 != side:
        return _origin_problem(b, item, o)
    if item.kind == "roll":
        return _check_roll(b, item, o)
    t = INDEX.get(item.target or "")
    if t is None:
        return Illegal("IL02", words("{cell} is not on the board", cell=item.target), item.target)
    w = board[t]
    if w >> 6 == side:
        return _illegal(
            b,
            o,
            words(
                "{cell} holds a {side} die, and no die moves onto a cell of its own side",
                cell=CELLS[t],
                side=SIDE_NAMES[side],
            ),
        )
    jump = b.rules.jump_fields
    if not reaches(board, o, t, side, v & 7, jump):
        return _illegal(b, o, face_reason(board, o, t, side, v & 7, jump))
    if bool(w) != (item.kind == "capture"):
        return _operator_problem(b, item, o, t)
    if item.promote is not None and not b.may_promote(v, t, item.promote):
        return _promotion_problem(b, item, o, t)
    return _one_rule_problem(b, o, t)  # what is left: an attacked One had to escape


def _illegal(b: DiceBoard, o: int, why: str, code: str = "IL01") -> Illegal:
    """``why``, followed by what the die on ``o`` may do instead (the board's moves)."""
    actions = sorted((str(b.action(m)) for m in b.moves() if m[0] == o), key=action_sort_key)
    way_out = (
        words("this die can play {actions}", actions=", ".join(actions))
        if actions
        else words("this die has no legal action")
    )
    return Illegal(code, f"{why}; {way_out}")


def _state_problem(b: DiceBoard) -> Illegal:
    if b.winner:
        return Illegal("IL01", _game_over(b))
    return Illegal(
        "IL03",
        words(
            "{side} offered to double the cube to {value}; "
            "{other} must answer take or drop before any action",
            side=b.to_move,
            value=b.pending,
            other=words(SIDE_NAMES[3 - b.side]),
        ),
    )


def _origin_problem(b: DiceBoard, item: DiceAction, o: int) -> Illegal:
    if not b.board[o]:
        own = [CELLS[i] for i, v in enumerate(bytes(b.board)) if v >> 6 == b.side]
        return Illegal(
            "IL01",
            words(
                "there is no die on {cell}; {side}'s dice stand on {cells}",
                cell=item.origin,
                side=b.to_move,
                cells=", ".join(own) or words("no cell"),
            ),
        )
    return Illegal(
        "IL01",
        words(
            "the die on {cell} belongs to {owner}, and {side} is to move",
            cell=item.origin,
            owner=words(SIDE_NAMES[3 - b.side]),
            side=b.to_move,
        ),
    )


def _check_roll(b: DiceBoard, item: DiceAction, o: int) -> Illegal:
    face, name = b.board[o] & 7, CELLS[o]
    if not b.rules.rolling:
        return _illegal(b, o, words("dice are never rolled in {game}", game=b.name))
    if item.face not in range(1, 7) or item.promote is not None:
        return _illegal(b, o, words("a roll shows a face from 1 to 6, and nothing else"))
    if face == 1 and count_ones(b.masks, b.side) == 1:
        return _illegal(
            b,
            o,
            words(
                "the 1 on {cell} is {side}'s only die showing 1, and a side must always keep a 1",
                cell=name,
                side=b.to_move,
            ),
        )
    if face not in (1, 2):
        return _illegal(
            b,
            o,
            words(
                "the {face} on {cell} cannot be rolled: only a 2, "
                "or a 1 while its side has another 1, may be rolled",
                face=face,
                cell=name,
            ),
        )
    return _one_rule_problem(b, o, -1)  # what is left: an attacked One had to escape


def _operator_problem(b: DiceBoard, item: DiceAction, o: int, t: int) -> Illegal:
    if b.board[t]:
        why = words(
            "{cell} holds a {side} die, so this is a capture: "
            "write {origin}°{target} (° captures, X moves to an empty cell)",
            cell=CELLS[t],
            side=SIDE_NAMES[3 - b.side],
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
    return _illegal(b, o, why)


def _promotion_problem(b: DiceBoard, item: DiceAction, o: int, t: int) -> Illegal:
    v, side = b.board[o], b.side
    row = ROWS[LAST_ROW[side]]
    if not b.rules.promotion:
        why = words("there is no promotion in {game}: a 2 on its last row stays a 2", game=b.name)
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
    return _illegal(b, o, why)


def _one_rule_problem(b: DiceBoard, o: int, t: int) -> Illegal:
    """The side must make a safe move with an attacked One (§3.3)."""
    side = b.to_move
    threatened = sorted({f[0] for f in b.forced})
    if o in threatened:
        where = (
            words("{cell} is attacked, so the One would not be safe there", cell=CELLS[t])
            if t >= 0
            else words("the One on {cell} is attacked and can escape", cell=CELLS[o])
        )
        return _illegal(
            b,
            o,
            words(
                "{where}, and {side} must move an attacked One to a cell that is not attacked",
                where=where,
                side=side,
            ),
        )
    escapes = [str(b.action((x, y, c, 0, 0))) for x, y, c in b.forced]
    escapes_text = or_list(sorted(escapes, key=action_sort_key))
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
    return _illegal(b, o, why)


# --- the cube ---------------------------------------------------------------------------


def _check_offer(b: DiceBoard, item: CubeOffer) -> Illegal:
    problem = _offer_problem(b)
    if problem is None:  # what is left: the value written is not the double
        now = (
            words("the cube stands at {value}", value=b.cube)
            if b.cube
            else words("the cube is unused")
        )
        problem = words(
            "{now}, so an offer doubles it to {double}, not {value}",
            now=now,
            double=(b.cube or 1) * 2,
            value=item.value,
        )
    return Illegal("IL03", problem)


def _offer_problem(b: DiceBoard) -> str | None:
    if not b.rules.doubling:
        return words("there is no doubling cube in {game}", game=b.name)
    if b.winner:
        return _game_over(b)
    if b.pending is not None:
        return words(
            "{side} must first answer the offer to {value}",
            side=SIDE_NAMES[3 - b.side],
            value=b.pending,
        )
    if b.offered:
        return words("{side} has already doubled this turn", side=b.to_move)
    if b.cube is None and b.side != b.first:
        return words(
            "the first offer belongs to {side}, the side that moved first",
            side=SIDE_NAMES[b.first],
        )
    if b.cube == CUBE_VALUES[-1]:
        return words("the cube already stands at {value}, its highest value", value=CUBE_VALUES[-1])
    return None
