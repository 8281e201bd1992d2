"""The check path reads the main line and its variations in flat arrays and
replays them without node objects: its reports are the tree path's, finding for
finding (code, message, line:col, ply), with the same end, result, counts
and last position, on every sample, every broken sample and seeded random
games with errors put in. A large file is read a block at a time, never
held whole, and checks as its bytes do. The index reads games the same
way and keeps the same facts (every position's key, the actions)."""

from __future__ import annotations

import gzip
import pickle
import random
import re
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from hexhop.archive.facts import game_facts, spelled
from hexhop.engine.generate import random_archive
from hexhop.engine.replay import GameReport, replay_game
from hexhop.engine.zobrist import position_key
from hexhop.notation import accumulator, format_archive
from hexhop.notation.reader import (
    decode,
    fallback_game,
    game_chunks,
    parse_game,
    parse_game_flat,
    with_encoding_notice,
)
from hexhop.records import sources
from hexhop.records.checking import (
    CheckOptions,
    check_game,
    check_source,
    game_dict,
    replay_text,
)
from hexhop.records.jobs import streamed
from hexhop.records.sources import BLOCKS_FROM, iter_sources

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
CASES = [("Hexalit", 6, "hxl"), ("Trigeo", 6, "trg"), ("Hüpfer", 6, "hpf"), ("Hüpfer", 10, "hpf")]


def _tree(chunk: str, first_line: int, index: int, fallback: str | None, cp: bool) -> GameReport:
    parsed = parse_game(chunk, first_line, index, fallback)
    return replay_game(with_encoding_notice(parsed) if cp else parsed)


def _same(data: bytes, path: str, codes: set[str] | None = None) -> tuple[int, int]:
    """Every game of ``data`` checked both ways; (games, games read flat).
    The codes of the findings are added to ``codes``, if given."""
    text, cp = decode(data)
    fallback = fallback_game(path, None)
    games = flat = 0
    for index, first_line, chunk in game_chunks(text):
        games += 1
        flat += parse_game_flat(chunk, first_line, index, fallback) is not None
        fast = check_game(chunk, first_line, index, fallback, windows_1252=cp)
        tree = _tree(chunk, first_line, index, fallback, cp)
        where = f"{path} game {index}"
        assert fast.findings == tree.findings, where  # code, message, span, ply, action
        if codes is not None:
            codes.update(f.code for f in fast.findings)
        assert game_dict(fast, True) == game_dict(tree, True), where
        assert (fast.end, fast.result, fast.plies) == (tree.end, tree.result, tree.plies), where
        if tree.positions:
            last, start = fast.positions[-1], fast.positions[0]
            assert start == tree.positions[0] and start.ply == tree.positions[0].ply, where
            assert last == tree.positions[-1], where
            assert (last.ply, last.winner) == (tree.positions[-1].ply, tree.positions[-1].winner)
        else:
            assert not fast.positions, where
        # the index's facts: every position (and so every key) and the actions
        every, line = replay_text(chunk, first_line, index, fallback, windows_1252=cp, every=True)
        assert [(p, p.ply, p.winner) for p in every.positions] == [
            (p, p.ply, p.winner) for p in tree.positions
        ], where
        actions = None if line is None else spelled(line.texts, line.items, every.game)
        assert game_facts(every, False, first_line, 0, 1, actions) == game_facts(
            tree, False, first_line, 0, 1
        ), where
        # as the index reads it: the keys from the in-place board
        keyed, _line = replay_text(chunk, first_line, index, fallback, windows_1252=cp, keys=True)
        if keyed.keys is not None:
            assert keyed.keys == [position_key(p) for p in tree.positions], where
            assert keyed.findings == tree.findings, where
        assert game_facts(keyed, False, first_line, 0, 1, actions) == game_facts(
            tree, False, first_line, 0, 1
        ), where
    return games, flat


