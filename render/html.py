"""Interactive viewer pages: one self-contained HTML file per game, and an
index page for an archive, in the language spoken now
(:func:`hexhop.messages.set_language`).

The pages are built from plain data (:class:`Page`, :class:`GameSummary`)
that the caller prepares with the rules; nothing here knows a game or
checks a record. A page needs no network: the style and the script are
inline, and a Content-Security-Policy forbids everything else. The first
position is inline SVG; the script draws every other one from the parts of
the pictures (:class:`Drawings`: the board once, each die or piece once,
each position a list of part numbers), which the page holds as gzipped
JSON that the browser unpacks itself. Every text taken from a record is
escaped, in the HTML and in the embedded data.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from html import escape as _html_escape
from importlib import resources

from hexhop.messages import _, date, language, ngettext, side_name
from hexhop.notation.errors import ArgumentError

from .svg_parts import clip, elements, xml_chars

__all__ = [
    "Drawings",
    "changes",
    "elements",
    "Entry",
    "Frame",
    "GameSummary",
    "LineInfo",
    "MoveLine",
    "Note",
    "Page",
    "SHARED_FILES",
    "shared_file",
    "game_page",
    "index_page",
    "index_labels",
    "viewer_labels",
    "viewer_parts",
]


# ---------------------------------------------------------------------------
# The data a page is made of


@dataclass(frozen=True)
class Note:
    """A finding of the check; ``frame`` is where the viewer shows it (for a
    refused action: the position it was tried in), None when nowhere."""

    code: str
    severity: str  # "error" or "warning"
    message: str
    line: int | None = None
    column: int | None = None
    ply: int | None = None
    frame: int | None = None
    action: str | None = None


@dataclass(frozen=True)
class Frame:
    """One drawn position: after ``label`` (``start`` for the first one).

    ``board``/``board_flipped`` number the parts of its picture in
    :attr:`Page.drawings`, upright and flipped; ``position`` is its Position
    text; ``line``/``index`` place it in
    :attr:`Page.lines`; ``notes`` are the findings about the action that
    led here, ``ahead`` those of a refused action that follows it;
    ``comments`` the comments on that action.
    """

    board: tuple[int, ...]
    board_flipped: tuple[int, ...]
    position: str
    ply: int
    line: int
    index: int
    label: str
    comments: tuple[str, ...] = ()
    notes: tuple[int, ...] = ()
    ahead: tuple[int, ...] = ()


@dataclass(frozen=True)
class LineInfo:
    """A line the viewer can step through: the main line (``base`` None) or
    a variation, whose ``frames`` start with ``base``, the position it
    branches from, which belongs to the ``parent`` line."""

    base: int | None
    parent: int | None
    frames: tuple[int, ...]


@dataclass(frozen=True)
class Entry:
    """One written item in the move list.

    ``state``: ``played`` (``frame`` shows the position after it),
    ``cube`` (a doubling-cube event, no frame of its own), ``illegal`` (the
    rules refused it; the line stops there) or ``unplayed`` (after a refused
    item). ``number`` is the move number to print before it, or "".
    """

    text: str
    number: str
    state: str
    frame: int | None = None
    glyphs: tuple[str, ...] = ()
    comments: tuple[str, ...] = ()
    notes: tuple[int, ...] = ()
    variations: tuple[MoveLine, ...] = ()


@dataclass(frozen=True)
class MoveLine:
    """The move list of a line; ``id`` indexes :attr:`Page.lines` (-1 for a
    variation that could not be played)."""

    id: int
    entries: tuple[Entry, ...]
    comments: tuple[str, ...] = ()


@dataclass(frozen=True)
class Page:
    game: str
    title: str
    sides: tuple[str, str]
    players: tuple[tuple[str, str], ...]
    header: tuple[tuple[str, str], ...]
    tags: tuple[tuple[str, str], ...]
    result: str | None
    outcome: str
    valid: bool
    notes: tuple[Note, ...]
    frames: tuple[Frame, ...]
    lines: tuple[LineInfo, ...]
    main: MoveLine
    drawings: Drawings
    flipped: bool = False
    termination: str = ""
    record: str = ""  # the record's text, for "Download this record"
    record_name: str = "game.txt"

    def svg(self, frame: Frame, *, flipped: bool = False) -> str:
        """The picture of ``frame`` as SVG (what the viewer script draws)."""
        parts = frame.board_flipped if flipped else frame.board
        return self.drawings.svg(parts, frame.ply, frame.position)


@dataclass(frozen=True)
class GameSummary:
    """One game of an archive's index; ``href`` None when it has no page."""

    index: int
    game: str
    players: tuple[tuple[str, str], ...]
    event: str
    date: str
    result: str
    plies: int
    valid: bool
    errors: int = 0
    warnings: int = 0
    href: str | None = None
    source: str = ""


