"""One file per game: names made from a game's tags, safe in any file system.

A game's file is named ``DATE_PLAYER-PLAYER_rROUND`` from its tags
(``1998-03-14_Berger-Keller_r4.hxl``), in ASCII letters, digits, ``-``
and ``_`` only, with the extension of its game. :class:`Names` numbers
names that are taken. Nothing here writes anywhere.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterator

from hexhop.notation.games import GAMES, lookup_game, record_extensions
from hexhop.notation.numbers import ascii_int
from hexhop.records.file_names import fitted

from .players import player_key
from .texts import GameText, extension_of

MAX_STEM = 80  # characters before the number and extension
_GERMAN = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})
_GERMAN_SZ = str.maketrans({"ß": "ss", "ẞ": "SS"})
_UNSAFE = re.compile(r"[^A-Za-z0-9]+")
# names Windows keeps for devices, whatever the extension
_RESERVED = {"con", "prn", "aux", "nul"} | {f"{d}{n}" for d in ("com", "lpt") for n in range(10)}


def ascii_word(text: str) -> str:
    """``text`` in safe ASCII: umlauts spelt out (``Müller``: ``Mueller``),
    other accents dropped, every other run of characters one ``-``."""
    text = unicodedata.normalize("NFC", text).translate(_GERMAN).translate(_GERMAN_SZ)
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return _UNSAFE.sub("-", plain).strip("-")


def surname(name: str) -> str:
    """The family name of ``Anna Müller`` or ``Müller, Anna``, in safe ASCII,
    the same for every spelling of one player key (archive/players.py):
    ``MÜLLER`` and ``Mueller, Anna`` are ``Mueller`` too; a name written in
    mixed case keeps its capitals (``McDonald``)."""
    family = ascii_word(player_key(name).rsplit(" ", 1)[-1])
    original = name.split(",", 1)[0] if "," in name else (name.split() or [""])[-1]
    written = ascii_word(original)
    if written.lower() == family and not (original.isupper() or original.islower()):
        return written
    return "-".join(part[:1].upper() + part[1:] for part in family.split("-"))


def date_part(value: str) -> str:
    """``1998.03.14``: ``1998-03-14``; unknown parts (``??``) end it: ``1998.??.??``: ``1998``."""
    known = []
    for part in re.split(r"[.\-/]", value.strip()):
        if ascii_int(part) is None:
            break
        known.append(part)
    return "-".join(known)


def file_stem(game: GameText) -> str:
    """The name of ``game``'s file without its extension."""
    record = game.parsed.record
    tags = {t.name.lower(): t.value for t in reversed(record.tags)} if record else {}
    sides = _sides(record.game if record else None, tags)
    players = "-".join(p for p in (surname(tags.get(s.lower(), "")) for s in sides) if p)
    round_ = ascii_word(tags.get("round", ""))
    parts = [date_part(tags.get("date", "")), players, f"r{round_}" if round_ else ""]
    stem = "_".join(p for p in parts if p)
    if not stem:  # no tags to name it by: the file it came from and its number
        source = ascii_word(os.path.splitext(game.path.rsplit("/", 1)[-1])[0]) or "game"
        stem = f"{source}-{game.index}"
    stem = stem[:MAX_STEM].rstrip("-_")
    return f"{stem}_" if stem.lower() in _RESERVED else stem


def _sides(game: str | None, tags: dict[str, str]) -> tuple[str, str]:
    """The players' tags of ``game``, else of the first game whose players'
    tags are there."""
    spec = lookup_game(game)
    if spec is not None:
        return spec.sides
    for other in GAMES:
        if any(side.lower() in tags for side in other.sides):
            return other.sides
    return GAMES[0].sides


def file_extension(game: GameText) -> str:
    """The extension of the game that was read; for a game that could not
    be told, the source's extension when it is a record's, else ``.txt``."""
    record = game.parsed.record
    spec = lookup_game(record.game) if record else None
    if spec is not None:
        return spec.extension
    own = extension_of(game.path)
    return own if own in record_extensions() else ".txt"


class Names:
    """File names for one folder, each handed out once: ``NAME.hxl``, then
    ``NAME_2.hxl``, ``NAME_3.hxl`` … Names that differ only in case count
    as the same (they are one file on macOS and Windows); a name is at most
    255 bytes (:func:`hexhop.records.file_names.fitted`), its number and
    extension kept."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def candidates(self, stem: str, extension: str) -> Iterator[str]:
        """Names not handed out yet, best first; each one yielded is taken.
        (A caller that finds a name taken on disk asks for the next.)"""
        number = 1
        while True:
            name = fitted(stem, f"{f'_{number}' if number > 1 else ''}{extension}")
            number += 1
            if name.casefold() not in self.used:
                self.used.add(name.casefold())
                yield name
