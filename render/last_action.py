"""What the last action changed, as a value the drawings can highlight.

:func:`describe_last` compares the position before and after an action; it
reads positions only (the attributes listed in :mod:`hexhop.render.svg`) and
never checks legality or works out attacks: threatened Ones come from the
caller, who has the rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from hexhop.notation.model import DiceAction, HopAction

from .geometry import huepfer_index


@dataclass(frozen=True)
class LastAction:
    """Cells or points to highlight after an action.

    ``origin``/``target`` are where the die or piece started and ended (no
    target for a roll); ``path`` every landing of a Hüpfer turn, start
    included (for a die move: origin and target); ``captured`` where
    captured dice or pieces stood and ``captured_side`` whose they were
    (``"South"``, ``"Turquoise"`` …); ``birth`` the point of a newborn Hüpfer
    piece; ``rolled`` the cell of a rolled die and ``rolled_home`` whether
    it shows its home face on a small die (it was not rolled to that face);
    ``threatened`` cells of Ones under attack after the action; ``win``
    whether the action won the game.
    """

    origin: str | None = None
    target: str | None = None
    path: tuple[str, ...] = ()
    captured: tuple[str, ...] = ()
    birth: str | None = None
    rolled: str | None = None
    threatened: tuple[str, ...] = ()
    win: bool = False
    captured_side: str | None = None
    rolled_home: bool = False


def describe_last(
    before: Any,
    after: Any,
    action: DiceAction | HopAction,
    *,
    threatened: Iterable[str] | None = None,
) -> LastAction:
    """The :class:`LastAction` of ``action``, played from ``before`` to ``after``.

    ``threatened`` names the cells of attacked Ones after the action; when it
    is omitted and the action is marked ``^`` or ``+``, the other side's One
    is taken if it has exactly one (otherwise nothing is marked).
    """
    if isinstance(action, HopAction):
        return _describe_hop(before, after, action)
    return _describe_dice(before, after, action, threatened)


def _won(before: Any, after: Any, mark: str) -> bool:
    return mark == "+" or (after.winner is not None and before.winner is None)


def _describe_dice(
    before: Any, after: Any, action: DiceAction, threatened: Iterable[str] | None
) -> LastAction:
    mover = _dice_mover(before, action)
    captured = tuple(
        sorted(
            cell
            for cell, die in before.dice.items()
            if die.side != mover and (cell not in after.dice or after.dice[cell].side == mover)
        )
    )
    if threatened is None:
        threatened = _guess_threatened(after, mover, action.mark)
    last = LastAction(
        origin=action.origin,
        captured=captured,
        threatened=tuple(threatened),
        win=_won(before, after, action.mark),
        captured_side=str(before.dice[captured[0]].side) if captured else None,
    )
    if action.kind == "roll":
        shown = getattr(after.dice.get(action.origin), "home", None) is not None
        return replace(last, rolled=action.origin, rolled_home=shown)
    path = (action.origin, action.target) if action.target else (action.origin,)
    return replace(last, target=action.target, path=path)


def _dice_mover(before: Any, action: DiceAction) -> str:
    die = before.dice.get(action.origin)
    return str(die.side if die is not None else before.to_move)


def _guess_threatened(after: Any, mover: str, mark: str) -> tuple[str, ...]:
    if mark not in ("^", "+"):
        return ()
    ones = [cell for cell, die in after.dice.items() if die.side != mover and die.face == 1]
    return (ones[0],) if len(ones) == 1 else ()


def _describe_hop(before: Any, after: Any, action: HopAction) -> LastAction:
    mover = before.pieces.get(action.path[0], before.to_move)
    captured = [
        point
        for point, colour in before.pieces.items()
        if colour != mover and after.pieces.get(point) != colour
    ]
    if not captured:
        captured = _jumped(before, action, mover)
    return LastAction(
        origin=action.path[0],
        target=action.path[-1],
        path=tuple(action.path),
        captured=tuple(sorted(captured, key=_point_order)),
        birth=action.birth,
        win=_won(before, after, action.mark),
        captured_side=str(before.pieces[captured[0]]) if captured else None,
    )


def _jumped(before: Any, action: HopAction, mover: str) -> list[str]:
    """Points jumped by ``x`` steps that held an enemy piece (when ``after``
    does not tell, e.g. a stand-in that did not remove them)."""
    out = []
    for op, a, b in zip(action.ops, action.path, action.path[1:], strict=False):
        ia, ib = huepfer_index(a), huepfer_index(b)
        if op != "x" or ia is None or ib is None:
            continue
        middle = f"{chr((ord(a[0]) + ord(b[0])) // 2)}{(ia[1] + ib[1]) // 2 + 1}"
        if before.pieces.get(middle, mover) != mover:
            out.append(middle)
    return out


def _point_order(point: str) -> tuple[int, int]:
    index = huepfer_index(point)
    return index if index is not None else (99, 99)
