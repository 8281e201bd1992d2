"""The editor: enter a game by clicking (its routes join the app in create_app)."""

from __future__ import annotations

from starlette.routing import BaseRoute


def routes() -> list[BaseRoute]:
    """The editor's routes (``/editor``, ``/api/editor/…``)."""
    return []
