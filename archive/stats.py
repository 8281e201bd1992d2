"""``stats``: what an archive holds, counted the same way from an index or a scan.

Each game becomes one row of a temporary SQLite table (:data:`ROW_TABLE`),
from the index's ``games`` table or from the facts of a scanned archive,
with what the counts need worked out once, in Python, the same way for
both: who won, who moved first, whether a dropped cube ended the game, the
opening's heads. Every count is then one SQL query over that table, so an
index and a scan of the same archive give the same numbers, and the counts
never hold the whole archive in memory.

The rules have no draws: a game is won by the side that won on the board,
else by the side its written result names (a resignation), else it is
open. A dropped cube ends the game with a loss for the side that dropped.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from hexhop.engine.base import HeaderError
from hexhop.engine.games import rules_for
from hexhop.messages import N_
from hexhop.notation.findings import CATALOGUE, NotationError
from hexhop.notation.games import lookup_game
from hexhop.notation.reader import parse_action
from hexhop.records.checking import CheckOptions

from .counting import People, tags_of, tags_sql
from .facts import GameFacts
from .index import (
    NUMBER,
    NUMBER_OR_NULL,
    OPENING,
    TEXT,
    TEXT_OR_NULL,
    actions_of,
    guarded_rows,
    path_of,
)
from .query import Query, matching_games, register

ROW_TABLE = "stat_games"
MAX_DEPTH = OPENING  # the index keeps this many actions as text
START_TAGS = ("First", "Position", "Board", "Reserve")  # what decides who moves first
MAX_BINS = 12  # bars of a length histogram
SEPARATOR = "\x1f"  # between the actions of an opening's head (a cube offer has a space)


@dataclass(frozen=True)
class StatRow:
    """One game as the counts see it."""

    path: str
    game: str | None
    board: int | None
    result: str | None
    winner: str | None  # the side that won (on the board, else by the written result)
    mover: str | None  # the side that moved first
    dropped: bool  # a dropped cube ended the game
    plies: int
    first: str  # the player of the game's first side (North, Red)
    second: str
    codes: str  # the findings' codes, space separated
    actions: tuple[str, ...]  # the first actions, as many as the opening tree needs
    # from an analysed index: the missed wins and the actions that allowed a
    # win, of the first side and of the second (None: the game was not analysed)
    missed: tuple[int, int] | None = None
    blunders: tuple[int, int] | None = None
    moves: str = ""  # every action, space separated: what the same game shares
    tags: tuple[tuple[str, str], ...] = ()  # the tags a names file's conditions ask for


def stat_row(
    path: str,
    game: str | None,
    board: int | None,
    tags: dict[str, str],
    result: str | None,
    board_winner: str | None,
    plies: int,
    players: list[str],
    codes: str,
    actions: list[str],
    last: str | None,
    missed: tuple[int, int] | None = None,
    blunders: tuple[int, int] | None = None,
) -> StatRow:
    """The row of one game; ``tags`` needs only :data:`START_TAGS`, ``last``
    is the game's last action (or cube event)."""
    spec = lookup_game(game)
    winner = board_winner
    if winner is None and spec is not None and result in ("1-0", "0-1"):
        winner = spec.sides[0] if result == "1-0" else spec.sides[1]
    start = tuple(tags.get(name) for name in START_TAGS)
    first, second = (players + ["?", "?"])[:2]
    return StatRow(
        path,
        game,
        board,
        result,
        winner,
        first_mover(game, start, actions[0] if actions else None),
        last == "drop" and winner is not None,
        plies,
        first,
        second,
        codes,
        tuple(actions),
        missed,
        blunders,
    )


