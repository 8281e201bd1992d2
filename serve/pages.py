"""The archive's pages: search, games, players, events (the editor is in
:mod:`.editor`)."""

from __future__ import annotations

import hashlib
import re
import threading
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

from markupsafe import Markup
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from hexhop.archive.query import game_texts
from hexhop.messages import N_
from hexhop.notation.numbers import ASCII_DIGITS, ascii_int

from . import data
from .i18n import language_of, speaking
from .search import form_filters, read_search
from .settings import Settings
from .templating import page

MAX_ID = 2**62  # a game id SQLite can hold
MAX_NAME = 1_000  # characters of a player's or event's name in a path
LISTED = 200  # games listed on a player's or event's page (the rest: in the search)
STANDINGS_PAGE = 50  # players on a page of an event's crosstable listing and ratings
MAX_PAGE_DIGITS = 6  # of ?page= on an event's page (a larger number: the last page)
BOARD_STYLE = re.compile(r"<style>(.*?)</style>", re.S)
_styles: dict[str, str] = {}
_styles_lock = threading.Lock()


def settings_of(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def db_of(request: Request) -> str:
    return str(settings_of(request).db)


# -- the archive -----------------------------------------------------------------


def archive(request: Request) -> Response:
    lang = language_of(request)
    with speaking(lang):
        search = read_search(request.query_params)
    total, rows = 0, list[data.Row]()
    if search.problem is None:
        total, rows = data.search(
            db_of(request), search.query, search.sort, search.reverse, search.page
        )
    pages = max(1, -(-total // data.PAGE_SIZE))

    def sort_link(key: str) -> str:
        reverse = search.sort == key and not search.reverse
        return "/?" + urlencode(search.params(sort=("-" if reverse else "") + key, page=None))

    def page_link(number: int) -> str:
        return "/?" + urlencode(search.params(page=number if number > 1 else None))

    return page(
        request,
        "archive.html",
        400 if search.problem else 200,
        search=search,
        values=search.values,
        total=total,
        rows=rows,
        pages=pages,
        first=(search.page - 1) * data.PAGE_SIZE + 1,
        sort_link=sort_link,
        page_link=page_link,
        editor_link=editor_link(search.values),
        filters=form_filters(),
    )


def editor_link(values: dict[str, str]) -> str:
    """The editor with a new game of the search's game and board, to enter
    an opening by clicks (``setup.js`` keeps it in step with the form)."""
    params = {name: values[name] for name in ("game", "board") if values.get(name)}
    return "/editor" + ("?" + urlencode(params) if params else "")


# -- a game ----------------------------------------------------------------------


@dataclass
class Mark:
    """A finding shown in the record text."""

    number: int
    code: str
    severity: str
    message: str
    line: int | None
    column: int | None


# the severities of the analysis's notes marked in the record text (a
# finding's are error and warning); their Mark.number is 0
NOTE_MARKS = ("missed", "allows")


@dataclass
class Segment:
    text: str
    marks: list[Mark] = field(default_factory=list)

    @property
    def title(self) -> str:
        return "\n".join(f"{m.code}: {m.message}" for m in self.marks)

    @property
    def severity(self) -> str:
        return "error" if any(m.severity == "error" for m in self.marks) else "warning"

    @property
    def classes(self) -> str:
        """``finding error`` or ``finding warning`` when a finding is marked
        here, else ``note allows`` or ``note missed`` (the analysis's)."""
        if any(m.severity not in NOTE_MARKS for m in self.marks):
            return f"finding {self.severity}"
        return "note allows" if any(m.severity == "allows" for m in self.marks) else "note missed"

    @property
    def findings(self) -> str:
        return "".join(f"{m.number} " for m in self.marks if m.number)


@dataclass
class TextLine:
    number: int
    segments: list[Segment]


def _game_id(request: Request) -> int:
    game_id: int = request.path_params["game_id"]
    if game_id < 1 or game_id > MAX_ID:
        raise HTTPException(404)
    return game_id


def _game(request: Request) -> tuple[data.Row, Any]:
    found = data.game_row(db_of(request), _game_id(request))
    if found is None:
        raise HTTPException(404)
    return found


# findings listed and marked on a game's page: a record with a finding every
# few bytes would otherwise make a page of megabytes (``hexhop check`` lists all)
FINDINGS_SHOWN = 200
# lines of a record shown on its page (each becomes markup of its own); the
# whole text is a link away, at /games/ID/record
LINES_SHOWN = 2_000


def game(request: Request) -> Response:
    from hexhop.engine.replay import replay_game
    from hexhop.notation.reader import decode, fallback_game, parse_game
    from hexhop.records.limits import MAX_SHOWN_ACTIONS, actions_in
    from hexhop.records.viewer import page_data
    from hexhop.render.html import viewer_parts

    row, hit = _game(request)
    lang = language_of(request)
    with speaking(lang):  # a file changed since it was indexed: told in the page's language
        raw = next(iter(game_texts([hit])))
    text = decode(raw)[0]
    with speaking(lang):
        parsed = parse_game(text, hit.line, hit.number, fallback_game(hit.path, None))
        report = replay_game(parsed)
        viewer = None
        too_many = actions_in(report.record) > MAX_SHOWN_ACTIONS  # as render --format html
        analysis = _analysis(db_of(request), row.id, report, lines=not too_many)
        if report.game is not None and report.positions and not too_many:
            if analysis.lines:  # the missed wins' lines, to step through
                viewer, analysis.starts = _with_lines(parsed, report, analysis.lines)
            else:
                viewer = page_data(report)
        findings = [
            Mark(number, f.code, f.severity, f.message, f.line, f.column)
            for number, f in enumerate(report.findings[:FINDINGS_SHOWN], 1)
        ]
    shown_text, first_line, more_lines = _shown_text(text, hit.line)
    body = block = style = ""
    if viewer is not None:
        head = viewer.drawings.head
        found = BOARD_STYLE.search(head)
        if found:
            style = _keep_style(found.group(1))
            viewer.drawings.head = head[: found.start()] + head[found.end() :]
        with speaking(lang):  # the viewer's words in the page's language
            body, block = viewer_parts(viewer)
        body = body.replace('<main class="viewer">', '<div class="viewer">', 1)
        body = body[: body.rindex("</main>")] + "</div>\n"
    record = report.record
    tags = [(tag.name, tag.value) for tag in record.tags] if record is not None else []
    db = db_of(request)
    return page(
        request,
        "game.html",
        row=row,
        hit=hit,
        tags=tags,
        findings=findings,
        unshown=len(report.findings) - len(findings),
        viewer_limit=MAX_SHOWN_ACTIONS if too_many else 0,
        lines=_marked(shown_text, first_line, findings + analysis.marks()),
        more_lines=more_lines,
        viewer=Markup(body),
        viewer_data=Markup(block),
        board_style=style,
        valid=report.valid(),
        notes=analysis.notes,
        starts=analysis.starts,
        moments=analysis.moments,
        analysed=data.analysed(db, row.id),
        sides=_sides(row.game),
        player_link=player_link,
        event_link=event_link,
    )


# the winning lines of missed wins a game page shows: at most this many, each
# searched within these limits (the index has the depth and the first action)
WIN_LINES_SHOWN = 8
LINE_NODES = 20_000
LINE_SECONDS = 0.5
LINES_SECONDS = 1.0  # all of a page's lines


@dataclass
class _Analysis:
    """The stored analysis of a game as its page shows it: the notes in
    words, the critical moments (ply, words), the missed wins' lines and
    the viewer frames they start at."""

    notes: list[Any] = field(default_factory=list)
    moments: list[tuple[int, str]] = field(default_factory=list)
    lines: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    starts: dict[int, int] = field(default_factory=dict)

    def marks(self) -> list[Mark]:
        return [
            Mark(0, "??" if n.kind == "allows" else "?", n.kind, n.message, n.line, n.column)
            for n in self.notes
            if n.line
        ]


def _analysis(db: str, game_id: int, report: Any, lines: bool) -> _Analysis:
    """The stored analysis of the game of ``report``, in the language spoken
    now; with ``lines``, the winning lines of its missed wins searched."""
    from hexhop.records.analysis import critical_moments, moment_words, stored_note, winning_lines

    sides = _sides(report.game)
    notes = [
        stored_note(
            n["kind"],
            n["ply"],
            n["side"],
            n["depth"],
            n["first"],
            n["played"],
            n["line"],
            n["col"],
            sides,
        )
        for n in data.notes_of(db, game_id)
        if n["kind"] in NOTE_MARKS
    ]
    notes.sort(key=lambda note: (note.ply, note.kind == "allows"))  # as analyse tells them
    found = _Analysis(notes)
    positions = report.positions
    if positions:
        solved = [row for row in data.solved_of(db, game_id) if row[0] < len(positions)]
        moments = critical_moments(notes, solved, lambda ply: str(positions[ply].to_move))
        found.moments = [(m.ply, moment_words(m, notes)) for m in moments]
        missed = [(n.ply, n.depth) for n in notes if n.kind == "missed"][:WIN_LINES_SHOWN]
        if lines:
            found.lines = winning_lines(report, missed, LINE_NODES, LINE_SECONDS, LINES_SECONDS)
    return found


def _with_lines(
    parsed: Any, report: Any, lines: dict[int, tuple[Any, ...]]
) -> tuple[Any, dict[int, int]]:
    """The viewer's page data with the lines as variations (the record it
    offers to download stays the game's own), and the frame each starts at."""
    from dataclasses import replace

    from hexhop.engine.replay import replay_game
    from hexhop.messages import _
    from hexhop.notation.writer import format_record
    from hexhop.records.viewer import line_starts, page_data, with_lines

    shown = page_data(replay_game(with_lines(parsed, lines, _("the win missed (analysis)"))))
    record = format_record(report.record) if report.record else ""
    shown = replace(shown, record=record)
    return shown, line_starts(shown, lines)


def _sides(game: str | None) -> tuple[str, str]:
    from hexhop.notation.games import GAMES, lookup_game

    spec = lookup_game(game)
    return spec.sides if spec is not None else GAMES[0].sides  # the registry's first game


def _keep_style(css: str) -> str:
    """The name under which the board's stylesheet ``css`` is served (/boards/NAME.css)."""
    name = hashlib.sha256(css.encode("utf-8")).hexdigest()[:16]
    with _styles_lock:
        if name not in _styles and len(_styles) < 64:
            _styles[name] = css
    return name


def board_style(request: Request) -> Response:
    name = request.path_params["name"]
    with _styles_lock:
        css = _styles.get(name)
    if css is None:
        raise HTTPException(404)
    return Response(
        css,
        media_type="text/css; charset=utf-8",
        headers={"Cache-Control": "max-age=86400, immutable"},
    )


def _shown_text(text: str, first_line: int) -> tuple[str, int, int]:
    """The part of a game's text its page shows: without the blank lines
    before it, at most :data:`LINES_SHOWN` lines; its first line's number,
    and how many lines are left out after it."""
    content = len(text) - len(text.lstrip(" \t\r\n"))  # where the first non-blank is
    cut = text.rfind("\n", 0, content) + 1  # the start of its line
    if cut:
        first_line += text.count("\n", 0, cut)
        text = text[cut:]
    end = -1
    for _line in range(LINES_SHOWN):
        end = text.find("\n", end + 1)
        if end < 0:
            return text, first_line, 0
    rest = text[end + 1 :]
    return text[: end + 1], first_line, rest.count("\n") + (not rest.endswith("\n") and bool(rest))


def _marked(text: str, first_line: int, findings: list[Mark]) -> list[TextLine]:
    """The record's lines (numbered as in its file), each cut into segments,
    the findings' places marked: from a finding's column to the end of its
    span on the same line, else to the end of the word there."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    by_line: dict[int, list[tuple[int, int, Mark]]] = {}
    for mark in findings:
        if mark.line is None or mark.column is None:
            continue
        index = mark.line - first_line
        if not 0 <= index < len(lines):
            continue
        line = lines[index].rstrip("\r")
        start = min(max(mark.column - 1, 0), max(len(line) - 1, 0))
        end = start + 1
        while end < len(line) and not line[end].isspace():
            end += 1
        by_line.setdefault(index, []).append((start, end, mark))
    out = []
    for index, line in enumerate(lines):
        line = line.rstrip("\r")
        spans = sorted(by_line.get(index, []), key=lambda item: (item[0], item[1]))
        segments: list[Segment] = []
        at = 0
        merged: list[tuple[int, int, list[Mark]]] = []
        for start, end, mark in spans:
            if merged and start < merged[-1][1]:
                low, high, marks = merged[-1]
                merged[-1] = (low, max(high, end), [*marks, mark])
            else:
                merged.append((start, end, [mark]))
        for start, end, marks in merged:
            if start > at:
                segments.append(Segment(line[at:start]))
            segments.append(Segment(line[start:end] or " ", marks))
            at = end
        if at < len(line) or not segments:
            segments.append(Segment(line[at:]))
        out.append(TextLine(first_line + index, segments))
    return out


def record(request: Request) -> Response:
    """The game's own text, as a file to save."""
    row, hit = _game(request)
    with speaking(language_of(request)):
        raw = next(iter(game_texts([hit])))
    from hexhop.notation.games import lookup_game
    from hexhop.notation.reader import decode

    text = decode(raw)[0]
    extension = getattr(lookup_game(row.game), "extension", ".txt")  # the registry's
    name = f"game-{row.id}{extension}"
    return Response(
        text.encode("utf-8"),
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


# -- players and events ------------------------------------------------------------


def _name(request: Request) -> str:
    name: str = request.path_params["name"]
    if not name or len(name) > MAX_NAME:
        raise HTTPException(404)
    return name


def _named(request: Request, everything: list[data.Named]) -> tuple[str, list[data.Named]]:
    """The ``?q=`` of a players' or events' page and the entries whose name
    holds it, accents and ``ue`` for ``ü`` alike (as the archive's search)."""
    wanted = request.query_params.get("q", "").strip()[:MAX_NAME]
    if not wanted:
        return wanted, everything
    from hexhop.archive.names import fold, fold_ue

    folded, ue = fold(wanted), fold_ue(wanted)
    return wanted, [e for e in everything if folded in fold(e.name) or ue in fold_ue(e.name)]


def players(request: Request) -> Response:
    """One row per player (key), with the name shown and the spellings;
    ``?q=`` finds players as ``find --player`` does (any of their spellings)."""
    everyone = data.players(db_of(request))
    wanted = request.query_params.get("q", "").strip()[:MAX_NAME]
    shown = everyone
    if wanted:
        from hexhop.archive.query import names_match, player_pattern

        pattern = player_pattern(wanted, "q")
        shown = [
            row
            for row in everyone
            if any(names_match(pattern, spelling, row.key) for spelling, _n in row.spellings)
        ]
    return page(
        request,
        "players.html",
        wanted=wanted,
        players=shown[:500],
        total=len(shown),
        everyone=len(everyone),
        link=player_link,
    )


def player_link(name: str) -> str:
    """The page of a player, by key (or by a spelling: the page finds its key)."""
    return "/players/" + quote(name, safe="")


def event_link(name: str) -> str:
    return "/events/" + quote(name, safe="")


@dataclass
class Year:
    year: str
    games: int = 0
    won: int = 0
    lost: int = 0
    open: int = 0

    @property
    def score(self) -> str:
        return f"{self.won}/{self.won + self.lost}" if self.won + self.lost else "–"


OUTCOMES = (N_("won"), N_("lost"), N_("open"))


def _outcome(row: data.Row, key: str) -> str:
    """``won``, ``lost`` or ``open``: the game for the player ``key``."""
    from hexhop.archive.standings import winner_of

    sides = _sides(row.game)
    winner = winner_of(row.game, row.result, row.winner)
    if winner is None:
        return "open"
    own = sides[0] if row.first_key == key else sides[1]
    if row.first_key == key and row.second_key == key:
        return "open"
    return "won" if winner == own else "lost"


def player(request: Request) -> Response:
    """A player's page (by key, or by a spelling): every game of the
    player however spelled, the score by year and the spellings."""
    db = db_of(request)
    who = data.player_of(db, _name(request))
    if who is None:
        raise HTTPException(404)
    rows = data.games_of_player(db, who.key)
    if not rows:
        raise HTTPException(404)
    years: dict[str, Year] = {}
    total = Year("")
    outcomes = []
    for row in rows:
        outcome = _outcome(row, who.key)
        outcomes.append(outcome)
        year = (row.date or "")[:4]
        year = year if ascii_int(year) is not None else "?"
        for counted in (years.setdefault(year, Year(year)), total):
            counted.games += 1
            setattr(counted, outcome, getattr(counted, outcome) + 1)
    return page(
        request,
        "player.html",
        name=who.name,
        spellings=who.spellings,
        rows=rows,
        games=list(zip(rows, outcomes))[:LISTED],
        search="/?" + urlencode({"player": who.name}),
        outcomes=True,
        years=sorted(years.values(), key=lambda y: (y.year == "?", y.year)),
        total=total,
        player_link=player_link,
        event_link=event_link,
    )


def events(request: Request) -> Response:
    everything = data.events(db_of(request))
    wanted, shown = _named(request, everything)
    return page(
        request,
        "events.html",
        wanted=wanted,
        events=shown[:500],
        total=len(shown),
        everything=len(everything),
        link=event_link,
    )


def event(request: Request) -> Response:
    """An event's crosstable, its players' ratings after it and its games,
    counted as ``hexhop crosstable --event`` and ``hexhop ratings --event``
    count them: a player is a person (key and names file), each game once.
    A crosstable of more than :data:`~hexhop.archive.standings.MAX_TABLE_PLAYERS`
    players is the listing of each player's games, and it and the ratings
    come :data:`STANDINGS_PAGE` players to a page (``?page=``)."""
    from hexhop.archive.counting import count_once
    from hexhop.archive.standings import MAX_TABLE_PLAYERS, Crosstable, heading, legend

    name = _name(request)
    db = db_of(request)
    rows = data.games_of_event(db, name)
    if not rows:
        raise HTTPException(404)
    names = data.names_of(db)
    counted = count_once([g for g in data.standing_games(db) if g.event == name], names)
    table = Crosstable.of(counted.games)
    ratings = [
        (ratings_list.kind, player, ratings_list.ratings[player], ratings_list.change[player])
        for ratings_list in _ratings_after(db, name)
        for player in ratings_list.players()
    ]
    pages = max(1, -(-max(len(table.players), len(ratings)) // STANDINGS_PAGE))
    number = _page_number(request, pages)
    shown = slice((number - 1) * STANDINGS_PAGE, number * STANDINGS_PAGE)
    return page(
        request,
        "event.html",
        name=name,
        title=heading(counted.games, name),
        set_aside=counted.once.set_aside,
        legend=legend(table.tie_breaks),
        rows=rows,
        games=[(row, "") for row in rows[:LISTED]],
        search="/?" + urlencode({"event": name}),
        outcomes=False,
        table=table,
        listed=list(enumerate(table.players, 1))[shown],
        ratings=ratings[shown],
        max_table_players=MAX_TABLE_PLAYERS,
        page_number=number,
        pages=pages,
        page_link=lambda n: request.url.path + ("?" + urlencode({"page": n}) if n > 1 else ""),
        player_link=player_link,
        event_link=event_link,
    )


def _ratings_after(db: str, name: str) -> Any:
    """The rating lists after the event ``name``, as ``hexhop ratings
    --event`` gives them: over the whole index up to the event's last game
    in date order, one list per game, each game once."""
    from hexhop.archive.counting import count_once
    from hexhop.archive.standings import rate_lists

    every = data.cached(
        db, "counted_games", lambda: count_once(data.standing_games(db), data.names_of(db)).games
    )
    return rate_lists(every, event=lambda event: event == name)


def _page_number(request: Request, pages: int) -> int:
    """``?page=``, between 1 and ``pages``: ASCII digits only (else the
    first page; too many digits: the last)."""
    given = request.query_params.get("page", "1")
    number = ascii_int(given, max_digits=MAX_PAGE_DIGITS)
    if number is None:
        too_many = given != "" and not given.strip(ASCII_DIGITS)  # ASCII digits, too many
        return pages if too_many else 1
    return min(max(number, 1), pages)


def viewer_file(request: Request) -> Response:
    """The viewer's script and style, as ``render --format html`` shares them."""
    from hexhop.render.html import shared_file

    name = request.url.path.rsplit("/", 1)[1]
    kind = "text/javascript" if name.endswith(".js") else "text/css"
    return Response(
        shared_file(name),
        media_type=f"{kind}; charset=utf-8",
        headers={"Cache-Control": "no-cache"},
    )


def routes() -> list[BaseRoute]:
    return [
        Route("/", archive, name="archive"),
        Route("/static/viewer.js", viewer_file, name="viewer_js"),
        Route("/static/viewer.css", viewer_file, name="viewer_css"),
        Route("/games/{game_id:int}", game, name="game"),
        Route("/games/{game_id:int}/record", record, name="record"),
        Route("/boards/{name:str}.css", board_style, name="board_style"),
        Route("/players", players, name="players"),
        Route("/players/{name:path}", player, name="player"),
        Route("/events", events, name="events"),
        Route("/events/{name:path}", event, name="event"),
    ]
