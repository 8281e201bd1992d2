"""Hexalit and Trigeo: dice on the hexagonal board of 66 triangles.

``geometry`` (the board's cells and lines), ``board`` (dice on it as bytes
and masks, what a die can do), ``inplace`` (the rules: the board changed in
place by push and pop), ``explain`` (why an action is not legal, in words),
``position`` (the board's immutable snapshot), ``text`` (Position text and
diagrams), ``rules`` (the public calls, answered through the board) and one
small module per game.
"""
