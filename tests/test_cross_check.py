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

from hexhop.engine.dice.hexalit import HEXALIT
from hexhop.engine.dice.trigeo import TRIGEO
from hexhop.engine.huepfer.rules import HUEPFER
from hexhop.engine.replay import replay_game
from hexhop.notation import parse_action, parse_text
from hexhop.notation.model import CubeAnswer, CubeOffer, DiceAction

sys.path.insert(0, str(Path(__file__).parent / "reference"))
import dice_reference as DR  # noqa: E402
import huepfer_reference as HR  # noqa: E402

RULES = {"Hexalit": HEXALIT, "Trigeo": TRIGEO}
SIDE = {"N": "North", "S": "South", "R": "Red", "T": "Turquoise", None: None}

MID_HEXALIT = (
    "N: A4=5 A5=4 A6=3 A7=1 A8=4 A10=5 B4=2 B5=2 B6=2 B7=6 B8=2 B10=2 B12=3 C7=2 "
    "C10=2; S: D6=2 D8=4 D10=2 E3=4 E4=2 E5=2 E7=6 E9=2 E10=2 E11=3 F4=5 F6=3 F7=1 "
    "F9=5; turn: N"
)
MID_TRIGEO = (
    "N: A4=5 A6=3 A7=1 A8=4 B2=4 B5=2 B6=2 B7=6 B9=2 B10=2 B11=5 B12=3 C4=2 C8=2; "
    "S: C7=2 D6=2 D8=2 D11=6 E4=2 E5=2 E9=2 E10=2 E12=3 F4=5 F6=3 F7=1 F8=4 F9=5 "
    "F11=4; turn: S"
)
MID_HUEPFER = (
    "R: a2 a4 a5 b1 b3 b5 b6 b7 c2 c3 d1 d3 d7; T: e3 e4 e6 f1 f4 f7 g1 g2 g3 g5 g8 "
    "h2 h6 h7; reserve: 11/12; turn: R"
)


# --- the reference proves itself on rules.md §7 ---------------------------------------------


@pytest.mark.parametrize(
    "game, text, counts",
    [
        pytest.param("Hexalit", None, (55, 3028, 168711), marks=pytest.mark.slow),
        ("Trigeo", None, (18, 322, 6829)),
        ("Hexalit", MID_HEXALIT, (59, 4060)),
        ("Trigeo", MID_TRIGEO, (39, 1098)),
    ],
)
def test_reference_dice_perft(game, text, counts):
    p = DR.start(game) if text is None else DR.parse(game, text)
    assert tuple(DR.perft(p, d) for d in range(1, len(counts) + 1)) == counts


@pytest.mark.parametrize(
    "n, text, counts",
    [
        (6, None, (10, 100, 1158)),
        (8, None, (10, 100, 1180)),
        (8, MID_HUEPFER, (2, 22)),
    ],
)
def test_reference_huepfer_perft(n, text, counts):
    p = HR.start(n) if text is None else HR.parse(text, n)
    assert tuple(HR.perft(p, d) for d in range(1, len(counts) + 1)) == counts


def test_reference_huepfer_examples():
    assert sorted(HR.legal(HR.start(6))) == sorted(
        [
            "a1-c1@d1",
            "a1-c1@c2",
            "a1-a3@a4",
            "a1-a3@b3",
            "b1-b3@a3",
            "b1-b3@b4",
            "b1-b3@c3",
            "a2-c2@c1",
            "a2-c2@c3",
            "a2-c2@d2",
        ]
    )
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
    origin = rng.choice(own) if own and rng.random() < 0.8 else rng.choice(DR.CELLS + ["G1", "A2"])
    kind = rng.random()
    if kind < 0.2:
        return f"{origin}W{rng.randint(1, 6)}"
    target = rng.choice(DR.CELLS + ["A1", "F12"])
    op = rng.choice("X°")
    promote = "=6" if rng.random() < 0.15 else ""
    return f"{origin}{op}{target}{promote}"


def dice_action(text: str) -> DiceAction:
    origin, kind, target, face, promote = DR.parse_action(text)
    return DiceAction(origin, kind, target, face, promote)


