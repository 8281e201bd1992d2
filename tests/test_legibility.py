"""Small diagrams that read well, measured on the SVG at the
smallest width the command line draws (``MIN_SIZE``, 250 px): every pip at
least 2.5 px across, the coordinates apart from each other, from the board
and inside the picture; one height for the diagrams of a game; one caption
style for single diagrams and sheets; narrower widths refused."""

from __future__ import annotations

import itertools
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_render_svg import NS, HopPosition, dice_position, having, polygon_points, translate

from hexhop.cli.main import cli
from hexhop.engine.replay import replay_game
from hexhop.messages import set_language
from hexhop.notation import boards, read_archive
from hexhop.records.frames import Frames
from hexhop.render import board_svg
from hexhop.render import geometry as geo
from hexhop.render.svg_parts import MIN_SIZE, MIN_TEXT_PX

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "good"
KASSEL = SAMPLES / "hexalit-kassel-1998.hxl"
HOP6 = SAMPLES / "huepfer-6x6-bremen-2003.hpf"

Box = tuple[float, float, float, float]  # left, top, right, bottom

#: Advance widths, as a share of the font size, no narrower than DejaVu
#: Sans (digits 0.636, bold digits 0.696, bold capitals up to D 0.830, bold
#: lower case up to 0.716) or Helvetica/Arial, the fonts' fall-backs.
DIGIT, BOLD_DIGIT, BOLD_CAPITAL, BOLD_LOWER = 0.64, 0.70, 0.84, 0.72
#: Above the baseline (capitals 0.73, ascenders 0.76) and below it
#: (descenders 0.24 em).
ASCENT, DESCENT = 0.8, 0.25


def scale(root: ET.Element) -> float:
    """Pixels of the picture per user unit."""
    return float(root.get("width", "")) / float(root.get("viewBox", "").split()[2])


def view(root: ET.Element) -> Box:
    left, top, width, height = map(float, root.get("viewBox", "").split())
    return left, top, left + width, top + height


def char_width(char: str, bold: bool) -> float:
    if char.isdigit():
        return BOLD_DIGIT if bold else DIGIT
    if not bold:
        raise AssertionError(f"no width for regular {char!r}")
    return BOLD_CAPITAL if char.isupper() else BOLD_LOWER


def label_box(node: ET.Element) -> Box:
    """The room a coordinate's text takes, from its font size and letters."""
    size = float(node.get("font-size", ""))
    bold = node.get("font-weight") == "bold"
    value = node.text or ""
    width = size * sum(char_width(c, bold) for c in value)
    x, baseline = float(node.get("x", "")), float(node.get("y", ""))
    assert node.get("text-anchor") == "middle"
    below = DESCENT if set(value) & set("gjpqy") else 0.05
    squeeze, shift = 1.0, 0.0
    matrix = re.fullmatch(r"matrix\(([\d.]+) 0 0 1 ([-\d.]+) 0\)", node.get("transform", "") or "")
    if node.get("transform"):
        assert matrix, node.get("transform")
        squeeze, shift = float(matrix.group(1)), float(matrix.group(2))
    left, right = (squeeze * (x + side * width / 2) + shift for side in (-1, 1))
    return left, baseline - ASCENT * size, right, baseline + below * size


def gap(a: Box, b: Box) -> float:
    """The distance between two boxes (negative when they overlap)."""
    dx = max(a[0] - b[2], b[0] - a[2])
    dy = max(a[1] - b[3], b[1] - a[3])
    return max(dx, dy) if max(dx, dy) < 0 else math.hypot(max(dx, 0), max(dy, 0))


def circle_gap(box: Box, cx: float, cy: float, r: float) -> float:
    """How far a circle stays off a box (negative when they meet)."""
    nx, ny = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
    return math.hypot(cx - nx, cy - ny) - r


def segment_hits_box(p: tuple[float, float], q: tuple[float, float], box: Box) -> bool:
    """Whether the segment p–q passes through ``box`` (sampled finely)."""
    steps = 400
    for i in range(steps + 1):
        x = p[0] + (q[0] - p[0]) * i / steps
        y = p[1] + (q[1] - p[1]) * i / steps
        if box[0] <= x <= box[2] and box[1] <= y <= box[3]:
            return True
    return False


