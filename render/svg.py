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

from hexhop.notation.errors import ArgumentError
from hexhop.notation.games import GAME_NAMES, lookup_game

from . import dice, huepfer
from . import geometry as geo
from .chess_pieces import PIECES, draws_chess
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

__all__ = ["DEFAULT_COLORS", "LastAction", "board_svg", "describe_last", "title_lines"]


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
    title_lines: int = 1,
    pieces: str = "dice",
    click_points: bool = False,
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
    A title's band is as tall as ``title_lines`` lines at least (see
    :func:`title_lines`), so that the diagrams of one game, one title in one
    line and the next in two, have one height.
    ``pieces="chess"`` draws Trigeo's dice as chess pieces (King 1 … Queen
    6, see :mod:`hexhop.render.chess_pieces`); other games keep their dice
    and pieces, as their rules know no chess set.
    ``click_points`` adds to a Hüpfer board a transparent disc with
    ``data-point`` on every point, empty ones too, above everything (for a
    page that takes clicks; dice boards carry ``data-cell`` on every cell
    already); without it the picture is the same bytes as before.
    """
    key = color_key(colors)
    game = position.game
    if pieces not in PIECES:
        raise ArgumentError(f"pieces must be one of {', '.join(PIECES)}, not {pieces!r}")
    spec = lookup_game(game)
    if spec is None:
        raise ArgumentError(
            f"cannot draw a position of game {game!r}; known games: {', '.join(GAME_NAMES)}"
        )
    # text grows to a legible size in pixels of the picture ``size`` wide
    if spec.family == "dice":
        width, height = dice.WIDTH, dice.HEIGHT
        least = least_font(width, size)
        chess = draws_chess(spec.name, pieces)
        body = _dice_body(
            position, spec.jump_fields, flip, last, arrows, highlights, key, least, chess
        )
    else:
        width, height = huepfer.extent(position.size), huepfer.height(position.size)
        least = least_font(width, size)
        body = _huepfer_body(position, flip, last, arrows, highlights, key, least)
        if click_points:
            body += huepfer.hit_layer(position.size, flip)
    lines, font, top = _title_layout(title, width, size, title_lines) if title else ([], 0.0, 0.0)
    head = _root(game, width, height + top, top, size, ply, position_text)
    parts = [head, _style(key), body]
    if title:
        parts.append(_title(title, lines, font, top, width, key))
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


#: Average letter width of the sans-serif font, as a share of its size
#: (regular text, and the bold of titles).
LETTER = 0.58
BOLD_LETTER = 0.64
#: A title is never drawn smaller than this many pixels of the picture.
TITLE_MIN_PX = 11.0


def wrap_text(
    words: str, width: float, font: float, *, lines: int, letter: float = LETTER
) -> list[str]:
    """``words`` broken at spaces into at most ``lines`` lines that fit in
    ``width`` at ``font`` size (estimated from an average letter width); the
    last line ends in … when words are left over."""
    room = max(2, int(width / (letter * font)))
    rest = clip(words, room * lines + 1)  # a megabyte of text costs no more
    result: list[str] = []
    while len(result) < lines - 1 and len(rest) > room:
        cut = rest.rfind(" ", 0, room + 1)
        if cut <= 0:
            break
        result.append(rest[:cut].rstrip())
        rest = rest[cut + 1 :].lstrip()
    result.append(clip(rest, room))
    return result


def title_lines(position: Any, title: str, size: int) -> int:
    """How many lines ``title`` takes above the picture of ``position``
    ``size`` pixels wide (1 or 2): the most over a game's titles, given to
    :func:`board_svg`, gives all its diagrams one height."""
    spec = lookup_game(position.game)
    if spec is None or not title:
        return 1
    width = dice.WIDTH if spec.family == "dice" else huepfer.extent(position.size)
    return len(_title_layout(title, width, size)[0])


def _title_layout(
    title: str, width: float, size: int, least_lines: int = 1
) -> tuple[list[str], float, float]:
    """The lines of a title, their font size and the height of its band,
    which holds ``least_lines`` lines at least.

    The title keeps a legible size (at least :data:`TITLE_MIN_PX` pixels
    in a picture ``size`` pixels wide). One that does not fit on one line
    at nearly that size is broken in two, after the players' names where
    it can; a name that is still too long is shortened with an ellipsis.
    """
    full = max(geo.title_band(width) * 0.54, TITLE_MIN_PX * width / size)
    band = full / 0.54
    room = width * 0.94
    needed = BOLD_LETTER * full * len(title)
    font = max(full * 0.9, TITLE_MIN_PX * width / size)  # of a title in two lines
    least = band + font * 1.2 * (min(least_lines, 2) - 1)
    if needed * 0.85 <= room:
        return [title], min(full, full * room / needed), least
    chars = max(4, int(room / (BOLD_LETTER * font)))
    head, colon, tail = title.partition(": ")
    if colon:
        lines = [_shortened(head, chars - 1) + ":", clip(tail, chars)]
    else:
        lines = wrap_text(title, room, font, lines=2, letter=BOLD_LETTER)
    return lines, font, max(least, band + font * 1.2 * (len(lines) - 1))


def _shortened(names: str, chars: int) -> str:
    """``A – B`` in ``chars`` characters: each name shortened, both kept."""
    if len(names) <= chars or names.count(" – ") != 1:
        return clip(names, chars)
    first, second = names.split(" – ")
    half = max(2, (chars - 3) // 2)
    if len(first) < half:
        return f"{first} – {clip(second, chars - 3 - len(first))}"
    if len(second) < half:
        return f"{clip(first, chars - 3 - len(second))} – {second}"
    return f"{clip(first, half)} – {clip(second, half)}"


def _title(
    title: str, lines: list[str], font: float, top: float, width: float, key: ColorKey
) -> str:
    """The title twice: as ``<title>`` (for screen readers) and as a caption
    of one or two lines, on the background colour where it is taller than
    the board's own band."""
    colors = dict(key)
    label = element("title")
    label.text = clip(title)
    parts = [tostring(label)]
    extra = top - geo.title_band(width)
    if extra > 0:
        ground = element(
            "rect",
            "background",
            x=0,
            y=-top,
            width=width,
            height=extra + 1,
            fill=colors["background"],
        )
        parts.append(tostring(ground))
    first = -top + (top - font * 1.2 * (len(lines) - 1)) / 2
    for number, line in enumerate(lines):
        caption = text(
            width / 2,
            first + number * font * 1.2,
            line,
            "title",
            size=font,
            fill=colors["title"],
            weight="bold",
        )
        parts.append(tostring(caption))
    return "".join(parts)


def _dice_body(
    position: Any,
    jump_fields: bool,
    flip: bool,
    last: LastAction | None,
    arrows: Sequence[tuple[str, str]],
    highlights: Iterable[str],
    key: ColorKey,
    least: float,
    chess: bool = False,
) -> str:
    return "".join(
        (
            dice.board_base(jump_fields, flip, key),
            dice.highlight_layer(last, tuple(highlights), flip, key),
            dice.board_top(jump_fields, flip, key, least),
            dice.dice_layer(position, flip, key, chess),
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
