"""The web application: :func:`create_app` wires the pages, the editor, the
static files and the security middleware together."""

from __future__ import annotations

from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles

from hexhop.messages import N_
from hexhop.records.errors import RecordsError

from . import editor, pages
from .security import Security
from .settings import Settings
from .templating import STATIC, error_response

NOT_FOUND = N_("Not found: no such page, game, player or event.")
NOT_ALLOWED = N_("This page cannot be used that way.")
BROKEN = N_("The server could not answer this request.")
INDEX_TROUBLE = N_("The index cannot be read.")


def create_app(settings: Settings) -> Starlette:
    """The application serving ``settings.db``."""
    routes: list[BaseRoute] = [
        *pages.routes(),
        *editor.routes(),
        Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(Security, settings=settings)],
        exception_handlers={
            HTTPException: _http_error,
            RecordsError: _index_error,
            Exception: _server_error,
        },
    )
    app.state.settings = settings
    return app


async def _http_error(request: Request, error: Any) -> Response:
    status = getattr(error, "status_code", 500)
    detail = getattr(error, "detail", "")
    message = {404: NOT_FOUND, 405: NOT_ALLOWED}.get(status)
    if message is None:
        message, detail = (detail or BROKEN), ""
    elif detail and detail in (NOT_FOUND, "Not Found", "Method Not Allowed"):
        detail = ""
    return error_response(request, status, message, str(detail))


async def _index_error(request: Request, error: Exception) -> Response:
    return error_response(request, 503, INDEX_TROUBLE, str(error))


async def _server_error(request: Request, error: Exception) -> Response:
    return error_response(request, 500, BROKEN)