# ---------------------------------------------------------------------------
# Pips


def every_face() -> str:
    """Dice with every face, plain and rolled from a 1 and from a 2, on
    cells that point both ways."""
    cells = list(geo.cells(False))
    values = [f"{face}" for face in range(1, 7)]
    values += [f"{face}/{home}" for home in (1, 2) for face in range(1, 7) if face != home]
    north = [f"{cell}={value}" for cell, value in zip(cells, values, strict=False)]
    south = [f"{cell}={value}" for cell, value in zip(cells[33:], values, strict=False)]
    return f"N: {' '.join(north)}; S: {' '.join(south)}"


def pips(die: ET.Element) -> Iterator[tuple[str, float, float, float]]:
    """Each pip of a die: whose (``die`` or ``home``), centre and radius in
    picture units."""
    dx, dy = translate(die)
    for part, owner in ((die, "die"), *((h, "home") for h in having(die, "home"))):
        for pip in part.findall(f"{NS}circle"):
            cx, cy = dx + float(pip.get("cx", "")), dy + float(pip.get("cy", ""))
            yield owner, cx, cy, float(pip.get("r", ""))


@pytest.mark.parametrize("game", ["Hexalit", "Trigeo"])
@pytest.mark.parametrize("flip", [False, True])
def test_every_pip_is_two_and_a_half_pixels_across(game: str, flip: bool) -> None:
    root = ET.fromstring(board_svg(dice_position(every_face(), game), size=MIN_SIZE, flip=flip))
    k = scale(root)
    dice = having(root, "die")
    assert len(dice) == 32 and len(having(root, "die", "rolled")) == 20
    diameters = [2 * r * k for die in dice for _, _, _, r in pips(die)]
    # per side: 1 to 6 (21 pips); 2 to 6 from a 1 (20 + 5); 1, 3 to 6 from a 2 (19 + 10)
    assert len(diameters) == 2 * (21 + 20 + 5 + 19 + 10)
    assert min(diameters) >= 2.5


@pytest.mark.parametrize("flip", [False, True])
def test_pips_stay_apart_and_on_their_die(flip: bool) -> None:
    """The pips of one face never touch (a 6 is six dots, not two bars; a
    home 2 is two dots), and each lies inside its die's edge line."""
    root = ET.fromstring(board_svg(dice_position(every_face()), size=MIN_SIZE, flip=flip))
    k = scale(root)
    for die in having(root, "die"):
        dx, dy = translate(die)
        bodies = {"die": die.find(f"{NS}rect"), "home": die.find(f"{NS}g/{NS}rect")}
        found = list(pips(die))
        for owner in ("die", "home"):
            mine = [(x, y, r) for who, x, y, r in found if who == owner]
            for (x1, y1, r1), (x2, y2, r2) in itertools.combinations(mine, 2):
                assert (math.dist((x1, y1), (x2, y2)) - r1 - r2) * k >= 0.5
            body = bodies[owner]
            if body is None:
                continue
            left, top = dx + float(body.get("x", "")), dy + float(body.get("y", ""))
            inner = float(body.get("stroke-width", "")) / 2
            right = left + float(body.get("width", ""))
            bottom = top + float(body.get("height", ""))
            for x, y, r in mine:
                assert left + inner <= x - r and x + r <= right - inner
                assert top + inner <= y - r and y + r <= bottom - inner


def test_the_roll_frame_follows_the_die_it_frames() -> None:
    """A rolled die moves towards its cell's base to make room for its home
    face; the frame of the roll that made it moves with it."""
    from hexhop.render import LastAction

    position = dice_position("N: A7=1 B5=6/2 B6=2; S: F7=1")
    for cell, home in (("B5", True), ("B6", False)):
        last = LastAction(origin=cell, rolled=cell, rolled_home=home)
        root = ET.fromstring(board_svg(position, last=last))
        [die] = [d for d in having(root, "die") if d.get("data-cell") == cell]
        [frame] = having(root, "roll-frame", cell)
        body = die.find(f"{NS}rect")
        assert body is not None
        dx, dy = translate(die)
        assert float(frame.get("x", "")) == pytest.approx(dx + float(body.get("x", "")), abs=0.06)
        assert float(frame.get("y", "")) == pytest.approx(dy + float(body.get("y", "")), abs=0.06)