# ---------------------------------------------------------------------------
# Static parts


@cache
def _asset(name: str) -> str:
    """``viewer.css`` or ``viewer.js`` without comments and indentation: every
    page carries them, and an archive has hundreds of pages."""
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    lines = (line.strip() for line in text.splitlines())
    if name.endswith(".css"):
        # a declaration may go on over a line end: join the lines with a space
        text = " ".join(" ".join(lines).split())  # one space between words
        for mark in "{};,":
            text = text.replace(f" {mark}", mark).replace(f"{mark} ", mark)
        return re.sub(r"([{;][\w-]+):\s+", r"\1:", text).strip() + "\n"
    return "\n".join(line for line in lines if line and not line.startswith("//")) + "\n"


def _script_hash(script: str) -> str:
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def _csp(script: str | None, shared: bool = False) -> str:
    """The policy: nothing from anywhere, but the page's own script (by its
    hash), or with ``shared`` the style and script files beside the pages."""
    if shared:
        script_rule, style_rule = "script-src 'self'", "style-src 'self' 'unsafe-inline'"
    else:
        script_rule = f"script-src {_script_hash(script)}" if script else "script-src 'none'"
        style_rule = "style-src 'unsafe-inline'"
    rules = [
        "default-src 'none'",
        "img-src data:",
        style_rule,
        script_rule,
        "base-uri 'none'",
        "form-action 'none'",
    ]
    return "; ".join(rules)


def _head(title: str, script: str | None, shared: str | None = None) -> str:
    """The head of a page; ``shared`` is the folder (``""``, ``../``) of the
    style and script files when the page links them instead of holding them."""
    style = (
        f'<link rel="stylesheet" href="{escape(shared)}viewer.css">\n'
        if shared is not None
        else f"<style>\n{_asset('viewer.css')}</style>\n"
    )
    csp = _csp(script, shared is not None)
    return (
        f'<!DOCTYPE html>\n<html lang="{escape(language())}">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="referrer" content="no-referrer">\n'
        f"<title>{escape(title)}</title>\n{style}</head>\n"
    )


#: The files an archive's pages share, beside its index page.
SHARED_FILES = ("viewer.css", "viewer.js")


def shared_file(name: str) -> str:
    """The text of one of :data:`SHARED_FILES`."""
    if name not in SHARED_FILES:
        raise ArgumentError(f"no shared file {name!r}")
    return _asset(name)


def escape(value: str) -> str:
    """Text for HTML: characters XML cannot hold become U+FFFD, markup is escaped."""
    return _html_escape(xml_chars(value))


#: An escaped backslash, or a control character XML cannot hold as JSON
#: writes it (``\u001b``). Read left to right, pairs of backslashes are taken
#: whole, so ``\\u001b`` (the text "\u001b") is never a control character;
#: no part of the pattern repeats, so it runs in linear time.
_JSON_CONTROL = re.compile(r"\\\\|\\u00(?:0[0-8bcef]|1[0-9a-f])")


