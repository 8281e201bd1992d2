"""Names as people write them: a Game tag value, a file extension, a tag
name in English or German, a doubling-cube word.

A leaf over :mod:`games`, the registry that holds the game names.
"""

from __future__ import annotations

from .games import game_for_path, lookup_game


def game_from_name(value: str) -> str | None:
    """``Hexalit``, ``Trigeo`` or ``Hüpfer`` for a Game tag value, any case.

    ``Huepfer`` and ``Hupfer`` are read as Hüpfer; anything else is None.
    """
    game = lookup_game(value)
    return game.name if game else None


def game_from_path(path: str) -> str | None:
    """The game a file extension suggests (``.hxl``, ``.trg``, ``.hpf``), or None."""
    game = game_for_path(path)
    return game.name if game else None


# The German words a player writes for the English tag names (any case; ue
# for ü where a keyboard has none).  Records are read with the English name,
# so the formatter writes it.
GERMAN_TAGS: dict[str, tuple[str, ...]] = {
    "Game": ("Spiel",),
    "Event": ("Veranstaltung", "Turnier"),
    "Site": ("Ort",),
    "Date": ("Datum",),
    "Round": ("Runde",),
    "Annotator": ("Kommentator",),
    "North": ("Nord", "Norden"),
    "South": ("Süd", "Sued", "Süden", "Sueden"),
    "Red": ("Rot",),
    "Turquoise": ("Türkis", "Tuerkis"),
    "First": ("Anzieher", "Beginner"),
    "Board": ("Brett",),
    "Reserve": ("Vorrat",),
    "Position": ("Stellung",),
    "Result": ("Ergebnis", "Resultat"),
    "Termination": ("Ende", "Spielende"),
}
_TAG_NAMES = {
    alias.casefold(): english for english, aliases in GERMAN_TAGS.items() for alias in aliases
}
# side names a First tag may give in German
_SIDES = {"nord": "North", "norden": "North"} | {
    word: "South" for word in ("süd", "sued", "süden", "sueden")
}


def tag_name(name: str) -> str:
    """The English name of a German tag name (``Süd`` → ``South``); any other
    name as written."""
    return _TAG_NAMES.get(name.casefold(), name)


def tag_value(name: str, value: str) -> str:
    """A tag's value as read: a German side name in a First tag in English
    (``Nord`` → ``North``); any other value as written."""
    if name.casefold() == "first":
        return _SIDES.get(value.strip().casefold(), value)
    return value


# The doubling-cube words the grammars read (hexalit.lark and the others
# spell the same words; a test keeps them in step), in the case usually written.
CUBE_OFFERS = ("double", "Doppler", "verdoppeln", "Verdopplung", "Verdoppelung")
CUBE_ANSWERS = ("take", "drop", "angenommen", "abgelehnt")
TAKES = frozenset({"take", "angenommen"})
# Words a German player writes for a cube answer that a record does not
# spell so (the infinitive for the participle): read as a misspelling, with
# the record's word as the suggestion.
CUBE_ANSWER_HINTS = {
    "annehmen": "angenommen",
    "genommen": "angenommen",
    "ablehnen": "abgelehnt",
}