# ---------------------------------------------------------------------------
# Coordinates


def labels(root: ET.Element) -> list[tuple[str, Box]]:
    return [(node.get("class", ""), label_box(node)) for node in having(root, "coord")]


def assert_labels_read(root: ET.Element, count: int) -> float:
    """Every coordinate 10 px high, inside the picture and off every other;
    the smallest gap between two of them in pixels."""
    k = scale(root)
    found = labels(root)
    assert len(found) == count
    fonts = [float(n.get("font-size", "")) * k for n in having(root, "coord")]
    assert min(fonts) >= MIN_TEXT_PX - 0.01
    left, top, right, bottom = view(root)
    for cls, box in found:
        assert left <= box[0] and box[2] <= right and top <= box[1] and box[3] <= bottom, cls
    least = min(gap(a, b) for (_, a), (_, b) in itertools.combinations(found, 2))
    assert least * k >= 1.0, least * k
    return least * k


@pytest.mark.parametrize("game", ["Hexalit", "Trigeo"])
@pytest.mark.parametrize("flip", [False, True])
def test_dice_board_labels_keep_apart_and_off_the_board(game: str, flip: bool) -> None:
    position = dice_position(every_face(), game)
    root = ET.fromstring(board_svg(position, size=MIN_SIZE, flip=flip))
    assert_labels_read(root, 2 * 6 + 2 * 13)
    outline = polygon_points(having(root, "outline")[0])
    edges = list(zip(outline, outline[1:] + outline[:1], strict=True))
    half_line = 2.0  # the outline is 4 units wide
    for cls, (x0, y0, x1, y1) in labels(root):
        grown = (x0 - half_line, y0 - half_line, x1 + half_line, y1 + half_line)
        assert not any(segment_hits_box(p, q, grown) for p, q in edges), cls
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        assert not inside(centre, outline), cls


def inside(point: tuple[float, float], polygon: list[tuple[float, float]]) -> bool:
    x, y = point
    crossings = 0
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            crossings += 1
    return crossings % 2 == 1


@pytest.fixture
def twelve(monkeypatch: pytest.MonkeyPatch) -> None:
    """The 12x12 board of tests/test_board_registry.py, for the biggest labels."""
    monkeypatch.setitem(boards.HUEPFER_BOARDS, 12, boards.HuepferBoard(12, reserve=60))


@pytest.mark.usefixtures("twelve")
@pytest.mark.parametrize("board", [6, 8, 10, 12])
@pytest.mark.parametrize("flip", [False, True])
def test_huepfer_labels_keep_apart_and_off_the_pieces(board: int, flip: bool) -> None:
    points = geo.huepfer_points(board, False)
    full = HopPosition("Hüpfer", board, dict.fromkeys(points, "Red"))
    root = ET.fromstring(board_svg(full, size=MIN_SIZE, flip=flip))
    assert_labels_read(root, 2 * board)
    pieces = having(root, "piece")
    assert len(pieces) == board * board
    for cls, box in labels(root):
        for piece in pieces:
            cx, cy = float(piece.get("cx", "")), float(piece.get("cy", ""))
            r = float(piece.get("r", "")) + float(piece.get("stroke-width", "")) / 2
            assert circle_gap(box, cx, cy, r) > 0, (cls, piece.get("data-point"))


@pytest.mark.parametrize("flip", [False, True])
def test_the_column_numbers_stand_apart_at_the_smallest_width(flip: bool) -> None:
    """At 250 px, 10 11 12 13 must not run together (they were once 2 px
    apart, their own digits 1 px). Drawn narrower, they keep 4 px, centred
    on their columns; at 400 px they are drawn as they are."""
    root = ET.fromstring(board_svg(dice_position(every_face()), size=MIN_SIZE, flip=flip))
    k = scale(root)
    numbers = having(root, "coord", "column")
    boxes = sorted({label_box(n) for n in numbers})
    rows = {box[1] for box in boxes}
    assert len(rows) == 2
    for row in rows:
        line = [box for box in boxes if box[1] == row]
        gaps = [gap(a, b) * k for a, b in itertools.pairwise(line)]
        assert len(gaps) == 12 and min(gaps) >= 4.0, gaps
    for node in numbers:
        left, _, right, _ = label_box(node)
        assert (left + right) / 2 == pytest.approx(float(node.get("x", "")), abs=0.02)
    wide = ET.fromstring(board_svg(dice_position(every_face()), size=400, flip=flip))
    assert not [n for n in having(wide, "coord", "column") if n.get("transform")]


