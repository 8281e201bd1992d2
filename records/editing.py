"""Entering and editing one game: the record tree, a cursor in it, and the
legal actions at the cursor grouped for a click interface.

Pure functions over record text and the rules engine; the web editor
(``hexhop serve``) calls them, and nothing here knows of the web. A
:class:`Draft` is one game's record read from its text; every edit returns
a new draft whose text is the canonical record (as ``hexhop fmt`` writes
it), read back, so that its findings point at the text's lines and columns.

A cursor is an :data:`Address`: ``()`` is the start of the game, ``(i,)``
the position after the main line's node ``i`` (0-based; cube events are
nodes too), ``(i, v, j)`` the position after node ``j`` of variation ``v``
of main-line node ``i``, and so on, two more numbers for each level.

The click groups (:func:`clicks`) are made from the rules' own list of
legal actions: every legal action is reached by clicks, and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeAlias

from hexhop.engine.base import HeaderError, IllegalAction, Position, read_action
from hexhop.engine.games import rules_for
from hexhop.engine.lines import play_line
from hexhop.engine.replay import replay_game
from hexhop.notation.errors import Error
from hexhop.notation.findings import Finding, make, words
from hexhop.notation.games import find_game
from hexhop.notation.model import (
    NO_SPAN,
    CubeAnswer,
    CubeOffer,
    DiceAction,
    HopAction,
    Item,
    Line,
    Node,
    Record,
    Tag,
)
from hexhop.notation.reader import parse_text
from hexhop.notation.writer import format_record

from .limits import read_limits
from .sources import Limits

Address: TypeAlias = "tuple[int, ...]"
JsonObject: TypeAlias = "dict[str, Any]"

RESULTS = ("*", "1-0", "0-1")
_LIMITS = Limits()  # the limits of hexhop check


class EditError(Error):
    """An edit that cannot be made (the message says why, in the chosen
    language); nothing was changed."""


@dataclass(frozen=True)
class Draft:
    """One game's record: its canonical ``text``, the ``record`` tree read
    from that text, and the checker's ``findings`` for it (the same as
    ``hexhop check`` reports for the text as a file)."""

    text: str
    record: Record
    findings: tuple[Finding, ...]

    @property
    def game(self) -> str:
        assert self.record.game is not None  # a draft is made only for a known game
        return self.record.game

    def tags(self) -> dict[str, str]:
        return {tag.name: tag.value for tag in self.record.tags}


@dataclass(frozen=True)
class Reading:
    """Typed or pasted text read back: the draft, or None when the text
    is no one game that can be edited; ``findings`` in either case."""

    draft: Draft | None
    findings: tuple[Finding, ...]


# -- making and reading drafts ------------------------------------------------------------


def new_game(game: str, tags: Mapping[str, str] | None = None, limits: Limits = _LIMITS) -> Draft:
    """A game with no action yet: ``game`` names it (Hexalit, Trigeo,
    Hüpfer), ``tags`` are the form's fields (empty ones are left out).
    :class:`EditError` for a game or a tag the game cannot use."""
    try:
        name = find_game(game).name
    except ValueError:
        raise EditError(words("unknown game {game!r}", game=game)) from None
    pairs = [Tag("Game", name)]
    for key, value in (tags or {}).items():
        if key.lower() not in ("game", "result") and value.strip():
            pairs.append(Tag(key, value.strip()))
    pairs.append(Tag("Result", "*"))
    draft = _from_record(Record(tuple(pairs), name, Line(), "*"), limits)
    for finding in draft.findings:
        if finding.category == "header":
            raise EditError(finding.message)
    return draft


def read_text(text: str, limits: Limits = _LIMITS, game: str | None = None) -> Reading:
    """Typed or pasted record text: the draft when it holds exactly one game
    of a known game, with the checker's findings (line, column, message).
    ``game`` names the game of a record without a Game tag. Never raises
    for what the text says; the record limits of ``hexhop check`` apply."""
    parsed = list(parse_text(text, default_game=game, limits=read_limits(limits)))
    if not parsed:
        return Reading(None, (make("SY01", None, message=words("the text holds no game")),))
    if len(parsed) > 1:
        message = words("the editor takes one game; the text holds {count}", count=len(parsed))
        return Reading(
            None,
            (make("SY01", parsed[1].record.span if parsed[1].record else None, message=message),),
        )
    [one] = parsed
    report = replay_game(one)
    findings = tuple(report.findings)
    if one.record is None or one.record.game is None or not one.ok or not report.positions:
        return Reading(None, findings)  # unreadable, or a header with no start position
    return Reading(Draft(text, one.record, findings), findings)


def _from_record(record: Record, limits: Limits = _LIMITS) -> Draft:
    """The draft of ``record``: its canonical text read back."""
    text = format_record(record)
    reading = read_text(text, limits, game=record.game)
    if reading.draft is None:  # the canonical text of an edited record is one game
        message = reading.findings[0].message if reading.findings else text
        raise EditError(message)
    return reading.draft


def canonical(draft: Draft) -> Draft:
    """The draft with its text in canonical form."""
    return _from_record(draft.record)


# -- the tree and the cursor --------------------------------------------------------------


def _line(record: Record, prefix: Address) -> Line:
    """The line at ``prefix`` (an even-length address: () is the main line)."""
    line = record.main
    for i in range(0, len(prefix), 2):
        nodes = line.nodes
        node, v = prefix[i], prefix[i + 1]
        if not 0 <= node < len(nodes) or not 0 <= v < len(nodes[node].variations):
            raise EditError(words("the record has no move at this place"))
        line = nodes[node].variations[v]
    return line


def _split(address: Address) -> tuple[Address, int]:
    """The prefix of the line holding the node at ``address``, and the
    node's index in it (-1 for the start)."""
    if not address:
        return (), -1
    if len(address) % 2 == 0:
        raise EditError(words("the record has no move at this place"))
    return address[:-1], address[-1]


