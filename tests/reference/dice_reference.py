"""A plain, slow second implementation of Hexalit and Trigeo, straight from rules.md.

It shares no code with ``hexhop.engine``: the geometry is built here from
rules.md §1 (orientation, neighbours, the step table), positions are plain
dicts ``cell -> (side, face, home)`` and every rule is written the obvious
way. The cross-check tests compare it with the engine action by action.

Cells are names (``"A7"``); sides are ``"N"`` and ``"S"``; ``home`` is None
for a die that is not rolled, else the face it turns back to.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

ROWS = "ABCDEF"
COLUMNS = {0: (3, 11), 1: (2, 12), 2: (1, 13), 3: (1, 13), 4: (2, 12), 5: (3, 11)}
SIDE_NAME = {"N": "North", "S": "South"}
OTHER = {"N": "S", "S": "N"}
JUMP_FIELDS = ("C6", "C7", "C8", "D6", "D7", "D8")
CUBE_VALUES = (2, 4, 8, 16, 32, 64)


# --- geometry (rules.md §1) ----------------------------------------------------------------


def on_board(r: int, c: int) -> bool:
    return r in COLUMNS and COLUMNS[r][0] <= c <= COLUMNS[r][1]


def name(r: int, c: int) -> str:
    return f"{ROWS[r]}{c}"


@cache
def coords(cell: str) -> tuple[int, int]:
    return ROWS.index(cell[0]), int(cell[1:])


CELLS = [name(r, c) for r in range(6) for c in range(COLUMNS[r][0], COLUMNS[r][1] + 1)]
BOARD_ORDER = {cell: i for i, cell in enumerate(CELLS)}


def is_up(cell: str) -> bool:
    r, c = coords(cell)
    return (r + c) % 2 == 1


@cache
def neighbours(cell: str) -> tuple[str, ...]:
    r, c = coords(cell)
    rows = {r: 2, r - 1: 1, r + 1: 2} if is_up(cell) else {r: 2, r + 1: 1, r - 1: 2}
    out = []
    for rr, reach in rows.items():
        for cc in range(c - reach, c + reach + 1):
            if (rr, cc) != (r, c) and on_board(rr, cc):
                out.append(name(rr, cc))
    return tuple(out)


STEP = {  # direction: (from up-pointing, from down-pointing)
    "N": ((-1, 0), (-1, 0)),
    "S": ((1, 0), (1, 0)),
    "NE": ((0, 1), (-1, 2)),
    "NW": ((0, -1), (-1, -2)),
    "SE": ((1, 2), (0, 1)),
    "SW": ((1, -2), (0, -1)),
}
SIDE_DIRECTIONS = {True: ("S", "NE", "NW"), False: ("N", "SE", "SW")}
CORNER_DIRECTIONS = {True: ("N", "SE", "SW"), False: ("S", "NE", "NW")}


@cache
def ray(cell: str, direction: str) -> tuple[str, ...]:
    """The cells along ``direction`` from ``cell`` (excluded) up to the edge."""
    out = []
    r, c = coords(cell)
    while True:
        dr, dc = STEP[direction][0 if (r + c) % 2 == 1 else 1]
        r, c = r + dr, c + dc
        if not on_board(r, c):
            return tuple(out)
        out.append(name(r, c))


def forward(side: str) -> int:
    return 1 if side == "N" else -1


def last_row(side: str) -> int:
    return 5 if side == "N" else 0


# --- positions -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Pos:
    game: str  # "Hexalit" or "Trigeo"
    board: dict  # cell -> (side, face, home)
    to_move: str
    first: str
    cube: int | None = None
    offer: int | None = None  # value of a pending offer
    offered: bool = False  # an offer was made (and taken) this turn
    winner: str | None = None
    end_ply: int | None = None
    ply: int = 0

    def text(self) -> str:
        parts = []
        for side in ("N", "S"):
            dice = []
            for cell in sorted(
                (c for c, v in self.board.items() if v[0] == side), key=BOARD_ORDER.get
            ):
                _, face, home = self.board[cell]
                dice.append(f"{cell}={face}" + (f"/{home}" if home is not None else ""))
            parts.append(f"{side}:" + "".join(" " + d for d in dice))
        parts.append(f"turn: {self.to_move}")
        if self.cube is not None:
            parts.append(f"cube: {self.cube}")
        return "; ".join(parts)


def parse(game: str, text: str, first: str | None = None) -> Pos:
    board = {}
    to_move = "N"
    cube = None
    for part in text.split(";"):
        key, _, value = part.strip().partition(":")
        key = key.strip()
        if key in ("N", "S"):
            for die in value.split():
                cell, _, faces = die.partition("=")
                face, _, home = faces.partition("/")
                board[cell] = (key, int(face), int(home) if home else None)
        elif key == "turn":
            to_move = value.strip()
        elif key == "cube":
            cube = int(value)
    return Pos(game, board, to_move, first or to_move, cube)


def start(game: str, first: str = "N") -> Pos:
    north = "A4=5 A5=4 A6=3 A7=1 A8=4 A9=3 A10=5 B4=2 B5=2 B6=2 B7=6 B8=2 B9=2 B10=2 C7=2"
    south = "F4=5 F5=4 F6=3 F7=1 F8=4 F9=3 F10=5 E4=2 E5=2 E6=2 E7=6 E8=2 E9=2 E10=2 D7=2"
    return parse(game, f"N: {north}; S: {south}; turn: {first}", first)


# --- moves and attacks (rules.md §2, §4) ---------------------------------------------------


def targets(game: str, board: dict, cell: str) -> list[str]:
    """Every cell the die on ``cell`` may move to (empty or enemy), no One rule."""
    side, face, _ = board[cell]
    up = is_up(cell)

    def free_or_enemy(t: str) -> bool:
        return t not in board or board[t][0] != side

    out: list[str] = []
    if face == 1:
        out = [t for t in neighbours(cell) if free_or_enemy(t)]
    elif face == 2:
        r, c = coords(cell)
        rr = r + forward(side)
        if on_board(rr, c) and name(rr, c) not in board:
            out.append(name(rr, c))
        for cc in (c - 1, c + 1):
            if on_board(rr, cc) and name(rr, cc) in board and board[name(rr, cc)][0] != side:
                out.append(name(rr, cc))
    elif face == 3:
        for d in CORNER_DIRECTIONS[up]:
            out += [t for t in ray(cell, d)[:2] if free_or_enemy(t)]
    else:
        directions = {4: CORNER_DIRECTIONS[up], 5: SIDE_DIRECTIONS[up], 6: tuple(STEP)}[face]
        for d in directions:
            for t in ray(cell, d):
                if t in board:
                    if board[t][0] != side:
                        out.append(t)
                    break
                out.append(t)
    if game == "Trigeo" and cell in JUMP_FIELDS:
        out += [t for t in JUMP_FIELDS if t != cell and free_or_enemy(t)]
    seen: list[str] = []
    for t in out:
        if t not in seen:
            seen.append(t)
    return seen


def attacks(game: str, board: dict, by: str, cell: str) -> bool:
    """Could a die of ``by`` capture an enemy die on ``cell`` (rules.md §2, §8.2)?"""
    test = dict(board)
    if cell not in test or test[cell][0] == by:
        test[cell] = (OTHER[by], 1, None)
    for origin, (side, _, _) in test.items():
        if side == by and cell in targets(game, test, origin):
            return True
    return False


def ones(board: dict, side: str) -> list[str]:
    return [c for c, (s, f, _) in board.items() if s == side and f == 1]


def move_board(board: dict, origin: str, target: str) -> dict:
    """The board right after the die moves (capturing), before any turning back."""
    new = dict(board)
    new[target] = new.pop(origin)
    return new


def safe_moves(game: str, board: dict, side: str, one: str) -> list[str]:
    """Targets of the One on ``one`` after which its new cell is not attacked (§3.3)."""
    return [
        t
        for t in targets(game, board, one)
        if not attacks(game, move_board(board, one, t), OTHER[side], t)
    ]


def forced_escapes(game: str, board: dict, side: str) -> list[tuple[str, str]]:
    """The safe moves of attacked Ones, when the One rule forces one (§3.3)."""
    out = []
    for one in ones(board, side):
        if attacks(game, board, OTHER[side], one):
            out += [(one, t) for t in safe_moves(game, board, side, one)]
    return out


def action_text(board: dict, origin: str, target: str, promote: int | None = None) -> str:
    op = "°" if target in board else "X"
    return f"{origin}{op}{target}" + (f"={promote}" if promote else "")


def legal(p: Pos) -> list[str]:
    """Every legal action of the side to move, as canonical text (no cube events)."""
    if p.winner is not None or p.offer is not None:
        return []
    return generate(p.game, p.board, p.to_move)


def generate(game: str, board: dict, side: str) -> list[str]:
    escapes = forced_escapes(game, board, side)
    if escapes:
        return [action_text(board, o, t) for o, t in escapes]
    out = []
    for origin in sorted((c for c, v in board.items() if v[0] == side), key=BOARD_ORDER.get):
        _, face, _ = board[origin]
        for t in targets(game, board, origin):
            out.append(action_text(board, origin, t))
            if (
                game == "Trigeo"
                and face == 2
                and coords(t)[0] == last_row(side)
                and t not in JUMP_FIELDS
            ):
                out.append(action_text(board, origin, t, 6))
        if game == "Hexalit" and (face == 2 or (face == 1 and len(ones(board, side)) >= 2)):
            out += [f"{origin}W{k}" for k in range(1, 7)]
    return out


# --- playing (rules.md §3.2, §5, §8) -------------------------------------------------------


def turn_back(board: dict, cell: str) -> None:
    """Turn the rolled die on ``cell`` back to its home face (never-without-a-1)."""
    side, face, home = board[cell]
    if face == 1 and len(ones(board, side)) == 1:
        board[cell] = (side, 1, None)
    else:
        board[cell] = (side, home, None)


def parse_action(text: str):
    """(origin, kind, target, face, promote) of a canonical action text."""
    if "W" in text:
        origin, face = text.split("W")
        return origin, "roll", None, int(face), None
    promote = None
    if "=" in text:
        text, p = text.split("=")
        promote = int(p)
    op = "°" if "°" in text else "X"
    origin, target = text.split(op)
    return origin, "capture" if op == "°" else "move", target, None, promote


def play(p: Pos, text: str) -> tuple[Pos, str]:
    """Play a legal action; returns the new position and the required mark."""
    game, side, enemy = p.game, p.to_move, OTHER[p.to_move]
    forced = bool(forced_escapes(game, p.board, side))
    origin, kind, target, face, promote = parse_action(text)
    board = dict(p.board)
    acted = None
    if kind == "roll":
        s, old, home = board[origin]
        if home is None:
            home = old
        board[origin] = (s, face, None if face == home else home)
        acted = origin
    else:
        board = move_board(board, origin, target)
        s, f, home = board[target]
        if promote:
            board[target] = (s, promote, None)
        elif home is not None:
            turn_back(board, target)
        acted = target
    if not forced:
        rolled = [c for c, (s, _, h) in board.items() if s == side and h is not None and c != acted]
        rolled.sort(key=lambda c: (board[c][2] != 1, BOARD_ORDER[c]))
        for cell in rolled:
            turn_back(board, cell)
    ply = p.ply + 1
    new = replace(p, board=board, to_move=enemy, offered=False, ply=ply)
    winner, mark = None, ""
    enemy_ones = ones(board, enemy)
    attacked = [o for o in enemy_ones if attacks(game, board, side, o)]
    if not enemy_ones or (
        len(enemy_ones) == 1 and attacked and not safe_moves(game, board, enemy, enemy_ones[0])
    ):
        winner, mark = side, "+"
    else:
        if attacked:
            mark = "^"
        if not has_action(game, board, enemy):
            winner = side
    if winner is not None:
        new = replace(new, winner=winner, end_ply=ply)
    return new, mark


def has_action(game: str, board: dict, side: str) -> bool:
    """Whether ``side`` has any legal action (§5.4): a roll, or any move at all (when the
    One rule forces a move, there is one)."""
    mine = [c for c, v in board.items() if v[0] == side]
    if game == "Hexalit" and (any(board[c][1] == 2 for c in mine) or len(ones(board, side)) >= 2):
        return True
    return any(targets(game, board, c) for c in mine)


def start_checks(p: Pos) -> Pos:
    """rules.md §8.10: before the first action only §5.4 applies."""
    if not has_action(p.game, p.board, p.to_move):
        return replace(p, winner=OTHER[p.to_move], end_ply=p.ply)
    return p


# --- the doubling cube (rules.md §3.4, §8.8) -----------------------------------------------


def can_offer(p: Pos, value: int | None) -> bool:
    if p.game != "Hexalit" or p.winner is not None or p.offer is not None or p.offered:
        return False
    if p.cube is None:
        new = 2
        if p.to_move != p.first:
            return False
    else:
        new = p.cube * 2
    if new > 64:
        return False
    return value is None or value == new


def offer(p: Pos) -> Pos:
    return replace(p, offer=2 if p.cube is None else p.cube * 2)


def can_answer(p: Pos) -> bool:
    return p.offer is not None and p.winner is None


def answer(p: Pos, take: bool) -> Pos:
    if take:
        return replace(p, cube=p.offer, offer=None, offered=True)
    return replace(p, offer=None, winner=p.to_move, end_ply=p.ply)


def perft(p: Pos, depth: int) -> int:
    actions = legal(p)
    if depth == 1:
        return len(actions)
    total = 0
    for a in actions:
        q, _ = play(p, a)
        total += perft(q, depth - 1)
    return total
