"""The filters of a search, each defined once: the table that ``find``'s
options (and ``stats``', ``crosstable``'s, ``ratings``'), the web app's
search form and :meth:`hexhop.Index.find` are made from.

A :class:`Filter` has a name (the API's keyword, the form's field), the
option the commands take, a help text, the form's widget, and how its
value is read: :attr:`Filter.read` turns the value given into fields of a
:class:`~hexhop.archive.query.Query`. The filters of hexhop's own have
fields of the query, matched in Python and in SQL by
:meth:`Query.matches` and :meth:`Query.sql`; a filter added later gives
its own matchers, :attr:`Filter.python` and :attr:`Filter.sql`, and is
kept in :attr:`Query.extra`.

Adding a filter is adding an entry to :data:`FILTERS` (see
docs/archive.md): every command, the form and the API take it from there.
The sort keys of a list of games are :data:`SORT_KEYS`, with the old
spellings each surface took in :data:`SORT_ALIASES`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hexhop.messages import N_, _

if TYPE_CHECKING:
    from .facts import GameFacts
    from .query import Query

# The fields of a Query that a filter adds to (more than one filter may):
# their values are joined, not replaced.
JOINED = ("players", "sides", "tags", "findings", "notes", "extra")
SIDES = ("north", "south", "red", "turquoise")

# A filter's reader: the value given, the query's fields read so far (the
# game and board come first, for the position and the opening), the name
# to tell in a message (``--player`` on the command line, ``player`` in
# the API); the query's fields it sets.
Reader = Callable[[Any, Mapping[str, Any], str], Mapping[str, Any]]


@dataclass(frozen=True)
class Filter:
    """One filter of a search, for every surface that searches."""

    name: str  # the API's keyword, the form's field
    option: str  # the commands' option, e.g. "--player" or "--valid/--invalid"
    help: str
    # the query's fields of a value (default, for a filter with its own
    # matchers: ``parse`` of the value, kept in Query.extra)
    read: Reader | None = None
    metavar: str | None = None
    dest: str | None = None  # the commands' parameter name (default: from the option)
    multiple: bool = False  # given more than once (a list in the API)
    flag: bool = False  # an on/off option: a check box in the form
    least: int | None = None  # a whole number of at least this
    label: str = ""  # the form's label (default: none: the filter is not in the form)
    widget: str = "text"  # text, select, textarea, check
    choices: Callable[[], list[tuple[str, str]]] | None = None  # (value, label) of a select
    form: tuple[str, ...] = ()  # the form's fields (default: the name)
    from_form: Callable[[Mapping[str, str]], Any] | None = None  # their value for ``read``
    aliases: tuple[str, ...] = ()  # other names the API and the form take
    cli: bool = True  # an option of the commands
    meaning: str = ""  # the README's table of options (default: the help)
    # a filter beyond the query's own fields: its test of a scanned game's
    # facts, and its WHERE clause over ``games g`` of the index, with its
    # parameters, for the value ``read`` gave (kept in Query.extra)
    python: Callable[[GameFacts, Any], bool] | None = None
    sql: Callable[[Any], tuple[str, list[Any]]] | None = None
    # the value parser of such a filter: QueryError when the text cannot be
    # read (numbers: hexhop.notation.numbers.ascii_int, never int())
    parse: Callable[[Any], Any] | None = None
    web: bool = True  # a field of the form, when it has a label
    placeholder: str = ""
    maxlength: int = 1000
    css: str = ""

    @property
    def parameter(self) -> str:
        """The commands' parameter name."""
        if self.dest:
            return self.dest
        return self.option.split("/")[0].lstrip("-").replace("-", "_")

    @property
    def fields(self) -> tuple[str, ...]:
        """The form's fields of this filter."""
        return self.form or (self.name,)

    def reader(self) -> Reader:
        """How the filter's value is read."""
        return self.read if self.read is not None else extra(self)

    def form_value(self, values: Mapping[str, str]) -> Any:
        """The value the form's fields give (None: not given)."""
        if self.from_form is not None:
            return self.from_form(values)
        for name in (self.name, *self.aliases):
            if values.get(name):
                return values[name]
        return None


def extra(item: Filter) -> Reader:
    """The reader of a filter with its own matchers: its value, as
    ``parse`` (default: as given) reads it, kept in ``Query.extra``."""

    def read(value: Any, _fields: Mapping[str, Any], label: str) -> Mapping[str, Any]:
        from .query import Extra, QueryError

        if item.python is None or item.sql is None:
            raise QueryError(f"{label}: " + _("not readable"))  # a table's mistake
        parsed = item.parse(value) if item.parse is not None else value
        return {"extra": (Extra(item.name, parsed, item.python, item.sql),)}

    return read