def node_at(record: Record, address: Address) -> Node | None:
    """The node at ``address`` (None for the start)."""
    prefix, index = _split(address)
    if index < 0:
        return None
    line = _line(record, prefix)
    if not 0 <= index < len(line.nodes):
        raise EditError(words("the record has no move at this place"))
    return line.nodes[index]


def previous(address: Address) -> Address:
    """The address whose position is the one the node at ``address`` is
    played from (``()`` before the first node)."""
    prefix, index = _split(address)
    if index > 0:
        return (*prefix, index - 1)
    if index == 0 and prefix:
        return previous(prefix[:-1])
    return ()


def _start(record: Record) -> Position:
    rules = rules_for(record.game or "")
    first = next((n.item for n in record.main.nodes if _is_action(n.item)), None)
    tags: dict[str, str] = {}
    for tag in record.tags:
        tags.setdefault(_canonical_tag(tag.name), tag.value)
    try:
        return rules.start(tags, first)
    except HeaderError as error:
        raise EditError(make(error.code, None, **error.params).message) from None


def _canonical_tag(name: str) -> str:
    from hexhop.engine.replay import KNOWN_TAGS

    return next((known for known in KNOWN_TAGS if known.lower() == name.lower()), name)


def position_at(record: Record, address: Address) -> Position:
    """The position after the node at ``address``; :class:`EditError`
    when the way there holds a node that cannot be played."""
    rules = rules_for(record.game or "")
    position = _start(record)
    line = record.main
    steps = list(address)
    while steps:
        index = steps.pop(0)
        upto = index + 1 if not steps else index  # a variation's node: played from before it
        if not 0 <= index < len(line.nodes):
            raise EditError(words("the record has no move at this place"))
        for node in line.nodes[:upto]:
            try:
                [(_written, position)] = play_line(rules, position, [node.item])
            except IllegalAction as error:
                raise EditError(
                    words(
                        "{action} cannot be played here: {reason}",
                        action=node.text or str(node.item),
                        reason=error.reason,
                    )
                ) from None
        if steps:
            v = steps.pop(0)
            if not 0 <= v < len(line.nodes[index].variations):
                raise EditError(words("the record has no move at this place"))
            line = line.nodes[index].variations[v]
    return position


def clamp(record: Record, address: Sequence[int]) -> Address:
    """``address`` when it names a node whose way can be played, else the
    nearest such address before it (the main line's last playable node
    for an address the record does not have)."""
    address = tuple(int(i) for i in address)
    if len(address) % 2 == 0 and address:
        address = address[:-1]
    while address:
        try:
            position_at(record, address)
            return address
        except EditError:
            prefix, index = _split(address)
            address = (*prefix, index - 1) if index > 0 else prefix[:-1]
            if not address and prefix:
                address = ()
    return ()


