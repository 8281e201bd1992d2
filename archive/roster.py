"""``hexhop players``: who plays in an archive, and who may be one person.

:func:`roster` turns the two sides of every game (each a spelling, the
player's key after the names file, and the name that file shows) into one
:class:`PlayerRow` per key: the name shown (the names file's, else the most
used spelling, :func:`~.players.shown_name`), every spelling with its
count, the games and the first and last date.

:func:`suggest` names the players that are probably one person but whose
keys differ, without joining them: keys one letter apart (``muller`` and
``mueller``: the key cannot tell ``ue`` from ``ü``), a first name written
as an initial (``A. Müller`` and ``Anna Müller``), and first and last
names swapped without a comma (``Mueller Anna``). Each kind is found by
buckets, never by comparing every two players: an archive of 100,000
players costs a few comparisons per player (:class:`Work` counts them).
:func:`suggestions_file` writes the suggestions as a names file to edit.

This module knows no command and no page: cli/players_cmd.py, the web
app and the API ask it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from hexhop.messages import N_, _

from .index import TEXT, TEXT_OR_NULL, guarded_rows, path_of
from .players import NO_NAMES, Names, shown_name

if TYPE_CHECKING:
    import sqlite3

    from hexhop.records.checking import CheckOptions

#: Spellings that name no player (a record without the tag: ``?``)
NO_PLAYER = ("", "?")
#: Keys shorter than this are too short to call "one letter apart"
SHORTEST_KEY = 4
#: The players suggested with one player, at most (the first, in key order):
#: numbered names (``Gast 1``, ``Gast 2``…) would otherwise each bring many
MOST_SUGGESTED = 5
#: A bucket of more keys than this says nothing (a common name, a short
#: key's deletion): it is left out, which bounds the comparisons
BUCKET_LIMIT = 32
#: Why two players may be one person, as told
REASONS = {
    "one letter apart": N_("one letter apart"),
    "initial": N_("a first name as its initial"),
    "swapped": N_("first and last name swapped"),
}
_DATE = re.compile(r"[0-9]{4}(?:[.\-/][0-9]{2}(?:[.\-/][0-9]{2})?)?")


class Sides(NamedTuple):
    """The two players of one game: spellings, keys, names shown (None: the
    names file names none), its date and the identity of its file."""

    names: tuple[str, str]
    keys: tuple[str, str]
    shown: tuple[str | None, str | None]
    date: str | None
    real: str


@dataclass
class PlayerRow:
    """One player of an archive."""

    key: str
    name: str  # the name shown
    spellings: list[tuple[str, int]]  # most used first
    games: int
    first: str | None  # the earliest date known (as far as it is known: 1998, 1998.03)
    last: str | None

    def as_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "games": self.games,
            "first": self.first,
            "last": self.last,
            "spellings": [{"name": name, "games": count} for name, count in self.spellings],
        }


@dataclass(frozen=True)
class Suggestion:
    """Two players (keys) that are probably one person, and why."""

    first: str
    second: str
    why: str  # "one letter apart", "initial", "swapped"

    def as_json(self, rows: dict[str, PlayerRow]) -> dict[str, Any]:
        return {
            "players": [{"key": key, "name": rows[key].name} for key in (self.first, self.second)],
            "why": self.why,
        }


@dataclass
class Work:
    """The comparisons :func:`suggest` made (the tests bound them)."""

    comparisons: int = 0


@dataclass
class _Player:
    spellings: dict[str, int] = field(default_factory=dict)
    shown: str | None = None
    games: int = 0
    first: str | None = None
    last: str | None = None


# -- who plays ---------------------------------------------------------------------


def known_date(date: str | None) -> str | None:
    """The part of a date that is known, with dots (``1998.??.??`` -> ``1998``)."""
    if not date:
        return None
    found = _DATE.match(date.strip())
    return found.group(0).replace("-", ".").replace("/", ".") if found else None


def roster(games: Iterable[Sides]) -> list[PlayerRow]:
    """One row per player key of ``games``, by name shown (case aside), then key."""
    players: dict[str, _Player] = {}
    for game in games:
        date = known_date(game.date)
        for index, (name, key) in enumerate(zip(game.names, game.keys)):
            if name.strip() in NO_PLAYER:
                continue
            # one spelling however its letters are composed: an NFD ü prints as ü
            name = unicodedata.normalize("NFC", name)
            player = players.setdefault(key, _Player())
            player.spellings[name] = player.spellings.get(name, 0) + 1
            if game.shown[index] is not None:
                player.shown = game.shown[index]
            if index == 1 and key == game.keys[0] and game.names[0].strip() not in NO_PLAYER:
                continue  # one player on both sides: one game
            player.games += 1
            if date is not None:
                player.first = date if player.first is None else min(player.first, date)
                player.last = date if player.last is None else max(player.last, date)
    rows = [
        PlayerRow(
            key,
            player.shown or shown_name(player.spellings.items()),
            sorted(player.spellings.items(), key=lambda item: (-item[1], item[0])),
            player.games,
            player.first,
            player.last,
        )
        for key, player in players.items()
    ]
    rows.sort(key=lambda row: (row.name.casefold(), row.key))
    return rows


def sides_in_index(db: sqlite3.Connection, path: str) -> Iterator[Sides]:
    """The sides of every game of an index (its stored keys), in archive order."""
    sql = (
        "SELECT g.first, g.second, g.first_key, g.second_key, g.first_shown, g.second_shown,"
        " g.date, f.real FROM games g JOIN files f ON f.id = g.file ORDER BY f.seq, g.number"
    )
    types = (TEXT, TEXT, TEXT, TEXT, TEXT_OR_NULL, TEXT_OR_NULL, TEXT_OR_NULL, TEXT)
    for row in guarded_rows(db, path, sql, (), types):
        yield Sides((row[0], row[1]), (row[2], row[3]), (row[4], row[5]), row[6], path_of(row[7]))


def sides_in_archive(
    paths: list[str],
    options: CheckOptions,
    names: Names = NO_NAMES,
    globs: tuple[str, ...] = (),
    on_games: Callable[[int], None] | None = None,
) -> Iterator[Sides | str]:
    """The sides of every game of an archive read now, keyed by ``names``;
    a source that cannot be read comes as its message."""
    from .query import archive_games

    for found in archive_games(paths, options, globs, on_games):
        if isinstance(found, str):
            yield found
            continue
        game, hit = found
        players = (game.players + ["?", "?"])[:2]
        first, second = (names.identify(name, game.tags) for name in players)
        yield Sides(
            (players[0], players[1]),
            (first.key, second.key),
            (first.shown, second.shown),
            game.tags.get("Date"),
            hit.path,
        )


# -- who may be one person ---------------------------------------------------------


def suggest(rows: Iterable[PlayerRow], work: Work | None = None) -> list[Suggestion]:
    """The pairs of players that are probably one person, each pair once,
    in the order of their keys."""
    work = work if work is not None else Work()
    keys = sorted({row.key for row in rows})
    found: dict[tuple[str, str], str] = {}
    partners: dict[str, int] = {}
    for why, pairs in (
        ("one letter apart", _one_letter_apart(keys, work)),
        ("initial", _initials(keys, work)),
        ("swapped", _swapped(keys, work)),
    ):
        for first, second in pairs:
            pair = (min(first, second), max(first, second))
            if pair in found or any(partners.get(k, 0) >= MOST_SUGGESTED for k in pair):
                continue
            found[pair] = why
            for key in pair:
                partners[key] = partners.get(key, 0) + 1
    return [Suggestion(first, second, why) for (first, second), why in sorted(found.items())]


def _one_letter_apart(keys: list[str], work: Work) -> Iterator[tuple[str, str]]:
    """Keys one letter apart (one added, dropped or changed, or two
    neighbours swapped): two such keys have a deletion in common (the key
    itself, or it with one letter taken out), so only the keys of one
    bucket are compared."""
    buckets: dict[str, list[str]] = {}
    for key in keys:
        if len(key) < SHORTEST_KEY:
            continue
        for variant in {key} | {key[:i] + key[i + 1 :] for i in range(len(key))}:
            buckets.setdefault(variant, []).append(key)
    seen: set[tuple[str, str]] = set()
    for bucket in buckets.values():
        if len(bucket) < 2 or len(bucket) > BUCKET_LIMIT:
            continue
        for i, first in enumerate(bucket):
            for second in bucket[i + 1 :]:
                pair = (first, second)
                if pair in seen:
                    continue
                seen.add(pair)
                work.comparisons += 1
                if one_apart(first, second):
                    yield pair


def one_apart(first: str, second: str) -> bool:
    """Whether two different keys are one letter apart (added, dropped,
    changed, or two neighbours swapped); a digit is not a letter
    (``gast 1`` and ``gast 2`` are two guests)."""
    if abs(len(first) - len(second)) > 1 or first == second:
        return False
    start = 0
    while start < min(len(first), len(second)) and first[start] == second[start]:
        start += 1
    a, b = first[start:], second[start:]
    if len(a) == len(b):
        apart = a[1:] == b[1:] and not (a[0].isdigit() or b[0].isdigit())
        return apart or (len(a) >= 2 and a[0] == b[1] and a[1] == b[0] and a[2:] == b[2:])
    longer, shorter = (a, b) if len(a) > len(b) else (b, a)
    return longer[1:] == shorter and not longer[0].isdigit()


def _split(key: str) -> tuple[str, str] | None:
    """(first names, last name) of a key of two words or more."""
    words = key.split(" ")
    return (" ".join(words[:-1]), words[-1]) if len(words) >= 2 else None


def _initials(keys: list[str], work: Work) -> Iterator[tuple[str, str]]:
    """``a. mueller`` (or ``a mueller``) and each ``anna mueller``: the full
    names are bucketed by last name and first letter, and each initial
    looks in its bucket (at most :data:`BUCKET_LIMIT` of them)."""
    full: dict[tuple[str, str], list[str]] = {}
    initials: list[tuple[str, str, str]] = []
    for key in keys:
        split = _split(key)
        if split is None:
            continue
        first, last = split
        if re.fullmatch(r"[^\W\d_]\.?", first):
            initials.append((key, first[0], last))
        elif first[:1].isalpha():
            full.setdefault((last, first[0]), []).append(key)
    for key, letter, last in initials:
        bucket = full.get((last, letter), [])
        if len(bucket) > BUCKET_LIMIT:
            continue
        for other in bucket:
            work.comparisons += 1
            yield key, other


def _swapped(keys: list[str], work: Work) -> Iterator[tuple[str, str]]:
    """``mueller anna`` and ``anna mueller``: the key with its last word put
    first is looked up (one look-up per key)."""
    known = set(keys)
    for key in keys:
        words = key.split(" ")
        if len(words) < 2:
            continue
        turned = " ".join([words[-1], *words[:-1]])
        work.comparisons += 1
        if turned != key and turned in known:
            yield key, turned


# -- what is written -----------------------------------------------------------------


def roster_json(rows: list[PlayerRow], suggestions: list[Suggestion]) -> dict[str, Any]:
    """What ``hexhop players --format json`` and the API's ``players()`` give."""
    by_key = {row.key: row for row in rows}
    return {
        "players": [row.as_json() for row in rows],
        "suggestions": [suggestion.as_json(by_key) for suggestion in suggestions],
    }


