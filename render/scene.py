"""A board picture taken apart for the viewer page: the parts that
:func:`hexhop.render.svg.board_svg` joins, each made by the same drawers.

A page draws every position from these parts: the board (drawn once per
orientation), one part per die or piece, and the layers that show the last
action and the status line. Joined in the order :meth:`Scene.parts` gives,
after :attr:`Scene.head`, they are the bytes ``board_svg`` writes for the
position (without a title or arrows), so the page and the pictures look
the same. Reads positions only.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from hexhop.notation.errors import ArgumentError
from hexhop.notation.games import lookup_game
from hexhop.notation.numbers import ascii_int

from . import chess_pieces, dice, huepfer
from . import geometry as geo
from .chess_pieces import draws_chess
from .last_action import LastAction
from .svg import board_svg
from .svg_parts import ColorKey, color_key, elements, escape_attr, least_font

__all__ = ["PAGE_SIZE", "Scene", "with_data"]

#: The width in pixels the page's pictures are drawn for (board_svg's default).
PAGE_SIZE = 400


class Scene:
    """The parts of the pictures of one game (one board size), both ways up."""

    def __init__(self, start: Any, colors: dict[str, str] | None = None, pieces: str = "dice"):
        spec = lookup_game(start.game)
        if spec is None:
            raise ArgumentError(f"cannot draw a position of game {start.game!r}")
        self.key: ColorKey = color_key(colors)
        self.dice = spec.family == "dice"
        #: Dice drawn as chess pieces (``pieces="chess"``, Trigeo only).
        self.chess = draws_chess(spec.name, pieces)
        self.jump_fields = spec.jump_fields
        self.size = 0 if self.dice else start.size
        width = dice.WIDTH if self.dice else huepfer.extent(self.size)
        # text sizes as board_svg sets them for its default picture width
        self.least = least_font(width, PAGE_SIZE)
        first = self._under(False)
        whole = board_svg(start, colors=colors, size=PAGE_SIZE, pieces=pieces)
        #: The root element's start tag and the style, before every part.
        self.head = whole[: whole.index(first)]

    def board(self, flip: bool) -> tuple[str, str]:
        """The parts that are the same in every position: below the
        highlights, and between the highlights and the pieces."""
        if self.dice:
            return self._under(flip), dice.board_top(self.jump_fields, flip, self.key, self.least)
        return self._under(flip), ""

    def _under(self, flip: bool) -> str:
        if self.dice:
            return dice.board_base(self.jump_fields, flip, self.key)
        return huepfer.board_static(self.size, flip, self.key, self.least)

    def piece(self, where: str, side: str, face: int, home: int | None, flip: bool) -> str:
        """One die (Hexalit, Trigeo) or piece (Hüpfer; ``face`` unused)."""
        return _piece(self.dice, self.size, where, side, face, home, flip, self.key, self.chess)

    def token(self, side: str, token: str) -> tuple[int, str, str, str, int, int | None]:
        """A die (``C5=4/2``) or Hüpfer piece (``c5``) of ``side`` as its
        Position text writes it: its place in the drawing order (a number),
        its part upright and flipped, its cell, face and rolled face."""
        return _token(self.dice, self.size, side, token, self.key, self.chess)

    def order(self, where: str) -> tuple[int, int]:
        """Where a die or piece comes in the drawing order."""
        if self.dice:
            return geo.ROWS.find(where[0]), ascii_int(where[1:]) or 0
        return geo.huepfer_index(where) or (99, 99)

    def highlights(self, last: LastAction | None, flip: bool) -> str:
        return _layer(self.dice, self.size, False, last, flip, self.key)

    def marks(self, last: LastAction | None, flip: bool) -> str:
        return _layer(self.dice, self.size, True, last, flip, self.key)

    def last_elements(
        self, last: LastAction | None
    ) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
        """The elements of the highlights and of the marks of ``last``,
        upright then flipped (each a part of the page's pictures)."""
        return _last_elements(self.dice, self.size, last, self.key)

    def status(self, position: Any, flip: bool) -> str:
        if self.dice:
            return dice.status_layer(position, self.key, self.least)
        return huepfer.status_layer(position, flip, self.key, self.least)

    def parts(
        self, pieces: list[str], last: LastAction | None, position: Any, flip: bool
    ) -> list[str]:
        """Every part of a position's picture in drawing order; ``pieces``
        are its dice or pieces (from :meth:`piece`) in :meth:`order`."""
        under, over = self.board(flip)
        return [
            under,
            self.highlights(last, flip),
            over,
            *pieces,
            self.marks(last, flip),
            self.status(position, flip),
        ]


@lru_cache(maxsize=1 << 16)
def _piece(
    dice_game: bool,
    size: int,
    where: str,
    side: str,
    face: int,
    home: int | None,
    flip: bool,
    key: ColorKey,
    chess: bool = False,
) -> str:
    """The drawers' die or piece, kept for a whole archive: a Hexalit board
    alone has some 20 000 dice (cell, side, face, rolled face, orientation)."""
    if chess:
        return chess_pieces.piece_svg(where, side, face, home, flip, key)
    if dice_game:
        return dice.die_svg(where, side, face, home, flip, key)
    return huepfer.piece_svg(where, side, size, flip, key)


@lru_cache(maxsize=1 << 14)
def _token(
    dice_game: bool, size: int, side: str, token: str, key: ColorKey, chess: bool = False
) -> tuple[int, str, str, str, int, int | None]:
    where, _, value = token.partition("=")
    face_text, _, home_text = value.partition("/")
    face, home = ascii_int(face_text) or 0, ascii_int(home_text)
    if dice_game:
        row, column = geo.ROWS.find(where[0]), ascii_int(where[1:]) or 0
    else:
        row, column = geo.huepfer_index(where) or (99, 99)
    return (
        row * 1000 + column,
        _piece(dice_game, size, where, side, face, home, False, key, chess),
        _piece(dice_game, size, where, side, face, home, True, key, chess),
        where,
        face,
        home,
    )


@lru_cache(maxsize=1 << 12)
def _last_elements(
    dice_game: bool, size: int, last: LastAction | None, key: ColorKey
) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """Kept for a whole archive: the same moves recur from game to game."""
    return tuple(
        (
            elements(_layer(dice_game, size, False, last, flip, key)),
            elements(_layer(dice_game, size, True, last, flip, key)),
        )
        for flip in (False, True)
    )


def _layer(
    dice_game: bool, size: int, marks: bool, last: LastAction | None, flip: bool, key: ColorKey
) -> str:
    """The drawers' highlights (or marks) of a last action, kept for a whole
    archive: the same moves recur from game to game."""
    if dice_game:
        if marks:
            return dice.marks_layer(last, flip, key)
        return dice.highlight_layer(last, (), flip, key)
    if marks:
        return huepfer.marks_layer(last, size, flip, key)
    return huepfer.highlight_layer(last, (), size, flip, key)


def with_data(head: str, ply: int, position_text: str) -> str:
    """``head`` with the ``data-ply`` and ``data-position`` attributes that
    :func:`board_svg` writes on the root element."""
    root_end = head.index(">")
    data = f' data-ply="{ply}" data-position="{escape_attr(position_text)}"'
    return head[:root_end] + data + head[root_end:]