def _control_to_fffd(match: re.Match[str]) -> str:
    return match[0] if match[0] == "\\\\" else "\ufffd"


def _packed_script(element_id: str, value: object) -> str:
    """``value`` as gzipped JSON in base64, which the viewer script unpacks
    (a tenth of the size of the JSON; base64 holds no markup at all)."""
    # record texts were cleaned where they were put in; this is the last guard
    text = xml_chars(json.dumps(value, ensure_ascii=False, separators=(",", ":")))
    if "\\u00" in text:  # most pages have no escape at all
        text = _JSON_CONTROL.sub(_control_to_fffd, text)
    packer = zlib.compressobj(6, zlib.DEFLATED, 31)  # 31: with a gzip header
    packed = packer.compress(text.encode("utf-8")) + packer.flush()
    data = base64.b64encode(packed).decode("ascii")
    return f'<script type="application/gzip" id="{element_id}">{data}</script>\n'


def _json_script(element_id: str, value: object) -> str:
    """``value`` as JSON in a data block a script reads; ``<``, ``>`` and
    ``&`` are written as escapes, so that no text in it closes the element."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    for mark, code in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e")):
        text = text.replace(mark, code)
    return f'<script type="application/json" id="{element_id}">{text}</script>\n'


def viewer_labels() -> dict[str, str]:
    """The words ``viewer.js`` writes into the page, in the language spoken
    now; ``{name}`` marks what the script fills in."""
    return {
        "start": _("Start position"),
        "ply": _("Ply {ply} · {label}"),
        "plyVariation": _("Ply {ply} · {label} · variation"),
        "illegal": _("refused by the rules"),
        "unplayed": _("not played: an earlier action was refused"),
        "cube": _("doubling cube"),
        "variation": _("Variation"),
        "ahead": _("Next, {action}: "),
        "nextAction": _("the next action"),
        "copied": _("Copied: {text}"),
        "position": _("Position: {text}"),
    }


def index_labels() -> dict[str, str]:
    """The words ``index.js`` writes into the index page."""
    return {"shown": _("{shown} of {total} games shown")}


# ---------------------------------------------------------------------------
# Sharing the drawings between frames

_SVG_XMLNS = ' xmlns="http://www.w3.org/2000/svg"'


class Drawings:
    """The parts of a page's pictures, each kept once.

    ``head`` is the root element's start tag and style; a picture is
    ``head`` (with the ``data-ply`` and ``data-position`` of its position),
    then its parts, then ``</svg>``.
    """

    def __init__(self, head: str) -> None:
        self.head = _inline(head)
        self.pieces: list[str] = []
        self._numbers: dict[str, int] = {}
        self._layers: dict[str, tuple[int, ...]] = {}

    def add(self, part: str) -> int:
        """The number of ``part``."""
        number = self._numbers.get(part)
        if number is None:
            number = self._numbers[part] = len(self.pieces)
            self.pieces.append(part)
        return number

    def add_each(self, layer: str) -> tuple[int, ...]:
        """The numbers of the elements of ``layer``, each a part of its own
        (a highlight of one cell recurs in many frames, a whole layer rarely)."""
        numbers = self._layers.get(layer)
        if numbers is None:
            numbers = self._layers[layer] = tuple(self.add(e) for e in elements(layer))
        return numbers

    def svg(self, parts: Sequence[int], ply: int, position: str) -> str:
        """A picture as text again (what the viewer script does)."""
        from .scene import with_data

        body = "".join(self.pieces[number] for number in parts)
        return f"{with_data(self.head, ply, position)}{body}</svg>"


def _inline(svg: str) -> str:
    """An SVG for inline use in HTML, where the namespace is implied (so that
    the page holds no URL at all)."""
    return svg.replace(_SVG_XMLNS, "", 1)


def changes(parts: Sequence[int], before: Sequence[int]) -> list[int]:
    """``parts`` written against ``before`` (the frame before it), for the
    viewer script to undo: ``n >= 0`` is part ``n``; ``-2k`` takes the next
    ``k`` parts of ``before``; ``-2k - 1`` passes over ``k`` of them. A frame
    shares most of its parts with the one before it."""
    where = {part: index for index, part in enumerate(before)}
    out: list[int] = []
    i = 0
    for part in parts:
        found = where.get(part, -1)
        if found < i:
            out.append(part)
            continue
        if found > i:
            out.append(-2 * (found - i) - 1)
            i = found
        if out and out[-1] < 0 and out[-1] % 2 == 0:
            out[-1] -= 2
        else:
            out.append(-2)
        i += 1
    return out


def _mirror(boards: Sequence[tuple[Sequence[int], Sequence[int]]]) -> list[int]:
    """The flipped part of each upright part (-1 for none), as the frames'
    parts (upright, flipped) pair them first: a die's picture upright turns
    into the same die's picture flipped."""
    found: dict[int, int] = {}
    for board, board_flipped in boards:
        for upright, flipped in zip(board, board_flipped):
            found.setdefault(upright, flipped)
    return [found.get(part, -1) for part in range(max(found, default=-1) + 1)]


