"""What a running server serves, and how (the options of ``hexhop serve``)."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from pathlib import Path

LOCALHOST = "localhost"
IPV6_LOOPBACK = ipaddress.IPv6Address("::1")
WILDCARDS = ("0.0.0.0", "::", "")  # --host values that listen on every address


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
    """Whether ``host`` names this machine only: ``localhost``, ``::1``
    (also ``[::1]``), or an IPv4 address of 127.0.0.0/8 written as one
    (``127.0.0.2``; not ``127.1``, ``0127.0.0.1`` nor a name such as
    ``127.attacker.example``, which any DNS server can point anywhere)."""
    name = _bare(host)
    if name == LOCALHOST:
        return True
    address = _address(name)
    if address is None:
        return False
    if address.version == 6:
        return address == IPV6_LOOPBACK
    return address.is_loopback


def answers_to(name: str, host: str) -> bool:
    """Whether a server listening on ``host`` (its ``--host``) answers a
    request for the host name ``name`` (of its ``Host`` header, without the
    port): a loopback name (:func:`is_loopback`) and ``host`` itself always;
    when ``host`` listens on every address (``0.0.0.0``, ``::``), also
    this machine's name and any IP address. Nothing else: a page served
    under another name, which its DNS may point at this machine, cannot
    reach the server (DNS rebinding needs a name; an address cannot be
    pointed elsewhere)."""
    name = _bare(name)
    if not name:
        return False
    listening = _bare(host)
    if is_loopback(name) or name == listening:
        return True
    if listening not in WILDCARDS:
        return False
    return _address(name) is not None or name == socket.gethostname().lower()


def _bare(host: str) -> str:
    """``host`` in lower case, without the brackets of an IPv6 address."""
    name = host.strip().lower()
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    return name


def _address(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None
