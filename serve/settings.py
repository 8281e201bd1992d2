"""What a running server serves, and how (the options of ``hexhop serve``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

LOOPBACK = ("127.0.0.1", "localhost", "::1")


@dataclass(frozen=True)
class Settings:
    """The server's settings; endpoints read them as ``request.app.state.settings``."""

    db: Path  # the index
    folders: tuple[Path, ...] = ()  # the served archive folders (real paths); writes go only here
    read_only: bool = False
    token: str | None = None
    host: str = "127.0.0.1"
    port: int = 8000


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (127.0.0.0/8, ::1, localhost)."""
    name = host.strip("[]").lower()
    return name in LOOPBACK or name.startswith("127.")