def _split_pieces(pieces: list[str]) -> dict[str, list[object]]:
    """``pieces`` for the data: a group whose content is long is written as
    its start tag and the number of its content in ``bodies``, kept once (a
    die's pips are the same on every cell and both ways up)."""
    bodies: list[object] = []
    numbers: dict[str, int] = {}
    out: list[object] = []
    for piece in pieces:
        cut = piece.find(">") + 1
        if not piece.startswith("<g ") or len(piece) - cut < _LONG_BODY:
            out.append(piece)
            continue
        body = piece[cut:]
        number = numbers.get(body)
        if number is None:
            number = numbers[body] = len(bodies)
            bodies.append(body)
        out.append([piece[:cut], number])
    return {"pieces": out, "bodies": bodies}


#: The length of a group's content from which it is kept once.
_LONG_BODY = 100


def _labels(page: Page) -> dict[int, str]:
    """The label the viewer script gives each frame that a played entry of
    the move list leads to: its move number and text (``3. C7W5``)."""
    out: dict[int, str] = {}

    def visit(line: MoveLine) -> None:
        for entry in line.entries:
            if entry.state == "played" and entry.frame is not None:
                ply = page.frames[entry.frame].ply
                number = f"{(ply - 1) // 2 + 1}" + ("." if ply % 2 else "...")
                out[entry.frame] = f"{number} {entry.text}"
            for variation in entry.variations:
                visit(variation)

    visit(page.main)
    return out


def _viewer_data(page: Page) -> dict[str, object]:
    """The page's data for the viewer script. A frame holds only what the
    script cannot work out: its parts against the frame before it, its
    flipped parts only where they are not the ``mirror`` of the upright ones
    (and then against them), its label only when it is not the move number
    and text of its entry in the move list; empty lists are left out."""
    # the parts in text order, so that like parts (a die upright and flipped,
    # at the next cell) come together, which gzip packs a quarter smaller
    pieces = page.drawings.pieces
    order = sorted(range(len(pieces)), key=pieces.__getitem__)
    rank = [0] * len(pieces)
    for number, old in enumerate(order):
        rank[old] = number
    boards = [
        (tuple(rank[p] for p in f.board), tuple(rank[p] for p in f.board_flipped))
        for f in page.frames
    ]
    mirror = _mirror(boards)
    labels = _labels(page)

    frames = []
    before: Sequence[int] = ()
    for number, (f, (upright, flipped)) in enumerate(zip(page.frames, boards)):
        frame: dict[str, object] = {"s": changes(upright, before)}
        before = upright
        mirrored = [mirror[part] for part in upright]
        if mirrored != list(flipped):  # Hüpfer's reserves change sides
            frame["v"] = changes(flipped, mirrored)
        frame.update(x=f.position, p=f.ply, l=f.line)
        if labels.get(number) != f.label:
            frame["t"] = f.label
        if f.comments:
            frame["c"] = [xml_chars(c) for c in f.comments]
        if f.notes:
            frame["n"] = list(f.notes)
        if f.ahead:
            frame["a"] = list(f.ahead)
        frames.append(frame)
    lines = [{"b": info.base, "u": info.parent, "f": list(info.frames)} for info in page.lines]
    notes = [
        {
            "c": n.code,
            "s": n.severity,
            "m": xml_chars(n.message),
            "p": n.ply,
            "x": xml_chars(n.action) if n.action else None,
        }
        for n in page.notes
    ]
    return {
        "game": page.game,
        "flipped": page.flipped,
        "head": page.drawings.head,
        **_split_pieces([pieces[old] for old in order]),
        "mirror": mirror,
        "frames": frames,
        "lines": lines,
        "notes": notes,
        "record": {"text": xml_chars(page.record), "name": page.record_name},
        "moves": _line_data(page.main),
    }


