"""What the pages read from the index: the archive service of the
library (:mod:`hexhop.archive.service`), with the page size of the
archive page. The web app keeps no schema and no SQL of its own."""

from __future__ import annotations

from hexhop.archive import service
from hexhop.archive.query import Query
from hexhop.archive.service import (
    SORTS,
    Named,
    Row,
    analysed,
    cached,
    events,
    game_row,
    games_of_event,
    games_of_player,
    light,
    names_of,
    notes_of,
    player_of,
    players,
    solved_of,
    standing_games,
    state_of,
)

PAGE_SIZE = service.PAGE_SIZE

__all__ = [
    "PAGE_SIZE",
    "SORTS",
    "Named",
    "Row",
    "analysed",
    "cached",
    "events",
    "game_row",
    "games_of_event",
    "games_of_player",
    "light",
    "names_of",
    "notes_of",
    "player_of",
    "players",
    "search",
    "solved_of",
    "standing_games",
    "state_of",
]


def search(db: str, query: Query, sort: str, reverse: bool, page: int) -> tuple[int, list[Row]]:
    """Page ``page`` of the games ``query`` matches, :data:`PAGE_SIZE` a page."""
    return service.search(db, query, sort, reverse, page, PAGE_SIZE)
