"""The engine against a second, independent implementation of rules.md.

``tests/reference`` holds plain, slow implementations of Hexalit/Trigeo and
Hüpfer written from rules.md alone. This file first proves them on the
move counts of rules.md §7, then walks seeded random games, from the
standard starts and from many random set-up positions, and asks at every
ply that both agree on the set of legal actions and, for every legal
action, on the position it leads to, the winner, the end ply and the mark
the action must carry. Random wrong actions and cube events must be refused
(or allowed) by both alike. Finally a few records are replayed to check
what a checker reports. Everything is seeded, so a failure repeats.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from hexhop.engine.hexalit import HEXALIT
from hexhop.engine.huepfer import HUEPFER
from hexhop.engine.replay import replay_game
from hexhop.engine.trigeo import TRIGEO
from hexhop.notation import parse_action, parse_text
from hexhop.notation.model import CubeAnswer, CubeOffer

sys.path.insert(0, str(Path(__file__).parent / "reference"))
import dice_reference as DR  # noqa: E402
import huepfer_reference as HR  # noqa: E402

RULES = {"Hexalit": HEXALIT, "Trigeo": TRIGEO}
SIDE = {"N": "North", "S": "South", "R": "Red", "T": "Turquoise", None: None}

MID_HEXALIT = ("N: A4=5 A5=4 A6=3 A7=1 A8=4 A10=5 B4=2 B5=2 B6=2 B7=6 B8=2 B10=2 B12=3 C7=2 "
               "C10=2; S: D6=2 D8=4 D10=2 E3=4 E4=2 E5=2 E7=6 E9=2 E10=2 E11=3 F4=5 F6=3 F7=1 "
               "F9=5; turn: N")
MID_TRIGEO = ("N: A4=5 A6=3 A7=1 A8=4 B2=4 B5=2 B6=2 B7=6 B9=2 B10=2 B11=5 B12=3 C4=2 C8=2; "
              "S: C7=2 D6=2 D8=2 D11=6 E4=2 E5=2 E9=2 E10=2 E12=3 F4=5 F6=3 F7=1 F8=4 F9=5 "
              "F11=4; turn: S")
MID_HUEPFER = ("R: a2 a4 a5 b1 b3 b5 b6 b7 c2 c3 d1 d3 d7; T: e3 e4 e6 f1 f4 f7 g1 g2 g3 g5 g8 "
               "h2 h6 h7; reserve: 11/12; turn: R")


# --- the reference proves itself on rules.md §7 ---------------------------------------------

@pytest.mark.parametrize("game, text, counts", [
    ("Hexalit", None, (55, 3028, 168711)),
    ("Trigeo", None, (18, 322, 6829)),
    ("Hexalit", MID_HEXALIT, (59, 4060)),
    ("Trigeo", MID_TRIGEO, (39, 1098)),
])
def test_reference_dice_perft(game, text, counts):
    p = DR.start(game) if text is None else DR.parse(game, text)
    assert tuple(DR.perft(p, d) for d in range(1, len(counts) + 1)) == counts


@pytest.mark.parametrize("n, text, counts", [
    (6, None, (10, 100, 1158)),
    (8, None, (10, 100, 1180)),
    (8, MID_HUEPFER, (2, 22)),
])
def test_reference_huepfer_perft(n, text, counts):
    p = HR.start(n) if text is None else HR.parse(text, n)
    assert tuple(HR.perft(p, d) for d in range(1, len(counts) + 1)) == counts


def test_reference_huepfer_examples():
    assert sorted(HR.legal(HR.start(6))) == sorted(
        ["a1-c1@d1", "a1-c1@c2", "a1-a3@a4", "a1-a3@b3", "b1-b3@a3", "b1-b3@b4", "b1-b3@c3",
         "a2-c2@c1", "a2-c2@c3", "a2-c2@d2"])
    assert HR.legal(HR.parse("R: a1 a2; T: a4; reserve: 0/0")) == ["a1-a3xa5"]
    assert "c3-e3@e4" in HR.legal(HR.parse("R: c1 c3 d3; T: c2"))


# --- comparing one position ------------------------------------------------------------------

class Mismatch(AssertionError):
    pass


def expect(condition: bool, what: str, *context: object) -> None:
    if not condition:
        raise Mismatch(what + "\n  " + "\n  ".join(str(c) for c in context))


def dice_engine_position(ref: DR.Pos):
    tags = {"Position": ref.text(), "First": SIDE[ref.first]}
    return RULES[ref.game].start(tags, None)


def random_dice_action(rng: random.Random, ref: DR.Pos) -> str:
    """A random action text, mostly near the side's own dice so that it is often close."""
    own = [c for c, v in ref.board.items() if v[0] == ref.to_move]
    origin = rng.choice(own) if own and rng.random() < 0.8 else rng.choice(DR.CELLS + ["G1",
                                                                                       "A2"])
    kind = rng.random()
    if kind < 0.2:
        return f"{origin}W{rng.randint(1, 6)}"
    target = rng.choice(DR.CELLS + ["A1", "F12"])
    op = rng.choice("X°")
    promote = "=6" if rng.random() < 0.15 else ""
    return f"{origin}{op}{target}{promote}"


