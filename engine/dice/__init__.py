"""Hexalit and Trigeo: dice on the hexagonal board of 66 triangles.

``geometry`` (the board's cells and lines), ``board`` (dice on it),
``text`` (Position text and diagrams), ``rules`` (the rules both games
share) and one small module per game.
"""
