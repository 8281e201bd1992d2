"""SVG to PNG through cairosvg; loads nothing external."""

from __future__ import annotations

import sys

from . import raster


def refuse_fetch(url: str, resource_type: str) -> bytes:
    """A url_fetcher that loads nothing: our pictures reference no resources."""
    return b'<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>'


def svg_to_png(svg: str, *, size: int | None = None) -> bytes:
    """The PNG bytes of ``svg``, ``size`` pixels wide (height keeps the
    aspect ratio); without ``size``, the width the SVG asks for.

    cairosvg is imported here, on first use, because importing it is slow.
    XML entities and external files are refused (``unsafe=False`` and a
    fetcher that returns nothing). Our own diagrams are drawn from cached
    pieces (see :mod:`hexhop.render.raster`).
    """
    return raster.png_bytes(raster.surface(svg, size))


def _no_search(name: str) -> str | None:
    return None


def load_cairo() -> None:
    """Import cairocffi without ctypes' library search, on Linux.

    On import cairocffi asks ``ctypes.util.find_library`` for "cairo-2",
    which runs ldconfig and gcc: slow, and a signal sent to the whole process
    group can leave gcc's temporary file behind. On Linux the dynamic loader
    finds ``libcairo.so.2`` by its soname, cairocffi's own fallback; if it
    does not, cairocffi is imported the usual way.
    """
    if "cairocffi" in sys.modules or not sys.platform.startswith("linux"):
        return
    import ctypes.util

    search = ctypes.util.find_library
    ctypes.util.find_library = _no_search
    try:
        import cairocffi  # type: ignore[import-untyped]  # noqa: F401
    except OSError:
        for name in [name for name in sys.modules if name.startswith("cairocffi")]:
            del sys.modules[name]
    finally:
        ctypes.util.find_library = search
