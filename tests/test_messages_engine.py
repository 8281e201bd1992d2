"""The rules' reasons in German: with ``--lang de`` a
finding about an illegal action or a bad Position or Reserve tag is German
from end to end, and English output stays as it was."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexhop.cli.main import cli
from hexhop.engine.replay import replay_game
from hexhop.messages import set_language
from hexhop.notation import parse_text

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "samples" / "broken"
GOOD = ROOT / "samples" / "good"

# words of English reasons that German sentences never use
ENGLISH = re.compile(
    r"\b(the|is|and|legal|ply|piece|cell|can|must|this|there|won|after|North|South|"
    r"Red|Turquoise|empty|board|point|reserve|expected|not)\b"
)


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    set_language("en")


def check(*args: str) -> list[str]:
    """The finding lines of ``hexhop check`` (the source excerpts left out)."""
    done = CliRunner().invoke(cli, [*args])
    assert done.exit_code == 1, done.output
    return [line for line in done.output.splitlines() if re.search(r": (Fehler|error) ", line)]


def sample(name: str) -> str:
    return str(BROKEN / name)


PAWN = sample("illegal-hexalit-pawn-capture.hxl")
STOPS = sample("illegal-huepfer-stops-early.hpf")
REVISIT = sample("illegal-huepfer-revisit.hpf")
OFF = sample("illegal-hexalit-off-board.hxl")
ESCAPE = sample("illegal-hexalit-one-must-escape.hxl")


def test_no_english_reason_in_the_german_check_of_the_broken_samples():
    lines = check("--lang", "de", "check", str(BROKEN))
    assert len(lines) == 23
    for line in lines:
        message = line.split(" Fehler ", 1)[1]
        assert not ENGLISH.search(message), line


@pytest.mark.parametrize(
    ("path", "german"),
    [
        (
            PAWN,
            ":8:9: Fehler IL01 Halbzug 2, Süd: E6°D5 ist nicht erlaubt: die 2 auf E6 zieht "
            "nur vorwärts nach D6, wenn das Feld leer ist, und schlägt nur auf D5 oder D7, "
            "wenn dort ein Würfel von Nord steht, und D5 ist leer; dieser Würfel kann E6W1, "
            "E6W2, E6W3, E6W4, E6W5, E6W6, E6XD6 spielen",
        ),
        (
            STOPS,
            ":10:13: Fehler IL01 Halbzug 10, Türkis: e3xc3xc1 ist nicht erlaubt: e3xc3xc1 "
            "hört zu früh auf: der Spielstein kann von c1 aus noch schlagen (c1xa1); erlaubte "
            "Züge des Spielsteins auf e3: e3xc3xc1xa1",
        ),
        (
            REVISIT,
            ":9:4: Fehler IL01 Halbzug 1, Rot: a2-c2-a2@a3 ist nicht erlaubt: a2-c2-a2 landet "
            "wieder auf a2; beim Hüpfen darf kein Punkt zweimal besucht werden; erlaubte Züge "
            "des Spielsteins auf a2: a2-c2@c1, a2-c2@c3, a2-c2@d2",
        ),
        (
            OFF,
            ":8:4: Fehler IL02 Halbzug 1, Nord: A2XB2 ist nicht erlaubt: A2 liegt nicht auf "
            "dem Brett",
        ),
        (
            ESCAPE,
            ":8:24: Fehler IL01 Halbzug 4, Süd: E5W6 ist nicht erlaubt: die Eins von Süd auf "
            "D7 ist bedroht und kann fliehen, also muss Süd sie auf ein nicht bedrohtes Feld "
            "ziehen: D7XD5 oder D7XD9; dieser Würfel hat keinen erlaubten Zug",
        ),
    ],
)
def test_german_reasons_of_illegal_actions(path, german):
    assert check("--lang", "de", "check", path) == [path + german]


def test_english_reasons_stay_as_they_were_before_and_after_german():
    """A start position is shared between games: a refusal made on it in one
    language is not handed out again in another."""
    english = [
        f"{PAWN}:8:9: error IL01 ply 2, South: E6°D5 is not legal: the 2 on E6 moves only "
        "forward to D6 when it is empty, and captures only on D5 or D7 when a North die "
        "stands there, and D5 is empty; this die can play E6W1, E6W2, E6W3, E6W4, E6W5, "
        "E6W6, E6XD6",
        f"{REVISIT}:9:4: error IL01 ply 1, Red: a2-c2-a2@a3 is not legal: a2-c2-a2 lands on "
        "a2 again; a hop may not revisit a point; legal turns of the piece on a2: a2-c2@c1, "
        "a2-c2@c3, a2-c2@d2",
    ]
    assert check("check", PAWN, REVISIT) == english
    assert check("--lang", "de", "check", PAWN, REVISIT)[1].startswith(
        f"{REVISIT}:9:4: Fehler IL01 Halbzug 1, Rot: a2-c2-a2@a3 ist nicht erlaubt: a2-c2-a2 "
        "landet wieder auf a2"
    )
    assert check("check", PAWN, REVISIT) == english


@pytest.fixture
def records(tmp_path):
    files = {
        "reserve.hpf": '[Game "Hüpfer"]\n[Reserve "zwölf"]\n\n1. a2-c2@c1 *\n',
        "position.hxl": '[Game "Hexalit"]\n[Position "N: A4=5 Q9=1; S: F7=1"]\n\n*\n',
        "position.hpf": '[Game "Hüpfer"]\n[Position "R: a1 b1; T: e5; turn: X"]\n\n*\n',
        "assumed.hpf": '[Game "Hüpfer"]\n\n1. a2-c2@c1 f5-d5@c5 2. h1-h3@h4 *\n',
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, "utf-8")
    return [str(tmp_path / name) for name in files]


def test_german_header_reasons_and_the_assumed_board(records):
    reserve, position_hxl, position_hpf, assumed = records
    assert check("--lang", "de", "check", *records) == [
        f"{reserve}:2:1: Fehler HD04 ungültiger Reserve-Wert 'zwölf': erwartet eine Anzahl "
        "Spielsteine wie 12, oder eine für jede Partei wie 12/10 (Rot/Türkis)",
        f"{position_hxl}:2:1: Fehler HD05 ungültiger Position-Wert: 'Q9=1': Q9 liegt nicht "
        "auf dem Brett",
        f"{position_hpf}:2:1: Fehler HD05 ungültiger Position-Wert: turn muss R oder T sein, "
        "nicht 'X'",
        f"{assumed}:3:25: Fehler IL02 Halbzug 3, Rot: h1-h3@h4 ist nicht erlaubt: h1 liegt "
        "nicht auf dem Brett (es gibt kein Board-Tag, also wurde das Brett 6x6 angenommen)",
    ]
    assert check("check", *records) == [
        f"{reserve}:2:1: error HD04 bad Reserve value 'zwölf': expected a number of pieces "
        "such as 12, or one for each side such as 12/10 (Red/Turquoise)",
        f"{position_hxl}:2:1: error HD05 bad Position value: 'Q9=1': Q9 is not on the board",
        f"{position_hpf}:2:1: error HD05 bad Position value: turn must be R or T, not 'X'",
        f"{assumed}:3:25: error IL02 ply 3, Red: h1-h3@h4 is not legal: h1 is not on the "
        "board (there is no Board tag, so the 6x6 board was assumed)",
    ]


VARIATIONS = (
    '[Game "Hexalit"]\n\n1. B4W3 (1. A7W2) (1. C7XD7) (1. F4XE4) (1. A4XA9) (1. B4W7) '
    "(1. A10XC9) D7W1 *\n"
    '[Game "Trigeo"]\n\n1. C7XC8=6 (1. double) (1. B5W4) *\n'
    '[Game "Hüpfer"]\n\n1. a2-c2@c1 (1. a2-c2) (1. c1-c3@c4) (1. e5-e3@e2) (1. a2xc2) *\n'
)


def test_more_reasons_in_german():
    set_language("de")
    messages = [f.message for game in parse_text(VARIATIONS) for f in replay_game(game).findings]
    assert len(messages) == 13
    for message in messages:
        assert not ENGLISH.search(message), message
    assert messages[1] == (
        "Halbzug 1, Nord: C7XD7 ist nicht erlaubt: die 2 auf C7 zieht nur vorwärts nach D7, "
        "wenn das Feld leer ist, und schlägt nur auf D6 oder D8, wenn dort ein Würfel von Süd "
        "steht; D7 ist nicht leer, und eine 2 schlägt nie nach vorn; dieser Würfel kann C7W1, "
        "C7W2, C7W3, C7W4, C7W5, C7W6 spielen"
    )
    assert messages[5] == (
        "Halbzug 1, Nord: A10XC9 ist nicht erlaubt: die 5 auf A10 zieht entlang ihrer "
        "Seitenrichtungen (N, SO, SW), und C9 liegt auf keiner geraden Linie von A10; dieser "
        "Würfel kann A10XA11 spielen"
    )


def test_the_rules_make_no_sentence_while_a_record_is_legal(monkeypatch):
    """The reasons are written only when a finding is made, never per ply."""
    import hexhop.engine.dice.explain as dice_explain
    import hexhop.engine.dice.text as dice_text
    import hexhop.engine.huepfer.explain as huepfer_explain
    import hexhop.engine.huepfer.position as huepfer_position
    import hexhop.engine.replay as replay

    calls: list[str] = []

    def counted(template: str, **params: object) -> str:
        calls.append(template)
        return template

    for module in (dice_explain, dice_text, huepfer_position, huepfer_explain, replay):
        monkeypatch.setattr(module, "words", counted)
    set_language("de")
    plies = 0
    for path in sorted(GOOD.iterdir()):
        for game in parse_text(path.read_text("utf-8")):
            report = replay_game(game)
            assert not [f for f in report.findings if f.severity == "error"], path
            plies += report.plies
    assert plies > 100 and calls == []
