"""The analysis the index keeps (``index --analyse``), and what is read from it.

For every game ``analyse`` would look at, the index keeps (docs/archive.md):

* ``analyses``: that the game was analysed, to which depth, within which
  limits (``--max-nodes``, ``--max-seconds``), and how many plies;
* ``notes``: its notes (missed wins, actions that allowed a win, searches
  left undecided, where the analysis stopped): ply, side, kind, the depth
  of the win and its first choice, the action played and where it is;
* ``solved``: for each position searched, the solver's answer for the side
  to move (``win`` with the depth of its shortest win, ``none`` or
  ``undecided`` with the depth searched completely). ``puzzles --db``
  searches again only the positions that can be puzzles;
* ``puzzle_facts`` (made by the first ``index --analyse`` that needs it):
  for each position with a win, its winning first choices (the fewest own
  actions of each, and whether it is a roll), the solution line when one
  choice gives the shortest win, and its difficulty facts and motifs
  (:class:`~hexhop.records.puzzles.Study`). ``puzzles --db`` reads them
  instead of searching, and searches only the positions without them.

A game is analysed again only when its file changed (its games are then
new) or a deeper ``--depth`` or larger limits are asked. A shallower
request keeps the deeper analysis: each note it holds with a win of at most
the shallower depth is one an analysis to that depth makes too (a win found
within d is one within any larger depth; an action that wins within no D
own actions wins within no d <= D), and ``find``, ``stats`` and ``puzzles``
read it that way.
"""

from __future__ import annotations

import glob
import hashlib
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hexhop.messages import _
from hexhop.notation.errors import ArgumentError
from hexhop.notation.numbers import ascii_int
from hexhop.records.errors import RecordsError

from .index import (
    NUMBER,
    PUZZLE_SCHEMA,
    TEXT,
    IndexProblem,
    _transaction,
    container,
    damaged,
    guard,
    guarded_rows,
    path_of,
)

if TYPE_CHECKING:
    from hexhop.records.analysis import FileAnalysis, Note, Settings
    from hexhop.records.puzzles import Study
    from hexhop.records.sources import Source


class NotAnalysed(RecordsError):
    """The index holds no analysis (or not deep enough) for what was asked:
    the message says what to run. Commands exit with 2."""

    exit_code = 2


@dataclass(frozen=True)
class Limits:
    """What an analysis searched: the depth and the limits per position."""

    depth: int
    max_nodes: int
    max_seconds: float


@dataclass
class StoredFile:
    """A file of the index whose games need (another) analysis."""

    id: int
    path: str  # as the index shows it
    real: str  # its identity
    digest: str
    games: int  # the games to analyse


@dataclass
class AnalysisSummary:
    """What ``index --analyse`` did."""

    files: int = 0  # files analysed now
    games: int = 0  # games analysed now
    kept: int = 0  # games whose stored analysis answers the request
    problems: list[str] = field(default_factory=list)


def wanted(limits: Limits) -> tuple[str, list[object]]:
    """The condition (over ``analyses a``, left joined to ``games``) of a
    game whose stored analysis does not answer ``limits``, and its parameters."""
    return (
        "(a.game IS NULL OR a.depth < ? OR a.max_nodes < ? OR a.max_seconds < ?)",
        [limits.depth, limits.max_nodes, limits.max_seconds],
    )


def files_to_analyse(
    db: sqlite3.Connection, path: str, limits: Limits, roots: list[str]
) -> tuple[list[StoredFile], int]:
    """The files (under ``roots``, the real paths of the ARCHIVE paths) with
    games to analyse, in archive order; and the games kept as they are."""
    from .query import under_any

    condition, args = wanted(limits)
    sql = (
        f"SELECT f.id, f.path, f.real, f.digest, sum({condition}), count(*)"
        " FROM files f JOIN games g ON g.file = f.id LEFT JOIN analyses a ON a.game = g.id"
        " GROUP BY f.id ORDER BY f.seq"
    )
    found, kept = [], 0
    types = (NUMBER, TEXT, TEXT, TEXT, NUMBER, NUMBER)
    for file_id, shown, real, digest, redo, games in guarded_rows(db, path, sql, args, types):
        real = path_of(real, path)
        if roots and not under_any(real, roots):
            continue
        kept += games - redo
        if redo:
            found.append(StoredFile(file_id, path_of(shown, path), real, digest, redo))
    return found, kept


