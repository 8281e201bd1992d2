"""What every request and response goes through (docs/serve.md, "Safety").

- Every response carries a strict Content-Security-Policy (no inline
  script or style: scripts come from /static, their data from JSON
  blocks), ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy:
  no-referrer``, and may not be framed.
- With an access token (``--token``), every request carries it: once as
  ``?token=`` (kept in a cookie from then on, and the address given again
  without it), or as ``Authorization: Bearer``; without it, 401.
- A request whose ``Host`` is not a name this server answers to
  (:func:`~hexhop.serve.settings.answers_to`: the loopback addresses,
  ``localhost`` and the ``--host`` given) is refused (400), so that a web
  page cannot reach the server under a name of its own (DNS rebinding).
- A write (any method but GET, HEAD and OPTIONS) is refused (403) with
  ``--read-only`` (but for the requests that only compute an answer: the
  editor's steps and a position set up by clicks; saving is refused),
  when its ``Origin`` is not the server's own, and when
  it does not carry the ``hexhop_csrf`` cookie's token as header
  ``X-CSRF-Token`` or form field ``csrf_token`` (double submit: a page of
  another site can neither read the cookie nor set the header).
- A request body is at most :data:`MAX_BODY` bytes (413 beyond).
"""

from __future__ import annotations

import hmac
import re
import secrets
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs, quote_from_bytes, urlencode, urlsplit

from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.responses import RedirectResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hexhop.messages import N_
from hexhop.notation.errors import Error
from hexhop.notation.numbers import ascii_int