@lru_cache(maxsize=4096)
def first_mover(game: str | None, start: tuple[str | None, ...], action: str | None) -> str | None:
    """The side to move in the game's start position, found as the replay
    finds it (the Position and First tags, else the first action's die);
    None when the start cannot be read."""
    spec = lookup_game(game)
    if spec is None:
        return None
    rules = rules_for(spec.name)
    tags = {name: value for name, value in zip(START_TAGS, start) if value is not None}
    try:
        item = parse_action(action, spec.name) if action else None
    except NotationError:  # an action the game cannot read: the start does without it
        item = None
    try:
        return rules.start(tags, item).to_move
    except HeaderError:  # a header the rules refuse: the replay could not start either
        return None


# -- rows from an index or from facts ----------------------------------------


def facts_row(path: str, game: GameFacts, depth: int) -> StatRow:
    row = stat_row(
        path,
        game.game,
        game.board,
        game.tags,
        game.result,
        game.winner,
        game.plies,
        game.players,
        " ".join(game.codes),
        game.actions[:depth],
        game.actions[-1] if game.actions else None,
    )
    return dataclasses.replace(row, moves=" ".join(game.actions), tags=tuple(game.tags.items()))


def index_rows(
    db: sqlite3.Connection, path: str, query: Query, depth: int, wanted: Collection[str] = ()
) -> Iterator[StatRow]:
    """The rows of the index's games that ``query`` matches, in archive
    order; each row's path is the file's identity (its real path); each
    brings the tags ``wanted`` (a names file's conditions)."""
    register(db)
    where, args = query.sql()
    tags = ", ".join(
        f"(SELECT value FROM tags t WHERE t.game = g.id AND t.name = '{name}')"
        for name in START_TAGS
    )
    sql = (
        "SELECT f.real, g.game, g.board, g.result, g.winner, g.plies, g.first, g.second,"
        f" g.codes, g.opening, g.actions, {tags},"
        " EXISTS (SELECT 1 FROM analyses a WHERE a.game = g.id),"
        " (SELECT group_concat(n.kind || ' ' || n.side, ',') FROM notes n"
        "  WHERE n.game = g.id AND n.kind IN ('missed', 'allows')),"
        f" {tags_sql(wanted)}"
        f" FROM games g JOIN files f ON f.id = g.file WHERE {where} ORDER BY f.seq, g.number"
    )
    for row in guarded_rows(db, path, sql, args, ROW_TYPES):
        analysed = _notes_by_side(row[1], row[-3], row[-2])
        opening = joined_cube(row[9].split(" ")) if row[9] else []
        # the opening is the whole game when it is shorter than the index keeps
        whole = opening if len(opening) < OPENING else actions_of(row[9], row[10])
        last = whole[-1] if whole else None
        start = dict(zip(START_TAGS, row[11:]))
        made = stat_row(
            path_of(row[0], path),
            row[1],
            row[2],
            {k: v for k, v in start.items() if v is not None},
            row[3],
            row[4],
            row[5],
            [row[6], row[7]],
            row[8],
            opening[:depth],
            last,
            *analysed,
        )
        moves = " ".join(actions_of(row[9], row[10]))
        yield dataclasses.replace(made, moves=moves, tags=tags_of(row[-1]))


def _notes_by_side(
    game: str | None, analysed: int, notes: str | None
) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
    """(missed, allowed) of the first side and the second, from the index's
    notes (``kind side,kind side``); None for a game not analysed."""
    spec = lookup_game(game)
    if not analysed or spec is None:
        return None, None
    counts = {(kind, side): 0 for kind in ("missed", "allows") for side in spec.sides}
    for note in (notes or "").split(","):
        if note in {f"{kind} {side}" for kind, side in counts}:
            kind, side = note.split(" ", 1)
            counts[kind, side] += 1
    first, second = spec.sides
    return (
        (counts["missed", first], counts["missed", second]),
        (counts["allows", first], counts["allows", second]),
    )


# the types of the values of an index row (index_rows)
ROW_TYPES = (
    (TEXT, TEXT_OR_NULL, NUMBER_OR_NULL, TEXT_OR_NULL, TEXT_OR_NULL, NUMBER, TEXT, TEXT, TEXT)
    + (TEXT, TEXT)
    + (TEXT_OR_NULL,) * len(START_TAGS)
    + (NUMBER, TEXT_OR_NULL, TEXT)
)


