"""The archive's pages: search, games, players, events."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from .templating import page


def archive(request: Request) -> Response:
    return page(request, "archive.html")


def routes() -> list[BaseRoute]:
    return [Route("/", archive, name="archive")]