# -- the readers of hexhop's own filters -------------------------------------------------


def _listed(value: Any) -> list[Any]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def _players(value: Any, _fields: Mapping[str, Any], label: str) -> Mapping[str, Any]:
    from .query import player_pattern

    return {"players": tuple(player_pattern(str(p), label) for p in _listed(value))}


def _side(side: str) -> Reader:
    def read(value: Any, _fields: Mapping[str, Any], label: str) -> Mapping[str, Any]:
        from .query import player_pattern

        return {"sides": ((side.capitalize(), player_pattern(str(value), label)),)}

    return read


def _tags(value: Any, _fields: Mapping[str, Any], _label: str) -> Mapping[str, Any]:
    from .query import tag_filter

    return {"tags": tuple(tag_filter(str(t)) for t in _listed(value))}


def _contains(tag: str) -> Reader:
    """A tag whose value holds the text (or matches it, when it is a glob)."""

    def read(value: Any, _fields: Mapping[str, Any], _label: str) -> Mapping[str, Any]:
        from .query import _GLOB_CHARS, tag_filter

        text = str(value)
        pattern = text if _GLOB_CHARS.search(text) else f"*{text}*"
        return {"tags": (tag_filter(f"{tag}={pattern}"),)}

    return read


def _result(value: Any, _fields: Mapping[str, Any], _label: str) -> Mapping[str, Any]:
    from .query import result_filter

    return {"result": result_filter(str(value))}


def _winner(value: Any, _fields: Mapping[str, Any], _label: str) -> Mapping[str, Any]:
    from .query import side_name

    return {"winner": side_name(str(value))}


def _game(value: Any, _fields: Mapping[str, Any], _label: str) -> Mapping[str, Any]:
    from hexhop.notation.games import lookup_game

    from .query import QueryError

    spec = lookup_game(str(value))
    if spec is None:
        raise QueryError(_("Unknown game."))
    return {"game": spec.name}


def _board(value: Any, _fields: Mapping[str, Any], _label: str) -> Mapping[str, Any]:
    from .query import board_size

    return {"board": board_size(str(value))}


def _date(value: Any, _fields: Mapping[str, Any], _label: str) -> Mapping[str, Any]:
    from .query import date_range

    return {"date": date_range(str(value))}


def _length(value: Any, _fields: Mapping[str, Any], label: str) -> Mapping[str, Any]:
    from .query import int_range

    return {"plies": int_range(str(value), label)}


def _valid(value: Any, _fields: Mapping[str, Any], _label: str) -> Mapping[str, Any]:
    return {"valid": bool(value)}


def _findings(value: Any, _fields: Mapping[str, Any], _label: str) -> Mapping[str, Any]:
    from .query import finding_code

    return {"findings": tuple(finding_code(str(code)) for code in _listed(value))}


def _position(value: Any, fields: Mapping[str, Any], _label: str) -> Mapping[str, Any]:
    from .query import position_targets

    board = fields.get("board")
    return {
        "positions": position_targets(
            str(value), fields.get("game"), f"{board}x{board}" if board else None
        )
    }


def _after(value: Any, fields: Mapping[str, Any], _label: str) -> Mapping[str, Any]:
    from .query import openings

    return {"openings": openings(str(value), fields.get("game"))}


def _note(kind: str) -> Reader:
    def read(value: Any, _fields: Mapping[str, Any], _label: str) -> Mapping[str, Any]:
        return {"notes": (kind,)} if value else {}

    return read


def _min_depth(value: Any, fields: Mapping[str, Any], label: str) -> Mapping[str, Any]:
    from hexhop.notation.numbers import ascii_int

    from .query import QueryError

    depth = value if isinstance(value, int) else ascii_int(str(value))
    if depth is None or depth < 1:
        # the help says what is expected
        raise QueryError(f"{label} {value!r}: " + _(FILTERS["min_depth"].help))
    if not fields.get("notes"):
        raise QueryError(_("--min-depth goes with --missed-win or --blunder"))
    return {"min_depth": depth}


def _date_form(values: Mapping[str, str]) -> str | None:
    low, high = values.get("date_from", ""), values.get("date_to", "")
    if values.get("date"):
        return values["date"]
    return f"{low}..{high}" if low or high else None


