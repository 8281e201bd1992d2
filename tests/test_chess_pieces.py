"""Trigeo with chess pieces: ``--pieces chess`` and the colours
file's ``pieces = chess`` draw Trigeo's dice as King 1, Pawn 2, Knight 3,
Bishop 4, Rook 5, Queen 6 in every format, inside their triangles; ``show``
writes the pieces' letters (German K B S L T D); other games stay as they
are, with a warning when the option was asked for."""

from __future__ import annotations

import io
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from PIL import Image, ImageChops
from test_render_svg import NS, dice_position, having, parse, polygon_points, translate

from hexhop.cli.main import cli
from hexhop.notation.errors import ArgumentError
from hexhop.records.colors import ColorsError, read_colors, split_pieces
from hexhop.render import board_svg
from hexhop.render import chess_pieces as chess
from hexhop.render import geometry as geo

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "good"
TRIGEO = SAMPLES / "trigeo-goettingen-1999.trg"
KASSEL = SAMPLES / "hexalit-kassel-1998.hxl"
BREMEN = SAMPLES / "huepfer-6x6-bremen-2003.hpf"
START = (
    "N: A4=5 A5=4 A6=3 A7=1 A8=4 A9=3 A10=5 B4=2 B5=2 B6=2 B7=6 B8=2 B9=2 B10=2 C7=2; "
    "S: D7=2 E4=2 E5=2 E6=2 E7=6 E8=2 E9=2 E10=2 F4=5 F5=4 F6=3 F7=1 F8=4 F9=3 F10=5"
)
NAMES = {1: "king", 2: "pawn", 3: "knight", 4: "bishop", 5: "rook", 6: "queen"}

Point = tuple[float, float]


def run(*args: object) -> Result:
    return CliRunner().invoke(cli, [*map(str, args)])


def chess_dice(root: ET.Element) -> list[ET.Element]:
    return having(root, "die", "chess")


# ---------------------------------------------------------------------------
# SVG: a figure per die, named by its face


def test_every_die_of_a_trigeo_position_is_its_chess_figure() -> None:
    root = parse(board_svg(dice_position(START, "Trigeo"), pieces="chess"))
    figures = chess_dice(root)
    assert len(figures) == 30 and len(having(root, "die")) == 30
    for die in figures:
        face = int(die.get("data-face", ""))
        classes = die.get("class", "").split()
        assert NAMES[face] in classes and f"face-{face}" in classes
        assert set(classes) & {"north", "south"}
        # a figure, not a die: no square, no pips
        assert not list(die.iter(f"{NS}rect")) and not list(die.iter(f"{NS}circle"))
        assert len(having(die, "figure")) == 1
    kinds = {
        (d.get("data-cell"), next(n for n in NAMES.values() if n in d.get("class", "")))
        for d in figures
    }
    assert {
        ("A7", "king"),
        ("B7", "queen"),
        ("A4", "rook"),
        ("A5", "bishop"),
        ("A6", "knight"),
        ("B4", "pawn"),
        ("F7", "king"),
        ("E7", "queen"),
    } <= kinds


def test_a_figure_has_its_side_colours_and_an_outline() -> None:
    root = parse(board_svg(dice_position("N: A7=1; S: F7=1", "Trigeo"), pieces="chess"))
    north, south = chess_dice(root)
    for die, fill, edge in ((north, "#fdfcf7", "#1b1b1b"), (south, "#262626", "#000000")):
        body = having(die, "body")[0]
        assert (body.get("fill"), body.get("stroke")) == (fill, edge)
        assert float(body.get("stroke-width", "")) > 0


def test_dice_stay_dice_without_the_option_and_the_value_is_checked() -> None:
    position = dice_position(START, "Trigeo")
    assert board_svg(position) == board_svg(position, pieces="dice")
    assert not chess_dice(parse(board_svg(position)))
    with pytest.raises(ArgumentError, match="pieces must be one of dice, chess, not 'marble'"):
        board_svg(position, pieces="marble")


def test_other_games_keep_their_dice_and_pieces() -> None:
    """The rules allow chess pieces for Trigeo only: a Hexalit position
    asked for in chess pieces is drawn as always."""
    hexalit = dice_position(START, "Hexalit")
    assert board_svg(hexalit, pieces="chess") == board_svg(hexalit)
    assert chess.draws_chess("Trigeo", "chess")
    assert not chess.draws_chess("Hexalit", "chess") and not chess.draws_chess("Hüpfer", "chess")