def archive_rows(
    paths: list[str],
    query: Query,
    options: CheckOptions,
    globs: tuple[str, ...],
    depth: int,
    on_games: Callable[[int], None] | None = None,
) -> Iterator[StatRow | str]:
    """The rows of an archive read now, of the games ``query`` matches; a
    source that cannot be read comes as its message (``on_games``: as
    :func:`.query.archive_games` tells it)."""
    yield from matching_games(
        paths, query, options, globs, lambda facts, hit: facts_row(hit.path, facts, depth), on_games
    )


def joined_cube(tokens: list[str]) -> list[str]:
    """Actions split at spaces, with each cube offer (``double 2``) made whole again."""
    actions: list[str] = []
    for token in tokens:
        if actions and actions[-1] == "double":
            actions[-1] += " " + token
        else:
            actions.append(token)
    return actions


# -- the counts ----------------------------------------------------------------


def _heads(depth: int) -> list[str]:
    return [f"h{level}" for level in range(1, depth + 1)]


def row_table(rows: Iterable[StatRow], depth: int) -> sqlite3.Connection:
    """A temporary database holding ``rows`` (it spills to disk when large)."""
    db = sqlite3.connect("")
    heads = _heads(depth)
    db.execute(
        f"CREATE TABLE {ROW_TABLE} (game TEXT, board INTEGER, result TEXT, winner TEXT,"
        " side0 TEXT, side1 TEXT, mover TEXT, dropped INTEGER, plies INTEGER, first TEXT,"
        " second TEXT, codes TEXT, missed0 INTEGER, missed1 INTEGER, blunders0 INTEGER,"
        f" blunders1 INTEGER{''.join(f', {h} TEXT' for h in heads)})"
    )
    marks = ", ".join("?" * (16 + depth))
    insert = f"INSERT INTO {ROW_TABLE} VALUES ({marks})"
    batch: list[tuple[Any, ...]] = []
    for row in rows:
        spec = lookup_game(row.game)
        prefixes = [
            SEPARATOR.join(row.actions[:level]) if len(row.actions) >= level else None
            for level in range(1, depth + 1)
        ]
        batch.append(
            (
                row.game,
                row.board,
                row.result,
                row.winner,
                spec.sides[0] if spec else None,
                spec.sides[1] if spec else None,
                row.mover,
                int(row.dropped),
                row.plies,
                row.first,
                row.second,
                row.codes,
                *(row.missed or (None, None)),
                *(row.blunders or (None, None)),
                *prefixes,
            )
        )
        if len(batch) >= 1000:
            db.executemany(insert, batch)
            batch.clear()
    db.executemany(insert, batch)
    return db


def collect(db: sqlite3.Connection, depth: int, top: int, limit: int) -> dict[str, Any]:
    """Every count, as the JSON output gives it; the opening trees are read
    from ``db`` as they are walked (:class:`Children`): walk them once,
    before ``db`` is closed, or take :func:`plain` of the counts."""
    return {
        "games": db.execute(f"SELECT count(*) FROM {ROW_TABLE}").fetchone()[0],
        "by_game": _by_game(db),
        "lengths": _lengths(db),
        "players": _players(db, limit),
        "openings": _openings(db, depth, top),
        "findings": _findings(db),
    }


def _kind(game: str | None, board: int | None) -> dict[str, Any]:
    return {"game": game, "board": f"{board}x{board}" if board else None}


def _order(item: dict[str, Any]) -> tuple[int, str, int]:
    """Games and boards as ``_by_game`` lists them: the most games first."""
    board = item["board"]
    return -item["games"], item["game"] or "", int(board.split("x")[0]) if board else 0