def source_of(stored: StoredFile) -> tuple[Source | None, str | None]:
    """The :class:`~hexhop.records.sources.Source` of a stored file, read
    again; and why it cannot be analysed (it changed or is gone), or None."""
    from hexhop.records.sources import Source, iter_sources, read_source

    holder = container(stored.real)
    data: bytes | None = None
    if holder == stored.real:
        data = read_source(stored.real).data
    else:
        member = stored.real[len(holder) + 1 :]
        for source in iter_sources([holder], globs=(glob.escape(member),)):
            if source.path == stored.real:
                data = source.data
    digest = hashlib.blake2b(data or b"", digest_size=16).hexdigest()
    if data is None or digest != stored.digest:
        why = _(
            "{path} changed or is gone since it was indexed: not analysed; run hexhop index again"
        ).format(path=stored.path)
        return None, why
    return Source(stored.path, data), None


def store(
    db: sqlite3.Connection, path: str, file_id: int, analysis: FileAnalysis, limits: Limits
) -> int:
    """Keep the analysis of one file (a
    :class:`~hexhop.records.analysis.FileAnalysis`) for its games in the
    index, in one transaction; the number of games stored."""
    with guard(db, path, None):
        ids = dict(db.execute("SELECT number, id FROM games WHERE file = ?", (file_id,)))
    stored = 0
    with guard(db, path, None), _transaction(db):
        for game in analysis.games:
            game_id = ids.get(game.index)
            if game_id is None:
                continue
            for table in ("analyses", "notes", "solved", "puzzle_facts"):
                db.execute(f"DELETE FROM {table} WHERE game = ?", (game_id,))
            db.execute(
                "INSERT INTO analyses (game, depth, max_nodes, max_seconds, analysed)"
                " VALUES (?, ?, ?, ?, ?)",
                (game_id, limits.depth, limits.max_nodes, limits.max_seconds, game.analysed),
            )
            db.executemany(
                "INSERT INTO notes (game, kind, ply, side, depth, first, played, line, col)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (game_id, n.kind, n.ply, n.side, n.depth, n.first, n.played, n.line, n.column)
                    for n in game.notes
                ],
            )
            db.executemany(
                "INSERT INTO solved (game, ply, status, depth) VALUES (?, ?, ?, ?)",
                [(game_id, ply, status, depth) for ply, status, depth in game.solved],
            )
            stored += 1
    return stored


