"""Archives of random valid records shaped as real archives have them, for
measuring on records no benchmark was tuned on.

``benchmarks/bench_check.py`` makes plain random games (main line only, a
cube now and then). Real archives hold more: cube offers that are taken
and dropped (Hexalit: Trigeo has no cube), glyphs (``!``, ``?!``, ``$4``),
comments, variations, and in Hüpfer long capture chains and births. This script writes such records,
every action drawn from the legal ones through the engine's public API
(``GameRules.legal_actions``, ``check``, ``play``), so ``hexhop check``
finds every game valid:

    python benchmarks/make_corpus.py DIR [--games 200] [--seed 1] [--max-plies 150]

writes ``Hexalit.hxl``, ``Trigeo.trg``, ``Hüpfer6.hpf``, ``Hüpfer8.hpf``
and ``Hüpfer10.hpf`` into DIR (a file already there is not overwritten).
The same seed gives the same archives.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from dataclasses import replace
from typing import Any

from hexhop.engine.base import GameRules
from hexhop.engine.games import rules_for
from hexhop.notation import format_archive
from hexhop.notation.boards import board_label
from hexhop.notation.games import find_game
from hexhop.notation.model import (
    CubeAnswer,
    CubeOffer,
    HopAction,
    Item,
    Line,
    Node,
    Record,
    Span,
    Tag,
)

#: (game, board size, file name) of each archive
ARCHIVES = [
    ("Hexalit", 6, "Hexalit.hxl"),
    ("Trigeo", 6, "Trigeo.trg"),
    ("Hüpfer", 6, "Hüpfer6.hpf"),
    ("Hüpfer", 8, "Hüpfer8.hpf"),
    ("Hüpfer", 10, "Hüpfer10.hpf"),
]
GLYPHS = ("!", "?", "!!", "??", "!?", "?!", "$1", "$4", "$14")
COMMENTS = (
    "the only move",
    "a mistake: the dice were kinder on the other side",
    "time trouble",
    "Schwarz hat Zeitnot",
    "after a long think",
)
_SPAN = Span(0, 0)
# how often each shape is written, per ply (real archives, roughly)
P_OFFER, P_DROP, P_GLYPH, P_COMMENT, P_VARIATION = 0.03, 0.3, 0.08, 0.05, 0.03
# Hüpfer: how often the longest capture chain is chosen over a random turn
P_LONGEST = 0.7


def _captures(item: Item) -> int:
    return item.ops.count("x") if isinstance(item, HopAction) else 0


def _choose(game: str, actions: list[Item], rng: random.Random) -> Item:
    """A random legal action; in Hüpfer mostly one with the most captures,
    else one with a birth when there is one, so chains and births are common."""
    if game == "Hüpfer":
        most = max(_captures(action) for action in actions)
        if most > 0 and rng.random() < P_LONGEST:
            return rng.choice([a for a in actions if _captures(a) == most])
        births = [a for a in actions if isinstance(a, HopAction) and a.birth]
        if births and rng.random() < 0.5:
            return rng.choice(births)
    return rng.choice(actions)


def _dressed(node: Node, rng: random.Random) -> Node:
    """The node with a glyph and a comment now and then."""
    if rng.random() < P_GLYPH:
        node = replace(node, glyphs=(rng.choice(GLYPHS),))
    if rng.random() < P_COMMENT:
        node = replace(node, comments=(rng.choice(COMMENTS),))
    return node


def _line(
    game: str, rules: GameRules[Any], position: Any, rng: random.Random, plies: int, depth: int
) -> tuple[list[Node], Any]:
    """Up to ``plies`` random legal items from ``position`` (cube events
    included), dressed, with variations down to ``depth`` levels: the nodes
    and the position reached."""
    nodes: list[Node] = []
    played = 0
    while position.winner is None and played < plies:
        cube = getattr(position, "cube", None)
        offer = CubeOffer(2 if cube is None else cube * 2)
        doubles = getattr(rules, "doubling", False) and rng.random() < P_OFFER
        if doubles and rules.check(position, offer) is None:
            position = rules.play(position, offer).position
            nodes.append(_dressed(Node(offer, _SPAN, ""), rng))
            answer = CubeAnswer(take=rng.random() >= P_DROP)
            position = rules.play(position, answer).position
            nodes.append(_dressed(Node(answer, _SPAN, ""), rng))
            if position.winner is not None:  # dropped: the offerer wins
                break
        actions: list[Item] = list(rules.legal_actions(position))
        action = _choose(game, actions, rng)
        done = rules.play(position, action)
        node = Node(replace(action, mark=done.mark), _SPAN, "")
        if depth > 0 and len(actions) > 1 and rng.random() < P_VARIATION:
            other = rng.choice([a for a in actions if a != action])
            first = rules.play(position, other)
            rest, _ = _line(game, rules, first.position, rng, rng.randint(0, 6), depth - 1)
            branch = [Node(replace(other, mark=first.mark), _SPAN, ""), *rest]
            node = replace(node, variations=(Line(tuple(branch)),))
        nodes.append(_dressed(node, rng))
        position = done.position
        played += 1
    return nodes, position


def corpus_game(game: str, board: int, rng: random.Random, index: int, max_plies: int) -> Record:
    """One random valid record of ``game`` with the shapes of a real archive."""
    spec = find_game(game)
    rules = rules_for(spec.name)
    tags = [("Game", spec.name), ("Event", "Corpus"), ("Round", str(index))]
    tags += [(side, f"Player {rng.randint(1, 40)}") for side in spec.sides]
    if spec.board_sizes:
        tags.append(("Board", board_label(board)))
    else:
        tags.append(("First", spec.sides[0]))
    position = rules.start(dict(tags), None)
    nodes, end = _line(spec.name, rules, position, rng, rng.randint(20, max_plies), depth=2)
    winner = end.winner
    result = "*" if winner is None else "1-0" if winner == rules.sides[0] else "0-1"
    tags.append(("Result", result))
    comments = ("a game from the corpus",) if rng.random() < 0.2 else ()
    main = Line(tuple(nodes), comments)
    return Record(tuple(Tag(k, v) for k, v in tags), spec.name, main, result, index=index)


def corpus_archive(game: str, board: int, games: int, seed: int, max_plies: int = 150) -> str:
    """``games`` records of ``game`` from ``seed``, as the text of an archive."""
    rng = random.Random(f"{seed}:{game}:{board}")
    records = [corpus_game(game, board, rng, i + 1, max_plies) for i in range(games)]
    return format_archive(records)


def write_corpus(folder: str, games: int, seed: int, max_plies: int = 150) -> list[str]:
    """Write the five archives into ``folder``; their paths. An existing
    file is left alone (FileExistsError before anything is written)."""
    paths = [os.path.join(folder, name) for _, _, name in ARCHIVES]
    taken = [path for path in paths if os.path.exists(path)]
    if taken:
        raise FileExistsError(f"{taken[0]}: already exists, not overwritten")
    os.makedirs(folder, exist_ok=True)
    for (game, board, _), path in zip(ARCHIVES, paths):
        with open(path, "x", encoding="utf-8") as handle:
            handle.write(corpus_archive(game, board, games, seed, max_plies))
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", help="where the archives are written")
    parser.add_argument("--games", type=int, default=200, help="games per archive")
    parser.add_argument("--seed", type=int, default=1, help="the same seed, the same archives")
    parser.add_argument("--max-plies", type=int, default=150, help="plies of a main line, at most")
    args = parser.parse_args(argv)
    try:
        for path in write_corpus(args.folder, args.games, args.seed, args.max_plies):
            print(path)
    except FileExistsError as error:
        print(f"make_corpus: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
