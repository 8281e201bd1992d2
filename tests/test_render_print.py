"""Diagrams good enough to print: dice that
fit their triangles, text that stays legible in a narrow column, and a
captured Hüpfer piece that shows."""

from __future__ import annotations

import io
import math
import xml.etree.ElementTree as ET

import pytest
from PIL import Image
from test_render_svg import (
    NS,
    START,
    DicePosition,
    HopPosition,
    dice_position,
    having,
    hop_position,
    parse,
    polygon_points,
    translate,
)

from hexhop.notation.model import HopAction
from hexhop.render import DEFAULT_COLORS, LastAction, board_svg, describe_last, svg_to_png
from hexhop.render import geometry as geo

Point = tuple[float, float]

# ---------------------------------------------------------------------------
# Dice inside their triangles


def every_cell_rolled() -> DicePosition:
    """A die on each of the 66 cells, each a 2 rolled to 6 (big and small die)."""
    names = " ".join(f"{cell}=6/2" for cell in geo.cells(False))
    return dice_position(f"N: {names}; S: ")


def squares(die: ET.Element) -> list[tuple[list[Point], float]]:
    """The corners of each square of a die (the die and its home face), in
    picture coordinates, and half the width of its edge line."""
    dx, dy = translate(die)
    out = []
    for rect in die.iter(f"{NS}rect"):
        x, y = dx + float(rect.get("x", "")), dy + float(rect.get("y", ""))
        w, h = float(rect.get("width", "")), float(rect.get("height", ""))
        corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
        out.append((corners, float(rect.get("stroke-width", "0")) / 2))
    return out


def clearance(point: Point, triangle: list[Point]) -> float:
    """Distance from ``point`` to the nearest side of ``triangle``, negative
    when the point is outside."""
    cx = sum(p[0] for p in triangle) / 3
    cy = sum(p[1] for p in triangle) / 3
    least = math.inf
    for (x1, y1), (x2, y2) in zip(triangle, triangle[1:] + triangle[:1], strict=True):
        nx, ny = y2 - y1, x1 - x2
        length = math.hypot(nx, ny)
        inward = 1 if (cx - x1) * nx + (cy - y1) * ny > 0 else -1
        least = min(least, inward * ((point[0] - x1) * nx + (point[1] - y1) * ny) / length)
    return least


@pytest.mark.parametrize("flip", [False, True])
def test_every_die_lies_inside_its_triangle(flip: bool) -> None:
    """The square corners of every die and of every home-face die,
    edge line included, keep 2 units off the sides of their own triangle."""
    root = parse(board_svg(every_cell_rolled(), flip=flip))
    cells = {c.get("data-cell", ""): polygon_points(c) for c in having(root, "cell")}
    dice = having(root, "die")
    assert len(dice) == 66
    for die in dice:
        triangle = cells[die.get("data-cell", "")]
        parts = squares(die)
        assert len(parts) == 2
        for corners, edge in parts:
            for corner in corners:
                assert clearance(corner, triangle) - edge >= 2.0, die.get("data-cell")


def test_the_home_face_overlaps_only_the_edge_of_its_die() -> None:
    """The small die touches its big die (it belongs to it) but
    leaves the big die's pips uncovered."""
    root = parse(board_svg(dice_position("N: A7=1 B5=6/2 C5=6/2; S: F7=1")))
    for die in having(root, "die", "rolled"):
        (big, _), (small, _) = squares(die)
        big_top, big_bottom = big[0][1], big[2][1]
        small_top, small_bottom = small[0][1], small[2][1]
        pips = [float(c.get("cy", "")) for c in die.iter(f"{NS}circle")][:6]
        dy = translate(die)[1]
        if small_top < big_top:  # apex up
            assert big_top < small_bottom < dy + min(pips) - 3.8
        else:
            assert dy + max(pips) + 3.8 < small_top < big_bottom


# ---------------------------------------------------------------------------
# Text sizes in pixels


def pictures(size: int) -> dict[str, str]:
    """One diagram of each game and board, with every kind of text."""
    captured = LastAction(captured=("c3",), captured_side="Turquoise")
    return {
        "Hexalit": board_svg(dice_position(START, cube=16), size=size, title="Round 3"),
        "Trigeo": board_svg(dice_position(START, "Trigeo", winner="South"), size=size),
        **{
            f"Hüpfer {n}x{n}": board_svg(
                HopPosition("Hüpfer", n, {"a1": "Red"}), size=size, title="Bremen", last=captured
            )
            for n in (6, 8, 10)
        },
    }


