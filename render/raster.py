"""SVG to pixels through cairosvg, with a cache for our own diagrams.

Frames of one game share most of their drawing: the board, the dice or
pieces that did not move, the highlight of a cell. ``board_svg`` writes a
flat document (the root ``<svg>``, a ``<style>``, then one top-level
element per drawn thing), so each top-level element is drawn once by
cairosvg, with the same root and style, and kept as a piece: a small one
as an image of its ink box, a large one (the background) as a cairo
recording, replayed in C; text is drawn onto an image, as on a PNG. A
frame is those pieces painted in order onto one image; only what is new
in it, e.g. the status line or a die that moved, goes through cairosvg's
tree walk. The SVG stays the one description of a picture: a document
that is not a flat ``hexhop-board`` (a sheet, anything whose elements
refer to each other) is drawn whole.

PNG files are written here too (rows unfiltered, zlib level 3): faster
than cairo's writer and smaller for these pictures of flat colours.
"""

from __future__ import annotations

import io
import math
import re
import struct
import sys
import threading
import zlib
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any

#: Bytes of drawn elements kept, least recently used dropped first: a
#: 400 px Hexalit board has about 140 elements, a game adds a few a ply.
CACHE_BYTES = 16 * 2**20
#: What one recording holds (about: measured as the growth of a process).
RECORDING_BYTES = 6000
#: What an entry holds besides (objects, the key).
ENTRY_BYTES = 1024
#: A piece up to this many bytes of pixels is kept as an image, painted
#: faster than a recording is replayed; a larger one (the background) as
#: its recording.
TILE_BYTES = 64 * 1024
#: zlib level of the PNG data: 3 is as small as cairo's files and faster.
PNG_LEVEL = 3

_DECLARATION = re.compile(r"\s*(?:<\?xml[^>]*\?>\s*)?")
_ROOT = re.compile(r"<svg\b[^<>]*>")
_TAG = re.compile(r"<(/?)([A-Za-z_][\w.:-]*)([^<>]*)>")
_DATA = re.compile(r'\sdata-[\w.:-]*="[^"]*"')
#: What ties elements to each other (ids, references, definitions) or is
#: not a plain tag (comments, CDATA): such a document is drawn whole.
_TIES = re.compile(r"url\(|href|<use\b|<defs\b|<!|<\?|\bid=")
#: Style sheets whose selectors do not depend on an element's siblings or
#: attributes: class, type and id names, descendants, lists.
_PLAIN_SELECTORS = re.compile(r"[\w\s.#*,-]*")
_RULE_BODY = re.compile(r"\{[^{}]*\}")
#: Leading elements that describe the others rather than draw: kept with
#: the root in every element's document.
_HEAD_TAGS = frozenset({"style"})
_TEXT_TAGS = frozenset({"text", "tspan", "textPath", "a"})


class Split:
    """A document cut into its head (root start tag and leading
    ``<style>``), its top-level elements and its tail; joined, they are the
    document again."""

    __slots__ = ("elements", "head", "tail")

    def __init__(self, head: str, elements: list[str], tail: str) -> None:
        self.head = head
        self.elements = elements
        self.tail = tail

    def join(self) -> str:
        return self.head + "".join(self.elements) + self.tail

    @property
    def drawing_head(self) -> str:
        """The head without ``data-*`` attributes (the ply, the position
        text), which draw nothing: frames of one game share it."""
        return _DATA.sub("", self.head)