def dice_near_misses(ref: DR.Pos, legal: list[str], rng: random.Random, sweep: bool) -> list[str]:
    """Actions close to the legal ones: every roll of every die of the side to move, the
    other operator and a promotion on every move, and (with ``sweep``) every target cell
    for a few of its dice."""
    own = [c for c, v in ref.board.items() if v[0] == ref.to_move]
    out = [f"{c}W{k}" for c in own for k in range(1, 7)]
    for text in legal:
        if "W" in text:
            continue
        out.append(text.replace("X", "#").replace("°", "X").replace("#", "°"))
        if "=" not in text:
            out.append(text + "=6")
        else:
            out.append(text.replace("=6", "=5"))
    if sweep:
        origins = rng.sample(sorted(ref.board), min(3, len(ref.board))) + [rng.choice(DR.CELLS)]
        out += [f"{o}{op}{t}" for o in origins for t in DR.CELLS for op in "X°"]
    return out


def compare_dice(
    ref: DR.Pos, eng, rng: random.Random, wrong: int = 4, sweep: bool = False
) -> list[str]:
    """Compare everything at one position; returns the legal actions."""
    rules = RULES[ref.game]
    where = f"{ref.game} position {ref.text()!r} (ply {ref.ply})"
    expect(eng.text() == ref.text(), "position text", where, eng.text())
    expect(eng.to_move == SIDE[ref.to_move], "side to move", where, eng.to_move)
    expect(
        eng.winner == SIDE[ref.winner] and eng.end_ply == ref.end_ply,
        "end of game",
        where,
        (eng.winner, eng.end_ply),
        (ref.winner, ref.end_ply),
    )
    expected = DR.legal(ref)
    got = [str(a) for a in rules.legal_actions(eng)]
    expect(len(got) == len(set(got)), "an action generated twice", where, got)
    expect(
        set(got) == set(expected),
        "legal actions",
        where,
        f"engine only: {sorted(set(got) - set(expected))}",
        f"reference only: {sorted(set(expected) - set(got))}",
    )
    for text in expected:
        action = parse_action(text, ref.game)
        expect(rules.check(eng, action) is None, "check refuses a legal action", where, text)
        played = rules.play(eng, action)
        after, mark = DR.play(ref, text)
        pe = played.position
        expect(
            pe.text() == after.text(),
            "position after the action",
            where,
            text,
            f"engine:    {pe.text()}",
            f"reference: {after.text()}",
        )
        expect(
            (pe.winner, pe.end_ply, pe.ply) == (SIDE[after.winner], after.end_ply, after.ply),
            "end after the action",
            where,
            text,
            (pe.winner, pe.end_ply, pe.ply),
            (after.winner, after.end_ply, after.ply),
        )
        expect(
            played.mark == mark,
            "mark",
            where,
            text,
            f"engine {played.mark!r}",
            f"reference {mark!r}",
        )
    legal_set = set(expected)
    candidates = [random_dice_action(rng, ref) for _ in range(wrong)]
    near = dice_near_misses(ref, expected, rng, sweep)
    candidates += near if sweep else rng.sample(near, min(len(near), 16))
    for text in candidates:
        action = dice_action(text)
        allowed = rules.check(eng, action) is None
        expect(
            allowed == (text in legal_set),
            "check and the legal actions differ",
            where,
            text,
            f"engine check allows: {allowed}",
        )
    if ref.game == "Hexalit":
        compare_cube(ref, eng, where)
    return expected


