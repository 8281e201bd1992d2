"""Why a Hüpfer turn may not be played: the words of a refusal (rules.md §6).

:meth:`.inplace.HopBoard.problem` calls :func:`refusal` only after the
board has said that a written turn is not legal; this module follows the
written path on a copy of the board's cells to find the first step worth
naming and words it, with the way out (the turns the piece, or else the
side to move, has: the board's own moves). It never decides legality: a
path it cannot fault is a contradiction with the board and an error.
Nothing here changes the board.
"""

from __future__ import annotations

from typing import Final, Protocol

from hexhop.notation.errors import Error
from hexhop.notation.findings import words
from hexhop.notation.model import HopAction

from ..base import Illegal, action_sort_key
from .board import Board
from .moves import NO_BIRTH, Turn, piece_capture
from .position import GAME, SIDES

__all__ = ["game_over", "no_cube", "not_a_turn", "refusal"]

_SHOWN: Final = 12  # legal turns listed in full in a refusal


class HopBoard(Protocol):
    """What the explainer reads of :class:`.inplace.HopBoard` (which imports
    this module): its cells and tables, the side to move and the reserves,
    its capture test and its legal turns."""

    tables: Board
    cells: bytearray
    me: int
    reserve: list[int]

    def can_capture(self, me: int) -> bool: ...
    def moves(self) -> list[Turn]: ...
    def action(self, turn: Turn) -> HopAction: ...


