"""No command ends in a traceback for any output encoding: what
standard output or error cannot hold is written as an escape
(``\\xfc``, ``\\u2013``) instead."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from safety_runner import shared

from hexhop.cli.main import COMMANDS

ROOT = Path(__file__).parent.parent
KASSEL = "samples/good/hexalit-kassel-1998.hxl"

#: Output encodings that cannot hold every character hexhop writes, in
#: English and in German.
ENVIRONMENTS = {
    "ascii": {"PYTHONIOENCODING": "ascii", "LANG": "C.UTF-8"},
    "ascii-de": {"PYTHONIOENCODING": "ascii", "LANG": "de_DE.UTF-8"},
    "latin-1-de": {"PYTHONIOENCODING": "latin-1", "LANG": "de_DE.UTF-8"},
}
#: The encoding that holds everything, to compare with, in each language.
UTF8 = {
    "utf-8": {"PYTHONIOENCODING": "utf-8", "LANG": "C.UTF-8"},
    "utf-8-de": {"PYTHONIOENCODING": "utf-8", "LANG": "de_DE.UTF-8"},
}


#: ASCII in the quick tier; the German ones in the whole suite
CHOSEN = [
    pytest.param(name, marks=() if name == "ascii" else pytest.mark.slow) for name in ENVIRONMENTS
]


#: what a test run's environment may set that would choose the language
UNSET = ("LC_ALL", "LC_MESSAGES", "LANGUAGE", "HEXHOP_LANG", "PYTHONUTF8")


def hexhop(args: list[str], environment: str) -> subprocess.CompletedProcess[bytes]:
    """The program, started with the environment's encoding: forked from
    the test session's server, which sets up standard output and error as
    the interpreter does (``test_the_fork_server_is_the_program``)."""
    env: dict[str, str | None] = dict.fromkeys(UNSET)
    env.update({**ENVIRONMENTS, **UTF8}[environment])
    return shared().complete(args, cwd=ROOT, env=env)


def started(args: list[str], environment: str) -> subprocess.CompletedProcess[bytes]:
    """The program, started by the interpreter as the ``hexhop`` script is."""
    env = {name: value for name, value in os.environ.items() if name not in UNSET}
    env.update({**ENVIRONMENTS, **UTF8}[environment])
    return subprocess.run(
        [sys.executable, "-m", "hexhop.cli", *args],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
        env=env,
    )


def ends_cleanly(run: subprocess.CompletedProcess[bytes], code: int) -> None:
    assert b"Traceback" not in run.stderr, run.stderr.decode("utf-8", "replace")
    assert b"Error" not in run.stderr or code == 2, run.stderr
    assert run.returncode == code, run.stderr.decode("utf-8", "replace")


@pytest.mark.parametrize("environment", CHOSEN)
def test_every_help(environment: str) -> None:
    for command in [[], *([name] for name in sorted(COMMANDS))]:
        run = hexhop([*command, "--help"], environment)
        ends_cleanly(run, 0)
        assert run.stdout.startswith((b"Usage: hexhop", b"Aufruf: hexhop")), run.stdout[:200]


@pytest.mark.parametrize(
    "args, code",
    [
        (["check", "samples/broken"], 1),
        (["check", "samples/broken", "--format", "json"], 1),
        (["check", "samples/good"], 0),
        (["find", "samples/good", "--game", "Hüpfer"], 0),
        (["find", "samples/good", "--player", "e", "--format", "csv"], 0),
        (["dupes", "samples/good"], 1),
        (["show", KASSEL], 0),
        (["show", "samples/good/huepfer-6x6-bremen-2003.hpf", "--ply", "3"], 0),
        (["moves", KASSEL, "--ply", "4"], 0),
        (["stats", "samples/good"], 0),
        (["show", "missing-Müller–Kässel.hxl"], 2),
        (["find", "samples/good", "--tag", "Event=–"], 1),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else str(value),
)
@pytest.mark.parametrize("environment", CHOSEN)
def test_real_runs(environment: str, args: list[str], code: int) -> None:
    run = hexhop(args, environment)
    ends_cleanly(run, code)
    assert run.stdout or run.stderr


def test_what_the_encoding_cannot_hold_is_escaped() -> None:
    run = hexhop(["stats", "samples/good"], "latin-1-de")
    ends_cleanly(run, 0)
    text = run.stdout.decode("latin-1")
    assert "Hüpfer" in text  # Latin-1 holds it
    assert "\\u2013" in text or "\\u2588" in text  # – and █ it does not


def test_a_german_check_report_in_ascii() -> None:
    run = hexhop(["check", "samples/broken"], "ascii-de")
    ends_cleanly(run, 1)
    text = run.stdout.decode("ascii")
    assert "ung\\xfcltig" in text and "Fehler" in text


@pytest.mark.parametrize(
    "args",
    [
        ["check", "samples/broken", "--format", "json"],
        ["check", "samples/good", "--format", "jsonl"],
        ["find", "samples/good", "--game", "Hüpfer", "--format", "json"],
        ["find", "samples/good", "--game", "Hüpfer", "--format", "jsonl"],
        ["dupes", "samples/good", "samples/good", "--format", "json"],
        ["stats", "samples/good", "--format", "json"],
    ],
    ids=" ".join,
)
@pytest.mark.parametrize("environment", ["ascii", "latin-1-de"])
def test_json_stays_json_in_any_encoding(environment: str, args: list[str]) -> None:
    """A character the encoding cannot hold is a JSON escape (\\u00fc), not
    Python's (\\xfc): the document reads back as it does from UTF-8."""
    run = hexhop(args, environment)
    assert b"Traceback" not in run.stderr and run.returncode in (0, 1), run.stderr
    utf8 = hexhop(args, "utf-8-de" if environment.endswith("-de") else "utf-8")
    assert utf8.returncode == run.returncode and "ü".encode() in utf8.stdout
    run.stdout.decode("ascii")  # whatever the encoding holds, JSON needs no more
    if "jsonl" in args:
        assert [json.loads(line) for line in run.stdout.splitlines()][:-1] == [
            json.loads(line) for line in utf8.stdout.splitlines()
        ][:-1]
    else:
        assert _without_seconds(json.loads(run.stdout)) == _without_seconds(json.loads(utf8.stdout))


