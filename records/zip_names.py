"""Zip archives whose member names are flagged UTF-8 but are not.

Python's zip reader decodes every name of the central directory at once,
strictly, so one such name makes the whole archive unreadable. Here the
archive is read through a view of its bytes in which that flag is cleared
on those members (in the central directory and their local headers):
their names are then read as names without the flag are (code page 437),
and every member can be read.
"""

from __future__ import annotations

import struct
from typing import IO

_END = b"PK\x05\x06"  # end of central directory record
_CENTRAL = b"PK\x01\x02"
_LOCAL = b"PK\x03\x04"
_UTF8_FLAG_HIGH = 0x08  # bit 11 of the flags: bit 3 of their second byte
_END_SEARCH = 22 + 65535  # the end record and the longest archive comment


class FlagCleared:
    """``handle`` read with the bytes at ``patches`` (offset: new byte) replaced."""

    def __init__(self, handle: IO[bytes], patches: dict[int, int]):
        self._handle = handle
        self._patches = patches
        self.name = getattr(handle, "name", None)

    def seek(self, offset: int, whence: int = 0) -> int:
        return self._handle.seek(offset, whence)

    def tell(self) -> int:
        return self._handle.tell()

    def seekable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        start = self._handle.tell()
        data = self._handle.read(size)
        hits = [spot for spot in self._patches if start <= spot < start + len(data)]
        if not hits:
            return data
        patched = bytearray(data)
        for spot in hits:
            patched[spot - start] = self._patches[spot]
        return bytes(patched)


def utf8_flag_patches(handle: IO[bytes]) -> dict[int, int]:
    """The bytes to change so that no name that is not UTF-8 is flagged as
    UTF-8 (empty when there is none, or the directory cannot be followed)."""
    handle.seek(0, 2)
    size = handle.tell()
    handle.seek(max(0, size - _END_SEARCH))
    tail = handle.read()
    end = tail.rfind(_END)
    if end < 0 or end + 22 > len(tail):
        return {}
    directory_size, directory_offset = struct.unpack_from("<II", tail, end + 12)
    if directory_offset == 0xFFFFFFFF:  # zip64: left to the zip reader
        return {}
    directory_start = size - len(tail) + end - directory_size
    shift = directory_start - directory_offset  # bytes before the archive (a stub)
    if directory_start < 0 or directory_size > 64 * 1024 * 1024:
        return {}
    handle.seek(directory_start)
    directory = handle.read(directory_size)
    patches: dict[int, int] = {}
    at = 0
    while directory[at : at + 4] == _CENTRAL and at + 46 <= len(directory):
        flags_high = directory[at + 9]
        name_length, extra_length, comment_length = struct.unpack_from("<HHH", directory, at + 28)
        name = directory[at + 46 : at + 46 + name_length]
        if flags_high & _UTF8_FLAG_HIGH and not _is_utf8(name):
            patches[directory_start + at + 9] = flags_high & ~_UTF8_FLAG_HIGH
            local = struct.unpack_from("<I", directory, at + 42)[0] + shift
            handle.seek(local)
            header = handle.read(8)
            if header[:4] == _LOCAL and len(header) == 8:
                patches[local + 7] = header[7] & ~_UTF8_FLAG_HIGH
        at += 46 + name_length + extra_length + comment_length
    return patches


def _is_utf8(name: bytes) -> bool:
    try:
        name.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