def split(svg: str) -> Split | None:
    """``svg`` cut at its top-level elements, or None when it is not a flat
    ``hexhop-board`` picture that can be drawn element by element."""
    declaration = _DECLARATION.match(svg)
    root = _ROOT.match(svg, declaration.end() if declaration else 0)
    if root is None:
        return None
    start = root.group(0)
    if start.endswith("/>") or "hexhop-board" not in start or " transform=" in start:
        return None
    if _TIES.search(svg, root.end()):
        return None
    elements: list[str] = []
    open_tags: list[str] = []
    head_end = begin = position = root.end()
    for tag in _TAG.finditer(svg, root.end()):
        if not open_tags and tag.start() > position and not svg[position : tag.start()].isspace():
            return None  # text outside any element
        position = tag.end()
        closing, name, rest = tag.groups()
        if closing:
            if not open_tags:  # the root's end
                if name != "svg" or (svg[position:] and not svg[position:].isspace()):
                    return None
                return Split(svg[:head_end], elements, svg[begin:])
            if open_tags.pop() != name:
                return None
        elif not rest.endswith("/"):
            open_tags.append(name)
        if open_tags:
            continue
        if name in _HEAD_TAGS:
            # a style sheet applies to every element: it stays in the head
            if elements or not _plain_style(svg[begin:position]):
                return None
            head_end = position
        else:
            elements.append(svg[begin:position])
        begin = position
    return None


def _plain_style(element: str) -> bool:
    sheet = element[element.index(">") + 1 : element.rindex("<")]
    return _PLAIN_SELECTORS.fullmatch(_RULE_BODY.sub("", sheet)) is not None


class Piece:
    """One element, ready to paint: ``source`` (a cairo recording of its
    drawing commands, or an image of its pixels) placed at ``x``, ``y`` and
    painted only within ``box`` (left, top, width, height in pixels; None
    when it draws nothing); ``size`` is the whole picture's in pixels."""

    __slots__ = ("box", "cost", "size", "source", "x", "y")

    def __init__(
        self,
        source: Any,
        x: int,
        y: int,
        box: tuple[int, int, int, int] | None,
        size: tuple[int, int],
        cost: int,
    ) -> None:
        self.source = source
        self.x = x
        self.y = y
        self.box = box
        self.size = size
        #: bytes it holds, about
        self.cost = cost


Key = tuple[str, int | None, str]