def last_address(record: Record) -> Address:
    """The main line's last node that can be played (``()`` for none)."""
    return clamp(record, (len(record.main.nodes) - 1,)) if record.main.nodes else ()


def next_address(record: Record, address: Sequence[int]) -> Address | None:
    """The address of the node after the one at ``address`` in its line
    (the main line's first node after the start), None at a line's end."""
    prefix, index = _split(tuple(address))
    line = _line(record, prefix)
    return (*prefix, index + 1) if index + 1 < len(line.nodes) else None


def _replace_line(record: Record, prefix: Address, line: Line) -> Record:
    """``record`` with the line at ``prefix`` replaced by ``line``."""
    if not prefix:
        return replace(record, main=line)
    outer_prefix, (index, v) = prefix[:-2], prefix[-2:]
    outer = _line(record, outer_prefix)
    node = outer.nodes[index]
    variations = list(node.variations)
    if line.nodes or line.comments:
        variations[v] = line
    else:
        del variations[v]
    nodes = list(outer.nodes)
    nodes[index] = replace(node, variations=tuple(variations))
    return _replace_line(record, outer_prefix, replace(outer, nodes=tuple(nodes)))


# -- edits --------------------------------------------------------------------------------


def play(
    draft: Draft, address: Sequence[int], action: Item | str, *, branch: bool = False
) -> tuple[Draft, Address]:
    """Play ``action`` (its text or value; a cube event too) at the cursor:
    the draft after it and the new cursor. When the line goes on with the
    same action, the cursor only moves there; when it goes on with another
    one, or ``branch`` is set, the action starts a variation of the next
    node (or enters the variation that starts with it). :class:`EditError`
    when it cannot be played there (the rules' reason)."""
    record = draft.record
    address = tuple(address)
    rules = rules_for(draft.game)
    position = position_at(record, address)
    if position.winner is not None:
        raise EditError(words("the game has ended: {winner} won", winner=position.winner))
    try:
        [(item, _after)] = play_line(rules, position, [read_action(action, rules.name)])
    except IllegalAction as error:
        if error.illegal is None:  # text that is no action of the game
            raise EditError(error.reason) from None
        raise EditError(
            words("{action} is not legal: {reason}", action=str(action), reason=error.reason)
        ) from None
    prefix, index = _split(address)
    line = _line(record, prefix)
    new = Node(item, NO_SPAN, str(item))
    following = line.nodes[index + 1] if index + 1 < len(line.nodes) else None
    if following is None:
        line = replace(line, nodes=(*line.nodes, new))
        there: Address = (*prefix, index + 1)
    elif not branch and _same(following.item, item):
        return draft, (*prefix, index + 1)
    else:
        for v, variation in enumerate(following.variations):
            if not branch and variation.nodes and _same(variation.nodes[0].item, item):
                return draft, (*prefix, index + 1, v, 0)
        variations = (*following.variations, Line((new,)))
        nodes = list(line.nodes)
        nodes[index + 1] = replace(following, variations=variations)
        line = replace(line, nodes=tuple(nodes))
        there = (*prefix, index + 1, len(variations) - 1, 0)
    return _settled(draft, _replace_line(record, prefix, line)), there


def take_back(draft: Draft, address: Sequence[int]) -> tuple[Draft, Address]:
    """Remove the node at the cursor and everything after it in its line (a
    variation left empty goes too); the cursor goes to the position before
    it. :class:`EditError` at the start."""
    address = tuple(address)
    prefix, index = _split(address)
    if index < 0:
        raise EditError(words("there is no move to take back"))
    node_at(draft.record, address)
    line = _line(draft.record, prefix)
    line = replace(line, nodes=line.nodes[:index])
    record = _replace_line(draft.record, prefix, line)
    return _settled(draft, record), previous(address)


def branch_point(address: Sequence[int]) -> Address:
    """Where "start a variation" puts the cursor: the position before the
    node at ``address``; the next action played there with ``branch`` set
    becomes an alternative to that node."""
    address = tuple(address)
    if not address:
        raise EditError(words("a variation needs a move to be the alternative to"))
    return previous(address)