def compare_cube(ref: DR.Pos, eng, where: str) -> None:
    for value in (None, 2, 4, 8, 16, 32, 64, 128, 3):
        offer = CubeOffer(value)
        allowed = HEXALIT.check(eng, offer) is None
        expect(
            allowed == DR.can_offer(ref, value),
            "cube offer",
            where,
            str(offer),
            f"engine allows: {allowed}",
        )
    for take in (True, False):
        answer = CubeAnswer(take)
        allowed = HEXALIT.check(eng, answer) is None
        expect(
            allowed == DR.can_answer(ref),
            "cube answer without an offer",
            where,
            str(answer),
            f"engine allows: {allowed}",
        )
    if not DR.can_offer(ref, None):
        return
    offered_eng = HEXALIT.play(eng, CubeOffer(None)).position
    offered_ref = DR.offer(ref)
    expect(offered_eng.ply == ref.ply and offered_eng.winner is None, "after an offer", where)
    expect(
        len(HEXALIT.legal_actions(offered_eng)) == 0, "legal actions while an offer waits", where
    )
    for text in DR.legal(ref)[:2]:
        expect(
            HEXALIT.check(offered_eng, parse_action(text, "Hexalit")) is not None,
            "an action while an offer waits for its answer",
            where,
            text,
        )
    expect(HEXALIT.check(offered_eng, CubeOffer(None)) is not None, "a second offer at once", where)
    for take in (True, False):
        answer = CubeAnswer(take)
        expect(HEXALIT.check(offered_eng, answer) is None, "answer refused", where, str(answer))
        pe = HEXALIT.play(offered_eng, answer).position
        pr = DR.answer(offered_ref, take)
        expect(
            pe.text() == pr.text(),
            "position after the answer",
            where,
            str(answer),
            pe.text(),
            pr.text(),
        )
        expect(
            (pe.winner, pe.end_ply, pe.ply) == (SIDE[pr.winner], pr.end_ply, pr.ply),
            "end after the answer",
            where,
            str(answer),
            (pe.winner, pe.end_ply, pe.ply),
            (pr.winner, pr.end_ply, pr.ply),
        )
        if take:
            again = HEXALIT.check(pe, CubeOffer(None)) is None
            expect(again == DR.can_offer(pr, None), "a second offer in one turn", where, again)
            expect(
                set(map(str, HEXALIT.legal_actions(pe))) == set(DR.legal(pr)),
                "legal actions after a take",
                where,
            )


def dice_playout(ref: DR.Pos, rng: random.Random, plies: int, cube_rate: float = 0.05) -> int:
    """Walk a random game, comparing at every ply; returns the plies walked."""
    eng = dice_engine_position(ref)
    expect(eng.winner == SIDE[ref.winner], "start of game", ref.text(), eng.winner, ref.winner)
    walked = 0
    while ref.winner is None and walked < plies:
        actions = compare_dice(ref, eng, rng, sweep=walked % 8 == 0)
        if ref.game == "Hexalit" and rng.random() < cube_rate and DR.can_offer(ref, None):
            eng = HEXALIT.play(
                HEXALIT.play(eng, CubeOffer(None)).position, CubeAnswer(True)
            ).position
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
        ones = rng.choice((0, 1, 1, 1, 2, 3)) if game == "Hexalit" else rng.choice((0, 1, 1, 1, 2))
        for i in range(count):
            cell = cells.pop()
            if i < ones:
                face = 1
            else:
                face = (
                    rng.choice((1, 2, 2, 2, 3, 4, 5, 6))
                    if game == "Hexalit"
                    else rng.choice((2, 2, 3, 4, 5, 6))
                )
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
        line = rng.choice([ray for ray in lines if ray] or [[]])
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


def hop_near_misses(ref: HR.Pos, legal: list[str]) -> list[str]:
    """Turns close to the legal ones: cut short, with the other operator at each step,
    without or with another birth, and with a birth after a capture."""
    out = []
    for text in legal:
        body, _, birth = text.partition("@")
        points = body.replace("x", "-").split("-")
        ops = [ch for ch in body if ch in "-x"]
        last = points[-1]
        f, r = HR.coords(last)
        around = [HR.point(f + df, r + dr) for df, dr in HR.STEPS if ref.on(f + df, r + dr)]
        if birth:
            out.append(body)
            out += [body + "@" + p for p in around + [points[0], last]]
        else:
            out += [body + "@" + p for p in around[:2]]
        for i in range(len(ops)):
            swapped = ops[:i] + ["x" if ops[i] == "-" else "-"] + ops[i + 1 :]
            out.append(
                points[0]
                + "".join(o + p for o, p in zip(swapped, points[1:], strict=False))
                + ("@" + birth if birth else "")
            )
        for cut in range(1, len(ops)):
            steps = zip(ops[:cut], points[1 : cut + 1], strict=False)
            prefix = points[0] + "".join(o + p for o, p in steps)
            out.append(prefix)
            g, s = HR.coords(points[cut])
            out += [
                prefix + "@" + HR.point(g + df, s + dr)
                for df, dr in HR.STEPS
                if ref.on(g + df, s + dr)
            ]
    return out


