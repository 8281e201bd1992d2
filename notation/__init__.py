"""The record language: text in, record trees out. No rules knowledge here.

``read_archive``/``parse_text`` read archives game by game,
``parse_action`` reads one action, ``format_record``/``format_archive``
write the canonical form.  Each name is imported on first use and the
grammars are built on first use, so importing this package stays cheap.
"""

TYPE_CHECKING = False  # typing.TYPE_CHECKING without the cost of importing typing
if TYPE_CHECKING:
    from .findings import CATALOGUE, Finding, NotationError, make
    from .limits import ReadLimits
    from .model import (
        GAMES,
        CubeAnswer,
        CubeOffer,
        DiceAction,
        HopAction,
        Item,
        Line,
        Node,
        ParsedGame,
        Record,
        Span,
        Tag,
    )
    from .names import game_from_name, game_from_path
    from .reader import parse_action, parse_text, read_archive
    from .writer import format_archive, format_record

# Where each public name lives; the module is imported when the name is first
# used, so importing one leaf module (findings, names) loads no grammar.
_EXPORTS = {
    **dict.fromkeys(("CATALOGUE", "Finding", "NotationError", "make"), ".findings"),
    "ReadLimits": ".limits",
    **dict.fromkeys(
        (
            "GAMES",
            "CubeAnswer",
            "CubeOffer",
            "DiceAction",
            "HopAction",
            "Item",
            "Line",
            "Node",
            "ParsedGame",
            "Record",
            "Span",
            "Tag",
        ),
        ".model",
    ),
    **dict.fromkeys(("game_from_name", "game_from_path"), ".names"),
    **dict.fromkeys(("parse_action", "parse_text", "read_archive"), ".reader"),
    **dict.fromkeys(("format_archive", "format_record"), ".writer"),
}

__all__ = [
    "CATALOGUE",
    "GAMES",
    "CubeAnswer",
    "CubeOffer",
    "DiceAction",
    "Finding",
    "HopAction",
    "Item",
    "Line",
    "Node",
    "NotationError",
    "ParsedGame",
    "ReadLimits",
    "Record",
    "Span",
    "Tag",
    "format_archive",
    "format_record",
    "game_from_name",
    "game_from_path",
    "make",
    "parse_action",
    "parse_text",
    "read_archive",
]


def __getattr__(name: str) -> object:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(_EXPORTS[name], __name__), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
