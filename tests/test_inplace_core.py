"""The in-place core against the immutable positions and, for Hexalit and
Trigeo (whose rules are the board itself), against the independent
implementation of tests/reference/dice_reference.py; and the solver built
on it against the solver that searched immutable positions
(tests/reference/solver_reference.py).

Random legal games (engine/generate.py) are replayed both ways: after
every push and after every pop the board must stand for the same position
(converted back to the immutable value and compared, with its ply, winner
and end), have the same legal actions, and carry the Zobrist key that
``position_key`` computes from scratch. The positions are the boards' own
snapshots, so a board is compared with the independent implementation:
a dice board with the reference's position at the same ply (text, end,
legal actions, the One rule's state and the mark of the action that led
there, tests/reference/dice_reference.py), a Hüpfer board with
tests/reference/huepfer_reference.py (legal turns, captures, the end and
the position after each turn).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from hexhop.engine.base import Illegal
from hexhop.engine.dice.board import attacked_cells, escapes
from hexhop.engine.dice.inplace import DiceBoard
from hexhop.engine.dice.rules import DicePosition
from hexhop.engine.games import rules_for
from hexhop.engine.generate import random_game
from hexhop.engine.huepfer.inplace import HopBoard
from hexhop.engine.solver import Solver
from hexhop.engine.zobrist import position_key
from hexhop.notation.model import Action, CubeAnswer, CubeOffer, DiceAction, HopAction

sys.path.insert(0, str(Path(__file__).parent / "reference"))
import dice_reference as DR  # noqa: E402
import huepfer_reference as HR  # noqa: E402
from solver_reference import Solver as ReferenceSolver  # noqa: E402

SIDE = {"N": "North", "S": "South", None: None}

GAMES = [("Hexalit", 6), ("Trigeo", 6), ("Hüpfer", 6), ("Hüpfer", 8), ("Hüpfer", 10)]


def _same(board: DiceBoard | HopBoard, position: object, rules: object) -> None:
    """``board`` stands for ``position``: value, history, actions and key."""
    made = board.snapshot()
    assert made == position
    assert made.text() == position.text()  # type: ignore[attr-defined]
    assert made.ply == position.ply  # type: ignore[attr-defined]
    assert made.winner == position.winner  # type: ignore[attr-defined]
    assert made.end_ply == position.end_ply  # type: ignore[attr-defined]
    if isinstance(position, DicePosition):
        assert isinstance(made, DicePosition)
        for slot in ("_masks", "_forced", "_threat", "_rolled", "_side", "_first", "_cube"):
            assert getattr(made, slot) == getattr(position, slot), slot
    assert board.key == position_key(position)  # type: ignore[arg-type]
    if isinstance(board, HopBoard):
        _same_as_reference(board)
    legal = [str(a) for a in rules.legal_actions(position)]  # type: ignore[attr-defined]
    assert [str(board.action(m)) for m in board.moves()] == legal


def _reference(board: HopBoard) -> HR.Pos:
    """The reference's position of ``board`` (read from its text)."""
    return HR.parse(board.snapshot().text(), board.tables.size)


def _reference_captures(ref: HR.Pos, side: str) -> bool:
    other = HR.OTHER[side]
    return any(HR.jumps(ref, ref.pieces, q, other) for q, s in ref.pieces.items() if s == side)


def _same_as_reference(board: HopBoard) -> None:
    """``board``'s bit boards follow its cells, and its captures, legal
    turns and end are the independent implementation's."""
    cells = board.cells
    ref = _reference(board)
    for side, letter in ((1, "R"), (2, "T")):
        assert board._bits[side] == sum(1 << p for p, v in enumerate(cells) if v == side)
        assert board.can_capture(side) == _reference_captures(ref, letter)
    expected = sorted(HR.legal(ref))
    assert sorted(str(board.action(m)) for m in board.moves()) == expected, ref.text()
    assert board.winner == (0 if expected else 3 - board.me)