def compare_huepfer(ref: HR.Pos, eng, rng: random.Random, wrong: int = 4) -> list[str]:
    where = f"Hüpfer {ref.n}x{ref.n} position {ref.text()!r} (ply {ref.ply})"
    expect(eng.text() == ref.text(), "position text", where, eng.text())
    expect(
        (eng.winner, eng.end_ply) == (SIDE[ref.winner], ref.end_ply),
        "end of game",
        where,
        (eng.winner, eng.end_ply),
        (ref.winner, ref.end_ply),
    )
    expected = HR.legal(ref)
    got = [str(a) for a in HUEPFER.legal_actions(eng)]
    expect(
        len(got) == len(set(got)) and len(expected) == len(set(expected)),
        "a turn generated twice",
        where,
    )
    expect(
        set(got) == set(expected),
        "legal turns",
        where,
        f"engine only: {sorted(set(got) - set(expected))}",
        f"reference only: {sorted(set(expected) - set(got))}",
    )
    for text in expected:
        action = parse_action(text, "Hüpfer")
        expect(HUEPFER.check(eng, action) is None, "check refuses a legal turn", where, text)
        played = HUEPFER.play(eng, action)
        after = HR.play(ref, text)
        pe = played.position
        expect(
            pe.text() == after.text(),
            "position after the turn",
            where,
            text,
            pe.text(),
            after.text(),
        )
        expect(
            (pe.winner, pe.end_ply, pe.ply) == (SIDE[after.winner], after.end_ply, after.ply),
            "end after the turn",
            where,
            text,
        )
        expect(played.mark == "", "a Hüpfer mark", where, text, played.mark)
    legal_set = set(expected)
    candidates = [random_hop_action(rng, ref) for _ in range(wrong)]
    near = hop_near_misses(ref, expected)
    candidates += rng.sample(near, min(len(near), 24))
    for text in candidates:
        try:
            action = parse_action(text, "Hüpfer")
        except Exception:
            continue
        allowed = HUEPFER.check(eng, action) is None
        expect(
            allowed == (text in legal_set),
            "check and the legal turns differ",
            where,
            text,
            f"engine check allows: {allowed}",
        )
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


@pytest.mark.slow
@pytest.mark.parametrize(
    "game, seed, games, plies",
    [
        ("Hexalit", 1, 6, 90),
        ("Trigeo", 2, 8, 90),
    ],
)
def test_standard_start_playouts(game, seed, games, plies):
    rng = random.Random(seed)
    walked = 0
    for _ in range(games):
        first = rng.choice("NS")
        walked += dice_playout(DR.start_checks(DR.start(game, first)), rng, plies)
    assert walked > games * 20


@pytest.mark.slow
@pytest.mark.parametrize(
    "game, seed, count, plies",
    [
        ("Hexalit", 11, 220, 10),
        ("Trigeo", 12, 220, 10),
    ],
)
def test_random_position_playouts(game, seed, count, plies):
    rng = random.Random(seed)
    for i in range(count):
        start = attacked_one_position(rng, game) if i % 2 else random_dice_position(rng, game)
        dice_playout(start, rng, plies, cube_rate=0.2)


@pytest.mark.slow
@pytest.mark.parametrize("n, seed, games", [(6, 21, 40), (8, 22, 12), (10, 23, 5)])
def test_huepfer_start_playouts(n, seed, games):
    rng = random.Random(seed)
    walked = 0
    for _ in range(games):
        reserve = rng.choice((None, None, None, (3, 3), (0, 5), (1, 0)))
        walked += huepfer_playout(HR.start_checks(HR.start(n, reserve)), rng, 300)
    assert walked > games * 10


