"""``hexhop serve``'s connections on a real server (uvicorn on a free
loopback port, in a thread): slow clients, that send a header line every
few seconds or a body a byte at a time, neither keep others out nor keep
their connection; every loop here is bounded and the server is stopped."""

from __future__ import annotations

import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest
from serve_helpers import indexed_archive

pytest.importorskip("uvicorn", reason="the serve extra: pip install 'hexhop[serve]'")
import uvicorn  # noqa: E402

from hexhop.serve.app import create_app  # noqa: E402
from hexhop.serve.connections import (  # noqa: E402
    MAX_WAITING,
    GuardedH11Protocol,
    server_config,
)
from hexhop.serve.settings import Settings  # noqa: E402

SLOW_CLIENTS = 230  # as in the attack: more than the server's 200 connections


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    arch, db = indexed_archive(tmp_path_factory.mktemp("connections"))
    return Path(arch).resolve(), db


@contextmanager
def running(served, protocol: type[GuardedH11Protocol] = GuardedH11Protocol) -> Iterator[int]:
    """A server of the archive on a free loopback port (given), as ``hexhop
    serve`` runs it; stopped after the block."""
    arch, db = served
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    listening.listen(512)
    port = int(listening.getsockname()[1])
    app = create_app(Settings(db=db, folders=(arch,), port=port))
    server = uvicorn.Server(server_config(app, protocol))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    for _step in range(400):
        if server.started:
            break
        time.sleep(0.025)
    assert server.started, "the server did not start"
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(20)
        listening.close()
    assert not thread.is_alive(), "the server did not stop"


def slow_client(port: int, start: bytes) -> socket.socket:
    client = socket.create_connection(("127.0.0.1", port), timeout=5)
    client.sendall(start)
    return client


def answered(client: socket.socket) -> bytes:
    """What the server sent before it closed, or b"" while it keeps it open."""
    client.setblocking(False)
    got = b""
    with suppress(BlockingIOError, ConnectionError):
        while chunk := client.recv(4096):
            got += chunk
    return got


def get(port: int, path: str = "/") -> int:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return int(response.status)


HEADERS = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow-1: a\r\n"


def test_slow_headers_do_not_keep_others_out(served) -> None:
    """The attack: 230 connections that send the request line and a header
    line, then another every so often. A normal request is answered (200,
    not 503) while they are all open, and only the 100 that came last are
    left waiting; the others were answered 408 and closed."""
    with running(served) as port:
        clients = [slow_client(port, HEADERS) for _n in range(SLOW_CLIENTS)]
        try:
            for n, client in enumerate(clients):  # one more header line each
                with suppress(OSError):
                    client.sendall(b"X-Slow-2: %d\r\n" % n)
            assert get(port) == 200
            assert get(port, "/games/1") == 200
            answers = [answered(client) for client in clients]
            closed = [a for a in answers if a]
            assert len(closed) >= SLOW_CLIENTS - MAX_WAITING
            assert all(a.startswith(b"HTTP/1.1 408 Request Timeout\r\n") for a in closed)
        finally:
            for client in clients:
                client.close()


class Quick(GuardedH11Protocol):
    request_seconds = 0.5


@pytest.mark.parametrize(
    "start, more",
    [
        (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n", b"X-Slow: a\r\n"),  # headers, a line at a time
        (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET / HTTP/1.1\r\n", b"X-Slow: a\r\n"),
        (b"", b""),  # nothing at all
    ],
)
def test_a_request_that_does_not_come_whole_in_time_is_closed(served, start, more) -> None:
    with running(served, Quick) as port:
        client = slow_client(port, start)
        got = b""
        try:
            for _step in range(40):  # 8 s at most; the server closes it after 0.5
                time.sleep(0.2)
                with suppress(OSError):
                    client.sendall(more)
                got = answered(client)
                if got.endswith(b"The request did not come in time.\n"):
                    break
                client.setblocking(True)
        finally:
            client.close()
        assert got.endswith(
            b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
            b"connection: close\r\ncontent-length: 33\r\n\r\nThe request did not come in time.\n"
        ), got
        assert get(port) == 200


def test_a_body_that_does_not_come_in_time_is_not_taken(served) -> None:
    """A save whose body comes a byte at a time is closed, and its part of
    a body is never read as the request: nothing is written."""
    arch, _db = served
    before = sorted(p.name for p in arch.iterdir())
    body = b'{"text": "[Game \\"Hexalit\\"]\\n\\n1. B4W3 *\\n", "folder": 0, "name": "slow"}   '
    with running(served, Quick) as port:
        start = (
            b"POST /api/editor/save HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Cookie: hexhop_csrf=%s\r\nX-CSRF-Token: %s\r\nContent-Length: %d\r\n\r\n"
            % (b"t" * 40, b"t" * 40, len(body))
        )
        client = slow_client(port, start)
        got = b""
        try:
            for byte in body[:40]:  # 8 s at most; closed after 0.5
                time.sleep(0.2)
                with suppress(OSError):
                    client.sendall(bytes([byte]))
                got = answered(client)
                if got:
                    break
                client.setblocking(True)
        finally:
            client.close()
        assert got.startswith(b"HTTP/1.1 408 Request Timeout\r\n"), got
        assert get(port) == 200
    assert sorted(p.name for p in arch.iterdir()) == before