def _like_reference(board: DiceBoard, ref: DR.Pos, mark: str | None = None) -> None:
    """The dice ``board`` (settled) stands for the reference's ``ref``:
    text, side, end, the One rule's state, the cube, the legal actions
    (a set, each once) and the key; ``mark``: the reference's mark of the
    action just pushed."""
    made = board.snapshot()
    where = (ref.text(), made.text())
    assert made.text() == ref.text(), where
    assert board.to_move == SIDE[ref.to_move], where
    assert (made.winner, made.end_ply, made.ply) == (SIDE[ref.winner], ref.end_ply, ref.ply), where
    assert (made.offer, made._offered) == (ref.offer, ref.offered), where
    escapes = DR.forced_escapes(ref.game, ref.board, ref.to_move)
    assert made.forced_escape == bool(escapes), where
    _first_escape_as_the_list(board)
    enemy = DR.OTHER[ref.to_move]
    attacked = any(
        DR.attacks(ref.game, ref.board, enemy, x) for x in DR.ones(ref.board, ref.to_move)
    )
    assert made.one_attacked == attacked, where
    got = [str(board.action(m)) for m in board.moves()]
    legal = set(DR.legal(ref))
    assert len(got) == len(set(got)) and set(got) == legal, where
    for cell in (c for c, v in ref.board.items() if v[0] == ref.to_move):
        for face in range(1, 7):  # every roll: legal accepts exactly the reference's
            roll = DiceAction(cell, "roll", None, face)
            assert (board.legal(roll) is not None) == (str(roll) in legal), (where, str(roll))
    assert board.key == position_key(made)
    if mark is not None:
        assert board.required_mark() == mark, where
        assert board.threatened() == (board.to_move if attacked else None), where


def _first_escape_as_the_list(board: DiceBoard) -> None:
    """The way out a win's verdict asks for is the first of the escapes the
    board keeps, and trying them leaves the masks as they were."""
    side, jump, masks = board.side, board._jump, list(board.masks)
    threatened = attacked_cells(board.masks, masks[(side << 3) + 1], 3 - side, jump)
    every = escapes(board.board, board.masks, threatened, side, jump)
    assert escapes(board.board, board.masks, threatened, side, jump, first=True) == every[:1]
    assert board.masks == masks
    assert every == board.forced


def _reference_line(position: DicePosition, actions: list[Action]) -> list[tuple[DR.Pos, str]]:
    """The reference's positions along ``actions`` from the engine's start
    ``position`` (read back from its text), each with the mark of the action
    that led there."""
    ref = DR.parse(position.game, position.text(), position.first[0])
    line = [(DR.start_checks(ref), "")]
    for action in actions:
        line.append(DR.play(line[-1][0], str(action).rstrip("^+")))
    return line


def _positions(
    game: str, size: int, seed: int, plies: int
) -> tuple[object, list[object], list[Action]]:
    rules = rules_for(game)
    record = random_game(game, random.Random(seed), board=size, max_plies=plies, cube=False)
    position = rules.start(dict((t.name, t.value) for t in record.tags), None)
    positions = [position]
    actions = []
    for node in record.main.nodes:
        action = node.item
        actions.append(action)
        position = rules.apply(position, action).position
        positions.append(position)
    return rules, positions, actions


@pytest.mark.parametrize(("game", "size"), GAMES)
def test_push_and_pop_follow_the_immutable_positions(game: str, size: int) -> None:
    plies = 0
    for seed in range(4):
        rules, positions, actions = _positions(game, size, seed, 80)
        board = rules.board(positions[0])
        _same(board, positions[0], rules)
        dice = isinstance(board, DiceBoard)
        line = _reference_line(positions[0], actions) if dice else []  # type: ignore[arg-type]
        for n, action in enumerate(actions):
            move = board.move_of(action)  # type: ignore[arg-type]
            board.push(move)  # type: ignore[arg-type]
            if isinstance(board, DiceBoard):
                _like_reference(board, *line[n + 1])
            _same(board, positions[n + 1], rules)
            plies += 1
            # a side step: every other legal move pushed and popped again
            if n % 7 == 0:
                for other in board.moves()[:5]:
                    key = board.key
                    board.push(other)  # type: ignore[arg-type]
                    board.pop()
                    assert board.key == key
                _same(board, positions[n + 1], rules)
        for n in range(len(actions) - 1, -1, -1):
            board.pop()
            if isinstance(board, DiceBoard):
                _like_reference(board, line[n][0])
            _same(board, positions[n], rules)
    assert plies >= 40