from .i18n import COOKIE as LANG_COOKIE
from .i18n import known
from .settings import Settings, answers_to

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
}
CSRF_COOKIE = "hexhop_csrf"
CSRF_HEADER = "x-csrf-token"
CSRF_FIELD = "csrf_token"
TOKEN_COOKIE = "hexhop_token"
MAX_BODY = 1024 * 1024  # bytes of a request's body
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class Security:
    """The ASGI middleware of the module docstring."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        cookies = request.cookies
        csrf = cookies.get(CSRF_COOKIE, "")
        fresh_csrf = not _token_shaped(csrf)
        if fresh_csrf:
            csrf = secrets.token_urlsafe(32)
        scope.setdefault("state", {})["csrf_token"] = csrf
        set_cookies: list[str] = []
        if fresh_csrf:
            set_cookies.append(_cookie(CSRF_COOKIE, csrf, http_only=False))
        lang = known(request.query_params.get("lang"))
        if lang and cookies.get(LANG_COOKIE) != lang:
            set_cookies.append(_cookie(LANG_COOKIE, lang, http_only=False, age=365 * 86400))

        refusal = self._refusal(request, set_cookies)
        if refusal is None and self.settings.token is not None and "token" in request.query_params:
            # the token goes into the cookie and out of the address bar (and history)
            kept = [(k, v) for k, v in request.query_params.multi_items() if k != "token"]
            target = own_path(scope) + ("?" + urlencode(kept) if kept else "")
            moved = RedirectResponse(target, status_code=303)
            for cookie in set_cookies:
                moved.headers.append("set-cookie", cookie)
            for name, value in HEADERS.items():
                moved.headers[name] = value
            await moved(scope, receive, send)
            return
        if refusal is not None:
            status, message = refusal
            await _refuse(scope, receive, send, status, message, set_cookies)
            return

        if request.method not in SAFE_METHODS:
            length = ascii_int(request.headers.get("content-length", "0").strip() or "0")
            if length is None or length > MAX_BODY:
                await _refuse(scope, receive, send, 413, TOO_LARGE, set_cookies)
                return
            try:
                body = await _read_body(receive)
            except ClientGone:  # it left (or was timed out) before its body came whole
                return
            if body is None:
                await _refuse(scope, receive, send, 413, TOO_LARGE, set_cookies)
                return
            if not self._csrf_passes(request, body, csrf if not fresh_csrf else ""):
                await _refuse(scope, receive, send, 403, NO_CSRF, set_cookies)
                return
            receive = _replay(body)

        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = MutableHeaders(scope=message)
                _secure(headers, set_cookies)
            await send(message)

        await self.app(scope, receive, send_with_headers)

    # -- the checks

    def _refusal(self, request: Request, set_cookies: list[str]) -> tuple[int, str] | None:
        settings = self.settings
        if not self._host_allowed(request.headers.get("host", "")):
            return 400, WRONG_HOST
        if settings.token is not None:
            given = request.query_params.get("token")
            if given is not None and _same(given, settings.token):
                set_cookies.append(_cookie(TOKEN_COOKIE, settings.token, http_only=True))
            elif not (
                _same(request.cookies.get(TOKEN_COOKIE, ""), settings.token)
                or _same(_bearer(request.headers.get("authorization", "")), settings.token)
            ):
                return 401, NO_TOKEN
        if request.method not in SAFE_METHODS:
            if settings.read_only and _changes_files(request.url.path):
                return 403, READ_ONLY
            origin = request.headers.get("origin")
            if origin is not None and not self._origin_allowed(origin):
                return 403, FOREIGN_ORIGIN
        return None

    def _host_allowed(self, host: str) -> bool:
        """Whether the ``Host`` header names this server (in tests too)."""
        return answers_to(_host_name(host), self.settings.host)

    def _origin_allowed(self, origin: str) -> bool:
        """Whether ``Origin`` is this server: a name it answers to, its port."""
        try:
            parts = urlsplit(origin)
            port = parts.port
        except ValueError:
            return False
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return False
        if port is None:
            port = 443 if parts.scheme == "https" else 80
        return port == self.settings.port and answers_to(parts.hostname, self.settings.host)

    def _csrf_passes(self, request: Request, body: bytes, cookie: str) -> bool:
        if not cookie:
            return False
        given = request.headers.get(CSRF_HEADER)
        if given is None:
            kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
            if kind == "application/x-www-form-urlencoded":
                try:
                    fields = parse_qs(body.decode("utf-8"), max_num_fields=1000)
                except (UnicodeDecodeError, ValueError):
                    return False
                given = (fields.get(CSRF_FIELD) or [""])[0]
        return given is not None and _same(given, cookie)


# -- messages (translated by the page that tells them)

WRONG_HOST = N_("This server does not answer to that host name.")
NO_TOKEN = N_(
    "This server needs its access token: open the address hexhop serve printed (with ?token=…)."
)
READ_ONLY = N_("The server is read-only: nothing can be saved.")
FOREIGN_ORIGIN = N_("Refused: the request came from another site.")
NO_CSRF = N_("Refused: the request did not carry this page's security token. Reload the page.")
TOO_LARGE = N_("Refused: the request is larger than the server accepts (1 MiB).")


def _host_name(host: str) -> str:
    """The name of a ``Host`` header (``name``, ``name:port``, ``[v6]``,
    ``[v6]:port``); empty when the header is none of these."""
    found = _HOST.fullmatch(host.strip().lower())
    if found is None:
        return ""
    return found.group("v6") or found.group("name") or ""


_HOST = re.compile(r"(?:\[(?P<v6>[0-9a-f:.]+)\]|(?P<name>[^:\[\]]+))(?::[0-9]{1,5})?")


def own_path(scope: Scope) -> str:
    """The request's path as an address of this server, for a ``Location``:
    as it came (still escaped: ``/%2F%2Fx`` stays so), with what a browser
    would read otherwise escaped (``\\`` as ``%5C``, a tab as ``%09``), and
    one leading ``/`` only. ``//evil.example/x`` would be another site (an
    address without its scheme), so it becomes ``/evil.example/x``."""
    raw = scope.get("raw_path") or scope.get("path", "/").encode("utf-8")
    path = quote_from_bytes(bytes(raw), safe=PATH_SAFE)
    return "/" + path.lstrip("/")


PATH_SAFE = "/%:@!$&'()*+,;="  # and letters, digits, '_.-~': kept as they are in a Location


def _token_shaped(value: str) -> bool:
    return 20 <= len(value) <= 100 and all(c.isalnum() or c in "-_" for c in value)


def _same(given: str, wanted: str) -> bool:
    return bool(given) and hmac.compare_digest(given.encode(), wanted.encode())


def _bearer(header: str) -> str:
    kind, _space, value = header.strip().partition(" ")
    return value.strip() if kind.lower() == "bearer" else ""


def _cookie(name: str, value: str, *, http_only: bool, age: int | None = None) -> str:
    cookie: SimpleCookie = SimpleCookie()
    cookie[name] = value
    morsel = cookie[name]
    morsel["path"] = "/"
    morsel["samesite"] = "Strict"
    if http_only:
        morsel["httponly"] = True
    if age is not None:
        morsel["max-age"] = age
    return morsel.OutputString()


def _secure(headers: MutableHeaders, set_cookies: list[str]) -> None:
    for name, value in HEADERS.items():
        headers[name] = value
    for cookie in set_cookies:
        headers.append("set-cookie", cookie)


class ClientGone(Error):
    """The connection ended before the request's body came whole."""


async def _read_body(receive: Receive) -> bytes | None:
    """The whole body; None when it is longer than :data:`MAX_BODY`.
    :class:`ClientGone` when the connection ended before it came whole:
    a part of a body is never taken for the body."""
    parts: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientGone()
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            return None
        parts.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(parts)


def _replay(body: bytes) -> Receive:
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    return receive


async def _refuse(
    scope: Scope, receive: Receive, send: Send, status: int, message: str, cookies: list[str]
) -> None:
    """A refusal as a small page in the request's language (JSON for /api/)."""
    from .templating import error_response

    response: Any = error_response(Request(scope), status, message)

    async def send_with_headers(sent: Message) -> None:
        if sent["type"] == "http.response.start":
            _secure(MutableHeaders(scope=sent), cookies)
        await send(sent)

    await response(scope, receive, send_with_headers)


# POSTs that only compute an answer (the editor's next position, a position
# set up by clicks): a read-only server answers them; all others change files
ANSWERS_ONLY = ("/api/editor/", "/api/position/")
SAVES = ("/api/editor/save",)


def _changes_files(path: str) -> bool:
    """Whether a write to ``path`` may change the archive (refused read-only)."""
    return path.startswith(SAVES) or not path.startswith(ANSWERS_ONLY)
