"""The root of every exception the hexhop library raises.

It lives in the lowest layer so that every layer (notation, engine, records,
archive, render) can derive its exceptions from it; ``hexhop.Error`` is this
class. A class may derive from a built-in exception as well (``ValueError``,
``OSError``), so that existing ``except`` clauses keep catching it.
"""

from __future__ import annotations


class Error(Exception):
    """Anything the hexhop library raises on purpose: ``except hexhop.Error``
    catches a record that cannot be read, a file that is missing, an action
    that is not legal, an index that cannot be used…"""


class ArgumentError(Error, ValueError):
    """A value a function does not take: a limit out of range, a board size
    there is no board of, an unknown colour role, a picture of no frames."""
