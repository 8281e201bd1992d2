"""What every fuzz test asserts about one input, and the inputs themselves.

:func:`exercise` runs one file's bytes through every reader and command
that takes a record (parse, check, fmt, convert both ways, render) and
fails on a Python traceback or when the input takes longer than
:data:`TIME_BOUND` seconds.  The strategies make hostile inputs: arbitrary
bytes and text, and generated legal records broken at random.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import tempfile
from pathlib import Path
from xml.etree import ElementTree as ET

from click.testing import CliRunner
from hypothesis import strategies as st

from hexhop.cli.main import cli
from hexhop.engine.generate import random_archive
from hexhop.engine.replay import replay_game
from hexhop.notation import NotationError, format_archive, read_archive
from hexhop.notation.reader import looks_binary
from hexhop.records.checking import CheckOptions, check_source
from hexhop.records.sources import Source, iter_sources

CORPUS = Path(__file__).resolve().parent / "corpus"
SCALE = float(os.environ.get("HEXHOP_FUZZ_SCALE", "1"))  # more (or fewer) inputs per test
TIME_BOUND = 20.0  # seconds for one input through every command (generous: CI is slow)
NAMES = ("game.hxl", "game.trg", "game.hpf", "game.txt")


class Hang(Exception):
    """An input took longer than :data:`TIME_BOUND`."""


@contextlib.contextmanager
def time_bound(seconds: float = TIME_BOUND):
    """Raise :class:`Hang` in the block when it runs longer than ``seconds``."""

    def alarm(signum, frame):
        raise Hang(f"took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def exercise(data: bytes, name: str = "game.hxl", *, commands: bool = True) -> None:
    """Every way hexhop reads ``data``: findings or clear errors, never a traceback."""
    with time_bound():
        _library(data, name)
        if commands:
            with tempfile.TemporaryDirectory() as folder:
                _commands(data, name, Path(folder))


def _library(data: bytes, name: str) -> None:
    try:
        games = list(read_archive(data, path=name))
    except NotationError:
        games = []
    for parsed in games:
        replay_game(parsed)
    text = format_archive(games)
    if games and not any(f.severity == "error" for p in games for f in p.findings):
        again = list(read_archive(text.encode("utf-8"), path=name))
        errors = [f for p in again for f in p.findings if f.severity == "error"]
        assert not errors, f"formatted text does not parse: {errors[:2]}\n{text[:2000]}"
        assert format_archive(again) == text, "formatting is not idempotent"
    for strict in (False, True):
        result = check_source(Source(name, data), CheckOptions(strict=strict))
        json.dumps(result.games)


def _invoke(*args: str):
    result = CliRunner().invoke(cli, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(
            f"hexhop {' '.join(args)} raised {result.exception!r}\n{result.output[-2000:]}"
        ) from result.exception
    return result


def _commands(data: bytes, name: str, folder: Path) -> None:
    path = folder / name
    path.write_bytes(data)
    result = _invoke("check", str(path), "--format", "json")
    assert result.exit_code in (0, 1, 2), result.output
    json.loads(result.stdout)
    junit = _invoke("check", str(path), "--format", "junit")
    ET.fromstring(junit.stdout.split("\n", 1)[1])
    assert _invoke("check", str(path), "--quiet").exit_code in (0, 1, 2)
    assert _invoke("fmt", str(path)).exit_code in (0, 2)
    out = folder / "out.json"
    converted = _invoke("convert", str(path), "--to", "json", "--out", str(out))
    # binary data is refused as check refuses it (IO02)
    assert converted.exit_code in ((0, 1, 2) if looks_binary(data) else (0, 1)), converted.output
    if out.exists():
        back = _invoke("convert", str(out), "--to", "record")
        assert back.exit_code in (0, 1)
    drawn = _invoke(
        "render",
        str(path),
        "--format",
        "svg",
        "--index",
        "1",
        "--plies",
        "0,last",
        "--out-dir",
        str(folder / "pictures"),
    )
    assert drawn.exit_code in (0, 1, 2)
    for picture in (folder / "pictures").glob("*.svg"):
        ET.parse(picture)
    assert path.read_bytes() == data, "an input was modified"


# ---------------------------------------------------------------- strategies

_GAMES = ("Hexalit", "Trigeo", "Hüpfer")
_RECORDS: dict[tuple[str, int], str] = {}


def generated(game: str, seed: int) -> str:
    """A small archive of random legal games (cached: strategies draw it often)."""
    key = (game, seed)
    if key not in _RECORDS:
        count = 1 + seed % 3
        _RECORDS[key] = format_archive(random_archive(game, count, seed, max_plies=30))
    return _RECORDS[key]


HOSTILE = [
    "1" * 31 + ".",
    "10" * 15,
    "double 99999999999",
    "Doppler 99999999999999999999",
    "(" * 80,
    ")" * 5,
    "{" + "x" * 1_000_000 + "}",
    "\x00",
    "\ufeff",
    "\r",
    "\r\n",
    "Z99XZ98",
    "A0XA1",
    "B6W99",
    "E6XF6=99",
    "z99-z97@z96",
    "a0xa1",
    "a1-a1@a1",
    "$" + "9" * 40,
    '[Game "Hexalit"]',
    '[Position "N: Z99=1; S: F7=1"]',
    '[Reserve "99999999999999999999"]',
    '[Board "99x99"]',
    '[Result "2-0"]',
    "\n\n[",
    "]",
    '"',
    "\\",
    ";",
    "{",
    "}",
    "*",
    "1-0",
    "0-1",
    "...",
    "°",
    "ü",
    "\x85",
    "\u2028",
    "\t",
    "=",
    "^",
    "+",
    "!!",
    "<svg onload=alert(1)>",
    "\ud7ff",
    '[Position "R: a1; T: f6; reserve: 99999999999999999999/1; turn: R"]',
    '[Position "N: A7=1/9 F7=6; S: F1=1; turn: S; cube: 99999999999999999999"]',
    # Hüpfer paths in shapes the notation does not have, and an offer left alone
    "d6xb6-b8",
    "i10-i8-g8xg6@f8",
    "double 2 *",
]


@st.composite
def mutated_records(draw) -> tuple[bytes, str]:
    """A generated archive broken at random, and the file name to read it as."""
    game = draw(st.sampled_from(_GAMES))
    text = generated(game, draw(st.integers(0, 20)))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    for _ in range(draw(st.integers(1, 4))):
        text = _mutate(text, rng, draw)
    data = _encode(text, draw)
    name = draw(st.sampled_from(NAMES))
    return data, name


@st.composite
def hostile_texts(draw) -> tuple[bytes, str]:
    """Arbitrary text in the places a record takes text: tag values, comments,
    movetext; or arbitrary bytes."""
    how = draw(st.sampled_from(("bytes", "text", "tag", "comment")))
    name = draw(st.sampled_from(NAMES))
    if how == "bytes":
        return draw(st.binary(max_size=400)), name
    text = draw(st.text(max_size=200))
    if how == "text":
        return text.encode("utf-8", errors="surrogatepass"), name
    game = draw(st.sampled_from(_GAMES))
    record = generated(game, draw(st.integers(0, 5))).split("\n\n[Game")[0]
    if how == "tag":
        escaped = text.replace("\\", "\\\\").replace('"', '\\"')
        tag = draw(
            st.sampled_from(
                (
                    "North",
                    "South",
                    "Red",
                    "Turquoise",
                    "Event",
                    "Site",
                    "Result",
                    "Termination",
                    "Round",
                    "Game",
                    "Position",
                    "Board",
                    "Reserve",
                    "First",
                    "X",
                )
            )
        )
        record = f'[{tag} "{escaped}"]\n' + record
    else:
        cut = record.index("\n\n") + 2
        record = record[:cut] + "{" + text.replace("}", "") + "} " + record[cut:]
    return record.encode("utf-8", errors="surrogatepass"), name


def _mutate(text: str, rng: random.Random, draw) -> str:
    tokens = text.split(" ")
    i = rng.randrange(len(tokens))
    how = draw(
        st.sampled_from(
            (
                "delete",
                "duplicate",
                "swap",
                "insert",
                "replace",
                "truncate",
                "digits",
                "slice",
                "glue",
            )
        )
    )
    if how == "glue":  # the next game's tags on the result line, as old tools write
        return text.replace("\n\n[Game", " [Game", rng.randrange(1, 4))
    if how == "delete":
        del tokens[i]
    elif how == "duplicate":
        tokens.insert(i, tokens[i])
    elif how == "swap":
        j = rng.randrange(len(tokens))
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif how == "insert":
        tokens.insert(i, draw(st.sampled_from(HOSTILE)))
    elif how == "replace":
        tokens[i] = draw(st.sampled_from(HOSTILE))
    elif how == "truncate":
        return text[: rng.randrange(len(text) + 1)]
    elif how == "digits":
        tokens[i] = "".join(
            c if not c.isdigit() else str(rng.choice((0, 9, 99, 10**30))) for c in tokens[i]
        )
    else:
        a = rng.randrange(len(text) + 1)
        b = rng.randrange(len(text) + 1)
        return text[:a] + text[b : b + rng.randrange(200)] + text[a:]
    return " ".join(tokens)


def _encode(text: str, draw) -> bytes:
    how = draw(st.sampled_from(("utf-8", "utf-8", "utf-8", "cp1252", "mixed", "cr", "bom")))
    if how == "cp1252":
        return text.encode("cp1252", errors="replace")
    data = text.encode("utf-8", errors="surrogatepass")
    if how == "mixed":
        cut = len(data) // 2
        return data[:cut] + text[cut:].encode("cp1252", errors="replace")
    if how == "cr":
        return data.replace(b"\n", b"\r")
    if how == "bom":
        return b"\xef\xbb\xbf" + data
    return data


def examples(count: int) -> int:
    """``count`` inputs, times ``HEXHOP_FUZZ_SCALE``."""
    return max(1, round(count * SCALE))


def corpus_files() -> list[Path]:
    """The corpus: hand-made cases, and what ``benchmarks/fuzz.py`` found (``fuzz/``)."""
    return sorted(p for p in CORPUS.rglob("*") if p.is_file()) if CORPUS.is_dir() else []


def corpus_name(path: Path) -> str:
    """The record name a corpus file is read as: for a fuzzer's find, the name
    the fuzzer gave it (by its first byte); else its own extension, else .hxl."""
    if path.parent.name == "fuzz":
        data = path.read_bytes()
        return ("game.hxl", "game.trg", "game.hpf")[data[0] % 3 if data else 0]
    return "game" + (path.suffix if path.suffix in (".hxl", ".trg", ".hpf", ".txt") else ".hxl")


def is_archive(path: Path) -> bool:
    return path.name.endswith((".zip", ".tar", ".tar.gz", ".tgz"))


def exercise_archive(path: Path, folder: Path) -> None:
    """An archive through the archive reader and the commands that take one."""
    copy = folder / ("input" + (".tar.gz" if path.name.endswith(".tar.gz") else path.suffix))
    copy.write_bytes(path.read_bytes())
    with time_bound():
        for source in iter_sources([str(copy)]):
            if source.data is not None:
                with contextlib.suppress(NotationError):
                    list(read_archive(source.data, path=source.path))
        for args in (
            ["check", str(copy)],
            ["check", "--format", "json", str(copy)],
            [
                "render",
                str(copy),
                "--format",
                "svg",
                "--plies",
                "last",
                "--out-dir",
                str(folder / "pictures"),
            ],
        ):
            assert _invoke(*args).exit_code in (0, 1, 2)
    assert copy.read_bytes() == path.read_bytes(), "an input was modified"


__all__ = [
    "CORPUS",
    "Hang",
    "corpus_files",
    "corpus_name",
    "examples",
    "exercise",
    "exercise_archive",
    "generated",
    "hostile_texts",
    "is_archive",
    "mutated_records",
    "time_bound",
]
