"""Who a player is: one key for every spelling of a name, and the club's names file.

:func:`player_key` is the one rule by which every command, page and call
of hexhop tells whether two spellings name one person. It writes a name as
a German keyboard without umlauts would, in lower case, with blanks
collapsed and ``Last, First`` turned round, so that ``Anna Müller``,
``Mueller, Anna``, ``ANNA MÜLLER`` and an ``Anna Mu\\u0308ller`` typed with a
combining mark are one key (``anna mueller``). Letters without a
decomposition are written out by :data:`LETTERS` (``ø`` as ``oe``, ``ı``
as ``i``, ``ł`` as ``l``, ``þ`` as ``th``, …), other accents are dropped
(``é`` as ``e``). The key does not join ``Muller`` with ``Müller``: the
``ue`` of ``Mueller`` cannot be told from that of ``Manuel`` or the ``ae``
of ``Michael`` from ``Michal`` by the letters alone, so such spellings
are what ``hexhop players`` suggests and a names file joins.

A **names file** is the club's word on who is who (SCID's spelling file,
ChessBase's player database)::

    # one player: the name to show at the margin, each other spelling
    # indented under it
    Anna Müller
        Muller, Anna
        A. Müller

    # two people of one name, told apart by a tag of their games
    Peter Schmidt (Kassel)
        Peter Schmidt  [Site "Kassel*"]
    Peter Schmidt (Bremen)
        Peter Schmidt  [Site "Bremen*"]

A spelling matches by its key, so ``MULLER, ANNA`` is listed by
``Muller, Anna``. A condition ``[Tag "glob"]`` (several may follow each
other) limits the spelling to the games whose tag matches the glob, as
``find --tag`` matches; conditions are tried in the file's order, a
spelling without one last. :func:`read_names` refuses a file that gives
one spelling to two players without a condition, naming both lines.

This module knows no index, no command and no page: they ask it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from hexhop.messages import _
from hexhop.records.errors import RecordsError
from hexhop.records.globs import matches as glob_matches
from hexhop.records.small_files import read_small_text

from .names import fold

#: Letters that Unicode does not decompose into a base letter and a mark,
#: written out as players and federations write them in Latin letters
#: (lower case: the key is case folded before they are looked up).
LETTERS: Mapping[str, str] = {
    "ä": "ae",
    "ö": "oe",
    "ü": "ue",
    "ß": "ss",
    "ẞ": "ss",
    "ø": "oe",
    "æ": "ae",
    "œ": "oe",
    "å": "aa",
    "ı": "i",
    "ł": "l",
    "đ": "d",
    "ð": "d",
    "þ": "th",
    "ħ": "h",
    "ŋ": "ng",
    "ĸ": "k",
    "ſ": "s",
    "ŧ": "t",
}
_LETTERS = str.maketrans(dict(LETTERS))
#: The same letters as a reader who writes no umlaut as ``e`` types them:
#: ``Soren`` for ``Søren``, ``Yilmaz`` for ``Yılmaz`` (the ``plain`` form
#: that ``find`` matches besides the key's form, as ``Muller`` for ``Müller``).
PLAIN_LETTERS: Mapping[str, str] = {
    **{letter: spelled for letter, spelled in LETTERS.items() if letter not in "äöüøœå"},
    "ø": "o",
    "œ": "oe",
}
_PLAIN = str.maketrans(dict(PLAIN_LETTERS))


def player_key(name: str) -> str:
    """The key under which ``name`` is one player with its other spellings.

    >>> player_key("Mueller, Anna") == player_key(" ANNA  Müller ") == "anna mueller"
    True
    >>> player_key("Søren Kjær"), player_key("Yılmaz"), player_key("İpek"), player_key("Chloé")
    ('soeren kjaer', 'yilmaz', 'ipek', 'chloe')
    """
    words = _folded(name, _LETTERS)
    last, comma, first = words.partition(",")
    if comma and "," not in first and first.strip() and last.strip():
        words = f"{first.strip()} {last.strip()}"
    return words


def _folded(name: str, table: dict[int, str]) -> str:
    """``name`` case folded, written by ``table``, accents dropped, blanks collapsed."""
    if name.isascii():  # most names: nothing to compose, write out or drop
        return " ".join(name.lower().split())
    # NFC then casefold joins a combining umlaut with its letter (and İ
    # becomes i plus a dot mark, dropped by fold), so the table sees ü
    text = unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())
    return " ".join(fold(text.translate(table)).split())


def plain_form(name: str) -> str:
    """``name`` as ``find`` matches it the first way: case folded, blanks
    collapsed, accents dropped and letters written plainly (``Søren Kjær``
    -> ``soren kjaer``, ``Müller`` -> ``muller``, ``Yılmaz`` -> ``yilmaz``)."""
    return _folded(name, _PLAIN)


def key_form(name: str) -> str:
    """``name`` as ``find`` matches it the second way: as the key writes it,
    but not turned round (``Müller, Anna`` -> ``mueller, anna``)."""
    return _folded(name, _LETTERS)


@dataclass(frozen=True)
class Spelling:
    """One spelling line of a names file, with its conditions."""

    key: str
    conditions: tuple[tuple[str, str], ...]  # (tag, glob), all must match
    line: int


@dataclass
class Player:
    """One player of a names file: the name shown and the spellings listed."""

    shown: str
    line: int
    spellings: list[Spelling] = field(default_factory=list)

    @cached_property
    def key(self) -> str:
        return player_key(self.shown)


class NamesFileError(RecordsError):
    """A names file that cannot be read as one: the message names file:line:col."""

    exit_code = 2


@dataclass(frozen=True)
class Identity:
    """Who a spelling names in a game: the player's key, and the name the
    names file shows for the player (None: the archive's most used spelling)."""

    key: str
    shown: str | None = None


@dataclass(eq=False)  # one file's names: told apart by identity (a default of Query)
class Names:
    """A names file as read: who each spelling names."""

    path: str = ""
    players: list[Player] = field(default_factory=list)
    digest: str = ""  # of the file's bytes: the index notices a changed file by it
    _by_key: dict[str, list[tuple[Spelling, Player]]] = field(default_factory=dict)

    def identify(self, spelling: str, tags: Mapping[str, str] | None = None) -> Identity:
        """The player ``spelling`` names in a game with ``tags``."""
        key = player_key(spelling)
        for listed, player in self._by_key.get(key, ()):
            if all(_tag_matches(tags, tag, glob) for tag, glob in listed.conditions):
                return Identity(player.key, player.shown)
        return Identity(key)

    @classmethod
    def of(cls, players: list[Player], path: str = "", digest: str = "") -> Names:
        """The names of ``players``: conditions first, in the file's order."""
        names = cls(path=path, players=players, digest=digest)
        for player in players:
            for spelling in player.spellings:
                names._by_key.setdefault(spelling.key, []).append((spelling, player))
        for entries in names._by_key.values():
            if len(entries) > 1:
                entries.sort(key=lambda entry: (not entry[0].conditions, entry[0].line))
        return names


NO_NAMES = Names()


def _tag_matches(tags: Mapping[str, str] | None, tag: str, glob: str) -> bool:
    """Whether the tag ``tag`` of a game matches ``glob``: the tag named in
    any case, or in German (``[Ort "Kassel*"]`` is the Site tag), as ``find
    --tag`` names it; the value case and accents aside."""
    from hexhop.notation.names import tag_name

    wanted = tag_name(tag).casefold()
    for name, value in (tags or {}).items():
        if name.casefold() == wanted and glob_matches(fold(glob), fold(value)):
            return True
    return False


def read_names(text: str, path: str = "names.txt") -> Names:
    """A names file's text as :class:`Names`; :class:`NamesFileError` at the
    first line that is not one."""
    players: list[Player] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            shown = " ".join(line.split())
            players.append(Player(shown, number, [Spelling(player_key(shown), (), number)]))
        elif not players:
            column = len(line) - len(line.lstrip()) + 1
            raise _error(path, number, column, _("a spelling before any player's name"))
        else:
            players[-1].spellings.append(_spelling(line, number, path))
    names = Names.of(players, path, names_digest(text))
    _no_spelling_twice(names)
    return names


def names_digest(text: str) -> str:
    """The digest by which the index tells a names file changed."""
    import hashlib

    return hashlib.blake2b(text.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()


#: A names file beside the records that every command finds by itself: in
#: the folder given (or the folder of the file given) to a command
NAMES_FILE = "hexhop-names.txt"
MAX_NAMES_BYTES = 8 * 1024 * 1024  # a club of 100,000 players with ten spellings each


def load_names(path: str | None, archive: Iterable[str] = ()) -> Names:
    """The names file ``path`` (``--names``); without one, the first
    :data:`NAMES_FILE` in a folder of ``archive`` (or the folder of a file
    of it); else no names. :class:`NamesFileError` when it cannot be read
    or is not a names file."""
    import os

    if path is None:
        for given in archive:
            folder = given if os.path.isdir(given) else os.path.dirname(given) or "."
            candidate = os.path.join(folder, NAMES_FILE)
            if os.path.isfile(candidate):
                path = candidate
                break
        else:
            return NO_NAMES
    text, why = read_small_text(path, MAX_NAMES_BYTES)
    if text is None:
        raise NamesFileError(_("{path}: cannot read: {reason}").format(path=path, reason=why))
    return read_names(text, path)


def _spelling(line: str, number: int, path: str) -> Spelling:
    """An indented line: a spelling, then ``[Tag "glob"]`` conditions."""
    body = line.strip()
    at = body.find("[")
    name = body if at < 0 else body[:at]
    conditions: list[tuple[str, str]] = []
    rest = "" if at < 0 else body[at:]
    column = len(line) - len(line.lstrip()) + 1
    if not name.strip():
        raise _error(path, number, column, _("a condition without a spelling before it"))
    column += at
    while rest:
        tag, closed, after = _condition(rest)
        if not closed:
            raise _error(
                path, number, column, _('expected a condition like [Site "Kassel*"] after the name')
            )
        conditions.append(tag)
        column += len(rest) - len(after.lstrip())
        rest = after.strip()
    return Spelling(player_key(name), tuple(conditions), number)


def _condition(text: str) -> tuple[tuple[str, str], bool, str]:
    """``[Tag "glob"]`` at the start of ``text``: (tag, glob), whether it was
    one, and what follows it."""
    end = text.find("]")
    inside = text[1:end] if text.startswith("[") and end > 0 else ""
    tag, blank, quoted = inside.strip().partition(" ")
    quoted = quoted.strip()
    if not (blank and tag and len(quoted) >= 2 and quoted[0] == quoted[-1] == '"'):
        return ("", ""), False, text
    return (tag, quoted[1:-1]), True, text[end + 1 :]


def _no_spelling_twice(names: Names) -> None:
    """A spelling listed for two players without a condition is ambiguous."""
    for entries in names._by_key.values():
        plain = [(spelling, player) for spelling, player in entries if not spelling.conditions]
        owners = {player.key for _spelling, player in plain}
        if len(owners) > 1:
            first, second = sorted(plain, key=lambda entry: entry[0].line)[:2]
            raise _error(
                names.path,
                second[0].line,
                1,
                _(
                    "this spelling names {first} (line {line}) and {second}: "
                    'tell them apart with a condition such as [Site "Kassel*"]'
                ).format(first=first[1].shown, line=first[0].line, second=second[1].shown),
            )


def _error(path: str, line: int, column: int, reason: str) -> NamesFileError:
    return NamesFileError(f"{path}:{line}:{column}: {reason}")


def shown_name(spellings: Iterable[tuple[str, int]]) -> str:
    """The name to show for a player: the most used spelling; between
    spellings used as often, the one with the most letters outside ASCII
    (``Müller`` over ``Mueller``: the umlaut was written on purpose), then
    the longest, then the first in code-point order."""
    best = sorted(
        spellings,
        key=lambda item: (
            -item[1],
            -sum(not ch.isascii() for ch in item[0]),
            -len(item[0]),
            item[0],
        ),
    )
    return best[0][0] if best else "?"
