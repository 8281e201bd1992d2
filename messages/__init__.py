"""Messages in the user's language, with gettext from the standard library.

    from hexhop.messages import _, set_language
    set_language("de")        # or set_language(): from the environment
    click.echo(_("wrote {count} files").format(count=n))

English is the language of the source: every English text is its own
message id, and a catalogue (``gettext-catalogues/<lang>/LC_MESSAGES/hexhop.po``,
compiled to ``hexhop.mo`` by ``python -m hexhop.messages``)
gives the other languages.  Setting a language also makes every later
finding message (:mod:`hexhop.notation.findings`) in that language.  The
library speaks English until :func:`set_language` is called; the command
line calls it first thing.  A process of its own (a worker) keeps
English until it calls ``set_language(language)`` with the parent's
:func:`language`.
"""

from __future__ import annotations

import gettext
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache

from .catalogue import DOMAIN, LOCALE_DIR

ENGLISH = "en"
# the variables that name the language, first found first (as GNU gettext
# reads them; HEXHOP_LANG to choose for hexhop alone)
LANGUAGE_VARIABLES = ("HEXHOP_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

Spoken = tuple[str, gettext.NullTranslations]  # a language and its catalogue
_current: list[Spoken] = [(ENGLISH, gettext.NullTranslations())]
# the language of one thread (and context) for a while, over the one above
_here: ContextVar[Spoken | None] = ContextVar("hexhop_language", default=None)


def languages() -> tuple[str, ...]:
    """The languages hexhop speaks: English and every compiled catalogue."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return (ENGLISH, *found)


def language_from_environment(environ: Mapping[str, str] = os.environ) -> str:
    """The language the environment asks for (``de_DE.UTF-8`` → ``de``), if
    hexhop speaks it, else English.  ``LANGUAGE`` may list several
    (``fr:de``): the first that hexhop speaks is taken."""
    known = languages()
    for variable in LANGUAGE_VARIABLES:
        value = environ.get(variable, "")
        if not value:
            continue
        for wanted in value.split(":"):
            code = _code(wanted)
            if code in known:
                return code
        if variable != "LANGUAGE":  # the first variable set decides
            return ENGLISH
    return ENGLISH


def _code(locale_name: str) -> str:
    """``de`` for ``de_DE.UTF-8`` or ``de@euro``; ``en`` for ``C`` and ``POSIX``."""
    code = locale_name.split(".")[0].split("@")[0].split("_")[0].lower()
    return ENGLISH if code in ("c", "posix", "") else code


def set_language(name: str | None = None) -> str:
    """Speak ``name`` (``en``, ``de``; a locale name like ``de_DE.UTF-8``
    too) from now on, or the language of the environment when None.
    Returns the language chosen; raises ValueError for one hexhop does
    not speak."""
    code = language_from_environment() if name is None else _code(name)
    if code not in languages():
        raise ValueError(f"unknown language {name!r}: expected one of {', '.join(languages())}")
    # here, not at the top: importing this module stays as cheap as gettext
    from hexhop.notation.findings import set_translation

    translations = _catalogue(code)
    set_translation(None if code == ENGLISH else translations.gettext)
    _current[0] = (code, translations)
    return code


@contextmanager
def speaking_here(name: str) -> Iterator[None]:
    """Speak ``name`` (as :func:`set_language` takes it) in this thread
    (and context) for the block, findings too, while the process and its
    other threads keep their language: a server answers each request in
    its own language, many at a time, and none waits for another."""
    code = _code(name)
    if code not in languages():
        raise ValueError(f"unknown language {name!r}: expected one of {', '.join(languages())}")
    from hexhop.notation.findings import translating_here

    translations = _catalogue(code)
    token = _here.set((code, translations))
    try:
        with translating_here(None if code == ENGLISH else translations.gettext):
            yield
    finally:
        _here.reset(token)


@lru_cache(maxsize=8)
def _catalogue(code: str) -> gettext.NullTranslations:
    if code == ENGLISH:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, str(LOCALE_DIR), languages=[code])


def _spoken() -> Spoken:
    return _here.get() or _current[0]


def language() -> str:
    """The language spoken now (``en`` until :func:`set_language` is called)."""
    return _spoken()[0]


def _(message: str) -> str:
    """``message`` (English, the message id) in the language spoken now."""
    return _spoken()[1].gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural form for ``count``, in the language spoken now."""
    return _spoken()[1].ngettext(singular, plural, count)


def number(value: float, digits: int | None = None, spec: str | None = None) -> str:
    """``value`` for a person to read, with ``digits`` after the point (or
    in the format ``spec``, or as written by ``str`` when both are None), and
    a decimal comma in German: ``number(0.3, 2)`` is ``0.30``, or ``0,30``
    with ``set_language("de")``.  Machine outputs (JSON, CSV) do not use it."""
    if spec is not None:
        text = format(value, spec)
    else:
        text = str(value) if digits is None else f"{value:.{digits}f}"
    return text.replace(".", ",") if language() == "de" else text


_DATE = re.compile(r"([0-9]{4}|\?{4})(?:\.([0-9]{2}|\?\?))?(?:\.([0-9]{2}|\?\?))?")


def date(text: str) -> str:
    """A Date tag (``2003.03.07``) for a person to read: as written, or in
    German the day first (``07.03.2003``; ``2003.03.??`` is ``03.2003``).
    Anything that is not such a date stays as written."""
    found = _DATE.fullmatch(text)
    if language() != "de" or found is None:
        return text
    parts = [part for part in found.groups() if part is not None]
    while len(parts) > 1 and parts[-1] == "??":
        parts.pop()
    return ".".join(reversed(parts))


def N_(message: str) -> str:  # noqa: N802 - gettext's name for it
    """Marks ``message`` as a message id where it is written, for a table
    translated later with :func:`_`; returns it unchanged."""
    return message


# -- sides and captions, for the diagrams and the terminal

SIDES = (N_("North"), N_("South"), N_("Red"), N_("Turquoise"))


def side_name(side: str) -> str:
    """A side's name (``North``, ``Red`` …) in the language spoken now: ``Nord``."""
    return _(side)


def to_move(side: str) -> str:
    """The caption of a position with ``side`` to move: ``Nord am Zug``."""
    return _("{side} to move").format(side=side_name(side))


def wins(side: str) -> str:
    """The caption of a position that ``side`` has won: ``Nord gewinnt``."""
    return _("{side} wins").format(side=side_name(side))


__all__ = [
    "ENGLISH",
    "N_",
    "SIDES",
    "_",
    "language",
    "language_from_environment",
    "languages",
    "ngettext",
    "set_language",
    "side_name",
    "to_move",
    "wins",
]
