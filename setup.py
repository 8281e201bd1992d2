"""Build hook: the pure-Python package by default; with HEXHOP_COMPILE=1 the
rules and the record reader's hot modules are compiled with mypyc as well
(same source, C extensions next to the .py files, which Python then prefers).

Everything else is in pyproject.toml."""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

from setuptools import Extension, setup

# The modules where a check spends its time (profiled with `hexhop check`),
# as paths in the checkout.
COMPILED = [
    "engine/base.py",
    "engine/games.py",
    "engine/replay.py",
    "engine/dice/board.py",
    "engine/dice/geometry.py",
    "engine/dice/rules.py",
    "engine/dice/position.py",
    "engine/dice/explain.py",
    "engine/dice/variant.py",
    "engine/dice/hexalit.py",  # subclasses of a compiled class must be compiled too
    "engine/dice/trigeo.py",
    "engine/huepfer/board.py",
    "engine/huepfer/moves.py",
    "engine/huepfer/position.py",
    "engine/huepfer/rules.py",
    "engine/huepfer/explain.py",
    # the search: positions changed in place (hexhop analyse, puzzles)
    "engine/deadline.py",
    "engine/zobrist.py",
    "engine/dice/inplace.py",
    "engine/huepfer/inplace.py",
    "engine/solver.py",
    "notation/scanner.py",
    "notation/accumulator.py",
    "notation/flat.py",
    # not model.py and span.py: the scanner fills their frozen classes through
    # __dict__, which a compiled class has not
    "notation/findings.py",
    "notation/reader.py",
    "notation/text.py",
]


def folders(here: Path) -> dict[str, str]:
    """Each source folder and the path of the package it installs as
    (``engine`` -> ``hexhop/engine``), from pyproject.toml's package-dir as
    hexhop.messages.catalogue reads it (standard library only, so it is
    loaded from its file: the package is not installed while it is built)."""
    spec = importlib.util.spec_from_file_location("catalogue", here / "messages" / "catalogue.py")
    if spec is None or spec.loader is None:
        raise RuntimeError("messages/catalogue.py cannot be loaded")
    catalogue = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(catalogue)
    table = catalogue.package_dir(here / "pyproject.toml")
    return {folder: package.replace(".", "/") for package, folder in table.items()}


def compiled_modules() -> list[Extension]:
    """mypyc's extensions, or none when not asked for."""
    if os.environ.get("HEXHOP_COMPILE", "") in ("", "0"):
        return []
    from mypyc.build import mypycify

    # mypyc names a module after its path, so the sources are laid out as the
    # installed package (engine/ -> hexhop/engine/) in a build folder first.
    here = Path(__file__).parent
    tree = here / "build" / "mypyc-src"
    shutil.rmtree(tree, ignore_errors=True)
    layout = folders(here)
    for folder, package in layout.items():
        shutil.copytree(here / folder, tree / package, ignore=shutil.ignore_patterns("__pycache__"))
    paths = []
    for name in COMPILED:
        folder, _, rest = name.partition("/")
        paths.append(str((tree / layout[folder] / rest).relative_to(here)))
    # (the config names modules, such as matplotlib, that are not built here)
    options = ["--config-file", "pyproject.toml", "--no-warn-unused-configs"]
    return mypycify([*options, *paths], opt_level="3", verbose=False)


# build/lib (pure) and build/lib.<platform> (compiled) may hold the files of an
# earlier build, which this one would otherwise pack as well: the extensions of
# modules no longer compiled, or the other way round, stale .py files
for folder in (Path(__file__).parent / "build").glob("lib*"):
    shutil.rmtree(folder, ignore_errors=True)
setup(ext_modules=compiled_modules())
