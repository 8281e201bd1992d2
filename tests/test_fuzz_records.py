"""Fuzzing: generated legal records broken at random (tokens deleted,
duplicated, swapped, replaced by hostile ones, files cut short, encodings
mixed), a set of known-hostile inputs, and hostile JSON for ``convert``."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from fuzz_support import examples, exercise, generated, mutated_records, time_bound
from hypothesis import given, settings
from hypothesis import strategies as st

from hexhop.cli.main import cli


@settings(max_examples=examples(1500))
@given(mutated_records())
def test_broken_records_are_read_or_reported(case):
    data, name = case
    exercise(data, name, commands=False)


@settings(max_examples=examples(1000))
@given(mutated_records())
def test_broken_records_go_through_every_command(case):
    data, name = case
    exercise(data, name)


def _big(game: str = "Hexalit") -> str:
    return generated(game, 4)


HUGE = {
    "move number 10**30": _big().replace("1. ", f"{10**30}. ", 1),
    "double 99999999999": _big().replace("1. ", "1. double 99999999999 take ", 1),
    "deep nesting": _big().replace("2. ", "2. " + "(" * 5000, 1),
    "deep closed nesting": _big().replace(" 2. ", " (B6XC6 " * 300 + ")" * 300 + " 2. ", 1),
    "million-character comment": _big().replace("1. ", "1. {" + "x" * 1_000_000 + "} ", 1),
    "unclosed million-character comment": _big().replace("1. ", "1. {" + "x{" * 500_000, 1),
    "NUL bytes": _big().replace(" ", "\x00", 3),
    "CR line ends": _big().replace("\n", "\r"),
    "BOM in the middle": _big().replace("2. ", "\ufeff2. ", 1),
    "BOM everywhere": _big().replace(" ", "\ufeff"),
    "truncated in a tag": _big()[:30],
    "two thousand games": ('[Game "Trigeo"]\n\n1. A6XC6 *\n\n' * 2_000),
    "ten thousand tags": "".join(f'[T{i} "v"]\n' for i in range(10_000)) + _big(),
    "twenty thousand move numbers": '[Game "Hexalit"]\n\n' + "1. " * 20_000,
    "long line of glyphs": _big().replace(" 2.", " !!" * 50_000 + " 2.", 1),
    "huge Hüpfer reserve": '[Game "Hüpfer"]\n[Reserve "99999999999999999999"]\n\n1. a1-c1@d1 *',
    "huge cube in Position": '[Game "Hexalit"]\n[Position "N: A7=1 B6=2; S: F7=1 E8=2; '
    'turn: N; cube: 99999999999999999999"]\n\n1. B6XC6 *',
    "huge board": '[Game "Hüpfer"]\n[Board "99999999999x99999999999"]\n\n1. a1-c1@d1 *',
    "mixed encodings": "",  # filled below
}


SLOW_HUGE = {
    "two thousand games",
    "twenty thousand move numbers",
    "long line of glyphs",
    "ten thousand tags",
    "unclosed million-character comment",
}


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_HUGE else n for n in sorted(HUGE)]
)
def test_known_hostile_inputs(name):
    text = HUGE[name]
    data = text.encode("utf-8") if text else (_big().encode("utf-8") + "Südwest °".encode("cp1252"))
    exercise(data, "game.hxl")


# ---------------------------------------------------------------- convert --to record


@st.composite
def record_documents(draw) -> bytes:
    """A ``convert --to json`` document with one value replaced by something odd."""
    game = draw(st.sampled_from(("Hexalit", "Trigeo", "Hüpfer")))
    result = CliRunner().invoke(
        cli,
        ["convert", "-", "--to", "json"],
        input=generated(game, draw(st.integers(0, 3))).encode(),
    )
    doc = json.loads(result.stdout)
    odd = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.text(max_size=30),
        st.lists(st.integers(), max_size=3),
        st.dictionaries(st.text(), st.text()),
    )
    target = doc
    for _ in range(draw(st.integers(1, 4))):
        if isinstance(target, dict) and target:
            key = draw(st.sampled_from(sorted(target)))
        elif isinstance(target, list) and target:
            key = draw(st.integers(0, len(target) - 1))
        else:
            break
        if draw(st.booleans()) or not isinstance(target[key], (dict, list)):
            target[key] = draw(odd)
            break
        target = target[key]
    return json.dumps(doc).encode("utf-8")


@settings(max_examples=examples(300))
@given(record_documents())
def test_odd_json_documents_are_converted_or_refused(data):
    with time_bound():
        result = CliRunner().invoke(cli, ["convert", "-", "--to", "record"], input=data)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{result.exception!r}\n{result.output}"
    )
    assert result.exit_code in (0, 1)
    if result.exit_code == 0:  # what was written reads back without a syntax error
        back = CliRunner().invoke(
            cli,
            ["check", "-", "--format", "json", "--game", "Hexalit"],
            input=result.stdout.encode(),
        )
        report = json.loads(back.stdout)
        codes = {f["code"] for f in report["files"] for g in f["games"] for f in g["findings"]}
        assert not {c for c in codes if c.startswith("SY")}, (codes, result.stdout)
