"""The catalogue of findings: stable codes, categories and message templates.

Every problem hexhop reports, from an unreadable file to a missing ``^``,
is a :class:`Finding` made by :func:`make` from one entry of ``CATALOGUE``.
The catalogue is documented in ``docs/errors.md``; codes never change
meaning once released.

Messages are English unless a translation is set (:func:`set_translation`,
which :mod:`hexhop.messages` calls when a language is chosen): the English
templates are the message ids, and :func:`words` fills in any other
sentence a module of the package builds, in the same language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from .boards import huepfer_labels
from .errors import Error
from .span import Span

ERROR_CATEGORIES = ("io", "syntax", "header", "illegal", "state")


@dataclass(frozen=True)
class Entry:
    category: str
    template: str
    # parameters the package fills in itself, when the message is made (in
    # the language chosen then), e.g. the board sizes of HD03
    implied: Callable[[], dict[str, object]] | None = None

    @property
    def severity(self) -> str:
        return "error" if self.category in ERROR_CATEGORIES else "warning"


CATALOGUE: dict[str, Entry] = {
    # io: the bytes could not be read as a record
    "IO01": Entry("io", "cannot read {path}: {reason}"),
    "IO02": Entry("io", "{path} is not a text file (it contains binary data)"),
    "IO03": Entry("io", "{path} is too large: {size} bytes (limit {limit})"),
    "IO04": Entry(
        "io", "{path} has more than {limit} games: the games after game {limit} are not checked"
    ),
    "IO05": Entry("io", "the game has more than {limit} {items}: it is not replayed"),
    "IO06": Entry(
        "io",
        "a comment of {length} characters is longer than the limit of "
        "{limit}: the game is not replayed",
    ),
    "IO07": Entry(
        "io", "a tag value is longer than the limit of {limit} characters: the game is not read"
    ),
    "IO08": Entry(
        "io",
        "'{start}…' is longer than the limit of {limit} characters for one "
        "word (an action, move number or tag name): the game is not read",
    ),
    "IO09": Entry("io", "checking {path} took longer than {limit} s: it was stopped"),
    # syntax: the text is not in the record language
    "SY01": Entry("syntax", "{message}"),
    "SY02": Entry("syntax", "unclosed comment started at {line}:{column}"),
    "SY03": Entry("syntax", "unclosed variation started at {line}:{column}"),
    "SY04": Entry("syntax", "unclosed tag: expected ']' to end the tag started at {line}:{column}"),
    "SY05": Entry("syntax", "'{text}' is not a {game} action: {hint}"),
    "SY06": Entry("syntax", "too deeply nested: variations deeper than {limit} levels"),
    # header: the tags do not describe a game that can be played
    "HD01": Entry("header", "unknown game {value!r}: expected Hexalit, Trigeo or Hüpfer"),
    "HD02": Entry(
        "header",
        'no Game tag and the file name does not tell the game; add [Game "..."] or use --game',
    ),
    "HD03": Entry(
        "header",
        "bad Board value {value!r}: expected {sizes}",
        lambda: {"sizes": or_list(huepfer_labels())},
    ),
    "HD04": Entry("header", "bad Reserve value {value!r}: {reason}"),
    "HD05": Entry("header", "bad Position value: {reason}"),
    "HD06": Entry("header", "bad First value {value!r}: expected North or South"),
    "HD07": Entry("header", "bad Result value {value!r}: expected 1-0, 0-1 or *"),
    "HD08": Entry("header", "the Result tag says {tag} but the movetext ends with {marker}"),
    # illegal: an action the rules do not allow here
    "IL01": Entry("illegal", "{action} is not legal: {reason}"),
    "IL02": Entry("illegal", "{action} is not legal: {cell} is not on the board"),
    "IL03": Entry("illegal", "{action} is not legal: {reason}"),  # cube offers and answers
    # state: the record and the end on the board disagree
    "ST01": Entry(
        "state", "{action} comes after the end of the game ({winner} won at ply {end_ply})"
    ),
    "ST02": Entry(
        "state", "the result {result} contradicts the board: {winner} won at ply {end_ply}"
    ),
    "ST03": Entry(
        "state",
        "the record ends with the cube offer {action}, never answered, "
        "but the result is {result}: an offer is answered at once",
    ),
    # annotation: ^ and + marks
    "AN01": Entry(
        "annotation", "{action} should be marked '^': it leaves a One of {side} attacked"
    ),
    "AN02": Entry("annotation", "{action} should be marked '+': it wins the game"),
    "AN03": Entry("annotation", "{action} is marked '^' but leaves no One of {side} attacked"),
    "AN04": Entry("annotation", "{action} is marked '+' but does not win by the One rule"),
    "AN05": Entry("annotation", "{action} is marked '{mark}': Hüpfer actions carry no '^' or '+'"),
    "AN06": Entry("annotation", "{action} is marked '^' but wins the game: write '+'"),
    "AN07": Entry("annotation", "{action} is marked '+' but only threatens a One: write '^'"),
    # notation: everything else that is written but not quite right
    "NT01": Entry("notation", "move number {written} should be {expected}"),
    "NT02": Entry(
        "notation",
        "the result is '*' but the game ended on the board: {winner} won at ply {end_ply}",
    ),
    "NT03": Entry("notation", "this line is not valid UTF-8; it was read as Windows-1252"),
    "NT04": Entry(
        "notation",
        "a character is lost: '\ufffd' (U+FFFD) stands for bytes that could not be read as text",
    ),
    "NT05": Entry(
        "notation",
        "the record ends with the cube offer {action}, not yet answered: the game was adjourned",
    ),
}


@dataclass(frozen=True)
class Finding:
    """One problem, tied to a place in the source."""

    code: str
    message: str
    span: Span | None = None
    ply: int | None = None
    action: str | None = None

    @property
    def category(self) -> str:
        return CATALOGUE[self.code].category

    @property
    def severity(self) -> str:
        return CATALOGUE[self.code].severity

    @property
    def line(self) -> int | None:
        return self.span.line if self.span else None

    @property
    def column(self) -> int | None:
        return self.span.column if self.span else None


# The text of an English template in the language chosen (gettext's
# ``gettext``); the identity until a language is set.
_translation: list[Callable[[str], str]] = []

# parameters whose values are the package's own English words (side names,
# reasons and sentences made elsewhere), translated with the template
_WORDS = frozenset({"side", "winner", "items", "reason", "message", "hint"})


# the translation of one thread (and context) for a while, over the one above:
# (None,) is English there (see :func:`translating_here`)
_translation_here: ContextVar[tuple[Callable[[str], str] | None] | None] = ContextVar(
    "hexhop_translation", default=None
)


def set_translation(translate: Callable[[str], str] | None) -> None:
    """Make every later message with ``translate`` (English template → the
    template in another language); None for English again."""
    _translation[:] = [] if translate is None else [translate]


@contextmanager
def translating_here(translate: Callable[[str], str] | None) -> Iterator[None]:
    """Make the messages of this thread (and context) with ``translate``
    for the block (None: English), while other threads keep theirs."""
    token = _translation_here.set((translate,))
    try:
        yield
    finally:
        _translation_here.reset(token)


def _translator() -> Callable[[str], str] | None:
    here = _translation_here.get()
    if here is not None:
        return here[0]
    return _translation[0] if _translation else None


def words(template: str, **params: object) -> str:
    """``template`` in the chosen language, filled in from ``params`` (a
    template without parameters is taken as it stands, braces and all)."""
    translate = _translator()
    if translate is not None:
        for name in _WORDS.intersection(params):
            value = params[name]
            if isinstance(value, str) and value:
                params[name] = translate(value)
        template = translate(template)
    return template.format(**params) if params else template


def or_list(items: Sequence[str]) -> str:
    """``a, b or c`` in the chosen language (``a`` alone, ``""`` for none)."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return words("{first} or {last}", first=", ".join(items[:-1]), last=items[-1])


def make(
    code: str,
    span: Span | None = None,
    *,
    ply: int | None = None,
    action: str | None = None,
    **params: object,
) -> Finding:
    """A finding of ``code`` with its message filled in from ``params``."""
    entry = CATALOGUE[code]
    if entry.implied is not None:
        params = {**entry.implied(), **params}
    if action is not None:
        params.setdefault("action", action)
    return Finding(code, words(entry.template, **params), span, ply, action)


class NotationError(Error):
    """The one exception type the notation layer raises; carries a finding."""

    def __init__(self, finding: Finding):
        super().__init__(finding.message)
        self.finding = finding
