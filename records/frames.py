"""The pictures of one replayed game: frames as SVG, PNG, GIF, sheet, PDF, HTML."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from hexhop.engine.base import Position
from hexhop.engine.games import rules_for
from hexhop.engine.replay import GameReport
from hexhop.messages import _
from hexhop.messages import date as shown_date
from hexhop.notation.errors import ArgumentError
from hexhop.notation.findings import Finding
from hexhop.notation.games import find_game
from hexhop.notation.model import Node
from hexhop.render.svg_parts import clip

if TYPE_CHECKING:
    from hexhop.render.pages import Page

    from .viewer import Recording

#: Characters of each player's name in a title, so that both names show.
NAME_CHARS = 60


class Frames:
    """Draws the positions of one game; ``ply`` 0 is the start."""

    def __init__(
        self,
        report: GameReport,
        *,
        size: int = 400,
        flip: bool = False,
        arrows: tuple[tuple[str, str], ...] = (),
        highlights: tuple[str, ...] = (),
        colors: Mapping[str, str] | None = None,
        title: str | None = None,
        caption: str | None = None,
        walked: Recording | None = None,
        pieces: str = "dice",
    ):
        """``title`` replaces the players' names above each diagram (and
        heads a sheet), ``caption`` the words about the ply; either may be
        empty to leave it out. ``colors`` overrides colour roles. ``walked``
        is the replay's walk, when it was recorded for :meth:`html`.
        ``pieces`` ``chess`` draws a Trigeo game's dice as chess pieces."""
        self.report = report
        self.walked = walked
        self.size = size
        self.flip = flip
        self.colors = dict(colors) if colors else None
        self.pieces = pieces
        self.heading_text = title
        self.caption = caption
        self._title_lines: int | None = None
        if report.game is None:
            raise ArgumentError(_("a record of no known game has no pictures"))
        game = find_game(report.game)
        self.rules = rules_for(game.name)
        # cells are written in upper case, Hüpfer points in lower case
        case = game.cell
        self.arrows = tuple((case(a), case(b)) for a, b in arrows)
        self.highlights = tuple(case(cell) for cell in highlights)
        unknown = off_board(report, [cell for pair in self.arrows for cell in pair])
        unknown += off_board(report, self.highlights)
        if unknown:
            raise ArgumentError(
                _("not on the board of this game: {cells}").format(cells=", ".join(unknown))
            )

    def players(self) -> str:
        """``North – South`` (or ``Red – Turquoise``), each name clipped."""
        return " – ".join(
            clip(self.report.tags.get(side, "?"), NAME_CHARS) for side in self.rules.sides
        )

    def title(self, ply: int) -> str:
        """``heading: caption`` above diagram ``ply`` (the caption in the
        words of a sheet's labels, ``after 7. A5XB2^``); empty for neither."""
        heading = self.players() if self.heading_text is None else self.heading_text
        return ": ".join(part for part in (heading, self.label(ply)) if part)

    def title_lines(self) -> int:
        """The most lines a title of this game takes: every diagram's title
        band holds that many, so that the diagrams have one height."""
        if self._title_lines is None:
            from hexhop.render.svg import title_lines

            positions = self.report.positions
            self._title_lines = max(
                (
                    title_lines(positions[0], self.title(p), self.size)
                    for p in range(len(positions))
                ),
                default=1,
            )
        return self._title_lines

    def heading(self) -> list[str]:
        """The heading of a sheet: the players (or the title), then the
        event, site, round and date, with the result."""
        tags = self.report.tags
        first = self.players() if self.heading_text is None else self.heading_text
        round_ = tags.get("Round", "")
        where = [
            tags.get("Event", ""),
            tags.get("Site", ""),
            _("round {round}").format(round=round_) if round_ else "",
        ]
        details = ", ".join(
            clip(part, NAME_CHARS) for part in [*where, shown_date(tags.get("Date", ""))] if part
        )
        result = tags.get("Result", "")
        if result and result != "*":
            details = f"{details} · {result}" if details else result
        return [first, details]

    def note(self) -> str | None:
        """Why the pictures stop early, or what is wrong with the record."""
        broken = first_error(self.report)
        if broken is None:
            return None
        drawn = len(self.report.positions) - 1
        where = _(" (line {line})").format(line=broken.line) if broken.line else ""
        if drawn < self.report.plies:
            return _("The record breaks off after ply {ply}{where}: {code} {message}").format(
                ply=drawn, where=where, code=broken.code, message=broken.message
            )
        return _("The record has an error{where}: {code} {message}").format(
            where=where, code=broken.code, message=broken.message
        )

    def svg(self, ply: int, *, titled: bool = True) -> str:
        from hexhop.render.last_action import describe_last
        from hexhop.render.svg import board_svg

        position = self.report.positions[ply]
        last = None
        if ply:
            node = self.report.nodes[ply - 1]
            last = describe_last(
                self.report.positions[ply - 1],
                position,
                node.action,
                threatened=self._threatened(position),
            )
        return board_svg(
            position,
            size=self.size,
            flip=self.flip,
            last=last,
            arrows=self.arrows,
            highlights=self.highlights,
            title=self.title(ply) if titled else None,
            title_lines=self.title_lines() if titled else 1,
            colors=self.colors,
            ply=ply,
            position_text=position.text(),
            pieces=self.pieces,
        )

    def _threatened(self, position: Position) -> list[str] | None:
        """Cells of attacked Ones, when the game can tell them."""
        attacked = getattr(self.rules, "attacked_ones", None)
        return list(attacked(position)) if attacked else None

    def svg_bytes(self, ply: int) -> bytes:
        return self.svg(ply).encode("utf-8")

    def png_bytes(self, ply: int) -> bytes:
        from hexhop.render.png import svg_to_png

        return svg_to_png(self.svg(ply), size=self.size)

    def gif(self, plies: list[int], *, delay: int = 800) -> bytes:
        """An animation, each frame ``delay`` milliseconds (the last longer)."""
        from hexhop.render.sequence import gif

        svgs = [self.svg(p) for p in plies]
        return gif(svgs, size=self.size, frame_ms=delay, last_ms=max(delay, 2500))

    def pdf(self, plies: list[int], page: Page | None = None) -> bytes:
        """A PDF with one diagram on each page of the size ``page`` (the
        locale's by default): centred at the size asked for, smaller only
        where it would not fit within the margins; its title under it."""
        from hexhop.render.sequence import diagram_page_svg, pdf

        paper = _paper(page)
        return pdf(
            [diagram_page_svg(self.svg(p, titled=False), [self.title(p)], paper) for p in plies]
        )

    def sheet_pages(
        self, plies: list[int], page: Page | None = None, *, first: int = 1
    ) -> list[str]:
        """The sheet as SVG pages of the size ``page``: the diagrams on the
        page's grid, numbered from ``first``, under the heading of the game."""
        from hexhop.render.sequence import sheet_pages_svg

        captions = [
            _("Diagram {number}: {label}").format(number=number, label=label)
            if label
            else _("Diagram {number}").format(number=number)
            for number, label in enumerate((self.label(p) for p in plies), first)
        ]

        def draw(width: int) -> list[str]:
            drawer = copy.copy(self)
            drawer.size = width
            return [drawer.svg(p, titled=False) for p in plies]

        return sheet_pages_svg(
            captions, draw, _paper(page), heading=self.heading(), note=self.note()
        )

    def sheet(self, plies: list[int], page: Page | None = None, *, first: int = 1) -> bytes:
        """One page of the sheet as a PNG (at ``sequence.SHEET_DPI``); ``plies``
        are those of that page, numbered from ``first``: more than the page
        holds are an error (``hexhop render`` writes a file per page)."""
        from hexhop.render.sequence import sheet_png

        paper = _paper(page)
        pages = self.sheet_pages(plies, paper, first=first)
        if len(pages) > 1:
            raise ArgumentError(f"{len(plies)} diagrams do not fit on one page of a sheet")
        return sheet_png(pages[0], paper)

    def sheet_pdf(self, plies: list[int], page: Page | None = None) -> bytes:
        """The sheet as a PDF (vector, for layout programs): as many pages
        of the size ``page`` as the diagrams fill."""
        from hexhop.render.sequence import pdf

        return pdf(self.sheet_pages(plies, page))

    def sheet_svg(self, plies: list[int], *, first: int = 1) -> str:
        """The diagrams of ``plies`` in one grid (no page), as one SVG."""
        from hexhop.render.sequence import sheet_svg

        frames = [(self.label(p), self.svg(p, titled=False)) for p in plies]
        return sheet_svg(
            frames, size=self.size, heading=self.heading(), note=self.note(), first=first
        )

    def label(self, ply: int) -> str:
        """``after 12... E6°D5`` in the move numbering of the record."""
        if self.caption is not None:
            return self.caption
        if ply == 0:
            return _("start")
        number, dots = (ply + 1) // 2, "." if ply % 2 else "..."
        return _("after {number}{dots} {action}").format(
            number=number, dots=dots, action=_text(self.report.nodes[ply - 1])
        )

    def html(self, index: str | None = None, *, shared: bool = False) -> bytes:
        """The interactive viewer page of the game (``--flip``: turned at first);
        ``index`` links to the archive's index page, beside which the page finds
        its style and script files with ``shared``."""
        from hexhop.render.html import game_page

        from .viewer import page_data

        page = page_data(self.report, flip=self.flip, walked=self.walked, pieces=self.pieces)
        return game_page(page, index=index, shared=shared).encode("utf-8")


def _paper(page: Page | None) -> Page:
    from hexhop.render.pages import page_for

    return page if page is not None else page_for(None)


def first_error(report: GameReport) -> Finding | None:
    """The first finding of a game that is an error, if any."""
    return next((f for f in report.findings if f.severity == "error"), None)


def off_board(report: GameReport, cells: Iterable[str]) -> list[str]:
    """The ``cells`` (as the game writes them) that its board does not have."""
    from hexhop.render import geometry

    if not report.positions or report.game is None:
        return []
    game = find_game(report.game)
    if game.family == "dice":
        known = set(geometry.cells(False))
    else:
        known = set(geometry.huepfer_points(report.positions[0].size, False))  # type: ignore[attr-defined]
    return [cell for cell in dict.fromkeys(cells) if game.cell(cell) not in known]


def _text(node: Node) -> str:
    """The action as written (or its canonical form for generated records),
    with an annotator's glyphs (``E5W6??``)."""
    return (node.text or str(node.item)) + "".join(node.glyphs)