def compare_dice(ref: DR.Pos, eng, rng: random.Random, wrong: int = 4) -> list[str]:
    """Compare everything at one position; returns the legal actions."""
    rules = RULES[ref.game]
    where = f"{ref.game} position {ref.text()!r} (ply {ref.ply})"
    expect(eng.text() == ref.text(), "position text", where, eng.text())
    expect(eng.to_move == SIDE[ref.to_move], "side to move", where, eng.to_move)
    expect(eng.winner == SIDE[ref.winner] and eng.end_ply == ref.end_ply, "end of game", where,
           (eng.winner, eng.end_ply), (ref.winner, ref.end_ply))
    expected = DR.legal(ref)
    got = [str(a) for a in rules.legal_actions(eng)]
    expect(len(got) == len(set(got)), "an action generated twice", where, got)
    expect(set(got) == set(expected), "legal actions", where,
           f"engine only: {sorted(set(got) - set(expected))}",
           f"reference only: {sorted(set(expected) - set(got))}")
    for text in expected:
        action = parse_action(text, ref.game)
        expect(rules.check(eng, action) is None, "check refuses a legal action", where, text)
        played = rules.play(eng, action)
        after, mark = DR.play(ref, text)
        pe = played.position
        expect(pe.text() == after.text(), "position after the action", where, text,
               f"engine:    {pe.text()}", f"reference: {after.text()}")
        expect((pe.winner, pe.end_ply, pe.ply) == (SIDE[after.winner], after.end_ply, after.ply),
               "end after the action", where, text, (pe.winner, pe.end_ply, pe.ply),
               (after.winner, after.end_ply, after.ply))
        expect(played.mark == mark, "mark", where, text, f"engine {played.mark!r}",
               f"reference {mark!r}")
    legal_set = set(expected)
    for _ in range(wrong):
        text = random_dice_action(rng, ref)
        if text in legal_set:
            continue
        try:
            action = parse_action(text, ref.game)
        except Exception:
            continue
        expect(rules.check(eng, action) is not None, "check allows an illegal action", where,
               text)
    if ref.game == "Hexalit":
        compare_cube(ref, eng, where)
    return expected


def compare_cube(ref: DR.Pos, eng, where: str) -> None:
    for value in (None, 2, 4, 8, 16, 32, 64, 128, 3):
        offer = CubeOffer(value)
        allowed = HEXALIT.check(eng, offer) is None
        expect(allowed == DR.can_offer(ref, value), "cube offer", where, str(offer),
               f"engine allows: {allowed}")
    for take in (True, False):
        answer = CubeAnswer(take)
        allowed = HEXALIT.check(eng, answer) is None
        expect(allowed == DR.can_answer(ref), "cube answer without an offer", where,
               str(answer), f"engine allows: {allowed}")
    if not DR.can_offer(ref, None):
        return
    offered_eng = HEXALIT.play(eng, CubeOffer(None)).position
    offered_ref = DR.offer(ref)
    expect(offered_eng.ply == ref.ply and offered_eng.winner is None, "after an offer", where)
    for text in DR.legal(ref)[:2]:
        expect(HEXALIT.check(offered_eng, parse_action(text, "Hexalit")) is not None,
               "an action while an offer waits for its answer", where, text)
    expect(HEXALIT.check(offered_eng, CubeOffer(None)) is not None, "a second offer at once",
           where)
    for take in (True, False):
        answer = CubeAnswer(take)
        expect(HEXALIT.check(offered_eng, answer) is None, "answer refused", where, str(answer))
        pe = HEXALIT.play(offered_eng, answer).position
        pr = DR.answer(offered_ref, take)
        expect(pe.text() == pr.text(), "position after the answer", where, str(answer),
               pe.text(), pr.text())
        expect((pe.winner, pe.end_ply, pe.ply) == (SIDE[pr.winner], pr.end_ply, pr.ply),
               "end after the answer", where, str(answer), (pe.winner, pe.end_ply, pe.ply),
               (pr.winner, pr.end_ply, pr.ply))
        if take:
            again = HEXALIT.check(pe, CubeOffer(None)) is None
            expect(again == DR.can_offer(pr, None), "a second offer in one turn", where, again)
            expect(set(map(str, HEXALIT.legal_actions(pe))) == set(DR.legal(pr)),
                   "legal actions after a take", where)