def _brute_wins_at_once(board: DiceBoard | HopBoard) -> bool:
    """Some choice wins with its action, every face of a roll: every choice played."""
    mover = board.mover
    for choice in board.choices():
        won = True
        for move in choice:
            board.push(move)  # type: ignore[arg-type]
            won = won and board.winner == mover
            board.pop()
        if won:
            return True
    return False


def _check_shortcut(game: str, size: int, seeds: range, plies: int) -> tuple[int, int]:
    checked = wins = 0
    for seed in seeds:
        rules, positions, _actions = _positions(game, size, 100 + seed, plies)
        for position in positions:
            board = rules.board(position)
            for reply in [None, *board.moves()[:: max(1, len(board.moves()) // 4)]]:
                if reply is not None:
                    board.push(reply)  # type: ignore[arg-type]
                if not board.winner:
                    solver = Solver(rules)
                    solver._start()
                    found = solver._wins_at_once(board, board.mover)
                    assert found == _brute_wins_at_once(board), board.snapshot().text()
                    checked += 1
                    wins += found
                if reply is not None:
                    board.pop()
    return checked, wins


@pytest.mark.parametrize(("game", "size"), GAMES)
def test_the_shortcut_to_a_win_at_once_misses_nothing(game: str, size: int) -> None:
    """win_candidates() leaves out only choices that do not win at once: on
    every position of random games and a few replies deeper, the solver's
    answer for depth 1 equals playing every choice."""
    plies = 40 if size == 10 else 120
    checked, wins = _check_shortcut(game, size, range(1), plies)
    assert checked >= 40
    if game != "Hüpfer":  # early Hüpfer positions seldom have a win at once
        assert wins >= 5


@pytest.mark.slow
@pytest.mark.parametrize(("game", "size"), GAMES)
def test_the_shortcut_misses_nothing_in_more_games(game: str, size: int) -> None:
    checked, wins = _check_shortcut(game, size, range(1, 9), 150)
    assert checked >= 500
    assert wins >= 10


def _compare_solvers(game: str, size: int, seeds: range, depths: tuple[int, ...], step: int) -> int:
    compared = 0
    for seed in seeds:
        rules, positions, actions = _positions(game, size, 200 + seed, 60)
        new, old = Solver(rules), ReferenceSolver(rules)
        for n in range(0, len(positions), step):
            position = positions[n]
            for depth in depths:
                mine, theirs = new.solve(position, depth), old.solve(position, depth)
                assert (mine.status, mine.depth, mine.first) == (
                    theirs.status,
                    theirs.depth,
                    theirs.first,
                ), (position.text(), depth)
                assert new.lost(position, depth) == old.lost(position, depth)
                if n < len(actions):
                    choice = (actions[n],)
                    assert new.wins_with(position, choice, depth) == old.wins_with(
                        position, choice, depth
                    )
                compared += 1
        assert new.winning_choices(positions[-1], 2) == old.winning_choices(positions[-1], 2)
    return compared


@pytest.mark.parametrize(("game", "size"), GAMES)
def test_the_solver_answers_as_the_solver_on_immutable_positions(game: str, size: int) -> None:
    """Status, depth and first choice, ``lost`` and ``wins_with`` equal the
    old solver's on positions of random games (node counts differ: the
    in-place search plays fewer actions, see docs/analysis.md)."""
    step = 12 if size == 10 else 6
    assert _compare_solvers(game, size, range(1), (1, 2), step) >= 6


@pytest.mark.slow
@pytest.mark.parametrize(("game", "size"), GAMES)
def test_the_solver_answers_as_the_old_one_at_depth_3(game: str, size: int) -> None:
    assert _compare_solvers(game, size, range(1, 4), (1, 2, 3), 4) >= 30


# -- the replay's calls: legal, required_mark, cube_event, push(move, False) ----


def _candidates(
    rng: random.Random, rules: object, position: DicePosition, legal: list[DiceAction]
) -> list[object]:
    """The legal actions and cube events, and as many wrong ones: other
    cells, the wrong operator, rolls to any face, promotions, cube events
    out of turn or with the wrong value."""
    from hexhop.engine.dice.geometry import CELLS

    cells = list(CELLS) + ["A0", "K99"]
    found: list[object] = list(legal)
    for _ in range(len(legal) + 8):
        action = rng.choice(legal) if legal else DiceAction("A1", "move", "A2")
        origin = rng.choice(cells) if rng.random() < 0.3 else action.origin
        kind = rng.choice(["move", "capture", "roll"])
        if kind == "roll":
            found.append(DiceAction(origin, "roll", None, rng.randint(0, 7)))
        else:
            target = rng.choice(cells) if rng.random() < 0.7 else action.target
            found.append(DiceAction(origin, kind, target, None, rng.choice([None, None, 6, 2])))
    found += [CubeOffer(), CubeOffer(2), CubeOffer(4), CubeAnswer(True), CubeAnswer(False)]
    return found


def _reference_allows(ref: DR.Pos, item: object) -> bool:
    if isinstance(item, CubeOffer):
        return DR.can_offer(ref, item.value)
    if isinstance(item, CubeAnswer):
        return DR.can_answer(ref)
    return str(item) in DR.legal(ref)


def _reference_after(ref: DR.Pos, item: object) -> tuple[DR.Pos, str]:
    if isinstance(item, CubeOffer):
        return DR.offer(ref), ""
    if isinstance(item, CubeAnswer):
        return DR.answer(ref, item.take), ""
    return DR.play(ref, str(item).rstrip("^+"))


@pytest.mark.parametrize(("game", "seed"), [("Hexalit", 1), ("Hexalit", 2), ("Trigeo", 3)])
def test_the_replays_calls_answer_as_the_reference(game: str, seed: int) -> None:
    """``legal`` accepts exactly what the reference implementation accepts
    (the move is the action's) and ``problem`` refuses exactly the rest,
    ``required_mark`` is the reference's mark, ``cube_event`` plays what the
    reference allows as it plays it, and a board played with
    ``push(move, False)`` and settled stands for the reference's positions."""
    rules = rules_for(game)
    rng = random.Random(seed)
    record = random_game(game, rng, board=6, max_plies=30, cube=True)
    position = rules.start(dict((t.name, t.value) for t in record.tags), None)
    assert isinstance(position, DicePosition)
    ref = _reference_line(position, [])[0][0]
    replay = DiceBoard(rules, position)  # type: ignore[arg-type]
    asked = accepted = cubes = 0
    for node in record.main.nodes:
        legal = [a for a in rules.legal_actions(position)]  # type: ignore[attr-defined]
        for item in _candidates(rng, rules, position, legal):
            board = DiceBoard(rules, position)  # type: ignore[arg-type]
            allowed = _reference_allows(ref, item)
            assert (board.problem(item) is None) == allowed, (ref.text(), str(item))  # type: ignore[arg-type]
            asked += 1
            if isinstance(item, DiceAction):
                move = board.legal(item)
                assert (move is not None) == allowed, (ref.text(), str(item))
                if move is None:
                    continue
                accepted += 1
                assert move == board.move_of(item)
                board.push(move, False)
                board.settle()
                _like_reference(board, *_reference_after(ref, item))
            else:
                assert board.cube_event(item) is allowed, str(item)  # type: ignore[arg-type]
                if allowed:
                    cubes += 1
                    _like_reference(board, _reference_after(ref, item)[0])
        item = node.item
        if isinstance(item, DiceAction):
            replay.push(replay.legal(item) or board.move_of(item), False)
        else:
            replay.settle()
            assert replay.cube_event(item)  # type: ignore[arg-type]
        ref, mark = _reference_after(ref, item)
        replay.settle()
        _like_reference(replay, ref, mark if isinstance(item, DiceAction) else None)
        position = replay.snapshot()
    refused = asked - accepted - cubes
    assert accepted > 20 and refused > accepted // 2
    assert cubes > 0 if rules.doubling else cubes == 0  # type: ignore[attr-defined]


def _hop_candidates(rng: random.Random, board: HopBoard, legal: list[HopAction]) -> list[HopAction]:
    """The legal turns and more wrong ones: a step cut off or added, an
    operator turned, a birth moved, dropped or added, other points, a
    hop after a capture, points off the board."""
    names = list(board.tables.names) + ["z9", "a0"]
    found = list(legal)
    for _ in range(2 * len(legal) + 8):
        turn = rng.choice(legal) if legal else HopAction(("a1", "a3"), ("-",), "b3")
        path, ops, birth = list(turn.path), list(turn.ops), turn.birth
        change = rng.randrange(7)
        if change == 0 and len(ops) > 1:
            path.pop()
            ops.pop()
        elif change == 1:
            path.append(rng.choice(names))
            ops.append(rng.choice("-x"))
        elif change == 2:
            i = rng.randrange(len(ops))
            ops[i] = "x" if ops[i] == "-" else "-"
        elif change == 3:
            birth = rng.choice([None, rng.choice(names)])
        elif change == 4:
            path[rng.randrange(len(path))] = rng.choice(names)
        elif change == 5:
            ops = sorted(ops, reverse=True)  # the captures first
        found.append(HopAction(tuple(path), tuple(ops), birth))
    return found


@pytest.mark.parametrize(("size", "seed"), [(6, 1), (6, 5), (8, 2), (10, 3)])
def test_the_hop_boards_legal_answers_as_the_reference(size: int, seed: int) -> None:
    """Hüpfer's ``legal`` accepts exactly the reference's legal turns, its
    turn is the action's, the board pushed with it stands for the
    reference's position after the turn and for ``apply``'s (Zobrist key
    included), and ``check`` agrees, with a reason for every refusal."""
    rules = rules_for("Hüpfer")
    rng = random.Random(seed)
    record = random_game("Hüpfer", rng, board=size, max_plies=60, cube=False)
    position = rules.start(dict((t.name, t.value) for t in record.tags), None)
    asked = accepted = 0
    for node in record.main.nodes:
        board = HopBoard(position)  # type: ignore[arg-type]
        ref = _reference(board)
        expected = set(HR.legal(ref))
        legal = list(rules.legal_actions(position))  # type: ignore[arg-type]
        for item in _hop_candidates(rng, board, legal):  # type: ignore[arg-type]
            asked += 1
            turn = board.legal(item)
            assert (turn is not None) == (str(item) in expected), (ref.text(), str(item))
            illegal = rules.check(position, item)  # type: ignore[arg-type]
            assert (illegal is None) == (turn is not None) and board.problem(item) == illegal
            if turn is None:
                continue
            accepted += 1
            assert turn == board.move_of(item)
            board.push(turn)
            after = HR.play(ref, str(item))
            assert board.snapshot().text() == after.text()
            assert board.winner == (0 if after.winner is None else 1 + (after.winner == "T"))
            _same(board, rules.apply(position, item).position, rules)  # type: ignore[arg-type]
            board.pop()
        position = rules.apply(position, node.item).position  # type: ignore[arg-type]
    assert accepted > 300 and asked - accepted > accepted // 3


def test_a_large_reserve_keeps_the_key() -> None:
    """A Reserve tag beyond the numbers a board keeps at hand (64): the key
    after each birth is still the position's."""
    rules = rules_for("Hüpfer")
    position = rules.start({"Game": "Hüpfer", "Reserve": "100"}, None)
    board = HopBoard(position)  # type: ignore[arg-type]
    births = 0
    for _ in range(12):
        action = next(iter(rules.legal_actions(position)))  # type: ignore[arg-type]
        births += action.birth is not None  # type: ignore[attr-defined]
        assert board.play(action)  # type: ignore[arg-type]
        position = rules.apply(position, action).position  # type: ignore[arg-type]
        assert board.key == position_key(position)  # type: ignore[arg-type]
    assert births >= 6 and board.reserve[0] < 100


@pytest.mark.parametrize(("size", "seed"), [(6, 7), (10, 8)])
def test_a_board_without_keys_plays_as_the_reference(size: int, seed: int) -> None:
    """``play(action, False)`` on a board without keys (the check's): it
    plays exactly the reference's legal turns, and the board then stands
    for the reference's position after the turn; a refused turn leaves the
    board as it was."""
    rules = rules_for("Hüpfer")
    rng = random.Random(seed)
    record = random_game("Hüpfer", rng, board=size, max_plies=60, cube=False)
    position = rules.start(dict((t.name, t.value) for t in record.tags), None)
    played = refused = 0
    for node in record.main.nodes:
        legal = list(rules.legal_actions(position))  # type: ignore[arg-type]
        ref = _reference(HopBoard(position, False))  # type: ignore[arg-type]
        expected = set(HR.legal(ref))
        for item in _hop_candidates(rng, HopBoard(position), legal):  # type: ignore[arg-type]
            board = HopBoard(position, False)  # type: ignore[arg-type]
            ok = board.play(item, False)  # type: ignore[arg-type]
            assert ok == (str(item) in expected), str(item)
            if ok:
                played += 1
                assert board.snapshot().text() == HR.play(ref, str(item)).text()
            else:
                refused += 1
                assert board.snapshot() == position and board.ply == position.ply  # type: ignore[attr-defined]
            _same_as_reference(board)
        position = rules.apply(position, node.item).position  # type: ignore[arg-type]
    assert played > 100 and refused > 100


def test_the_hop_board_answers_the_replays_calls() -> None:
    """``rules.board`` stands at the position (its key the position's);
    Hüpfer has no marks, no One and no cube; ``problem`` words a refusal
    as ``check`` does; ``copy`` and ``snapshot`` are independent of the
    board; the end found at ply 0 has its ply (§8.10)."""
    rules = rules_for("Hüpfer")
    start = rules.start({"Board": "6x6"}, None)
    board = rules.board(start)  # type: ignore[attr-defined]
    assert board.key == position_key(start) and (board.ply, board.to_move) == (0, "Red")
    turn = board.legal(HopAction(("A1", "C1"), ("-",), "D1"))  # points in any case
    assert turn is not None and board.action(turn) == HopAction(("a1", "c1"), ("-",), "d1")
    board.push(turn, False)
    assert (board.required_mark(), board.threatened()) == ("", None)
    assert not board.cube_event(CubeOffer()) and board.ply == 1
    assert board.problem(CubeOffer()) == Illegal("IL03", "there is no doubling cube in Hüpfer")
    off = board.problem(HopAction(("f6", "f8"), ("-",), "e8"))
    assert off is not None and (off.code, off.cell) == ("IL02", "f8")
    assert off.reason.startswith("f8 is not on the 6x6 board (files a-f, ranks 1-6); ")
    twin = board.copy()
    snap = board.snapshot()
    board.pop()
    assert twin.ply == 1 and snap.ply == 1 and board.ply == 0
    assert twin.snapshot() == snap and twin.key == position_key(snap)
    assert snap == rules.apply(start, "a1-c1@d1").position
    stuck = rules.board(rules.start({"Reserve": "0/12"}, None))  # type: ignore[attr-defined]
    stuck.settle()
    assert (stuck.winner, stuck.end_ply, stuck.moves()) == (2, 0, [])
    over = stuck.problem(HopAction(("a1", "c1"), ("-",), "d1"))
    assert over == Illegal("IL01", "the game is over: Turquoise won at ply 0")
