"""Positions to pictures: SVG built here, PNG, GIF, PDF and sheets on top of it.

``board_svg`` draws one position; ``describe_last`` and ``LastAction`` say
what the last action changed so that it can be highlighted; ``svg_to_png``,
``gif`` and ``sheet`` rasterise and ``pdf`` puts pictures on pages (cairosvg
and Pillow are imported only when they are first used). Positions are only read, never checked.
"""

from .last_action import LastAction, describe_last
from .png import svg_to_png
from .sequence import gif, pdf, sheet
from .svg import board_svg
from .svg_parts import DEFAULT_COLORS

__all__ = [
    "DEFAULT_COLORS",
    "LastAction",
    "board_svg",
    "describe_last",
    "gif",
    "pdf",
    "sheet",
    "svg_to_png",
]
