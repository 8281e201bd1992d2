"""The editor: enter a game by clicking (docs/serve.md, "Editor").

``/editor`` is the page; ``/api/editor/…`` answer its script in JSON. The
server keeps no game between requests: every request sends the record
text and the cursor (see :mod:`hexhop.records.editing`), and every answer
gives the canonical text back with the board, the legal clicks and the
checker's findings. The browser implements no rule: the click groups
come from the engine's list of legal actions.

Every posted record is read within the limits of ``hexhop check``
(docs/safety.md); ``/api/editor/save`` writes a new file into one of the
served folders, never over an existing one, and indexes it.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import anyio
import anyio.to_thread
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from hexhop.engine.base import Position
from hexhop.messages import N_, side_name, to_move, wins
from hexhop.messages import _ as spoken
from hexhop.notation.boards import board_label
from hexhop.notation.findings import Finding
from hexhop.notation.games import GAMES, find_game
from hexhop.notation.model import DiceAction, HopAction, Node, ParsedGame, Record
from hexhop.notation.numbers import ascii_int
from hexhop.records import editing
from hexhop.records.editing import Draft, EditError
from hexhop.records.errors import RecordsError
from hexhop.records.sources import Limits

from .data import game_row
from .i18n import language_of, speaking, translator
from .names import checked_name
from .refused import Refused, shown
from .security import MAX_BODY
from .settings import Settings
from .templating import JsonAnswer, json_block, page

Json = dict[str, Any]  # a JSON object as posted or answered
MAX_ACTIONS = 10_000  # in a record the editor edits, variations included (check: 100,000)
# the limits of hexhop check for every posted record, but for its actions: every
# request reads the whole record and answers its whole state, so its size bounds the work
LIMITS = Limits(max_actions=MAX_ACTIONS)
BOARD_PIXELS = 520
MAX_ADDRESS = 2 * LIMITS.max_depth + 1  # numbers in a cursor
MAX_TAGS = 50
# the tags form: (tag, the games it is for, its label); the players' tags
# of every game come between them, from the registry (:func:`tag_fields`)
FIELDS_BEFORE = (
    ("Event", "all", N_("Event")),
    ("Site", "all", N_("Site")),
    ("Date", "all", N_("Date")),
    ("Round", "all", N_("Round")),
)
FIELDS_AFTER = (
    ("First", "dice", N_("First to move")),
    ("Board", "huepfer", N_("Board")),
    ("Result", "all", N_("Result")),
    ("Termination", "all", N_("Termination")),
    ("Annotator", "all", N_("Annotator")),
)
# what the page's script says, in the page's language
WORDS = {
    "pickDie": N_("Point at a die to see where it can go; click it, then its target."),
    "pickPiece": N_("Click a piece, then each point it lands on."),
    "nextHop": N_(
        "Click the next landing point, or a free point beside the piece for the newborn piece."
    ),
    "roll": N_("Roll it:"),
    "promote": N_("Turn it into a 6"),
    "keep": N_("Keep the 2"),
    "which": N_("Which move?"),
    "branch": N_("The next move starts a variation."),
    "answer": N_("Take or drop the cube first."),
    "over": N_("The game is over."),
    "broken": N_("Correct the record text to go on entering moves."),
    "failed": N_("The server could not answer this request."),
    "open": N_("Open its page in the archive"),
    "readOnly": N_("The server is read-only: nothing can be saved."),
}
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,39}")
_STYLE = re.compile(r"<style>.*?</style>", re.S)
_SAVING = threading.Lock()  # one save (and its indexing) at a time
# threads of the editor's work, apart from those of the pages (Starlette's 40):
# more editor requests at once wait for a thread of these, never the pages
WORKERS = anyio.CapacityLimiter(4)

# -- messages (translated where they are told)

BAD_REQUEST = N_("The request is not what the editor sends.")
CANNOT_EDIT = N_("This cannot be done.")
UNREADABLE = N_("The record text cannot be read; see the findings.")
TOO_LARGE = N_(
    "This game is larger than the editor takes ({most} KiB): download its record "
    "and edit it with a text editor."
)
HAS_ERRORS = N_("The record has errors; correct them before saving.")
NO_FOLDER = N_("There is no such folder to save into.")
TAG_CONTROL = N_("The tag {tag} cannot hold {character}: a record holds no control characters.")
COMMENT_CONTROL = N_("A comment cannot hold {character}: a record holds no control characters.")
READS_OTHERWISE = N_("{path} does not read back as the record written: nothing was written.")
TEXT_UNWRITABLE = N_("The record text holds {character}, which no record file can hold.")
EXISTS = N_("A file of that name exists already: choose another name.")
NOT_WRITTEN = N_("The file could not be written.")
SAVED = N_("Saved as {path}.")
NOT_INDEXED = N_("Saved as {path}, but the index could not be brought up to date.")
NO_GAME = N_("The archive has no game with that number.")


# -- the page -----------------------------------------------------------------------------


def editor_page(request: Request) -> Response:
    """The editor, with a new game, or with the archive's game ``?from=ID``."""
    lang = language_of(request)
    _ = translator(lang)
    settings: Settings = request.app.state.settings
    source = request.query_params.get("from")
    game = request.query_params.get("game")
    problem = ""
    status = 200
    with speaking(lang):
        try:
            if source:
                draft, cursor = _from_archive(settings, source)
            else:
                draft, cursor = _new_game(game, request.query_params.get("board", "")), ()
            state = _state(draft, cursor, lang)
        except Refused as refused:
            problem, status = translator(lang)(refused.message), refused.status
            if refused.params:
                problem = problem.format(**refused.params)
            state = _state(editing.new_game("Hexalit"), (), lang)
    folders = [
        {"index": i, "name": folder.name or str(folder)}
        for i, folder in enumerate(settings.folders)
    ]
    return page(
        request,
        "editor.html",
        status_code=status,
        state=json_block("editor-state", state),
        find=state["find"],
        problem=problem,
        folders=folders,
        fields=tag_fields(),
        **new_game_choices(),
        words=json_block("editor-words", {k: _(v) for k, v in WORDS.items()}),
        results=editing.RESULTS,
    )


