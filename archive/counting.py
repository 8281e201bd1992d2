"""What the standings count: a player is a person, a game is counted once.

``crosstable``, ``ratings``, ``stats`` and the web app's event page ask
this module the same two questions, so that they cannot answer them
differently:

* **Who played.** Each spelling of a game's players is turned into the
  player's key by the club's names file (:meth:`.players.Names.identify`,
  with the game's tags for its conditions), else by
  :func:`.players.player_key`; a player is shown by the names file's name,
  else by :func:`.players.shown_name` of the spellings met (:class:`People`).
* **Which games count.** Two games are *the same game* when they are of
  the same game (Hexalit, Trigeo, Hüpfer), on the same board, with the same
  actions in canonical spelling without annotations (what ``hexhop dupes``
  compares), between the same players by key on the same sides. Of such
  games only the first in archive order is counted; the others are *set
  aside* and counted (:class:`Once`), and ``--keep-duplicates`` counts every
  copy. A game without any action is never the same game as another.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Generic, Protocol, TypeVar

from hexhop.messages import _
from hexhop.records.text import counted

from .players import NO_NAMES, Identity, Names, player_key, shown_name

UNNAMED = "?"  # a game's missing player: never a person, never joined


@lru_cache(maxsize=65536)
def cached_key(spelling: str) -> str:
    """:func:`.players.player_key`, remembered: an archive writes its few
    thousand spellings again and again."""
    return player_key(spelling)


def condition_tags(names: Names) -> tuple[str, ...]:
    """The tags the names file's conditions look at (what a game must bring
    along for :meth:`.players.Names.identify`)."""
    found = {tag for player in names.players for s in player.spellings for tag, _ in s.conditions}
    return tuple(sorted(found))


@dataclass
class People:
    """The players met so far: each spelling's key, the spellings of each
    key with how often they were met, and the name shown for a key."""

    names: Names = field(default_factory=lambda: NO_NAMES)
    spellings: dict[str, Counter[str]] = field(default_factory=dict)
    fixed: dict[str, str] = field(default_factory=dict)  # key: the names file's name
    _plain: dict[str, Identity] = field(default_factory=dict, repr=False)
    _conditional: bool = field(default=False, repr=False)

    def __post_init__(self) -> None:
        self._conditional = bool(condition_tags(self.names))

    def key(self, spelling: str, tags: Mapping[str, str] | None = None) -> str:
        """The key of the player ``spelling`` names in a game with ``tags``
        (``?`` stays ``?``), and the spelling counted for the key."""
        if spelling == UNNAMED or not spelling.strip():
            return UNNAMED
        if self._conditional:
            identity = self.names.identify(spelling, tags)
        else:  # no condition: the spelling alone decides, once
            identity = self._plain.get(spelling) or self._plain.setdefault(
                spelling, self.names.identify(spelling)
            )
        self.spellings.setdefault(identity.key, Counter())[spelling] += 1
        if identity.shown is not None:
            self.fixed[identity.key] = identity.shown
        return identity.key

    def shown(self, key: str) -> str:
        """The name shown for ``key``: the names file's, else the most used
        spelling (:func:`.players.shown_name`)."""
        if key == UNNAMED:
            return UNNAMED
        return self.fixed.get(key) or shown_name(self.spellings.get(key, Counter()).items())

    def spellings_of(self, key: str) -> list[dict[str, object]]:
        """Every spelling of ``key`` with its count, the most used first."""
        met = self.spellings.get(key, Counter())
        return [
            {"spelling": spelling, "games": count}
            for spelling, count in sorted(met.items(), key=lambda item: (-item[1], item[0]))
        ]

    def shown_names(self) -> dict[str, str]:
        """Every key met and its name shown; two keys that would show the
        same name (a names file that says so) are told apart by their key."""
        shown = {key: self.shown(key) for key in self.spellings}
        uses = Counter(shown.values())
        return {key: name if uses[name] == 1 else f"{name} ({key})" for key, name in shown.items()}


def same_game(
    game: str | None, board: int | None, actions: str, first: str, second: str
) -> bytes | None:
    """What the same game has in common (16 bytes), None for a game without
    actions: the game, the board, the canonical actions (space separated,
    as the index keeps them) and the players' keys on their sides."""
    if not actions.strip():
        return None
    text = "\x1f".join((game or "", str(board or ""), " ".join(actions.split()), first, second))
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


