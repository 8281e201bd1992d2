"""benchmarks/make_corpus.py: random records shaped as real archives have
them (cube offers, takes and drops, glyphs, comments, variations, long
Hüpfer capture chains and births), every one of them valid."""

from __future__ import annotations

import importlib.util
import io
import sys
from pathlib import Path

import pytest

from hexhop.notation import read_archive
from hexhop.notation.model import CubeAnswer, CubeOffer, HopAction, Line
from hexhop.records.checking import CheckOptions, check_source
from hexhop.records.sources import Source

ROOT = Path(__file__).resolve().parent.parent


def _load():
    spec = importlib.util.spec_from_file_location(
        "make_corpus", ROOT / "benchmarks" / "make_corpus.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_corpus = _load()


def _nodes(line: Line):
    for node in line.nodes:
        yield node
        for variation in node.variations:
            yield from _nodes(variation)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Two seeds, a few games of each archive: {file name: bytes}."""
    out = {}
    for seed in (1, 2):
        folder = tmp_path_factory.mktemp(f"seed{seed}")
        for path in make_corpus.write_corpus(str(folder), 6, seed, max_plies=60):
            out[f"{seed}/{Path(path).name}"] = Path(path).read_bytes()
    return out


def test_every_game_is_valid(corpus):
    """``hexhop check`` finds every generated game valid, variations included."""
    assert len(corpus) == 10
    for name, data in corpus.items():
        result = check_source(Source(name, data), CheckOptions())
        assert len(result.games) == 6, name
        assert [game["valid"] for game in result.games] == [True] * 6, name


def test_each_shape_occurs(corpus):
    """The shapes of real archives occur: offers, takes and drops of the cube
    in Hexalit (Trigeo has none), marks, glyphs, comments and variations; in Hüpfer
    chains of three captures or more and births, on each board size."""
    seen: dict[str, set[str]] = {}
    for name, data in corpus.items():
        kind = Path(name).stem
        shapes = seen.setdefault(kind, set())
        for parsed in read_archive(data, path=name):
            assert parsed.record is not None and parsed.ok, name
            for node in _nodes(parsed.record.main):
                item = node.item
                shapes.add("glyph" if node.glyphs else "")
                shapes.add("comment" if node.comments else "")
                shapes.add("variation" if node.variations else "")
                if isinstance(item, CubeOffer):
                    shapes.add("offer")
                elif isinstance(item, CubeAnswer):
                    shapes.add("take" if item.take else "drop")
                elif item.mark:
                    shapes.add("mark")
                if isinstance(item, HopAction):
                    shapes.add("chain" if item.ops.count("x") >= 3 else "")
                    shapes.add("birth" if item.birth else "")
    common = {"glyph", "comment", "variation"}
    # (Trigeo has no cube: its rules refuse an offer)
    assert common | {"offer", "take", "drop", "mark"} <= seen["Hexalit"]
    assert common | {"mark"} <= seen["Trigeo"]
    for hops in ("Hüpfer6", "Hüpfer8", "Hüpfer10"):
        assert common | {"chain", "birth"} <= seen[hops], hops


def test_same_seed_same_archive():
    assert make_corpus.corpus_archive("Trigeo", 6, 3, 5) == make_corpus.corpus_archive(
        "Trigeo", 6, 3, 5
    )
    assert make_corpus.corpus_archive("Trigeo", 6, 3, 5) != make_corpus.corpus_archive(
        "Trigeo", 6, 3, 6
    )


def test_an_existing_file_is_not_overwritten(tmp_path, capsys):
    """Nothing the user has is overwritten: the script stops with a message
    and writes none of the archives."""
    (tmp_path / "Trigeo.trg").write_text("mine")
    assert make_corpus.main([str(tmp_path), "--games", "1"]) == 1
    assert (tmp_path / "Trigeo.trg").read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Trigeo.trg"]
    message = f"make_corpus: {tmp_path / 'Trigeo.trg'}: already exists, not overwritten\n"
    assert capsys.readouterr().err == message


def test_script_runs_as_a_command(tmp_path):
    import subprocess

    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "make_corpus.py"), str(tmp_path / "c")]
        + ["--games", "2", "--seed", "4", "--max-plies", "30"],
        capture_output=True,
        text=True,
        check=True,
    )
    names = [Path(line).name for line in done.stdout.splitlines()]
    assert names == ["Hexalit.hxl", "Trigeo.trg", "Hüpfer6.hpf", "Hüpfer8.hpf", "Hüpfer10.hpf"]


def test_bench_check_writes_the_corpus_with_its_pgn_twins(tmp_path):
    """``bench_check.py --corpus DIR --write OUT``: each corpus archive as it
    is, and a PGN archive of as many chess games beside it (to run under
    cachegrind with ``--passes``)."""
    pytest.importorskip("chess")
    import subprocess

    make_corpus.write_corpus(str(tmp_path / "c"), 3, 5, max_plies=40)
    subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_check.py")]
        + ["--corpus", str(tmp_path / "c"), "--write", str(tmp_path / "w")],
        check=True,
        capture_output=True,
    )
    for game, board, name in make_corpus.ARCHIVES:
        written = tmp_path / "w" / f"{game}{board}{Path(name).suffix}"
        assert written.read_bytes() == (tmp_path / "c" / name).read_bytes()
        pgn = (tmp_path / "w" / f"{game}{board}.pgn").read_text(encoding="utf-8")
        assert pgn.count("[Event ") == 3


def test_the_pgn_twin_has_the_shapes_of_the_record(tmp_path):
    """The chess side reads records of the same shape: each main-line ply's
    glyph, comment and variation length come over to the PGN game."""
    pytest.importorskip("chess")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bench_check
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    import chess.pgn

    text = make_corpus.corpus_archive("Trigeo", 6, 1, 9).encode("utf-8")
    dressed = bench_check.dressings(text, "x.trg")
    plies = [len(game) for game in dressed]
    pgn = bench_check.chess_pgn(
        plies, 7, [[(True, "why", 2)] + [(False, None, 0)] * (plies[0] - 1)]
    )
    game = chess.pgn.read_game(io.StringIO(pgn))
    first = game.next()
    assert first.nags and first.comment == "why"
    # the variation beside the first move: its own move and one more
    assert len(game.variations) == 2 and len(list(game.variations[1].mainline_moves())) == 1
    assert len(dressed) == 1 and len(dressed[0]) == plies[0]