# ---------------------------------------------------------------------------
# Geometry: every figure inside its triangle


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def path_points(d: str) -> list[Point]:
    """Every point of a path of absolute M, L, C and Z: its ends and the
    curves' control points, which enclose everything it paints."""
    assert set(re.sub(r"[-\d.,\s]", "", d)) <= set("MLCZ"), d
    numbers = [float(n) for n in _NUMBER.findall(d)]
    return list(zip(numbers[::2], numbers[1::2], strict=True))


def scaled(node: ET.Element) -> tuple[float, float, float]:
    transform = node.get("transform", "")
    match = re.fullmatch(r"translate\(([-\d.]+),([-\d.]+)\) scale\(([\d.]+)\)", transform)
    assert match, transform
    return float(match[1]), float(match[2]), float(match[3])


def painted(die: ET.Element) -> list[tuple[list[Point], float]]:
    """Each path of a drawn die in picture coordinates, with half its
    outline's width."""
    dx, dy = translate(die)
    out = []
    for group in [die, *die.iter(f"{NS}g")]:
        if group is not die and "figure" not in group.get("class", ""):
            continue
        x, y, k = scaled(group) if group is not die else (0.0, 0.0, 1.0)
        for path in group.findall(f"{NS}path"):
            points = [
                (dx + x + k * px, dy + y + k * py) for px, py in path_points(path.get("d", ""))
            ]
            out.append((points, float(path.get("stroke-width", "0")) * k / 2))
    return out


def clearance(point: Point, triangle: list[Point]) -> float:
    """Distance from ``point`` to the nearest side of ``triangle``, negative outside."""
    cx = sum(p[0] for p in triangle) / 3
    cy = sum(p[1] for p in triangle) / 3
    least = math.inf
    for (x1, y1), (x2, y2) in zip(triangle, triangle[1:] + triangle[:1], strict=True):
        nx, ny = y2 - y1, x1 - x2
        length = math.hypot(nx, ny)
        inward = 1 if (cx - x1) * nx + (cy - y1) * ny > 0 else -1
        least = min(least, inward * ((point[0] - x1) * nx + (point[1] - y1) * ny) / length)
    return least


def every_cell(face_of: int) -> str:
    """A die on each of the 66 cells, faces in turn from ``face_of``; every
    third one rolled (its home face on a disc), as a stand-in position may
    have it."""
    tokens = []
    for number, cell in enumerate(geo.cells(False)):
        face = 1 + (number + face_of) % 6
        home = f"/{1 + number % 2}" if number % 3 == 0 and face > 2 else ""
        tokens.append(f"{cell}={face}{home}")
    return f"N: {' '.join(tokens[::2])}; S: {' '.join(tokens[1::2])}"


@pytest.mark.parametrize("size", [100, 1600])
@pytest.mark.parametrize("flip", [False, True])
def test_every_figure_lies_inside_its_triangle(flip: bool, size: int) -> None:
    """Every point of every figure (curves' control points and the outline
    included) keeps 2 units off the sides of its own triangle, on each of
    the 66 cells, for each face, upright and flipped, in the smallest and
    a large picture."""
    seen: set[tuple[int, bool]] = set()
    for face_of in range(6):
        position = dice_position(every_cell(face_of), "Trigeo")
        root = parse(board_svg(position, flip=flip, size=size, pieces="chess"))
        cells = {c.get("data-cell", ""): polygon_points(c) for c in having(root, "cell")}
        dice = chess_dice(root)
        assert len(dice) == 66
        for die in dice:
            triangle = cells[die.get("data-cell", "")]
            parts = painted(die)
            assert parts
            for points, edge in parts:
                worst = min(clearance(p, triangle) for p in points) - edge
                assert worst >= 2.0, (die.get("data-cell"), die.get("class"), worst)
            seen.add((int(die.get("data-face", "")), die.get("data-home") is not None))
    assert {face for face, _ in seen} == set(range(1, 7))
    assert any(home for _, home in seen)


