"""SVG to PNG through cairosvg; loads nothing external."""

from __future__ import annotations

from . import raster
from .raster import load_cairo as load_cairo  # the tests read them from here
from .raster import refuse_fetch as refuse_fetch


def svg_to_png(svg: str, *, size: int | None = None) -> bytes:
    """The PNG bytes of ``svg``, ``size`` pixels wide (height keeps the
    aspect ratio); without ``size``, the width the SVG asks for.

    cairosvg is imported here, on first use, because importing it is slow.
    XML entities and external files are refused (``unsafe=False`` and a
    fetcher that returns nothing). Our own diagrams are drawn from cached
    pieces (see :mod:`hexhop.render.raster`).
    """
    return raster.png_bytes(raster.surface(svg, size))
