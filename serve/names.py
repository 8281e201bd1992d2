"""The names the editor saves a record under (docs/serve.md, "Saving"):
normalised, with the game's extension, and none that could reach beyond
its folder or that another system cannot hold, since clubs share
archives between systems."""

from __future__ import annotations

import unicodedata

from hexhop.messages import N_
from hexhop.notation.games import find_game

from .refused import Refused, shown

MAX_NAME_BYTES = 200  # a saved file's name, in UTF-8

BAD_NAME = N_(
    "A file name without folders, '..', control characters or a leading dot, of at most 200 bytes."
)
SLASH_LIKE = N_("A file name cannot hold {character}: it looks like a slash between folders.")
WINDOWS_CHARACTER = N_(
    "A file name cannot hold {character}: Windows cannot store it, and archives are shared"
    " between systems."
)
LEADING_DASH = N_("A file name cannot begin with '-': a command line would read it as an option.")
TRAILING_DOT = N_("A file name cannot end with a dot: Windows drops it.")
DEVICE_NAME = N_(
    "{name} is the name of a device on Windows (CON, PRN, AUX, NUL, COM0 to COM9, LPT0 to"
    " LPT9), whatever its extension: choose another name."
)
WRONG_EXTENSION = N_("A {game} record is saved with the extension {extension}.")


def checked_name(name: str, game: str) -> str:
    """``name`` as a file name to save a ``game`` record under: without the
    spaces around it, normalised (NFC), with the game's extension added
    when it has none. :class:`Refused` for a name that is not safe here
    (:func:`_refuse_unsafe`), or one with another extension."""
    name = unicodedata.normalize("NFC", name.strip())
    _refuse_unsafe(name)
    extension = find_game(game).extension
    stem, dot, suffix = name.rpartition(".")
    if not dot:
        name += extension
    elif "." + suffix.lower() != extension or not stem:
        raise Refused(400, WRONG_EXTENSION, game=game, extension=extension)
    if len(name.encode("utf-8")) > MAX_NAME_BYTES:
        raise Refused(400, BAD_NAME)
    return name


def _refuse_unsafe(name: str) -> None:
    """:class:`Refused` for a name that could reach beyond its folder, or
    that another system cannot hold (clubs share archives between
    systems); each form of it counts, as written and as NFKC reads it
    (U+FF0F is ``/`` then):

    - a folder (``/``, ``\\``), ``..`` or a leading dot, a drive or an
      archive member (``:``), a control or format character (bidi
      overrides), more than :data:`MAX_NAME_BYTES` bytes;
    - a character that looks like a slash (∕ ⁄ ⧸ ∖ ╱ …);
    - a character Windows cannot hold (``<>:"|?*``);
    - a leading ``-``, which a command line reads as an option;
    - a trailing dot, which Windows drops;
    - a device name of Windows (CON, NUL, COM1, LPT¹ …), whatever follows
      it after a dot.
    """
    wide = unicodedata.normalize("NFKC", name)
    forms = (name, wide)
    if (
        not name
        or any(c in form for form in forms for c in "/\\:\0")
        or any(form.startswith(".") for form in forms)
        or any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp") for c in name)
        or len(name.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES
    ):
        raise Refused(400, BAD_NAME)
    for character in name:
        for seen in {character, *unicodedata.normalize("NFKC", character)}:
            if _looks_like_a_slash(seen):
                raise Refused(400, SLASH_LIKE, character=shown(character))
            if seen in NOT_ON_WINDOWS:
                raise Refused(400, WINDOWS_CHARACTER, character=shown(character))
    if any(form.startswith("-") for form in forms):
        raise Refused(400, LEADING_DASH)
    if any(form.endswith(".") for form in forms):
        raise Refused(400, TRAILING_DOT)
    device = name.partition(".")[0].rstrip(" ")
    if wide.partition(".")[0].rstrip(" ").upper() in DEVICES:
        raise Refused(400, DEVICE_NAME, name=device)


NOT_ON_WINDOWS = '<>:"|?*'  # and / \\ (folders) and controls, refused before
SLASHES = "∖╱╲⟋⟍〳"  # also like a slash, though Unicode names them otherwise
# the devices of Windows: no file can have these names, with any extension
DEVICES = frozenset(
    ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"]
    + [f"{port}{n}" for port in ("COM", "LPT") for n in "0123456789"]
)


def _looks_like_a_slash(character: str) -> bool:
    """Whether ``character`` would be read as a folder's separator: its
    Unicode name says solidus or slash (∕ DIVISION SLASH, ⁄ FRACTION
    SLASH), or it is one of :data:`SLASHES`."""
    name = unicodedata.name(character, "")
    return "SOLIDUS" in name or "SLASH" in name or character in SLASHES
