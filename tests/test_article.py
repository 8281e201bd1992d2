"""``hexhop render --format article / article-html``: a game's
heading, moves, comments, variations and diagrams as a printed article.

The HTML is read back as text; the PDF (slow: WeasyPrint lays it out) by
pypdf: its text, its pages and their size, its fonts."""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from hexhop.cli.main import cli
from hexhop.engine.replay import replay_game
from hexhop.notation import format_record, read_archive
from hexhop.records.article import (
    DIAGRAM_LIMIT,
    TEXT_LIMIT,
    VARIATION_COST,
    article,
    marked_plies,
)
from hexhop.records.frames import Frames
from hexhop.render.article import (
    Article,
    Comment,
    Diagram,
    Move,
    Variation,
    article_html,
    page_size,
)

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "good"
TRIGEO = SAMPLES / "trigeo-goettingen-1999.trg"  # 40 plies, one variation
KASSEL = SAMPLES / "hexalit-kassel-1998.hxl"  # 42 plies, cube events, one variation
STUDY = SAMPLES / "hexalit-newsletter-study.hxl"  # 22 plies, an Annotator
HEXALIT = '[Game "Hexalit"]\n[North "N"]\n[South "S"]\n[Result "*"]\n\n'
MARKED = (
    HEXALIT
    + "{Opening words.} 1. B4W3 D7W1 2. A5XB2^ {before} {#} {after} (2. A5XB3 {#} {no}) "
    + "2... D7XD5 3. double 2 take B2°E10 {#} E7°C7 *\n"
)
EVIL = "<script>alert(1)</script></style><img src=x onerror=alert(2)> &amp; \u202eevil"


def run(*args: object) -> Result:
    return CliRunner().invoke(cli, ["render", *map(str, args)])


def frames_of(text: str | bytes, size: int = 300) -> Frames:
    data = text.encode() if isinstance(text, str) else text
    parsed = next(iter(read_archive(data, path="x.hxl")))
    return Frames(replay_game(parsed), size=size)


def page_of(path: Path, plies: list[int] | None = None, **layout: object) -> str:
    frames = frames_of(path.read_bytes())
    chosen = plies if plies is not None else [len(frames.report.positions) - 1]
    return article_html(article(frames, chosen), **layout)  # type: ignore[arg-type]


def blocks(page: str) -> list[tuple[str, str]]:
    """(kind, text) of each paragraph and figure of the text, as a reader
    sees it (a figure: its ply and caption)."""
    body = page[page.index('<div class="text">') :]
    found = []
    for match in re.finditer(r"<(p|figure) ([^>]*)>(.*?)</\1>", body, re.S):
        kind = re.search(r'(?:class|data-ply)="([^"]*)"', match.group(2)).group(1)  # type: ignore[union-attr]
        inner = re.sub(r"<svg.*?</svg>", "", match.group(3), flags=re.S)
        found.append((kind, html.unescape(re.sub(r"<[^>]+>", "", inner)).strip()))
    return found


