"""Pages from Jinja2 templates, escaped everywhere, in the request's language."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from hexhop.records.text import printable, utf8_safe

from .i18n import language_of, plural_translator, translator

TEMPLATES = Path(__file__).parent / "templates"
STATIC = Path(__file__).parent / "static"

# the characters that could act on what is shown around them: controls
# (not tab and newline), bidirectional marks, embeddings, overrides and
# isolates, the line and paragraph separators; shown as escapes (\u202e)
_UNSEEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def visible(value: Any) -> Any:
    """Text with every character of :data:`_UNSEEN` written as its escape
    (markup made here, :class:`Markup`, passes as it is)."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return _UNSEEN.sub(lambda found: printable(found[0]), utf8_safe(value))
    return value


_ENVIRONMENT = Environment(
    loader=FileSystemLoader(str(TEMPLATES)),
    autoescape=select_autoescape(default=True, default_for_string=True),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    finalize=visible,
)


def environment() -> Environment:
    return _ENVIRONMENT


_DATE = re.compile(r"([0-9]{4}|\?{4})(?:\.([0-9]{2}|\?\?))?(?:\.([0-9]{2}|\?\?))?")


def shown_date(text: str | None, lang: str) -> str:
    """A Date tag for a person to read, as :func:`hexhop.messages.date`
    writes it, in ``lang`` (German: the day first, ``07.03.2003``)."""
    if not text:
        return ""
    found = _DATE.fullmatch(text)
    if lang != "de" or found is None:
        return text
    parts = [part for part in found.groups() if part is not None]
    while len(parts) > 1 and parts[-1] == "??":
        parts.pop()
    return ".".join(reversed(parts))


def context_of(request: Request) -> dict[str, Any]:
    """What every template gets: ``_``, ``ngettext``, ``lang``,
    ``csrf_token``, ``read_only``, and helpers."""
    lang = language_of(request)
    settings = getattr(request.app.state, "settings", None)
    state = request.scope.get("state", {})

    def url_with(**changes: Any) -> str:
        """This page's URL with some query parameters changed (None: dropped)."""
        params = dict(request.query_params)
        params.pop("token", None)
        params.pop("lang", None)
        for key, value in changes.items():
            if value is None:
                params.pop(key, None)
            else:
                params[key] = str(value)
        query = urlencode(params)
        return request.url.path + ("?" + query if query else "")

    return {
        "_": translator(lang),
        "ngettext": plural_translator(lang),
        "lang": lang,
        "csrf_token": state.get("csrf_token", ""),
        "read_only": bool(settings.read_only) if settings is not None else False,
        "request": request,
        "url_with": url_with,
        "path": request.url.path,
        "date": lambda text: shown_date(text, lang),
        "number": lambda value, digits=None: _number(value, digits, lang),
    }


def _number(value: float, digits: int | None, lang: str) -> str:
    text = str(value) if digits is None else f"{value:.{digits}f}"
    return text.replace(".", ",") if lang == "de" else text


def render(request: Request, template_name: str, **context: Any) -> str:
    template = _ENVIRONMENT.get_template(template_name)
    return template.render({**context_of(request), **context})


def page(
    request: Request, template_name: str, status_code: int = 200, **context: Any
) -> HTMLResponse:
    """The page ``template_name`` for ``request`` (``context`` added to what every page gets)."""
    return HTMLResponse(render(request, template_name, **context), status_code=status_code)


def json_block(element_id: str, data: Any) -> Markup:
    """``data`` as ``<script type="application/json" id=…>``: JSON that
    cannot end the element (``<``, ``>``, ``&`` and the line separators
    escaped), for a script of /static to read."""
    import json

    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(raw, escaped)
    return Markup('<script type="application/json" id="{}">').format(element_id) + Markup(
        text + "</script>"
    )


class JsonAnswer(JSONResponse):
    """JSON as Starlette writes it, in UTF-8; but text that holds a lone
    surrogate (JSON can carry one, ``"\\ud800"``, and a refusal may give
    it back) is written with escapes, which no UTF-8 could hold."""

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return json.dumps(content, allow_nan=False, separators=(",", ":")).encode("ascii")


def error_response(request: Request, status: int, message: str, detail: str = "") -> Response:
    """A refusal or an error: ``message`` (a message id) in the request's
    language, with ``detail`` (already in it) below; JSON under /api/."""
    lang = language_of(request)
    text = translator(lang)(message)
    if request.url.path.startswith("/api/"):
        return JsonAnswer({"error": text, "detail": detail}, status_code=status)
    try:
        return page(request, "error.html", status, status=status, message=text, detail=detail)
    except Exception:  # no app state (a refusal before the app): the bare message
        return Response(text, status_code=status, media_type="text/plain; charset=utf-8")