@pytest.mark.parametrize(
    "path", sorted(SAMPLES.glob("*/*.*")), ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_every_sample_gives_the_tree_paths_report(path: Path) -> None:
    games, _flat = _same(path.read_bytes(), str(path))
    assert games >= 1


def test_the_samples_are_read_flat_where_they_can_be() -> None:
    """Not vacuous: the well-formed games take the flat path."""
    read = {p.name: _same(p.read_bytes(), str(p)) for p in sorted(SAMPLES.glob("*/*.*"))}
    flat = sum(flat for _games, flat in read.values())
    hop = sum(flat for name, (_games, flat) in read.items() if name.endswith(".hpf"))
    assert read["header-bad-board.hpf"] == (1, 1)
    assert flat >= 15 and hop > 3
    assert read["illegal-hexalit-pawn-capture.hxl"] == (1, 1)
    assert read["annotation-missing-threat.hxl"] == (1, 1)
    assert read["result-contradicts-board.trg"] == (1, 1)
    assert read["syntax-stray-paren.trg"] == (1, 0)  # a syntax error: the tree explains
    assert read["syntax-unclosed-comment.hxl"][1] == 0
    assert sum(flat for _games, flat in read.values()) >= 10


def _archive(game: str, board: int, count: int, seed: int) -> str:
    return format_archive(random_archive(game, count, seed, board=board, max_plies=60))


@pytest.mark.parametrize(("game", "board", "suffix"), CASES)
def test_random_games_are_read_flat_and_agree(game: str, board: int, suffix: str) -> None:
    text = _archive(game, board, 6, 11)
    assert _same(text.encode(), f"random.{suffix}") == (6, 6)


_ACTION = {
    "hxl": re.compile(r"(?<![\w.])[A-F][0-9](?:X|°|W)[A-F0-9][0-9]?(?:=6)?[\^+]?"),
    "trg": re.compile(r"(?<![\w.])[A-K][0-9]{1,2}(?:X|°|W)[A-K0-9][0-9]{0,2}(?:=6)?[\^+]?"),
    "hpf": re.compile(r"(?<![\w.])[a-j][0-9]{1,2}(?:[-x@][a-j][0-9]{1,2})+[\^+]?"),
}


def _mutate(text: str, suffix: str, rng: random.Random) -> str:
    """``text`` with one error put in somewhere in its movetext (or none at all)."""
    head, _, moves = text.partition("\n\n")
    actions = list(_ACTION[suffix].finditer(moves))
    if not actions:
        return text
    hit = rng.choice(actions)
    a, b = hit.span()
    word = hit.group()
    kind = rng.randrange(14)
    if kind == 0:  # another action in its place
        other = rng.choice(actions).group()
        moves = moves[:a] + other + moves[b:]
    elif kind == 1:  # a mark dropped, or one added
        bare = word.rstrip("^+")
        moves = moves[:a] + (bare if bare != word else word + rng.choice("^+")) + moves[b:]
    elif kind == 2:  # a wrong move number
        moves = re.sub(r"\b(\d+)\.", lambda m: f"{int(m.group(1)) + 1}.", moves, count=1)
    elif kind == 3:  # an action left out
        moves = moves[:a] + moves[b:]
    elif kind == 4:  # a character no terminal reads
        moves = moves[:a] + "#" + moves[a:]
    elif kind == 5:  # a variation
        moves = moves[:b] + f" ({word}) " + moves[b:]
    elif kind == 6:  # comments, glyphs and a NAG
        moves = (
            moves[:b]
            + rng.choice([" {a note\nover two lines}", "!?", " $4", " ; to the end\n"])
            + moves[b:]
        )
    elif kind == 7:  # a glyph before any action, a number twice
        moves = rng.choice(["! ", "3. 4. "]) + moves
    elif kind == 8:  # the result changed, or text after it
        moves = moves.rstrip() + rng.choice([" 1-0 x", "", " {after}"])
        moves = re.sub(r"(1-0|0-1|\*)\s*$", rng.choice(["1-0", "0-1", "*", ""]), moves)
    elif kind == 9:  # a cell off the board
        moves = moves[:a] + word[0] + "9" + word[2:] + moves[b:]
    elif kind == 10:  # lines broken differently
        moves = moves.replace(" ", "\n", rng.randrange(1, 6))
    elif kind == 11:  # the game's actions doubled: moves after the end
        moves = moves + " " + moves
    elif kind == 12:  # a cube offer and answer
        moves = moves[:b] + rng.choice([" double 2 take", " double drop", " Doppler 4"]) + moves[b:]
    else:  # a move number without its action
        moves = moves[:b] + " 7." + moves[b:]
    return head + "\n\n" + moves


@pytest.mark.parametrize(("game", "board", "suffix"), CASES)
def test_random_games_with_errors_give_the_tree_paths_report(
    game: str, board: int, suffix: str
) -> None:
    rng = random.Random(f"{game}{board}")
    games = _archive(game, board, 8, 5).split("\n\n[")
    games = [games[0]] + ["[" + g for g in games[1:]]
    flat = total = 0
    for round_ in range(40):
        mutated = [_mutate(g, suffix, rng) for g in rng.sample(games, 3)]
        got = _same(("\n\n".join(mutated) + "\n").encode(), f"random{round_}.{suffix}")
        total += got[0]
        flat += got[1]
    assert total == 120
    assert 0 < flat < total  # both paths ran


_DICE_WORD = re.compile(r"([A-K][0-9]{1,2})(X|°|W)([A-K]?[0-9]{1,2})(=6)?([\^+]?)")
_HOP_WORD = re.compile(r"([a-j][0-9]{1,2})((?:[-x@][a-j][0-9]{1,2})+)([\^+]?)")


def _break(text: str, suffix: str, rng: random.Random) -> str:
    """``text`` with one action made wrong: a mark, an operator, a
    promotion or birth, a roll, a target or origin, a cut multi-hop turn;
    or a cube event in the middle, or an action after the end."""
    head, _, moves = text.partition("\n\n")
    actions = list(_ACTION[suffix].finditer(moves))
    if not actions:
        return text
    marked = [m for m in actions if m.group()[-1] in "^+"]
    hit = rng.choice(marked if marked and rng.random() < 0.5 else actions)
    a, b = hit.span()
    word = hit.group()
    other = rng.choice(actions).group()
    kind = rng.randrange(8)
    if suffix == "hpf":
        m = _HOP_WORD.fullmatch(word)
        o = _HOP_WORD.fullmatch(other)
        assert m is not None and o is not None
        start, steps, mark = m.groups()
        if kind == 0:  # a mark put in, or changed
            word = start + steps + rng.choice("^+")
        elif kind == 1:  # a hop written as a capture, or a capture as a hop
            first = steps[0]
            word = start + ("x" if first == "-" else "-") + steps[1:] + mark
        elif kind == 2:  # the birth left out, or one where there is none
            word = start + (steps.split("@")[0] if "@" in steps else steps + "@a1") + mark
        elif kind == 3:  # a turn of several steps cut short, or made longer
            points = re.findall(r"[-x@][a-j][0-9]{1,2}", steps)
            word = start + "".join(points[:-1] if len(points) > 2 else points + ["xa1"])
        elif kind == 4:  # another start
            word = o.group(1) + steps + mark
        elif kind == 5:  # another path from the same start
            word = start + o.group(2) + mark
    else:
        m = _DICE_WORD.fullmatch(word)
        o = _DICE_WORD.fullmatch(other)
        assert m is not None and o is not None
        origin, op, target, promote, mark = m.groups()
        promote = promote or ""
        if kind == 0:  # a mark swapped, dropped or put in
            word = origin + op + target + promote + rng.choice([x for x in "^+" if x != mark])
        elif kind == 1:  # a move written as a capture, or the other way round
            word = origin + {"X": "°", "°": "X", "W": "X"}[op] + target + promote + mark
        elif kind == 2:  # a promotion, wanted or not
            word = origin + op + target + ("" if promote else "=6") + mark
        elif kind == 3:  # a roll of this die, to any face
            word = origin + "W" + str(rng.randint(1, 6)) + mark
        elif kind == 4:  # another target
            word = origin + op + (o.group(3) if o.group(2) != "W" else o.group(1)) + mark
        elif kind == 5:  # another die
            word = o.group(1) + op + target + promote + mark
    if kind == 6:  # a cube event in the middle
        moves = moves[:b] + rng.choice([" double 2 take", " double drop", " double 4"]) + moves[b:]
    elif kind == 7:  # an action after the end (or only after the others)
        result = re.search(r"(1-0|0-1|\*)\s*$", moves)
        cut = result.start() if result else len(moves)
        moves = moves[:cut] + " " + other + " " + moves[cut:]
    else:
        moves = moves[:a] + word + moves[b:]
    return head + "\n\n" + moves


@pytest.mark.parametrize(("game", "board", "suffix"), CASES)
def test_broken_actions_agree_and_the_board_plays_the_games(
    game: str, board: int, suffix: str
) -> None:
    """Marks, illegal actions of every kind, cube events and actions after
    the end: the in-place board of the check path and of the index's keys
    stops at the first item it does not play and the positions go on, with
    the tree path's findings."""
    rng = random.Random(f"board{game}{board}")
    games = _archive(game, board, 8, 7).split("\n\n[")
    games = [games[0]] + ["[" + g for g in games[1:]]
    total = flat = 0
    codes: set[str] = set()
    for round_ in range(30):
        broken = [_break(g, suffix, rng) for g in rng.sample(games, 3)]
        data = ("\n\n".join(broken) + "\n").encode()
        got = _same(data, f"broken{round_}.{suffix}", codes)
        total += got[0]
        flat += got[1]
    assert total == 90 and flat >= 45
    assert {"IL01", "IL03"} <= codes  # refused actions, cube events where there is no cube
    if suffix == "hpf":
        assert {"AN05", "ST01"} <= codes  # a mark (Hüpfer has none), a turn after the end
    else:
        assert {"AN04", "AN07"} <= codes  # '+' left out, '+' for '^': found on the board


HEXALIT = '[Game "Hexalit"]\n[First "North"]\n\n'


@pytest.mark.parametrize(
    "moves",
    [
        "1. B6XC6 E8XD8 2. double 2 take B5XC5 E9XD9 3. double 4 take *",  # after the last ply
        "1. B6XC6 E8XD8 2. double 2 take B5XC5 E9XD9 3. double 4 take B4XC4 *",
        "1. B6XC6 E8XD8 2. double 2 *",  # an offer left unanswered
        "1. B6XC6 E8XD8 2. double 2 B5XC5 *",  # an action before the answer
        "1. B6XC6 E8XD8 2. double 2 drop *",  # the end without a ply
        "double 2 drop 0-1",  # before any ply: the start is not the last position
        "double 2 drop B6XC6 1-0",  # an action after the end
        "1. double 4 take B6XC6 *",  # the wrong value
        "1. B6XC6 double 2 *",  # the first offer belongs to the side that moved first
        "1. B6XC6 E8XD8 2. double 2 take double 4 B5XC5 *",  # twice in one turn
        "1. B6XC6 E8XD8 take B5XC5 *",  # an answer without an offer
        "1. B6XC6 E8XD8 2. double 2 take 3. B5XC5 *",  # the move number after a cube event
    ],
)
def test_cube_events_on_the_board_agree(moves: str) -> None:
    """The board plays cube events too: the findings (IL03, ST01, NT01,
    NT02, ST02), the end and the last position (a cube taken after the last
    ply is not in it) are the tree path's."""
    assert _same((HEXALIT + moves + "\n").encode(), "cube.hxl") == (1, 1)


def test_a_check_makes_no_node_for_a_well_formed_game(monkeypatch: Any) -> None:
    made = []
    action = accumulator.LineAccumulator.action

    def counted(self: Any, *args: Any) -> None:
        made.append(args)
        action(self, *args)

    monkeypatch.setattr(accumulator.LineAccumulator, "action", counted)
    text = _archive("Hexalit", 6, 1, 4)
    [(index, first_line, chunk)] = game_chunks(text)
    report = check_game(chunk, first_line, index, "Hexalit")
    assert report.plies > 20 and report.valid()
    assert made == []
    assert len(report.positions) == 2  # the start and the last position only
    moves, result = chunk.rstrip().rsplit(" ", 1)
    varied_text = f"{moves} (A1XA2) {result}\n"
    varied = check_game(varied_text, first_line, index, "Hexalit")
    assert made == []  # a variation is read flat too
    assert varied.plies == report.plies and varied.positions == report.positions
    [illegal] = varied.findings  # the variation's action, refused as the tree refuses it
    assert illegal == _tree(varied_text, first_line, index, "Hexalit", 0).findings[0]
    assert illegal.code == "IL02" and illegal.ply == report.plies


def test_windows_1252_notice_and_undecodable_bytes_agree() -> None:
    text = _archive("Trigeo", 6, 2, 4).replace("Random", "Jürgen")
    assert _same(text.encode("cp1252"), "club.trg")[0] == 2
    assert _same(text.encode("utf-8").replace(b"J\xc3\xbc", b"J\xff", 1), "club.trg")[0] == 2


# -- a large file read a block at a time (flat memory) -------------------------

GAME = '[Game "Hexalit"]\n[Event "Zoë"]\n\n1. B6XC6 {' + "a note " * 40 + "} E8XD8 2. B5XC5 *\n"


def _write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    "encode",
    [
        lambda t: t.encode("utf-8"),
        lambda t: t.encode("utf-8-sig"),
        lambda t: t.encode("utf-8") + b"\xe9",  # not UTF-8: Windows-1252, NT03
        lambda t: t.encode("utf-16"),
        lambda t: t.encode("utf-8").replace(b"Zo\xc3\xab", b"Zo\xeb", 7),  # NT04 in a few
    ],
)
def test_a_file_read_a_block_at_a_time_is_checked_as_its_bytes(
    tmp_path: Path, encode: Any, monkeypatch: Any
) -> None:
    monkeypatch.setattr(sources, "BLOCKS_FROM", 4096)  # not 1 MiB: 4 blocks of 64 KiB
    data = encode(GAME.replace("B5XC5", "B5XC5 {\r\n}") * 700 + BROKEN)
    path = _write(tmp_path, "club.hxl", data)
    [opened] = iter_sources([str(path)], blocks=True)
    [whole] = iter_sources([str(path)])
    assert opened.data is None and opened.opened is not None and opened.size == len(data)
    assert whole.data == data and whole.opened is None and whole.size == len(data)
    got, expected = check_source(opened, CheckOptions()), check_source(whole, CheckOptions())
    assert got == expected and len(got.games) == 701
    assert "SY01" in {f["code"] for g in got.games for f in g["findings"]}
    assert pickle.loads(pickle.dumps(opened)) == whole  # sent to a worker: the bytes