# ---------------------------------------------------------------------------
# One height, one caption style


def frames(path: Path, **options: object) -> Frames:
    parsed = next(iter(read_archive(path.read_bytes(), path=str(path))))
    return Frames(replay_game(parsed), size=MIN_SIZE, **options)  # type: ignore[arg-type]


def heights(svgs: list[str]) -> set[str]:
    return {re.search(r'<svg [^>]*height="(\d+)"', svg).group(1) for svg in svgs}  # type: ignore[union-attr]


def title_lines(svg: str) -> int:
    return len(re.findall(r'<text class="title"', svg))


@pytest.mark.parametrize(
    ("path", "title"),
    [(KASSEL, "Bezirksliga Nord, 3. Runde"), (HOP6, "Bremer Stadtmeisterschaft 2003")],
)
def test_every_diagram_of_a_game_has_one_height(path: Path, title: str) -> None:
    """A title that wraps at some plies (the action is longer, or the names
    are) makes every diagram of the game as tall, not only its own."""
    drawn = frames(path, title=title)
    svgs = [drawn.svg(ply) for ply in range(len(drawn.report.positions))]
    assert {title_lines(svg) for svg in svgs} == {1, 2}
    assert len(heights(svgs)) == 1


def test_a_game_whose_titles_fit_keeps_the_short_band() -> None:
    drawn = frames(KASSEL, title="Kassel")
    svgs = [drawn.svg(ply) for ply in (0, 13, 42)]
    assert {title_lines(svg) for svg in svgs} == {1} and drawn.title_lines() == 1
    alone = board_svg(drawn.report.positions[13], size=MIN_SIZE, title=drawn.title(13))
    assert heights(svgs) == heights([alone])


def test_single_diagrams_are_captioned_as_sheets_are() -> None:
    """``North – South: after 7. A5XB2^``, the words of a sheet's labels."""
    drawn = frames(KASSEL)
    action = str(drawn.report.nodes[12].text)
    assert drawn.title(0) == "Anna Berger – Jonas Keller: start"
    assert drawn.title(13) == f"Anna Berger – Jonas Keller: after 7. {action}"
    assert re.fullmatch(r"Anna Berger – Jonas Keller: after 7\.\.\. \S+", drawn.title(14))
    assert f"<title>{drawn.title(13)}</title>" in drawn.svg(13)
    assert f"after 7. {action}<" in drawn.sheet_svg([13])


def test_captions_in_german() -> None:
    set_language("de")
    try:
        drawn = frames(KASSEL)
        assert drawn.title(0).endswith(": Anfang")
        assert re.search(r": nach 7\. \S+$", drawn.title(13))
        assert re.search(r": nach 7\.\.\. \S+$", drawn.title(14))
    finally:
        set_language("en")


# ---------------------------------------------------------------------------
# The command line draws nothing narrower


@pytest.mark.parametrize("command", ["render", "puzzles"])
@pytest.mark.parametrize(("lang", "words"), [("en", "is too narrow"), ("de", "zu schmal")])
def test_a_narrower_size_is_refused_with_a_message(
    command: str, lang: str, words: str, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    args = ["--lang", lang, command, str(KASSEL), "--size", str(MIN_SIZE - 1), "--out-dir", out]
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 2
    assert f"{MIN_SIZE - 1} " in result.output and words in result.output
    assert f" {MIN_SIZE} " in result.output
    assert "Traceback" not in result.output and not out.exists()


def test_the_smallest_size_is_drawn(tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ["render", str(KASSEL), "--plies", "13", "--size", str(MIN_SIZE), "--out-dir", out]
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    svg = (out / "game001-ply013.svg").read_text("utf-8")
    assert f'width="{MIN_SIZE}"' in svg


def test_the_options_table_names_the_smallest_size() -> None:
    from hexhop.cli.options import VOCABULARY

    assert f"{MIN_SIZE} at the least" in VOCABULARY["--size"].meaning
