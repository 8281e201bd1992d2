"""No import cycle within a package.

Every ``hexhop`` import of every module of the source folders counts, at
module level, under ``if TYPE_CHECKING:`` and inside functions alike, in the
relative (``from .index import x``) and the absolute (``from
hexhop.archive.index import x``) form. The folders become ``hexhop.*``
through ``[tool.setuptools] package-dir`` in pyproject.toml, which is read
here, so the graph is that of the checkout, whatever is installed.
"""

from __future__ import annotations

import ast
from pathlib import Path

from hexhop.messages.catalogue import package_dir

ROOT = Path(__file__).resolve().parent.parent


def _modules() -> dict[str, tuple[str, Path]]:
    """Each module of the source folders by dotted name: its folder and file."""
    found: dict[str, tuple[str, Path]] = {}
    for package, folder in package_dir(ROOT / "pyproject.toml").items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = [package, *path.relative_to(ROOT / folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = (folder, path)
    return found


MODULES = _modules()


def _imported(name: str, path: Path) -> set[str]:
    """The modules of :data:`MODULES` that ``path`` imports, wherever the
    import statement is."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            # ``from . import facts`` names a module, ``from .facts import x`` a name
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                for alias in node.names
            ]
        else:
            continue
        found |= {target for target in targets if target in MODULES and target != name}
    return found


#: Module -> the modules it imports from its own folder.
GRAPH = {
    name: {target for target in _imported(name, path) if MODULES[target][0] == folder}
    for name, (folder, path) in MODULES.items()
}


def _components(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` with more than one
    module (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        on_stack.add(name)
        for target in sorted(graph[name]):
            if target not in index:
                visit(target)
                low[name] = min(low[name], low[target])
            elif target in on_stack:
                low[name] = min(low[name], index[target])
        if low[name] == index[name]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == name:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return sorted(out)


def _cycle(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """A shortest cycle through the first module of ``component``."""
    first = component[0]
    inside = set(component)
    came_from: dict[str, str] = {}
    todo = [first]
    while todo:
        following = []
        for name in todo:
            for target in sorted(graph[name] & inside):
                if target == first:
                    path = [name]
                    while path[-1] != first:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), first]
                if target not in came_from:
                    came_from[target] = name
                    following.append(target)
        todo = following
    raise AssertionError(f"no cycle through {first}")


def _file(name: str) -> str:
    return MODULES[name][1].relative_to(ROOT).as_posix()


def test_the_graph_is_read() -> None:
    # every folder of the checkout that is a package is in package-dir
    packages = {path.parent.name for path in ROOT.glob("*/__init__.py")}
    assert {folder for folder, _ in MODULES.values()} == packages
    assert MODULES["hexhop.archive.index"][1] == ROOT / "archive" / "index.py"
    assert MODULES["hexhop.engine.dice"][1] == ROOT / "engine" / "dice" / "__init__.py"
    assert "hexhop.games" in MODULES
    # relative, absolute, in a function, under TYPE_CHECKING
    assert "hexhop.render.raster" in GRAPH["hexhop.render.png"]
    assert "hexhop.archive.facts" in GRAPH["hexhop.archive.query"]
    assert "hexhop.notation.reader" in GRAPH["hexhop.notation"]
    index = MODULES["hexhop.archive.index"][1]
    assert {"hexhop.records.jobs", "hexhop.records.checking"} <= _imported(
        "hexhop.archive.index", index
    )
    # a module of another folder is no edge of this graph
    assert "hexhop.records.jobs" not in GRAPH["hexhop.archive.index"]


def test_no_import_cycle_within_a_package() -> None:
    cycles = [" -> ".join(map(_file, _cycle(GRAPH, c))) for c in _components(GRAPH)]
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_the_cycle_finder_finds_a_long_one() -> None:
    graph = {"a": {"b"}, "b": {"c", "e"}, "c": {"d"}, "d": {"b"}, "e": set(), "f": {"f"}}
    assert _components(graph) == [["b", "c", "d"]]
    assert _cycle(graph, ["b", "c", "d"]) == ["b", "c", "d", "b"]