# ---------------------------------------------------------------------------
# The game page


def game_page(page: Page, *, index: str | None = None, shared: bool = False) -> str:
    """The viewer page of one game: board, controls, header, check, moves;
    ``index`` links to the archive's index page. With ``shared`` the page
    links the style and script (:data:`SHARED_FILES`) beside the index page
    rather than holding them: an archive's pages share them."""
    script = _asset("viewer.js")
    folder = None
    if shared:
        if index is None:
            raise ArgumentError("shared files sit beside an index page")
        folder = index[: index.rfind("/") + 1]
    parts = [
        _head(f"{clip(page.title)} · {page.game}", script, folder),
        "<body>\n",
        (
            f'<nav class="site-nav"><a href="{escape(index)}">\u2190 {escape(_("All games"))}</a>'
            "</nav>\n"
            if index
            else ""
        ),
        _header(page),
        *viewer_parts(page),
        (
            f'<script src="{escape(folder)}viewer.js"></script>\n'
            if folder is not None
            else f"<script>{script}</script>\n"
        ),
        "</body>\n</html>\n",
    ]
    return "".join(parts)


def viewer_parts(page: Page) -> tuple[str, str]:
    """The viewer of ``page`` without the page around it (``hexhop serve``
    puts it into a page of its own): the board, controls, check, move list
    and outcome as HTML, and the data blocks (no script) that ``viewer.js``
    reads: its words (:func:`viewer_labels`) and the page's data. Every word
    is in the language spoken now."""
    head = page.drawings.head
    # an empty picture of the right shape, until the script draws the position
    board = head[: head.index(">") + 1] + "</svg>"
    body = "".join(
        [
            '<main class="viewer">\n',
            f'<section class="board-pane" aria-label="{escape(_("Board"))}">\n',
            f'<div id="board" class="board">{board}</div>\n'
            f'<noscript><p class="note error">{escape(_("The board needs JavaScript."))}</p>'
            "</noscript>\n",
            '<div id="caption" class="board-caption" aria-live="polite">'
            f"{escape(_('Start position'))}</div>\n",
            _controls(page),
            "</section>\n",
            f'<section class="moves-pane" aria-label="{escape(_("Moves"))}">\n',
            _check(page),
            _moves(page),
            _outcome(page),
            "</section>\n</main>\n",
        ]
    )
    blocks = _json_script("hexhop-labels", viewer_labels())
    return body, blocks + _packed_script("hexhop-data", _viewer_data(page))


