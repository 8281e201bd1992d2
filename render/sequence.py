"""Several diagrams at once: an animated GIF of a game, and a contact sheet.

Both take finished SVG pictures (from :func:`hexhop.render.svg.board_svg`)
and rasterise them with :func:`hexhop.render.png.svg_to_png`; Pillow is
imported on first use. Nothing here knows a game.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from .png import svg_to_png
from .svg_parts import clip

BACKGROUND = (255, 255, 255)
INK = (17, 17, 17)


def gif(frames_svg: Sequence[str], *, size: int, frame_ms: int = 800, last_ms: int = 2500) -> bytes:
    """An animated GIF (``GIF89a``, looping) of the pictures, ``size`` pixels
    wide; each frame shows ``frame_ms`` milliseconds, the last ``last_ms``.

    Frames of another height (e.g. one with a title) are padded or cut to
    the first frame's height.
    """
    if not frames_svg:
        raise ValueError("gif() needs at least one frame")
    images = [_raster(svg, size) for svg in frames_svg]
    height = images[0].height
    frames = [_paletted(_fit(image, size, height)) for image in images]
    durations = [frame_ms] * (len(frames) - 1) + [last_ms]
    out = io.BytesIO()
    frames[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
    )
    return out.getvalue()


def sheet(frames: Sequence[tuple[str, str]], *, columns: int = 4, size: int) -> bytes:
    """One PNG with the diagrams in a grid, numbered 1, 2, … in reading order
    with their label underneath, like a newspaper's diagram page.

    ``frames`` are ``(label, svg)`` pairs; ``size`` is the width of each
    diagram in pixels.
    """
    if not frames:
        raise ValueError("sheet() needs at least one frame")
    if columns < 1:
        raise ValueError("columns must be at least 1")
    from PIL import Image, ImageDraw

    images = [_raster(svg, size) for _, svg in frames]
    gap = max(8, size // 25)
    caption = max(14, size // 18)
    cell_h = max(image.height for image in images) + caption + gap
    rows = (len(images) + columns - 1) // columns
    canvas = Image.new("RGB", (columns * (size + gap) + gap, rows * cell_h + gap), BACKGROUND)
    draw = ImageDraw.Draw(canvas)
    font = _font(caption)
    for index, ((label, _), image) in enumerate(zip(frames, images, strict=True)):
        x = gap + (index % columns) * (size + gap)
        y = gap + (index // columns) * cell_h
        canvas.paste(image, (x, y))
        words = f"Diagram {index + 1}: {clip(label)}" if label else f"Diagram {index + 1}"
        words = _fit_text(draw, words, font, size)
        draw.text(
            (x + size // 2, y + image.height + caption // 2),
            words,
            fill=INK,
            font=font,
            anchor="mm",
        )
    out = io.BytesIO()
    canvas.save(out, format="PNG", optimize=False)
    return out.getvalue()


def _raster(svg: str, size: int) -> Any:
    """The picture as an RGB image on white, ``size`` pixels wide."""
    from PIL import Image

    image: Image.Image = Image.open(io.BytesIO(svg_to_png(svg, size=size)))
    image.load()
    if image.mode in ("RGBA", "LA", "P"):
        image = image.convert("RGBA")
        flat = Image.new("RGB", image.size, BACKGROUND)
        flat.paste(image, mask=image.getchannel("A"))
        return flat
    return image.convert("RGB")


def _fit(image: Any, width: int, height: int) -> Any:
    if image.size == (width, height):
        return image
    from PIL import Image

    canvas = Image.new("RGB", (width, height), BACKGROUND)
    canvas.paste(image, (0, 0))
    return canvas


def _paletted(image: Any) -> Any:
    """256 colours, no dithering: same frames, same bytes."""
    from PIL import Image

    return image.quantize(colors=255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def _font(pixels: int) -> Any:
    from PIL import ImageFont

    for name in ("DejaVuSans.ttf", "Arial.ttf"):
        try:
            return ImageFont.truetype(name, pixels)
        except OSError:
            continue
    return ImageFont.load_default(size=pixels)


def _fit_text(draw: Any, words: str, font: Any, width: int) -> str:
    """``words`` shortened with … until it fits in ``width`` pixels."""
    if draw.textlength(words, font=font) <= width:
        return words
    words = words.removesuffix("…")
    while len(words) > 2 and draw.textlength(words + "…", font=font) > width:
        words = words[:-1]
    return words + "…"
