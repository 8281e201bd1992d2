"""The pictures of one replayed game: frames as SVG, PNG, GIF, sheet, HTML."""

from __future__ import annotations

from hexhop.engine.base import Position
from hexhop.engine.games import rules_for
from hexhop.engine.replay import GameReport
from hexhop.notation.games import find_game
from hexhop.notation.model import Node
from hexhop.render.svg_parts import clip

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
    ):
        self.report = report
        self.size = size
        self.flip = flip
        if report.game is None:
            raise ValueError("a record of no known game has no pictures")
        game = find_game(report.game)
        self.rules = rules_for(game.name)
        # cells are written in upper case, Hüpfer points in lower case
        case = game.cell
        self.arrows = tuple((case(a), case(b)) for a, b in arrows)
        self.highlights = tuple(case(cell) for cell in highlights)

    def title(self, ply: int) -> str:
        names = " – ".join(
            clip(self.report.tags.get(side, "?"), NAME_CHARS) for side in self.rules.sides
        )
        if ply == 0:
            return f"{names}: start"
        return f"{names}: ply {ply}, {_text(self.report.nodes[ply - 1])}"

    def svg(self, ply: int) -> str:
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
            title=self.title(ply),
            ply=ply,
            position_text=position.text(),
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

    def gif(self, plies: list[int]) -> bytes:
        from hexhop.render.sequence import gif

        return gif([self.svg(p) for p in plies], size=self.size)

    def sheet(self, plies: list[int]) -> bytes:
        from hexhop.render.sequence import sheet

        frames = [(self._label(p), self.svg(p)) for p in plies]
        return sheet(frames, size=self.size)

    def _label(self, ply: int) -> str:
        """``after 12... E6°D5`` in the move numbering of the record."""
        if ply == 0:
            return "start"
        number, dots = (ply + 1) // 2, "." if ply % 2 else "..."
        return f"after {number}{dots} {_text(self.report.nodes[ply - 1])}"

    def html(self, index: str | None = None) -> bytes:
        """The interactive viewer page of the game (``--flip``: turned at first);
        ``index`` links to the archive's index page."""
        from hexhop.render.html import game_page

        from .viewer import page_data

        page = page_data(self.report, flip=self.flip)
        return game_page(page, index=index).encode("utf-8")


def _text(node: Node) -> str:
    """The action as written, or its canonical form for generated records."""
    return node.text or str(node.item)
