"""A game article: the heading, the moves, comments and variations as
running text, and diagrams in the text, as one HTML page or a PDF.

It takes plain data (:class:`Article`): the words are made elsewhere
(:mod:`hexhop.records.article`), the diagrams are finished SVG pictures.
Nothing here knows a game or reads a file. The page is self-contained:
its style and diagrams are inline, it holds no script and no URL. The PDF
is the same page laid out by WeasyPrint (the ``article`` extra) with the
print style, which nothing outside the page may feed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hexhop.notation.errors import ArgumentError, Error

from .html import escape
from .pages import SIZES, page_for
from .svg_parts import SVG_NS


@dataclass(frozen=True)
class Move:
    """One item of a line: ``number`` is ``12.`` or ``12...`` (or empty),
    ``text`` the action as written, with its glyphs."""

    number: str
    text: str


@dataclass(frozen=True)
class Comment:
    text: str


@dataclass(frozen=True)
class Variation:
    """An alternative line, set off from the text around it."""

    runs: tuple[Run, ...]


@dataclass(frozen=True)
class Diagram:
    """A finished SVG picture of the position after ``ply``, with its caption."""

    ply: int
    svg: str
    caption: str


Run = Move | Comment | Variation | Diagram


@dataclass(frozen=True)
class Article:
    """Everything the page shows, in its words.

    ``heading`` is the players (or a title) and then lines of details;
    ``kicker`` the line above it (the game); ``runs`` the main line;
    ``result`` ends it; ``note`` says why the record stops early.
    """

    heading: tuple[str, ...]
    runs: tuple[Run, ...]
    kicker: str = ""
    result: str = ""
    note: str = ""
    language: str = "en"


#: Fonts that the machine has, each with its generic family as fallback.
SERIF = '"DejaVu Serif", serif'
SANS = '"DejaVu Sans", sans-serif'

_STYLE = """
html { font-family: %(serif)s; font-size: 10.5pt; line-height: 1.45; color: #111; }
body { margin: 0; }
header { margin: 0 0 1.1em; padding-bottom: 0.5em; border-bottom: 0.8pt solid #111; }
.kicker { font-family: %(sans)s; font-size: 7.5pt; letter-spacing: 0.12em;
  text-transform: uppercase; color: #555; margin: 0 0 0.3em; }
h1 { font-family: %(sans)s; font-size: 16pt; line-height: 1.2; font-weight: bold;
  margin: 0 0 0.25em; }
header p.details { font-family: %(sans)s; font-size: 9pt; color: #333; margin: 0; }
.text { columns: %(columns)s; column-gap: 7mm; column-rule: 0.4pt solid #bbb; }
.text p { margin: 0 0 0.55em; orphans: 2; widows: 2; }
.move { white-space: nowrap; }
.main .move { font-weight: bold; }
.comment { font-style: italic; }
p.variation { font-size: 0.88em; line-height: 1.4; margin: 0 0 0.55em 1.4em; color: #222; }
span.variation { font-size: 1em; }
.result { font-weight: bold; }
figure { break-inside: avoid; page-break-inside: avoid; margin: 0.5em 0 0.9em;
  text-align: center; }
figure .board { width: %(width)spx; max-width: 100%%; margin: 0 auto; }
figure svg { display: block; width: 100%%; height: auto; }
figcaption { font-family: %(sans)s; font-size: 8.5pt; margin-top: 0.25em; }
p.note { font-family: %(sans)s; font-size: 8.5pt; color: #a01c10; }
@media screen {
  body { max-width: %(screen)s; margin: 2em auto; padding: 0 1em; }
  .text { columns: %(screen_columns)s; }
}
@media print {
  @page { size: %(page)s; margin: 18mm 17mm 20mm;
    @bottom-center { content: counter(page); font-family: %(sans)s; font-size: 8pt;
      color: #555; } }
}
"""


def page_size(page: str = "a4", landscape: bool = False) -> str:
    """The ``size`` of ``@page`` for a paper of :mod:`hexhop.render.pages`:
    ``210mm 297mm``, ``11in 8.5in`` turned, ...; an ArgumentError for a
    page it does not know."""
    if page.lower() not in SIZES:
        raise ArgumentError(f"unknown page {page!r}; known: {', '.join(SIZES)}")
    return page_for(page, landscape).css_size


def article_html(
    article: Article,
    *,
    columns: int = 1,
    width: int = 300,
    page: str = "a4",
    landscape: bool = False,
) -> str:
    """The article as one self-contained HTML page: ``columns`` (1 or 2) of
    text on paper, diagrams at most ``width`` CSS pixels wide (smaller when
    a column is narrower), printed on ``page`` (``a4``, ``a5``, ``letter``)."""
    if columns not in (1, 2):
        raise ArgumentError(f"columns must be 1 or 2, not {columns}")
    style = _STYLE % {
        "serif": SERIF,
        "sans": SANS,
        "columns": columns,
        "screen_columns": "1" if columns == 1 else "2 22em",
        "screen": "44em" if columns == 1 else "64em",
        "width": width,
        "page": page_size(page, landscape),
    }
    title = escape(article.heading[0] if article.heading else "")
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{escape(article.language)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n<style>{style}</style>\n</head>\n<body>\n<article>\n"
        f"{_heading(article)}"
        f'<div class="text">\n{_body(article)}</div>\n</article>\n</body>\n</html>\n'
    )


def _heading(article: Article) -> str:
    lines = [f'<p class="kicker">{escape(article.kicker)}</p>\n'] if article.kicker else []
    for number, line in enumerate(article.heading):
        if not line:
            continue  # a heading given as '' (--title '') leaves its line out
        if number == 0:
            lines.append(f"<h1><bdi>{escape(line)}</bdi></h1>\n")
        else:
            lines.append(f'<p class="details"><bdi>{escape(line)}</bdi></p>\n')
    return f"<header>\n{''.join(lines)}</header>\n"


def _body(article: Article) -> str:
    """The main line as paragraphs: a variation of it and a diagram each
    close the paragraph before them; the text goes on in a new one."""
    blocks: list[str] = []
    words: list[str] = []

    def close() -> None:
        if words:
            blocks.append(f'<p class="main">{" ".join(words)}</p>\n')
            words.clear()

    runs = list(article.runs)
    last = len(runs)
    while last and isinstance(runs[last - 1], Diagram):
        last -= 1  # the result ends the text, before the diagrams of the end
    for number, run in enumerate(runs):
        if number == last and article.result:
            words.append(f'<span class="result">{escape(article.result)}</span>')
        if isinstance(run, Variation):
            close()
            blocks.append(f'<p class="variation">{_variation_text(run)}</p>\n')
        elif isinstance(run, Diagram):
            close()
            blocks.append(_figure(run))
        else:
            words.append(_inline(run))
    if last == len(runs) and article.result:
        words.append(f'<span class="result">{escape(article.result)}</span>')
    close()
    if article.note:
        blocks.append(f'<p class="note">{escape(article.note)}</p>\n')
    return "".join(blocks)


def _inline(run: Move | Comment) -> str:
    if isinstance(run, Comment):
        return f'<span class="comment"><bdi>{escape(run.text)}</bdi></span>'
    number = f"{escape(run.number)}\u00a0" if run.number else ""
    return f'<span class="move">{number}{escape(run.text)}</span>'


def _variation_text(variation: Variation) -> str:
    """``(5. A7XA8 C8°B9^ {...})``: the runs of a variation in brackets, the
    variations within it inline (a diagram is never inside one)."""
    parts = []
    for run in variation.runs:
        if isinstance(run, Variation):
            parts.append(f'<span class="variation">{_variation_text(run)}</span>')
        elif not isinstance(run, Diagram):
            parts.append(_inline(run))
    return "(" + " ".join(parts) + ")"


def _figure(diagram: Diagram) -> str:
    svg = diagram.svg.replace(f' xmlns="{SVG_NS}"', "", 1)
    caption = f"<figcaption>{escape(diagram.caption)}</figcaption>" if diagram.caption else ""
    return (
        f'<figure id="ply-{diagram.ply}" data-ply="{diagram.ply}">\n'
        f'<div class="board">{svg}</div>\n{caption}</figure>\n'
    )


class WeasyPrintMissing(Error):
    """WeasyPrint (or the Pango it draws text with) cannot be loaded; the
    message says which of them and why."""


def weasyprint() -> Any:
    """The ``weasyprint`` module; :class:`WeasyPrintMissing` when it is not
    installed or cannot load its libraries."""
    try:
        import weasyprint as module
    except ImportError as error:
        raise WeasyPrintMissing(str(error)) from None
    except OSError as error:  # the package is there, Pango or cairo is not
        raise WeasyPrintMissing(str(error)) from None
    return module


def refuse_fetch(url: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
    """WeasyPrint's URL fetcher for a page that must need nothing outside it."""
    raise ArgumentError(f"an article fetches nothing: {url[:80]!r}")


def article_pdf(
    article: Article,
    *,
    columns: int = 1,
    width: int = 300,
    page: str = "a4",
    landscape: bool = False,
) -> bytes:
    """The article laid out as PDF pages (fonts embedded) by WeasyPrint."""
    html = article_html(article, columns=columns, width=width, page=page, landscape=landscape)
    return pdf_of(html)


def pdf_of(html: str, stylesheets: Sequence[Any] = ()) -> bytes:
    """A self-contained HTML page as PDF, fetching nothing, laid out in a
    child process that Ctrl-C and SIGTERM stop (:func:`~.isolated.in_child`)."""
    from .isolated import in_child

    return in_child(lambda: _weasyprint_pdf(html, stylesheets))


def _weasyprint_pdf(html: str, stylesheets: Sequence[Any]) -> bytes:
    module = weasyprint()
    document = module.HTML(string=html, url_fetcher=refuse_fetch, base_url=None)
    data: bytes = document.write_pdf(stylesheets=list(stylesheets) or None)
    return data
