"""An archive of six people, each written in many spellings, and the
club's names file that says who is who (the people agreement tests).

Anna Müller is written as a club's records write her (an umlaut, ``ue``,
capitals, ``Last, First``, a combining umlaut) and once as ``Muller,
Anna``, which only the names file joins; two people named Peter Schmidt
are kept apart by the names file (by the Site of their games).
"""

from __future__ import annotations

import re
from pathlib import Path

from hexhop.engine.generate import random_archive
from hexhop.notation import format_archive

ANNA, KAETHE, SOEREN, DENIZ, SCHMIDT_KASSEL, SCHMIDT_BREMEN = range(6)

#: Each person's spellings (the first: the most used, the name shown)
SPELLINGS: dict[int, list[str]] = {
    ANNA: ["Anna Müller", "Anna Mueller", "ANNA MÜLLER", "Müller, Anna", "Anna Mu\u0308ller"],
    KAETHE: ["Käthe Weiß", "Kaethe Weiss", "KÄTHE WEISS"],
    SOEREN: ["Søren Kjær", "Soeren Kjaer", "Kjær, Søren"],
    DENIZ: ["Deniz Yılmaz", "Deniz Yilmaz"],
    SCHMIDT_KASSEL: ["Peter Schmidt"],
    SCHMIDT_BREMEN: ["Peter Schmidt"],
}
ONLY_BY_NAMES = "Muller, Anna"  # Anna Müller, as only the names file says
SHOWN = {
    ANNA: "Anna Müller",
    KAETHE: "Käthe Weiß",
    SOEREN: "Søren Kjær",
    DENIZ: "Deniz Yılmaz",
    SCHMIDT_KASSEL: "Peter Schmidt (Kassel)",
    SCHMIDT_BREMEN: "Peter Schmidt (Bremen)",
}
KEYS = {
    ANNA: "anna mueller",
    KAETHE: "kaethe weiss",
    SOEREN: "soeren kjaer",
    DENIZ: "deniz yilmaz",
    SCHMIDT_KASSEL: "peter schmidt (kassel)",
    SCHMIDT_BREMEN: "peter schmidt (bremen)",
}
NAMES_FILE = """\
# the club's names file
Anna Müller
    Muller, Anna

Peter Schmidt (Kassel)
    Peter Schmidt  [Site "Kassel*"]
Peter Schmidt (Bremen)
    Peter Schmidt  [Site "Bremen*"]
"""


def pairings() -> list[tuple[int, int, str, str, str]]:
    """(north, south, north's spelling, south's spelling, site) of each game:
    every two people four times (but the two Peter Schmidts, who never meet),
    the spellings taken in turn, the first one most often."""
    games = []
    turn = {person: 0 for person in SPELLINGS}

    def spelled(person: int) -> str:
        names = SPELLINGS[person]
        turn[person] += 1
        if person == ANNA and turn[person] == 11:
            return ONLY_BY_NAMES
        return names[0] if turn[person] % 2 else names[(turn[person] // 2) % len(names)]

    for round_ in range(4):
        for one in SPELLINGS:
            for other in SPELLINGS:
                if one >= other or {one, other} == {SCHMIDT_KASSEL, SCHMIDT_BREMEN}:
                    continue
                north, south = (other, one) if round_ % 2 else (one, other)
                site = "Bremen" if SCHMIDT_BREMEN in (north, south) else "Kassel"
                games.append((north, south, spelled(north), spelled(south), site))
    return games


def make_people_archive(root: Path) -> Path:
    """``root/people``: the games in two files, and ``hexhop-names.txt`` beside them."""
    folder = root / "people"
    folder.mkdir()
    games = pairings()
    texts = re.split(
        r"\n(?=\[Game )",
        format_archive(random_archive("Hexalit", len(games), 34, max_plies=10)).strip(),
    )
    records = []
    for number, ((_n, _s, north, south, site), text) in enumerate(zip(games, texts), 1):
        text = text.replace('[North "Random"]', f'[North "{north}"]')
        text = text.replace('[South "Random"]', f'[South "{south}"]')
        text = text.replace(
            '[Event "Random games"]',
            f'[Event "Vereinsmeisterschaft"]\n[Site "{site}"]\n[Date "2010.{1 + number % 12:02}.{1 + number % 28:02}"]',
        )
        records.append(text.strip() + "\n")
    half = len(records) // 2
    (folder / "2010-a.hxl").write_text("\n".join(records[:half]), "utf-8")
    (folder / "2010-b.hxl").write_text("\n".join(records[half:]), "utf-8")
    (folder / "hexhop-names.txt").write_text(NAMES_FILE, "utf-8")
    return folder


def games_of(person: int) -> list[int]:
    """The numbers (from 1, in archive order) of the games ``person`` played."""
    return [
        number
        for number, (north, south, *_rest) in enumerate(pairings(), 1)
        if person in (north, south)
    ]