def analyse_index(
    db: sqlite3.Connection,
    path: str,
    paths: list[str],
    limits: Limits,
    jobs: int = 1,
    game: str | None = None,
    on_file: Callable[[AnalysisSummary], None] | None = None,
    started: Callable[[int], None] | None = None,
    summary: AnalysisSummary | None = None,
    dask: str | None = None,
) -> AnalysisSummary:
    """Analyse the games of the index (under ``paths``) whose stored
    analysis does not answer ``limits``, a file at a time, each file's
    analysis kept in a transaction of its own. ``started`` is told the
    number of games to analyse, ``on_file`` the summary after each file;
    ``summary``: the one to count in (a run stopped still has it);
    ``dask``: analysed on the Dask scheduler at that address (stored here)."""
    from hexhop.records.analysis import Settings, analyse_sources
    from hexhop.records.sources import Source

    from .query import real_roots

    summary = summary if summary is not None else AnalysisSummary()
    if "-" in paths:  # read once, as it came: there is nothing to read again
        summary.problems.append(
            _("standard input cannot be read again: its games are not analysed")
        )
        paths = [path for path in paths if path != "-"]
        if not paths:
            return summary
    with guard(db, path, None):
        db.executescript(PUZZLE_SCHEMA)  # an index analysed before puzzles were kept
    todo, summary.kept = files_to_analyse(db, path, limits, real_roots(paths))
    if started is not None:
        started(sum(f.games for f in todo))
    settings = Settings(limits.depth, limits.max_nodes, limits.max_seconds, game)
    readable: list[tuple[StoredFile, Source]] = []

    def sources() -> Iterator[Source]:
        for stored in todo:
            source, why = source_of(stored)
            if source is None:
                summary.problems.append(why or stored.path)
                continue
            readable.append((stored, source))
            yield source

    # closed here when stopped (Ctrl-C, SIGTERM): the worker processes or
    # the Dask cluster end now, not when the program's last objects go
    with closing(analyse_sources(sources(), settings, jobs, dask=dask)) as analyses:
        for number, analysis in enumerate(analyses):
            stored, source = readable[number]
            readable[number] = (stored, Source(source.path, b""))  # its data is no longer needed
            if analysis.error is not None:
                summary.problems.append(f"{stored.path}: {analysis.error}")
            else:
                summary.games += store(db, path, stored.id, analysis, limits)
                store_studies(db, path, stored.id, source, analysis, settings)
                summary.files += 1
            if on_file is not None:
                on_file(summary)
    return summary


def store_studies(
    db: sqlite3.Connection,
    path: str,
    file_id: int,
    source: Source,
    analysis: FileAnalysis,
    settings: Settings,
) -> None:
    """Keep what the puzzles need of each position of the file's games
    where the analysis found a win (``puzzle_facts``), in one transaction."""
    from hexhop.records.puzzles import source_studies

    wanted = {
        game.index: tuple(ply for ply, status, _depth in game.solved if status == "win")
        for game in analysis.games
    }
    wanted = {number: plies for number, plies in wanted.items() if plies}
    if not wanted:  # no win found: nothing to read again
        return
    studies = source_studies(source, settings, wanted)
    with guard(db, path, None):
        ids = dict(db.execute("SELECT number, id FROM games WHERE file = ?", (file_id,)))
    rows = [
        (ids[number], ply, _winners_text(kept.winners), " ".join(kept.solution))
        + (kept.defences, kept.decoys, " ".join(kept.motifs))
        for (number, ply), kept in studies.items()
        if number in ids
    ]
    with guard(db, path, None), _transaction(db):
        db.executemany(
            "INSERT OR REPLACE INTO puzzle_facts (game, ply, winners, solution,"
            " defences, decoys, motifs) VALUES (?, ?, ?, ?, ?, ?, ?)",
            rows,
        )


def _winners_text(winners: tuple[tuple[int, bool], ...] | None) -> str:
    """``2 3r``: the fewest own actions of each winning first choice, ``r``
    after a roll; ``?`` when the search was undecided."""
    if winners is None:
        return "?"
    return " ".join(f"{depth}{'r' if roll else ''}" for depth, roll in winners)


def _winners_of(text: str) -> tuple[tuple[int, bool], ...] | None:
    """:func:`_winners_text` read back; :class:`ArgumentError` (a ValueError)
    when it is not such a text."""
    if text == "?":
        return None
    found = []
    for word in text.split(" ") if text else ():
        roll = word.endswith("r")
        depth = ascii_int(word[:-1] if roll else word, max_digits=2)
        if depth is None or depth < 1:
            raise ArgumentError(text)
        found.append((depth, roll))
    return tuple(found)


# -- reading it -------------------------------------------------------------------


def analysed_games(db: sqlite3.Connection, path: str) -> tuple[int, int]:
    """(games analysed, games) of the index."""
    with guard(db, path):
        analysed = db.execute("SELECT count(*) FROM analyses").fetchone()[0]
        games = db.execute("SELECT count(*) FROM games").fetchone()[0]
    return int(analysed), int(games)


