"""The archive page's form, read into a :class:`~hexhop.archive.query.Query`:
the filters of ``hexhop find``, read by its own functions (no second query
language)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from hexhop.archive.query import (
    MAX_PATTERN,
    Query,
    QueryError,
    board_size,
    date_range,
    finding_code,
    int_range,
    openings,
    player_pattern,
    position_targets,
    result_filter,
    side_name,
    tag_filter,
)
from hexhop.messages import _
from hexhop.notation.games import GAMES, lookup_game
from hexhop.notation.numbers import ascii_int

from .data import SORTS

FIELDS = (
    "player",
    "player2",
    "event",
    "site",
    "date_from",
    "date_to",
    "result",
    "winner",
    "game",
    "board",
    "valid",
    "finding",
    "plies",
    "after",
    "position",
    "missed",
    "blunder",
)
MAX_PAGE = 1_000_000
_GLOB = re.compile(r"[*?\[]")


@dataclass
class Search:
    """A search as the form gave it: the values to show again, the query,
    the order and the page; ``problem`` when a filter cannot be read."""

    values: dict[str, str] = field(default_factory=dict)
    query: Query = field(default_factory=Query)
    sort: str = ""
    reverse: bool = False
    page: int = 1
    problem: str | None = None

    @property
    def filtered(self) -> bool:
        return any(self.values.get(name) for name in FIELDS)

    def params(self, **changes: str | int | None) -> dict[str, str]:
        """The query parameters of this search, with some changed."""
        params = {name: value for name, value in self.values.items() if value}
        sort = ("-" if self.reverse else "") + self.sort if self.sort else ""
        if sort:
            params["sort"] = sort
        if self.page > 1:
            params["page"] = str(self.page)
        for name, value in changes.items():
            if value in (None, ""):
                params.pop(name, None)
            else:
                params[name] = str(value)
        return params


def read_search(params: Mapping[str, str]) -> Search:
    """The search of the query parameters ``params`` (QueryError's message
    in ``problem``, in the language spoken now)."""
    values = {name: params.get(name, "").strip() for name in FIELDS}
    values = {name: value for name, value in values.items() if value}
    search = Search(values=values)
    sort = params.get("sort", "")
    search.reverse = sort.startswith("-")
    search.sort = sort.lstrip("-") if sort.lstrip("-") in SORTS else ""
    page = ascii_int(params.get("page", "1")) or 1
    search.page = min(page, MAX_PAGE)
    try:
        search.query = query_of(values)
    except QueryError as error:
        search.problem = str(error)
    return search


def _contains(name: str, text: str) -> tuple[str, tuple[str, str]]:
    """A tag filter: the value holds ``text`` (or matches it as a glob, when it has one)."""
    pattern = text if _GLOB.search(text) else f"*{text}*"
    return tag_filter(f"{name}={pattern}")


def query_of(values: Mapping[str, str]) -> Query:
    """The :class:`Query` of the form's values (QueryError when one cannot be read)."""
    for value in values.values():
        if len(value) > MAX_PATTERN * 20:
            raise QueryError(_("The search text is too long."))
    game = None
    if values.get("game"):
        spec = lookup_game(values["game"])
        if spec is None:
            raise QueryError(_("Unknown game."))
        game = spec.name
    board = values.get("board")
    size = board_size(board) if board else None
    date = None
    if values.get("date_from") or values.get("date_to"):
        date = date_range(f"{values.get('date_from', '')}..{values.get('date_to', '')}")
    valid = {"valid": True, "invalid": False}.get(values.get("valid", ""))
    notes = tuple(
        kind for key, kind in (("missed", "missed"), ("blunder", "allows")) if values.get(key)
    )
    return Query(
        players=tuple(
            player_pattern(values[name], "--player")
            for name in ("player", "player2")
            if values.get(name)
        ),
        tags=tuple(
            _contains(tag, values[name])
            for name, tag in (("event", "Event"), ("site", "Site"))
            if values.get(name)
        ),
        result=result_filter(values["result"]) if values.get("result") else None,
        winner=side_name(values["winner"]) if values.get("winner") else None,
        game=game,
        board=size,
        date=date,
        plies=int_range(values["plies"], "--length") if values.get("plies") else None,
        valid=valid,
        findings=(finding_code(values["finding"]),) if values.get("finding") else (),
        positions=position_targets(values["position"], game, board or None)
        if values.get("position")
        else (),
        openings=openings(values["after"], game) if values.get("after") else (),
        notes=notes,
    )


def game_names() -> list[str]:
    return [spec.name for spec in GAMES]


def board_names() -> list[str]:
    return sorted(
        {f"{n}x{n}" for spec in GAMES for n in spec.board_sizes}, key=lambda b: int(b.split("x")[0])
    )


def side_names() -> list[str]:
    return list(dict.fromkeys(side for spec in GAMES for side in spec.sides))
