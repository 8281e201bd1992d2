"""The language of a request, and messages in it.

``?lang=de|en`` chooses (and the security middleware keeps it in the
``hexhop_lang`` cookie), else the cookie, else the browser's
``Accept-Language``; English by default. Templates translate with
:func:`translator`; library output (the checker's findings, the query's
messages) follows :func:`speaking`, for the request's thread alone.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache

from starlette.requests import HTTPConnection

from hexhop.messages import ENGLISH, languages, speaking_here
from hexhop.messages.catalogue import DOMAIN, LOCALE_DIR
from hexhop.notation.numbers import ascii_decimal

COOKIE = "hexhop_lang"


def known(code: str | None) -> str | None:
    """``code`` when hexhop speaks it (``de``, ``en``), else None."""
    if not code:
        return None
    code = code.strip().lower()[:2]
    return code if code in languages() else None


def language_of(request: HTTPConnection) -> str:
    """The language of the request's page."""
    chosen = known(request.query_params.get("lang")) or known(request.cookies.get(COOKIE))
    if chosen:
        return chosen
    return from_accept_language(request.headers.get("accept-language", ""))


def from_accept_language(header: str) -> str:
    """The first language of an ``Accept-Language`` header hexhop speaks,
    by the weights the browser gives (``de-DE,de;q=0.9,en;q=0.8``)."""
    wanted: list[tuple[float, int, str]] = []
    for position, part in enumerate(header[:1000].split(",")):
        tag, _eq, params = part.strip().partition(";")
        weight = 1.0
        params = params.strip()
        if params.startswith("q="):
            weight = ascii_decimal(params[2:]) or 0.0
        code = known(tag)
        if code and weight > 0:
            wanted.append((-weight, position, code))
    return min(wanted)[2] if wanted else ENGLISH


@lru_cache(maxsize=8)
def _translations(lang: str) -> gettext.NullTranslations:
    if lang == ENGLISH:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, str(LOCALE_DIR), languages=[lang])


def translator(lang: str) -> Callable[[str], str]:
    """``_`` for ``lang``: a message id (English) in that language."""
    return _translations(known(lang) or ENGLISH).gettext


def plural_translator(lang: str) -> Callable[[str, str, int], str]:
    """``ngettext`` for ``lang``."""
    return _translations(known(lang) or ENGLISH).ngettext


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Library output (findings, messages) in ``lang`` for the block, in
    this thread only: requests in other languages run at the same time,
    and none waits for another."""
    with speaking_here(known(lang) or ENGLISH):
        yield
