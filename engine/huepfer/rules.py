"""The rules of Hüpfer (rules.md §6, §8.10, §8.11, §8.13): legality, turns, end.

``HUEPFER`` implements the :class:`~hexhop.engine.base.Rules` interface for
whole Hüpfer turns (:class:`HopAction`). ``check`` walks the written path
step by step and lists legal turns only to explain a refusal; ``play``
returns a new position and ends the game when the side to move is stuck.
Geometry lives in :mod:`huepfer_board`, the search in :mod:`huepfer_moves`,
positions and their text in :mod:`huepfer_position`. Nothing here reads
records or makes findings.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Final, cast

from hexhop.notation.boards import DEFAULT_HUEPFER_SIZE, board_label
from hexhop.notation.errors import Error
from hexhop.notation.findings import words
from hexhop.notation.model import CubeAnswer, CubeOffer, HopAction, Item

from ..base import (
    GameRules,
    Illegal,
    IllegalAction,
    Played,
    action_sort_key,
    read_action,
    refuse,
)
from .board import Board, board
from .moves import (
    NO_BIRTH,
    Turn,
    all_turns,
    can_capture,
    has_hop_turn,
    piece_capture,
    turns_of,
)
from .position import (
    _UNKNOWN,
    SIDES,
    HuepferPosition,
    board_size,
    diamond,
    parse_text,
    start_cells,
    tag,
    tag_reserve,
    unresolved,
)

__all__ = ["HUEPFER", "HuepferRules", "HuepferPosition", "LegalTurns"]

_SHOWN: Final = 12  # legal turns listed in full in a refusal
_STARTS: Final[dict[tuple[int, tuple[int, int]], HuepferPosition]] = {}  # by size and reserves


class _Refusal(Error):
    """Raised inside the path walk; carries the reason and where it went wrong."""

    def __init__(self, reason: str, code: str = "IL01", cell: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.cell = cell


# -- turns as notation values ------------------------------------------------------


def to_action(tables: Board, turn: Turn) -> HopAction:
    """The :class:`HopAction` of an internal turn tuple."""
    path, hops, birth = turn
    names = tables.names
    ops = ("-",) * hops + ("x",) * (len(path) - 1 - hops)
    return HopAction(
        tuple(names[p] for p in path), ops, None if birth == NO_BIRTH else names[birth]
    )


def _capturing(position: HuepferPosition) -> bool:
    """Whether the side to move has a capture (kept on the position)."""
    found = position._capture
    if found is _UNKNOWN:
        found = can_capture(position._board, position._cells, position._turn + 1)
        position._capture = found
    return found  # type: ignore[return-value]


class LegalTurns:
    """The legal turns of a position: iterable, sized, answers ``in``.

    ``in`` and truth are answered without listing every turn; iteration and
    ``len`` list them once and keep the list.
    """

    __slots__ = ("_rules", "_position", "_actions")

    def __init__(self, rules: HuepferRules, position: HuepferPosition):
        self._rules = rules
        self._position = position
        self._actions: list[HopAction] | None = None

    def _list(self) -> list[HopAction]:
        if self._actions is None:
            position = self._position
            if position.winner is not None:
                turns: list[Turn] = []
            else:
                turns = all_turns(
                    position._board,
                    position._cells,
                    position._turn + 1,
                    position._reserve[position._turn],
                )
            self._actions = [to_action(position._board, t) for t in turns]
        return self._actions

    def __iter__(self) -> Iterator[HopAction]:
        return iter(self._list())

    def __len__(self) -> int:
        return len(self._list())

    def __bool__(self) -> bool:
        position = self._position
        if position.winner is not None:
            return False
        if self._actions is not None:
            return bool(self._actions)
        return _capturing(position) or has_hop_turn(
            position._board, position._cells, position._turn + 1, position._reserve[position._turn]
        )

    def __contains__(self, action: object) -> bool:
        """True for a legal turn, given as a value or as its text (``"a1-c1@d1"``)."""
        if isinstance(action, str):
            try:
                action = read_action(action, self._rules.name)
            except IllegalAction:
                return False
        return isinstance(action, HopAction) and self._rules.check(self._position, action) is None

    def __repr__(self) -> str:
        return f"<LegalTurns {' '.join(sorted(str(a) for a in self._list()))}>"


class HuepferRules(GameRules[HuepferPosition]):
    """Hüpfer on 6 x 6, 8 x 8 and 10 x 10 boards."""

    name = "Hüpfer"
    sides = SIDES

    # -- positions -----------------------------------------------------------

    def start(self, tags: Mapping[str, str], first: Item | None = None) -> HuepferPosition:
        """The Position tag's position, else the standard start for the Board
        and Reserve tags; Red moves first. ``first`` is not needed here."""
        size = board_size(tags)
        reserve = tag_reserve(tags, size)
        text = tag(tags, "Position")
        if text is not None:
            return self.parse_position(text, tags)
        # the standard start is the same value every time: made once
        found = _STARTS.get((size, reserve))
        if found is None:
            found = unresolved(board(size), start_cells(board(size)), reserve, 0, 0)
            if len(_STARTS) < 100:
                _STARTS[(size, reserve)] = found
        return found

    def standard(
        self, size: int = DEFAULT_HUEPFER_SIZE, reserve: tuple[int, int] | None = None
    ) -> HuepferPosition:
        """The standard start on a ``size`` board (default reserves by size)."""
        tags = {"Board": board_label(size)}
        if reserve is not None:
            tags["Reserve"] = f"{reserve[0]}/{reserve[1]}"
        return self.start(tags)

    def parse_position(self, text: str, tags: Mapping[str, str]) -> HuepferPosition:
        """The position of ``text`` on the Board tag's board; the Reserve tag
        applies unless the text has ``reserve:``. A side to move with no
        legal turn has lost at ply 0 (rules.md §8.10)."""
        size = board_size(tags)
        parsed = parse_text(text, size, tag_reserve(tags, size))
        return unresolved(parsed.board, parsed.cells, parsed.reserve, parsed.turn, 0)

    def diagram(self, position: HuepferPosition) -> str:
        return diamond(position)

    # -- legality ------------------------------------------------------------

    def legal_actions(self, position: HuepferPosition) -> LegalTurns:
        return LegalTurns(self, position)

    def check(self, position: HuepferPosition, item: Item | str) -> Illegal | None:
        """None when ``item`` is a legal turn now, else why not (and the way out);
        text is read as a Hüpfer action (IllegalAction when it is none)."""
        if isinstance(item, str):
            item = read_action(item, self.name)
        if isinstance(item, (CubeOffer, CubeAnswer)):
            return Illegal("IL03", words("there is no doubling cube in {game}", game=self.name))
        if not isinstance(item, HopAction):
            return Illegal(
                "IL01",
                words(
                    "this is not a Hüpfer action; Hüpfer turns are written like a1-c1@d1 or c3xc5"
                ),
            )
        outcome: Illegal | tuple[bytes, bool] | None = None
        if position._winner is _UNKNOWN:
            # a legal turn shows that the side to move is not stuck
            outcome = self._outcome(position, item)
            if not isinstance(outcome, Illegal):
                position._winner = None
                return None
        if position.winner is not None:
            return Illegal(
                "IL01",
                words(
                    "the game is over: {winner} won at ply {end_ply}",
                    winner=position.winner,
                    end_ply=position.end_ply,
                ),
            )
        if outcome is None:
            outcome = self._outcome(position, item)
        return outcome if isinstance(outcome, Illegal) else None

    def play(self, position: HuepferPosition, item: Item | str) -> Played[HuepferPosition]:
        """Play a legal turn; IllegalAction (a ValueError) when ``item`` is not one."""
        given = item
        if isinstance(item, str):
            item = read_action(item, self.name)
        memo = position._memo
        if memo is not None and memo[0] is item and position._winner is None:
            outcome = memo[1]  # the turn just checked: the usual case
        else:
            illegal = self.check(position, item)
            if illegal is not None:
                raise refuse(given, illegal)
            # check() has made sure that item is a legal HopAction
            outcome = self._outcome(position, cast(HopAction, item))
        if isinstance(outcome, Illegal):
            raise refuse(given, outcome)
        cells, used = outcome
        turn = position._turn
        reserve = position._reserve
        if used:
            reserve = (reserve[0] - 1, reserve[1]) if turn == 0 else (reserve[0], reserve[1] - 1)
        return Played(unresolved(position._board, cells, reserve, 1 - turn, position._ply + 1))

    def apply(self, position: HuepferPosition, item: Item) -> Played[HuepferPosition]:
        """:meth:`play`, which costs little after :meth:`check` (its answer is kept)."""
        return self.play(position, item)

    def _outcome(
        self, position: HuepferPosition, action: HopAction
    ) -> Illegal | tuple[bytes, bool]:
        """The cells after ``action`` and whether a piece was born, or why not.

        The last legal answer is kept on the position, so ``check`` then
        ``play`` walk the path once; a refusal is not kept, as its words
        follow the language of the moment (a start position is shared).
        """
        memo = position._memo
        if memo is not None and (memo[0] is action or memo[0] == action):
            return memo[1]
        try:
            outcome: Illegal | tuple[bytes, bool] = _walk(position, action)
        except _Refusal as refusal:
            reason = f"{refusal.reason}; {_way_out(position, action)}"
            return Illegal(refusal.code, reason, refusal.cell)
        position._memo = (action, outcome)
        return outcome


# -- walking a written path ----------------------------------------------------------


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


def _walk(position: HuepferPosition, action: HopAction) -> tuple[bytes, bool]:
    """Follow ``action`` on the board; raise _Refusal at the first problem."""
    tables = position._board
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
    me = position._turn + 1
    cells = bytearray(position._cells)
    start = path[0]
    _check_start(position, cells[start], names[start])
    hops = _count_hops(ops)
    if hops and _capturing(position):
        over = tables.between.get((start, path[1]))
        if over is not None and cells[over] == 3 - me:  # a capture written with '-'
            _check_step(cells, over, path[1], "-", me, names, f"{names[start]}-{names[path[1]]}")
        raise _Refusal(
            words(
                "a capture is possible ({captures}), and capturing is compulsory",
                captures=_captures_text(position),
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
        return bytes(cells), False
    _check_birth(position, cells, here, birth, path, ops)
    cells[birth] = me
    return bytes(cells), True


def _check_start(position: HuepferPosition, code: int, name: str) -> None:
    if code == 0:
        raise _Refusal(words("there is no piece on {point}", point=name))
    if code != position._turn + 1:
        raise _Refusal(
            words(
                "the piece on {point} is {owner}'s, and {side} is to move",
                point=name,
                owner=words(_side_name(code)),
                side=position.to_move,
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
    position: HuepferPosition,
    cells: bytearray,
    here: int,
    birth: int,
    path: list[int],
    ops: tuple[str, ...],
) -> None:
    tables = position._board
    names = tables.names
    if position._reserve[position._turn] == 0:
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


def _captures_text(position: HuepferPosition) -> str:
    """The first steps of the captures of the side to move, e.g. ``b3xb5, c1xc3``."""
    tables = position._board
    names = tables.names
    me = position._turn + 1
    steps = []
    for p, code in enumerate(position._cells):
        if code == me:
            for over, landing in tables.jumps[p]:
                if position._cells[over] == 3 - me and position._cells[landing] == 0:
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


def _way_out(position: HuepferPosition, action: HopAction) -> str:
    """Which turns the written piece (or else the side to move) has."""
    tables = position._board
    me = position._turn + 1
    reserve = position._reserve[position._turn]
    capturing = _capturing(position)
    start = tables.point(action.path[0]) if action.path else None
    if start is not None and position._cells[start] == me:
        mine = turns_of(tables, position._cells, start, me, reserve, capturing)
        if mine:
            texts = [str(to_action(tables, t)) for t in mine]
            return words(
                "legal turns of the piece on {point}: {turns}",
                point=tables.names[start],
                turns=_listed(texts),
            )
        prefix = words("the piece on {point} has no legal turn", point=tables.names[start])
    else:
        prefix = ""
    every = [str(to_action(tables, t)) for t in all_turns(tables, position._cells, me, reserve)]
    listed = (
        words("legal turns: {turns}", turns=_listed(every))
        if every
        else words("there is no legal turn")
    )
    return f"{prefix}; {listed}" if prefix else listed


HUEPFER: Final = HuepferRules()
