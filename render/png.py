"""SVG to PNG through cairosvg; a thin wrapper that loads nothing external."""

from __future__ import annotations


def refuse_fetch(url: str, resource_type: str) -> bytes:
    """A url_fetcher that loads nothing: our pictures reference no resources."""
    return b'<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>'


def svg_to_png(svg: str, *, size: int | None = None) -> bytes:
    """The PNG bytes of ``svg``, ``size`` pixels wide (height keeps the
    aspect ratio); without ``size``, the width the SVG asks for.

    cairosvg is imported here, on first use, because importing it is slow.
    XML entities and external files are refused (``unsafe=False`` and a
    fetcher that returns nothing).
    """
    from cairosvg.surface import PNGSurface

    data = svg.encode("utf-8")
    result = PNGSurface.convert(
        bytestring=data, unsafe=False, url_fetcher=refuse_fetch, output_width=size
    )
    assert isinstance(result, bytes)
    return result
