"""Numbers are ASCII digits only (docs/safety.md): every character Unicode
calls a number (categories Nd, No, Nl: ``٣``, ``²``, ``Ⅻ``, ``½``, ...) given
where a number belongs, to every reader and option that takes one, is a
clean finding or message, never a traceback, a 500, or a number.

Python reads such characters: ``"²".isdigit()`` is true, ``int("٣")`` is 3,
``\\d`` matches ``٣``.  Each reader gets every such character where one run
per character is cheap (the records, in one file of one game per
character; the functions behind the options and the web pages); the
commands and the web app, which cost more a run, get one character of each
kind (:data:`SAMPLE`) at every number they take.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from safety_cases import KASSEL, SUPERSCRIPT_CUBE

from hexhop.archive.analysed import candidates
from hexhop.archive.index import IndexProblem
from hexhop.archive.query import QueryError, board_size, date_range, int_range
from hexhop.archive.split import date_part
from hexhop.cli.main import cli
from hexhop.cli.options import Count, Seconds
from hexhop.cli.render_cmd import choose_plies
from hexhop.notation.numbers import MAX_DIGITS, ascii_decimal, ascii_int

#: Every character Unicode calls a number, but 0-9.
DIGITLIKE = tuple(
    chr(point)
    for point in range(sys.maxunicode + 1)
    if unicodedata.category(chr(point)) in ("Nd", "No", "Nl") and not "0" <= chr(point) <= "9"
)
#: One of each kind: a digit int() reads (Arabic-Indic three, full-width
#: nine, mathematical bold nine), one isdigit() takes but int() refuses
#: (superscript two, circled one), a Roman numeral, a vulgar fraction.
SAMPLE = ("٣", "９", "𝟗", "²", "①", "Ⅻ", "½")


def test_the_characters_are_all_there():
    assert len(DIGITLIKE) > 1_700  # 1,781 in Unicode 15
    assert set(SAMPLE) <= set(DIGITLIKE)
    assert sum(c.isdigit() for c in DIGITLIKE) > 700  # what isdigit() lets through
    assert sum(c.isdecimal() for c in DIGITLIKE) > 600  # what int() reads


# ---------------------------------------------------------------- the function


@pytest.mark.parametrize(
    ("text", "number"),
    [("0", 0), ("7", 7), ("07", 7), ("1998", 1998), ("9" * MAX_DIGITS, 10**MAX_DIGITS - 1)],
)
def test_ascii_digits_are_a_number(text, number):
    assert ascii_int(text) == number


@pytest.mark.parametrize(
    "text", ["", " 7", "7 ", "+7", "-7", "1_000", "7.", "0x7", "9" * (MAX_DIGITS + 1), "9" * 5_000]
)
def test_anything_else_is_no_number(text):
    assert ascii_int(text) is None


def test_a_longer_number_when_asked_for():
    assert ascii_int("9" * 19, max_digits=19) == 10**19 - 1
    assert ascii_int("99", max_digits=1) is None


def test_no_digitlike_character_is_a_number():
    for c in DIGITLIKE:
        for text in (c, "1" + c, c + "1", "1" + c + "1", c * 3):
            assert ascii_int(text) is None, text
        for text in (c, "0." + c, c + ".5", "1" + c + ".0"):
            assert ascii_decimal(text) is None, text


@pytest.mark.parametrize(
    ("text", "number"), [("2", 2.0), ("0.5", 0.5), (".5", 0.5), ("2.", 2.0), ("007.250", 7.25)]
)
def test_decimals(text, number):
    assert ascii_decimal(text) == number


@pytest.mark.parametrize("text", ["", ".", "1.2.3", "1e3", "inf", "nan", "-1", " 1", "1_0.5"])
def test_no_decimal(text):
    assert ascii_decimal(text) is None


# ---------------------------------------------------------------- records

HEXALIT = '[Game "Hexalit"]\n'
HUEPFER = '[Game "Hüpfer"]\n'
# kind: (a game with {c} where a number belongs, the ASCII digits that make
# it read, the finding each character gives: code, line, column)
POSITION = HEXALIT + '[Position "{}"]\n\n*\n'
RECORDS = {
    "cube in Position": (POSITION.format("N: B4=1; S: E4=1; cube: {c}"), "2", "HD05", 2, 1),
    "face in Position": (POSITION.format("N: B4={c}; S: E4=1"), "1", "HD05", 2, 1),
    "rolled face in Position": (POSITION.format("N: B4=2/{c}; S: E4=1"), "1", "HD05", 2, 1),
    "cell in Position": (POSITION.format("N: B{c}=1; S: E4=1"), "4", "HD05", 2, 1),
    "face in a listing": (POSITION.format("B4-{c}; E4-1"), "1", "HD05", 2, 1),
    "Hüpfer reserve in Position": (
        HUEPFER + '[Position "R: a1; T: f6; reserve: {c}; turn: R"]\n\n*\n',
        *("3", "HD05", 2, 1),
    ),
    "Reserve": (HUEPFER + '[Reserve "{c}"]\n\n*\n', "12", "HD04", 2, 1),
    "Reserve of each side": (HUEPFER + '[Reserve "1{c}/12"]\n\n*\n', "2", "HD04", 2, 1),
    "Board": (HUEPFER + '[Board "{c}x{c}"]\n\n*\n', "8", "HD03", 2, 1),
    "move number": (HEXALIT + "\n{c}. B4W3 *\n", "1", "SY01", 3, 1),
    "move number's last digit": (HEXALIT + "\n1{c}. B4W3 *\n", "", "SY01", 3, 1),
    "cube in movetext": (HEXALIT + "\n1. B4W3 D7W1 2. double {c} take *\n", "2", "SY01", 3, 24),
    "rolled face": (HEXALIT + "\n1. B4W{c} *\n", "3", "SY01", 3, 7),
    "promotion": ('[Game "Trigeo"]\n\n1. C7XD7={c} *\n', "6", "SY01", 3, 10),
    "NAG": (HEXALIT + "\n1. B4W3 ${c} *\n", "1", "SY01", 3, 9),
    "Hüpfer point": (HUEPFER + "\n1. a{c}-a3@a4 *\n", "1", "SY01", 3, 4),
}


def _check(path: Path) -> list[dict]:
    """The games ``check --format json`` reports for ``path``."""
    result = CliRunner().invoke(cli, ["check", "--format", "json", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    [file] = json.loads(result.output)["files"]
    return list(file["games"])


def _errors(game: dict) -> list[tuple[str, int, int]]:
    return [
        (f["code"], f["line"], f["column"]) for f in game["findings"] if f["severity"] == "error"
    ]


@pytest.mark.parametrize("kind", RECORDS)
def test_every_digitlike_character_in_a_record_is_a_finding(tmp_path, kind):
    template, digits, code, line, column = RECORDS[kind]
    game_lines = template.count("\n") + 1
    path = tmp_path / ("a.hpf" if "Hüpfer" in template else "a.hxl")
    path.write_text("\n".join(template.format(c=c) for c in DIGITLIKE), "utf-8")
    games = _check(path)
    assert len(games) == len(DIGITLIKE)
    for i, game in enumerate(games):
        expected = [(code, i * game_lines + line, column)]
        assert _errors(game) == expected, (DIGITLIKE[i], game["findings"])
    # the same game in ASCII digits has no such finding
    path.write_text(template.format(c=digits), "utf-8")
    [game] = _check(path)
    assert not [f for f in game["findings"] if f["code"] == code], game["findings"]


def test_round_and_date_in_such_characters_are_text(tmp_path):
    """Round and Date are not read as numbers: any text is kept as written
    (and a file name made of a date takes its ASCII digits only)."""
    path = tmp_path / "a.hxl"
    template = HEXALIT + '[Round "{c}"]\n[Date "199{c}.0{c}.0{c}"]\n\n1. B4W3 *\n'
    path.write_text("\n".join(template.format(c=c) for c in DIGITLIKE), "utf-8")
    games = _check(path)
    assert [game["valid"] for game in games] == [True] * len(DIGITLIKE)
    assert {date_part(f"199{c}.01.01") for c in DIGITLIKE} == {""}
    assert {date_part(f"1998.0{c}.01") for c in DIGITLIKE} == {"1998"}


def test_check_of_a_folder_reports_both_files(tmp_path):
    (tmp_path / "sup.hxl").write_text(SUPERSCRIPT_CUBE, "utf-8")
    shutil.copy(KASSEL, tmp_path / "hexalit-kassel-1998.hxl")
    result = CliRunner().invoke(cli, ["check", "--format", "json", str(tmp_path)])
    assert result.exit_code == 1, result.output
    files = {Path(f["path"]).name: f["games"] for f in json.loads(result.output)["files"]}
    assert sorted(files) == ["hexalit-kassel-1998.hxl", "sup.hxl"]
    [good] = files["hexalit-kassel-1998.hxl"]
    assert good["valid"] and good["plies"] == 42
    [bad] = files["sup.hxl"]
    assert [(f["code"], f["line"], f["message"]) for f in bad["findings"]] == [
        ("HD05", 2, "bad Position value: cube must be 2, 4, 8, 16, 32 or 64, not '²'")
    ]
    text = CliRunner().invoke(cli, ["check", str(tmp_path)])
    assert "Traceback" not in text.output
    assert "1 valid, 1 invalid" in text.output


# ---------------------------------------------------------------- options


def _commands(group: click.Group = cli, path: tuple[str, ...] = ()) -> Iterator[tuple]:
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        if isinstance(command, click.Group):
            yield from _commands(command, (*path, name))
        else:
            yield (*path, name), command


NUMBER_TYPES = (click.types.IntParamType, click.types.FloatParamType)
NUMERIC_OPTIONS = [
    (words, param.opts[-1])
    for words, command in _commands()
    for param in command.params
    if isinstance(param.type, NUMBER_TYPES)
]


def test_every_numeric_option_reads_ascii_digits_only():
    assert len(NUMERIC_OPTIONS) > 30
    for words, command in _commands():
        for param in command.params:
            if isinstance(param.type, NUMBER_TYPES):
                assert isinstance(param.type, (Count, Seconds)), (words, param.name)


@pytest.mark.parametrize(
    ("words", "option"), NUMERIC_OPTIONS, ids=[" ".join((*w, o)) for w, o in NUMERIC_OPTIONS]
)
def test_each_numeric_option_refuses_such_characters(words, option, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a command that took the number would write here
    for c in SAMPLE:
        result = CliRunner().invoke(cli, [*words, option, c, "nowhere.hxl"])
        assert result.exit_code == 2, (c, result.output)
        assert "Invalid value for " in result.output and f"'{option}'" in result.output
        assert f"'{c}' is not a valid" in result.output, result.output


def test_the_option_types_refuse_every_such_character():
    count, seconds = Count(0), Seconds(0, min_open=True)
    for c in DIGITLIKE:
        for text in (c, "1" + c):
            with pytest.raises(click.BadParameter, match="is not a valid"):
                count.convert(text, None, None)
            with pytest.raises(click.BadParameter, match="is not a valid"):
                seconds.convert(text, None, None)


def test_the_option_types_read_what_click_read():
    assert Count(1).convert("12", None, None) == 12
    assert Count().convert("-3", None, None) == -3  # a seed
    assert Seconds(0, min_open=True).convert("0.5", None, None) == 0.5
    with pytest.raises(click.BadParameter, match=r"-3 is not in the range x>=0"):
        Count(0).convert("-3", None, None)
    with pytest.raises(click.BadParameter, match=r"'\+3' is not a valid integer range\. Write"):
        Count(0).convert("+3", None, None)
    with pytest.raises(click.BadParameter, match=r"0 is not in the range x>=1"):
        Count(1).convert("0", None, None)
    with pytest.raises(click.BadParameter, match="'1e3' is not a valid float range"):
        Seconds(0, min_open=True).convert("1e3", None, None)


def test_the_filters_refuse_every_such_character():
    for c in DIGITLIKE:
        for text, read in (
            (c, board_size),
            (f"{c}x{c}", board_size),
            (f"{c}..60", lambda t: int_range(t, "--length")),
            (f"2{c}", lambda t: int_range(t, "--length")),
            (f"199{c}", date_range),
            (f"1998.0{c}", date_range),
        ):
            with pytest.raises(QueryError):
                read(text)
        with pytest.raises(click.BadParameter, match="expected N, N-M or last"):
            choose_plies(c, 10)
        with pytest.raises(click.BadParameter, match="expected N, N-M or last"):
            choose_plies(f"1-{c}", 10)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["show", "--ply", "{c}", str(KASSEL)], "Invalid value for --ply: '{c}': expected"),
        (["moves", "--ply", "{c}", str(KASSEL)], "Invalid value for --ply: '{c}': expected"),
        (["render", "--plies", "{c}", str(KASSEL)], "Invalid value for --plies: '{c}': expected"),
        (["find", "--board", "{c}", str(KASSEL)], "--board '{c}': expected one of"),
        (["find", "--length", "{c}", str(KASSEL)], "--length '{c}': expected MIN..MAX"),
        (["find", "--date", "{c}", str(KASSEL)], "--date '{c}': expected FROM..TO"),
        (
            ["moves", "--game", "Hexalit", "--position", "N: B4=1; S: E4={c}"],
            "'E4={c}' is not a die",
        ),
        (
            ["moves", "--game", "Hüpfer", "--board", "{c}x{c}", "--position", "R: a1; T: f6"],
            "bad Board value '{c}x{c}'",
        ),
        (
            ["find", "--game", "Hexalit", "--position", "N: B4=1; S: E4=1; cube: {c}", str(KASSEL)],
            "cube must be 2, 4, 8, 16, 32 or 64, not '{c}'",
        ),
    ],
    ids=lambda v: " ".join(v[:2]) if isinstance(v, list) else None,
)
def test_the_text_options_refuse_such_characters(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a command that took the number would write here
    for c in SAMPLE:
        result = CliRunner().invoke(cli, [arg.format(c=c) for arg in args])
        assert result.exit_code == 2, (c, result.output)
        # render reads --plies in lower case (Last, LAST): it shows 'ⅻ' for 'Ⅻ'
        assert message.format(c=c).lower() in result.output.lower(), result.output
        assert "Traceback" not in result.output


# ---------------------------------------------------------------- the index


@pytest.fixture(scope="module")
def analysed(tmp_path_factory) -> Path:
    """An index of the Kassel game analysed to depth 1 (two puzzles)."""
    folder = tmp_path_factory.mktemp("analysed")
    shutil.copy(KASSEL, folder / "kassel.hxl")
    db = folder / "x.sqlite"
    made = CliRunner().invoke(
        cli, ["index", str(folder), "--db", str(db), "--analyse", "--depth", "1", "-q"]
    )
    assert made.exit_code == 0, made.output
    return db


def test_a_solved_ply_in_such_characters_is_damage(analysed, tmp_path):
    db = tmp_path / "x.sqlite"
    shutil.copy(analysed, db)
    connection = sqlite3.connect(db, isolation_level=None)
    connection.execute("BEGIN")  # one transaction: no sync to the disk per change
    try:
        game, ply = connection.execute(
            "SELECT game, ply FROM solved WHERE status = 'win' ORDER BY ply LIMIT 1"
        ).fetchone()
        assert [c.plies for c in candidates(connection, str(db), 1)] != []
        for c in DIGITLIKE:
            for text in (c, f"{ply}{c}"):
                connection.execute(
                    "UPDATE solved SET ply = ? WHERE game = ? AND ply = ?", (text, game, ply)
                )
                with pytest.raises(IndexProblem, match=r"solved\.ply holds"):
                    list(candidates(connection, str(db), 1))
                connection.execute(
                    "UPDATE solved SET ply = ? WHERE game = ? AND ply = ?", (ply, game, text)
                )
    finally:
        connection.close()


@pytest.mark.parametrize("c", ["²", "٣"])
def test_puzzles_from_such_an_index_says_it_is_damaged(analysed, tmp_path, c):
    db = tmp_path / "x.sqlite"
    shutil.copy(analysed, db)
    connection = sqlite3.connect(db, isolation_level=None)
    connection.execute("UPDATE solved SET ply = ply || ?", (c,))
    connection.close()
    result = CliRunner().invoke(
        cli, ["puzzles", "--db", str(db), "--depth", "1", "--out-dir", str(tmp_path / "p")]
    )
    assert result.exit_code == 2, result.output
    assert "solved.ply holds" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "p").exists()


# ---------------------------------------------------------------- the web app


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    """A client of the app serving the superscript record beside a good one."""
    helpers = pytest.importorskip("serve_helpers")
    folder = tmp_path_factory.mktemp("web")
    (folder / "sup.hxl").write_text(SUPERSCRIPT_CUBE, "utf-8")
    shutil.copy(KASSEL, folder / "hexalit-kassel-1998.hxl")
    db = folder.parent / f"{folder.name}.sqlite"
    helpers.index_into(db, folder)
    with helpers.client(db, (folder,)) as client:
        yield client


def test_the_search_reads_no_such_character_as_a_number():
    from hexhop.serve.search import read_search

    for c in DIGITLIKE:
        assert read_search({"page": c}).page == 1
        assert read_search({"page": f"2{c}"}).page == 1
        for field, value, problem in (
            ("board", c, "--board"),
            ("plies", c, "--length"),
            ("date_from", f"199{c}", "--date"),
            ("position", f"N: B4=1; S: E4=1; cube: {c}", "--position"),
        ):
            search = read_search({field: value})
            assert search.problem is not None and search.problem.startswith(problem), (c, field)


def test_the_editor_reads_no_such_character_as_a_number():
    from hexhop.serve.editor import _new_game
    from hexhop.serve.i18n import from_accept_language

    for c in DIGITLIKE:
        for board in (c, f"{c}x{c}", f"1{c}"):
            draft = _new_game(None, board)
            assert (draft.record.game, draft.record.tag("Board")) == ("Hexalit", None), board
        assert from_accept_language(f"de;q={c}") == "en"
        assert from_accept_language(f"de;q=0.{c}") == "en"
    assert from_accept_language("de;q=0.5") == "de"


def test_every_page_that_takes_a_number_answers_such_a_character(web):
    for c in SAMPLE:
        for url in (f"/?board={c}", f"/?plies={c}", f"/?date_from=199{c}"):
            answer = web.get(url)  # the search form again, with the problem
            assert answer.status_code == 400, url
            assert 'class="problem"' in answer.text, url
        answer = web.get(f"/?page={c}")
        assert answer.status_code == 200 and 'class="problem"' not in answer.text
        answer = web.get(f"/editor?board={c}")
        assert answer.status_code == 200 and 'class="problem"' not in answer.text
        for url in (f"/editor?from={c}", f"/editor?from=1{c}"):
            assert web.get(url).status_code == 404, url
        for url in (f"/games/{c}", f"/games/1{c}", f"/games/{c}/record"):
            assert web.get(url).status_code == 404, url
    # a header is read as Latin-1: ² and ½ are the characters it can carry
    for c in [c for c in DIGITLIKE if ord(c) < 256]:
        header = f"de;q={c}".encode("latin-1")
        answer = web.get("/", headers={"Accept-Language": header})  # type: ignore[dict-item]
        assert answer.status_code == 200 and '<html lang="en">' in answer.text


def test_the_superscript_record_is_a_page_like_any_other(web):
    assert web.get("/").status_code == 200
    pages = [web.get(f"/games/{game_id}") for game_id in (1, 2)]
    assert [page.status_code for page in pages] == [200, 200]
    assert ["HD05" in page.text for page in pages].count(True) == 1  # the superscript's finding


@pytest.mark.slow  # a real server in a child process
def test_serve_starts_beside_the_superscript_record(tmp_path):
    import os
    import re
    import signal
    import subprocess
    import time
    import urllib.error
    import urllib.request

    pytest.importorskip("uvicorn", reason="the serve extra: pip install 'hexhop[serve]'")
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "sup.hxl").write_text(SUPERSCRIPT_CUBE, "utf-8")
    shutil.copy(KASSEL, folder / "hexalit-kassel-1998.hxl")
    server = subprocess.Popen(
        [sys.executable, "-m", "hexhop.cli", "serve", str(folder), "--db", str(tmp_path / "x")]
        + ["--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "HEXHOP_LANG": "en"},
    )
    try:
        line, deadline = "", time.monotonic() + 60
        while "Serving" not in line and server.poll() is None:
            line = server.stderr.readline()  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "the server did not start"
        assert line.startswith("Serving 2 games at http://127.0.0.1:"), line
        url = re.search(r"http://127\.0\.0\.1:[0-9]+/", line).group()  # type: ignore[union-attr]

        def status(path: str) -> int:
            try:
                with urllib.request.urlopen(url + path) as answer:
                    return int(answer.status)
            except urllib.error.HTTPError as error:
                return int(error.code)

        assert status("") == 200
        assert [status(p) for p in ("?board=%C2%B2", "?page=%C2%B2")] == [400, 200]
        assert status("editor?board=%C2%B2") == 200
        assert status("editor?from=%C2%B2") == 404
    finally:
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=30)
    assert server.returncode == 0, err
    assert "Traceback" not in err