def require_analysis(db: sqlite3.Connection, path: str, option: str) -> str | None:
    """:class:`NotAnalysed` with what to run when the index holds no
    analysis; a warning when some of its games were not analysed."""
    analysed, games = analysed_games(db, path)
    if not analysed:
        raise NotAnalysed(
            _(
                "{option} answers from an analysed index, and {db} holds no analysis: "
                "run `hexhop index ARCHIVE --db {db} --analyse` first"
            ).format(option=option, db=path)
        )
    if analysed < games:
        return _(
            "warning: {missing} of {games} games of {db} are not analysed: run "
            "`hexhop index ARCHIVE --db {db} --analyse` again"
        ).format(missing=games - analysed, games=games, db=path)
    return None


def files_by_digest(db: sqlite3.Connection, path: str) -> dict[str, list[int]]:
    """The ids of the index's files by their digest (one pass over ``files``,
    which has no index on it): the files a hit of ``find`` may be."""
    found: dict[str, list[int]] = {}
    for file_id, digest in guarded_rows(
        db, path, "SELECT id, digest FROM files", (), (NUMBER, TEXT)
    ):
        found.setdefault(digest, []).append(file_id)
    return found


def stored_notes(
    db: sqlite3.Connection,
    path: str,
    files: list[int],
    number: int,
    kinds: tuple[str, ...],
    depth: int,
) -> list[Note]:
    """The stored notes of these ``kinds`` (missed, allows) with a win of at
    least ``depth`` own actions of game ``number`` of ``files`` (copies of
    one file: :func:`files_by_digest`), by ply (a missed win before the win
    it allowed), each with its words in the language spoken now (``find
    --missed-win``). One look-up of the games' and the notes' keys."""
    from hexhop.notation.games import GAMES, lookup_game
    from hexhop.records.analysis import stored_note

    kinds = tuple(kind for kind in kinds if kind in ("missed", "allows"))
    if not kinds or not files:
        return []
    marks = ", ".join("?" for _kind in kinds)
    copies = ", ".join("?" for _file in files)
    # a file indexed twice (two copies) holds the same games: its notes once
    sql = (
        "SELECT n.kind, n.ply, n.side, n.depth, n.first, n.played, n.line, n.col, g.game"
        " FROM games g JOIN notes n ON n.game = g.id"
        f" WHERE g.file IN ({copies}) AND g.number = ? AND n.kind IN ({marks}) AND n.depth >= ?"
        " GROUP BY n.kind, n.ply ORDER BY n.ply, n.kind = 'allows'"
    )
    types = (TEXT, NUMBER, TEXT, NUMBER, TEXT, TEXT, NUMBER, NUMBER, (str, type(None)))
    notes = []
    rows = guarded_rows(db, path, sql, [*files, number, *kinds, depth], types)
    for kind, ply, side, won, first, played, line, column, game in rows:
        spec = lookup_game(game)
        sides = spec.sides if spec else GAMES[0].sides
        notes.append(stored_note(kind, ply, side, won, first, played, line, column, sides))
    return notes


@dataclass(frozen=True)
class Candidate:
    """A position of a stored game that may be a puzzle (``puzzles --db``)."""

    path: str
    real: str
    digest: str
    number: int  # the game in its file
    plies: tuple[int, ...]  # the positions (0: the start) where a win may lie within the depth


