"""File names made from record text, kept within what a file system takes.

Most file systems take names of at most 255 bytes (ext4, APFS, and NTFS in
UTF-16 units, which UTF-8 bytes never undercount); a name made from a
player's name, a tag or an archive member's name is cut to fit, at a
character boundary, keeping its ending (extension, number). Nothing here
looks at the disk.
"""

from __future__ import annotations

MAX_NAME_BYTES = 255


def fitted(stem: str, ending: str = "", limit: int = MAX_NAME_BYTES) -> str:
    """``stem + ending``, with ``stem`` cut at a character boundary so that
    the name is at most ``limit`` bytes in UTF-8 (``ending``, an extension
    or a numbering suffix, is always kept whole)."""
    room = limit - _size(ending)
    if _size(stem) <= room:
        return stem + ending
    used = 0
    for count, char in enumerate(stem):
        used += _size(char)
        if used > room:
            return stem[:count] + ending
    return stem + ending


def _size(text: str) -> int:
    """Bytes of ``text`` in a file name (a lone surrogate counted as three)."""
    return len(text.encode("utf-8", "surrogatepass"))
