"""Hüpfer: pieces hopping on a diamond-shaped grid.

``board`` (points and lines of each board of :mod:`hexhop.notation.boards`), ``moves``
(hops, captures and births), ``position`` and ``rules``.
"""
