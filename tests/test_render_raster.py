"""PNG, GIF and contact sheets (small pictures, to stay fast)."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from test_render_svg import START, dice_position, hop_start

from hexhop.render import board_svg, gif, sheet, svg_to_png

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_png_bytes_and_size() -> None:
    data = svg_to_png(board_svg(dice_position(START)), size=160)
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data))
    assert image.width == 160 and 0.6 < image.height / image.width < 0.9


def test_png_takes_the_svg_width_by_default() -> None:
    data = svg_to_png(board_svg(hop_start(6), size=120))
    assert Image.open(io.BytesIO(data)).width == 120


def test_png_loads_no_external_resources(tmp_path: object) -> None:
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="20" height="20"><image xlink:href="file:///etc/passwd" width="20" '
        'height="20"/><image xlink:href="http://example.invalid/x.png" width="20" '
        'height="20"/></svg>'
    )
    assert svg_to_png(svg).startswith(PNG_SIGNATURE)


def test_gif_is_an_animation() -> None:
    frames = [board_svg(dice_position(START)), board_svg(hop_start(6), title="Hüpfer")]
    data = gif(frames, size=120, frame_ms=300, last_ms=1000)
    assert data.startswith(b"GIF89a")
    image = Image.open(io.BytesIO(data))
    assert image.n_frames == 2 and image.width == 120
    assert gif(frames, size=120, frame_ms=300, last_ms=1000) == data


def test_sheet_is_one_png_with_a_grid() -> None:
    frames = [(f"{n}. label", board_svg(dice_position(START))) for n in range(5)]
    data = sheet(frames, columns=2, size=100)
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data))
    assert image.width > 200 and image.height > 3 * 70


def test_empty_sequences_are_refused() -> None:
    with pytest.raises(ValueError):
        gif([], size=100)
    with pytest.raises(ValueError):
        sheet([], size=100)
