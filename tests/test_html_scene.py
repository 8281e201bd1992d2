"""The viewer draws every position from parts (:mod:`hexhop.render.scene`):
joined, they must be the very picture ``board_svg`` draws (the
page draws positions from compact data, with the same look)."""

from __future__ import annotations

import pytest
from test_html import GOOD, SAMPLES, report_of

from hexhop.engine.games import rules_for
from hexhop.records.viewer import page_data
from hexhop.render.last_action import describe_last
from hexhop.render.svg import board_svg

CASES = [*GOOD, SAMPLES / "broken" / "illegal-hexalit-pawn-capture.hxl"]


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_every_frame_is_the_picture_board_svg_draws(path):
    report = report_of(path)
    page = page_data(report)
    attacked = getattr(rules_for(report.game), "attacked_ones", None)
    main = [page.frames[i] for i in page.lines[0].frames]
    assert len(main) == len(report.positions)
    for ply, (frame, position) in enumerate(zip(main, report.positions)):
        last = None
        if ply:
            before, node = report.positions[ply - 1], report.nodes[ply - 1]
            threatened = list(attacked(position)) if attacked else None
            last = describe_last(before, position, node.action, threatened=threatened)
        for flip in (False, True):
            svg = board_svg(position, flip=flip, last=last, ply=ply, position_text=position.text())
            inline = svg.replace(' xmlns="http://www.w3.org/2000/svg"', "", 1)
            assert page.svg(frame, flipped=flip) == inline, (ply, flip)