def _header(page: Page) -> str:
    players = "".join(
        f'<span class="player side-{escape(side.lower())}"><span class="side">'
        f"{escape(side_name(side))}</span> {escape(clip(name))}</span>"
        for side, name in page.players
    )
    result = f'<span class="result">{escape(page.result)}</span>' if page.result else ""
    meta = " · ".join(
        escape(clip(_header_value(name, value)))
        for name, value in page.header
        if value and value not in ("?", "????.??.??")
    )
    tags = "".join(f"<dt>{escape(name)}</dt><dd>{escape(value)}</dd>" for name, value in page.tags)
    return (
        f'<header class="game-head">\n<p class="game-name">{escape(page.game)}</p>\n'
        f"<h1>{players}{result}</h1>\n"
        + (f'<p class="meta">{meta}</p>\n' if meta else "")
        + (
            f'<details class="tags"><summary>{escape(_("All tags"))}</summary>'
            f"<dl>{tags}</dl></details>\n"
            if tags
            else ""
        )
        + "</header>\n"
    )


def _header_value(name: str, value: str) -> str:
    if name == "Round":
        return _("Round {round}").format(round=value)
    if name == "Annotator":
        return _("annotated by {name}").format(name=value)
    if name == "Date":
        return date(value)
    return value


_ICONS = {
    "first": '<path d="M5 4h2v16H5zM19 4v16L8 12z"/>',
    "prev": '<path d="M17 4v16L6 12z"/>',
    "next": '<path d="M7 4v16l11-8z"/>',
    "last": '<path d="M17 4h2v16h-2zM5 4v16l11-8z"/>',
    "play": '<path class="icon-play" d="M7 4v16l12-8z"/>'
    '<path class="icon-pause" d="M6 4h4v16H6zM14 4h4v16h-4z"/>',
    "flip": '<path d="M12 3a9 9 0 0 1 8.5 6H23l-4 5-4-5h3.3A7 7 0 0 0 5.1 9.5L3.3 8.6A9 9 0 0 1 '
    '12 3zm0 18a9 9 0 0 1-8.5-6H1l4-5 4 5H5.7a7 7 0 0 0 13.2-.5l1.8.9A9 9 0 0 1 12 21z"/>',
}


def _button(name: str, label: str, keys: str, text: str = "", extra: str = "") -> str:
    icon = (
        f'<svg class="btn-icon" viewBox="0 0 24 24" aria-hidden="true" '
        f'focusable="false">{_ICONS[name]}</svg>'
    )
    shown = f'<span class="label">{text}</span>' if text else ""
    hint = escape(f"{label} ({keys})" if keys else label)
    label = escape(label)
    return (
        f'<button type="button" id="{name}" aria-label="{label}" title="{hint}"'
        f"{extra}>{icon}{shown}</button>"
    )


def _controls(page: Page) -> str:
    last = len(page.lines[0].frames) - 1
    pressed = "true" if page.flipped else "false"
    main = escape(_("Back to the main line"))
    return (
        f'<div class="controls" role="toolbar" aria-label="{escape(_("Navigation"))}">'
        + _button("first", _("Start of the game"), _("Home"))
        + _button("prev", _("Previous action"), "←")
        + _button(
            "play",
            _("Autoplay"),
            "P",
            f'<span class="icon-play">{escape(_("Play"))}</span>'
            f'<span class="icon-pause">{escape(_("Pause"))}</span>',
            ' aria-pressed="false"',
        )
        + _button("next", _("Next action"), "→")
        + _button("last", _("End of the line"), _("End"))
        + _button("flip", _("Flip the board"), "F", escape(_("Flip")), f' aria-pressed="{pressed}"')
        + f'<label class="speed">{escape(_("Speed"))} <select id="speed">'
        f'<option value="2000">{escape(_("slow"))}</option>'
        f'<option value="1000" selected>{escape(_("normal"))}</option>'
        f'<option value="400">{escape(_("fast"))}</option></select></label>'
        + '</div>\n<div class="slider-row">'
        f'<input type="range" id="slider" min="0" max="{last}" value="0" '
        f'step="1" aria-label="{escape(_("Position in the line"))}">'
        f'<span id="where" class="where">0 / {last}</span></div>\n'
        '<div class="line-row"><button type="button" id="mainline" hidden '
        f'title="{main} (Esc)">{main}</button></div>\n'
        '<div id="frame-notes" class="frame-notes" aria-live="polite"></div>\n'
        '<div class="record-tools">'
        '<button type="button" id="download" '
        f'title="{escape(_("Save the record as a text file"))}">'
        f"{escape(_('Download this record'))}</button>"
        '<button type="button" id="copy" '
        f'title="{escape(_("Copy the position shown, as a Position tag value"))}">'
        f"{escape(_('Copy position'))}</button>"
        '<span id="copied" aria-live="polite"></span></div>\n'
    )