def _valid_form(values: Mapping[str, str]) -> bool | None:
    return {"valid": True, "invalid": False}.get(values.get("valid", ""))


def _games() -> list[tuple[str, str]]:
    from hexhop.notation.games import GAMES

    return [(spec.name, spec.name) for spec in GAMES]


def _boards() -> list[tuple[str, str]]:
    from hexhop.notation.games import GAMES

    sizes = sorted({n for spec in GAMES for n in spec.board_sizes})
    return [(f"{n}x{n}", f"{n}x{n}") for n in sizes]


def _sides() -> list[tuple[str, str]]:
    from hexhop.notation.games import GAMES

    sides = dict.fromkeys(side for spec in GAMES for side in spec.sides)
    return [(side, side) for side in sides]


def _results() -> list[tuple[str, str]]:
    return [(result, result) for result in ("1-0", "0-1", "*")]


def _validity() -> list[tuple[str, str]]:
    return [("valid", N_("valid")), ("invalid", N_("invalid"))]


# written out, so that the catalogue has each
_SIDE_HELP = {
    "north": N_("The North player (as --player)."),
    "south": N_("The South player (as --player)."),
    "red": N_("The Red player (as --player)."),
    "turquoise": N_("The Turquoise player (as --player)."),
}

ANALYSED = " (an index made with hexhop index --analyse)."

# The table, in the order of the commands' help and of the form; the game
# and the board before the position and the opening, which read them.
FILTERS: dict[str, Filter] = {
    item.name: item
    for item in (
        Filter(
            "player",
            "--player",
            "A player on either side: part of a name, case and accents aside "
            "(Muller finds Müller, Soren Søren), or a glob of the whole name; every game "
            "of the players it names, however spelled (repeatable).",
            _players,
            metavar="NAME",
            dest="players",
            multiple=True,
            label=N_("Player"),
            placeholder=N_("part of a name, e.g. Muller"),
            widget="search",
            meaning="A player on either side (part of the name or a glob).",
        ),
        Filter(
            "opponent",
            "--opponent",
            "Another player of the game (as --player).",
            _players,
            metavar="NAME",
            label=N_("Opponent"),
            widget="search",
            form=("player2",),
            aliases=("player2",),
            cli=False,
        ),
        *(
            Filter(
                side,
                f"--{side}",
                _SIDE_HELP[side],
                _side(side),
                metavar="NAME",
                meaning=f"The {side.capitalize()} player.",
            )
            for side in SIDES
        ),
        Filter(
            "event",
            "--event",
            "The Event tag holds this text (or matches it, a glob).",
            _contains("Event"),
            label=N_("Event"),
            widget="search",
            cli=False,  # crosstable's and ratings' --event name one event
        ),
        Filter(
            "site",
            "--site",
            "The Site tag holds this text (or matches it, a glob).",
            _contains("Site"),
            label=N_("Site"),
            widget="search",
            cli=False,
        ),
        Filter(
            "tag",
            "--tag",
            "A tag's whole value, a glob, case and accents aside (repeatable).",
            _tags,
            metavar="KEY=VALUE",
            dest="tags",
            multiple=True,
            meaning="KEY=VALUE: a tag's whole value or a glob.",
        ),
        Filter(
            "result",
            "--result",
            "The written result.",
            _result,
            metavar="1-0|0-1|*",
            label=N_("Result"),
            widget="select",
            choices=_results,
        ),
        Filter(
            "winner",
            "--winner",
            "Who won on the board.",
            _winner,
            metavar="SIDE",
            label=N_("Winner"),
            widget="select",
            choices=_sides,
        ),
        Filter(
            "game",
            "--game",
            "Only games of this game (Hexalit, Trigeo or Hüpfer).",
            _game,
            metavar="GAME",
            label=N_("Game"),
            widget="select",
            choices=_games,
        ),
        Filter(
            "board",
            "--board",
            "Only games on this board.",
            _board,
            metavar="NxN",
            label=N_("Board"),
            widget="select",
            choices=_boards,
        ),
        Filter(
            "date",
            "--date",
            "Date tag, e.g. 1998..2001.06.",
            _date,
            metavar="FROM..TO",
            label=N_("Date"),
            widget="range",
            form=("date_from", "date_to"),
            from_form=_date_form,
            meaning="The Date tag, FROM..TO.",
        ),
        Filter(
            "length",
            "--length",
            "Number of plies, e.g. 40..60 or ..30.",
            _length,
            metavar="MIN..MAX",
            label=N_("Plies"),
            form=("plies",),
            aliases=("plies",),
            placeholder="40..60",
            maxlength=24,
            meaning="The number of plies, MIN..MAX.",
        ),
        Filter(
            "valid",
            "--valid/--invalid",
            "Only valid (or invalid) games.",
            _valid,
            flag=True,
            label=N_("Validity"),
            widget="select",
            choices=_validity,
            from_form=_valid_form,
            meaning="Only valid (or only invalid) games.",
        ),
        Filter(
            "finding",
            "--finding",
            "A finding's code.",
            _findings,
            metavar="CODE",
            dest="findings",
            multiple=True,
            label=N_("Finding code"),
            placeholder="RU12",
            maxlength=8,
            meaning="A finding's code (repeatable).",
        ),
        Filter(
            "position",
            "--position",
            "Games whose main line reached this position (Position tag text).",
            _position,
            metavar="TEXT",
            dest="position_text",
        ),
        Filter(
            "after",
            "--after",
            "Games starting with these actions.",
            _after,
            metavar="ACTIONS",
            meaning="Games that start with these actions.",
        ),
        Filter(
            "missed_win",
            "--missed-win",
            "Games where a side missed a forced win" + ANALYSED,
            _note("missed"),
            flag=True,
            form=("missed",),
            aliases=("missed",),
        ),
        Filter(
            "blunder",
            "--blunder",
            "Games where an action allowed the opponent a forced win" + ANALYSED,
            _note("allows"),
            flag=True,
        ),
        Filter(
            "min_depth",
            "--min-depth",
            "With --missed-win or --blunder: only wins of at least N own actions.",
            _min_depth,
            metavar="N",
            least=1,
            web=False,
        ),
    )
}