class _Refusal(Error):
    """Raised inside the path walk; carries the reason and where it went wrong."""

    def __init__(self, reason: str, code: str = "IL01", cell: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.cell = cell


def no_cube() -> Illegal:
    """A cube event offered in Hüpfer, which has no cube."""
    return Illegal("IL03", words("there is no doubling cube in {game}", game=GAME))


def not_a_turn() -> Illegal:
    """An action of another game given to Hüpfer."""
    return Illegal(
        "IL01",
        words("this is not a Hüpfer action; Hüpfer turns are written like a1-c1@d1 or c3xc5"),
    )


def game_over(winner: str, end_ply: int | None) -> Illegal:
    """A turn written after the side to move was found stuck (§6.4)."""
    return Illegal(
        "IL01",
        words("the game is over: {winner} won at ply {end_ply}", winner=winner, end_ply=end_ply),
    )


def refusal(board: HopBoard, action: HopAction) -> Illegal:
    """Why ``action`` is not a legal turn on ``board`` (which said so), and
    the way out."""
    try:
        _follow(board, action)
    except _Refusal as found:
        reason = f"{found.reason}; {_way_out(board, action)}"
        return Illegal(found.code, reason, found.cell)
    raise AssertionError(f"the board refused {action}, and no step of it is wrong")


# -- following a written path --------------------------------------------------------


def _points(tables: Board, action: HopAction) -> tuple[list[int], int]:
    """The path's and the birth's point indices (birth -1 when absent)."""
    index = tables.index
    try:
        path = [index[name] for name in action.path]
        return path, NO_BIRTH if action.birth is None else index[action.birth]
    except KeyError:
        pass
    names = list(action.path) + ([] if action.birth is None else [action.birth])
    points = []
    for name in names:
        point = tables.point(name)
        if point is None:
            raise _Refusal(
                words(
                    "{name} is not on the {board} board (files a-{file}, ranks 1-{size})",
                    name=name,
                    board=tables.label,
                    file=tables.names[-1][0],
                    size=tables.size,
                ),
                "IL02",
                name,
            )
        points.append(point)
    if action.birth is not None:
        return points[:-1], points[-1]
    return points, NO_BIRTH


def _side_name(code: int) -> str:
    return SIDES[code - 1]


def _follow(board: HopBoard, action: HopAction) -> None:
    """Follow ``action`` on a copy of the board's cells; raise _Refusal at
    the first problem (and return when there is none)."""
    tables = board.tables
    names = tables.names
    path, birth = _points(tables, action)
    ops = action.ops
    if len(path) < 2 or len(ops) != len(path) - 1:
        raise _Refusal(
            words(
                "a turn moves a piece at least once: write the start and every "
                "landing, like a1-c1@d1 or c3xc5"
            )
        )
    me = board.me
    cells = bytearray(board.cells)
    start = path[0]
    _check_start(me, cells[start], names[start])
    hops = _count_hops(ops)
    if hops and board.can_capture(me):
        over = tables.between.get((start, path[1]))
        if over is not None and cells[over] == 3 - me:  # a capture written with '-'
            _check_step(cells, over, path[1], "-", me, names, f"{names[start]}-{names[path[1]]}")
        raise _Refusal(
            words(
                "a capture is possible ({captures}), and capturing is compulsory",
                captures=_captures_text(board),
            )
        )
    visited = {start}
    between = tables.between
    here = start
    for step, op in enumerate(ops):
        there = path[step + 1]
        over = between.get((here, there), -1)
        hop = op == "-"
        if (
            over < 0
            or cells[there]
            or cells[over] != (me if hop else 3 - me)
            or (hop and there in visited)
        ):
            _refuse_step(cells, tables, path, ops, step, me, visited)
        cells[here] = 0
        cells[there] = me
        here = there
        if hop:
            visited.add(there)
            if step + 1 != hops or hops == len(ops):
                _check_hop_end(tables, cells, here, me, path, ops, step + 1)
        else:
            cells[over] = 0
    if hops < len(ops):
        _check_capture_end(tables, cells, here, me, birth, path, ops)
        return
    _check_birth(board, cells, here, birth, path, ops)


def _check_start(me: int, code: int, name: str) -> None:
    if code == 0:
        raise _Refusal(words("there is no piece on {point}", point=name))
    if code != me:
        raise _Refusal(
            words(
                "the piece on {point} is {owner}'s, and {side} is to move",
                point=name,
                owner=words(_side_name(code)),
                side=SIDES[me - 1],
            )
        )


def _count_hops(ops: tuple[str, ...]) -> int:
    """The number of leading hops; refuses unknown operators and a hop after a capture."""
    hops = 0
    for i, op in enumerate(ops):
        if op not in ("-", "x"):
            raise _Refusal(
                words(
                    "'{op}' is not a step: '-' hops over an own piece, 'x' captures an enemy piece",
                    op=op,
                )
            )
        if op == "-":
            if i > hops:
                raise _Refusal(words("after a capture the piece may only go on capturing, not hop"))
            hops += 1
    return hops


def _written(names: tuple[str, ...], path: list[int], ops: tuple[str, ...], steps: int) -> str:
    """The first ``steps`` steps of a path as written, e.g. ``a2-c2-a2``."""
    steps_written = zip(ops[:steps], path[1:], strict=False)
    return names[path[0]] + "".join(op + names[p] for op, p in steps_written)


def _refuse_step(
    cells: bytearray,
    tables: Board,
    path: list[int],
    ops: tuple[str, ...],
    step: int,
    me: int,
    visited: set[int],
) -> None:
    """Explain why step ``step`` of the path cannot be made."""
    names = tables.names
    here, there, op = path[step], path[step + 1], ops[step]
    written_step = f"{names[here]}{op}{names[there]}"
    over = tables.between.get((here, there))
    if over is None:
        raise _Refusal(
            words(
                "{step} is not a jump: a piece jumps over a neighbouring "
                "point to the point right behind it on the same line",
                step=written_step,
            )
        )
    _check_step(cells, over, there, op, me, names, written_step)
    if op == "-" and there in visited:
        raise _Refusal(
            words(
                "{written} lands on {point} again; a hop may not revisit a point",
                written=_written(names, path, ops, step + 1),
                point=names[there],
            )
        )
    raise AssertionError("step refused without a reason")


def _check_step(
    cells: bytearray,
    over: int,
    there: int,
    op: str,
    me: int,
    names: tuple[str, ...],
    written_step: str,
) -> None:
    jumped = cells[over]
    if jumped == 0:
        raise _Refusal(
            words(
                "{step} jumps over {point}, which is empty: there is nothing to jump over",
                step=written_step,
                point=names[over],
            )
        )
    if cells[there] != 0:
        raise _Refusal(
            words(
                "{step} lands on {point}, which is occupied", step=written_step, point=names[there]
            )
        )
    if op == "-" and jumped != me:
        fixed = written_step.replace("-", "x")
        raise _Refusal(
            words(
                "{step} jumps over the {side} piece on {point}: that is a capture, written {fixed}",
                step=written_step,
                side=_side_name(jumped),
                point=names[over],
                fixed=fixed,
            )
        )
    if op == "x" and jumped == me:
        fixed = written_step.replace("x", "-")
        raise _Refusal(
            words(
                "{step} jumps over an own piece on {point}: that is a hop, written {fixed}",
                step=written_step,
                point=names[over],
                fixed=fixed,
            )
        )


def _check_hop_end(
    tables: Board,
    cells: bytearray,
    here: int,
    me: int,
    path: list[int],
    ops: tuple[str, ...],
    step: int,
) -> None:
    """After a hop not followed by a capture the hopper must not be able to
    capture (only the hopper counts, rules.md §8.13)."""
    landing = piece_capture(tables, cells, here, me)
    if landing is None:
        return
    names = tables.names
    written = _written(names, path, ops, step)
    last = step == len(ops)
    capture = f"{names[here]}x{names[landing]}"
    if last:
        raise _Refusal(
            words(
                "after {written} the piece can capture ({capture}), "
                "so the turn must go on capturing",
                written=written,
                capture=capture,
            )
        )
    raise _Refusal(
        words(
            "after {written} the piece can capture ({capture}), "
            "so it must capture instead of hopping on",
            written=written,
            capture=capture,
        )
    )


def _check_capture_end(
    tables: Board,
    cells: bytearray,
    here: int,
    me: int,
    birth: int,
    path: list[int],
    ops: tuple[str, ...],
) -> None:
    names = tables.names
    landing = piece_capture(tables, cells, here, me)
    if landing is not None:
        written = _written(names, path, ops, len(ops))
        raise _Refusal(
            words(
                "{written} stops too early: the piece can still capture from {point} ({capture})",
                written=written,
                point=names[here],
                capture=f"{names[here]}x{names[landing]}",
            )
        )
    if birth != NO_BIRTH:
        raise _Refusal(
            words(
                "no piece is born in a turn that captures; leave out @{point}", point=names[birth]
            )
        )


def _check_birth(
    board: HopBoard,
    cells: bytearray,
    here: int,
    birth: int,
    path: list[int],
    ops: tuple[str, ...],
) -> None:
    tables = board.tables
    names = tables.names
    if board.reserve[board.me - 1] == 0:
        raise _Refusal(words("the reserve is empty: a hop must lead to a capture"))
    if birth != NO_BIRTH and cells[birth] == 0 and birth in tables.neighbours[here]:
        return
    free = [n for n in tables.neighbours[here] if cells[n] == 0]
    if birth == NO_BIRTH:
        written = _written(names, path, ops, len(ops))
        if not free:
            raise _Refusal(
                words(
                    "a hop that ends without a capture places a newborn piece next "
                    "to {point}, but no point next to it is empty",
                    point=names[here],
                )
            )
        raise _Refusal(
            words(
                "a hop that ends without a capture must place a piece from the "
                "reserve: add @ and an empty point next to {point}, e.g. {example}",
                point=names[here],
                example=f"{written}@{names[free[0]]}",
            )
        )
    if birth not in tables.neighbours[here]:
        raise _Refusal(
            words(
                "{birth} is not next to {point}, where the hop ends; "
                "the newborn piece goes on an empty point next to it",
                birth=names[birth],
                point=names[here],
            )
        )
    if cells[birth] != 0:
        raise _Refusal(
            words(
                "{birth} is occupied; the newborn piece goes on an empty point next to {point}",
                birth=names[birth],
                point=names[here],
            )
        )


# -- the way out ----------------------------------------------------------------------


def _captures_text(board: HopBoard) -> str:
    """The first steps of the captures of the side to move, e.g. ``b3xb5, c1xc3``."""
    tables = board.tables
    names = tables.names
    me = board.me
    cells = board.cells
    steps = []
    for p, code in enumerate(bytes(cells)):
        if code == me:
            for over, landing in tables.jumps[p]:
                if cells[over] == 3 - me and cells[landing] == 0:
                    steps.append(f"{names[p]}x{names[landing]}")
    shown = ", ".join(steps[:4])
    if len(steps) <= 4:
        return shown
    return words("{shown} and {count} more", shown=shown, count=len(steps) - 4)


def _listed(texts: list[str]) -> str:
    texts = sorted(texts, key=action_sort_key)
    if len(texts) <= _SHOWN:
        return ", ".join(texts)
    return words(
        "{shown} and {count} more", shown=", ".join(texts[:_SHOWN]), count=len(texts) - _SHOWN
    )


def _way_out(board: HopBoard, action: HopAction) -> str:
    """Which turns the written piece (or else the side to move) has: the
    board's moves."""
    tables = board.tables
    every = board.moves()
    start = tables.point(action.path[0]) if action.path else None
    if start is not None and board.cells[start] == board.me:
        mine = [board.action(t) for t in every if t[0][0] == start]
        if mine:
            return words(
                "legal turns of the piece on {point}: {turns}",
                point=tables.names[start],
                turns=_listed([str(a) for a in mine]),
            )
        prefix = words("the piece on {point} has no legal turn", point=tables.names[start])
    else:
        prefix = ""
    listed = (
        words("legal turns: {turns}", turns=_listed([str(board.action(t)) for t in every]))
        if every
        else words("there is no legal turn")
    )
    return f"{prefix}; {listed}" if prefix else listed
