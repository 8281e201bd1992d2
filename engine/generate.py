"""Random legal games, as record trees: for tests, fuzzing and benchmarks.

Every action is drawn from the game's legal actions and carries the mark
the rules require; the result is the end reached on the board, or ``*``
when the game was cut off at ``max_plies``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

from hexhop.notation.boards import board_label
from hexhop.notation.games import GameSpec, find_game
from hexhop.notation.model import CubeAnswer, CubeOffer, Line, Node, Record, Span, Tag

from .base import GameRules, P, Position, Rules
from .games import rules_for

_SPAN = Span(0, 0)


def random_game(
    game: str,
    rng: random.Random,
    *,
    board: int = 6,
    max_plies: int = 200,
    cube: bool = True,
    index: int = 1,
) -> Record:
    """One random legal game of ``game`` as a :class:`Record`."""
    spec = find_game(game)
    rules = rules_for(spec.name)
    doubling = getattr(rules, "doubling", False)  # only dice rules have a cube
    tags = _tags(spec, board, index)
    position = rules.start(dict(tags), None)
    nodes: list[Node] = []
    while position.winner is None and position.ply < max_plies:
        if cube and doubling and rng.random() < 0.02:
            position = _double(rules, position, nodes)
            if position.winner is not None:
                break
        actions = list(rules.legal_actions(position))
        action = rng.choice(actions)
        played = rules.apply(position, action)
        nodes.append(Node(replace(action, mark=played.mark), _SPAN, ""))
        position = played.position
    result = _result(rules, position)
    tags.append(("Result", result))
    return Record(
        tuple(Tag(k, v) for k, v in tags), spec.name, Line(tuple(nodes)), result, index=index
    )


def random_archive(
    game: str, count: int, seed: int, *, board: int = 6, max_plies: int = 200
) -> list[Record]:
    """``count`` random games from one seed (the same seed gives the same games)."""
    return list(random_games(game, count, seed, board=board, max_plies=max_plies))


def random_games(
    game: str, count: int, seed: int, *, board: int = 6, max_plies: int = 200
) -> Iterator[Record]:
    """The games of :func:`random_archive`, one at a time."""
    rng = random.Random(seed)
    for i in range(count):
        yield random_game(game, rng, board=board, max_plies=max_plies, index=i + 1)


def _tags(game: GameSpec, board: int, index: int) -> list[tuple[str, str]]:
    tags = [("Game", game.name), ("Event", "Random games"), ("Round", str(index))]
    tags += [(side, "Random") for side in game.sides]
    # a game of several boards names its board; one of a fixed board, who moves first
    if game.board_sizes:
        tags.append(("Board", board_label(board)))
    else:
        tags.append(("First", game.sides[0]))
    return tags


def _double(rules: GameRules[P], position: P, nodes: list[Node]) -> P:
    """Offer the cube when the rules allow it, and take it."""
    offer = CubeOffer(_next_cube(position))
    if rules.check(position, offer) is not None:
        return position
    position = rules.play(position, offer).position
    nodes.append(Node(offer, _SPAN, ""))
    answer = CubeAnswer(take=True)
    nodes.append(Node(answer, _SPAN, ""))
    return rules.play(position, answer).position


def _next_cube(position: Position) -> int:
    cube = getattr(position, "cube", None)
    return 2 if cube is None else cube * 2


def _result(rules: Rules, position: Position) -> str:
    if position.winner is None:
        return "*"
    return "1-0" if position.winner == rules.sides[0] else "0-1"
