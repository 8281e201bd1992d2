"""Build hexhop with Cython into a folder of its own, for measuring only.

    python benchmarks/build_cython.py DIR [--typed]

DIR gets the package laid out as installed (``DIR/hexhop/...``) with the
modules that setup.py compiles with mypyc compiled by Cython instead, from
the same source; ``PYTHONPATH=DIR python ...`` then imports that build (the
interpreter must be the one Cython built for, with hexhop's dependencies).
``--typed`` also copies the ``.pxd`` files of ``benchmarks/cython_core/``
next to the modules they type. Needs Cython (3.1) and a C compiler; nothing
here is installed or part of the package.
"""

from __future__ import annotations

import argparse
import ast
import os
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def folders() -> dict[str, str]:
    """Each source folder and the path of the package it installs as
    (``engine`` -> ``hexhop/engine``), from pyproject.toml's package-dir as
    messages/catalogue.py (standard library only) reads it."""
    sys.path.insert(0, str(HERE / "messages"))
    from catalogue import package_dir

    table = package_dir(HERE / "pyproject.toml")
    return {folder: package.replace(".", "/") for package, folder in table.items()}


def compiled_list() -> list[str]:
    """setup.py's COMPILED list, read without running setup.py."""
    for node in ast.parse((HERE / "setup.py").read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "COMPILED":
            return list(ast.literal_eval(node.value))
    raise SystemExit("setup.py has no COMPILED list")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--typed", action="store_true", help="add benchmarks/cython_core/*.pxd")
    args = parser.parse_args()
    out: Path = args.dir.resolve()
    if out.exists() and any(out.iterdir()):
        parser.error(f"{out} is not empty; give a new folder")
    layout = folders()
    for folder, package in layout.items():
        shutil.copytree(HERE / folder, out / package, ignore=shutil.ignore_patterns("__pycache__"))
    sources = []
    for name in compiled_list():
        folder, _, rest = name.partition("/")
        sources.append(str(Path(layout[folder]) / rest))
    if args.typed:
        # cython_core/engine__dice__board.pxd -> hexhop/engine/dice/board.pxd
        for pxd in sorted((HERE / "benchmarks" / "cython_core").glob("*.pxd")):
            folder, _, rest = pxd.name.partition("__")
            target = Path(layout[folder]) / rest.replace("__", "/")
            shutil.copy(pxd, out / target)

    from Cython.Build import cythonize
    from setuptools import setup

    # Cython would take the annotations as types and reject subclasses (lark's
    # Token for str: a check then fails with a TypeError); a .pxd gives the types
    directives = {"language_level": 3, "binding": False, "annotation_typing": False}
    os.chdir(out)
    extensions = cythonize(sources, compiler_directives=directives, quiet=True, nthreads=2)
    setup(
        name="hexhop-cython",
        ext_modules=extensions,
        script_args=["build_ext", "--inplace", "--build-temp", "build"],
    )


if __name__ == "__main__":
    main()