def _check(page: Page) -> str:
    errors = sum(1 for n in page.notes if n.severity == "error")
    warnings = len(page.notes) - errors
    if page.valid:
        verdict = (
            _("Valid record, {warnings}").format(warnings=_warnings(warnings))
            if warnings
            else _("Valid record")
        )
    elif warnings:
        verdict = _("Invalid record: {errors}, {warnings}").format(
            errors=_errors(errors), warnings=_warnings(warnings)
        )
    else:
        verdict = _("Invalid record: {errors}").format(errors=_errors(errors))
    items = "".join(_note_item(n) for n in page.notes)
    cls = "valid" if page.valid else "invalid"
    return (
        f'<div class="check {cls}"><p class="verdict">{escape(verdict)}</p>'
        + (f'<ul class="findings">{items}</ul>' if items else "")
        + "</div>\n"
    )


def _errors(number: int) -> str:
    return ngettext("{n} error", "{n} errors", number).format(n=number)


def _warnings(number: int) -> str:
    return ngettext("{n} warning", "{n} warnings", number).format(n=number)


def _note_item(note: Note) -> str:
    if note.ply is not None:
        where = _("ply {ply}").format(ply=note.ply)
    else:
        where = _("line {line}").format(line=note.line) if note.line else ""
    jump = (
        f'<button type="button" class="jump-to" data-frame="{note.frame}">'
        f"{escape(where or _('show'))}</button> "
        if note.frame is not None
        else (f'<span class="where">{escape(where)}</span> ' if where else "")
    )
    return (
        f'<li class="note {escape(note.severity)}">{jump}<code>{escape(note.code)}</code> '
        f"{escape(note.message)}</li>"
    )


def _moves(page: Page) -> str:
    """The move list's box: the script fills it from :func:`_line_data` (a long
    game's list as markup would be the biggest part of its page)."""
    return f'<div id="moves" class="moves" aria-label="{escape(_("Move list"))}"></div>\n'


def _line_data(line: MoveLine) -> dict[str, object]:
    """A move list as the viewer script builds it: ``i`` the line (-1 for a
    variation that could not be played), ``c`` its comments, ``e`` its
    entries; an entry's empty fields are left out."""
    data: dict[str, object] = {"i": line.id, "e": [_entry_data(e) for e in line.entries]}
    if line.comments:
        data["c"] = [xml_chars(c) for c in line.comments]
    return data


def _entry_data(entry: Entry) -> dict[str, object]:
    """``t`` text, ``n`` move number, ``s`` state (left out: played), ``f``
    frame, ``g`` glyphs, ``c`` comments, ``o`` notes, ``v`` variations."""
    data: dict[str, object] = {"t": xml_chars(entry.text)}
    if entry.number:
        data["n"] = entry.number
    if entry.state != "played":
        data["s"] = entry.state
    if entry.frame is not None:
        data["f"] = entry.frame
    if entry.glyphs:
        data["g"] = [xml_chars(g) for g in entry.glyphs]
    if entry.comments:
        data["c"] = [xml_chars(c) for c in entry.comments]
    if entry.notes:
        data["o"] = list(entry.notes)
    if entry.variations:
        data["v"] = [_line_data(v) for v in entry.variations]
    return data


