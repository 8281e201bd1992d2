"""A plain, slow second implementation of Hüpfer, straight from rules.md §6.

Shares no code with ``hexhop.engine``. A position is a dict ``point -> side``
(``"R"``/``"T"``), the reserves, the board size and the side to move; whole
turns are enumerated by plain recursion and written as canonical text
(``a1-a3xa5xc5``, ``a2-c2-c4@c5``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

OTHER = {"R": "T", "T": "R"}
DEFAULT_RESERVE = {6: 12, 8: 24, 10: 40}
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def point(f: int, r: int) -> str:
    return f"{chr(ord('a') + f)}{r + 1}"


def coords(p: str) -> tuple[int, int]:
    return ord(p[0]) - ord("a"), int(p[1:]) - 1


@dataclass(frozen=True)
class Pos:
    n: int
    pieces: dict  # point -> side
    reserve: dict  # side -> count
    to_move: str = "R"
    winner: str | None = None
    end_ply: int | None = None
    ply: int = 0

    def on(self, f: int, r: int) -> bool:
        return 0 <= f < self.n and 0 <= r < self.n

    def text(self) -> str:
        parts = []
        for side in ("R", "T"):
            pts = sorted((p for p, s in self.pieces.items() if s == side), key=coords)
            parts.append(f"{side}:" + "".join(" " + p for p in pts))
        parts.append(f"reserve: {self.reserve['R']}/{self.reserve['T']}")
        parts.append(f"turn: {self.to_move}")
        return "; ".join(parts)


def start(n: int = 6, reserve: tuple[int, int] | None = None) -> Pos:
    pieces = {point(f, r): "R" for f in (0, 1) for r in (0, 1)}
    pieces.update({point(f, r): "T" for f in (n - 2, n - 1) for r in (n - 2, n - 1)})
    red, turq = reserve or (DEFAULT_RESERVE[n], DEFAULT_RESERVE[n])
    return Pos(n, pieces, {"R": red, "T": turq})


def parse(text: str, n: int = 6) -> Pos:
    pieces = {}
    reserve = {"R": DEFAULT_RESERVE[n], "T": DEFAULT_RESERVE[n]}
    to_move = "R"
    for part in text.split(";"):
        key, _, value = part.strip().partition(":")
        if key in ("R", "T"):
            for p in value.split():
                pieces[p] = key
        elif key == "reserve":
            red, _, turq = value.strip().partition("/")
            reserve = {"R": int(red), "T": int(turq or red)}
        elif key == "turn":
            to_move = value.strip()
    return Pos(n, pieces, reserve, to_move)


def jumps(p: Pos, pieces: dict, at: str, over_side: str) -> list[tuple[str, str]]:
    """(jumped point, landing) of every jump from ``at`` over a ``over_side`` piece."""
    f, r = coords(at)
    out = []
    for df, dr in STEPS:
        mid, land = (f + df, r + dr), (f + 2 * df, r + 2 * dr)
        if not p.on(*land):
            continue
        over, to = point(*mid), point(*land)
        if pieces.get(over) == over_side and to not in pieces:
            out.append((over, to))
    return out


def captures(p: Pos, pieces: dict, at: str, side: str, text: str) -> list[str]:
    """Every complete capture continuation of the piece on ``at``."""
    options = jumps(p, pieces, at, OTHER[side])
    if not options:
        return [text]
    out = []
    for mid, land in options:
        new = dict(pieces)
        del new[mid]
        del new[at]
        new[land] = side
        out += captures(p, new, land, side, text + "x" + land)
    return out


def hops(p: Pos, pieces: dict, at: str, side: str, text: str, visited: set) -> list[str]:
    """Every continuation after a hop landed on ``at``."""
    if jumps(p, pieces, at, OTHER[side]):
        return captures(p, pieces, at, side, text)
    out = []
    if p.reserve[side] > 0:
        f, r = coords(at)
        for df, dr in STEPS:
            if p.on(f + df, r + dr) and point(f + df, r + dr) not in pieces:
                out.append(text + "@" + point(f + df, r + dr))
    for _, land in jumps(p, pieces, at, side):
        if land in visited:
            continue
        new = dict(pieces)
        del new[at]
        new[land] = side
        out += hops(p, new, land, side, text + "-" + land, visited | {land})
    return out


def legal(p: Pos) -> list[str]:
    if p.winner is not None:
        return []
    side = p.to_move
    own = sorted((q for q, s in p.pieces.items() if s == side), key=coords)
    if any(jumps(p, p.pieces, q, OTHER[side]) for q in own):
        out = []
        for q in own:
            if jumps(p, p.pieces, q, OTHER[side]):
                out += captures(p, p.pieces, q, side, q)
        return out
    out = []
    for q in own:
        for _, land in jumps(p, p.pieces, q, side):
            new = dict(p.pieces)
            del new[q]
            new[land] = side
            out += hops(p, new, land, side, q + "-" + land, {q, land})
    return out


def play(p: Pos, text: str) -> Pos:
    side = p.to_move
    birth = None
    if "@" in text:
        text, birth = text.split("@")
    path, ops, token = [], [], ""
    for ch in text:
        if ch in "-x":
            path.append(token)
            ops.append(ch)
            token = ""
        else:
            token += ch
    path.append(token)
    pieces = dict(p.pieces)
    for op, a, b in zip(ops, path, path[1:], strict=False):
        (fa, ra), (fb, rb) = coords(a), coords(b)
        mid = point((fa + fb) // 2, (ra + rb) // 2)
        if op == "x":
            del pieces[mid]
        del pieces[a]
        pieces[b] = side
    reserve = dict(p.reserve)
    if birth is not None:
        pieces[birth] = side
        reserve[side] -= 1
    new = replace(p, pieces=pieces, reserve=reserve, to_move=OTHER[side], ply=p.ply + 1)
    if not legal(new):
        new = replace(new, winner=side, end_ply=new.ply)
    return new


def start_checks(p: Pos) -> Pos:
    if not legal(p):
        return replace(p, winner=OTHER[p.to_move], end_ply=p.ply)
    return p


def perft(p: Pos, depth: int) -> int:
    actions = legal(p)
    if depth == 1:
        return len(actions)
    return sum(perft(play(p, a), depth - 1) for a in actions)