@pytest.mark.slow
def test_huepfer_random_position_playouts():
    rng = random.Random(31)
    for _ in range(400):
        huepfer_playout(random_huepfer_position(rng), rng, 12)


# --- whole records: what the checker reports -------------------------------------------------

MARK_CODES = {
    ("", "^"): "AN01",
    ("", "+"): "AN02",
    ("^", ""): "AN03",
    ("+", ""): "AN04",
    ("^", "+"): "AN06",
    ("+", "^"): "AN07",
}
RESULT_OF = {"N": "1-0", "S": "0-1", "R": "1-0", "T": "0-1"}


def replay_codes(text: str) -> list[tuple[str, int | None]]:
    (parsed,) = parse_text(text)
    report = replay_game(parsed)
    return sorted(((f.code, f.ply) for f in report.findings), key=str), report


def finish_record(rng, lines, expected, ref, extra_action):
    """Append an action after the end (ST01) or not, and a result; the expected findings."""
    if ref.winner is not None and extra_action and rng.random() < 0.3:
        lines.append(extra_action)
        expected.append(("ST01", ref.ply + 1))
    result = rng.choice(("1-0", "0-1", "*", None))
    if ref.winner is not None and not any(code == "ST01" for code, _ in expected):
        if result in (None, "*"):
            expected.append(("NT02", None))
        elif result != RESULT_OF[ref.winner]:
            expected.append(("ST02", None))
    return " ".join(lines) + (" " + result if result else "")


def random_dice_record(rng: random.Random, game: str, custom: bool):
    """A random record walked by the reference, with some wrong marks, cube events and
    results; returns its text and the findings rules.md and notation.md call for."""
    if custom:
        ref = random_dice_position(rng, game)
        while ref.winner is not None:
            ref = random_dice_position(rng, game)
        tags = f'[Game "{game}"]\n[Position "{ref.text()}"]\n'
        if rng.random() < 0.5:
            tags += f'[First "{SIDE[ref.first]}"]\n'
        else:
            ref = DR.Pos(ref.game, ref.board, ref.to_move, ref.to_move, ref.cube)
    else:
        first = rng.choice("NS")
        ref = DR.start(game, first)
        tags = f'[Game "{game}"]\n'
        if first == "S" or rng.random() < 0.5:
            tags += f'[First "{SIDE[first]}"]\n'
    lines: list[str] = []
    expected: list[tuple[str, int | None]] = []
    last = None
    for _ in range(rng.randint(1, 40)):
        if ref.winner is not None:
            break
        ply = ref.ply + 1
        if ply % 2 == 1:
            lines.append(f"{(ply - 1) // 2 + 1}.")
        if game == "Hexalit" and rng.random() < 0.15:
            value = rng.choice((None, None, 2 if ref.cube is None else ref.cube * 2, 8))
            offer = "double" + (f" {value}" if value else "")
            if not DR.can_offer(ref, value):
                lines.append(offer + " take")
                expected.append(("IL03", ply))
                return tags + "\n" + " ".join(lines) + " *\n", expected
            take = rng.random() < 0.8
            lines.append(offer + (" take" if take else " drop"))
            ref = DR.answer(DR.offer(ref), take)
            if not take:
                break
        action = rng.choice(DR.legal(ref))
        ref, mark = DR.play(ref, action)
        written = mark if rng.random() < 0.7 else rng.choice(("", "^", "+"))
        if written != mark:
            expected.append((MARK_CODES[(written, mark)], ply))
        lines.append(action + written)
        last = action
    return tags + "\n" + finish_record(rng, lines, expected, ref, last) + "\n", expected


