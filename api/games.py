"""Replayed games, positions, legal actions and pictures for scripts and
notebooks; everything is re-exported by the ``hexhop`` package.

A thin layer over :mod:`hexhop.notation` (reading), :mod:`hexhop.engine`
(the rules and the replay) and :mod:`hexhop.render` (pictures, imported only
when a picture is asked for). It adds no rules of its own.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from hexhop.engine.base import HeaderError, IllegalAction, Position, read_action, sorted_texts
from hexhop.engine.games import rules_for
from hexhop.engine.lines import play_line
from hexhop.engine.replay import End, GameReport, Visitor, replay_game, walk
from hexhop.notation import DiceAction, HopAction, read_archive
from hexhop.notation.errors import Error
from hexhop.notation.findings import Finding, NotationError, make, words
from hexhop.notation.games import find_game
from hexhop.notation.model import NO_SPAN, Item, Line, Node, ParsedGame, Record, Tag
from hexhop.notation.writer import format_record
from hexhop.records.sources import iter_sources


class NoSuchPly(Error, IndexError):
    """A ply the game's main line does not have."""


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
    when the text cannot be read, :class:`~hexhop.UnknownGame` for a game
    that is none of the three.

    >>> p = hexhop.position("Hexalit", "N: A7=1 C7=2; S: F7=1 D6=2; turn: N")
    >>> p.to_move, p.text()
    ('North', 'N: A7=1 C7=2; S: D6=2 F7=1; turn: N')
    >>> hexhop.position("Hexalit", "N: Z9=1")
    Traceback (most recent call last):
    ...
    hexhop.engine.base.HeaderError: HD05 bad Position value: 'Z9=1': Z9 is not on the board
    """
    tags = {"Game": game, **({"Board": board} if board else {})}
    try:
        return rules_for(_game_name(game)).parse_position(text, tags)
    except HeaderError as error:
        # the engine's error carries only the code; the message is the catalogue's
        error.args = (f"{error.code} {make(error.code, None, **error.params).message}",)
        raise


def legal_actions(position: Position) -> list[str]:
    """Every legal action of ``position`` as text (canonical notation),
    sorted as people read them; none when the game is over.

    The rules' own view, ``rules_for(game).legal_actions(position)``, holds
    the action values instead, as python-chess's ``board.legal_moves``
    holds moves; it answers ``in`` for an action value or its text, and
    :func:`hexhop.parse_action` reads text into a value
    (``chess.Move.from_uci``).

    >>> p = hexhop.position("Hexalit", "N: A7=1 C7=2; S: F7=1 D6=2; turn: N")
    >>> hexhop.legal_actions(p)[-3:]
    ['C7W6', 'C7XD7', 'C7°D6']
    >>> "C7W1" in hexhop.legal_actions(p), "C7W1" in hexhop.rules_for("Hexalit").legal_actions(p)
    (True, True)
    >>> hexhop.parse_action("C7W1", "Hexalit") in hexhop.rules_for("Hexalit").legal_actions(p)
    True
    """
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
        """The legal actions after ``ply`` (default: the last), as text.

        >>> [game] = hexhop.read_games("samples/good/hexalit-kassel-1998.hxl")
        >>> game.legal_actions(0)[:3], game.legal_actions()
        (['A4XA3', 'A5XB2', 'A5XB3'], [])
        """
        return legal_actions(self.positions[self._ply(ply)])

    def svg(self, ply: int = -1, **options: Any) -> SVG:
        """The diagram after ``ply`` (default: the last), last action highlighted."""
        from hexhop.render.last_action import describe_last

        index = self._ply(ply)
        action = self.report.nodes[index - 1].item if index else None
        if isinstance(action, (DiceAction, HopAction)) and "last" not in options:
            before, after = self.positions[index - 1], self.positions[index]
            options["last"] = describe_last(before, after, action)
        return svg(self.positions[index], ply=index, **options)

    # -- building and writing a game ------------------------------------------------------

    @classmethod
    def new(cls, game: str, **tags: str) -> Game:
        """A game with no action yet, to :meth:`play` from code: ``game``
        names it (Hexalit, Trigeo, Hüpfer), ``tags`` are its tag pairs
        (``North="Anna Berger"``, ``Event=…``, ``Board="8x8"``,
        ``Position=…`` for a set-up start). :class:`HeaderError` for a tag
        the game cannot use.

        >>> g = hexhop.Game.new("Hexalit", North="Anna", South="Jonas")
        >>> print(g.play("B4W3"), g.play("D7W1"))
        B4W3 D7W1
        >>> g.actions
        ['B4W3', 'D7W1']
        >>> g.positions[-1].to_move
        'North'
        """
        name = _game_name(game)
        pairs = [Tag("Game", name)]
        pairs += [Tag(key, str(value)) for key, value in tags.items() if key.lower() != "game"]
        result = next((t.value for t in pairs if t.name.lower() == "result"), None)
        if result is None:
            result = "*"
            pairs.append(Tag("Result", result))
        built = cls(replay_game(ParsedGame(1, Record(tuple(pairs), name, Line(), result))))
        for finding in built.report.findings:  # a tag the game cannot use
            if finding.severity == "error":
                error = HeaderError(finding.code, "")
                error.args = (f"{finding.code} {finding.message}",)
                raise error
        return built

    def play(self, action: Item | str) -> Item:
        """Play ``action`` (its text, or an action value) after the main
        line's last action and return it as written, with the mark the rules
        require (``^``, ``+``); the result follows the end on the board.
        :class:`IllegalAction` when it cannot be played now; the game is
        then unchanged.

        >>> g = hexhop.Game.new("Hexalit")
        >>> g.play("B4XA3")
        Traceback (most recent call last):
        ...
        hexhop.engine.base.IllegalAction: B4XA3 is not legal: ...
        >>> g.actions
        []
        """
        record = self._editable()
        rules = rules_for(self._name())
        item = read_action(action, rules.name)
        nodes = record.main.nodes
        [(written, after)] = play_line(rules, self._before(len(nodes), item), [item])
        node = Node(written, NO_SPAN, str(written))
        main = replace(record.main, nodes=(*nodes, node))
        self._rewrite(replace(record, main=main), after)
        return written

    def comment(self, text: str) -> None:
        """Add a comment after the main line's last action (before the first
        action when there is none yet).

        >>> g = hexhop.Game.new("Trigeo")
        >>> g.comment("A quiet start.")
        >>> _ = g.play("C7°D7")
        >>> g.comment("Straight at the centre.")
        >>> print(g.record().splitlines()[-1])
        {A quiet start.} 1. C7°D7 {Straight at the centre.} *
        """
        record = self._editable()
        nodes = record.main.nodes
        if nodes:
            last = replace(nodes[-1], comments=(*nodes[-1].comments, text))
            main = replace(record.main, nodes=(*nodes[:-1], last))
        else:
            main = replace(record.main, comments=(*record.main.comments, text))
        self._rewrite(replace(record, main=main))

    def variation(
        self, actions: Sequence[Item | str], *, ply: int | None = None, comment: str | None = None
    ) -> list[Item]:
        """Add a variation: ``actions`` played instead of the main line's
        action of ``ply`` (1 for the first action; default the last), from
        the position before it; ``comment`` stands before its first action.
        Returns the actions as written (with their marks).
        :class:`IllegalAction` for an action that cannot be played there;
        the game is then unchanged.

        >>> g = hexhop.Game.new("Trigeo")
        >>> _ = g.play("C7°D7"), g.play("E6°D7")
        >>> print(*g.variation(["E7°D7"], comment="Or at once"))
        E7°D7
        >>> print(g.record().splitlines()[-1])
        1. C7°D7 E6°D7 ({Or at once} 1... E7°D7) *
        """
        record = self._editable()
        plies = self._played_plies()
        ply = plies if ply is None else ply
        if not 1 <= ply <= plies:
            raise NoSuchPly(words("the main line has no action of ply {ply}", ply=ply))
        rules = rules_for(self._name())
        target = self.report.nodes[ply - 1]
        index = next(i for i, node in enumerate(record.main.nodes) if node is target)
        position = self._before(index, target.item)
        written = [item for item, _after in play_line(rules, position, actions)]
        line = Line(
            tuple(Node(w, NO_SPAN, str(w)) for w in written),
            (comment,) if comment is not None else (),
        )
        nodes = tuple(
            replace(n, variations=(*n.variations, line)) if n is target else n
            for n in record.main.nodes
        )
        self._rewrite(replace(record, main=replace(record.main, nodes=nodes)))
        return written

    def record(self, *, width: int = 79) -> str:
        """The game's canonical record text, as ``hexhop fmt`` writes it.

        >>> g = hexhop.Game.new("Hexalit", North="Anna", South="Jonas")
        >>> _ = g.play("B4W3"), g.play("D7W1")
        >>> print(g.record(), end="")
        [Game "Hexalit"]
        [North "Anna"]
        [South "Jonas"]
        [Result "*"]
        <BLANKLINE>
        1. B4W3 D7W1 *
        """
        if self.report.record is None:
            return ""
        return format_record(self.report.record, width=width)

    def __str__(self) -> str:
        """The canonical record, as :meth:`record` gives it."""
        return self.record()

    def _ply(self, ply: int) -> int:
        """The index in :attr:`positions` of ``ply`` (negative: from the end)."""
        try:
            return range(len(self.positions))[ply]
        except IndexError:
            raise NoSuchPly(
                words("the main line has no position after ply {ply}", ply=ply)
            ) from None

    def _name(self) -> str:
        if self.game is None:
            raise HeaderError("HD01", "Game")
        return self.game

    def _played_plies(self) -> int:
        return len(self.positions) - 1

    def _before(self, index: int, first: Item) -> Position:
        """The position before the main line's node ``index`` (its end when
        ``index`` is the number of nodes): the position after the actions
        before it, and the cube events between them and it played. Before
        the first action, a missing First tag follows ``first``, as in a
        record."""
        rules = rules_for(self._name())
        record = self.report.record
        nodes = record.main.nodes[:index] if record is not None else ()
        actions = [i for i, node in enumerate(nodes) if _is_action(node.item)]
        if actions:
            position = self.positions[len(actions)]
            cubes = nodes[actions[-1] + 1 :]
        else:
            position = rules.start(self.tags, first)
            cubes = nodes
        if position.winner is not None:  # a dropped cube ended the game: it is played
            return position
        played = play_line(rules, position, [node.item for node in cubes])
        return played[-1][1] if played else position

    def _editable(self) -> Record:
        """The record to add to: one whose main line is legal to its end."""
        record = self.report.record
        if record is None or not self.positions:
            raise IllegalAction("", "HD01", words("this record has no start position to play from"))
        if self._played_plies() != self.report.plies:
            raise IllegalAction(
                "",
                "IL01",
                words(
                    "the main line stops at ply {ply}, whose action is not legal",
                    ply=self._played_plies() + 1,
                ),
            )
        return record

    def _rewrite(self, record: Record, last: Position | None = None) -> None:
        """Take ``record`` as the game's record, its result following the end
        on the board, and replay it."""
        last = last if last is not None else self.positions[-1]
        result = record.result
        if last.winner is not None:
            result = "1-0" if last.winner == rules_for(self._name()).sides[0] else "0-1"
        if result is not None and result != record.result:
            tags = tuple(
                Tag(t.name, result) if t.name.lower() == "result" else t for t in record.tags
            )
            record = replace(record, tags=tags, result=result)
        self.report = replay_game(ParsedGame(record.index, record))

    def accept(self, visitor: Visitor) -> None:
        """Walk the record with ``visitor``: every node of the main line and
        of every variation, with the positions before and after it and its
        findings (see :class:`hexhop.engine.replay.Visitor`)."""
        walk(self.report, visitor)

    def _repr_svg_(self) -> str:
        return self.svg() if self.positions else ""


def _is_action(item: Item) -> bool:
    return isinstance(item, (DiceAction, HopAction))


def _sides(game: str | None) -> tuple[str, ...]:
    from hexhop.notation.games import lookup_game

    spec = lookup_game(game)
    return spec.sides if spec is not None else ("North", "South")


def read_games(
    source: str | bytes | os.PathLike[str] | Iterable[str | os.PathLike[str]],
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
    games of the files before it. ``source`` may also be a list of paths.

    >>> [game] = hexhop.read_games("samples/good/trigeo-goettingen-1999.trg")
    >>> game.tags["North"], game.valid, game.end
    ('Ute Sommer', True, End(winner='South', ply=40))
    >>> game.actions[:3], len(game.positions)
    (['C7°D7', 'E6°D7', 'B7°D7'], 41)
    >>> [len(g.actions) for g in hexhop.read_games("samples/good")]
    [42, 22, 74, 23, 33, 40]
    >>> [g.game for g in hexhop.read_games(b"1. B4W3 D7W1 *", game="Hexalit")]
    ['Hexalit']
    """
    if isinstance(source, bytes):
        for parsed in read_archive(source, default_game=game):
            yield Game(replay_game(parsed))
        return
    from hexhop.records.checking import readable_data

    paths = [source] if isinstance(source, (str, os.PathLike)) else source
    for found in iter_sources([os.fspath(path) for path in paths]):
        data = readable_data(found)
        if not isinstance(data, bytes):
            error = data.error or {"code": "IO01", "message": found.path}
            finding = Finding(error["code"], error["message"])
            if unreadable is None:
                raise NotationError(finding)
            unreadable(finding)
            continue
        try:  # a file of more games than the limit is refused before its first (IO04)
            for parsed in read_archive(data, path=found.path, default_game=game):
                yield Game(replay_game(parsed), found.path)
        except NotationError as error:
            if unreadable is None:
                raise
            unreadable(error.finding)


def _game_name(game: str) -> str:
    """The canonical name of ``game``; :class:`~hexhop.UnknownGame` (a
    ``ValueError``) when it names no game."""
    return find_game(game).name