def font_pixels(svg: str) -> dict[str, float]:
    """The smallest font of each class of text, in pixels of the picture."""
    root = ET.fromstring(svg)
    scale = float(root.get("width", "")) / float(root.get("viewBox", "").split()[2])
    out: dict[str, float] = {}
    for node in root.iter(f"{NS}text"):
        name = node.get("class", "").split()[0]
        pixels = float(node.get("font-size", "")) * scale
        out[name] = min(out.get(name, math.inf), pixels)
    return out


@pytest.mark.parametrize("size", [250, 300, 400, 800])
def test_text_keeps_ten_pixels_in_a_newsletter_column(size: int) -> None:
    """Coordinates, the status line, reserves, the cube and a short
    title are at least 10 px high in a picture 250 px wide or wider."""
    for game, svg in pictures(size).items():
        fonts = font_pixels(svg)
        assert {"coord", "status"} <= set(fonts), game
        assert min(fonts.values()) >= 9.99, (game, size, fonts)


def test_large_pictures_keep_their_designed_sizes() -> None:
    """Text grows only where the picture is small: at 800 px the fonts are
    the designed ones (user units), at 250 px larger."""
    big = ET.fromstring(pictures(800)["Hexalit"])
    small = ET.fromstring(pictures(250)["Hexalit"])
    row = having(big, "coord", "row")[0]
    assert row.get("font-size") == "24"
    assert float(having(small, "coord", "row")[0].get("font-size", "")) > 30


def test_tiny_pictures_keep_labels_apart() -> None:
    """Below 250 px text may shrink again: it never outgrows its place (two
    digits of neighbouring columns do not touch)."""
    root = ET.fromstring(board_svg(dice_position(START), size=100))
    numbers = having(root, "coord", "column")
    font = max(float(n.get("font-size", "")) for n in numbers)
    # DejaVu Sans digits are 0.636 em wide; the columns stand 50 units apart
    assert 2 * 0.636 * font < geo.SIDE / 2


@pytest.mark.parametrize("board", [6, 10])
def test_reserves_stay_inside_a_small_picture(board: int) -> None:
    """The grown reserve caption is not cut off at the right edge."""
    position = hop_position("a1", "f6", size=board, reserves={"Red": 26, "Turquoise": 26})
    image = Image.open(io.BytesIO(svg_to_png(board_svg(position, size=250), size=250)))
    image = image.convert("RGB")
    right = [
        image.getpixel((image.width - 1 - dx, y)) for dx in range(3) for y in range(image.height)
    ]
    assert all(pixel == (255, 255, 255) for pixel in right)


# ---------------------------------------------------------------------------
# The captured Hüpfer piece


def capture() -> tuple[HopPosition, LastAction]:
    before = hop_position("a2 b2", "c3 e5", size=6)
    after = hop_position("c4 b2", "e5", size=6, to_move="Turquoise")
    return after, describe_last(before, after, HopAction(("a2", "c2", "c4"), ("-", "x")))


def test_the_ghost_is_the_captured_piece_faded() -> None:
    """The ghost has the captured piece's own look (a Turquoise
    ring), full size, faded and dashed, with a cross above the path."""
    after, last = capture()
    root = parse(board_svg(after, last=last))
    [group] = having(root, "captured", "c3")
    ghost = having(group, "ghost")[0]
    assert ghost.get("stroke") == DEFAULT_COLORS["turquoise"]
    assert float(ghost.get("r", "")) + float(ghost.get("stroke-width", "")) / 2 == 33.0
    assert 0.4 <= float(ghost.get("opacity", "")) <= 0.7
    assert ghost.get("stroke-dasharray")
    assert having(group, "cross")
    order = [e.get("class", "").split()[0] for e in root if e.get("class")]
    assert order.index("path") < order.index("captured")


def luminance(rgb: tuple[int, ...]) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_a_captured_red_piece_shows_but_not_as_a_live_one() -> None:
    """In pixels: the ghost of a Red piece stands out from the
    board (contrast ≥ 2) and is lighter than a live Red piece (≥ 1.5)."""
    before = hop_position("a1 c3", "d4 f6", size=6)
    after = hop_position("a1", "b2 f6", size=6)
    last = describe_last(before, after, HopAction(("d4", "b2"), ("x",)))
    assert last.captured == ("c3",) and last.captured_side == "Red"
    svg = board_svg(after, last=last)
    image = Image.open(io.BytesIO(svg_to_png(svg, size=400))).convert("RGB")
    scale = 400 / geo.huepfer_extent(6)

    def pixel(point: str, dx: float) -> tuple[int, ...]:
        x, y = geo.huepfer_points(6, False)[point]
        return tuple(image.getpixel((round((x + dx) * scale), round(y * scale))))

    ghost, live, board = pixel("c3", 22), pixel("a1", 22), pixel("c3", 60)
    assert board == (255, 255, 255)
    assert contrast(ghost, board) >= 2.0
    assert contrast(ghost, live) >= 1.5