def dice_playout(ref: DR.Pos, rng: random.Random, plies: int, cube_rate: float = 0.05) -> int:
    """Walk a random game, comparing at every ply; returns the plies walked."""
    eng = dice_engine_position(ref)
    expect(eng.winner == SIDE[ref.winner], "start of game", ref.text(), eng.winner, ref.winner)
    walked = 0
    while ref.winner is None and walked < plies:
        actions = compare_dice(ref, eng, rng)
        if ref.game == "Hexalit" and rng.random() < cube_rate and DR.can_offer(ref, None):
            eng = HEXALIT.play(HEXALIT.play(eng, CubeOffer(None)).position,
                               CubeAnswer(True)).position
            ref = DR.answer(DR.offer(ref), True)
        text = rng.choice(actions)
        eng = RULES[ref.game].play(eng, parse_action(text, ref.game)).position
        ref, _ = DR.play(ref, text)
        walked += 1
    compare_dice(ref, eng, rng)
    return walked


# --- random set-up positions -----------------------------------------------------------------

def random_dice_position(rng: random.Random, game: str) -> DR.Pos:
    board: dict = {}
    cells = DR.CELLS[:]
    rng.shuffle(cells)
    for side in ("N", "S"):
        count = rng.choice((1, 2, 3, rng.randint(2, 15), rng.randint(4, 15)))
        ones = rng.choice((0, 1, 1, 1, 2, 3)) if game == "Hexalit" else rng.choice((0, 1, 1, 1))
        for i in range(count):
            cell = cells.pop()
            if i < ones:
                face = 1
            else:
                face = rng.choice((1, 2, 2, 2, 3, 4, 5, 6)) if game == "Hexalit" else \
                    rng.choice((2, 2, 3, 4, 5, 6))
            home = None
            if game == "Hexalit" and rng.random() < 0.3:
                home = rng.choice((1, 2))
                if home == face:
                    face = rng.choice([f for f in range(1, 7) if f != home])
            board[cell] = (side, face, home)
    to_move = rng.choice("NS")
    first = rng.choice((to_move, "N", "S"))
    cube = rng.choice((None, None, 2, 4, 32, 64)) if game == "Hexalit" else None
    return DR.start_checks(DR.Pos(game, board, to_move, first, cube))


def attacked_one_position(rng: random.Random, game: str) -> DR.Pos:
    """A set-up position built around an attacked One (forced escapes, lost Ones)."""
    for _ in range(200):
        p = random_dice_position(rng, game)
        side = p.to_move
        mine = DR.ones(p.board, side)
        if not mine:
            continue
        target = rng.choice(mine)
        # put an enemy slider on a line through the One
        lines = [DR.ray(target, d) for d in DR.STEP]
        line = rng.choice([l for l in lines if l] or [[]])
        empty = [c for c in line[:4] if c not in p.board]
        if not empty or sum(v[0] != side for v in p.board.values()) >= 15:
            continue
        board = dict(p.board)
        board[rng.choice(empty)] = (DR.OTHER[side], rng.choice((3, 4, 5, 6)), None)
        q = DR.start_checks(DR.Pos(game, board, side, p.first, p.cube))
        if q.winner is None:
            return q
    return p


# --- Hüpfer --------------------------------------------------------------------------------

def huepfer_engine_position(ref: HR.Pos):
    return HUEPFER.start({"Position": ref.text(), "Board": f"{ref.n}x{ref.n}"}, None)


def random_hop_action(rng: random.Random, ref: HR.Pos) -> str:
    own = [p for p, s in ref.pieces.items() if s == ref.to_move] or ["a1"]
    path = [rng.choice(own)]
    text = path[0]
    for _ in range(rng.randint(1, 3)):
        f, r = HR.coords(path[-1])
        df, dr = rng.choice(HR.STEPS)
        nxt = HR.point(max(0, f + 2 * df), max(0, r + 2 * dr))
        text += rng.choice("-x") + nxt
        path.append(nxt)
    if rng.random() < 0.6:
        f, r = HR.coords(path[-1])
        df, dr = rng.choice(HR.STEPS)
        text += "@" + HR.point(max(0, f + df), max(0, r + dr))
    return text


