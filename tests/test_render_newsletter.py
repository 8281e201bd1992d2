"""``hexhop render`` as a newsletter editor uses it: broken
records, bad cells, stdin, ply ranges, titles, sheets, colours, GIF delay,
file names and PDF."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from PIL import Image

from hexhop.cli.main import cli
from hexhop.engine.replay import replay_game
from hexhop.notation import read_archive
from hexhop.records.frames import Frames
from hexhop.render import board_svg
from hexhop.render.svg import TITLE_MIN_PX

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
KASSEL = SAMPLES / "good" / "hexalit-kassel-1998.hxl"  # 42 plies
STUDY = SAMPLES / "good" / "hexalit-newsletter-study.hxl"  # 22 plies
HOP8 = SAMPLES / "good" / "huepfer-8x8-bremen-2003.hpf"
PAWN = SAMPLES / "broken" / "illegal-hexalit-pawn-capture.hxl"


def run(*args: object, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["render", *map(str, args)], input=input)


def frames(path: Path, **options: object) -> Frames:
    parsed = next(iter(read_archive(path.read_bytes(), path=str(path))))
    return Frames(replay_game(parsed), size=200, **options)  # type: ignore[arg-type]


def names(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


# 2: a broken record


def test_a_broken_record_is_drawn_to_its_error_which_is_told_as_check_tells_it(
    tmp_path: Path,
) -> None:
    result = run(PAWN, "--format", "png", "--size", "250", "--out-dir", tmp_path)
    assert result.exit_code == 1
    assert f"{PAWN}:8:9: error IL01 ply 2, South: E6°D5 is not legal" in result.stderr
    assert "    | 1. B4W3 E6°D5 *\n    |         ^^^^^\n" in result.stderr
    assert f"{PAWN}: game 1: the pictures stop after ply 1" in result.stderr
    assert names(tmp_path) == ["game001-ply000.png", "game001-ply001.png"]


def test_a_sheet_of_a_broken_record_carries_a_note() -> None:
    svg = frames(PAWN).sheet_svg([0, 1])
    note = " ".join(re.findall(r'fill="#a01c10">([^<]*)<', svg))
    assert note.startswith("The record breaks off after ply 1 (line 8): IL01 ply 2, South: E6°D5")
    assert svg.count("Diagram ") == 2


def test_a_valid_record_exits_0_and_its_sheet_has_no_note(tmp_path: Path) -> None:
    result = run(KASSEL, "--plies", "0", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert "breaks off" not in frames(KASSEL).sheet_svg([0, 1])


# 3: cells that do not exist


@pytest.mark.parametrize(
    "args, message",
    [
        (["--arrow", "B6-B14", "--highlight", "D6"], "Invalid value for --arrow: B14: not on"),
        (["--arrow", "B6-B8", "--highlight", "zz"], "Invalid value for --highlight: zz: not on"),
    ],
)
def test_a_cell_off_the_board_is_a_usage_error(
    tmp_path: Path, args: list[str], message: str
) -> None:
    result = run(KASSEL, *args, "--out", tmp_path)
    assert result.exit_code == 2
    assert message in result.output and "the board of Hexalit" in result.output
    assert not tmp_path.exists() or names(tmp_path) == []


def test_hupfer_points_are_checked_against_the_board_size(tmp_path: Path) -> None:
    assert run(HOP8, "--plies", "0", "--highlight", "i9", "--out", tmp_path).exit_code == 2
    result = run(HOP8, "--plies", "0", "--highlight", "H8", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert 'class="highlight h8"' in (tmp_path / "game001-ply000.svg").read_text("utf-8")


# 5: standard input


def test_stdin_pictures_go_to_stdin_diagrams(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("-", "--plies", "0-1", input=KASSEL.read_text("utf-8"))
    assert result.exit_code == 0, result.output
    assert names(tmp_path) == [
        "stdin-diagrams/game001-ply000.svg",
        "stdin-diagrams/game001-ply001.svg",
    ]
    assert "wrote 2 files to stdin-diagrams" in result.stderr


# 6: ply ranges


def test_plies_beyond_one_game_are_a_warning_for_that_game(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for path in (KASSEL, STUDY):
        (folder / path.name).write_bytes(path.read_bytes())
    result = run(folder, "--plies", "20-30", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert (
        f"warning: {folder / STUDY.name}: game 1 has plies 0 to 22; --plies 20-30 reaches "
        "beyond it\n" in result.stderr
    )
    drawn = names(tmp_path / "out")
    assert len([n for n in drawn if n.startswith("hexalit-kassel")]) == 11
    assert [n for n in drawn if n.startswith("hexalit-newsletter")] == [
        f"hexalit-newsletter-study/game001-ply{ply:03d}.svg" for ply in (20, 21, 22)
    ]


def test_a_game_with_none_of_the_plies_is_left_out(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for path in (KASSEL, STUDY):
        (folder / path.name).write_bytes(path.read_bytes())
    result = run(folder, "--plies", "30", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "reaches beyond it, nothing is drawn of it" in result.stderr
    assert names(tmp_path / "out") == ["hexalit-kassel-1998/game001-ply030.svg"]


def test_plies_beyond_the_only_game_are_a_usage_error(tmp_path: Path) -> None:
    result = run(STUDY, "--plies", "30", "--out", tmp_path)
    assert result.exit_code == 2
    assert "Invalid value for --plies: 30: there is nothing to draw" in result.output


def test_a_backwards_range_says_so(tmp_path: Path) -> None:
    result = run(KASSEL, "--plies", "5-3", "--out", tmp_path)
    assert result.exit_code == 2
    assert "'5-3': the range is backwards; write 3-5" in result.output


# 12: help


def test_help_names_every_input_and_html() -> None:
    text = " ".join(CliRunner().invoke(cli, ["render", "--help"]).output.split())
    assert (
        "a record file, a folder of records, a zip or tar archive, or - for standard input" in text
    )
    assert "HTML viewer pages" in text and "sheet-pdf" in text


# 13: long names


def test_long_names_wrap_at_a_legible_size() -> None:
    title = f"{'Maximilian ' * 5}– {'Friederike ' * 5}: ply 12, E6°D5"
    title = re.sub(r" +", " ", title).replace(" :", ":")
    svg = board_svg(frames(KASSEL).report.positions[12], size=250, title=title)
    lines = re.findall(r'<text class="title"[^>]*font-size="([0-9.]+)"[^>]*>([^<]*)<', svg)
    width = float(re.search(r'viewBox="[-0-9.]+ [-0-9.]+ ([0-9.]+)', svg).group(1))
    assert len(lines) == 2
    assert all(float(size) * 250 / width >= TITLE_MIN_PX - 0.05 for size, _ in lines)
    (_, first), (_, second) = lines
    assert first.startswith("Maximilian") and "– Friederike" in first and first.endswith("…:")
    assert second == "ply 12, E6°D5"


def test_a_short_title_stays_on_one_line() -> None:
    svg = board_svg(frames(KASSEL).report.positions[0], size=400, title="A – B: start")
    assert len(re.findall(r'<text class="title"', svg)) == 1


# 16: sheets


def test_a_sheet_has_one_heading_and_short_captions() -> None:
    svg = frames(KASSEL).sheet_svg([0, 3, 4])
    assert svg.count("Anna Berger – Jonas Keller") == 1
    assert "Spielkreis Kassel club championship, Kassel, round 4, 1998.03.14 · 0-1" in svg
    captions = re.findall(r">(Diagram [^<]*)<", svg)
    assert captions == [
        "Diagram 1: start",
        "Diagram 2: after 2. A5XB2^",
        "Diagram 3: after 2... D7XD5",
    ]


def test_a_sheet_caption_keeps_the_annotators_glyphs(tmp_path: Path) -> None:
    """An annotated record (``hexhop analyse --annotate``) shows its ``?``/``??`` on the sheet."""
    text = KASSEL.read_text("utf-8").replace("2. A5XB2^", "2. A5XB2^!?", 1)
    annotated = tmp_path / "annotated.hxl"
    annotated.write_text(text, "utf-8")
    captions = re.findall(r">(Diagram [^<]*)<", frames(annotated).sheet_svg([3]))
    assert captions == ["Diagram 1: after 2. A5XB2^!?"]


# 17: title, caption, colours, delay, names


def test_title_and_caption_replace_names_and_ply(tmp_path: Path) -> None:
    args = ["--plies", "0", "--title", "Study 4", "--caption", "South to play and win"]
    assert run(STUDY, *args, "--out", tmp_path).exit_code == 0
    svg = (tmp_path / "game001-ply000.svg").read_text("utf-8")
    assert "<title>Study 4: South to play and win</title>" in svg and "Study – Study" not in svg


def test_empty_title_and_caption_leave_the_band_out(tmp_path: Path) -> None:
    assert (
        run(STUDY, "--plies", "0", "--title", "", "--caption", "", "--out", tmp_path).exit_code == 0
    )
    svg = (tmp_path / "game001-ply000.svg").read_text("utf-8")
    assert "<title>" not in svg and 'viewBox="0 0 ' in svg


@pytest.mark.parametrize(
    "text",
    ['{"dark": "#123456", "light": "white"}', "# club colours\ndark = #123456\nlight=white\n"],
)
def test_colors_from_a_file(tmp_path: Path, text: str) -> None:
    colors = tmp_path / "club.colors"
    colors.write_text(text, encoding="utf-8")
    result = run(KASSEL, "--plies", "0", "--colors", colors, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    svg = (tmp_path / "out" / "game001-ply000.svg").read_text("utf-8")
    assert "#123456" in svg and "#c9a77c" not in svg


@pytest.mark.parametrize(
    "text, message",
    [
        ("dark = #123456\ndrak = #000000\n", ":2: unknown colour role 'drak'; known roles: arrow,"),
        ("dark = sky blue\n", ":1: dark: 'sky blue' is not a colour"),
        ('{"dark": 3}', ": dark: 3 is not a colour"),
        ("dark #123456\n", ":1: expected role = colour"),
    ],
)
def test_a_bad_colors_file_is_a_usage_error(tmp_path: Path, text: str, message: str) -> None:
    colors = tmp_path / "bad.colors"
    colors.write_text(text, encoding="utf-8")
    result = run(KASSEL, "--plies", "0", "--colors", colors, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert f"{colors}{message}" in " ".join(result.output.split())


def test_the_print_theme_and_a_colors_file_combine(tmp_path: Path) -> None:
    colors = tmp_path / "c"
    colors.write_text("arrow = #ff00ff\n", encoding="utf-8")
    args = ["--plies", "0", "--theme", "print", "--colors", colors, "--arrow", "B6-D6"]
    assert run(KASSEL, *args, "--out", tmp_path / "out").exit_code == 0
    svg = (tmp_path / "out" / "game001-ply000.svg").read_text("utf-8")
    assert "#d9d9d9" in svg and "#ff00ff" in svg and "#c9a77c" not in svg


def test_gif_delay(tmp_path: Path) -> None:
    args = ["--format", "gif", "--plies", "0-2", "--size", "250", "--delay", "300"]
    assert run(KASSEL, *args, "--out", tmp_path).exit_code == 0
    image = Image.open(tmp_path / "game001.gif")
    durations = []
    for frame in range(image.n_frames):
        image.seek(frame)
        durations.append(image.info["duration"])
    assert durations == [300, 300, 2500]


def test_file_names_are_zero_padded_and_sort_in_game_order(tmp_path: Path) -> None:
    archive = tmp_path / "club.hxl"
    archive.write_text(KASSEL.read_text("utf-8") + "\n" + KASSEL.read_text("utf-8"), "utf-8")
    assert (
        run(
            archive, "--format", "gif", "--plies", "0", "--size", "250", "--out", tmp_path / "o"
        ).exit_code
        == 0
    )
    assert names(tmp_path / "o") == ["game001.gif", "game002.gif"]


# 19: PDF


def _pages(data: bytes) -> list[str]:
    return re.findall(rb"/MediaBox \[ ?0 0 ([0-9.]+) ([0-9.]+) ?\]", data)  # type: ignore[return-value]


def test_pdf_has_one_page_per_diagram(tmp_path: Path) -> None:
    """The pages are paper pages (here A4), not diagram-sized."""
    args = ["--format", "pdf", "--plies", "0-2", "--size", "256", "--page", "a4"]
    assert run(KASSEL, *args, "--out", tmp_path).exit_code == 0
    data = (tmp_path / "game001.pdf").read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert len(_pages(data)) == 3
    assert all(abs(float(w) - 595.28) < 0.5 for w, _ in _pages(data))


def test_sheet_pdf_is_one_page(tmp_path: Path) -> None:
    args = ["--format", "sheet-pdf", "--plies", "0-5", "--out", tmp_path]
    assert run(KASSEL, *args).exit_code == 0
    data = (tmp_path / "game001-sheet.pdf").read_bytes()
    assert data.startswith(b"%PDF-") and len(_pages(data)) == 1


@pytest.mark.slow  # 0.5 s: test_sheet_pdf_is_one_page draws a sheet PDF in the quick tier
def test_sheet_pdf_puts_twelve_diagrams_on_a_page(tmp_path: Path) -> None:
    args = ["--format", "sheet-pdf", "--plies", "0-12", "--page", "a4", "--out", tmp_path]
    assert run(KASSEL, *args).exit_code == 0
    data = (tmp_path / "game001-sheet.pdf").read_bytes()
    assert len(_pages(data)) == 2  # 12 + 1
    svg = frames(KASSEL).sheet_svg([24], first=25)
    assert ">Diagram 25: after 12... " in svg and ">Anna Berger" in svg


def test_the_png_sheet_is_a_page_at_150_dpi(tmp_path: Path) -> None:
    """A PNG sheet is a page (A4 at 150 dpi), not a strip of any height."""
    args = ["--format", "sheet", "--plies", "0-5", "--page", "a4", "--out", tmp_path]
    assert run(KASSEL, *args).exit_code == 0
    image = Image.open(io.BytesIO((tmp_path / "game001-sheet.png").read_bytes()))
    assert image.size == (1240, 1754)


def test_a_gif_keeps_the_board_in_place_when_a_title_wraps() -> None:
    from hexhop.render import gif, svg_to_png

    position = frames(KASSEL).report.positions[0]
    short = board_svg(position, size=150, title="A – B: start")
    long = board_svg(position, size=150, title=f"{'Anna ' * 9}– {'Jonas ' * 9}: ply 1, B4W3")
    tall = Image.open(io.BytesIO(svg_to_png(long, size=150)))
    image = Image.open(io.BytesIO(gif([short, long], size=150)))
    assert image.height == tall.height
    first = _ink(image)
    image.seek(1)
    moved = sum(a != b for a, b in zip(_ink(image), first, strict=True))
    assert moved < len(first) * 0.02  # anti-aliasing differs, the board does not move


def _ink(image: Image.Image) -> bytes:
    """Where the bottom 60 rows of a frame are dark (colours of a frame's
    palette differ a little from frame to frame)."""
    rows = image.convert("L").crop((0, image.height - 60, image.width, image.height))
    return rows.point(lambda value: 255 if value < 100 else 0).tobytes()


def test_options_a_format_does_not_use_are_named(tmp_path: Path) -> None:
    result = run(KASSEL, "--plies", "0", "--delay", "300", "--out", tmp_path)
    assert result.exit_code == 0
    assert "warning: --delay has no effect with --format svg\n" in result.stderr
    result = run(KASSEL, "--plies", "0", "--out", tmp_path / "b")
    assert "warning" not in result.stderr
