"""The record language: text in, record trees out. No rules knowledge here.

``read_archive``/``parse_text`` read archives game by game,
``parse_action`` reads one action, ``format_record``/``format_archive``
write the canonical form.  The grammars are built on first use, so
importing this package stays cheap.
"""

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
