"""How ``hexhop serve`` takes connections (docs/serve.md, "Connections").

uvicorn alone closes an idle connection 5 seconds after its last answer,
but sets no time for a request to arrive: a client that sends a request
line and then a header line every few seconds keeps its connection for
as long as it likes, and 200 such connections (uvicorn's limit here)
made every other request a 503. :class:`GuardedH11Protocol` is uvicorn's
h11 protocol with two guards:

- a request must arrive whole, headers and body, within
  :data:`REQUEST_SECONDS` of the connection's start or of the answer
  before it; else the server answers 408 and closes the connection;
- at most :data:`MAX_WAITING` connections wait for their request at
  once: one more closes the one that has waited longest, so the
  connections that wait never fill the server's :data:`MAX_CONNECTIONS`
  and a request that comes whole is always answered.

Nothing here reads a request's bytes: h11 parses them as before.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any
from weakref import WeakKeyDictionary

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

MAX_CONNECTIONS = 200  # open at once; a request beyond them is answered 503
MAX_WAITING = 100  # connections waiting for their request (or for the next one)
REQUEST_SECONDS = 10.0  # for a request to arrive whole (headers and body)
KEEP_ALIVE_SECONDS = 5  # an idle connection, after its last answer
MAX_HEADER_BYTES = 16 * 1024  # a request's line and headers (h11's own default)
TIMED_OUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: 33\r\n\r\nThe request did not come in time.\n"
)
# the connections that wait for a request, of each server, oldest first
_WAITING: WeakKeyDictionary[ServerState, dict[GuardedH11Protocol, float]] = WeakKeyDictionary()


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, with the guards of the module docstring."""

    request_seconds = REQUEST_SECONDS
    max_waiting = MAX_WAITING

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._wait()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
            self._stop_waiting()  # the request is whole (or the connection is done)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._wait()  # for the next request on this connection

    # -- the guards

    def _wait(self) -> None:
        """Start the time for a request to arrive, and close the
        connection that has waited longest when too many wait."""
        self._stop_waiting()
        self._deadline = self.loop.call_later(self.request_seconds, self._time_out)
        waiting = _WAITING.setdefault(self.server_state, {})
        waiting[self] = time.monotonic()
        while len(waiting) > self.max_waiting:
            oldest = next(iter(waiting))
            oldest._time_out()

    def _stop_waiting(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        _WAITING.get(self.server_state, {}).pop(self, None)

    def _time_out(self) -> None:
        """408 when no answer has begun, then close."""
        self._stop_waiting()
        if self.transport.is_closing():
            return
        if self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):  # no answer to it begun
            self.transport.write(TIMED_OUT)
        self.transport.close()


def server_config(
    app: Any, protocol: type[GuardedH11Protocol] = GuardedH11Protocol
) -> uvicorn.Config:
    """uvicorn's configuration for ``app`` with the limits above (the tests
    give a ``protocol`` with shorter times)."""
    return uvicorn.Config(
        app,
        http=protocol,
        log_level="warning",
        access_log=False,
        lifespan="off",
        server_header=False,
        limit_concurrency=MAX_CONNECTIONS,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
        timeout_graceful_shutdown=3,
    )