def random_huepfer_record(rng: random.Random):
    n = rng.choice((6, 8, 10))
    reserve = rng.choice((None, (3, 2), (0, 4)))
    ref = HR.start_checks(HR.start(n, reserve))
    tags = f'[Game "Hüpfer"]\n[Board "{n}x{n}"]\n'
    if reserve:
        tags += f'[Reserve "{reserve[0]}/{reserve[1]}"]\n'
    lines: list[str] = []
    expected: list[tuple[str, int | None]] = []
    last = None
    for _ in range(rng.randint(0, 40)):
        if ref.winner is not None:
            break
        ply = ref.ply + 1
        if ply % 2 == 1:
            lines.append(f"{(ply - 1) // 2 + 1}.")
        if rng.random() < 0.03:
            lines.append("double take")
            expected.append(("IL03", ply))
            return tags + "\n" + " ".join(lines) + " *\n", expected
        turn = rng.choice(HR.legal(ref))
        ref = HR.play(ref, turn)
        written = "" if rng.random() < 0.9 else rng.choice("^+")
        if written:
            expected.append(("AN05", ply))
        lines.append(turn + written)
        last = turn
    return tags + "\n" + finish_record(rng, lines, expected, ref, last) + "\n", expected


@pytest.mark.parametrize(
    "game, seed, count", [("Hexalit", 41, 50), ("Trigeo", 42, 40), ("Hüpfer", 43, 40)]
)
def test_random_records(game, seed, count):
    rng = random.Random(seed)
    for i in range(count):
        if game == "Hüpfer":
            text, expected = random_huepfer_record(rng)
        else:
            text, expected = random_dice_record(rng, game, custom=i % 2 == 1)
        got, _ = replay_codes(text)
        assert got == sorted(expected, key=str), text


HEX = '[Game "Hexalit"]\n'
STUDY = HEX + '[Position "N: A7=1 B7=6; S: F7=1 E6=2; turn: N"]\n'
STUCK = (
    '[Game "Trigeo"]\n[Position "N: F3=1 F4=2 F5=2 F6=2 E2=2 E3=2 E4=2 E5=2 D10=2; '
    'S: A11=1 B10=6; turn: S"]\n'
)