# The filters of hexhop's own: the commands are made with their options
# (the vocabulary of cli/options.py names them); a filter added later is
# an option of the commands that take filters from then on.
BUILT_IN = frozenset(FILTERS)

# The form lays these out by hand (the opening's editor link, the
# position's board, the analysis' check boxes); the others it makes from
# the table.
LAID_OUT = ("after", "position", "missed_win", "blunder")

# The orders of a list of games, by one set of names; the old spellings
# (the web app's ``players`` and ``plies``) still work.
SORT_KEYS = ("archive", "date", "player", "event", "length")
SORT_ALIASES = {"players": "player", "plies": "length"}


def sort_key(text: str) -> str | None:
    """The sort key ``text`` names (an old spelling too); None when none."""
    key = SORT_ALIASES.get(text, text)
    return key if key in SORT_KEYS else None


def add(item: Filter) -> Filter:
    """Add a filter to the table (one with its own matchers: ``python``,
    ``sql`` and ``parse``). Every command, the form and the API take it."""
    FILTERS[item.name] = item
    return item


def query_of(
    values: Mapping[str, Any],
    *,
    label: Callable[[Filter], str] = lambda item: item.name,
    names: Any = None,
    base: Iterable[tuple[str, Any]] = (),
) -> Query:
    """The :class:`Query` of the filters' values (``values`` by filter
    name; None, False, ``()`` and ``""``: not given), read in the table's
    order; ``label`` names a filter in a message; ``names``: the names
    file of a scanned archive. QueryError when a value cannot be read."""
    from .query import Query

    fields: dict[str, Any] = dict(base)
    for item in FILTERS.values():
        value = values.get(item.name)
        if value is None or value == "" or value == () or value == []:
            continue
        if item.flag and value is False and item.name != "valid":
            continue
        for key, found in item.reader()(value, fields, label(item)).items():
            fields[key] = (*fields.get(key, ()), *found) if key in JOINED else found
    if names is not None:
        fields["names"] = names
    return Query(**fields)


def unknown(names: Iterable[str]) -> list[str]:
    """The names that are not filters (nor their other names)."""
    known = known_names()
    return sorted(name for name in names if name not in known)


def known_names() -> set[str]:
    """Every name a filter is given by in the API."""
    return {name for item in FILTERS.values() for name in (item.name, *item.aliases)}


def by_name(values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` with each filter's other names turned into its name."""
    names = {alias: item.name for item in FILTERS.values() for alias in item.aliases}
    out: dict[str, Any] = {}
    for name, value in values.items():
        out[names.get(name, name)] = value
    return out
