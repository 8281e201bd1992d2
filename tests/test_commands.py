"""The single-game commands end to end: show, moves, convert, generate, fmt, render."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from hexhop.cli.main import cli
from hexhop.notation import format_archive, read_archive

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "samples" / "good"
SAMPLES = sorted(GOOD.iterdir())
TRIGEO = GOOD / "trigeo-goettingen-1999.trg"


def record_validator() -> jsonschema.Draft202012Validator:
    """The convert schema, with its reference into the check-report schema."""
    from referencing import Registry, Resource

    shipped = ROOT / "records"
    schemas = {
        name: json.loads((shipped / name).read_text("utf-8"))
        for name in ("record.schema.json", "check-report.schema.json")
    }
    registry = Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in schemas.values()
    )
    return jsonschema.Draft202012Validator(schemas["record.schema.json"], registry=registry)


def run(*args: str, input: bytes | None = None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def test_version_and_help_list_every_command():
    assert run("--version").stdout.startswith("hexhop, version ")
    help_text = run("--help").stdout
    for name in ("check", "fmt", "render", "show", "moves", "convert", "generate"):
        assert f"  {name} " in help_text
        assert "Examples:" in run(name, "--help").stdout


# -- moves ------------------------------------------------------------------


def test_moves_from_a_position_lists_exactly_the_legal_actions():
    result = run(
        "moves",
        "--game",
        "Hexalit",
        "--format",
        "json",
        "--position",
        "N: A7=1 C7=2; S: F7=1 D6=2; turn: N",
    )
    data = json.loads(result.stdout)
    assert data["to_move"] == "North"
    assert data["actions"] == [
        "A7XA5",
        "A7XA6",
        "A7XA8",
        "A7XA9",
        "A7XB5",
        "A7XB6",
        "A7XB7",
        "A7XB8",
        "A7XB9",
        "C7W1",
        "C7W2",
        "C7W3",
        "C7W4",
        "C7W5",
        "C7W6",
        "C7XD7",
        "C7°D6",
    ]


def test_moves_of_a_record_ply_and_count():
    assert run("moves", str(TRIGEO), "--ply", "0", "--format", "count").stdout == "18\n"
    grouped = run("moves", str(TRIGEO), "--ply", "0").stdout.splitlines()
    assert grouped[0] == "North to move, 18 legal actions:"
    assert "    C7: C7XC6 C7XC8 C7XD6 C7XD8 C7°D7" in grouped


def test_moves_of_the_huepfer_start():
    result = run(
        "moves",
        "--game",
        "Hüpfer",
        "--board",
        "6x6",
        "--format",
        "count",
        "--position",
        "R: a1 a2 b1 b2; T: e5 e6 f5 f6; reserve: 12/12; turn: R",
    )
    assert result.stdout == "10\n"


def test_moves_rejects_a_bad_position_with_a_clear_message():
    result = CliRunner().invoke(cli, ["moves", "--game", "Hexalit", "--position", "N: Z9=1"])
    assert result.exit_code == 2
    assert "--position" in result.output and "Traceback" not in result.output


def test_moves_rejects_a_ply_beyond_the_game():
    result = CliRunner().invoke(cli, ["moves", str(TRIGEO), "--ply", "99"])
    assert result.exit_code == 2
    assert "plies 0 to 40" in result.output


# -- show -------------------------------------------------------------------


def test_show_prints_diagram_last_action_and_position_text():
    out = run("show", str(TRIGEO), "--ply", "12", "--color", "never").stdout
    lines = out.splitlines()
    assert lines[0].split() == [str(c) for c in range(1, 14)]
    assert [line.split()[0] for line in lines[1:7]] == list("ABCDEF")
    assert "Last action: A5°A6   (ply 23)" not in out
    assert (
        "Last action: B10°A6^   (ply 22)"
        in run("show", str(TRIGEO), "--ply", "22", "--color", "never").stdout
    )
    assert out.splitlines()[-1].startswith("Position: N: ")


def test_show_position_text_round_trips_through_moves():
    text = run("show", str(TRIGEO), "--ply", "9").stdout.splitlines()[-1][len("Position: ") :]
    direct = run("moves", str(TRIGEO), "--ply", "9", "--format", "json").stdout
    again = run("moves", "--game", "Trigeo", "--position", text, "--format", "json").stdout
    assert json.loads(direct) == json.loads(again)


def test_show_huepfer_diamond_with_reserves():
    out = run(
        "show",
        "--game",
        "Hüpfer",
        "--board",
        "6x6",
        "--color",
        "never",
        "--position",
        "R: a1 b1 c3; T: e5 f5; reserve: 10/12; turn: T",
    ).stdout
    assert "Reserves: Red 10, Turquoise 12" in out
    assert "To move: Turquoise" in out
    assert out.count("R") >= 3 and out.count("t") >= 2


# -- convert ----------------------------------------------------------------


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_convert_json_round_trip_gives_the_formatted_record(sample):
    as_json = run("convert", str(sample), "--to", "json").stdout
    doc = json.loads(as_json)
    record_validator().validate(doc)
    back = run("convert", "-", "--to", "record", input=as_json.encode()).stdout
    original = [g.record for g in read_archive(sample.read_bytes(), path=str(sample))]
    assert back == format_archive(original)


def test_convert_json_has_a_position_after_every_ply():
    doc = json.loads(run("convert", str(TRIGEO), "--to", "json").stdout)
    game = doc["games"][0]
    plies = [m["ply"] for m in game["moves"]]
    assert plies == list(range(1, 41))
    assert game["end"] == {"winner": "South", "ply": 40}
    variation = game["moves"][8]["variations"][0]["moves"]
    assert [m["text"] for m in variation] == ["A7XA8", "C8°B9^"]
    assert [m["ply"] for m in variation] == [9, 10]


def test_convert_rejects_json_that_is_not_a_record_document():
    result = CliRunner().invoke(cli, ["convert", "-", "--to", "record"], input=b'{"a": 1}')
    assert result.exit_code == 1
    assert "not a hexhop record JSON document" in result.output


# -- generate ---------------------------------------------------------------


@pytest.mark.parametrize(
    "game, board",
    [
        ("Hexalit", None),  # one board: --board is for Hüpfer
        ("Trigeo", None),
        ("Hüpfer", "6x6"),
        ("Hüpfer", "8x8"),
        ("Hüpfer", "10x10"),
    ],
)
def test_generated_games_pass_the_check(game, board, tmp_path):
    out = tmp_path / "random.rec"
    run(
        "generate",
        "--game",
        game,
        *(["--board", board] if board else []),
        "--count",
        "5",
        "--seed",
        "11",
        "--max-plies",
        "60",
        "--out",
        str(out),
    )
    result = run("check", str(out), "--game", game, "--strict", "--format", "json")
    data = json.loads(result.stdout)
    assert result.exit_code == 0, result.stdout
    assert data["summary"]["games"] == 5


def test_generate_is_deterministic_and_never_overwrites(tmp_path):
    first = run("generate", "--game", "Trigeo", "--count", "2", "--seed", "5").stdout
    assert first == run("generate", "--game", "Trigeo", "--count", "2", "--seed", "5").stdout
    out = tmp_path / "x.trg"
    out.write_text("precious")
    result = CliRunner().invoke(cli, ["generate", "--game", "Trigeo", "--out", str(out)])
    assert result.exit_code == 2 and "--force" in result.output
    assert out.read_text() == "precious"


# -- fmt --------------------------------------------------------------------


def test_fmt_check_diff_and_in_place(tmp_path):
    messy = tmp_path / "messy.hxl"
    messy.write_text('[Result "*"]\n[Game "Hexalit"]\n\nb6xc6  e8 x d8 *\n', "utf-8")
    assert run("fmt", "--check", str(messy)).exit_code == 1
    diff = run("fmt", "--diff", str(messy)).stdout
    assert "+1. B6XC6 E8XD8 *" in diff
    assert messy.read_text("utf-8").startswith('[Result "*"]')  # --diff changes nothing
    run("fmt", "--in-place", str(messy))
    assert messy.read_text("utf-8") == '[Game "Hexalit"]\n[Result "*"]\n\n1. B6XC6 E8XD8 *\n'
    assert run("fmt", "--check", str(messy)).exit_code == 0


def test_fmt_refuses_a_file_with_a_syntax_error_and_keeps_it(tmp_path):
    broken = tmp_path / "broken.hxl"
    broken.write_text('[Game "Hexalit"]\n\n1. B6-C6 *\n', "utf-8")
    result = CliRunner().invoke(cli, ["fmt", "--in-place", str(broken)])
    assert result.exit_code == 2
    assert f"{broken}:3:4:" in result.output
    assert broken.read_text("utf-8") == '[Game "Hexalit"]\n\n1. B6-C6 *\n'


# -- render -----------------------------------------------------------------


def test_render_writes_one_svg_per_ply_and_refuses_to_overwrite(tmp_path):
    out = tmp_path / "diagrams"
    run("render", str(TRIGEO), "--out-dir", str(out), "--plies", "0,39-last")
    names = sorted(p.name for p in out.iterdir())
    assert names == ["game001-ply000.svg", "game001-ply039.svg", "game001-ply040.svg"]
    svg = (out / "game001-ply040.svg").read_text("utf-8")
    assert 'data-ply="40"' in svg and "last-to" in svg
    result = CliRunner().invoke(cli, ["render", str(TRIGEO), "--out-dir", str(out), "--plies", "0"])
    assert result.exit_code == 2 and "--force" in result.output


@pytest.mark.parametrize(
    "fmt, name, magic",
    [
        ("png", "game001-ply003.png", b"\x89PNG"),
        ("gif", "game001.gif", b"GIF89a"),
        ("sheet", "game001-sheet.png", b"\x89PNG"),
    ],
)
def test_render_raster_formats(tmp_path, fmt, name, magic):
    sample = GOOD / "huepfer-6x6-bremen-2003.hpf"
    run(
        "render",
        str(sample),
        "--out-dir",
        str(tmp_path),
        "--format",
        fmt,
        "--plies",
        "0-3",
        "--size",
        "250",
    )
    assert (tmp_path / name).read_bytes().startswith(magic)


def test_render_draws_the_annotators_arrows_and_highlights(tmp_path):
    run(
        "render",
        str(TRIGEO),
        "--out-dir",
        str(tmp_path),
        "--plies",
        "3",
        "--arrow",
        "b6-d6",
        "--highlight",
        "d6",
    )
    svg = (tmp_path / "game001-ply003.svg").read_text("utf-8")
    assert 'class="arrow B6-D6"' in svg and 'class="highlight D6"' in svg
    result = CliRunner().invoke(
        cli, ["render", str(TRIGEO), "--arrow", "B6", "--out-dir", str(tmp_path / "x")]
    )
    assert result.exit_code == 2 and "FROM-TO" in result.output


def test_render_fails_when_no_game_can_be_drawn(tmp_path):
    record = tmp_path / "bad.hpf"
    record.write_text('[Game "Hüpfer"]\n[Board "7x7"]\n\n*\n', "utf-8")
    result = CliRunner().invoke(cli, ["render", str(record), "--out-dir", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert f"{record}:2:1: game 1 cannot be drawn: HD03" in result.output
    assert "no game could be drawn" in result.output
    assert not (tmp_path / "out").exists()
