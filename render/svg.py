"""Positions to SVG: :func:`board_svg` for Hexalit, Trigeo and Hüpfer.

Positions are read through a few attributes only (duck typing), never
through the engines:

- Hexalit/Trigeo: ``game``, ``dice`` (cell name → die with ``side``,
  ``face``, ``home``), ``to_move``, ``cube``, ``winner``;
- Hüpfer: ``game``, ``size``, ``pieces`` (point → ``"Red"``/``"Turquoise"``),
  ``reserves`` (side → count), ``to_move``, ``winner``.

The output is deterministic (same input, same bytes) and every text is
escaped. Nothing here checks that a position is legal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from hexhop.notation.games import GAME_NAMES, lookup_game

from . import dice, huepfer
from . import geometry as geo
from .last_action import LastAction, describe_last
from .svg_parts import (
    DEFAULT_COLORS,
    FONT,
    SVG_NS,
    ColorKey,
    clip,
    color_key,
    element,
    least_font,
    num,
    start_tag,
    style_block,
    text,
    tostring,
)

__all__ = ["DEFAULT_COLORS", "LastAction", "board_svg", "describe_last"]


def board_svg(
    position: Any,
    *,
    size: int = 400,
    flip: bool = False,
    last: LastAction | None = None,
    arrows: Sequence[tuple[str, str]] = (),
    highlights: Iterable[str] = (),
    title: str | None = None,
    colors: Mapping[str, str] | None = None,
    ply: int | None = None,
    position_text: str | None = None,
) -> str:
    """The SVG picture of ``position``, ``size`` pixels wide; text grows
    where needed to stay legible (10 px) at that width.

    Row A (North's home rows) is at the top and a1 (Red's corner) at the
    bottom; ``flip`` turns the board by 180° for the other player's view.
    ``last`` highlights the last action (see :func:`describe_last`);
    ``arrows`` are ``(from, to)`` pairs and ``highlights`` cells or points to
    tint, both given by the caller. ``colors`` overrides roles of
    :data:`DEFAULT_COLORS`. ``ply`` and ``position_text`` are stored as
    ``data-ply`` / ``data-position`` on the root element. Cells or points
    that are not on the board are not drawn; a long title is clipped.
    """
    key = color_key(colors)
    game = position.game
    spec = lookup_game(game)
    if spec is None:
        raise ValueError(
            f"cannot draw a position of game {game!r}; known games: {', '.join(GAME_NAMES)}"
        )
    # text grows to a legible size in pixels of the picture ``size`` wide
    if spec.family == "dice":
        width, height = dice.WIDTH, dice.HEIGHT
        least = least_font(width, size)
        body = _dice_body(position, spec.jump_fields, flip, last, arrows, highlights, key, least)
    else:
        width, height = huepfer.extent(position.size), huepfer.height(position.size)
        least = least_font(width, size)
        body = _huepfer_body(position, flip, last, arrows, highlights, key, least)
    top = geo.title_band(width) if title is not None else 0.0
    head = _root(game, width, height + top, top, size, ply, position_text)
    parts = [head, _style(key), body]
    if title is not None:
        parts.append(_title(title, width, key))
    parts.append("</svg>")
    return "".join(parts)


def _root(
    game: str,
    width: float,
    height: float,
    top: float,
    size: int,
    ply: int | None,
    position_text: str | None,
) -> str:
    pixels_high = round(size * height / width)
    attrs = [
        ("xmlns", SVG_NS),
        ("version", "1.1"),
        ("class", f"hexhop-board {game.lower()}"),
        ("data-game", game),
        ("viewBox", f"0 {num(-top)} {num(width)} {num(height)}"),
        ("width", str(size)),
        ("height", str(pixels_high)),
        ("font-family", FONT),
    ]
    if ply is not None:
        attrs.append(("data-ply", str(ply)))
    if position_text is not None:
        attrs.append(("data-position", position_text))
    return start_tag("svg", attrs)


_STYLE_CACHE: dict[ColorKey, str] = {}


def _style(key: ColorKey) -> str:
    cached = _STYLE_CACHE.get(key)
    if cached is None:
        cached = _STYLE_CACHE[key] = tostring(style_block(key))
    return cached


def _title(title: str, width: float, key: ColorKey) -> str:
    """The title twice: as ``<title>`` (for screen readers) and as a caption."""
    title = clip(title)
    label = element("title")
    label.text = title
    band = geo.title_band(width)
    font = min(band * 0.54, width * 0.92 / (0.62 * max(len(title), 1)))
    caption = text(
        width / 2, -band / 2, title, "title", size=font, fill=dict(key)["title"], weight="bold"
    )
    return tostring(label) + tostring(caption)


def _dice_body(
    position: Any,
    jump_fields: bool,
    flip: bool,
    last: LastAction | None,
    arrows: Sequence[tuple[str, str]],
    highlights: Iterable[str],
    key: ColorKey,
    least: float,
) -> str:
    return "".join(
        (
            dice.board_base(jump_fields, flip, key),
            dice.highlight_layer(last, tuple(highlights), flip, key),
            dice.board_top(jump_fields, flip, key, least),
            dice.dice_layer(position, flip, key),
            dice.marks_layer(last, flip, key),
            dice.arrows_layer(tuple(arrows), flip, key),
            dice.status_layer(position, key, least),
        )
    )


def _huepfer_body(
    position: Any,
    flip: bool,
    last: LastAction | None,
    arrows: Sequence[tuple[str, str]],
    highlights: Iterable[str],
    key: ColorKey,
    least: float,
) -> str:
    size = position.size
    return "".join(
        (
            huepfer.board_static(size, flip, key, least),
            huepfer.highlight_layer(last, tuple(highlights), size, flip, key),
            huepfer.pieces_layer(position, flip, key),
            huepfer.marks_layer(last, size, flip, key),
            huepfer.arrows_layer(tuple(arrows), size, flip, key),
            huepfer.status_layer(position, flip, key, least),
        )
    )