def tag_fields() -> list[tuple[str, str, str]]:
    """The tags form's fields: the players' tags are each game's sides, as
    the game registry names them (labelled by the side's name)."""
    sides = dict.fromkeys((side, spec.family) for spec in GAMES for side in spec.sides)
    return [*FIELDS_BEFORE, *((side, family, side) for side, family in sides), *FIELDS_AFTER]


def new_game_choices() -> Json:
    """What the new-game form offers, read from the registries when the
    page is made (a board added to :mod:`hexhop.notation.boards` is offered):
    each game and its family, the board sizes and the games played on them,
    the sides that may move first and the games where they choose."""
    on_boards = [spec for spec in GAMES if spec.board_sizes]
    dice = [spec for spec in GAMES if spec.family == "dice"]
    sizes = sorted({size for spec in on_boards for size in spec.board_sizes})
    return {
        "games": [{"name": spec.name, "family": spec.family} for spec in GAMES],
        "boards": [board_label(size) for size in sizes],
        "board_games": ", ".join(spec.name for spec in on_boards),
        "first_sides": list(dict.fromkeys(side for spec in dice for side in spec.sides)),
        "first_games": ", ".join(spec.name for spec in dice),
    }


def _new_game(game: str | None, board: str) -> Draft:
    """A new game of ``game`` on ``board`` (``8x8`` or ``8``), as the
    archive's search chose them: without a game, the game played on that
    board (else Hexalit); a board the game is not played on is left out."""
    first, cross, second = board.strip().lower().partition("x")
    size = (ascii_int(first, max_digits=3) or 0) if second in ("", first) else 0
    if game:
        spec = find_game(_game_name(game))
    else:
        spec = next((g for g in GAMES if size in g.board_sizes), find_game("Hexalit"))
    tags = {"Board": f"{size}x{size}"} if size in spec.board_sizes else {}
    return editing.new_game(spec.name, tags)