def suggestions_file(rows: list[PlayerRow], suggestions: list[Suggestion]) -> str:
    """The suggestions as a names file to edit: the players a chain of
    suggestions links, one block each, the one with the most games at the
    margin and the others' spellings under it."""
    by_key = {row.key: row for row in rows}
    groups = _linked(suggestions)
    lines = [
        _("# Players that hexhop players thinks may be one person; its keys do not join them."),
        _("# Keep the lines of those who are one person and delete the others; the name at"),
        _("# the margin is the name shown. Then name this file with --names (or call it"),
        _("# hexhop-names.txt beside the archive) and run hexhop index again."),
    ]
    told: dict[str, list[Suggestion]] = {}  # each group's suggestions, by its first key
    group_of = {key: group[0] for group in groups for key in group}
    for suggestion in suggestions:
        told.setdefault(group_of[suggestion.first], []).append(suggestion)
    for group in groups:
        members = sorted(
            (by_key[key] for key in group), key=lambda row: (-row.games, row.name, row.key)
        )
        lines.append("")
        for suggestion in told[group[0]]:
            first, second = by_key[suggestion.first].name, by_key[suggestion.second].name
            lines.append(f"# {first} / {second}: {_(REASONS[suggestion.why])}")
        lines.append(members[0].name)
        lines.extend(
            f"    {name}"
            for row in members
            for name, _count in row.spellings
            if row is not members[0] and _listable(name)
        )
    return "\n".join(lines) + "\n"


def _listable(name: str) -> bool:
    """Whether a names file can list ``name`` as a spelling (a ``#`` starts
    a comment there, a ``[`` a condition)."""
    return bool(name.strip()) and not name.lstrip().startswith("#") and "[" not in name


def _linked(suggestions: list[Suggestion]) -> list[list[str]]:
    """The keys that suggestions link, in groups (a key is in one group: a
    names file gives a spelling to one player), in the order of their first key."""
    parent: dict[str, str] = {}

    def root(key: str) -> str:
        while parent.setdefault(key, key) != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    for suggestion in suggestions:
        parent[root(suggestion.first)] = root(suggestion.second)
    groups: dict[str, list[str]] = {}
    for key in sorted(parent):
        groups.setdefault(root(key), []).append(key)
    return sorted(groups.values())