@dataclass
class Once:
    """Counts each game once: :meth:`first` is True for the first copy of a
    game in archive order (and for every copy with ``keep_duplicates``).
    Only 16 bytes of each game are remembered."""

    keep_duplicates: bool = False
    set_aside: int = 0
    _seen: set[bytes] = field(default_factory=set, repr=False)

    def first(self, mark: bytes | None) -> bool:
        if mark is None or self.keep_duplicates:
            return True
        if mark in self._seen:
            self.set_aside += 1
            return False
        self._seen.add(mark)
        return True

    def note(self) -> str | None:
        """What the commands say on standard error when copies were set aside."""
        if not self.set_aside:
            return None
        return _(
            "counted once: {copies} of games counted already set aside "
            "(hexhop dupes lists them; --keep-duplicates counts every copy)"
        ).format(copies=counted(self.set_aside, "duplicate"))


class Seated(Protocol):
    """A game as :func:`identified` needs it (a standings game, a stats row)."""

    @property
    def game(self) -> str | None: ...
    @property
    def board(self) -> int | None: ...
    @property
    def first(self) -> str: ...
    @property
    def second(self) -> str: ...
    @property
    def moves(self) -> str: ...
    @property
    def tags(self) -> Sequence[tuple[str, str]]: ...


G = TypeVar("G", bound=Seated)


def identified(games: Iterable[G], people: People, once: Once) -> Iterator[G]:
    """Each game of ``games`` counted once (:class:`Once`), its players
    turned into their keys (:class:`People`); in the order given. Its
    actions are let go once compared (an archive's games are held for a
    crosstable or the ratings: 16 bytes of each is what is remembered)."""
    for game in games:
        tags = dict(game.tags)
        first, second = people.key(game.first, tags), people.key(game.second, tags)
        if once.first(same_game(game.game, game.board, game.moves, first, second)):
            yield dataclasses.replace(game, first=first, second=second, moves="")  # type: ignore[type-var]


def named(games: Iterable[G], shown: Mapping[str, str]) -> list[G]:
    """``games`` with each player's key turned into the name shown."""
    return [
        dataclasses.replace(  # type: ignore[type-var]
            game,
            first=shown.get(game.first, game.first),
            second=shown.get(game.second, game.second),
        )
        for game in games
    ]


def tags_sql(wanted: Collection[str]) -> str:
    """An SQL expression over the index's game ``g``: its tags ``wanted``,
    as ``name<US>value`` joined by ``<RS>`` (:func:`tags_of` reads it)."""
    if not wanted:
        return "''"
    listed = ", ".join("'" + name.replace("'", "''") + "'" for name in sorted(wanted))
    return (
        "(SELECT ifnull(group_concat(t.name || char(31) || t.value, char(30)), '')"
        f" FROM tags t WHERE t.game = g.id AND t.name IN ({listed}))"
    )


def tags_of(text: str | None) -> tuple[tuple[str, str], ...]:
    """The tags :func:`tags_sql` wrote."""
    pairs = []
    for item in (text or "").split("\x1e"):
        name, sep, value = item.partition("\x1f")
        if sep:
            pairs.append((name, value))
    return tuple(pairs)


@dataclass
class Counted(Generic[G]):
    """Games as the standings count them: each once, each player by the
    name shown for their key; ``people`` met them, ``once`` set the copies
    aside."""

    games: list[G]
    people: People
    once: Once

    def spellings(self) -> dict[str, list[dict[str, object]]]:
        """Each name shown and the spellings it stands for, with their counts."""
        shown = self.people.shown_names()
        return {shown[key]: self.people.spellings_of(key) for key in shown}


def count_once(
    games: Iterable[G], names: Names = NO_NAMES, keep_duplicates: bool = False
) -> Counted[G]:
    """``games`` each counted once, each player by key and shown by name:
    what ``crosstable``, ``ratings``, ``stats`` and the event page count."""
    people, once = People(names), Once(keep_duplicates)
    keyed = list(identified(games, people, once))
    return Counted(named(keyed, people.shown_names()), people, once)