def plain(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\xa0", " ")).strip()


def main_line(path: Path) -> list[str]:
    """Every action of the main line as the article numbers it: ``N.``
    before each ply of the side that moved first (``N...`` may stand
    before the others, and is checked by the exact tests)."""
    report = frames_of(path.read_bytes()).report
    moves = []
    for ply, node in enumerate(report.nodes, 1):
        text = node.text + "".join(node.glyphs)
        if ply % 2:
            moves.append(f"{(ply + 1) // 2}.")
        moves.append(text)
    return moves


def in_order(text: str, words: list[str]) -> list[str]:
    """The words not found in ``text`` in that order (none when all are)."""
    at, missing = 0, []
    for word in words:
        found = text.find(word, at)
        if found < 0:
            missing.append(word)
        else:
            at = found + len(word)
    return missing


# the text


def test_the_trigeo_game_reads_as_a_column_heading_moves_comments_variation_result() -> None:
    page = page_of(TRIGEO)
    assert re.findall(r"<h1><bdi>(.*?)</bdi></h1>", page) == ["Ute Sommer – Karl Brandt"]
    assert re.findall(r'<p class="details"><bdi>(.*?)</bdi>', page) == [
        "Trigeo Pokal, Göttingen, round 2, 1999.11.06 · 0-1"
    ]
    assert '<p class="kicker">Trigeo</p>' in page
    assert [(kind, plain(text)) for kind, text in blocks(page)] == [
        (
            "main",
            "1. C7°D7 A leap between two jump fields opens the game. 1... E6°D7 2. B7°D7 "
            "E8°D7 Four dice have already changed hands on D7. 3. A5XB3 F8°B8 4. A8°B8 "
            "D7XC8^ 5. A7XA5",
        ),
        ("variation", "(5. A7XA8 C8°B9^ and the One stays under fire.)"),
        (
            "main",
            "5... C8°B9 6. B3XF3 B9°A10=6 The 2 reaches row A and becomes a 6. 7. F3°E5^ "
            "F7°E5 The One defends itself. 8. B8XC11^ E5XE3 9. A4XA3^ E3XE2 10. C11XE5 "
            "A10°B10 11. A3XD3 B10°A6^ 12. A5°A6 E2°D3 13. E5XC5^ D3XE3 14. C5°E10 E7XB7 "
            "15. A6°B7 F5XE7^ 16. B7XC8 F6XD6^ 17. C8°D6 E7XD7^ 18. D6°D7 E3XF5 "
            "19. E10°F10 F5XE6^ 20. D7XC5 E6XD5+ 0-1",
        ),
        ("40", "after 20... E6XD5+"),
    ]
    # moves bold in the main line, comments in italics, variations smaller
    assert '<span class="move">1.\xa0C7°D7</span>' in page
    assert '<span class="comment"><bdi>A leap between two jump fields opens the game.' in page
    assert re.search(r"\.main \.move \{ font-weight: bold; \}", page)
    assert re.search(r"\.comment \{ font-style: italic; \}", page)
    assert re.search(r"p\.variation \{ font-size: 0\.88em;", page)


@pytest.mark.parametrize("path", sorted(SAMPLES.iterdir()), ids=lambda path: path.name)
def test_every_move_of_the_main_line_is_in_the_html_in_order(path: Path) -> None:
    text = plain(" ".join(text for _kind, text in blocks(page_of(path))))
    assert in_order(text, main_line(path)) == []


def test_cube_events_nested_variations_and_annotation_numbers() -> None:
    record = (
        HEXALIT + "1. B4W3 (1. B4W1 $2 (1. B4W2 $5 {deep})) D7W1 2. double 2 take A5XB2^ $14 *\n"
    )
    assert [(kind, plain(text)) for kind, text in blocks(page_of_text(record))] == [
        ("main", "1. B4W3"),
        ("variation", "(1. B4W1? (1. B4W2!? deep))"),
        ("main", "1... D7W1 2. double 2 take A5XB2^$14"),
        ("3", "after 2. A5XB2^$14"),
    ]


def page_of_text(record: str, plies: list[int] | None = None) -> str:
    frames = frames_of(record)
    chosen = plies if plies is not None else [len(frames.report.positions) - 1]
    return article_html(article(frames, chosen))


def test_the_annotator_and_german() -> None:
    assert '<p class="details"><bdi>Notes by Redaktion</bdi></p>' in page_of(STUDY)
    from hexhop.messages import set_language

    set_language("de")
    try:
        page = page_of(STUDY)
    finally:
        set_language("en")
    assert '<p class="details"><bdi>Anmerkungen: Redaktion</bdi></p>' in page
    assert '<html lang="de">' in page


# where the diagrams go


def test_plies_put_diagrams_after_their_moves_and_comments(tmp_path: Path) -> None:
    result = run(TRIGEO, "--format", "article-html", "--plies", "9,20", "--out-dir", tmp_path)
    assert result.exit_code == 0, result.output
    page = (tmp_path / "game001-article.html").read_text("utf-8")
    found = blocks(page)
    kinds = [kind for kind, _text in found]
    assert kinds == ["main", "9", "variation", "main", "20", "main"]
    assert plain(found[0][1]).endswith("4. A8°B8 D7XC8^ 5. A7XA5")
    assert found[1][1] == "after 5. A7XA5"
    assert plain(found[3][1]).endswith("9. A4XA3^ E3XE2 10. C11XE5 A10°B10")
    assert found[4][1] == "after 10... A10°B10"
    assert plain(found[5][1]).startswith("11. A3XD3 B10°A6^")
    # each diagram is the position after its ply, drawn without a title
    positions = frames_of(TRIGEO.read_bytes()).report.positions
    for ply in (9, 20):
        figure = re.search(rf'<figure id="ply-{ply}" data-ply="{ply}">(.*?)</figure>', page, re.S)
        assert figure and f'data-position="{positions[ply].text()}"' in figure.group(1)
        assert "<title" not in figure.group(1)


def test_markers_put_diagrams_where_they_stand() -> None:
    assert marked_plies(read_one(MARKED)) == [3, 5]
    found = blocks(page_of_text(MARKED, plies=marked_plies(read_one(MARKED))))
    assert [(kind, plain(text)) for kind, text in found] == [
        ("main", "Opening words. 1. B4W3 D7W1 2. A5XB2^ before"),
        ("3", "after 2. A5XB2^"),
        ("main", "after"),
        ("variation", "(2. A5XB3 no)"),  # a marker in a variation draws nothing
        ("main", "2... D7XD5 3. double 2 take B2°E10"),
        ("5", "after 3. B2°E10"),
        ("main", "3... E7°C7"),
    ]
    assert "#" not in " ".join(text for _kind, text in found)


def read_one(text: str):  # type: ignore[no-untyped-def]
    return next(iter(read_archive(text.encode(), path="x.hxl"))).record


def test_the_marker_is_a_comment_that_fmt_keeps() -> None:
    record = read_one(MARKED)
    assert record.main.nodes[2].comments == ("before", "#", "after")
    formatted = plain(format_record(record))
    assert "2. A5XB2^ {before} {#} {after} (2. A5XB3 {#} {no})" in formatted
    assert marked_plies(read_one(HEXALIT + "{#} 1. B4W3 ; #\n D7W1 *\n")) == [0, 1]


def test_the_cli_takes_markers_else_the_last_ply_and_plies_over_markers(tmp_path: Path) -> None:
    marked = tmp_path / "marked.hxl"
    marked.write_text(MARKED)
    for args, figures in (
        ((marked,), ["3", "5"]),
        ((marked, "--plies", "0,5"), ["0", "5"]),
        ((TRIGEO,), ["40"]),
        ((TRIGEO, "--plies", "0"), ["0"]),
    ):
        out = tmp_path / f"out{len(figures)}{figures[0]}"
        result = run(*args, "--format", "article-html", "-q", "--out-dir", out)
        assert result.exit_code == 0, result.output
        page = (out / "game001-article.html").read_text("utf-8")
        assert re.findall(r'data-ply="(\d+)">', page) == figures


def test_a_ply_zero_diagram_follows_the_opening_comments() -> None:
    found = blocks(page_of(STUDY, plies=[0]))
    assert found[0] == ("main", "A position from the newsletter: South, with two Ones, is to move.")
    assert found[1] == ("0", "start")
    assert plain(found[2][1]).startswith("1. E10XF9 South steps aside")


def test_at_most_a_limit_of_diagrams_with_a_warning(tmp_path: Path) -> None:
    result = run(KASSEL, "--format", "article-html", "--plies", "0-last", "--out-dir", tmp_path)
    assert result.exit_code == 0, result.output
    assert (
        f"warning: {KASSEL}: game 1: an article holds {DIAGRAM_LIMIT} diagrams; "
        f"the first {DIAGRAM_LIMIT} of 43 are drawn"
    ) in result.stderr
    page = (tmp_path / "game001-article.html").read_text("utf-8")
    assert re.findall(r'data-ply="(\d+)">', page) == [str(p) for p in range(DIAGRAM_LIMIT)]


def test_a_record_of_more_text_than_an_article_stops_with_a_note() -> None:
    siblings = " ".join(f"(1. B4W{1 + i % 3} {{{'words ' * 20}}})" for i in range(2000))
    frames = frames_of(HEXALIT + "1. B4W3 " + siblings + " 1... D7W1 *\n")
    made = article(frames, [2])
    runs = list(walk(made.runs))
    spent = sum(len(run.text) + 1 for run in runs if isinstance(run, Comment))
    spent += sum(len(run.number + run.text) + 1 for run in runs if isinstance(run, Move))
    spent += sum(VARIATION_COST + 1 for run in runs if isinstance(run, Variation))
    assert TEXT_LIMIT - 200 < spent <= TEXT_LIMIT + 200
    assert made.note == (
        f"The article stops here: the record holds more text than an article prints "
        f"({TEXT_LIMIT} characters)."
    )
    assert not any(isinstance(run, Diagram) for run in made.runs)  # ply 2 is never reached
    assert made.result == ""


def walk(runs):  # type: ignore[no-untyped-def]
    for run in runs:
        yield run
        if isinstance(run, Variation):
            yield from walk(run.runs)


def test_a_broken_record_stops_its_diagrams_at_the_error_and_says_so(tmp_path: Path) -> None:
    broken = tmp_path / "broken.hxl"
    broken.write_text(HEXALIT + "1. B4W3 D7W1 2. A0XB2 *\n")
    result = run(broken, "--format", "article-html", "--out-dir", tmp_path / "o")
    assert result.exit_code == 1
    found = blocks((tmp_path / "o" / "game001-article.html").read_text("utf-8"))
    assert found[-3] == ("2", "after 1... D7W1")
    assert found[-2] == ("main", "2.\xa0A0XB2")  # the text goes on: the record as written
    assert found[-1][0] == "note"
    assert found[-1][1].startswith("The record breaks off after ply 2 (line 6): ")


# a page of its own, safe from what the record says


def test_the_page_holds_no_script_and_no_reference_outside_it(tmp_path: Path) -> None:
    result = run(KASSEL, "--format", "article-html", "--plies", "3,12", "--out-dir", tmp_path)
    assert result.exit_code == 0, result.output
    page = (tmp_path / "game001-article.html").read_text("utf-8").lower()
    for outside in ("<script", "src=", "href=", "url(", "@import", "<link", "http", "//"):
        assert outside not in page, outside
    assert re.findall(r"<(?:img|iframe|object|embed|base|meta http)", page) == []


def test_hostile_text_in_tags_and_comments_is_escaped() -> None:
    record = (
        f'[Game "Hexalit"]\n[Event "{EVIL}"]\n[North "{EVIL}"]\n[South "S"]\n'
        f'[Annotator "{EVIL}"]\n[Result "*"]\n\n{{{EVIL} "q" \x1b[2J}} 1. B4W3 {{{EVIL}}} '
        f"(1. B4W1 {{{EVIL}}}) D7W1 *\n"
    )
    page = page_of_text(record, plies=[0, 2])
    assert "<script" not in page and "<img" not in page and "\x1b" not in page
    # the title, the players, the event, the annotator and three comments
    assert page.count("&lt;script&gt;alert(1)&lt;/script&gt;&lt;/style&gt;") == 7
    assert page.count("&amp;amp;") == 3  # in the comments: names are clipped before it
    assert page.count("</style>") == 1 + 2  # the page's own, and each diagram's
    assert page.count("<bdi>") == 6  # the players, the details, the annotator, three comments


def test_layout_options(tmp_path: Path) -> None:
    page = page_of(TRIGEO, columns=2, width=250, page="a5", landscape=True)
    assert ".text { columns: 2;" in page
    assert "figure .board { width: 250px; max-width: 100%;" in page
    assert "@page { size: 210mm 148mm;" in page
    assert page_size() == "210mm 297mm" and page_size("Letter", True) == "11in 8.5in"
    untitled = article_html(Article(heading=("", "Event"), runs=(Move("1.", "B4W3"),)))
    assert "<h1" not in untitled and '<p class="details"><bdi>Event</bdi></p>' in untitled
    with pytest.raises(ValueError, match="unknown page 'b5'"):
        page_size("b5")
    result = run(TRIGEO, "--format", "article-html", "--columns", "3", "--out-dir", tmp_path)
    assert result.exit_code == 2 and "'--columns': 3 is not in the range 1<=x<=2" in result.output
    result = run(TRIGEO, "--format", "svg", "--plies", "0", "--columns", "2", "--out-dir", tmp_path)
    assert "warning: --columns has no effect with --format svg" in result.stderr
    result = run(TRIGEO, "--format", "article-html", "--delay", "50", "--out-dir", tmp_path / "d")
    assert "warning: --delay has no effect with --format article-html" in result.stderr


def test_diagrams_are_drawn_at_300_px_unless_size_is_given(tmp_path: Path) -> None:
    for args, width in (((), 300), (("--size", "250"), 250)):
        out = tmp_path / str(width)
        result = run(TRIGEO, "--format", "article-html", *args, "-q", "--out-dir", out)
        assert result.exit_code == 0, result.output
        page = (out / "game001-article.html").read_text("utf-8")
        assert '<svg version="1.1" class="hexhop-board trigeo" data-game="Trigeo"' in page
        assert re.findall(r'<svg [^>]*? width="(\d+)"', page) == [str(width)]


def test_without_weasyprint_the_pdf_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # import weasyprint fails
    result = run(TRIGEO, "--format", "article", "--out-dir", tmp_path / "o")
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "Error: --format article needs WeasyPrint: pip install 'hexhop[article]' "
        "(or write --format article-html) (import of weasyprint halted; None in sys.modules)"
    )
    assert "Traceback" not in result.output
    assert not (tmp_path / "o").exists()
    result = run(TRIGEO, "--format", "article-html", "-q", "--out-dir", tmp_path / "h")
    assert result.exit_code == 0 and (tmp_path / "h" / "game001-article.html").is_file()