def set_comment(draft: Draft, address: Sequence[int], text: str) -> Draft:
    """Put ``text`` as the comment after the node at the cursor (before the
    first node at the start), replacing the comments there; an empty text
    removes them."""
    address = tuple(address)
    text = " ".join(text.replace("\r", " ").split("\n")).strip()
    comments = (text,) if text else ()
    prefix, index = _split(address)
    line = _line(draft.record, prefix)
    if index < 0:
        line = replace(line, comments=comments)
    else:
        node = node_at(draft.record, address)
        assert node is not None
        nodes = list(line.nodes)
        nodes[index] = replace(node, comments=comments)
        line = replace(line, nodes=tuple(nodes))
    return _from_record(_replace_line(draft.record, prefix, line))


def comment_at(draft: Draft, address: Sequence[int]) -> str:
    """The comment after the node at the cursor (joined when there are several)."""
    address = tuple(address)
    node = node_at(draft.record, address)
    comments = draft.record.main.comments if node is None else node.comments
    return " ".join(comments)


def set_tags(draft: Draft, tags: Mapping[str, str]) -> Draft:
    """The draft with the tags of ``tags`` set (an empty value removes the
    tag; Game stays as it is). The Result follows the end on the board
    when the game ended there; otherwise it is the one given (``*``,
    ``1-0``, ``0-1``: a game ended by resignation or agreement)."""
    values = {_canonical_tag(k): v.strip() for k, v in tags.items()}
    result = values.pop("Result", None)
    if result is not None and result not in RESULTS:
        raise EditError(words("a result is one of {results}", results=", ".join(RESULTS)))
    kept: list[Tag] = []
    seen: set[str] = set()
    for tag in draft.record.tags:
        name = _canonical_tag(tag.name)
        if name in values and name != "Game":
            seen.add(name)
            if values[name]:
                kept.append(Tag(name, values[name]))
        else:
            kept.append(tag)
    for name, value in values.items():
        if name not in seen and name != "Game" and value:
            kept.append(Tag(name, value))
    record = replace(draft.record, tags=tuple(kept))
    if result is not None:
        record = _with_result(record, result)
    return _settled(draft, record, keep=True)


def _with_result(record: Record, result: str) -> Record:
    tags = [t for t in record.tags if t.name.lower() != "result"]
    return replace(record, tags=(*tags, Tag("Result", result)), result=result)


def _settled(before: Draft, record: Record, keep: bool = False) -> Draft:
    """The draft of ``record`` with its Result following the end on the main
    line's board: the winner's result when the game ended there, ``*``
    when an end it had before is gone (unless ``keep``: a result given)."""
    old = _board_result(before.record)
    new = _board_result(record)
    current = record.result or record.tag("Result") or "*"
    if new is not None and new != current:
        record = _with_result(record, new)
    elif new is None and old is not None and current == old and not keep:
        record = _with_result(record, "*")
    elif record.result is None:
        record = _with_result(record, current)
    return _from_record(record)


def _board_result(record: Record) -> str | None:
    try:
        position = position_at(record, last_address(record))
    except EditError:
        return None
    if position.winner is None:
        return None
    return "1-0" if position.winner == rules_for(record.game or "").sides[0] else "0-1"


def _is_action(item: Item) -> bool:
    return isinstance(item, (DiceAction, HopAction))


def _same(a: Item, b: Item) -> bool:
    if isinstance(a, (DiceAction, HopAction)) and isinstance(b, (DiceAction, HopAction)):
        return replace(a, mark="") == replace(b, mark="")
    return a == b


# -- what the cursor's position offers ----------------------------------------------------


