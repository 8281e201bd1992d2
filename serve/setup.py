"""Setting up a position by clicking (the archive page's position search).

The browser sends the Position text it holds, the cell clicked and the
piece chosen; the server puts the piece there (or takes it away) in the
text, reads the text back with the game's rules (which refuse a position
they cannot hold) and draws it. The browser knows neither cells nor rules:
it reads the cell's name from the drawing it was given.
"""

from __future__ import annotations

import re
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from hexhop.messages import _, side_name

from .i18n import language_of, speaking
from .pages import BOARD_STYLE, _keep_style
from .templating import JsonAnswer

MAX_TEXT = 4_000  # characters of Position text
_CELL = re.compile(r"[A-Za-z]{1,2}[0-9]{1,2}")
_PIECE = re.compile(r"(?:[NS][1-6]|[RT]|)")
LETTERS = {"North": "N", "South": "S", "Red": "R", "Turquoise": "T"}


def _spec(game: str) -> Any:
    from hexhop.notation.games import lookup_game

    return lookup_game(game)


def empty(game: str) -> str:
    """The Position text of an empty board of ``game``, the first side to move."""
    spec = _spec(game)
    first, second = (LETTERS[side] for side in spec.sides)
    reserve = "; reserve: 12/12" if spec.board_sizes else ""
    return f"{first}:; {second}:{reserve}; turn: {first}"


def placed(text: str, cell: str, piece: str) -> str:
    """``text`` with ``piece`` (``N3``: a North die showing 3; ``R``: a Red
    piece; empty: none) on ``cell``; the same piece clicked again takes it
    away. Only the text changes: the rules read it afterwards."""
    parts = [part.strip() for part in text.split(";")]
    sides: dict[str, list[str]] = {}
    rest: list[str] = []
    for part in parts:
        name, colon, written = part.partition(":")
        if colon and name.strip() in ("N", "S", "R", "T"):
            sides[name.strip()] = written.split()
        elif part:
            rest.append(part)
    before = None
    for side, tokens in sides.items():
        for token in tokens:
            if token.partition("=")[0].lower() == cell.lower():
                before = side + token.partition("=")[2].partition("/")[0]
        tokens[:] = [t for t in tokens if t.partition("=")[0].lower() != cell.lower()]
    if piece and piece != before:
        side, face = piece[0], piece[1:]
        sides.setdefault(side, []).append(f"{cell}={face}" if face else cell)
    out = [f"{side}: {' '.join(tokens)}".rstrip() for side, tokens in sides.items()]
    return "; ".join(out + rest)


def with_turn(text: str, turn: str) -> str:
    parts = [p.strip() for p in text.split(";") if not p.strip().startswith("turn:")]
    return "; ".join([p for p in parts if p] + [f"turn: {turn}"])


def setup(request: Request) -> Response:
    """``GET /api/position/setup?game=&board=&position=&cell=&piece=&turn=``:
    the position after the click, its drawing, and the pieces to choose from."""
    from hexhop import svg
    from hexhop.engine.base import HeaderError
    from hexhop.engine.games import rules_for

    params = request.query_params
    spec = _spec(params.get("game", "") or "Hexalit")
    if spec is None:
        return JsonAnswer({"error": "unknown game"}, status_code=400)
    board = params.get("board", "")
    sizes = [f"{n}x{n}" for n in spec.board_sizes]
    if sizes and board not in sizes:
        board = sizes[0]
    tags = {"Game": spec.name, **({"Board": board} if sizes else {})}
    text = params.get("position", "")[:MAX_TEXT].strip() or empty(spec.name)
    cell, piece, turn = params.get("cell", ""), params.get("piece", ""), params.get("turn", "")
    rules = rules_for(spec.name)
    problem = None
    lang = language_of(request)
    with speaking(lang):
        if params.get("start"):
            text = rules.start(tags, None).text()
        try:
            position = rules.parse_position(text, tags)
        except HeaderError:
            text = empty(spec.name)
            position = rules.parse_position(text, tags)
            problem = _("The position could not be read for this game: an empty board instead.")
        changed = text
        if cell and _CELL.fullmatch(cell) and _PIECE.fullmatch(piece):
            changed = placed(position.text(), cell, piece)
        if turn in (LETTERS[side] for side in spec.sides):
            changed = with_turn(changed, turn)
        if changed != text:
            try:
                position = rules.parse_position(changed, tags)
            except HeaderError as error:
                problem = str(error.params.get("reason") or error)
        drawing = str(svg(position, size=520))
        names = [side_name(side) for side in spec.sides]
    found = BOARD_STYLE.search(drawing)
    style = ""
    if found:
        style = _keep_style(found.group(1))
        drawing = drawing[: found.start()] + drawing[found.end() :]
    if spec.board_sizes:
        pieces = [{"id": LETTERS[s], "label": n} for s, n in zip(spec.sides, names)]
    else:
        pieces = [
            {"id": f"{LETTERS[s]}{face}", "label": f"{n} {face}"}
            for s, n in zip(spec.sides, names)
            for face in range(1, 7)
        ]
    return JsonAnswer(
        {
            "game": spec.name,
            "board": board,
            "position": position.text(),
            "svg": drawing,
            "style": style,
            "pieces": pieces,
            "sides": [{"id": LETTERS[s], "label": n} for s, n in zip(spec.sides, names)],
            "turn": LETTERS[position.to_move] if hasattr(position, "to_move") else "",
            "problem": problem,
        }
    )


def routes() -> list[BaseRoute]:
    return [Route("/api/position/setup", setup, name="position_setup")]
