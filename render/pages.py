"""Paper pages: named sizes, orientation, margins, and the default page of
the user's locale.

A :class:`Page` is a size in PostScript points (1/72 inch) with a margin on
every side; PDF pages take it as it is, SVG pages of it are drawn at 96 px
to the inch (:attr:`Page.width_px`), and HTML pages name it in CSS
(:attr:`Page.css_size`). Nothing here draws, and nothing knows click.

The default page follows the paper of the locale (``LC_ALL``, else
``LC_PAPER``, else ``LANG``, as POSIX orders them): Letter where the
locale's country prints on Letter (the United States, Canada, Mexico, the
Philippines, Chile, Colombia and the other countries in
:data:`LETTER_COUNTRIES`), A4 everywhere else, German included.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

#: Points in a millimetre and in an inch.
MM = 72 / 25.4
INCH = 72.0
#: Pixels of a picture per point, at the 96 px to the inch of SVG and CSS.
PX_PER_PT = 96 / 72
#: The margin on every side of a page: 15 mm.
MARGIN_PT = 15 * MM

#: Portrait sizes in points, with the CSS length text of each side.
SIZES: dict[str, tuple[float, float, str, str]] = {
    "a4": (210 * MM, 297 * MM, "210mm", "297mm"),
    "a5": (148 * MM, 210 * MM, "148mm", "210mm"),
    "letter": (8.5 * INCH, 11 * INCH, "8.5in", "11in"),
}
PAGE_NAMES = tuple(SIZES)

#: Countries (ISO 3166 codes, as in ``en_US``) whose paper is Letter,
#: after the ``LC_PAPER`` of glibc's locales.
LETTER_COUNTRIES = frozenset(
    {"US", "CA", "MX", "PH", "CL", "CO", "CR", "DO", "GT", "NI", "PA", "PR", "SV", "VE"}
)


@dataclass(frozen=True)
class Page:
    """One paper page: ``width_pt`` × ``height_pt`` points, ``margin_pt``
    on every side. ``name`` is ``a4``, ``a5`` or ``letter`` (empty for a
    page of another size); ``landscape`` tells the orientation it was made
    in."""

    width_pt: float
    height_pt: float
    margin_pt: float = MARGIN_PT
    name: str = ""
    landscape: bool = False

    @property
    def inner_width_pt(self) -> float:
        """The width inside the margins."""
        return self.width_pt - 2 * self.margin_pt

    @property
    def inner_height_pt(self) -> float:
        """The height inside the margins."""
        return self.height_pt - 2 * self.margin_pt

    @property
    def width_px(self) -> float:
        """The width of an SVG picture of the page (96 px to the inch)."""
        return self.width_pt * PX_PER_PT

    @property
    def height_px(self) -> float:
        """The height of an SVG picture of the page (96 px to the inch)."""
        return self.height_pt * PX_PER_PT

    @property
    def inner_width_px(self) -> float:
        """The width inside the margins, in pixels."""
        return self.inner_width_pt * PX_PER_PT

    @property
    def inner_height_px(self) -> float:
        """The height inside the margins, in pixels."""
        return self.inner_height_pt * PX_PER_PT

    @property
    def margin_px(self) -> float:
        """The margin in pixels of an SVG picture of the page."""
        return self.margin_pt * PX_PER_PT

    @property
    def css_size(self) -> str:
        """The ``size`` of a CSS ``@page`` rule, e.g. ``210mm 297mm``
        (``297mm 210mm`` in landscape)."""
        if self.name in SIZES:
            _w, _h, width, height = SIZES[self.name]
            return f"{height} {width}" if self.landscape else f"{width} {height}"
        return f"{self.width_pt:.2f}pt {self.height_pt:.2f}pt"

    @property
    def css_margin(self) -> str:
        """The ``margin`` of a CSS ``@page`` rule, e.g. ``15mm``."""
        return f"{self.margin_pt / MM:g}mm"

    def grid(self) -> tuple[int, int]:
        """Columns and rows of diagrams on a sheet of this page: 3 × 4 on
        A4 and Letter (4 × 3 in landscape), 2 × 3 on A5 (3 × 2)."""
        columns, rows = (2, 3) if self.name == "a5" else (3, 4)
        return (rows, columns) if self.landscape else (columns, rows)


def page_for(
    name: str | None, landscape: bool = False, *, environ: Mapping[str, str] | None = None
) -> Page:
    """The page called ``name`` (``a4``, ``a5``, ``letter``; ``None`` for
    the locale's, see :func:`locale_page_name`), turned on its side for
    ``landscape``. An unknown name raises ``KeyError``; the command line
    offers only the known ones."""
    chosen = (name or locale_page_name(environ)).lower()
    width, height, _w, _h = SIZES[chosen]
    if landscape:
        width, height = height, width
    return Page(width, height, name=chosen, landscape=landscape)


def locale_page_name(environ: Mapping[str, str] | None = None) -> str:
    """``letter`` when the paper locale's country prints on Letter, else
    ``a4``. The locale is the first set of ``LC_ALL``, ``LC_PAPER`` and
    ``LANG`` (``en_US.UTF-8`` → ``US``); ``C``, ``POSIX`` or none is A4."""
    env = os.environ if environ is None else environ
    locale = next((env[key] for key in ("LC_ALL", "LC_PAPER", "LANG") if env.get(key)), "")
    language = locale.split(".")[0].split("@")[0]
    country = language.partition("_")[2].upper()
    return "letter" if country in LETTER_COUNTRIES else "a4"
