"""hexhop: records of Hexalit, Trigeo and Hüpfer games for scripts and notebooks.

    >>> import hexhop
    >>> for game in hexhop.read_games("samples/good/trigeo-goettingen-1999.trg"):
    ...     print(game.tags["North"], game.valid, game.end)
    Ute Sommer True End(winner='South', ply=40)
    >>> picture = game.svg(12)                        # shows inline in Jupyter

    >>> p = hexhop.position("Hexalit", "N: A7=1 C7=2; S: F7=1 D6=2; turn: N")
    >>> hexhop.legal_actions(p)
    ['A7XA5', ..., 'C7°D6']
    >>> hexhop.rules_for("Hexalit").play(p, "C7°D6").position.text()  # an action or its text
    'N: A7=1 D6=2; S: F7=1; turn: S'

    >>> g = hexhop.Game.new("Hexalit", North="Anna", South="Jonas")
    >>> print(g.play("B4W3"), g.play("D7W1"))
    B4W3 D7W1
    >>> g.record().splitlines()[-1]                   # as hexhop fmt writes it
    '1. B4W3 D7W1 *'

The archive operations are calls too: :func:`check_paths` (``hexhop
check``), :func:`index_paths` and :func:`open_index` (``hexhop index``,
``find``, ``dupes``, ``stats``, and a crosstable of the players).

Every error the library raises is a :class:`hexhop.Error` (a missing file,
a record that cannot be read, an action that is not legal:
:class:`hexhop.IllegalAction`, also a ``ValueError``; a value a function
does not take: :class:`hexhop.ArgumentError`, also a ``ValueError``).

The names below are imported on first use, so ``import hexhop`` (which every
run of the ``hexhop`` program does) costs next to nothing. The layers under
this API: :mod:`hexhop.notation` (reading and writing records, no rules),
:mod:`hexhop.engine` (the rules and the replay), :mod:`hexhop.render`
(pictures), :mod:`hexhop.records` (record files and archives: listing,
checking, reports, JSON), with the games' table in
:mod:`hexhop.notation.games`.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without the cost of importing typing
if TYPE_CHECKING:
    from hexhop.engine.base import HeaderError, IllegalAction, Position
    from hexhop.engine.games import rules_for
    from hexhop.engine.replay import End, Visitor
    from hexhop.notation import (
        Finding,
        NotationError,
        ReadLimits,
        format_archive,
        format_record,
        parse_text,
        read_archive,
    )
    from hexhop.notation.errors import ArgumentError, Error
    from hexhop.notation.games import GameSpec, UnknownGame, find_game
    from hexhop.notation.reader import parse_action
    from hexhop.records.checking import CheckOptions, FileResult, check_source
    from hexhop.records.sources import Limits, Source, iter_sources

    from .games import SVG, Game, NoSuchPly, legal_actions, png, position, read_games, svg
    from .indexes import Crosstable, Index, index_paths, open_index
    from .runs import CheckRun, check_paths

    __version__: str

# Where each public name lives; the module is imported when the name is first used.
_EXPORTS = {
    "Game": ".games",
    "NoSuchPly": ".games",
    "CheckRun": ".runs",
    "check_paths": ".runs",
    "Crosstable": ".indexes",
    "Index": ".indexes",
    "index_paths": ".indexes",
    "open_index": ".indexes",
    "UnknownGame": "hexhop.notation.games",
    "parse_action": "hexhop.notation.reader",
    "SVG": ".games",
    "legal_actions": ".games",
    "png": ".games",
    "position": ".games",
    "read_games": ".games",
    "svg": ".games",
    "Error": "hexhop.notation.errors",
    "ArgumentError": "hexhop.notation.errors",
    "HeaderError": "hexhop.engine.base",
    "IllegalAction": "hexhop.engine.base",
    "Position": "hexhop.engine.base",
    "rules_for": "hexhop.engine.games",
    "End": "hexhop.engine.replay",
    "Visitor": "hexhop.engine.replay",
    "Finding": "hexhop.notation",
    "NotationError": "hexhop.notation",
    "ReadLimits": "hexhop.notation",
    "format_archive": "hexhop.notation",
    "format_record": "hexhop.notation",
    "parse_text": "hexhop.notation",
    "read_archive": "hexhop.notation",
    "GameSpec": "hexhop.notation.games",
    "find_game": "hexhop.notation.games",
    "CheckOptions": "hexhop.records.checking",
    "FileResult": "hexhop.records.checking",
    "check_source": "hexhop.records.checking",
    "Limits": "hexhop.records.sources",
    "Source": "hexhop.records.sources",
    "iter_sources": "hexhop.records.sources",
}

__all__ = [
    "SVG",
    "ArgumentError",
    "CheckOptions",
    "End",
    "Error",
    "FileResult",
    "Finding",
    "Game",
    "GameSpec",
    "HeaderError",
    "IllegalAction",
    "Limits",
    "NotationError",
    "Position",
    "ReadLimits",
    "Source",
    "Visitor",
    "__version__",
    "check_source",
    "find_game",
    "format_archive",
    "format_record",
    "iter_sources",
    "legal_actions",
    "parse_text",
    "png",
    "position",
    "read_archive",
    "read_games",
    "rules_for",
    "svg",
    "NoSuchPly",
    "CheckRun",
    "check_paths",
    "Crosstable",
    "Index",
    "index_paths",
    "open_index",
    "UnknownGame",
    "parse_action",
]


def __getattr__(name: str) -> object:
    if name == "__version__":
        value: object = _version()
    elif name in _EXPORTS:
        from importlib import import_module

        value = getattr(import_module(_EXPORTS[name], __name__), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


def _version() -> str:
    """The installed distribution's version: pyproject.toml's ``version``,
    the one source that ``hexhop --version`` reads as well."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hexhop")
    except PackageNotFoundError:  # imported from a copy that was never installed
        return "0+unknown"


def compiled_modules() -> list[str]:
    """The hexhop modules that run as C extensions (a build with
    ``HEXHOP_COMPILE=1``), sorted; found from the installed files, without
    importing them, so that ``hexhop --version`` stays fast. A module is
    compiled when an extension file of its name lies in its package's folder
    (Python then prefers it to the .py file beside it)."""
    from importlib.machinery import EXTENSION_SUFFIXES
    from importlib.util import find_spec
    from pathlib import Path

    spec = find_spec("hexhop")
    if spec is None or not spec.submodule_search_locations:
        return []
    found = []
    for location in spec.submodule_search_locations:
        root = Path(location)
        for path in root.rglob("*"):
            suffix = next((s for s in EXTENSION_SUFFIXES if path.name.endswith(s)), None)
            if suffix is None or not path.is_file():
                continue
            parts = [*path.relative_to(root).parent.parts, path.name[: -len(suffix)]]
            found.append(".".join(["hexhop", *parts]))
    return sorted(set(found))


def build_kind() -> str:
    """Which build runs, for ``hexhop --version``: ``"pure Python"``, or
    ``"compiled (mypyc): "`` and the modules compiled, as
    :func:`compiled_modules` finds them."""
    modules = compiled_modules()
    if not modules:
        return "pure Python"
    return "compiled (mypyc): " + ", ".join(modules)
