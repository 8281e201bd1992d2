"""The notation package's import graph is a DAG.

Every ``hexhop.notation`` import of every notation module counts, at module
level and inside functions alike, so that no cycle can hide behind an
import placed in a function.
"""

from __future__ import annotations

import ast
from pathlib import Path

import hexhop.notation

PACKAGE = "hexhop.notation"
FOLDER = Path(hexhop.notation.__file__).parent
MODULES = {
    f"{PACKAGE}.{p.stem}" if p.stem != "__init__" else PACKAGE: p for p in FOLDER.glob("*.py")
}


def _imported(name: str, path: Path) -> set[str]:
    """The notation modules ``path`` imports, wherever the import statement is."""
    package = PACKAGE if name == PACKAGE else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            # ``from . import reader`` names a module, ``from .reader import x`` a name
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                for alias in node.names
            ]
        else:
            continue
        found |= {t for t in targets if t in MODULES and t != name}
    return found


GRAPH = {name: _imported(name, path) for name, path in MODULES.items()}


def _cycle() -> list[str] | None:
    """One import cycle of the graph, or None."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        path.append(name)
        for target in sorted(GRAPH[name]):
            if state.get(target) == 1:
                return path[path.index(target) :] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[name] = 2
        return None

    for name in sorted(GRAPH):
        if name not in state:
            found = visit(name)
            if found:
                return found
    return None


def _reach(name: str) -> set[str]:
    seen: set[str] = set()
    todo = [name]
    while todo:
        for target in GRAPH[todo.pop()] - seen:
            seen.add(target)
            todo.append(target)
    return seen


def test_the_graph_is_read():
    assert f"{PACKAGE}.parser" in GRAPH[f"{PACKAGE}.reader"]
    assert f"{PACKAGE}.problems" in GRAPH[f"{PACKAGE}.syntax_errors"]
    assert f"{PACKAGE}.reader" in GRAPH[PACKAGE]


def test_no_import_cycle():
    assert _cycle() is None, " -> ".join(_cycle() or [])


def test_the_parser_imports_nothing_above_it():
    above = {f"{PACKAGE}.{name}" for name in ("reader", "syntax_errors", "writer")} | {PACKAGE}
    assert not _reach(f"{PACKAGE}.parser") & above


def test_the_cycle_finder_finds_one():
    GRAPH[f"{PACKAGE}.model"].add(f"{PACKAGE}.reader")
    try:
        assert _cycle() is not None
    finally:
        GRAPH[f"{PACKAGE}.model"].discard(f"{PACKAGE}.reader")
