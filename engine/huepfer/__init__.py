"""Hüpfer: pieces hopping on a diamond-shaped grid.

``board`` (points and lines of the 6x6, 8x8 and 10x10 boards), ``moves``
(hops, captures and births), ``position`` and ``rules``.
"""