def clicks(position: Position) -> JsonObject:
    """The legal actions of ``position`` grouped for clicks.

    Hexalit/Trigeo: ``{"dice": {cell: {"targets": {cell: [action…]},
    "rolls": {face: action}}}}``; a target with two actions (a Trigeo
    promotion or not) asks which. Hüpfer: ``{"pieces": {point: step}}``,
    a turn built click by click, each ``step`` being ``{"hops": {point:
    step}, "births": {point: action}, "finish": action or None}``: the
    next clicks that go on, the birth points that end the turn, and the
    turn as it stands when it is a complete legal turn that could also go
    on. None of it when the game is over or a cube offer waits for its
    answer."""
    if position.winner is not None:
        return {"dice": {}} if _family(position) == "dice" else {"pieces": {}}
    actions = list(rules_for(position.game).legal_actions(position))
    if _family(position) == "dice":
        dice: dict[str, JsonObject] = {}
        for action in actions:
            assert isinstance(action, DiceAction)
            group = dice.setdefault(action.origin, {"targets": {}, "rolls": {}})
            if action.kind == "roll":
                group["rolls"][str(action.face)] = str(action)
            else:
                group["targets"].setdefault(action.target, []).append(str(action))
        return {"dice": dice}
    pieces: dict[str, JsonObject] = {}
    for action in actions:
        assert isinstance(action, HopAction)
        step = pieces.setdefault(action.path[0], _step())
        for point in action.path[1:]:
            step = step["hops"].setdefault(point, _step())
        if action.birth is not None:
            step["births"][action.birth] = str(action)
        else:
            step["finish"] = str(action)
    return {"pieces": pieces}


def _step() -> JsonObject:
    return {"hops": {}, "births": {}, "finish": None}


def _family(position: Position) -> str:
    return find_game(position.game).family


def cube(position: Position) -> JsonObject:
    """The cube events the side to move may give now: ``{"offer": text or
    None, "answers": [texts]}`` (``double 2``; ``take``, ``drop``)."""
    rules = rules_for(position.game)
    if not getattr(rules, "doubling", False) or position.winner is not None:
        return {"offer": None, "answers": []}
    value = getattr(position, "cube", None) or 1
    offer = CubeOffer(value * 2)
    answers = [a for a in (CubeAnswer(True), CubeAnswer(False)) if _playable(position, a)]
    return {
        "offer": str(offer) if _playable(position, offer) else None,
        "answers": [str(a) for a in answers],
    }


def _playable(position: Position, item: Item) -> bool:
    """Whether the rules let ``item`` be played now (asked by playing it)."""
    try:
        play_line(rules_for(position.game), position, [item])
    except IllegalAction:
        return False
    return True


def click_actions(groups: JsonObject) -> list[str]:
    """Every action the click groups of :func:`clicks` lead to (for tests
    and for a script that walks them as the page does)."""
    found: list[str] = []
    for group in groups.get("dice", {}).values():
        for texts in group["targets"].values():
            found.extend(texts)
        found.extend(group["rolls"].values())
    stack = list(groups.get("pieces", {}).values())
    while stack:
        step = stack.pop()
        found.extend(step["births"].values())
        if step["finish"] is not None:
            found.append(step["finish"])
        stack.extend(step["hops"].values())
    return found


# -- the movetext as the page lists it ----------------------------------------------------


def moves(record: Record) -> list[JsonObject]:
    """The movetext as tokens for a clickable list: ``{"kind": "move",
    "text", "address", "number"}`` for every node (``number`` is ``"3."`` or
    ``"3..."`` where one is written, else ``""``), ``{"kind": "comment",
    "text"}``, and ``{"kind": "open"}``/``{"kind": "close"}`` around a
    variation."""
    tokens: list[JsonObject] = []
    _tokens(record.main, (), 1, tokens)
    return tokens


def _tokens(line: Line, prefix: Address, ply: int, out: list[JsonObject]) -> None:
    for note in line.comments:
        out.append({"kind": "comment", "text": note})
    prev: Node | None = None
    for index, node in enumerate(line.nodes):
        action = _is_action(node.item)
        numbered = prev is None or bool(prev.comments or prev.variations)
        numbered = numbered or (ply % 2 == 1 and prev is not None and _is_action(prev.item))
        number = f"{(ply - 1) // 2 + 1}{'.' if ply % 2 else '...'}" if numbered else ""
        out.append(
            {
                "kind": "move",
                "text": str(node.item),
                "address": [*prefix, index],
                "number": number,
            }
        )
        for note in node.comments:
            out.append({"kind": "comment", "text": note})
        for v, variation in enumerate(node.variations):
            out.append({"kind": "open"})
            _tokens(variation, (*prefix, index, v), ply, out)
            out.append({"kind": "close"})
        if action:
            ply += 1
        prev = node


def finding_json(finding: Finding) -> JsonObject:
    """A finding as the page shows it: where (line, column), what, how bad."""
    return {
        "code": finding.code,
        "message": finding.message,
        "line": finding.line,
        "column": finding.column,
        "severity": finding.severity,
        "category": finding.category,
        "ply": finding.ply,
    }
