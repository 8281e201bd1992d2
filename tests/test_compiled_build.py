"""The two builds of one source: pure Python (what ``pip install .`` gives)
and, with ``HEXHOP_COMPILE=1``, the hot modules compiled with mypyc.
``hexhop --version`` says which one runs."""

from __future__ import annotations

import ast
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import hexhop

ROOT = Path(__file__).resolve().parent.parent


def _version(env: dict[str, str] | None = None) -> str:
    return subprocess.run(
        [sys.executable, "-m", "hexhop.cli", "--version"],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=ROOT.parent,  # not the checkout, whose folders are no package
    ).stdout


def test_pure_build_says_pure_python():
    """The ordinary install runs the .py files and says so."""
    assert _version().endswith(", pure Python\n")


def _setup_compiled() -> list[str]:
    """setup.py's COMPILED list, read without running setup.py."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "COMPILED":
            return list(ast.literal_eval(node.value))
    raise AssertionError("setup.py has no COMPILED list")


COMPILED = _setup_compiled()


def setup_module_name(path: str) -> str:
    """``engine/dice/rules.py`` -> ``engine.dice.rules`` (the folders map onto
    hexhop's subpackages by their own names, except api/)."""
    return path.removesuffix(".py").replace("/", ".")


def test_pure_build_lists_no_compiled_module():
    """The ordinary install has no extension module, and says "pure Python"
    and nothing else."""
    assert hexhop.compiled_modules() == []
    assert hexhop.build_kind() == "pure Python"


def test_version_names_each_compiled_module(tmp_path, monkeypatch):
    """A build whose folders hold extension files next to the .py files is
    "compiled (mypyc)", with each compiled module named, in order; .py files
    and other files are not counted."""
    suffix = EXTENSION_SUFFIXES[0]
    package = tmp_path / "hexhop"
    for name in ("__init__.py", "engine/base.py", "engine/replay.py", f"engine/replay{suffix}"):
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text("")
    (package / "notation").mkdir()
    (package / "notation" / f"reader{suffix}").write_text("")
    (package / "notation" / "reader.pyi").write_text("")
    spec = importlib.machinery.ModuleSpec("hexhop", None, is_package=True)
    spec.submodule_search_locations = [str(package)]
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: spec)
    assert hexhop.compiled_modules() == ["hexhop.engine.replay", "hexhop.notation.reader"]
    assert hexhop.build_kind() == "compiled (mypyc): hexhop.engine.replay, hexhop.notation.reader"


def test_setup_compiles_only_when_asked():
    """Without HEXHOP_COMPILE setup.py adds no extension,
    so the sdist and wheel stay pure Python."""
    probe = (
        "import runpy, setuptools; setuptools.setup = lambda **kw: print(kw); "
        "runpy.run_path('setup.py')"
    )
    env = {k: v for k, v in os.environ.items() if k != "HEXHOP_COMPILE"}
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, env=env, cwd=ROOT
    )
    assert out.stdout == "{'ext_modules': []}\n"


@pytest.mark.slow
@pytest.mark.skipif(
    os.environ.get("HEXHOP_COMPILE") != "1"
    or shutil.which(os.environ.get("CC", "cc")) is None
    or importlib.util.find_spec("mypyc") is None,
    reason="the compiled build is tried with HEXHOP_COMPILE=1, a C compiler and mypy installed",
)
def test_compiled_build_passes_rules_tests(tmp_path):
    """HEXHOP_COMPILE=1 builds C extensions of the same
    source; that build says "compiled (mypyc)" and passes the perft and
    reference tests."""
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-deps"]
        + ["--target", str(target), str(ROOT)],
        check=True,
        env={**os.environ, "HEXHOP_COMPILE": "1"},
    )
    assert list((target / "hexhop" / "engine").glob("replay.*.so"))
    env = {**os.environ, "PYTHONPATH": str(target)}
    compiled = [f"hexhop.{setup_module_name(name)}" for name in COMPILED]
    assert _version(env).endswith(", compiled (mypyc): " + ", ".join(sorted(compiled)) + "\n")
    tests = ["tests/test_dice_perft.py", "tests/test_huepfer_perft.py", "tests/test_walk.py"]
    # (these count calls by patching a rules class, which a compiled class refuses)
    tests += ["-k", "not (asks_the_rules or walks_along or walks_the_report)"]
    reference = ["tests/test_cross_check.py", "-k", "reference or test_records"]
    for args in (tests, reference):
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *args],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
        )
        assert run.returncode == 0, run.stdout[-3000:]