def test_figures_are_as_tall_as_a_die_and_stand_on_the_wide_side() -> None:
    """A King is 47 units high (a die is 36 across and 36 high): low in a
    triangle whose apex points up, high in one whose apex points down."""
    root = parse(board_svg(dice_position("N: A4=1 A5=1; S: F7=1", "Trigeo"), pieces="chess"))
    tops = {}
    for die in chess_dice(root):
        ys = [p[1] for points, _ in painted(die) for p in points]
        assert max(ys) - min(ys) == pytest.approx(47.0, abs=0.6)
        tops[die.get("data-cell")] = (min(ys) - translate(die)[1], max(ys) - translate(die)[1])
    cells = geo.cells(False)
    assert cells["A4"].apex_down and not cells["A5"].apex_down
    assert tops["A4"][1] < tops["A5"][1]  # apex down: the figure stands higher


# ---------------------------------------------------------------------------
# Every format


def render(tmp_path: Path, name: str, *args: object) -> Result:
    return run("render", TRIGEO, "--out-dir", tmp_path / name, "-q", *args)


def test_svg_from_the_command_line_carries_the_figures(tmp_path: Path) -> None:
    result = render(tmp_path, "svg", "--pieces", "chess", "--plies", "0", "--format", "svg")
    assert result.exit_code == 0, result.output
    root = ET.parse(tmp_path / "svg" / "game001-ply000.svg").getroot()
    figures = chess_dice(root)
    assert len(figures) == 30
    assert {n for d in figures for n in NAMES.values() if n in d.get("class", "")} == set(
        NAMES.values()
    )


def pixels(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


@pytest.mark.parametrize(
    "fmt,name", [("png", "game001-ply000.png"), ("sheet", "game001-sheet.png")]
)
def test_png_pictures_differ_from_dice_where_the_dice_stand(
    tmp_path: Path, fmt: str, name: str
) -> None:
    plies = "0" if fmt == "png" else "0,1"
    made = {}
    for pieces in ("dice", "chess"):
        result = render(
            tmp_path, pieces, "--pieces", pieces, "--format", fmt, "--plies", plies, "--size", 250
        )
        assert result.exit_code == 0, result.output
        made[pieces] = pixels((tmp_path / pieces / name).read_bytes())
    assert made["dice"].size == made["chess"].size
    assert made["chess"].size[0] == (250 if fmt == "png" else made["dice"].size[0])
    changed = sum(
        1 for value in ImageChops.difference(*made.values()).convert("L").tobytes() if value
    )
    assert changed > 1000


@pytest.mark.parametrize(
    "fmt,name,magic",
    [
        ("gif", "game001.gif", b"GIF89a"),
        ("pdf", "game001.pdf", b"%PDF"),
        ("sheet-pdf", "game001-sheet.pdf", b"%PDF"),
    ],
)
def test_gif_and_pdf_are_made_with_the_figures(
    tmp_path: Path, fmt: str, name: str, magic: bytes
) -> None:
    made = {}
    for pieces in ("dice", "chess"):
        result = render(
            tmp_path, pieces, "--pieces", pieces, "--format", fmt, "--plies", "0,1", "--size", 250
        )
        assert result.exit_code == 0, result.output
        made[pieces] = (tmp_path / pieces / name).read_bytes()
        assert made[pieces].startswith(magic)
    assert made["dice"] != made["chess"]
    if fmt == "gif":
        dice, figures = (Image.open(io.BytesIO(made[p])) for p in ("dice", "chess"))
        assert dice.n_frames == figures.n_frames == 2
        assert dice.convert("RGB").tobytes() != figures.convert("RGB").tobytes()


def test_the_viewer_page_draws_figures(tmp_path: Path) -> None:
    """The viewer draws each position from the parts in its data: with
    --pieces chess those parts are the figures."""
    for pieces in ("dice", "chess"):
        result = render(tmp_path, pieces, "--pieces", pieces, "--format", "html")
        assert result.exit_code == 0, result.output
    from test_html import draw, embedded

    for pieces in ("dice", "chess"):
        data = embedded((tmp_path / pieces / "game001.html").read_text("utf-8"))
        for frame in (data["frames"][0], data["frames"][-1]):
            for key in ("s", "v"):  # upright and flipped
                drawing = draw(data, frame, key)
                root = ET.fromstring(drawing.replace("<svg ", f'<svg xmlns="{NS[1:-1]}" ', 1))
                drawn = {d.get("data-cell"): d.get("class", "") for d in having(root, "die")}
                assert len(drawn) == len(frame["x"].split("=")) - 1
                assert all(("chess" in c) == (pieces == "chess") for c in drawn.values())
        if pieces == "chess":
            start = draw(data, data["frames"][0], "s")
            assert all(f" {name}" in start for name in NAMES.values())


def test_the_viewer_data_of_page_data_has_figures() -> None:
    from test_html import report_of

    from hexhop.records.viewer import page_data

    page = page_data(report_of(TRIGEO), pieces="chess")
    figures = [part for part in page.drawings.pieces if 'class="die chess' in part]
    assert len(figures) >= 28
    assert not [part for part in page.drawings.pieces if 'class="die north' in part]


# ---------------------------------------------------------------------------
# The colours file


def test_a_colours_file_can_ask_for_chess_pieces(tmp_path: Path) -> None:
    colours = tmp_path / "club.colors"
    colours.write_text("dark = saddlebrown\npieces = chess  # Trigeo as chess\n", "utf-8")
    assert split_pieces(read_colors(str(colours))) == ({"dark": "saddlebrown"}, "chess")
    assert split_pieces(read_colors('{"pieces": "dice"}')) == ({}, "dice")
    result = render(tmp_path, "file", "--colors", colours, "--plies", "0")
    assert result.exit_code == 0, result.output
    root = ET.parse(tmp_path / "file" / "game001-ply000.svg").getroot()
    assert len(chess_dice(root)) == 30
    # the command line wins over the file
    result = render(tmp_path, "dice", "--colors", colours, "--plies", "0", "--pieces", "dice")
    root = ET.parse(tmp_path / "dice" / "game001-ply000.svg").getroot()
    assert not chess_dice(root) and len(having(root, "die")) == 30


def test_a_colours_file_with_other_pieces_is_refused_where_it_says_so(tmp_path: Path) -> None:
    colours = tmp_path / "bad.colors"
    colours.write_text("dark = tan\n\npieces = marble\n", "utf-8")
    with pytest.raises(ColorsError) as caught:
        read_colors(str(colours))
    assert str(caught.value) == f"{colours}:3: pieces: 'marble' is neither dice nor chess"
    result = render(tmp_path, "out", "--colors", colours)
    assert result.exit_code == 2
    assert f"{colours}:3: pieces: 'marble' is neither dice nor chess" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "out").exists()