BROKEN = '[Game "Hexalit"]\n\n1. B6XC6 E8XD8 2. ZZ9XA1 *\n'


def test_only_a_large_regular_file_is_left_open(tmp_path: Path) -> None:
    _write(tmp_path, "small.hxl", GAME.encode())
    large = _write(tmp_path, "large.hxl", GAME.encode() * (BLOCKS_FROM // len(GAME) + 1))
    packed = tmp_path / "large.hxl.gz"
    packed.write_bytes(gzip.compress(large.read_bytes()))
    found = {Path(s.path).name: s for s in iter_sources([str(tmp_path)], blocks=True)}
    assert found["small.hxl"].data == GAME.encode() and found["small.hxl"].opened is None
    assert found["large.hxl"].data is None and found["large.hxl"].opened is not None
    assert found["large.hxl.gz"].data == large.read_bytes()  # unpacked as before
    assert all(s.opened is None for s in iter_sources([str(tmp_path)]))  # not asked for
    binary = _write(tmp_path, "image.hxl", b"\x89PNG\x00" * BLOCKS_FROM)
    [source] = iter_sources([str(binary)], blocks=True)
    assert check_source(source, CheckOptions()).error["code"] == "IO02"


def test_a_file_that_shrinks_while_open_is_read_to_its_new_end(tmp_path: Path) -> None:
    path = _write(tmp_path, "club.hxl", GAME.encode() * (BLOCKS_FROM // len(GAME) + 1))
    [source] = iter_sources([str(path)], blocks=True)
    path.write_bytes(GAME.encode() * 3)  # truncated in place
    result = check_source(source, CheckOptions())
    assert result.error is None and len(result.games) == 3


def _traced_peak(path: Path) -> int:
    """The traced peak of checking ``path`` as ``hexhop check -j 1`` does
    (a part at a time, each dropped when reported), in bytes."""
    [source] = iter_sources([str(path)], blocks=True)
    tracemalloc.start()
    try:
        for piece in streamed(source, CheckOptions(), 60.0):
            assert piece.error is None
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.slow
def test_ten_times_the_games_in_one_file_cost_less_than_64_kib_more(
    tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.setattr(sources, "BLOCKS_FROM", 4096)  # both read a block at a time
    small = _write(tmp_path, "small.hxl", GAME.encode() * 1_000)  # 0.4 MB
    large = _write(tmp_path, "large.hxl", GAME.encode() * 10_000)  # 4 MB
    _traced_peak(small)  # the grammars and caches built first
    before, after = _traced_peak(small), _traced_peak(large)
    assert after - before < 64 * 1024, (before, after)


def _corpus_module() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "make_corpus", Path(__file__).resolve().parent.parent / "benchmarks" / "make_corpus.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("game", "board", "suffix"), CASES)
def test_variations_read_flat_agree_with_the_tree(game: str, board: int, suffix: str) -> None:
    """Records shaped as real archives (variations inside variations,
    comments, glyphs, cube events), whole and with one action broken
    anywhere, variations included: read flat, every variation is played
    on a copy of the board, with the tree path's findings."""
    text = _corpus_module().corpus_archive(game, board, 12, 5)
    games = text.split("\n\n[")
    games = [games[0]] + ["[" + g for g in games[1:]]
    assert sum("(" in g for g in games) >= 4  # not vacuous: variations
    assert _same(text.encode(), f"corpus.{suffix}") == (12, 12)
    rng = random.Random(f"variations{game}{board}")
    codes: set[str] = set()
    flat = 0
    for round_ in range(20):
        broken = [_break(g, suffix, rng) for g in rng.sample(games, 3)]
        flat += _same(("\n\n".join(broken) + "\n").encode(), f"v{round_}.{suffix}", codes)[1]
    assert flat >= 30 and "IL01" in codes
