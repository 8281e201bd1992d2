"""The Python API for scripts and notebooks: the ``hexhop`` package."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import hexhop
from hexhop import SVG, Game, HeaderError, legal_actions, position, read_games

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "samples" / "good"


def test_read_games_replays_every_game():
    (game,) = read_games(GOOD / "trigeo-goettingen-1999.trg")
    assert isinstance(game, Game)
    assert (game.game, game.valid, game.tags["North"]) == ("Trigeo", True, "Ute Sommer")
    assert game.actions[:3] == ["C7°D7", "E6°D7", "B7°D7"]
    assert len(game.positions) == 41
    assert game.end.winner == "South" and game.end.ply == 40


def test_read_games_from_bytes_with_a_game():
    (game,) = read_games(b"1. a1-c1@d1 *\n", game="Hüpfer")
    assert game.actions == ["a1-c1@d1"]
    assert game.legal_actions(0)[:2] == ["a1-a3@a4", "a1-a3@b3"]


def test_position_and_legal_actions():
    p = position("hexalit", "N: A7=1 C7=2; S: F7=1 D6=2; turn: N")
    assert legal_actions(p)[-3:] == ["C7W6", "C7XD7", "C7°D6"]
    with pytest.raises(HeaderError):
        position("Hexalit", "N: Z9=1")
    with pytest.raises(ValueError):
        position("Chess", "")


def test_svg_displays_inline():
    (game,) = read_games(GOOD / "huepfer-8x8-bremen-2003.hpf")
    picture = game.svg(5)
    assert isinstance(picture, SVG) and picture._repr_svg_().startswith("<svg")
    assert 'data-ply="5"' in picture and "last-to" in picture
    assert game.positions[0]._repr_svg_().startswith("<svg")
    assert game._repr_svg_() == game.svg()


def test_png_of_a_position():
    p = hexhop.position("Trigeo", "N: C7=2; S: E6=2; turn: N")
    assert hexhop.png(p, size=60).startswith(b"\x89PNG\r\n\x1a\n")
    assert hexhop.svg(p, size=60)._repr_svg_().startswith("<svg")


def test_every_exported_name_resolves():
    """The public API is re-exported by the package."""
    assert sorted(hexhop.__all__) == sorted(["__version__", *hexhop._EXPORTS])
    for name in hexhop.__all__:
        assert getattr(hexhop, name) is not None
        assert name in dir(hexhop)
    assert hexhop.rules_for("Hüpfer").legal_actions is not None
    assert hexhop.read_archive is hexhop.notation.read_archive
    (parsed,) = hexhop.parse_text('[Game "Trigeo"]\n\n1. C7°D7 *\n')
    assert parsed.ok and parsed.record.game == "Trigeo"
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = hexhop.nothing


def test_version_has_one_source():
    """``hexhop.__version__``, pyproject.toml,
    ``hexhop --version`` and the changelog agree."""
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    assert hexhop.__version__ == re.search(r'^version = "(.+)"', pyproject, re.M)[1]
    shown = subprocess.run(
        [sys.executable, "-m", "hexhop.cli", "--version"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert shown == f"hexhop, version {hexhop.__version__}, {hexhop.build_kind()}\n"
    changelog = (ROOT / "CHANGELOG.md").read_text("utf-8")
    assert f"\n## {hexhop.__version__} — " in changelog


def _imported_after(code: str) -> list[str]:
    """The modules of hexhop, cairo, lark and click loaded by ``code``."""
    probe = (
        f"import sys\n{code}\nprint(' '.join(sorted(m for m in sys.modules"
        " if m.split('.')[0] in {'hexhop', 'cairosvg', 'cairocffi', 'lark', 'click'})))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_import_hexhop_stays_cheap():
    """``import hexhop`` loads nothing but itself; the layers come on first use."""
    assert _imported_after("import hexhop") == ["hexhop"]
    loaded = _imported_after("import hexhop; hexhop.read_games")
    assert "hexhop.notation" in loaded and "hexhop.engine.replay" in loaded
    assert not [m for m in loaded if m.startswith(("hexhop.render", "hexhop.cli", "cairo"))]


def test_engine_does_not_import_render():
    """The rules sit under the pictures: importing every engine module loads no render code."""
    code = (
        "import importlib, pkgutil, hexhop.engine\n"
        "for module in pkgutil.walk_packages(hexhop.engine.__path__, 'hexhop.engine.'):\n"
        "    importlib.import_module(module.name)"
    )
    loaded = _imported_after(code)
    assert "hexhop.engine.replay" in loaded and "hexhop.engine.api" not in loaded
    assert not [m for m in loaded if m.startswith(("hexhop.render", "cairo"))]