def _without_seconds(document: object) -> object:
    if isinstance(document, dict) and isinstance(document.get("summary"), dict):
        document["summary"].pop("seconds", None)
    return document


#: one command of each kind of output: help, a report, an error message of
#: hexhop's (the quick tier); a JSON report, an error message of click's
COMPARED = [
    ["render", "--help"],
    ["check", "samples/broken"],
    ["show", "missing-Müller–Kässel.hxl"],
]
COMPARED_TOO = [
    ["find", "samples/good", "--game", "Hüpfer", "--format", "json"],
    ["check", "--no-such-option"],
]


@pytest.mark.parametrize(
    "environment, commands",
    [
        pytest.param("ascii", COMPARED, id="ascii"),
        pytest.param("ascii", COMPARED_TOO, id="ascii-too", marks=pytest.mark.slow),
        *(
            pytest.param(name, COMPARED + COMPARED_TOO, id=name, marks=pytest.mark.slow)
            for name in ("ascii-de", "latin-1-de", "utf-8-de")
        ),
    ],
)
def test_the_fork_server_is_the_program(environment: str, commands: list[list[str]]) -> None:
    """The tests above fork the program from a server instead of starting
    an interpreter each time: what it says, in which encoding, and its exit
    code are the program's."""
    for args in commands:
        forked, real = hexhop(args, environment), started(args, environment)
        assert forked.returncode == real.returncode, args
        assert _timeless(forked.stdout) == _timeless(real.stdout), args
        assert _timeless(forked.stderr) == _timeless(real.stderr), args


def _timeless(said: bytes) -> bytes:
    """Output without the time a run took ("in 0.23 s", ``"seconds": 0.23``)."""
    return re.sub(rb'(?<= in )[0-9.,]+(?= s\b)|(?<="seconds": )[0-9.e-]+', b"T", said)