# ---------------------------------------------------------------------------
# Other games


@pytest.mark.parametrize("record,game", [(KASSEL, "Hexalit"), (BREMEN, "Hüpfer")])
def test_other_games_are_drawn_as_always_with_a_warning(
    tmp_path: Path, record: Path, game: str
) -> None:
    files = {}
    for pieces in ("dice", "chess"):
        result = run(
            "render",
            record,
            "--out-dir",
            tmp_path / pieces,
            "--plies",
            "0",
            "--pieces",
            pieces,
            "-q",
        )
        assert result.exit_code == 0, result.output
        files[pieces] = (tmp_path / pieces / "game001-ply000.svg").read_bytes()
        warned = (
            "warning: --pieces chess applies to Trigeo only, whose rules allow a set of chess "
            f"pieces: the {game} games are drawn as always"
        )
        assert (warned in result.stderr) == (pieces == "chess")
    assert files["dice"] == files["chess"]


def test_a_colours_file_asks_quietly(tmp_path: Path) -> None:
    """A club's colours file serves all three games: no warning for it."""
    colours = tmp_path / "club.colors"
    colours.write_text("pieces = chess\n", "utf-8")
    result = run(
        "render", KASSEL, "--out-dir", tmp_path / "o", "--plies", "0", "--colors", colours, "-q"
    )
    assert result.exit_code == 0 and "warning" not in result.stderr


# ---------------------------------------------------------------------------
# show: the pieces' letters