@pytest.mark.parametrize(
    "text, codes, end",
    [
        # cube events are no plies; a problem with one is reported at the next ply (§8.8)
        (HEX + "1. double take B6XC6 E6XD6 2. double 4 take B5W3 *", [], None),
        (HEX + "1. B6XC6 double 2 take E6XD6 *", [("IL03", 2)], None),
        (HEX + "1. double 4 take B6XC6 *", [("IL03", 1)], None),
        (HEX + "1. double take double take B6XC6 *", [("IL03", 1)], None),
        (HEX + "1. take B6XC6 *", [("IL03", 1)], None),
        (HEX + "1. double B6XC6 *", [("IL03", 1)], None),
        # an adjourned game: valid, with a note at the offer (docs/rules.md)
        (HEX + "1. B6XC6 E8XD8 2. double *", [("NT05", 3)], None),
        (HEX + "1. B6XC6 E8XD8 2. double", [("NT05", 3)], None),
        # a decided result cannot follow an offer never answered
        (HEX + "1. B6XC6 E8XD8 2. double 1-0", [("ST03", 3)], None),
        (HEX + "1. E6XD6 double take B6XC6 *", [("IL03", 2)], None),  # South moved first
        (HEX + "1. E6XD6 B6XC6 2. double take E5XD5 *", [], None),
        (HEX + '[First "South"]\n1. double take E6XD6 *', [], None),
        # a dropped cube: the offering side wins, at the number of actions played (notation.md)
        (HEX + "1. B6XC6 E8XD8 2. double drop 1-0", [], ("North", 2)),
        (HEX + "1. B6XC6 E8XD8 2. double drop 0-1", [("ST02", None)], ("North", 2)),
        (HEX + "1. B6XC6 double 2 take", [("IL03", 2)], None),
        (HEX + "1. B6XC6 E8XD8 2. double drop B5W4 1-0", [("ST01", 3)], ("North", 2)),
        (HEX + "1. B6XC6 E8XD8 2. double drop take 1-0", [("ST01", 3)], ("North", 2)),
        # a custom start without First: the side to move there moved first (§8.8)
        (
            HEX + '[Position "N: A7=1 C7=2; S: F7=1 D6=2; turn: S"]\n1. double take D6XC6 *',
            [],
            None,
        ),
        (
            HEX + '[Position "N: A7=1 C7=2; S: F7=1 D6=2; turn: S"]\n[First "North"]\n'
            "1. double take D6XC6 *",
            [("IL03", 1)],
            None,
        ),
        # marks (§5, §8.14)
        (STUDY + "1. B7°F7+ 1-0", [], ("North", 1)),
        (STUDY + "1. B7°F7 1-0", [("AN02", 1)], ("North", 1)),
        (STUDY + "1. B7°F7^ 1-0", [("AN06", 1)], ("North", 1)),
        (STUDY + "1. B7XC7^ F7XF6 *", [], None),
        (STUDY + "1. B7XC7 F7XF6 *", [("AN01", 1)], None),
        (STUDY + "1. B7XC7+ F7XF6 *", [("AN07", 1)], None),
        (STUDY + "1. B7XB8^ F7XF6^ *", [("AN03", 1), ("AN03", 2)], None),
        (STUDY + "1. B7XB8+ *", [("AN04", 1)], None),
        (STUDY + "1. B7°F7+ *", [("NT02", None)], ("North", 1)),
        (STUDY + "1. B7°F7+", [("NT02", None)], ("North", 1)),
        (STUDY + "1. B7°F7+ E6XD6 1-0", [("ST01", 2)], ("North", 1)),
        (STUDY + "1. B7°F7+ double take 1-0", [("ST01", 2)], ("North", 1)),
        # no legal action: a win without '+' (§5.4, §8.9); at the start, at ply 0 (§8.10)
        (STUCK + "1. B10°D10 0-1", [], ("South", 1)),
        (STUCK + "1. B10°D10+ 0-1", [("AN04", 1)], ("South", 1)),
        (STUCK.replace("D10=2; ", "; ").replace("turn: S", "turn: N") + "0-1", [], ("South", 0)),
        (
            STUCK.replace("D10=2; ", "; ").replace("turn: S", "turn: N") + "1. F3XE3 0-1",
            [("ST01", 1)],
            ("South", 0),
        ),
        # a One already lost at a custom start is played on (§8.10)
        (
            HEX + '[Position "N: A3=1 A4=4 A5=4 B2=2 B4=2 B5=2; S: F3=5 F7=1; turn: N"]\n'
            "1. B5XC5 *",
            [],
            None,
        ),
        # Hüpfer: no marks, no cube, the end by no legal turn, Reserve and Position (§6, §8.15)
        ('[Game "Hüpfer"]\n1. a1-c1@d1^ *', [("AN05", 1)], None),
        ('[Game "Hüpfer"]\n1. double take a1-c1@d1 *', [("IL03", 1)], None),
        ('[Game "Hüpfer"]\n[Reserve "0"]\n0-1', [], ("Turquoise", 0)),
        ('[Game "Hüpfer"]\n[Reserve "0"]\n1-0', [("ST02", None)], ("Turquoise", 0)),
        (
            '[Game "Hüpfer"]\n[Reserve "0"]\n[Position "R: a1 a2; T: a4; reserve: 3/0"]\n'
            "1. a1-a3xa5 1-0",
            [],
            ("Red", 1),
        ),
        (
            '[Game "Hüpfer"]\n[Reserve "0"]\n[Position "R: a1 a2; T: a4 f6"]\n1. a1-a3xa5 1-0',
            [],
            ("Red", 1),
        ),
        (
            '[Game "Hüpfer"]\n[Reserve "0"]\n[Position "R: a1 a2; T: a4 e6 f6; reserve: 0/1"]\n'
            "1. a1-a3xa5 *",
            [],
            None,
        ),
        (
            '[Game "Hüpfer"]\n[Position "R: a1 a2; T: a4 f6; reserve: 0/0"]\n1. a1-a3@b3 *',
            [("IL01", 1)],
            None,
        ),
        (
            '[Game "Hüpfer"]\n[Position "R: a1 a2; T: a4 f6; reserve: 0/0"]\n1. a1-a3 *',
            [("IL01", 1)],
            None,
        ),
    ],
)
def test_records(text, codes, end):
    got, report = replay_codes(text)
    assert got == sorted(codes, key=str), text
    assert (report.end and (report.end.winner, report.end.ply)) == (end or None), text