def _from_archive(settings: Settings, given: str) -> tuple[Draft, editing.Address]:
    """The game of the index with id ``given``, and the cursor at its end."""
    from hexhop.archive.query import game_texts
    from hexhop.notation.reader import decode

    game_id = ascii_int(given)
    if game_id is None:
        raise Refused(404, NO_GAME)
    found = game_row(str(settings.db), game_id)
    if found is None:
        raise Refused(404, NO_GAME)
    hit = found[1]
    try:
        [data] = list(game_texts([hit]))
    except RecordsError as error:
        raise Refused(404, NO_GAME, str(error)) from None
    text = decode(data)[0].lstrip(" \t\r\n")  # the blank lines before a game are not its own
    if len(text.encode("utf-8")) > MAX_BODY:  # more than the editor could send back
        raise Refused(413, TOO_LARGE, most=MAX_BODY // 1024)
    reading = editing.read_text(text, LIMITS, game=hit.game)
    if reading.draft is None:
        raise Refused(422, UNREADABLE)
    return reading.draft, editing.last_address(reading.draft.record)


# -- the state the page shows -------------------------------------------------------------


def _state(draft: Draft, cursor: editing.Address, lang: str, branch: bool = False) -> Json:
    """Everything the page shows for the draft at the cursor (in ``lang``,
    which the caller speaks)."""
    from hexhop.render.last_action import describe_last
    from hexhop.render.svg import board_svg

    record = draft.record
    cursor = editing.clamp(record, cursor)
    position = editing.position_at(record, cursor)
    node = editing.node_at(record, cursor)
    last = None
    if node is not None and isinstance(node.item, (DiceAction, HopAction)):
        before = editing.position_at(record, editing.previous(cursor))
        last = describe_last(before, position, node.item)
    picture = board_svg(position, size=BOARD_PIXELS, last=last, click_points=True)
    picture = _STYLE.sub("", picture, count=1)  # the page's CSS has the font (no inline style)
    family = find_game(draft.game).family
    winner = position.winner
    return {
        "ok": True,
        "text": draft.text,
        "game": draft.game,
        "family": family,
        "cursor": list(cursor),
        "branch": branch and bool(cursor or record.main.nodes),
        "previous": list(editing.previous(cursor)) if cursor else None,
        "status": wins(winner) if winner is not None else to_move(position.to_move),
        "next": _list(editing.next_address(record, cursor)),
        "findings": _findings(draft.findings),
        "moves": editing.moves(record),
        "svg": picture,
        "clicks": editing.clicks(position),
        "cube": editing.cube(position),
        "toMove": side_name(position.to_move) if winner is None else None,
        "winner": side_name(winner) if winner is not None else None,
        "position": position.text(),
        "find": search_links(record, cursor, position),
        "comment": editing.comment_at(draft, cursor),
        "tags": draft.tags(),
    }


def line_to(record: Record, address: editing.Address) -> list[Node]:
    """The nodes played from the start to the node at ``address`` (its
    own line's nodes before it, and the lines' nodes it branches from)."""
    nodes: list[Node] = []
    line = record.main
    steps = list(address)
    while steps:
        index = steps.pop(0)
        if steps:  # a variation's node is played instead of the node at ``index``
            nodes += line.nodes[:index]
            line = line.nodes[index].variations[steps.pop(0)]
        else:
            nodes += line.nodes[: index + 1]
    return nodes


def search_links(record: Record, cursor: editing.Address, position: Position) -> Json:
    """The archive's searches for what the cursor shows: ``opening``, the
    games that begin with the actions up to the cursor (``/?after=…``, None
    at the start), and ``position``, the games that reach its position
    (``/?position=…``); both for the record's game (and board). A game
    set up by a Position tag has no opening to search (None): the
    archive's openings are actions from the start."""
    from hexhop.archive.facts import action_text

    scope = {"game": record.game or ""}
    size = getattr(position, "size", None)
    if isinstance(size, int):
        scope["board"] = f"{size}x{size}"
    set_up = any(tag.name.lower() == "position" for tag in record.tags)
    actions = [] if set_up else [action_text(n.item) for n in line_to(record, cursor)]
    return {
        "opening": "/?" + urlencode({"after": " ".join(actions), **scope}) if actions else None,
        "position": "/?" + urlencode({"position": position.text(), **scope}),
    }


def _list(address: editing.Address | None) -> list[int] | None:
    return None if address is None else list(address)


def _findings(findings: tuple[Finding, ...] | list[Finding]) -> list[Json]:
    return [editing.finding_json(f) for f in findings]


# -- the API ------------------------------------------------------------------------------


def _api(work: Callable[[Request, Json, str], Any]) -> Callable[[Request], Any]:
    """An endpoint that reads a JSON object, runs ``work`` in a thread of
    :data:`WORKERS` in the request's language and answers its result as JSON; a
    refusal or an edit that cannot be made is a 4xx with the message."""

    async def endpoint(request: Request) -> Response:
        lang = language_of(request)
        _ = translator(lang)
        body = await request.body()
        try:
            data = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return _refusal(lang, Refused(400, BAD_REQUEST))
        if not isinstance(data, dict):
            return _refusal(lang, Refused(400, BAD_REQUEST))

        def run() -> Any:
            with speaking(lang):
                return work(request, data, lang)

        try:
            answer = await anyio.to_thread.run_sync(run, limiter=WORKERS)
        except Refused as refused:
            return _refusal(lang, refused)
        except EditError as error:
            return JsonAnswer({"error": _(CANNOT_EDIT), "detail": str(error)}, status_code=422)
        if isinstance(answer, Response):
            return answer
        return JsonAnswer(answer)

    return endpoint


def _refusal(lang: str, refused: Refused) -> JsonAnswer:
    params = dict(refused.params)
    findings = params.pop("findings", None)
    message = translator(lang)(refused.message)
    if params:
        message = message.format(**params)
    answer: dict[str, Any] = {"error": message, "detail": refused.detail}
    if findings is not None:
        answer["findings"] = findings
    return JsonAnswer(answer, status_code=refused.status)


def _text(data: Json) -> str:
    """The posted record text; :class:`Refused` when a file could not hold
    it (a NUL makes every reader take the file for binary data, IO02; a
    lone surrogate is no UTF-8)."""
    text = data.get("text")
    if not isinstance(text, str):
        raise Refused(400, BAD_REQUEST, "text")
    found = _UNWRITABLE.search(text)
    if found is not None:
        raise Refused(400, TEXT_UNWRITABLE, character=shown(found.group()))
    return text


# what no record file holds: NUL (binary data to every reader), lone surrogates (no UTF-8)
_UNWRITABLE = re.compile("[\0\ud800-\udfff]")
# what a tag or comment may not hold: control characters (but tab and line
# breaks, which a tag's value turns into spaces) and lone surrogates
_CONTROL = re.compile("[\0-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def _no_control(value: str, message: str, **params: str) -> str:
    """``value``, or :class:`Refused` (400, ``message``) naming the first
    control character in it: a record that holds one is refused by its
    readers (NUL: binary data) or shows what was never typed."""
    found = _CONTROL.search(value)
    if found is not None:
        raise Refused(400, message, character=shown(found.group()), **params)
    return value


def _cursor(data: Json, key: str = "cursor") -> editing.Address:
    cursor = data.get(key, [])
    if (
        not isinstance(cursor, list)
        or len(cursor) > MAX_ADDRESS
        or not all(
            isinstance(i, int) and not isinstance(i, bool) and 0 <= i < 10**7 for i in cursor
        )
    ):
        raise Refused(400, BAD_REQUEST, key)
    return tuple(cursor)


def _string(data: Json, key: str, limit: int, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or len(value) > limit:
        raise Refused(400, BAD_REQUEST, key)
    return value


def _draft(data: Json) -> Draft:
    """The posted record text read as a draft; 422 with the findings when it
    cannot be edited."""
    _cursor(data)  # a cursor that is no cursor is a bad request first
    reading = editing.read_text(_text(data), LIMITS, game=_optional_game(data))
    if reading.draft is None:
        raise Refused(422, UNREADABLE, findings=_findings(reading.findings))
    return reading.draft


def _optional_game(data: Json) -> str | None:
    game = data.get("game")
    if game is None:
        return None
    if not isinstance(game, str):
        raise Refused(400, BAD_REQUEST, "game")
    return _game_name(game)


def _game_name(game: str) -> str:
    try:
        return find_game(game).name
    except ValueError:
        raise Refused(400, BAD_REQUEST, f"game: {game[:40]}") from None


def _tags(data: Json) -> dict[str, str]:
    tags = data.get("tags", {})
    if not isinstance(tags, dict) or len(tags) > MAX_TAGS:
        raise Refused(400, BAD_REQUEST, "tags")
    checked = {}
    for name, value in tags.items():
        if not _TAG_NAME.fullmatch(name) or not isinstance(value, str):
            raise Refused(400, BAD_REQUEST, f"tags: {name[:40]}")
        if len(value) > LIMITS.max_tag_value:
            raise Refused(413, BAD_REQUEST, f"tags: {name}")
        _no_control(value, TAG_CONTROL, tag=name)
        checked[name] = " ".join(value.split())
    return checked


def api_state(request: Request, data: Json, lang: str) -> Json:
    """Typed or pasted text (and a cursor, or ``"at": "end"`` for the end of
    the main line): the state, or the findings that keep it from being
    edited (``ok`` false)."""
    cursor = _cursor(data)
    reading = editing.read_text(_text(data), LIMITS, game=_optional_game(data))
    if reading.draft is None:
        return {"ok": False, "findings": _findings(reading.findings)}
    if data.get("at") == "end":  # typed or pasted: the end of the main line
        cursor = editing.last_address(reading.draft.record)
    return _state(reading.draft, cursor, lang, data.get("branch") is True)


def api_new(request: Request, data: Json, lang: str) -> Json:
    game = _game_name(_string(data, "game", 40))
    draft = editing.new_game(game, _tags(data), LIMITS)
    return _state(draft, (), lang)


def api_play(request: Request, data: Json, lang: str) -> Json:
    draft = _draft(data)
    action = _string(data, "action", LIMITS.max_token)
    draft, cursor = editing.play(draft, _cursor(data), action, branch=data.get("branch") is True)
    return _state(draft, cursor, lang)


def api_take_back(request: Request, data: Json, lang: str) -> Json:
    draft, cursor = editing.take_back(_draft(data), _cursor(data))
    return _state(draft, cursor, lang)


def api_variation(request: Request, data: Json, lang: str) -> Json:
    draft = _draft(data)
    cursor = _cursor(data)
    editing.position_at(draft.record, cursor)  # the cursor is there
    return _state(draft, editing.branch_point(cursor), lang, branch=True)


def api_comment(request: Request, data: Json, lang: str) -> Json:
    draft = _draft(data)
    cursor = _cursor(data)
    comment = _no_control(_string(data, "comment", LIMITS.max_comment), COMMENT_CONTROL)
    draft = editing.set_comment(draft, cursor, comment)
    return _state(draft, cursor, lang)


def api_tags(request: Request, data: Json, lang: str) -> Json:
    draft = editing.set_tags(_draft(data), _tags(data))
    return _state(draft, _cursor(data), lang)


def api_save(request: Request, data: Json, lang: str) -> Response:
    """Write the record as a new file into a served folder, then index it."""
    import hexhop

    settings: Settings = request.app.state.settings
    draft = editing.canonical(_draft(data))
    errors = [f for f in draft.findings if f.severity == "error"]
    if errors:
        raise Refused(422, HAS_ERRORS, findings=_findings(errors))
    folder = _folder(settings, data.get("folder"))
    name = _string(data, "name", 1000, "")
    with _SAVING:
        if name.strip():
            target = folder / checked_name(name, draft.game)
            write_new(target, draft.text.encode("utf-8"), _reads_back(draft, target))
        else:
            target = _write_free(folder, name_from_tags(draft), draft)
        shown = str(target)
        try:
            hexhop.index_paths(str(target), db=settings.db, jobs=1)
        except (RecordsError, OSError) as error:
            message = translator(lang)(NOT_INDEXED).format(path=shown)
            return JsonAnswer(
                {"saved": shown, "indexed": False, "message": message, "detail": str(error)},
                status_code=201,
            )
    message = translator(lang)(SAVED).format(path=shown)
    answer = {
        "saved": shown,
        "indexed": True,
        "message": message,
        "game": _game_id(settings, target),
    }
    return JsonAnswer(answer, status_code=201)


def _game_id(settings: Settings, target: Path) -> int | None:
    """The index's id of the (first) game of the file just indexed."""
    from hexhop.archive.service import first_game_of_last_file

    return first_game_of_last_file(str(settings.db), os.path.realpath(target))


def _folder(settings: Settings, given: object) -> Path:
    """The served folder the request picks by its number; it must still be
    the real folder it was when the server started (not a link now)."""
    if isinstance(given, str):
        given = ascii_int(given, max_digits=5)
    if not isinstance(given, int) or isinstance(given, bool):
        raise Refused(400, NO_FOLDER)
    if not 0 <= given < len(settings.folders):
        raise Refused(400, NO_FOLDER)
    folder = settings.folders[given]
    if os.path.realpath(folder) != str(folder) or not folder.is_dir():
        raise Refused(400, NO_FOLDER)
    return folder


def name_from_tags(draft: Draft) -> str:
    """The stem of the draft's file name, by the one rule of ``split``
    (:func:`hexhop.archive.split.name_from_tags`: ``2024-05-01_Mueller-Keller_r3``),
    or ``game`` when no tag gives a part."""
    from hexhop.archive.split import name_from_tags as from_tags

    return from_tags(draft.tags(), draft.game) or "game"


def _reads_back(draft: Draft, target: Path) -> Callable[[str], None]:
    """The read-back of a saved record: the temporary file, read as a
    reader of ``target`` reads it, must hold the draft's one game (its game
    and main-line actions, as every writer of hexhop checks), and read
    from the file as ``check`` reads a record (binary data refused, its
    encoding told), it must give the draft's text back whole: every tag,
    comment and variation. Else nothing is put in place."""
    from hexhop.archive.verify import Written, verify

    written = Written()
    written.add(ParsedGame(1, draft.record))  # the draft's record is its text as read

    def check(temporary: str) -> None:
        verify(temporary, written, shown=str(target), default_game=draft.game)
        _reads_as_written(temporary, draft, target)

    return check


class ReadsOtherwise(RecordsError):
    """A saved file that a reader does not read as the record written."""


def _reads_as_written(path: str, draft: Draft, target: Path) -> None:
    """Raise :class:`ReadsOtherwise` unless the record file at ``path``,
    read as the commands read a record file
    (:func:`~hexhop.records.sources.read_record`, then the notation
    reader), holds one game whose canonical text is ``draft``'s."""
    from hexhop.notation.reader import decode, parse_text
    from hexhop.notation.writer import format_record
    from hexhop.records.errors import ReadError
    from hexhop.records.limits import read_limits
    from hexhop.records.sources import read_record

    try:
        _name, data = read_record(path, LIMITS.max_file_bytes)
    except ReadError as error:
        raise ReadsOtherwise(str(error).replace(path, str(target))) from None
    text = decode(data)[0]
    games = list(parse_text(text, default_game=draft.game, limits=read_limits(LIMITS)))
    record = games[0].record if len(games) == 1 and games[0].ok else None
    if record is None or format_record(record) != draft.text:
        raise ReadsOtherwise(spoken(READS_OTHERWISE).format(path=target))


def _write_free(folder: Path, stem: str, draft: Draft) -> Path:
    """Write the draft under the first free name ``stem``, ``stem_2``, …,
    numbered as ``split`` numbers (:class:`hexhop.archive.split.Names`)."""
    from hexhop.archive.split import Names

    game = draft.game
    names = Names().candidates(stem, find_game(game).extension)
    for _attempt in range(1000):
        target = folder / checked_name(next(names), game)
        try:
            write_new(target, draft.text.encode("utf-8"), _reads_back(draft, target))
            return target
        except Refused as refused:
            if refused.message != EXISTS:
                raise
    raise Refused(409, EXISTS)


def write_new(target: Path, data: bytes, check: Callable[[str], None] | None = None) -> None:
    """Write ``data`` as the new file ``target`` with the library's writer
    (:func:`hexhop.archive.writing.write_file`: a temporary file beside it,
    read back by ``check``, synced, the umask's mode), never over anything
    that has the name (a file, a link, even a dangling one): :class:`Refused`
    409 then, 500 with the reason when it cannot be written or ``check``
    refuses it."""
    from hexhop.archive.writing import Exists, WriteError, write_file

    try:
        write_file(str(target), data, check=check)
    except Exists:
        raise Refused(409, EXISTS) from None
    except WriteError as error:
        raise Refused(500, NOT_WRITTEN, error.reason) from None
    except RecordsError as error:  # the read-back
        raise Refused(500, NOT_WRITTEN, str(error)) from None


def routes() -> list[BaseRoute]:
    """The editor's routes (``/editor``, ``/api/editor/…``)."""
    api = {
        "state": api_state,
        "new": api_new,
        "play": api_play,
        "takeback": api_take_back,
        "variation": api_variation,
        "comment": api_comment,
        "tags": api_tags,
        "save": api_save,
    }
    return [
        Route("/editor", editor_page, methods=["GET"], name="editor"),
        *(
            Route(f"/api/editor/{name}", _api(work), methods=["POST"], name=f"editor-{name}")
            for name, work in api.items()
        ),
    ]