def _sides(game: str | None) -> tuple[str, str]:
    spec = lookup_game(game)
    # the keys of the JSON output; the tables translate them
    return spec.sides if spec else (N_("first"), N_("second"))


def _by_game(db: sqlite3.Connection) -> list[dict[str, Any]]:
    """Per game and board: the written results and who won, by the side that moved first."""
    out = []
    sql = (
        "SELECT game, board, count(*), sum(ifnull(result = '1-0', 0)),"
        " sum(ifnull(result = '0-1', 0)), sum(ifnull(result = '*', 0)), sum(result IS NULL),"
        " sum(ifnull(winner = mover, 0)), sum(ifnull(winner != mover, 0)),"
        " sum(winner IS NOT NULL AND mover IS NULL), sum(winner IS NULL), sum(dropped)"
        f" FROM {ROW_TABLE} GROUP BY game, board ORDER BY count(*) DESC, game, board"
    )
    for game, board, games, *counts in db.execute(sql):
        one, zero, star, none, mover_won, other_won, unknown, open_, dropped = counts
        decided = mover_won + other_won
        out.append(
            {
                **_kind(game, board),
                "games": games,
                "results": {"1-0": one, "0-1": zero, "*": star, "none": none},
                "first_mover_won": mover_won,
                "second_mover_won": other_won,
                "won_mover_unknown": unknown,
                "open": open_,
                "dropped": dropped,
                "first_mover_rate": round(mover_won / decided, 4) if decided else None,
            }
        )
    return out