def _outcome(page: Page) -> str:
    parts = []
    if page.outcome:
        parts.append(escape(page.outcome))
    if page.result:
        parts.append(escape(_("result {result}").format(result=page.result)))
    if page.termination:
        parts.append(escape(_("termination: {termination}").format(termination=page.termination)))
    if not parts:
        return ""
    return f'<p class="outcome">{" · ".join(parts)}</p>\n'


# ---------------------------------------------------------------------------
# The index page


def index_page(games: Sequence[GameSummary], *, title: str | None = None) -> str:
    """A table of ``games`` linking to their pages; a small script sorts it
    by any column and filters it by words (players, event, date, result).
    ``title`` defaults to *Games*; every word is in the language spoken now."""
    title = _("Games") if title is None else title
    files = any(g.source for g in games)
    rows = "".join(_index_row(g, files) for g in games)
    valid = sum(1 for g in games if g.valid)
    script = _asset("index.js")
    columns: tuple[tuple[str, bool], ...] = ((_("File"), False),) if files else ()
    columns += (
        ("#", True),
        (_("Game"), False),
        (_("Players"), False),
        (_("Event"), False),
        (_("Date"), False),
        (_("Result"), False),
        (_("Plies"), True),
        (_("Check"), False),
    )
    heads = "".join(
        f'<th aria-sort="none"{" data-numeric" if numeric else ""}>'
        f'<button type="button" data-column="{number}" '
        f'title="{escape(_("Sort by {column}").format(column=name))}">{escape(name)}</button></th>'
        for number, (name, numeric) in enumerate(columns)
    )
    games_text = ngettext("{n} game", "{n} games", len(games)).format(n=len(games))
    meta = _("{games}, {valid} valid").format(games=games_text, valid=valid)
    placeholder = _("Filter: player, event, date, result …")
    return (
        _head(title, script) + '<body class="index">\n<main>\n'
        f'<h1>{escape(title)}</h1>\n<p class="meta">{escape(meta)}</p>\n'
        '<p class="search"><input type="search" id="filter" hidden '
        f'placeholder="{escape(placeholder)}" aria-label="{escape(_("Filter the games"))}"> '
        '<span id="shown" aria-live="polite"></span></p>\n'
        f'<div class="table-wrap"><table id="games">\n<thead><tr>{heads}</tr></thead>\n'
        f"<tbody>\n{rows}</tbody>\n</table></div>\n</main>\n"
        + _json_script("hexhop-labels", index_labels())
        + f"<script>{script}</script>\n</body>\n</html>\n"
    )


def _index_row(game: GameSummary, files: bool) -> str:
    players = " – ".join(escape(clip(name)) for _side, name in game.players)
    if game.href:
        players = f'<a href="{escape(game.href)}">{players}</a>'
    if not game.valid:
        check = _("invalid: {errors}").format(errors=_errors(game.errors))
    elif game.warnings:
        check = _("valid, {warnings}").format(warnings=_warnings(game.warnings))
    else:
        check = _("valid")
    if not game.href:
        check = _("{check} (not drawn)").format(check=check)
    cls = "valid" if game.valid else "invalid"
    cells = ((escape(game.source),) if files else ()) + (
        str(game.index),
        escape(game.game),
        players,
        escape(clip(game.event)),
        escape(clip(date(game.date))),
        escape(clip(game.result)),
        str(game.plies),
    )
    # a date written day first (German) sorts by the date as the record writes it
    sort = f' data-sort="{escape(game.date)}"' if date(game.date) != game.date else ""
    date_cell = len(cells) - 3
    return (
        "<tr>"
        + "".join(
            f"<td{sort if number == date_cell else ''}>{c}</td>" for number, c in enumerate(cells)
        )
        + f'<td class="{cls}">{escape(check)}</td></tr>\n'
    )
