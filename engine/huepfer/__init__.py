"""Hüpfer: pieces hopping on a diamond-shaped grid.

``board`` (points and lines of each board of :mod:`hexhop.notation.boards`),
``inplace`` (:class:`~.inplace.HopBoard`, the one home of the rules),
``moves`` (its generator of hops, captures and births), ``explain`` (the
words of a refusal), ``position`` (its snapshots and their text) and
``rules`` (the :class:`~hexhop.engine.base.GameRules` facade).
"""
