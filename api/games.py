"""Replayed games, positions, legal actions and pictures for scripts and
notebooks; everything is re-exported by the ``hexhop`` package.

A thin layer over :mod:`hexhop.notation` (reading), :mod:`hexhop.engine`
(the rules and the replay) and :mod:`hexhop.render` (pictures, imported only
when a picture is asked for). It adds no rules of its own.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from hexhop.engine.base import HeaderError, Position, sorted_texts
from hexhop.engine.games import rules_for
from hexhop.engine.replay import End, GameReport, Visitor, replay_game, walk
from hexhop.notation import DiceAction, HopAction, read_archive
from hexhop.notation.findings import Finding, NotationError, make
from hexhop.records.sources import iter_sources


class SVG(str):
    """SVG text that Jupyter shows as a picture."""

    def _repr_svg_(self) -> str:
        return str(self)


def svg(position: Position, **options: Any) -> SVG:
    """A diagram of ``position``; options as for ``hexhop.render.svg.board_svg``
    (``size``, ``flip``, ``last``, ``arrows``, ``highlights``, ``title``…)."""
    from hexhop.render.svg import board_svg

    return SVG(board_svg(position, **options))


def png(position: Position, *, size: int = 400, **options: Any) -> bytes:
    """The diagram of ``position`` as PNG bytes."""
    from hexhop.render.png import svg_to_png

    return svg_to_png(svg(position, size=size, **options), size=size)


def position(game: str, text: str, *, board: str | None = None) -> Position:
    """A position of ``game`` (Hexalit, Trigeo, Hüpfer) from Position text;
    raises ``HeaderError`` (``code``, and a message saying what is wrong)
    when the text cannot be read."""
    tags = {"Game": game, **({"Board": board} if board else {})}
    try:
        return rules_for(_game_name(game)).parse_position(text, tags)
    except HeaderError as error:
        # the engine's error carries only the code; the message is the catalogue's
        error.args = (f"{error.code} {make(error.code, None, **error.params).message}",)
        raise


def legal_actions(position: Position) -> list[str]:
    """Every legal action of ``position`` in canonical notation, sorted."""
    if position.winner is not None:
        return []
    return sorted_texts(list(rules_for(position.game).legal_actions(position)))


@dataclass
class Game:
    """One replayed game of an archive; ``path`` names its file (an
    archive's member as ``club.zip:games/a.hxl``; empty for bytes)."""

    report: GameReport
    path: str = ""

    def __repr__(self) -> str:
        """One line, as python-chess shows a game: where it is, who played, how long."""
        players = " v ".join(repr(self.tags.get(side, "?")) for side in _sides(self.game))
        where = f"game {self.report.index}"
        if self.path:
            where = f"{self.path}, {where}"
        plies = f"{self.report.plies} plies, {'valid' if self.valid else 'invalid'}"
        return f"<Game {self.game or '?'} {players}, {plies} ({where})>"

    @property
    def game(self) -> str | None:
        return self.report.game

    @property
    def tags(self) -> dict[str, str]:
        return self.report.tags

    @property
    def findings(self) -> list[Finding]:
        return self.report.findings

    @property
    def valid(self) -> bool:
        return self.report.valid()

    @property
    def end(self) -> End | None:
        return self.report.end

    @property
    def positions(self) -> list[Position]:
        """The position before the first action and after every legal one."""
        return self.report.positions

    @property
    def actions(self) -> list[str]:
        """The main line's actions, as written, up to the first illegal one."""
        return [node.text or str(node.item) for node in self.report.nodes]

    def legal_actions(self, ply: int = -1) -> list[str]:
        return legal_actions(self.positions[ply])

    def svg(self, ply: int = -1, **options: Any) -> SVG:
        """The diagram after ``ply`` (default: the last), last action highlighted."""
        from hexhop.render.last_action import describe_last

        index = range(len(self.positions))[ply]
        action = self.report.nodes[index - 1].item if index else None
        if isinstance(action, (DiceAction, HopAction)) and "last" not in options:
            before, after = self.positions[index - 1], self.positions[index]
            options["last"] = describe_last(before, after, action)
        return svg(self.positions[index], ply=index, **options)

    def accept(self, visitor: Visitor) -> None:
        """Walk the record with ``visitor``: every node of the main line and
        of every variation, with the positions before and after it and its
        findings (see :class:`hexhop.engine.replay.Visitor`)."""
        walk(self.report, visitor)

    def _repr_svg_(self) -> str:
        return self.svg() if self.positions else ""


def _sides(game: str | None) -> tuple[str, ...]:
    from hexhop.notation.games import lookup_game

    spec = lookup_game(game)
    return spec.sides if spec is not None else ("North", "South")


def read_games(
    source: str | bytes | os.PathLike[str],
    *,
    game: str | None = None,
    unreadable: Callable[[Finding], object] | None = None,
) -> Iterator[Game]:
    """Every game of record bytes, or of every record file a path names,
    replayed, in the order ``hexhop check`` reads them.

    A path is whatever ``hexhop check`` takes: a record file (also one
    compressed, like ``club.hxl.gz``), a folder (its record files and
    archives, sorted), a zip or tar archive (its record members), or one
    member of an archive (``club.zip:games/a.hxl``); each game's ``path``
    says which file it came from. The bytes are read within the limits of
    check and decoded as check decodes them.

    ``game`` names the game of records without a Game tag (the file's
    extension is used first). A file that cannot be read or is not text
    gives the IO finding ``check`` reports for it: passed to ``unreadable``
    when given, and the other files are read on (as ``check`` does);
    otherwise raised as :class:`~hexhop.notation.NotationError`, after the
    games of the files before it.
    """
    if isinstance(source, bytes):
        for parsed in read_archive(source, default_game=game):
            yield Game(replay_game(parsed))
        return
    from hexhop.records.checking import readable_data

    for found in iter_sources([os.fspath(source)]):
        data = readable_data(found)
        if not isinstance(data, bytes):
            error = data.error or {"code": "IO01", "message": found.path}
            finding = Finding(error["code"], error["message"])
            if unreadable is None:
                raise NotationError(finding)
            unreadable(finding)
            continue
        for parsed in read_archive(data, path=found.path, default_game=game):
            yield Game(replay_game(parsed), found.path)


def _game_name(game: str) -> str:
    from hexhop.notation import game_from_name

    name = game_from_name(game)
    if name is None:
        raise ValueError(f"unknown game {game!r}: expected Hexalit, Trigeo or Hüpfer")
    return name