class Cache:
    """A least-recently-used map from (head, width, element) to the
    element's :class:`Piece`, within a budget of bytes; safe to share
    between threads."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self._items: OrderedDict[Key, Piece] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def lookup(self, keys: Sequence[Key]) -> list[Piece | None]:
        with self._lock:
            found = [self._items.get(key) for key in keys]
            for key, value in zip(keys, found, strict=True):
                if value is not None:
                    self._items.move_to_end(key)
            return found

    def store(self, pairs: Iterable[tuple[Key, Piece]]) -> None:
        with self._lock:
            for key, value in pairs:
                old = self._items.pop(key, None)
                if old is not None:
                    self.used -= _held(key, old)
                self.used += _held(key, value)
                self._items[key] = value
            while self.used > self.budget and self._items:
                self.used -= _held(*self._items.popitem(last=False))

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.used = 0


def _held(key: Key, piece: Piece) -> int:
    """Bytes an entry holds: its pixels or commands, the element's text
    and the Python objects around them."""
    return piece.cost + len(key[2]) + ENTRY_BYTES


CACHE = Cache(CACHE_BYTES)
#: cairo does not promise that one recording may be painted from two
#: threads at once; painting a frame is short, so frames take turns.
_PAINT = threading.Lock()


def surface(svg: str, width: int | None = None) -> Any:
    """The picture as a cairo ARGB32 image surface, ``width`` pixels wide
    (the height keeps the aspect ratio); without ``width``, the width the
    SVG asks for. Our own diagrams are painted from cached pieces."""
    parts = split(svg)
    if parts is not None and parts.elements:
        image = _from_pieces(parts, width)
        if image is not None:
            return image
    from cairosvg.parser import Tree
    from cairosvg.surface import PNGSurface

    _cairo()
    tree = Tree(bytestring=svg.encode("utf-8"), unsafe=False, url_fetcher=refuse_fetch)
    image = PNGSurface(tree, None, 96, output_width=width).cairo
    image.flush()
    return image


def _from_pieces(parts: Split, width: int | None) -> Any:
    """The picture painted from the pieces of its elements, drawing those
    not yet cached; None when cairosvg does not see the elements one by one
    as the split does."""
    cairo = _cairo()
    head = parts.drawing_head
    keys = [(head, width, element) for element in parts.elements]
    found = CACHE.lookup(keys)
    missing = [index for index, piece in enumerate(found) if piece is None]
    if missing:
        drawn = _draw_pieces(head, [parts.elements[index] for index in missing], width)
        if drawn is None:
            return None
        for index, piece in zip(missing, drawn, strict=True):
            found[index] = piece
        CACHE.store((keys[index], piece) for index, piece in zip(missing, drawn, strict=True))
    pieces = [piece for piece in found if piece is not None]
    image = cairo.ImageSurface(cairo.FORMAT_ARGB32, *pieces[0].size)
    context = cairo.Context(image)
    with _PAINT:
        for piece in pieces:
            if piece.box is not None:
                # painting only its box keeps cairo from replaying a
                # recording onto a scratch image as large as the picture
                context.set_source_surface(piece.source, piece.x, piece.y)
                context.rectangle(*piece.box)
                context.fill()
    image.flush()
    return image


def _draw_pieces(head: str, elements: Sequence[str], width: int | None) -> list[Piece] | None:
    """Each of ``elements`` drawn under ``head`` by cairosvg, in one pass,
    as a piece of its own."""
    from cairosvg.parser import Tree

    document = head + "".join(elements) + "</svg>"
    tree = Tree(bytestring=document.encode("utf-8"), unsafe=False, url_fetcher=refuse_fetch)
    pieces = _piece_surface()(tree, width).pieces
    return pieces if len(pieces) == len(elements) else None


_PIECE_SURFACE: list[type] = []


def _piece_surface() -> type:
    """A cairosvg PNG surface that draws each top-level element apart, with
    the root's transformation and clip, into :attr:`pieces`. Elements with
    text are drawn onto an image, as on a PNG, because cairo lays text out
    for a recording with other font metrics; the rest onto recordings.
    (Made on first use: importing cairosvg is slow.)"""
    if _PIECE_SURFACE:
        return _PIECE_SURFACE[0]
    cairo = _cairo()
    from cairosvg.surface import PNGSurface

    class PieceSurface(PNGSurface):
        context: Any  # cairosvg's drawing context, swapped per element

        def __init__(self, tree: Any, width: int | None) -> None:
            self.root_node = tree
            self.pieces: list[Piece] = []
            self.scratch: Any = None
            self.root_viewport: tuple[float, float, Any] = (0.0, 0.0, None)
            super().__init__(tree, None, 96, output_width=width)

        def _create_surface(self, width: float, height: float) -> tuple[Any, int, int]:
            # the size PNGSurface gives the picture, and nothing to draw on
            wide, high = int(round(width)), int(round(height))
            return cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, (0, 0, wide, high)), wide, high

        def draw(self, node: Any) -> None:
            if node.parent is not self.root_node or node.tag in _HEAD_TAGS:
                super().draw(node)
                return
            size = (self.width, self.height)
            if _has_text(node):
                if self.scratch is None:
                    self.scratch = cairo.ImageSurface(cairo.FORMAT_ARGB32, *size)
                self._draw_on(self.scratch, node)
                self.pieces.append(_cut_out(cairo, self.scratch, size))
            else:
                target = cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, (0, 0, *size))
                self._draw_on(target, node)
                self.pieces.append(_small_as_image(cairo, target, size))

        def set_context_size(self, width: float, height: float, viewbox: Any, tree: Any) -> None:
            if tree is self.root_node:
                self.root_viewport = (width, height, viewbox)
            super().set_context_size(width, height, viewbox, tree)

        def _draw_on(self, target: Any, node: Any) -> None:
            outer: Any = self.context
            self.context = cairo.Context(target)
            try:
                # the root's transformation, made by the same steps as for
                # a whole picture: a matrix copied instead differs in its
                # last bits, enough to move a glyph by a pixel
                scale = self.device_units_per_user_units
                self.context.scale(scale, scale)
                super().set_context_size(*self.root_viewport, self.root_node)
                super().draw(node)
            finally:
                self.context = outer

        def finish(self) -> None:
            """Nothing to write."""

    _PIECE_SURFACE.append(PieceSurface)
    return PieceSurface


def _has_text(node: Any) -> bool:
    return node.tag in _TEXT_TAGS or any(_has_text(child) for child in node.children)


def _pixel_box(extents: tuple[float, float, float, float]) -> tuple[int, int, int, int] | None:
    """Ink extents grown to whole pixels, with one pixel to spare (a
    fractional edge would paint its pixels half)."""
    x, y, w, h = extents
    if w <= 0 or h <= 0:
        return None
    left, top = math.floor(x) - 1, math.floor(y) - 1
    return left, top, math.ceil(x + w) + 1 - left, math.ceil(y + h) + 1 - top


def _small_as_image(cairo: Any, recording: Any, size: tuple[int, int]) -> Piece:
    """The recording as a piece: replayed once onto an image of its ink box
    when that is small, as painting the recording would do on each frame."""
    box = _pixel_box(recording.ink_extents())
    if box is None or box[2] * box[3] * 4 > TILE_BYTES:
        return Piece(recording, 0, 0, box, size, RECORDING_BYTES)
    left, top, width, height = box
    tile = cairo.ImageSurface(cairo.FORMAT_ARGB32, width, height)
    replay = cairo.Context(tile)
    replay.set_source_surface(recording, -left, -top)
    replay.paint()
    tile.flush()
    return Piece(tile, left, top, box, size, tile.get_stride() * height)


def _cut_out(cairo: Any, scratch: Any, size: tuple[int, int]) -> Piece:
    """The pixels drawn on ``scratch`` as a piece of their own size; the
    scratch image is cleared for the next element."""
    from PIL import Image

    scratch.flush()
    # only the alpha byte is read: its place in the 32-bit word depends on
    # the byte order
    raw = "RGBA" if sys.byteorder == "little" else "ARGB"
    pixels = Image.frombuffer("RGBA", size, scratch.get_data(), "raw", raw, scratch.get_stride(), 1)
    box = pixels.getbbox()
    if box is None:
        return Piece(None, 0, 0, None, size, 64)
    left, top, right, bottom = box
    tile = cairo.ImageSurface(cairo.FORMAT_ARGB32, right - left, bottom - top)
    copy = cairo.Context(tile)
    copy.set_operator(cairo.OPERATOR_SOURCE)
    copy.set_source_surface(scratch, -left, -top)
    copy.paint()
    tile.flush()
    clear = cairo.Context(scratch)
    clear.set_operator(cairo.OPERATOR_CLEAR)
    clear.rectangle(left, top, right - left, bottom - top)
    clear.fill()
    box_size = (right - left, bottom - top)
    return Piece(tile, left, top, (left, top, *box_size), size, tile.get_stride() * box_size[1])


def refuse_fetch(url: str, resource_type: str) -> bytes:
    """A url_fetcher that loads nothing: our pictures reference no resources."""
    return b'<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>'


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


def _cairo() -> Any:
    load_cairo()
    import cairocffi  # installed with cairosvg

    return cairocffi


def pillow_image(image: Any) -> Any:
    """The surface as a Pillow RGBA image (colours no longer premultiplied)."""
    from PIL import Image

    if sys.byteorder != "little":
        return Image.open(io.BytesIO(_cairo_png(image))).convert("RGBA")
    # cairo's ARGB32 is a native 32-bit word: B, G, R, A in memory on a
    # little-endian machine; the pixels are copied as they are decoded
    size = (image.get_width(), image.get_height())
    return Image.frombuffer("RGBA", size, image.get_data(), "raw", "BGRa", image.get_stride(), 1)


def png_bytes(image: Any) -> bytes:
    """The surface as an 8-bit RGBA PNG file."""
    if sys.byteorder != "little":
        return _cairo_png(image)
    rgba = pillow_image(image).tobytes()
    width, height = image.get_width(), image.get_height()
    stride = width * 4
    # each row starts with its filter type, 0 (none)
    rows = b"".join(b"\0" + rgba[start : start + stride] for start in range(0, len(rgba), stride))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", zlib.compress(rows, PNG_LEVEL)),
            _chunk(b"IEND", b""),
        )
    )


def _cairo_png(image: Any) -> bytes:
    out = io.BytesIO()
    image.write_to_png(out)
    return out.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
