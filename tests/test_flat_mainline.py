"""The check path reads the main line in flat arrays and replays it without
node objects (issue 26, §1): its reports are the tree path's, finding for
finding (code, message, line:col, ply), with the same end, result, counts
and last position, on every sample, every broken sample and seeded random
games with errors put in."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from hexhop.engine.generate import random_archive
from hexhop.engine.replay import GameReport, replay_game
from hexhop.notation import accumulator, format_archive
from hexhop.notation.reader import (
    decode,
    fallback_game,
    game_chunks,
    parse_game,
    parse_game_flat,
    with_encoding_notice,
)
from hexhop.records.checking import check_game, game_dict

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
CASES = [("Hexalit", 6, "hxl"), ("Trigeo", 6, "trg"), ("Hüpfer", 6, "hpf"), ("Hüpfer", 10, "hpf")]


def _tree(chunk: str, first_line: int, index: int, fallback: str | None, cp: bool) -> GameReport:
    parsed = parse_game(chunk, first_line, index, fallback)
    return replay_game(with_encoding_notice(parsed) if cp else parsed)


def _same(data: bytes, path: str) -> tuple[int, int]:
    """Every game of ``data`` checked both ways; (games, games read flat)."""
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
        assert game_dict(fast, True) == game_dict(tree, True), where
        assert (fast.end, fast.result, fast.plies) == (tree.end, tree.result, tree.plies), where
        if tree.positions:
            last, start = fast.positions[-1], fast.positions[0]
            assert start == tree.positions[0] and start.ply == tree.positions[0].ply, where
            assert last == tree.positions[-1], where
            assert (last.ply, last.winner) == (tree.positions[-1].ply, tree.positions[-1].winner)
        else:
            assert not fast.positions, where
    return games, flat


@pytest.mark.parametrize(
    "path", sorted(SAMPLES.glob("*/*.*")), ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_every_sample_gives_the_tree_paths_report(path: Path) -> None:
    games, _flat = _same(path.read_bytes(), str(path))
    assert games >= 1


def test_the_samples_are_read_flat_where_they_can_be() -> None:
    """Not vacuous: the well-formed games without variations take the flat path."""
    read = {p.name: _same(p.read_bytes(), str(p)) for p in sorted(SAMPLES.glob("*/*.*"))}
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
    varied = check_game(f"{moves} (A1XA2) {result}\n", first_line, index, "Hexalit")
    assert len(made) == report.plies + 1  # a variation: the tree is read
    assert varied.plies == report.plies and len(varied.positions) == report.plies + 1


def test_windows_1252_notice_and_undecodable_bytes_agree() -> None:
    text = _archive("Trigeo", 6, 2, 4).replace("Random", "Jürgen")
    assert _same(text.encode("cp1252"), "club.trg")[0] == 2
    assert _same(text.encode("utf-8").replace(b"J\xc3\xbc", b"J\xff", 1), "club.trg")[0] == 2
