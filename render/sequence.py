"""Several diagrams at once: an animated GIF of a game, and a contact sheet.

Both take finished SVG pictures (from :func:`hexhop.render.svg.board_svg`)
and rasterise them through :mod:`hexhop.render.raster`; Pillow is
imported on first use. Nothing here knows a game.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from typing import Any

from hexhop.messages import _
from hexhop.notation.errors import ArgumentError

from . import raster
from .pages import Page
from .png import svg_to_png
from .svg import wrap_text
from .svg_parts import FONT, SVG_NS, escape_attr, escape_text, num

BACKGROUND = (255, 255, 255)
NOTE = "#a01c10"
#: Dots per inch of a PNG page of a sheet: an A4 page is 1240 × 1754 pixels.
SHEET_DPI = 150
#: Text on pages, in pixels of the page (96 to the inch): 11 pt, and 14 pt
#: for the first line of a heading.
PAGE_FONT = 11 * 96 / 72
HEADING_FONT = 14 * 96 / 72
#: Captions under the diagrams of a sheet: 9 pt, at most two lines.
CAPTION_FONT = 9 * 96 / 72


def gif(frames_svg: Sequence[str], *, size: int, frame_ms: int = 800, last_ms: int = 2500) -> bytes:
    """An animated GIF (``GIF89a``, looping) of the pictures, ``size`` pixels
    wide; each frame shows ``frame_ms`` milliseconds, the last ``last_ms``.

    Frames of another height (e.g. a title of two lines instead of one) are
    padded at the top to the tallest, so that the board stays in place.
    """
    if not frames_svg:
        raise ArgumentError("gif() needs at least one frame")
    images = [_raster(svg, size) for svg in frames_svg]
    height = max(image.height for image in images)
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


def sheet(
    frames: Sequence[tuple[str, str]],
    *,
    columns: int = 4,
    size: int,
    heading: Sequence[str] = (),
    note: str | None = None,
) -> bytes:
    """One PNG with the diagrams in a grid, numbered 1, 2, … in reading order
    with their label underneath, like a newspaper's diagram page.

    ``frames`` are ``(label, svg)`` pairs; ``size`` is the width of each
    diagram in pixels. ``heading`` lines (the first in bold) head the
    sheet; ``note`` is a remark printed under them, e.g. why a game stops.
    """
    return svg_to_png(sheet_svg(frames, columns=columns, size=size, heading=heading, note=note))


def sheet_svg(
    frames: Sequence[tuple[str, str]],
    *,
    columns: int = 4,
    size: int,
    heading: Sequence[str] = (),
    note: str | None = None,
    first: int = 1,
) -> str:
    """The sheet of :func:`sheet` as one SVG picture (for PNG or PDF); its
    diagrams are numbered from ``first``."""
    if not frames:
        raise ArgumentError("sheet() needs at least one frame")
    if columns < 1:
        raise ArgumentError("columns must be at least 1")
    columns = min(columns, len(frames))
    gap = max(8, size // 25)
    width = columns * (size + gap) + gap
    small = max(12.0, size / 22)
    parts: list[str] = []
    y = float(gap)
    for number, line in enumerate(line for line in heading if line):
        font = max(16.0, size / 14) if number == 0 else small
        for part in wrap_text(line, width - 2 * gap, font, lines=2):
            parts.append(_text(width / 2, y + font, part, font, bold=number == 0))
            y += font * 1.3
    if note:
        for part in wrap_text(note, width - 2 * gap, small, lines=3):
            parts.append(_text(width / 2, y + small, part, small, fill=NOTE))
            y += small * 1.3
    if parts:
        y += gap
    scaled = [_scaled(svg, size) for _label, svg in frames]
    cell_h = max(high for _svg, high in scaled) + small * 1.6 + gap
    for index, ((label, _svg), (svg, high)) in enumerate(zip(frames, scaled, strict=True)):
        x = gap + (index % columns) * (size + gap)
        top = y + (index // columns) * cell_h
        parts.append(_placed(svg, x, top))
        number = first + index
        words = (
            _("Diagram {number}: {label}").format(number=number, label=label)
            if label
            else _("Diagram {number}").format(number=number)
        )
        words = wrap_text(words, size, small, lines=1)[0]
        parts.append(_text(x + size / 2, top + high + small * 1.2, words, small))
    rows = (len(frames) + columns - 1) // columns
    height = y + rows * cell_h
    return (
        f'<svg xmlns="{SVG_NS}" width="{width}" height="{round(height)}" '
        f'viewBox="0 0 {width} {round(height)}" font-family="{escape_attr(FONT)}">'
        f'<rect width="100%" height="100%" fill="#ffffff"/>' + "".join(parts) + "</svg>"
    )


def pdf(pages_svg: Sequence[str]) -> bytes:
    """One PDF with each picture on a page of its own size (1 px = 0.75 pt),
    laid out in a child process that Ctrl-C and SIGTERM stop
    (:func:`~.isolated.in_child`)."""
    if not pages_svg:
        raise ArgumentError("pdf() needs at least one page")
    from .isolated import in_child

    return in_child(lambda: _pdf(pages_svg))


def _pdf(pages_svg: Sequence[str]) -> bytes:
    from .raster import load_cairo, refuse_fetch

    load_cairo()
    import cairocffi  # type: ignore[import-untyped]  # installed with cairosvg
    from cairosvg.parser import Tree
    from cairosvg.surface import PDFSurface

    out = io.BytesIO()
    target = cairocffi.PDFSurface(out, 1, 1)

    class Page(PDFSurface):
        """Draws on the shared document, a new page each time."""

        def _create_surface(self, width: float, height: float) -> tuple[Any, float, float]:
            target.set_size(width, height)
            return target, width, height

    for svg in pages_svg:
        tree = Tree(bytestring=svg.encode("utf-8"), unsafe=False, url_fetcher=refuse_fetch)
        page = Page(tree, None, 96)
        page.context.show_page()
    target.finish()
    return out.getvalue()


def diagram_page_svg(svg: str, caption: Sequence[str], page: Page, *, at_top: bool = False) -> str:
    """One diagram in the middle of ``page`` (``at_top``: at the top
    margin), its ``caption`` lines under it.

    The diagram keeps the width its SVG asks for (1 px = 0.75 pt) and is
    made smaller only when it and its caption would not fit within the
    margins; it is never made larger.
    """
    lines = [line for line in caption if line]
    text_h = len(lines) * PAGE_FONT * 1.4
    width, height = _svg_size(svg)
    scale = min(1.0, page.inner_width_px / width, (page.inner_height_px - text_h) / height)
    shown_w, shown_h = width * scale, height * scale
    x = (page.width_px - shown_w) / 2
    y = page.margin_px if at_top else (page.height_px - shown_h - text_h) / 2
    parts = [_placed(_scaled(svg, shown_w)[0], x, y)]
    for number, line in enumerate(lines):
        for part in wrap_text(line, page.inner_width_px, PAGE_FONT, lines=1):
            baseline = y + shown_h + PAGE_FONT * (1.3 + 1.4 * number)
            parts.append(_text(page.width_px / 2, baseline, part, PAGE_FONT, bold=number == 0))
    return _page(page, parts)


def sheet_pages_svg(
    captions: Sequence[str],
    draw: Callable[[int], Sequence[str]],
    page: Page,
    *,
    heading: Sequence[str] = (),
    note: str | None = None,
    caption_lines: int = 2,
) -> list[str]:
    """Pages of diagrams on the fixed grid of ``page`` (:meth:`Page.grid`),
    each diagram with its caption under it, in reading order.

    A caption takes at most ``caption_lines`` lines; a ``\n`` in it starts
    a new line (the puzzle sheet's source line and motifs).

    ``draw(width)`` gives every diagram as SVG, ``width`` pixels wide: the
    diagrams are drawn at the size they are shown at, as large as the
    cells of the grid allow. The ``heading`` lines (the first in bold) and
    the ``note`` head every page, so that every page has the same grid;
    a diagram is never cut by the edge of a page.
    """
    if not captions:
        raise ArgumentError("sheet_pages_svg() needs at least one diagram")
    columns, rows = page.grid()
    top, head = _heading(page, heading, note)
    gap = PAGE_FONT
    cell_w = (page.inner_width_px - (columns - 1) * gap) / columns
    cell_h = (page.inner_height_px - (top - page.margin_px) - (rows - 1) * gap) / rows
    room_h = cell_h - CAPTION_FONT * (1.5 + 1.3 * (caption_lines - 1))
    width = int(cell_w)
    svgs = draw(width)
    for _attempt in range(3):  # text that keeps its size makes a smaller diagram taller
        high = max(_svg_size(svg)[1] * width / _svg_size(svg)[0] for svg in svgs)
        if high <= room_h:
            break
        width = max(1, min(width - 1, int(width * room_h / high)))  # cells flatter than diagrams
        svgs = draw(width)
    per_page = columns * rows
    pages = []
    for start in range(0, len(svgs), per_page):
        parts = list(head)
        for index in range(start, min(start + per_page, len(svgs))):
            column, row = (index - start) % columns, (index - start) // columns
            x = page.margin_px + column * (cell_w + gap)
            y = top + row * (cell_h + gap)
            svg, shown_h = _scaled(svgs[index], width)
            parts.append(_placed(svg, x + (cell_w - width) / 2, y))
            lines = _caption_lines(captions[index], cell_w, caption_lines)
            for number, words in enumerate(lines):
                baseline = y + shown_h + CAPTION_FONT * (1.2 + 1.3 * number)
                parts.append(_text(x + cell_w / 2, baseline, words, CAPTION_FONT))
        pages.append(_page(page, parts))
    return pages


def _caption_lines(caption: str, width: float, most: int) -> list[str]:
    """A caption wrapped to ``width``, each of its ``\n``-lines on lines of
    its own, at most ``most`` lines in all."""
    found: list[str] = []
    for part in caption.split("\n"):
        found += wrap_text(part, width, CAPTION_FONT, lines=max(1, most - len(found)))
    return found[:most]


def text_pages_svg(heading: str, lines: Sequence[str], page: Page) -> list[str]:
    """Pages of left-aligned text lines under ``heading`` (in bold on the
    first page), as many pages as the lines need; a long line wraps."""
    parts: list[str] = []
    pages: list[str] = []
    x, bottom = page.margin_px, page.height_px - page.margin_px
    y = page.margin_px + HEADING_FONT
    parts.append(_text(x, y, heading, HEADING_FONT, bold=True, anchor="start"))
    y += HEADING_FONT * 0.8
    for line in lines:
        for part in wrap_text(line, page.inner_width_px, PAGE_FONT, lines=4):
            y += PAGE_FONT * 1.5
            if y > bottom:
                pages.append(_page(page, parts))
                parts, y = [], page.margin_px + PAGE_FONT
            parts.append(_text(x, y, part, PAGE_FONT, anchor="start"))
    pages.append(_page(page, parts))
    return pages


def sheet_png(page_svg: str, page: Page, dpi: int = SHEET_DPI) -> bytes:
    """A page (of :func:`sheet_pages_svg`) as a PNG of ``dpi`` dots per inch."""
    return svg_to_png(page_svg, size=round(page.width_pt * dpi / 72))


def _heading(page: Page, heading: Sequence[str], note: str | None) -> tuple[float, list[str]]:
    """Where the grid starts under the heading and note, and their text."""
    parts: list[str] = []
    y = page.margin_px
    middle, room = page.width_px / 2, page.inner_width_px
    for number, line in enumerate(line for line in heading if line):
        font = HEADING_FONT if number == 0 else PAGE_FONT
        for part in wrap_text(line, room, font, lines=1 if number == 0 else 2):
            parts.append(_text(middle, y + font, part, font, bold=number == 0))
            y += font * 1.4
    if note:
        for part in wrap_text(note, room, PAGE_FONT, lines=2):
            parts.append(_text(middle, y + PAGE_FONT, part, PAGE_FONT, fill=NOTE))
            y += PAGE_FONT * 1.4
    return (y + PAGE_FONT if parts else y), parts


def _page(page: Page, parts: Sequence[str]) -> str:
    width, height = f"{page.width_px:.3f}", f"{page.height_px:.3f}"
    return (
        f'<svg xmlns="{SVG_NS}" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{escape_attr(FONT)}">'
        f'<rect width="100%" height="100%" fill="#ffffff"/>' + "".join(parts) + "</svg>"
    )


def _svg_size(svg: str) -> tuple[float, float]:
    """The width and height an SVG picture asks for, in pixels."""
    root = re.search(r"<svg\b[^<>]*>", svg)  # [^<>]: one scan, not one per "<svg"
    if root is None:
        raise ArgumentError("not an SVG picture")
    sizes = dict(re.findall(r'\s(width|height)="([0-9.]+)"', root.group(0)))
    return float(sizes.get("width", 1)), float(sizes.get("height", 1))


def _text(
    x: float,
    y: float,
    words: str,
    font: float,
    *,
    bold: bool = False,
    fill: str = "#111111",
    anchor: str = "middle",
) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{num(x)}" y="{num(y)}" font-size="{num(font)}" text-anchor="{anchor}" '
        f'fill="{fill}"{weight}>{escape_text(words)}</text>'
    )


def _scaled(svg: str, size: float) -> tuple[str, float]:
    """The picture (without XML declaration) made ``size`` pixels wide, and
    its height in pixels, from the width and height of its root element."""
    body = re.sub(r"^<\?xml[^>]*>\s*", "", svg)
    root = re.match(r"<svg\b[^>]*>", body)
    if root is None:
        raise ArgumentError("not an SVG picture")
    tag = root.group(0)
    sizes = dict(re.findall(r'\s(width|height)="([0-9.]+)"', tag))
    width, height = float(sizes.get("width", size)), float(sizes.get("height", size))
    high = height * size / width if width else float(size)
    tag = re.sub(r'\s(width|height)="[^"]*"', "", tag)
    tag = tag.replace("<svg", f'<svg width="{num(size)}" height="{num(high)}"', 1)
    return tag + body[root.end() :], high


def _placed(svg: str, x: float, y: float) -> str:
    """The picture as a nested ``<svg>`` at (x, y) of the sheet."""
    return svg.replace("<svg", f'<svg x="{num(x)}" y="{num(y)}"', 1)


def _raster(svg: str, size: int) -> Any:
    """The picture as an RGB image on white, ``size`` pixels wide (taken
    from cairo's pixels, without a PNG file in between)."""
    from PIL import Image

    image = raster.pillow_image(raster.surface(svg, size))
    flat = Image.new("RGB", image.size, BACKGROUND)
    flat.paste(image, mask=image.getchannel("A"))
    return flat


def _fit(image: Any, width: int, height: int) -> Any:
    if image.size == (width, height):
        return image
    from PIL import Image

    canvas = Image.new("RGB", (width, height), BACKGROUND)
    canvas.paste(image, (0, height - image.height))
    return canvas


def _paletted(image: Any) -> Any:
    """256 colours, no dithering: same frames, same bytes."""
    from PIL import Image

    return image.quantize(colors=255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