# the PDF


def pdf_text(path: Path) -> tuple[list[tuple[float, float]], str]:
    from pypdf import PdfReader

    reader = PdfReader(path)
    sizes = [(float(page.mediabox.width), float(page.mediabox.height)) for page in reader.pages]
    return sizes, plain(" ".join(page.extract_text() for page in reader.pages))


@pytest.mark.slow
def test_the_pdf_holds_every_move_comment_and_variation_in_order(tmp_path: Path) -> None:
    args = ("--format", "article", "--plies", "9,20", "--columns", "2", "--out-dir", tmp_path)
    result = run(TRIGEO, *args)
    assert result.exit_code == 0, result.output
    sizes, text = pdf_text(tmp_path / "game001-article.pdf")
    assert [(round(w, 2), round(h, 2)) for w, h in sizes] == [(595.28, 841.89)]  # one A4 page
    # the text of the diagrams (coordinates, who is to move) comes last
    words = ["TRIGEO", "Ute Sommer – Karl Brandt", "Trigeo Pokal, Göttingen, round 2"]
    words += ["1. C7°D7", "A leap between two jump fields opens the game.", "1... E6°D7"]
    words += ["Four dice have already changed hands on D7.", "5. A7XA5", "after 5. A7XA5"]
    words += ["(5. A7XA8 C8°B9^ and the One stays under fire.)", "5... C8°B9"]
    words += ["after 10... A10°B10", "19. E10°F10", "20. D7XC5", "E6XD5+", "0-1"]
    assert in_order(text, words) == []
    assert in_order(text, main_line(TRIGEO)) == []