def _lengths(db: sqlite3.Connection) -> list[dict[str, Any]]:
    """Per game and board: the plies' range, mean and median, and a histogram
    (the same width of bars for every game)."""
    counts: dict[tuple[str | None, int | None], list[tuple[int, int]]] = {}
    sql = f"SELECT game, board, plies, count(*) FROM {ROW_TABLE} GROUP BY game, board, plies"
    for game, board, plies, games in db.execute(sql):
        counts.setdefault((game, board), []).append((plies, games))
    out = []
    every = [plies for values in counts.values() for plies, _ in values]
    # one width for every game, so that their histograms can be compared
    width = bin_width(min(every), max(every)) if every else 1
    for (game, board), values in counts.items():
        values.sort()
        total = sum(n for _, n in values)
        low, high = values[0][0], values[-1][0]
        start = low - low % width
        bins = [0] * ((high - start) // width + 1)
        for plies, games in values:
            bins[(plies - start) // width] += games
        out.append(
            {
                **_kind(game, board),
                "games": total,
                "min": low,
                "max": high,
                "mean": round(sum(p * n for p, n in values) / total, 2),
                "median": _median(values, total),
                "bins": [
                    {"from": start + i * width, "to": start + (i + 1) * width - 1, "games": n}
                    for i, n in enumerate(bins)
                ],
            }
        )
    out.sort(key=_order)
    return out


def _median(values: list[tuple[int, int]], total: int) -> float:
    """The median of sorted (value, count) pairs."""
    middle: list[int] = []
    seen = 0
    for value, count in values:
        for wanted in sorted({(total - 1) // 2, total // 2}):
            if seen <= wanted < seen + count:
                middle.append(value)
        seen += count
    return sum(middle) / len(middle)


def bin_width(low: int, high: int) -> int:
    """A round width (1, 2, 5, 10, 20, 50…) giving at most :data:`MAX_BINS` bars."""
    size = 1
    while True:
        for step in (1, 2, 5):
            if (high - (low - low % (size * step))) // (size * step) + 1 <= MAX_BINS:
                return size * step
        size *= 10


def _players(db: sqlite3.Connection, limit: int) -> list[dict[str, Any]]:
    """Each player (by the name as written; ``?`` left out): games, won,
    lost (of them: by dropping the cube), open, and the score (won / decided)."""
    sql = (
        "SELECT name, count(*), sum(ifnull(winner = side, 0)), sum(ifnull(winner != side, 0)),"
        " sum(ifnull(winner != side AND dropped, 0)), sum(winner IS NULL),"
        " count(missed), ifnull(sum(missed), 0), ifnull(sum(blunders), 0)"
        f" FROM (SELECT first AS name, side0 AS side, winner, dropped, missed0 AS missed,"
        f" blunders0 AS blunders FROM {ROW_TABLE}"
        f" UNION ALL SELECT second, side1, winner, dropped, missed1, blunders1 FROM {ROW_TABLE})"
        " WHERE name != '?' GROUP BY name"
    )
    # from an analysed index: the games analysed, missed wins and actions
    # that allowed a win, per player
    analysed = db.execute(f"SELECT 1 FROM {ROW_TABLE} WHERE missed0 IS NOT NULL").fetchone()
    players = []
    for name, games, won, lost, dropped, open_, looked, missed, blunders in db.execute(sql):
        decided = won + lost
        player = {
            "name": name,
            "games": games,
            "won": won,
            "lost": lost,
            "dropped": dropped,
            "open": open_,
            "score": round(won / decided, 4) if decided else None,
        }
        if analysed:
            player.update({"analysed": looked, "missed": missed, "blunders": blunders})
        players.append(player)
    players.sort(key=lambda p: (-p["games"], -(p["score"] or 0), p["name"]))
    return players[:limit] if limit else players


def by_person(players: list[dict[str, Any]], people: People) -> list[dict[str, Any]]:
    """The players counted by key (:func:`.counting.identified` rows), each
    named by the name shown for the key, with every spelling met and its
    count; most games first, level players by the name shown."""
    shown = people.shown_names()
    named = [
        {
            **player,
            "name": shown.get(player["name"], player["name"]),
            "spellings": people.spellings_of(player["name"]),
        }
        for player in players
    ]
    named.sort(key=lambda p: (-p["games"], -(p["score"] or 0), p["name"]))
    return named


NODE_TABLE = "stat_nodes"  # the opening trees' nodes kept, worked out in SQL


def _openings(db: sqlite3.Connection, depth: int, top: int) -> list[dict[str, Any]]:
    """Per game and board, a tree of the ``top`` most played actions at each
    of the first ``depth`` plies, with the games that went on each way.

    The nodes are counted and chosen in SQL (:data:`NODE_TABLE`, in the
    temporary database, which spills to disk), level by level: at each,
    the ``top`` most played of each kept node's children. The trees'
    ``children`` are :class:`Children`, read from there as they are walked
    (once, in order), so a tree of any size is never held whole."""
    _choose_nodes(db, depth, top)
    roots = []
    sql = f"SELECT game, board, count(*) FROM {ROW_TABLE} GROUP BY game, board"
    for game, board, games in db.execute(sql).fetchall():
        rows = _Rows(
            db.execute(
                f"SELECT level, prefix, games, won0, won1, open FROM {NODE_TABLE}"
                " WHERE game IS ? AND board IS ? ORDER BY path",
                (game, board),
            )
        )
        children = Children(rows, 1, _sides(game))
        roots.append({**_kind(game, board), "games": games, "children": children})
    return sorted(roots, key=_order)


def _choose_nodes(db: sqlite3.Connection, depth: int, top: int) -> None:
    """Fill :data:`NODE_TABLE`: the nodes kept at each level, each with the
    path that sorts the tree depth first (its rank under each ancestor)."""
    db.execute(
        f"CREATE TABLE {NODE_TABLE} (level INTEGER, game TEXT, board INTEGER, prefix TEXT,"
        " games INTEGER, won0 INTEGER, won1 INTEGER, open INTEGER, path TEXT)"
    )
    db.execute(f"CREATE INDEX {NODE_TABLE}_prefix ON {NODE_TABLE} (level, prefix)")
    for level in range(1, depth + 1):
        head, parent = f"h{level}", f"h{level - 1}" if level > 1 else "NULL"
        counted_ = (
            f"SELECT game, board, {parent} AS parent, {head} AS prefix, count(*) AS games,"
            " sum(ifnull(winner = side0, 0)) AS won0, sum(ifnull(winner != side0, 0)) AS won1,"
            f" sum(winner IS NULL) AS open FROM {ROW_TABLE} WHERE {head} IS NOT NULL"
            f" GROUP BY game, board, {head}"
        )
        # the most games first; among equals, the first action in text order
        ranked = (
            "SELECT *, row_number() OVER (PARTITION BY game, board, parent"
            f" ORDER BY games DESC, prefix) AS rank FROM ({counted_})"
        )
        if level == 1:
            kept = f"SELECT n.*, printf('%08d', n.rank) AS path FROM ({ranked}) n WHERE rank <= ?"
        else:
            kept = (
                f"SELECT n.*, p.path || printf('%08d', n.rank) AS path FROM ({ranked}) n"
                f" JOIN {NODE_TABLE} p ON p.level = {level - 1} AND p.prefix = n.parent"
                " AND p.game IS n.game AND p.board IS n.board WHERE n.rank <= ?"
            )
        db.execute(
            f"INSERT INTO {NODE_TABLE} SELECT {level}, game, board, prefix, games, won0, won1,"
            f" open, path FROM ({kept})",
            (top,),
        )


class _Rows:
    """A cursor over the nodes of a tree, depth first, that can look ahead one row."""

    def __init__(self, cursor: sqlite3.Cursor):
        self.cursor = cursor
        self.ahead: tuple[Any, ...] | None = cursor.fetchone()

    def level(self) -> int:
        """The level of the next row (0: no more)."""
        return self.ahead[0] if self.ahead is not None else 0

    def take(self) -> tuple[Any, ...]:
        row = self.ahead
        assert row is not None
        self.ahead = self.cursor.fetchone()
        return row


class Children(list):  # type: ignore[type-arg]
    """The children of an opening tree's node, read from :data:`NODE_TABLE`
    as they are walked: a list to ``json`` and to the tables, but one that
    can be walked only once, in order, while the counts' database is open."""

    def __init__(self, rows: _Rows, level: int, sides: tuple[str, str]):
        super().__init__()
        self.rows, self.level, self.sides = rows, level, sides

    def __bool__(self) -> bool:
        return self.rows.level() == self.level

    def __len__(self) -> int:
        return int(bool(self))  # 0 or "some": how many is not known before the walk

    def __iter__(self) -> Iterator[dict[str, Any]]:
        side0, side1 = self.sides
        while self.rows.level() == self.level:
            _level, prefix, games, won0, won1, open_ = self.rows.take()
            yield {
                "action": prefix.rsplit(SEPARATOR, 1)[-1],
                "games": games,
                "wins": {side0: won0, side1: won1},
                "open": open_,
                "children": Children(self.rows, self.level + 1, self.sides),
            }
            while self.rows.level() > self.level:  # descendants not walked
                self.rows.take()


def plain(value: Any) -> Any:
    """``value`` with every :class:`Children` read into a list (for a
    caller that walks the trees more than once)."""
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value


def _findings(db: sqlite3.Connection) -> list[dict[str, Any]]:
    """Each finding code: the games that have it and how often it was found."""
    games: dict[str, int] = {}
    found: dict[str, int] = {}
    sql = f"SELECT codes, count(*) FROM {ROW_TABLE} WHERE codes != '' GROUP BY codes"
    for codes, count in db.execute(sql):
        listed = codes.split(" ")
        for code in set(listed):
            games[code] = games.get(code, 0) + count
        for code in listed:
            found[code] = found.get(code, 0) + count
    return [
        {
            "code": code,
            "severity": CATALOGUE[code].severity if code in CATALOGUE else None,
            "games": games[code],
            "found": found[code],
        }
        for code in sorted(games, key=lambda c: (-games[c], c))
    ]