POSITION = "N: A6=3 A7=1 A8=4 B6=2 B7=6 B8=5; S: F7=1 E7=2 E6=3; turn: S"
HEADER = "    1   2   3   4   5   6   7   8   9   10  11  12  13 "  # as show pads it
ENGLISH = f"""\
{HEADER}
 A          ▲   ▽   ▲   NN  NK  NB  ▲   ▽   ▲           A
 B      ▲   ▽   ▲   ▽   NP  NQ  NR  ▽   ▲   ▽   ▲       B
 C  ▲   ▽   ▲   ▽   ▲   ◆   ◆   ◆   ▲   ▽   ▲   ▽   ▲   C
 D  ▽   ▲   ▽   ▲   ▽   ◆   ◆   ◆   ▽   ▲   ▽   ▲   ▽   D
 E      ▽   ▲   ▽   ▲   sN  sP  ▽   ▲   ▽   ▲   ▽       E
 F          ▽   ▲   ▽   ▲   sK  ▲   ▽   ▲   ▽           F
{HEADER}

Pieces: K=1 P=2 N=3 B=4 R=5 Q=6
To move: South
Position: N: A6=3 A7=1 A8=4 B6=2 B7=6 B8=5; S: E6=3 E7=2 F7=1; turn: S
"""
GERMAN = f"""\
{HEADER}
 A          ▲   ▽   ▲   NS  NK  NL  ▲   ▽   ▲           A
 B      ▲   ▽   ▲   ▽   NB  ND  NT  ▽   ▲   ▽   ▲       B
 C  ▲   ▽   ▲   ▽   ▲   ◆   ◆   ◆   ▲   ▽   ▲   ▽   ▲   C
 D  ▽   ▲   ▽   ▲   ▽   ◆   ◆   ◆   ▽   ▲   ▽   ▲   ▽   D
 E      ▽   ▲   ▽   ▲   sS  sB  ▽   ▲   ▽   ▲   ▽       E
 F          ▽   ▲   ▽   ▲   sK  ▲   ▽   ▲   ▽           F
{HEADER}

Figuren: K=1 B=2 S=3 L=4 T=5 D=6
Am Zug: Süd
Stellung: N: A6=3 A7=1 A8=4 B6=2 B7=6 B8=5; S: E6=3 E7=2 F7=1; turn: S
"""


@pytest.mark.parametrize("lang,expected", [("en", ENGLISH), ("de", GERMAN)])
def test_show_writes_the_letters_of_the_pieces(lang: str, expected: str) -> None:
    result = run(
        "--lang",
        lang,
        "show",
        "--game",
        "Trigeo",
        "--position",
        POSITION,
        "--pieces",
        "chess",
        "--color",
        "never",
    )
    assert result.exit_code == 0, result.output
    assert result.stdout == expected


def test_show_keeps_digits_for_other_games_and_says_why() -> None:
    plain = run("show", KASSEL, "--ply", "3", "--color", "never")
    asked = run("show", KASSEL, "--ply", "3", "--color", "never", "--pieces", "chess")
    assert asked.exit_code == 0 and asked.stdout == plain.stdout
    assert asked.stderr == (
        "warning: --pieces chess applies to Trigeo only, whose rules allow a set of chess "
        "pieces: this Hexalit position is shown as always\n"
    )
    german = run("--lang", "de", "show", KASSEL, "--pieces", "chess")
    assert "Warnung: --pieces chess gilt nur für Trigeo" in german.stderr


def test_show_without_a_diagram_says_the_option_does_nothing() -> None:
    result = run("show", TRIGEO, "--format", "position", "--pieces", "chess")
    assert result.exit_code == 0
    assert result.stderr == "warning: --pieces has no effect with --format position\n"
    assert result.stdout.startswith("N: ")


def test_pieces_is_one_option_of_the_vocabulary() -> None:
    from hexhop.cli.options import VOCABULARY

    term = VOCABULARY["--pieces"]
    assert term.commands == ("puzzles", "render", "show") and term.kind == "value"
    result = run("render", TRIGEO, "--pieces", "marble")
    assert result.exit_code == 2 and "'marble' is not one of 'dice', 'chess'" in result.output


# ---------------------------------------------------------------------------
# The viewer in a real browser