def compare_huepfer(ref: HR.Pos, eng, rng: random.Random, wrong: int = 4) -> list[str]:
    where = f"Hüpfer {ref.n}x{ref.n} position {ref.text()!r} (ply {ref.ply})"
    expect(eng.text() == ref.text(), "position text", where, eng.text())
    expect((eng.winner, eng.end_ply) == (SIDE[ref.winner], ref.end_ply), "end of game", where,
           (eng.winner, eng.end_ply), (ref.winner, ref.end_ply))
    expected = HR.legal(ref)
    got = [str(a) for a in HUEPFER.legal_actions(eng)]
    expect(len(got) == len(set(got)) and len(expected) == len(set(expected)),
           "a turn generated twice", where)
    expect(set(got) == set(expected), "legal turns", where,
           f"engine only: {sorted(set(got) - set(expected))}",
           f"reference only: {sorted(set(expected) - set(got))}")
    for text in expected:
        action = parse_action(text, "Hüpfer")
        expect(HUEPFER.check(eng, action) is None, "check refuses a legal turn", where, text)
        played = HUEPFER.play(eng, action)
        after = HR.play(ref, text)
        pe = played.position
        expect(pe.text() == after.text(), "position after the turn", where, text, pe.text(),
               after.text())
        expect((pe.winner, pe.end_ply, pe.ply) == (SIDE[after.winner], after.end_ply, after.ply),
               "end after the turn", where, text)
        expect(played.mark == "", "a Hüpfer mark", where, text, played.mark)
    legal_set = set(expected)
    for _ in range(wrong):
        text = random_hop_action(rng, ref)
        if text in legal_set:
            continue
        try:
            action = parse_action(text, "Hüpfer")
        except Exception:
            continue
        expect(HUEPFER.check(eng, action) is not None, "check allows an illegal turn", where,
               text)
    for item in (CubeOffer(None), CubeAnswer(True)):
        expect(HUEPFER.check(eng, item) is not None, "a cube event in Hüpfer", where)
    return expected


def huepfer_playout(ref: HR.Pos, rng: random.Random, plies: int) -> int:
    eng = huepfer_engine_position(ref)
    walked = 0
    while ref.winner is None and walked < plies:
        turns = compare_huepfer(ref, eng, rng)
        text = rng.choice(turns)
        eng = HUEPFER.play(eng, parse_action(text, "Hüpfer")).position
        ref = HR.play(ref, text)
        walked += 1
    compare_huepfer(ref, eng, rng)
    return walked


def random_huepfer_position(rng: random.Random) -> HR.Pos:
    n = rng.choice((6, 6, 8, 10))
    points = [HR.point(f, r) for f in range(n) for r in range(n)]
    rng.shuffle(points)
    density = rng.choice((0.15, 0.3, 0.5, 0.7))
    pieces = {}
    for side in ("R", "T"):
        for _ in range(rng.randint(0, int(n * n * density / 2))):
            pieces[points.pop()] = side
    reserve = {s: rng.choice((0, 0, 1, 2, 5, 12)) for s in "RT"}
    return HR.start_checks(HR.Pos(n, pieces, reserve, rng.choice("RT")))


# --- the random walks ------------------------------------------------------------------------

@pytest.mark.parametrize("game, seed, games, plies", [
    ("Hexalit", 1, 6, 90),
    ("Trigeo", 2, 8, 90),
])
def test_standard_start_playouts(game, seed, games, plies):
    rng = random.Random(seed)
    walked = 0
    for _ in range(games):
        first = rng.choice("NS")
        walked += dice_playout(DR.start_checks(DR.start(game, first)), rng, plies)
    assert walked > games * 20


@pytest.mark.parametrize("game, seed, count, plies", [
    ("Hexalit", 11, 220, 10),
    ("Trigeo", 12, 220, 10),
])
def test_random_position_playouts(game, seed, count, plies):
    rng = random.Random(seed)
    for i in range(count):
        start = attacked_one_position(rng, game) if i % 2 else random_dice_position(rng, game)
        dice_playout(start, rng, plies, cube_rate=0.2)


@pytest.mark.parametrize("n, seed, games", [(6, 21, 12), (8, 22, 6), (10, 23, 3)])
def test_huepfer_start_playouts(n, seed, games):
    rng = random.Random(seed)
    for _ in range(games):
        reserve = rng.choice((None, (3, 3), (0, 5), (1, 0)))
        huepfer_playout(HR.start_checks(HR.start(n, reserve)), rng, 150)


def test_huepfer_random_position_playouts():
    rng = random.Random(31)
    for _ in range(400):
        huepfer_playout(random_huepfer_position(rng), rng, 12)