@pytest.mark.slow
def test_the_pdf_pages_fonts_and_the_limit_of_diagrams(tmp_path: Path) -> None:
    from pypdf import PdfReader

    result = run(KASSEL, "--format", "article", "--plies", "0-last", "--out-dir", tmp_path)
    assert result.exit_code == 0, result.output
    path = tmp_path / "game001-article.pdf"
    sizes, text = pdf_text(path)
    assert len(sizes) == 6 and set(sizes) == {(595.275591, 841.889764)}
    assert in_order(text, main_line(KASSEL)) == []
    assert text.count("after ") == DIAGRAM_LIMIT - 1 and "start" in text  # plies 0 to 15
    fonts = set()
    for page in PdfReader(path).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            assert "/FontFile2" in descriptor  # embedded
            fonts.add(str(font["/BaseFont"]).split("+")[-1])
    assert fonts == {
        "DejaVu-Serif",
        "DejaVu-Serif-Bold",
        "DejaVu-Serif-Italic",
        "DejaVu-Sans",
        "DejaVu-Sans-Bold",
    }


@pytest.mark.slow
def test_the_pdf_of_hostile_text_shows_it_as_text_and_fetches_nothing(tmp_path: Path) -> None:
    record = tmp_path / "evil.hxl"
    record.write_text(
        f'[Game "Hexalit"]\n[Event "{EVIL} url(http://127.0.0.1:9/x)"]\n[Result "*"]\n\n'
        f'{{<img src="http://127.0.0.1:9/y.png">}} 1. B4W3 D7W1 *\n'
    )
    result = run(record, "--format", "article", "-q", "--out-dir", tmp_path / "o")
    assert result.exit_code == 0, result.output
    sizes, text = pdf_text(tmp_path / "o" / "game001-article.pdf")
    assert len(sizes) == 1
    assert "<script>alert(1)</script></style><img src=x onerror=alert(2…" in text  # clipped
    assert '<img src="http://127.0.0.1:9/y.png">' in text