@pytest.mark.slow
def test_the_viewer_shows_figures_in_a_browser(tmp_path: Path) -> None:
    """Stepping through the Trigeo sample in Chromium, every position shows
    one figure per die of its Position text, and no square die."""
    from test_html import report_of
    from test_html_browser import ARGS, CHROMIUM, HOW, Viewer

    from hexhop.records.viewer import page_data
    from hexhop.render.html import game_page

    sync_api = pytest.importorskip("playwright.sync_api", reason=f"no playwright: {HOW}")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no browser at {CHROMIUM}: {HOW}")
    report = report_of(TRIGEO)
    path = tmp_path / "trigeo.html"
    path.write_text(game_page(page_data(report, pieces="chess")), encoding="utf-8")
    with sync_api.sync_playwright() as playwright:
        try:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        except Exception as error:  # a broken browser install: say so, do not fail
            pytest.skip(f"cannot start {CHROMIUM} ({error}): {HOW}")
        viewer = Viewer(chromium, path)
        try:
            for ply in range(len(report.positions)):
                text = report.positions[ply].text()
                assert viewer.shown() == (ply, text)
                figures = viewer.page.locator("#board svg g.die.chess")
                assert figures.count() == text.count("=")
                assert viewer.page.locator("#board svg rect.body").count() == 0
                names = set(figures.evaluate_all("nodes => nodes.map(n => n.classList[4])"))
                assert names <= set(NAMES.values())
                viewer.press("ArrowRight")
            assert viewer.problems == []
        finally:
            viewer.close()
            chromium.close()


# ---------------------------------------------------------------------------
# Puzzles


def test_puzzles_of_a_trigeo_game_are_drawn_in_chess_pieces(tmp_path: Path) -> None:
    result = run(
        *("puzzles", TRIGEO, "--pieces", "chess", "--depth", "1", "--max-seconds", "0.5"),
        *("--out-dir", tmp_path, "-q"),
    )
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    pictures = sorted(tmp_path.glob("puzzle*.svg"))
    assert pictures
    for picture in pictures:
        root = ET.parse(picture).getroot()
        assert chess_dice(root) and len(chess_dice(root)) == len(having(root, "die"))


def test_the_viewer_takes_pieces_from_the_option_not_the_colours_file(tmp_path: Path) -> None:
    """--colors does nothing for the viewer page, and says so: its pieces
    entry neither; --pieces does."""
    from test_html import embedded

    result = render(tmp_path, "file", "--format", "html", "--colors", '{"pieces": "chess"}')
    assert "warning: --colors has no effect with --format html" in result.stderr
    result = render(tmp_path, "option", "--format", "html", "--pieces", "chess")
    assert result.exit_code == 0 and result.stderr == ""
    for name, figures in (("file", 0), ("option", 30)):
        page = embedded((tmp_path / name / "game001.html").read_text("utf-8"))
        drawn = [part for part in page["pieces"] if part.startswith('<g class="die ')]
        assert len([part for part in drawn if "die chess" in part]) >= figures
        assert bool(figures) == all("die chess" in part for part in drawn)


def test_the_library_draws_chess_pieces_too() -> None:
    import hexhop

    position = hexhop.position("Trigeo", "N: A7=1 B7=6; S: F7=1 E7=6; turn: N")
    root = parse(str(hexhop.svg(position, pieces="chess")))
    drawn = {die.get("data-cell"): die.get("class") for die in chess_dice(root)}
    assert drawn == {
        "A7": "die chess north face-1 king",
        "B7": "die chess north face-6 queen",
        "F7": "die chess south face-1 king",
        "E7": "die chess south face-6 queen",
    }


def test_the_article_draws_its_diagrams_in_chess_pieces(tmp_path: Path) -> None:
    result = run(
        *("render", TRIGEO, "--format", "article-html", "--pieces", "chess", "--plies", "0,9"),
        *("--out-dir", tmp_path, "-q"),
    )
    assert result.exit_code == 0, result.output
    page = (tmp_path / "game001-article.html").read_text(encoding="utf-8")
    boards = re.findall(r"<svg\b.*?</svg>", page, flags=re.S)
    assert len(boards) == 2
    for board in boards:
        dice = re.findall(r'<g class="die ([^"]*)"', board)
        assert dice and all(classes.startswith("chess") for classes in dice), dice[:3]


def test_the_puzzle_sheet_draws_in_chess_pieces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hexhop.render import svg

    asked: list[str] = []
    drawn = svg.board_svg

    def board(*args: object, **kwargs: object) -> str:
        asked.append(str(kwargs.get("pieces")))
        return drawn(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(svg, "board_svg", board)
    result = run(
        *(
            "puzzles",
            TRIGEO,
            "--pieces",
            "chess",
            "--format",
            "pdf",
            "--depth",
            "1",
            "--min-depth",
            "1",
        ),
        *("--max-seconds", "0.5", "--out-dir", tmp_path, "-q"),
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "puzzles.pdf").read_bytes().startswith(b"%PDF-")
    assert asked and set(asked) == {"chess"}