def candidates(db: sqlite3.Connection, path: str, depth: int) -> Iterator[Candidate]:
    """The games of the index, in archive order, with the positions whose
    stored answer leaves a win within ``depth`` possible: a win found
    within it, or a search left undecided before it. :class:`NotAnalysed`
    when a game was analysed less deep than ``depth``."""
    with guard(db, path):
        shallow = db.execute(
            "SELECT min(depth) FROM analyses WHERE depth < ?", (depth,)
        ).fetchone()[0]
    if shallow is not None:
        raise NotAnalysed(
            _(
                "{db} was analysed to depth {stored}: run `hexhop index ARCHIVE --db {db} "
                "--analyse --depth {depth}` for puzzles of depth {depth}"
            ).format(db=path, stored=shallow, depth=depth)
        )
    sql = (
        "SELECT f.path, f.real, f.digest, g.number,"
        " (SELECT group_concat(s.ply, ' ') FROM solved s WHERE s.game = g.id AND"
        " ((s.status = 'win' AND s.depth <= ?) OR (s.status = 'undecided' AND s.depth < ?))),"
        " NOT EXISTS (SELECT 1 FROM solved s WHERE s.game = g.id)"
        " FROM games g JOIN files f ON f.id = g.file JOIN analyses a ON a.game = g.id"
        " ORDER BY f.seq, g.number"
    )
    types = (TEXT, TEXT, TEXT, NUMBER, (str, type(None)), NUMBER)
    rows = guarded_rows(db, path, sql, (depth, depth), types)
    for shown, real, digest, number, plies, unsearched in rows:
        if unsearched:
            # no position searched: a game without an action (the analysis
            # looks at actions), or one that cannot be replayed; its start
            # is looked at as a search looks at it
            yield Candidate(path_of(shown, path), path_of(real, path), digest, number, (0,))
        elif plies:
            words = plies.split(" ")
            found = tuple(
                sorted(n for n in (ascii_int(w, max_digits=9) for w in words) if n is not None)
            )
            if len(found) < len(words):
                value = repr(plies[:40])
                raise damaged(
                    path,
                    _("{table}.{column} holds {value}").format(
                        table="solved", column="ply", value=value
                    ),
                )
            yield Candidate(path_of(shown, path), path_of(real, path), digest, number, found)


def kept_studies(
    db: sqlite3.Connection, path: str, wanted: dict[tuple[str, int], tuple[int, ...]]
) -> dict[str, dict[tuple[int, int], Study]]:
    """What ``puzzle_facts`` keeps of the positions ``wanted`` (by the
    file's real path and the game's number, the plies): by the file's
    path as the index shows it, then (game number, ply). Nothing from an
    index analysed before puzzles were kept."""
    from hexhop.records.puzzle_choice import ALL_MOTIFS
    from hexhop.records.puzzles import Study

    with guard(db, path):
        made = db.execute(
            "SELECT count(*) FROM sqlite_master WHERE name = 'puzzle_facts'"
        ).fetchone()[0]
    found: dict[str, dict[tuple[int, int], Study]] = {}
    if not made:
        return found
    sql = (
        "SELECT f.path, f.real, g.number, p.ply, p.winners, p.solution, p.defences, p.decoys,"
        " p.motifs FROM puzzle_facts p JOIN games g ON g.id = p.game JOIN files f ON f.id = g.file"
    )
    types = (TEXT, TEXT, NUMBER, NUMBER, TEXT, TEXT, NUMBER, NUMBER, TEXT)
    for row in guarded_rows(db, path, sql, (), types, table="puzzle_facts"):
        shown, real, number, ply, winners_text, solution, defences, decoys, motifs = row
        if ply not in wanted.get((path_of(real, path), number), ()):
            continue
        named = motifs.split(" ") if motifs else []
        try:
            winners = _winners_of(winners_text)
        except ValueError:
            raise _damaged_column(path, "winners", winners_text) from None
        if not all(m in ALL_MOTIFS for m in named):
            raise _damaged_column(path, "motifs", motifs)
        if defences < 0 or decoys < 0:
            raise _damaged_column(path, "defences", min(defences, decoys))
        study = Study(
            winners, tuple(solution.split(" ")) if solution else (), defences, decoys, tuple(named)
        )
        found.setdefault(path_of(shown, path), {})[number, ply] = study
    return found


def _damaged_column(path: str, column: str, value: object) -> IndexProblem:
    return damaged(
        path,
        _("{table}.{column} holds {value}").format(
            table="puzzle_facts", column=column, value=repr(str(value)[:40])
        ),
    )
