"""The caching rasteriser: PNG frames painted from cached
pieces of the SVG look as cairosvg draws the whole document."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat
from test_render_svg import START, dice_position, hop_start

from hexhop.engine.replay import GameReport, replay_game
from hexhop.notation import read_archive
from hexhop.records.frames import Frames
from hexhop.render import board_svg, gif, raster, svg_to_png
from hexhop.render.png import load_cairo, refuse_fetch
from hexhop.render.sequence import sheet_svg

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "good"
SIZE = 160
#: Largest difference of one colour channel of one pixel, and largest mean
#: difference of a channel, allowed between the cached path and cairosvg.
#: Seen over every frame of the samples (960 frames at 300 px): 3 and 0.03,
#: from rounding where pieces are composited instead of drawn in place.
MAX_CHANNEL = 6
MAX_MEAN = 0.1
#: Cells for arrows and highlights, per family.
MARKS: dict[str, dict[str, Any]] = {
    "dice": {"arrows": (("F4", "D6"),), "highlights": ("C7", "A7")},
    "hop": {"arrows": (("a1", "c3"),), "highlights": ("b2",)},
}


@cache
def reports() -> list[GameReport]:
    found = []
    for path in sorted(SAMPLES.iterdir()):
        for parsed in read_archive(path.read_bytes(), path=str(path)):
            found.append(replay_game(parsed))
    return found


def sample_frames(*, marks: bool, flip: bool) -> Iterator[Frames]:
    for report in reports():
        marked = MARKS["hop" if report.game == "Hüpfer" else "dice"]
        arrows, highlights = (marked["arrows"], marked["highlights"]) if marks else ((), ())
        yield Frames(report, size=SIZE, flip=flip, arrows=arrows, highlights=highlights)


def plain_png(svg: str, size: int | None) -> bytes:
    """What svg_to_png gave before: cairosvg drawing the whole document."""
    load_cairo()
    from cairosvg.surface import PNGSurface

    result = PNGSurface.convert(
        bytestring=svg.encode(), unsafe=False, url_fetcher=refuse_fetch, output_width=size
    )
    assert isinstance(result, bytes)
    return result


def difference(a: bytes, b: bytes) -> tuple[int, float]:
    """Largest and mean per-channel difference of two PNG pictures."""
    first = Image.open(io.BytesIO(a)).convert("RGBA")
    second = Image.open(io.BytesIO(b)).convert("RGBA")
    assert first.size == second.size
    diff = ImageChops.difference(first, second)
    return max(high for _low, high in diff.getextrema()), max(ImageStat.Stat(diff).mean)


def assert_looks_the_same(svg: str, size: int | None = SIZE) -> None:
    largest, mean = difference(svg_to_png(svg, size=size), plain_png(svg, size))
    assert largest <= MAX_CHANNEL and mean <= MAX_MEAN, (largest, mean)


# ---------------------------------------------------------------------------
# The split


def test_every_picture_we_make_splits_and_joins_back() -> None:
    """Titles of one and two lines, arrows, highlights, marks of the last
    action, both ways up, every game and board size."""
    count = 0
    for marks, flip in ((False, False), (True, True)):
        for frames in sample_frames(marks=marks, flip=flip):
            for ply in range(len(frames.report.positions)):
                svg = frames.svg(ply)
                parts = raster.split(svg)
                assert parts is not None
                assert parts.join() == svg
                assert parts.head.endswith("</style>") and len(parts.elements) > 50
                assert "data-ply" in parts.head and "data-" not in parts.drawing_head
                count += 1
    assert count > 450


def test_the_split_cuts_at_top_level_elements() -> None:
    svg = (
        '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" class="hexhop-board x" '
        'data-ply="3" width="10" height="10"><style>.hexhop-board{fill:red}</style>'
        '<rect width="1" height="1"/>\n<g class="a"><g><circle r="1"/></g><text>x &lt; y</text>'
        "</g><text>z</text></svg>\n"
    )
    parts = raster.split(svg)
    assert parts is not None and parts.join() == svg
    assert parts.elements == [
        '<rect width="1" height="1"/>',
        '\n<g class="a"><g><circle r="1"/></g><text>x &lt; y</text></g>',
        "<text>z</text>",
    ]
    assert 'data-ply="3"' not in parts.drawing_head and 'class="hexhop-board x"' in parts.head


@pytest.mark.parametrize(
    "svg",
    [
        # not ours: a sheet, a plain picture
        '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><rect width="2"/></svg>',
        # elements that refer to each other
        '<svg class="hexhop-board"><defs><circle id="c" r="1"/></defs><use href="#c"/></svg>',
        '<svg class="hexhop-board"><rect fill="url(#g)"/></svg>',
        '<svg class="hexhop-board"><rect id="r"/></svg>',
        # style that depends on the place of an element, or a late style
        '<svg class="hexhop-board"><style>rect + rect{fill:red}</style><rect/><rect/></svg>',
        '<svg class="hexhop-board"><style>rect[x]{fill:red}</style><rect/></svg>',
        '<svg class="hexhop-board"><rect/><style>rect{fill:red}</style></svg>',
        # what the scan does not read: comments, stray text, bad nesting, no end
        '<svg class="hexhop-board"><!-- c --><rect/></svg>',
        '<svg class="hexhop-board">words<rect/></svg>',
        '<svg class="hexhop-board"><g><rect/></svg></g>',
        '<svg class="hexhop-board"><g><rect/></g>',
        '<svg class="hexhop-board" transform="scale(2)"><rect/></svg>',
        '<svg class="hexhop-board"/>',
    ],
)
def test_what_the_split_does_not_understand_is_drawn_whole(svg: str) -> None:
    assert raster.split(svg) is None


def test_a_sheet_falls_back_to_cairosvg_and_leaves_the_cache_alone() -> None:
    svg = sheet_svg(
        [("one", board_svg(dice_position(START))), ("two", board_svg(hop_start(6)))], size=80
    )
    assert raster.split(svg) is None
    raster.CACHE.clear()
    data = svg_to_png(svg)
    assert len(raster.CACHE) == 0
    assert difference(data, plain_png(svg, None)) == (0, 0.0)


# ---------------------------------------------------------------------------
# The pictures


@pytest.mark.parametrize("start", [0, pytest.param(12, marks=pytest.mark.slow)])
def test_cached_frames_look_like_cairosvg_on_a_sample_of_frames(start: int) -> None:
    """Every twelfth frame of every sample game, both ways up, with titles,
    arrows and highlights: every 24th in the quick tier (the slow test below
    takes every frame)."""
    raster.CACHE.clear()
    for flip in (False, True):
        for frames in sample_frames(marks=flip, flip=flip):
            for ply in range(start + (6 if flip else 0), len(frames.report.positions), 24):
                assert_looks_the_same(frames.svg(ply))


@pytest.mark.slow
@pytest.mark.parametrize("flip", [False, True])
@pytest.mark.parametrize("marks", [False, True])
def test_cached_frames_look_like_cairosvg_on_every_sample_frame(marks: bool, flip: bool) -> None:
    for frames in sample_frames(marks=marks, flip=flip):
        for ply in range(len(frames.report.positions)):
            assert_looks_the_same(frames.svg(ply), 300)


@pytest.mark.parametrize("size", [None, 97, 400])
def test_sizes_and_untitled_pictures_look_like_cairosvg(size: int | None) -> None:
    raster.CACHE.clear()
    assert_looks_the_same(board_svg(dice_position(START), size=123), size)
    assert_looks_the_same(board_svg(hop_start(10), size=250, flip=True, title="Bremen"), size)


def test_the_png_keeps_its_size_and_mode() -> None:
    svg = board_svg(hop_start(8), size=150, title="A – B")
    for data in (svg_to_png(svg), svg_to_png(svg)):  # drawn, then from the cache
        image = Image.open(io.BytesIO(data))
        assert image.mode == "RGBA" and image.format == "PNG"
        assert image.size == Image.open(io.BytesIO(plain_png(svg, None))).size


def test_a_frame_after_the_first_draws_only_what_is_new(monkeypatch: pytest.MonkeyPatch) -> None:
    """The next frame of a game (another ply number and position text on
    the root, a die moved, the status line) sends only a few elements
    through cairosvg."""
    frames = next(sample_frames(marks=False, flip=False))
    raster.CACHE.clear()
    drawn: list[int] = []
    draw = raster._draw_pieces

    def counting(head: str, elements: list[str], width: int | None) -> object:
        drawn.append(len(elements))
        return draw(head, elements, width)

    monkeypatch.setattr(raster, "_draw_pieces", counting)
    for ply in range(6):
        svg_to_png(frames.svg(ply), size=SIZE)
    first = raster.split(frames.svg(0))
    assert first is not None
    total = len(first.elements)
    assert drawn[0] == total > 100
    assert all(0 < count <= 12 for count in drawn[1:]), drawn
    svg_to_png(frames.svg(3), size=SIZE)
    assert len(drawn) == 6  # a frame drawn before comes wholly from the cache


def test_the_cache_keeps_a_budget_and_the_recently_used() -> None:
    def piece(cost: int) -> raster.Piece:
        return raster.Piece(None, 0, 0, None, (1, 1), cost)

    each = 100 + 2 + raster.ENTRY_BYTES  # pixels, the element's text, the rest
    cache = raster.Cache(10 * each)
    cache.store([(("h", 1, f"e{n}"), piece(100)) for n in range(8)])
    assert cache.lookup([("h", 1, "e0")])[0] is not None  # used: now the newest
    cache.store([(("h", 1, f"f{n}"), piece(100)) for n in range(5)])
    assert len(cache) == 10 and cache.used == 10 * each
    kept = cache.lookup([("h", 1, name) for name in ("e0", "e1", "e3", "e4", "f4")])
    assert [found is not None for found in kept] == [True, False, False, True, True]
    cache.store([(("h", 1, "f4"), piece(100))])  # stored again: counted once
    assert cache.used == 10 * each
    cache.store([(("h", 1, "big"), piece(20 * each))])
    assert len(cache) == 0 and cache.used == 0


def test_the_shared_cache_stays_within_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(raster.CACHE, "budget", 200_000)
    raster.CACHE.clear()
    for size in range(100, 130, 3):
        svg_to_png(board_svg(dice_position(START), size=size, title=f"{size}"))
    assert 0 < raster.CACHE.used <= 200_000
    raster.CACHE.clear()


def test_threads_share_the_cache_safely() -> None:
    frames = next(sample_frames(marks=True, flip=True))
    svgs = [frames.svg(ply) for ply in range(8)]
    raster.CACHE.clear()
    alone = [svg_to_png(svg, size=100) for svg in svgs]
    raster.CACHE.clear()
    results: dict[tuple[int, int], bytes] = {}

    def work(worker: int) -> None:
        for index in range(len(svgs)):
            turn = (index + worker * 3) % len(svgs)
            results[worker, turn] = svg_to_png(svgs[turn], size=100)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 4 * len(svgs)
    assert all(data == alone[turn] for (_worker, turn), data in results.items())


def test_gif_frames_come_from_the_pixels_without_a_png(monkeypatch: pytest.MonkeyPatch) -> None:
    frames = next(sample_frames(marks=False, flip=False))
    svgs = [frames.svg(ply) for ply in range(3)]

    def no_png(image: object) -> bytes:
        raise AssertionError("a GIF frame went through a PNG file")

    monkeypatch.setattr(raster, "png_bytes", no_png)
    animation = Image.open(io.BytesIO(gif(svgs, size=SIZE)))
    animation.seek(2)
    shown = animation.convert("RGB")
    monkeypatch.undo()
    drawn = Image.open(io.BytesIO(plain_png(svgs[2], SIZE))).convert("RGBA")
    flat = Image.new("RGB", drawn.size, "white")
    flat.paste(drawn, mask=drawn.getchannel("A"))
    # 255 colours without dithering: close, not equal
    assert max(ImageStat.Stat(ImageChops.difference(shown, flat)).mean) < 1  # seen: 0.24
