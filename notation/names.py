"""Game names as people write them: a Game tag value or a file extension.

A leaf: it imports nothing of the package, so every module may use it.
"""

from __future__ import annotations

import os
import unicodedata

_NAMES = {"hexalit": "Hexalit", "trigeo": "Trigeo", "hüpfer": "Hüpfer",
          "huepfer": "Hüpfer", "hupfer": "Hüpfer"}
_EXTENSIONS = {".hxl": "Hexalit", ".trg": "Trigeo", ".hpf": "Hüpfer"}


def game_from_name(value: str) -> str | None:
    """``Hexalit``, ``Trigeo`` or ``Hüpfer`` for a Game tag value, any case.

    ``Huepfer`` and ``Hupfer`` are read as Hüpfer; anything else is None.
    """
    if not isinstance(value, str):
        return None
    key = unicodedata.normalize("NFC", value.strip()).casefold()
    return _NAMES.get(key)


def game_from_path(path: str) -> str | None:
    """The game a file extension suggests (``.hxl``, ``.trg``, ``.hpf``), or None."""
    if not isinstance(path, (str, os.PathLike)):
        return None
    return _EXTENSIONS.get(os.path.splitext(os.fspath(path))[1].lower())
