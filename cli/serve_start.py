"""What ``hexhop serve`` checks before it serves (no import of the serve extra)."""

from __future__ import annotations

import secrets

import click

from hexhop.messages import _

MIN_TOKEN = 16  # characters of a token given with --token


def check_host(host: str, read_only: bool, token: str | None) -> None:
    """Refuse to listen beyond this machine without --read-only or --token."""
    from hexhop.serve.settings import is_loopback  # plain Python: no import of the extra

    if not is_loopback(host) and not read_only and token is None:
        raise click.UsageError(
            _(
                "--host {host} lets other machines reach the archive: add --read-only, "
                "or --token to let only those who have the token in"
            ).format(host=host)
        )


def check_token(token: str | None) -> str | None:
    """The token to require: ``new`` makes a random one; a given one must be long enough."""
    if token is None:
        return None
    if token == "new":
        return secrets.token_urlsafe(24)
    if len(token) < MIN_TOKEN or not all(c.isalnum() or c in "-_." for c in token):
        raise click.UsageError(
            _(
                "--token: give at least {count} letters, digits, '-', '_' or '.' (or 'new' "
                "for a random one)"
            ).format(count=MIN_TOKEN)
        )
    return token
