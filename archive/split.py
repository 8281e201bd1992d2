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
from collections.abc import Iterator, Mapping

from hexhop.notation.games import GAMES, lookup_game, record_extensions
from hexhop.notation.numbers import ascii_int
from hexhop.records.file_names import fitted

from .players import player_key
from .texts import GameText, extension_of

MAX_STEM = 80  # characters before the number and extension
_UNSAFE = re.compile(r"[^A-Za-z0-9]+")
_WORD = re.compile(r"[^\W\d_]+")  # a run of letters
# names Windows keeps for devices, whatever the extension
_RESERVED = {"con", "prn", "aux", "nul"} | {f"{d}{n}" for d in ("com", "lpt") for n in range(10)}
# compatibility forms that are the same letter (fullwidth Ｍ, the ligature ﬁ);
# not fractions or superscripts, whose digits (¼: 1⁄4) are no part of a name
_SAME_LETTER = ("<wide>", "<narrow>", "<compat>", "<font>")


def ascii_word(text: str) -> str:
    """``text`` in safe ASCII, readable: the letters of :data:`.players.LETTERS`
    written out in the case of their word (``Müller``: ``Mueller``,
    ``MÜLLER``: ``MUELLER``, ``Straße``: ``Strasse``, ``Ødegård``:
    ``Oedegaard``), other accents dropped (``Chloé``: ``Chloe``), every
    other run of characters one ``-``. A name whose UTF-8 was read as
    Windows-1252 (``MÃ¼ller``) is read again first."""
    text = unicodedata.normalize("NFC", _mended(text))
    text = _WORD.sub(lambda word: _spelt(word.group()), text)
    text = "".join(_same_letter(c) for c in text)
    plain = unicodedata.normalize("NFD", text).encode("ascii", "ignore").decode("ascii")
    return _UNSAFE.sub("-", plain).strip("-")


def _spelt(word: str) -> str:
    """``word`` with each letter of :data:`.players.LETTERS` written out:
    in capitals in a word of capitals (``MÜLLER``), else with a capital
    first letter for a capital (``Müller``, ``Ülker``)."""
    from .players import LETTERS

    shouted = len(word) > 1 and word.replace("ß", "").isupper()  # STRAßE is shouted
    out = []
    for char in word:
        lower = char.lower()
        spelt = LETTERS.get(lower) if len(lower) == 1 else None
        if spelt is None:
            out.append(char)
        elif shouted:
            out.append(spelt.upper())
        else:
            out.append(spelt if char == lower else spelt.capitalize())
    return "".join(out)


def _same_letter(char: str) -> str:
    tag = unicodedata.decomposition(char)
    return unicodedata.normalize("NFKC", char) if tag.startswith(_SAME_LETTER) else char


def _mended(text: str) -> str:
    """``text``, or the text its UTF-8 bytes held when they were read as
    Windows-1252 or Latin-1 (``MÃ¼ller``: ``Müller``). A name that is no
    such misreading does not give valid UTF-8 back and is kept."""
    if text.isascii():
        return text
    for misread in ("cp1252", "latin-1"):
        try:
            mended = text.encode(misread).decode("utf-8")
        except UnicodeError:
            continue
        return mended
    return text


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


def name_from_tags(tags: Mapping[str, str], game: str | None) -> str:
    """The file name (without extension) of a game with ``tags`` (names in
    any case), the one rule of ``split`` and the editor:
    ``DATE_PLAYER-PLAYER_rROUND`` (``2024-05-01_Mueller-Schmidt_r3``), from
    the players' tags of ``game``, in safe ASCII (:func:`ascii_word`), at
    most :data:`MAX_STEM` characters, never a device name of Windows.
    ``""`` when no tag gives a part."""
    tags = {name.lower(): value for name, value in tags.items()}
    sides = _sides(game, tags)
    players = "-".join(p for p in (surname(tags.get(s.lower(), "")) for s in sides) if p)
    round_ = ascii_word(tags.get("round", ""))
    parts = [date_part(tags.get("date", "")), players, f"r{round_}" if round_ else ""]
    return _safe_stem("_".join(p for p in parts if p))


def _safe_stem(stem: str) -> str:
    stem = stem[:MAX_STEM].rstrip("-_")
    return f"{stem}_" if stem.lower() in _RESERVED else stem


def file_stem(game: GameText) -> str:
    """The name of ``game``'s file without its extension: :func:`name_from_tags`,
    else the file it came from and its number."""
    record = game.parsed.record
    tags = {t.name: t.value for t in reversed(record.tags)} if record else {}
    stem = name_from_tags(tags, record.game if record else None)
    if not stem:  # no tags to name it by: the file it came from and its number
        source = ascii_word(os.path.splitext(game.path.rsplit("/", 1)[-1])[0]) or "game"
        stem = _safe_stem(f"{source}-{game.index}")
    return stem


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
