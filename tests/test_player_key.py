"""A player is a person: one key for every spelling, and the club's names file."""

from __future__ import annotations

import unicodedata

import pytest

from hexhop.archive.players import (
    Identity,
    NamesFileError,
    player_key,
    read_names,
    shown_name,
)

ANNA = (
    "Anna Müller",
    "Mueller, Anna",
    "ANNA MÜLLER",
    "Müller, Anna",
    "Anna Mu\u0308ller",
    " anna   mueller ",
)


@pytest.mark.parametrize("spelling", ANNA)
def test_every_spelling_of_anna_is_one_key(spelling):
    assert player_key(spelling) == "anna mueller"


@pytest.mark.parametrize(
    "one, other",
    [
        ("Käthe Weiß", "Kaethe Weiss"),
        ("Søren Kjær", "Soeren Kjaer"),
        ("Yılmaz", "YILMAZ"),
        ("İpek Şahin", "Ipek Sahin"),
        ("Łukasz Wałęsa", "Lukasz Walesa"),
        ("Þóra Guðmundsdóttir", "Thora Gudmundsdottir"),
        ("Chloé Dubois", "Dubois, Chloe"),
        ("Åsa Öberg", "Aasa Oeberg"),
    ],
)
def test_letters_without_a_decomposition_are_written_out(one, other):
    assert player_key(one) == player_key(other)


@pytest.mark.parametrize(
    "one, other",
    [("Muller", "Müller"), ("Michael", "Michal"), ("Weis", "Weiss"), ("Manuel", "Manul")],
)
def test_the_key_does_not_guess_what_letters_cannot_tell(one, other):
    """Muller may be Müller without its dots, or another name: a suggestion, not a key."""
    assert player_key(one) != player_key(other)


def test_the_key_is_nfc_and_stable():
    for name in ANNA:
        key = player_key(name)
        assert key == unicodedata.normalize("NFC", key) == player_key(key)


NAMES = """\
# the club's names
Anna Müller
    Muller, Anna
    A. Müller

Peter Schmidt (Kassel)
    Peter Schmidt  [Site "Kassel*"]
Peter Schmidt (Bremen)
    Peter Schmidt  [Site "Bremen*"] [Date "2001*"]
"""


def test_a_names_file_joins_spellings_and_shows_its_name():
    names = read_names(NAMES)
    assert names.identify("MULLER, ANNA") == Identity("anna mueller", "Anna Müller")
    assert names.identify("a. müller") == Identity("anna mueller", "Anna Müller")
    assert names.identify("Mueller, Anna") == Identity("anna mueller", "Anna Müller")
    assert names.identify("Bert Brecht") == Identity("bert brecht")


def test_two_people_of_one_name_are_told_apart_by_their_games_tags():
    names = read_names(NAMES)
    kassel = names.identify("Peter Schmidt", {"Site": "Kassel, Hessen"})
    bremen = names.identify("Peter Schmidt", {"Site": "Bremen", "Date": "2001.05.01"})
    assert kassel == Identity("peter schmidt (kassel)", "Peter Schmidt (Kassel)")
    assert bremen == Identity("peter schmidt (bremen)", "Peter Schmidt (Bremen)")
    # a game of neither place (or of Bremen in another year) is neither of them
    assert names.identify("Peter Schmidt", {"Site": "Bremen", "Date": "2002.05.01"}).shown is None
    assert names.identify("Peter Schmidt").key == "peter schmidt"


@pytest.mark.parametrize(
    "text, message",
    [
        ("  Anna\nBert\n", "names.txt:1:3: a spelling before any player's name"),
        (
            "Anna\n  A. M. [Site Kassel]\n",
            'names.txt:2:9: expected a condition like [Site "Kassel*"] after the name',
        ),
        ('Anna\n  [Site "K*"]\n', "names.txt:2:3: a condition without a spelling before it"),
        (
            "Anna Müller\n  A. Müller\nAndreas Müller\n  A. MÜLLER\n",
            "names.txt:4:1: this spelling names Anna Müller (line 2) and Andreas Müller: "
            'tell them apart with a condition such as [Site "Kassel*"]',
        ),
    ],
)
def test_a_names_file_that_is_not_one_is_refused_at_its_line(text, message):
    with pytest.raises(NamesFileError) as refused:
        read_names(text)
    assert str(refused.value) == message


def test_the_shown_name_is_the_most_used_spelling_then_a_fixed_order():
    assert shown_name([("Mueller", 5), ("Müller", 3)]) == "Mueller"
    assert shown_name([("Mueller", 3), ("Müller", 3), ("MÜLLER", 1)]) == "Müller"
    assert shown_name([("Anna Müller", 2), ("Müller", 2)]) == "Anna Müller"
    assert shown_name([("b", 1), ("a", 1)]) == "a"


def test_the_forms_find_matches_a_spelling_in():
    from hexhop.archive.players import key_form, plain_form

    assert plain_form("Søren  Kjær") == "soren kjaer"  # ø as o, æ as ae
    assert plain_form("Yılmaz") == "yilmaz" and plain_form("Müller") == "muller"
    assert plain_form("Käthe Weiß") == "kathe weiss"
    assert key_form("Müller, Anna") == "mueller, anna"  # as the key, not turned
    assert key_form("Anna Mu\u0308ller") == key_form("ANNA MÜLLER") == "anna mueller"
    assert key_form("Søren") == "soeren"


def test_a_condition_names_its_tag_in_any_case_or_in_german():
    from hexhop.archive.players import read_names

    names = read_names('Peter Schmidt (Kassel)\n    Peter Schmidt  [ort "kassel*"]\n')
    assert (
        names.identify("PETER SCHMIDT", {"Site": "Kassel-Nord"}).shown == "Peter Schmidt (Kassel)"
    )
    assert names.identify("Peter Schmidt", {"Site": "Bremen"}).key == "peter schmidt"
    assert names.identify("Peter Schmidt").key == "peter schmidt"
