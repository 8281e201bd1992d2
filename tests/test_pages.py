"""Pages a printer accepts: paper sizes, the locale's paper,
PDF pages of one size, sheets on a fixed grid, PNG sheets a file per page,
and the puzzle sheet with its solutions at the end."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from PIL import Image
from pypdf import PdfReader

from hexhop.cli.main import cli
from hexhop.engine.replay import replay_game
from hexhop.notation import read_archive
from hexhop.records.frames import Frames
from hexhop.render.pages import MM, Page, locale_page_name, page_for
from hexhop.render.sequence import diagram_page_svg

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "good"
KASSEL = SAMPLES / "hexalit-kassel-1998.hxl"  # 42 plies
HUEPFER = SAMPLES / "huepfer-6x6-bremen-2003.hpf"  # three puzzles at depth 2
A4, A5, LETTER = (595.28, 841.89), (419.53, 595.28), (612.0, 792.0)


def run(*args: object) -> Result:
    return CliRunner().invoke(cli, [*map(str, args)])


def frames(path: Path = KASSEL, size: int = 400) -> Frames:
    parsed = next(iter(read_archive(path.read_bytes(), path=str(path))))
    return Frames(replay_game(parsed), size=size)


def page_sizes(path: Path) -> list[tuple[float, float]]:
    return [(float(p.mediabox.width), float(p.mediabox.height)) for p in PdfReader(path).pages]


def assert_sizes(sizes: list[tuple[float, float]], expected: tuple[float, float]) -> None:
    assert sizes, "no page"
    for width, height in sizes:
        assert abs(width - expected[0]) <= 0.5 and abs(height - expected[1]) <= 0.5, sizes


# the page model


@pytest.mark.parametrize(
    "name, landscape, size, css",
    [
        ("a4", False, A4, "210mm 297mm"),
        ("a4", True, A4[::-1], "297mm 210mm"),
        ("a5", False, A5, "148mm 210mm"),
        ("a5", True, A5[::-1], "210mm 148mm"),
        ("letter", False, LETTER, "8.5in 11in"),
        ("letter", True, LETTER[::-1], "11in 8.5in"),
    ],
)
def test_named_pages(name: str, landscape: bool, size: tuple[float, float], css: str) -> None:
    page = page_for(name, landscape)
    assert (round(page.width_pt, 2), round(page.height_pt, 2)) == size
    assert page.css_size == css and page.css_margin == "15mm"
    assert page.margin_pt == pytest.approx(15 * MM)
    assert page.inner_width_pt == pytest.approx(page.width_pt - 30 * MM)
    assert page.width_px == pytest.approx(page.width_pt * 4 / 3)


@pytest.mark.parametrize(
    "name, landscape, grid",
    [("a4", False, (3, 4)), ("a4", True, (4, 3)), ("letter", False, (3, 4)), ("a5", False, (2, 3))]
    + [("a5", True, (3, 2))],
)
def test_the_grid_of_a_sheet_comes_from_the_page(name, landscape, grid) -> None:
    assert page_for(name, landscape).grid() == grid


@pytest.mark.parametrize(
    "environ, paper",
    [
        ({"LANG": "de_DE.UTF-8"}, "a4"),
        ({"LANG": "en_US.UTF-8"}, "letter"),
        ({"LANG": "en_CA.UTF-8"}, "letter"),
        ({"LANG": "fr_CA.UTF-8"}, "letter"),
        ({"LANG": "es_MX"}, "letter"),
        ({"LANG": "en_GB.UTF-8"}, "a4"),
        ({"LANG": "de_DE.UTF-8", "LC_PAPER": "en_US.UTF-8"}, "letter"),
        ({"LC_ALL": "de_AT.UTF-8", "LC_PAPER": "en_US.UTF-8", "LANG": "en_US"}, "a4"),
        ({"LANG": "C.UTF-8"}, "a4"),
        ({"LANG": "en_US.ISO-8859-1@euro"}, "letter"),
        ({}, "a4"),
    ],
)
def test_the_default_page_is_the_paper_of_the_locale(environ: dict, paper: str) -> None:
    assert locale_page_name(environ) == paper
    assert page_for(None, environ=environ).name == paper


# render --format pdf: a diagram on each page of the paper


def test_pdf_pages_are_a5_in_landscape(tmp_path: Path) -> None:
    args = ["--format", "pdf", "--plies", "0-2", "--page", "a5", "--landscape"]
    assert run("render", KASSEL, *args, "--out-dir", tmp_path).exit_code == 0
    sizes = page_sizes(tmp_path / "game001.pdf")
    assert len(sizes) == 3
    assert_sizes(sizes, A5[::-1])


def test_the_default_page_follows_the_locale(tmp_path: Path, monkeypatch) -> None:
    for variable in ("LC_ALL", "LC_PAPER"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    assert (
        run("render", KASSEL, "--format", "pdf", "--plies", "1", "--out-dir", tmp_path).exit_code
        == 0
    )
    assert_sizes(page_sizes(tmp_path / "game001.pdf"), LETTER)


def _boxes(svg: str) -> list[tuple[float, float, float, float]]:
    """(x, y, width, height) of every diagram placed on a page."""
    found = re.findall(
        r'<svg x="([0-9.]+)" y="([0-9.]+)" width="([0-9.]+)" height="([0-9.]+)"', svg
    )
    return [tuple(map(float, box)) for box in found]  # type: ignore[misc]


def _inside(box: tuple[float, float, float, float], page: Page) -> bool:
    x, y, width, height = box
    low, right, bottom = (
        page.margin_px,
        page.width_px - page.margin_px,
        page.height_px - page.margin_px,
    )
    return (
        x >= low - 0.1
        and y >= low - 0.1
        and x + width <= right + 0.1
        and y + height <= bottom + 0.1
    )


def test_a_diagram_page_keeps_the_size_asked_for_and_is_centred() -> None:
    page = page_for("a4")
    game = frames(size=400)
    svg = diagram_page_svg(game.svg(3, titled=False), [game.title(3)], page)
    [box] = _boxes(svg)
    assert box[2] == pytest.approx(400, abs=0.1)  # 400 px = 300 pt, as --size asks
    assert box[0] + box[2] / 2 == pytest.approx(page.width_px / 2, abs=0.1)
    assert _inside(box, page)
    caption = re.search(r'<text x="[0-9.]+" y="([0-9.]+)"[^>]*>([^<]*)</text></svg>$', svg)
    assert caption is not None and caption.group(2) == "Anna Berger – Jonas Keller: after 2. A5XB2^"
    assert box[1] + box[3] < float(caption.group(1)) < page.height_px - page.margin_px


@pytest.mark.parametrize("name, landscape", [("a4", False), ("a5", True), ("letter", True)])
def test_a_diagram_larger_than_the_page_is_made_to_fit_the_margins(name, landscape) -> None:
    page = page_for(name, landscape)
    svg = diagram_page_svg(frames(size=2000).svg(0, titled=False), ["caption"], page)
    [box] = _boxes(svg)
    assert _inside(box, page)
    assert box[2] < 2000


# sheets: a fixed grid, every page the same size


@pytest.mark.parametrize(
    "name, landscape", [("a4", False), ("a4", True), ("a5", False), ("letter", False)]
)
def test_sheet_diagrams_stay_inside_the_margins_on_the_grid(name: str, landscape: bool) -> None:
    page = page_for(name, landscape)
    columns, rows = page.grid()
    pages = frames().sheet_pages(list(range(columns * rows + 1)), page)
    assert len(pages) == 2
    first = _boxes(pages[0])
    assert len(first) == columns * rows and len(_boxes(pages[1])) == 1
    assert all(_inside(box, page) for box in first)
    assert len({round(box[2], 1) for box in first}) == 1  # one size
    assert len({round(box[0], 1) for box in first}) == columns  # a fixed grid
    assert len({round(box[1], 1) for box in first}) == rows
    for a in first:  # no two diagrams overlap, nor their captions (1.5 lines under each)
        for b in first:
            if a != b:
                apart_x = a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0]
                apart_y = a[1] + a[3] + 24 <= b[1] or b[1] + b[3] + 24 <= a[1]
                assert apart_x or apart_y
    captions = [
        float(y) for y in re.findall(r'<text x="[0-9.]+" y="([0-9.]+)"[^>]*>Diagram ', pages[0])
    ]
    assert len(captions) == columns * rows
    assert max(captions) < page.height_px - page.margin_px


def test_sheet_pdf_pages_are_one_size_and_go_on_numbering(tmp_path: Path) -> None:
    args = ["--format", "sheet-pdf", "--plies", "0-6", "--page", "a5", "--out-dir", tmp_path]
    assert run("render", KASSEL, *args).exit_code == 0
    path = tmp_path / "game001-sheet.pdf"
    assert_sizes(page_sizes(path), A5)
    texts = [page.extract_text() for page in PdfReader(path).pages]
    assert len(texts) == 2  # 7 diagrams, 6 to an A5 page
    assert "Diagram 6: after 3. B2°E10" in texts[0] and "Diagram 7: after 3... E7°C7" in texts[1]
    for text in texts:  # the heading on every page, in full
        assert "Anna Berger – Jonas Keller\nSpielkreis Kassel club championship, Kassel," in text
        assert "1998.03.14 · 0-1" in text


@pytest.mark.slow  # 2.5 s: the sheet above has the same pages
def test_a_long_letter_sheet_pdf_has_pages_of_one_size(tmp_path: Path) -> None:
    """31 diagrams on Letter: three Letter pages, never pages of 1260 × 893,
    1127 or 775 pt as a sheet once had."""
    args = ["--format", "sheet-pdf", "--plies", "0-30", "--out-dir", tmp_path]
    assert run("render", KASSEL, *args, "--page", "letter").exit_code == 0
    path = tmp_path / "game001-sheet.pdf"
    assert_sizes(page_sizes(path), LETTER)
    texts = [page.extract_text() for page in PdfReader(path).pages]
    assert len(texts) == 3 and "Diagram 31: after 15... " in texts[2]


def test_png_sheets_are_a_file_per_page(tmp_path: Path) -> None:
    args = ["--format", "sheet", "--plies", "0-12", "--page", "letter", "--out-dir", tmp_path]
    assert run("render", KASSEL, *args).exit_code == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["game001-sheet-1.png", "game001-sheet-2.png"]  # 13 diagrams
    for name in names:
        assert Image.open(tmp_path / name).size == (1275, 1650)  # Letter at 150 dpi


def test_one_page_of_png_sheet_keeps_its_name(tmp_path: Path) -> None:
    args = ["--format", "sheet", "--plies", "0-5", "--page", "a5", "--landscape"]
    assert run("render", KASSEL, *args, "--out-dir", tmp_path).exit_code == 0
    assert [p.name for p in tmp_path.iterdir()] == ["game001-sheet.png"]
    assert Image.open(tmp_path / "game001-sheet.png").size == (1240, 874)  # A5 across, 150 dpi


# the options


def test_an_unknown_page_is_a_usage_error(tmp_path: Path) -> None:
    result = run("render", KASSEL, "--format", "pdf", "--page", "b5", "--out-dir", tmp_path)
    assert result.exit_code == 2
    assert "Invalid value for '--page': 'b5' is not one of 'a4', 'a5', 'letter'." in result.output
    assert not list(tmp_path.iterdir())


def test_page_options_tell_when_the_format_has_no_pages(tmp_path: Path) -> None:
    result = run(
        "render", KASSEL, "--plies", "0", "--page", "a4", "--landscape", "--out-dir", tmp_path
    )
    assert result.exit_code == 0
    assert "warning: --page has no effect with --format svg" in result.stderr
    assert "warning: --landscape has no effect with --format svg" in result.stderr


def test_the_page_options_speak_german() -> None:
    result = run("--lang", "de", "render", "--help")
    text = " ".join(result.output.split())
    assert "--landscape Die Seiten im Querformat anlegen." in text
    assert "pdf, sheet, sheet-pdf: das Papierformat, a4, a5 oder letter (Vorgabe:" in text


def test_crosstable_pdf_takes_the_page(tmp_path: Path) -> None:
    out = tmp_path / "table.pdf"
    args = ["--format", "pdf", "--page", "letter", "--landscape", "--out", out, SAMPLES]
    assert run("crosstable", *args).exit_code == 0
    assert_sizes(page_sizes(out), LETTER[::-1])
    assert "Mira Hansen" in PdfReader(out).pages[0].extract_text()


# the puzzle sheet


def _puzzle_sheet(tmp_path: Path, *options: str) -> list[str]:
    args = ["puzzles", HUEPFER, "--format", "pdf", "--page", "a4", "--out-dir", tmp_path, *options]
    assert run(*args).exit_code == 0
    path = tmp_path / "puzzles.pdf"
    assert_sizes(page_sizes(path), A4)
    return [page.extract_text() for page in PdfReader(path).pages]


def test_the_puzzle_sheet_has_tasks_then_solutions(tmp_path: Path) -> None:
    pages = _puzzle_sheet(tmp_path, "--per-game", "0", "--min-depth", "1")
    assert len(pages) == 2  # three puzzles on a page, the solutions on the last
    tasks = re.findall(r"^(\d)\. (Red to play and win [^\n]*)$", pages[0], re.MULTILINE)
    assert tasks == [
        ("1", "Red to play and win at once"),
        ("2", "Red to play and win in 2"),
        ("3", "Red to play and win in 2"),
    ]
    assert pages[1].split("\n") == [
        "Solutions",
        "1) 1. c4xe4",
        "2) 1. a1-c1-c3@c4 d4xb4 2. b3xb5xd5xf5 (quiet, capture-chain)",
        "3) 1. c3-c5xe5xe3 f3xd3xd1 2. c4xe4 (capture-chain)",
    ]
    # under each task, the game it comes from
    under = re.findall(
        r"Mira Hansen – Paul Ohlsen, Hüpfer-Abend 2003, ply (\d+)", " ".join(pages[0].split())
    )
    assert under == ["22", "6", "20"]
    # the records are written as before; the diagrams are the sheet
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "puzzle001.hpf",
        "puzzle002.hpf",
        "puzzle003.hpf",
        "puzzles.pdf",
    ]


def test_the_puzzle_sheet_in_german(tmp_path: Path) -> None:
    pages = _puzzle_sheet(tmp_path, "--depth", "1", "--min-depth", "1")
    assert len(pages) == 2
    assert "1. Red to play and win at once" in pages[0]  # the run above spoke English
    german = CliRunner().invoke(
        cli,
        [
            "--lang",
            "de",
            "puzzles",
            str(HUEPFER),
            "--format",
            "pdf",
            "--depth",
            "1",
            "--min-depth",
            "1",
        ]
        + ["--out-dir", str(tmp_path / "de")],
    )
    assert german.exit_code == 0
    text = [page.extract_text() for page in PdfReader(tmp_path / "de" / "puzzles.pdf").pages]
    assert text[0].startswith("Aufgaben") and "1. Rot zieht und gewinnt sofort" in text[0]
    assert text[1].split("\n") == ["Lösungen", "1) 1. c4xe4"]


def test_puzzles_and_crosstable_tell_options_their_format_does_not_use(tmp_path: Path) -> None:
    args = [HUEPFER, "--depth", "1", "--page", "a5", "-q", "--out-dir", tmp_path / "svg"]
    result = run("puzzles", *args)
    assert result.exit_code == 0
    assert result.stderr == "warning: --page has no effect with --format svg\n"
    result = run("puzzles", *args[:-1], tmp_path / "pdf", "--format", "pdf", "--size", "300")
    assert result.stderr == "warning: --size has no effect with --format pdf\n"
    result = run("crosstable", SAMPLES, "--landscape", "-q")
    assert result.exit_code == 0
    assert result.stderr == "warning: --landscape has no effect with --format text\n"


def test_a_png_sheet_page_holds_one_page_of_diagrams() -> None:
    from hexhop.notation.errors import ArgumentError

    with pytest.raises(ArgumentError, match="7 diagrams do not fit on one page of a sheet"):
        frames(size=200).sheet(list(range(7)), page_for("a5"))


@pytest.mark.parametrize("name, landscape", [("a4", False), ("a5", True)])
def test_diagrams_of_other_heights_share_the_grid_inside_the_margins(name, landscape) -> None:
    """A puzzle sheet mixes games: a wide Hexalit board, a tall Hüpfer 10x10."""
    from hexhop.engine.games import rules_for
    from hexhop.render import board_svg
    from hexhop.render.sequence import sheet_pages_svg

    starts = [
        rules_for("Hexalit").start({}),
        rules_for("Hüpfer").start({"Board": "10x10"}),
        rules_for("Trigeo").start({}),
    ]
    page = page_for(name, landscape)
    captions = [f"{n}. a caption of some length under diagram {n}" for n in range(1, 8)]
    svgs = sheet_pages_svg(
        captions,
        lambda width: [board_svg(starts[n % 3], size=width) for n in range(7)],
        page,
        heading=["Puzzles"],
    )
    columns, rows = page.grid()
    assert len(svgs) == -(-7 // (columns * rows))
    boxes = _boxes(svgs[0])
    assert all(_inside(box, page) for box in boxes)
    assert len({round(box[2], 1) for box in boxes}) == 1  # one width
    tops = sorted({round(box[1], 1) for box in boxes})
    row_gap = tops[1] - tops[0]
    for box in boxes:  # each diagram and its two caption lines stay in its row
        assert box[3] + 2.8 * 12 <= row_gap + 0.5
