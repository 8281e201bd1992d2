"""What a newcomer trips over in the commands other than ``render``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexhop.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "samples" / "good"
BROKEN = ROOT / "samples" / "broken"
KASSEL = GOOD / "hexalit-kassel-1998.hxl"


def run(*args: str, input: bytes | str | None = None, color: bool = False):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False, color=color)


# every command that writes creates missing folders, or says why it cannot


def test_convert_out_creates_missing_folders(tmp_path):
    out = tmp_path / "no" / "dir" / "x.json"
    result = run("convert", str(KASSEL), "--to", "json", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text("utf-8"))["games"]


def test_generate_out_creates_missing_folders(tmp_path):
    out = tmp_path / "no" / "dir" / "g.trg"
    result = run("generate", "--game", "Trigeo", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_text("utf-8").startswith('[Game "Trigeo"]')


@pytest.mark.parametrize(
    "out, message",
    [
        ("/proc/xx/x.json", "Error: cannot create the folder /proc/xx: No such file or directory"),
        (
            "{file}/x.json",
            "Error: cannot create the folder {file}: a file of that name is in the way",
        ),
    ],
)
def test_a_folder_that_cannot_be_made_is_exit_2(tmp_path, out, message):
    file = tmp_path / "plain"
    file.write_text("x", "utf-8")
    out = out.format(file=file)
    result = run("convert", str(KASSEL), "--to", "json", "--out", out)
    assert result.exit_code == 2
    assert result.output.strip() == message.format(file=file)


# --color always keeps the colour when the output is a pipe


def test_show_color_always_keeps_colour_in_a_pipe():
    trigeo = str(GOOD / "trigeo-goettingen-1999.trg")
    coloured = run("show", trigeo, "--ply", "0", "--color", "always").output
    assert "\x1b[34m\x1b[1mN1\x1b[0m" in coloured  # a North One in blue
    assert "\x1b[" not in run("show", trigeo, "--ply", "0", "--color", "never").output
    assert "\x1b[" not in run("show", trigeo, "--ply", "0").output  # auto: not a terminal


# a Hüpfer record without a Board tag says that 6x6 was assumed


def test_off_board_point_without_board_tag_names_the_assumed_board(tmp_path):
    record = '[Game "Hüpfer"]\n{board}\n1. g8-g6@g7 *\n'
    path = tmp_path / "no-board.hpf"
    path.write_text(record.format(board=""), "utf-8")
    result = run("check", str(path))
    assert f"{path}:3:4: error IL02 ply 1, Red: g8-g6@g7 is not legal: g8 is not on the board " in (
        result.output
    )
    assert "(there is no Board tag, so the 6x6 board was assumed)\n" in result.output
    path.write_text(record.format(board='[Board "6x6"]'), "utf-8")
    result = run("check", str(path))
    assert "g8 is not on the board\n" in result.output and "assumed" not in result.output


# wording


def test_top_level_help_names_html():
    output = run("--help").output
    assert "render      Draw positions as SVG, PNG, PDF, GIF, sheets or HTML pages." in output
    assert "web pages (HTML)" in output


def test_generate_count_has_help():
    assert "--count INTEGER RANGE      How many games to write." in run("generate", "--help").output


def test_one_is_singular(tmp_path):
    out = tmp_path / "one.hxl"
    result = run("generate", "--game", "Hexalit", "--out", str(out))
    assert result.output == f"wrote 1 game to {out}\n"
    lines = run("check", "-", "--game", "Hexalit", input='[Result "*"]\n\n1. B4W3 *\n').output
    assert lines.splitlines()[-1].startswith("Checked 1 file, 1 game, 1 ply in ")
    position = "N: A7=1 C7=2; S: F7=1 D6=2; turn: N"
    assert "legal actions:" in run("moves", "--game", "Hexalit", "--position", position).output
    one = ["moves", "--game", "Hüpfer", "--position", "R: a1; T: b1 f6; turn: R"]
    assert run(*one).output == "Red to move, 1 legal action:\n    a1: a1xc1\n"


def test_position_error_says_what_is_wrong():
    import hexhop

    with pytest.raises(hexhop.HeaderError) as caught:
        hexhop.position("Hexalit", "garbage")
    assert caught.value.code == "HD05"
    assert str(caught.value) == (
        "HD05 bad Position value: expected 'N:', 'S:', 'turn:' or 'cube:', found 'garbage'"
    )


# nothing to check is exit 2, with a hint


def test_check_of_an_empty_folder_is_exit_2_with_a_hint(tmp_path):
    (tmp_path / "a.txt").write_text("x", "utf-8")
    (tmp_path / "b.pgn").write_text("y", "utf-8")
    result = run("check", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr == (
        f"{tmp_path}: no record files here (looked for *.hxl, *.trg, *.hpf); "
        "--glob PATTERN checks other files\n"
        "Error: nothing to check: no game was found\n"
    )


def test_check_of_a_file_without_a_game_says_so(tmp_path):
    empty = tmp_path / "empty.hxl"
    empty.write_text("; only a comment\n", "utf-8")
    result = run("check", str(empty))
    assert result.exit_code == 2
    assert result.stdout.splitlines()[0] == (
        f"{empty}: this file holds no game (it is empty, or holds only comments)"
    )
    assert result.stderr == "Error: nothing to check: no game was found\n"
    with_a_game = run("check", str(empty), str(GOOD / "trigeo-goettingen-1999.trg"))
    assert with_a_game.exit_code == 0 and with_a_game.stderr == ""


# the text report names each finding's severity, and the games valid with warnings


def test_text_report_names_severity_and_the_files_valid_with_warnings():
    warned = BROKEN / "annotation-missing-threat.hxl"
    illegal = BROKEN / "illegal-hexalit-pawn-capture.hxl"
    result = run("check", str(warned), str(illegal), str(GOOD / "trigeo-goettingen-1999.trg"))
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{warned}:8:17: warning AN01 A5XB2 should be marked '^'")
    assert lines[3].startswith(f"{illegal}:8:9: error IL01 ply 2, South: E6°D5 is not legal")
    assert lines[-3].endswith(": 2 valid (1 with warnings), 1 invalid.")
    assert lines[-2] == f"Valid with warnings: {warned}"
    strict = run("check", str(warned), "--strict").stdout.splitlines()
    assert strict[-2].endswith(": 0 valid, 1 invalid.")


# each file of samples/broken holds exactly one mistake: corrected, it is clean

CORRECTIONS = {
    "action-after-end.hpf": (" e5-e3@e2 1-0", " 1-0"),
    "annotation-missing-threat.hxl": ("A5XB2 ", "A5XB2^ "),
    "header-bad-board.hpf": ('"7x7"', '"6x6"'),
    "illegal-hexalit-off-board.hxl": ("A2XB2", "B4W3"),
    "illegal-hexalit-one-must-escape.hxl": ("E5W6", "D7XD5"),
    "illegal-hexalit-pawn-capture.hxl": ("E6°D5", "D7W1"),
    "illegal-hexalit-promotion.hxl": ("B6XC6=6", "B6XC6"),
    "illegal-hexalit-wrong-operator.hxl": ("B6°C6", "B6XC6"),
    "illegal-huepfer-capture-compulsory.hpf": ("b1-d1@e1", "c3xe3"),
    "illegal-huepfer-revisit.hpf": ("a2-c2-a2@a3", "a2-c2@c1"),
    "illegal-huepfer-stops-early.hpf": ("e3xc3xc1 *", "e3xc3xc1xa1 *"),
    "illegal-trigeo-promotion.trg": ("C7XC8=6", "C7XC8"),
    "illegal-trigeo-roll.trg": ("B5W4", "C7°D7"),
    "result-contradicts-board.trg": ("1-0", "0-1"),  # the tag and the movetext's end
    "syntax-capture-birth.hpf": ("c3xe3@e4", "c3xe3"),
    "syntax-dash-move.hxl": ("A5-B2^", "A5XB2^"),
    "syntax-double-number.hxl": ("2. 2. ", "2. "),
    "syntax-missing-cell.hxl": ("A5X2^", "A5XB2^"),
    "syntax-result-not-last.hpf": ("c5 * 2. c1-c3@b3", "c5 2. c1-c3@b3 *"),
    "syntax-stray-paren.trg": ("D7 ) 2.", "D7 2."),
    "syntax-stray-result.hxl": ("0-0", "*"),
    "syntax-unclosed-comment.hxl": ("never ends", "never ends}"),
    "syntax-unclosed-tag.trg": ('"Anna"', '"Anna"]'),
    "syntax-unclosed-variation.hpf": ("a1-a3@a4 ", "a1-a3@a4) "),
}


def findings_of(text: str, name: str) -> list[str]:
    from hexhop.engine.replay import replay_game
    from hexhop.notation import read_archive

    (parsed,) = read_archive(text.encode("utf-8"), path=name)
    return [f"{f.code} {f.message}" for f in replay_game(parsed).findings]


def test_there_is_a_correction_for_every_broken_sample():
    assert sorted(CORRECTIONS) == sorted(p.name for p in BROKEN.iterdir())


@pytest.mark.parametrize("name", sorted(CORRECTIONS))
def test_a_broken_sample_holds_exactly_one_mistake(name):
    lines = (BROKEN / name).read_text("utf-8").splitlines(keepends=True)
    text = "".join(line for line in lines if not line.startswith(";"))  # not the expectation
    wrong, right = CORRECTIONS[name]
    assert wrong in text
    assert len(findings_of(text, name)) == 1
    assert findings_of(text.replace(wrong, right), name) == []


# the bundled samples are canonical; a move number never ends a line


def test_good_samples_are_canonical():
    result = run("fmt", "--check", *sorted(str(p) for p in GOOD.iterdir()))
    assert (result.exit_code, result.output) == (0, "")


def test_a_move_number_stays_with_its_action_when_wrapped():
    from hexhop.notation import format_record, parse_text

    moves = " ".join(f"{n}. B4W3 D7W1" for n in range(1, 40))
    (parsed,) = parse_text(f'[Game "Hexalit"]\n\n{moves} *\n')
    for width in range(20, 80):
        lines = format_record(parsed.record, width=width).splitlines()
        assert not [line for line in lines if line.endswith(".")], width


# every command reads standard input and archive members, or says clearly what it does not


@pytest.fixture
def club(tmp_path):
    import zipfile

    path = tmp_path / "club.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for name in ("trigeo-goettingen-1999.trg", "hexalit-kassel-1998.hxl"):
            archive.write(GOOD / name, f"games/{name}")
    return path


def test_fmt_reads_standard_input():
    result = run("fmt", "-", input='[Game "Hexalit"]\n1.  B4W3   *')
    assert (result.exit_code, result.output) == (0, '[Game "Hexalit"]\n\n1. B4W3 *\n')
    result = run("fmt", "--check", "-", input='[Game "Hexalit"]\n1.  B4W3   *')
    assert (result.exit_code, result.output) == (1, "would reformat <stdin>\n")


def test_fmt_in_place_refuses_standard_input_and_archives(tmp_path, club, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("fmt", "--in-place", "-", input='[Game "Hexalit"]\n1.  B4W3   *')
    assert result.exit_code == 2
    assert "Error: --in-place cannot rewrite standard input" in result.output
    assert not (tmp_path / "-").exists()
    result = run("fmt", "--in-place", str(club))
    assert result.exit_code == 2 and f"--in-place cannot rewrite {club}:" in result.output


def test_fmt_takes_folders_and_archive_members(club):
    assert run("fmt", "--check", str(GOOD)).exit_code == 0
    assert run("fmt", "--check", str(club)).exit_code == 0
    member = f"{club}:games/trigeo-goettingen-1999.trg"
    expected = (GOOD / "trigeo-goettingen-1999.trg").read_text("utf-8")
    assert run("fmt", member).output == expected


def test_fmt_width_is_used():
    path = str(GOOD / "trigeo-goettingen-1999.trg")
    lines = run("fmt", "--width", "30", path).output.split("\n\n", 1)[1].splitlines()
    moves = [line for line in lines if "{" not in line and "}" not in line]  # not the comments
    assert max(len(line) for line in moves) <= 30 and len(moves) > 10


def test_show_moves_convert_read_an_archive_member(club):
    member = f"{club}:games/trigeo-goettingen-1999.trg"
    direct = run("show", str(GOOD / "trigeo-goettingen-1999.trg"), "--ply", "3").output
    assert run("show", member, "--ply", "3").output == direct
    assert run("moves", member, "--ply", "0", "--format", "count").output == "18\n"
    assert json.loads(run("convert", member, "--to", "json").output)["games"][0]["game"] == (
        "Trigeo"
    )


def test_an_archive_of_several_records_names_how_to_choose(club):
    result = run("show", str(club))
    assert result.exit_code == 2
    assert result.output == (
        f"Error: {club} holds 2 record files: name one as ARCHIVE:MEMBER, like "
        f"{club}:games/hexalit-kassel-1998.hxl (hexhop ls {club} lists them)\n"
    )
    missing = run("moves", f"{club}:games/none.hxl")
    assert (missing.exit_code, missing.output) == (
        2,
        f"Error: cannot read {club}:games/none.hxl: {club} holds no file games/none.hxl\n",
    )
    folder = run("show", str(GOOD))
    assert (folder.exit_code, folder.output) == (
        2,
        f"Error: {GOOD} is a folder: name one record file in it\n",
    )


# further newcomer problems: the commands say when something is off instead of going on


def test_show_notes_where_the_replay_of_a_broken_record_stops():
    path = BROKEN / "illegal-hexalit-pawn-capture.hxl"
    result = run("show", str(path))
    assert result.exit_code == 0 and "Last action: B4W3   (ply 1)" in result.stdout
    assert result.stderr.startswith(
        f"{path}:8:9: note: the game stops after ply 1: IL01 ply 2, South: E6°D5 is not legal"
    )
    assert run("show", str(KASSEL)).stderr == ""


def test_an_index_beyond_the_games_is_a_usage_error():
    result = run("show", str(KASSEL), "--index", "2")
    assert result.exit_code == 2
    assert f"Invalid value for --index: 2: {KASSEL} holds 1 game" in result.output


def test_generate_board_is_for_huepfer_only():
    result = run("generate", "--game", "Hexalit", "--board", "8x8")
    assert result.exit_code == 2
    assert "Invalid value for --board: Hexalit has one board; --board is for Hüpfer" in (
        result.output
    )
    assert '[Board "8x8"]' in run("generate", "--game", "Hüpfer", "--board", "8x8").output


def test_convert_says_when_the_source_is_already_what_was_asked(tmp_path):
    document = tmp_path / "game.json"
    document.write_text(run("convert", str(KASSEL), "--to", "json").output, "utf-8")
    result = run("convert", str(document), "--to", "json")
    assert result.exit_code == 2
    assert f"Error: {document} is a JSON document, not a record: --to record" in result.output
    result = run("convert", str(KASSEL), "--to", "record")
    assert result.exit_code == 2
    assert f"Error: {KASSEL} is not a JSON document: --to record reads" in result.output
    back = run("convert", str(document), "--to", "record")
    assert back.exit_code == 0 and back.output == KASSEL.read_text("utf-8")


def test_a_record_opening_with_a_comment_is_not_taken_for_json(tmp_path):
    """``{`` opens a comment in a record too: only a document that parses is JSON."""
    record = tmp_path / "game.hxl"
    record.write_text("{a study} " + KASSEL.read_text("utf-8"), "utf-8")
    result = run("convert", str(record), "--to", "json")
    assert result.exit_code == 0 and json.loads(result.output)["format"] == "hexhop-record"
    broken = tmp_path / "broken.hxl"
    broken.write_text("{", "utf-8")
    result = run("convert", str(broken), "--to", "json")
    assert (
        result.exit_code == 0
        and json.loads(result.output)["games"][0]["findings"][0]["code"] == "SY02"
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (
            [str(KASSEL), "--game", "Hexalit", "--position", "N: A7=1; S: F7=1; turn: N"],
            "Error: give a RECORD or --position TEXT, not both",
        ),
        (
            [str(GOOD / "huepfer-8x8-bremen-2003.hpf"), "--board", "6x6"],
            "Error: --board goes with --position (a record's Board tag names its board)",
        ),
        (
            ["--game", "Hexalit", "--board", "8x8", "--position", "N: A7=1; S: F7=1; turn: N"],
            "Error: Invalid value for --board: Hexalit has one board; --board is for Hüpfer",
        ),
        (
            ["--game", "Hüpfer", "--board", "7x7", "--position", "R: a1; T: f6; turn: R"],
            "Error: Invalid value for --board: bad Board value '7x7': expected 6x6, 8x8 or 10x10",
        ),
    ],
)
def test_options_that_would_be_ignored_are_usage_errors(args, message):
    for command in ("show", "moves"):
        result = run(command, *args)
        assert result.exit_code == 2
        assert result.output.splitlines()[-1] == message
