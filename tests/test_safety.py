"""The README's "Safety and limits", as tests: every command that reads a
record, on every kind of pathological input (:mod:`safety_cases`).

Each command runs in a child process (:mod:`safety_runner`) and must:
end within ``SECONDS``; add at most ``PEAK_MIB`` of resident memory; exit
with 0, 1 or 2 (130 or 143 when it is sent SIGINT or SIGTERM); print no
Python traceback and no "internal error"; put no raw control character on
a terminal (standard error, and the text reports) or in an SVG or HTML
file; write only into its output folder, leave no temporary file behind,
and leave its input exactly as it was.  These are the generic promises
only: what a command says about an input is tested elsewhere.

The commands are the record commands (check, fmt, convert, show, moves,
render) and those that read an archive as a collection or analyse it
(index, find, find --position, dupes, stats as text and JSON, split,
merge, analyse, puzzles), each doing its real work on the input and
writing only into the output folder.  Every command runs on the cases
about reading: blank runs, huge values, archives, FIFOs, devices, odd
names, damaged archives.  Two kinds of case run the record commands and
one command of each way the archive commands read (``ONE_PER_READER``:
index, find, stats, split, analyse; find --position, dupes and stats
--format json read as find and stats do, merge as split, puzzles as
analyse): the cases about what a game holds (many variations, a line of
findings, long numbers, control characters, text that is not UTF-8),
which are not about reading, and the slowest reading cases (24 MiB of
newlines, alone and in archives, 3 MiB of movetext, 384 MiB tar headers),
where every further command costs a second or two.  This keeps the suite
within about 90 s of its time before the archive commands came.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import signal
import stat
from collections.abc import Callable
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from safety_cases import (
    ALL_COMMANDS,
    CASES,
    OUTPUT_MIB,
    PEAK_MIB,
    REPORTS,
    SECONDS,
    TERMINAL_OUTPUT,
    Case,
)
from safety_runner import Outcome, Runner, shared

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
# C0 and C1 controls (tab and newline are fine), the line and paragraph
# separators, and the bidirectional marks, embeddings, overrides and isolates
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")
_XML_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


@pytest.fixture(scope="module")
def runner() -> Runner:
    return shared()


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """Each case's input, built once: {case name: (folder, argument)}."""
    root = tmp_path_factory.mktemp("safety-inputs")
    built: dict[str, tuple[Path, str]] = {}

    def get(case: Case) -> tuple[Path, str]:
        if case.name not in built:
            folder = root / case.name
            folder.mkdir()
            try:
                built[case.name] = (folder, case.build(folder))
            except PermissionError:
                if case.needs_root:
                    pytest.skip("making a device file needs root")
                raise
        return built[case.name]

    return get


QUICK = {
    "fifo-record",
    "control-characters",
    "corrupt-zip",
    "jobs-control-characters",
    "stored-analysis",
    "stored-analysis-text-where-numbers-belong",
}  # and every json-* case; the whole suite runs every case


# known failures of code this suite's authors may not change: the mark goes
# when the fix is in (strict: a fix that lands makes the mark fail)
KNOWN_FAILURES: dict[tuple[str, str], str] = {}


def _params():
    for case in CASES:
        for command in case.commands:
            quick = case.name in QUICK or case.name.startswith("json-")
            marks = [] if quick else [pytest.mark.slow]
            known = KNOWN_FAILURES.get((case.name, command))
            if known:
                marks.append(pytest.mark.xfail(reason=known, strict=True))
            yield pytest.param(case, command, id=f"{case.name}:{command}", marks=marks)


@pytest.mark.parametrize("case,command", list(_params()))
def test_command_keeps_the_promises(case: Case, command: str, runner, inputs, tmp_path):
    folder, argument = inputs(case)
    path = argument if argument in ("-", "/dev/zero") else str(folder / argument)
    stdin = None
    if case.stdin is not None:
        stdin = case.stdin if case.stdin.startswith("/") else str(folder / case.stdin)
    problems = _run_and_judge(
        runner,
        ALL_COMMANDS[command],
        path,
        folder,
        tmp_path,
        stdin=stdin,
        terminal=command in TERMINAL_OUTPUT,
        report=REPORTS.get(command, ""),
        env=dict(case.env),
        prepare=case.prepare,
        seconds=case.seconds,
    )
    assert not problems, f"hexhop {command} on {case.name} ({case.notes}):\n" + "\n".join(problems)


# ---------------------------------------------------------------- a comment never closed

_EIGHT = "open-comment-before-game-3"


def _games_in_json(report: str) -> int:
    return sum(len(file["games"]) for file in json.loads(report)["files"])


def _said(pattern: str) -> Callable[[str], int | None]:
    def count(text: str) -> int | None:
        found = re.search(pattern, text, re.MULTILINE)
        return int(found.group(1)) if found else None

    return count


# each command, and how many games it says it read (from standard output
# and error, or from its JSON report)
_COUNTS: dict[str, tuple[list[str], Callable[[str], int | None]]] = {
    "check": (["check", "{in}"], _said(r"^Checked 1 file, (\d+) games")),
    "check-json": (["check", "--format", "json", "{in}"], _games_in_json),
    "index": (["index", "{in}", "--db", "{out}/x.sqlite"], _said(r"^Indexed .*: (\d+) games")),
    "find": (["find", "{in}"], lambda text: len(re.findall(r"\.hxl:\d+$", text, re.MULTILINE))),
    "find-json": (["find", "--format", "json", "{in}"], lambda text: len(json.loads(text))),
    "stats-json": (["stats", "--format", "json", "{in}"], lambda text: json.loads(text)["games"]),
    "merge": (["merge", "{in}", "--out", "{out}/m.hxl"], _said(r"^wrote (\d+) games")),
    "split": (["split", "{in}", "--out-dir", "{out}/g"], _said(r"^wrote (\d+) files")),
}


@pytest.mark.parametrize("command", _COUNTS)
def test_every_game_after_an_open_comment_is_read(command, runner, inputs, tmp_path):
    """A comment never closed before game 3 of 8 ends where game 3's tags
    begin: every command reads all 8 games."""
    [case] = [case for case in CASES if case.name == _EIGHT]
    folder, argument = inputs(case)
    template, count = _COUNTS[command]
    problems = _run_and_judge(runner, template, str(folder / argument), folder, tmp_path)
    assert not problems, f"hexhop {command} on {_EIGHT}:\n" + "\n".join(problems)
    stdout = (tmp_path / "logs" / "stdout").read_text("utf-8")
    stderr = (tmp_path / "logs" / "stderr").read_text("utf-8")
    found = count(stdout if "json" in command else stdout + stderr)
    assert found == 8, (
        f"hexhop {command} read {found} games of 8:\n{stdout[-1000:]}{stderr[-1000:]}"
    )


# ---------------------------------------------------------------- signals

_BUSY = [
    (
        "render-png",
        ["render", "{in}", "--format", "png", "--out-dir", "{out}"],
        "good/huepfer-10x10-bremen-2003.hpf",
    ),
    ("render-svg", ["render", "{in}", "--format", "svg", "--out-dir", "{out}"], "good"),
    ("check", ["check", "{in}"], "."),
    (
        "convert",
        ["convert", "--to", "json", "{in}", "--out", "{out}/x.json"],
        "good/huepfer-10x10-bremen-2003.hpf",
    ),
    # a PDF's layout (WeasyPrint, cairosvg) runs in a child process that a signal stops
    (
        "render-article",
        ["render", "{in}", "--format", "article", "--plies", "0-40", "--out-dir", "{out}"],
        "good/huepfer-10x10-bremen-2003.hpf",
    ),
    (
        "render-sheet-pdf",
        ["render", "{in}", "--format", "sheet-pdf", "--plies", "0-40", "--out-dir", "{out}"],
        "good/huepfer-10x10-bremen-2003.hpf",
    ),
]


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
@pytest.mark.parametrize(
    "delay",
    [
        0.01,
        0.05,
        pytest.param(0.2, marks=pytest.mark.slow),
        pytest.param(0.6, marks=pytest.mark.slow),
    ],
)
@pytest.mark.parametrize("name,args,where", _BUSY, ids=[b[0] for b in _BUSY])
def test_a_signal_stops_cleanly(name, args, where, delay, number, runner, tmp_path):
    """Ctrl-C or SIGTERM at any moment: exit 130/143 (or the run's own
    code, when it ended first), no traceback, every file whole."""
    problems = _run_and_judge(
        runner,
        args,
        str(SAMPLES / where),
        SAMPLES,
        tmp_path,
        signal_after=delay,
        signal_number=number,
        expected=(0, 1, 2, 128 + number),
    )
    assert not problems, f"hexhop {name}, signal {number} after {delay} s:\n" + "\n".join(problems)


# ---------------------------------------------------------------- the judge


def _run_and_judge(
    runner: Runner,
    template: list[str],
    path: str,
    folder: Path,
    work: Path,
    *,
    stdin: str | None = None,
    terminal: bool = False,
    report: str = "",
    signal_after: float | None = None,
    signal_number: int = signal.SIGTERM,
    expected: tuple[int, ...] = (0, 1, 2),
    env: dict[str, str] | None = None,
    prepare: Callable[[Path, Path], None] | None = None,
    seconds: float = SECONDS,
) -> list[str]:
    """Run one command and return every promise it broke."""
    cwd, out, temporary, logs = work / "cwd", work / "cwd" / "out", work / "tmp", work / "logs"
    for made in (cwd, out, temporary, logs):  # out: as a user gives one that exists
        made.mkdir()
    if prepare is not None:
        prepare(folder, out)
    places = {
        "{in}": path,
        "{out}": str(out),
        "{folder}": str(folder),
        "{rel}": os.path.relpath(path, cwd),
    }
    args = [re.sub(r"\{(in|out|folder|rel)\}", lambda m: places[m.group()], a) for a in template]
    before = _snapshot(folder)
    kept = _files_in(out)
    outcome = runner.run(
        args,
        cwd=str(cwd),
        stdin=stdin,
        stdout=str(logs / "stdout"),
        stderr=str(logs / "stderr"),
        env={"TMPDIR": str(temporary), **(env or {})},
        seconds=seconds,
        output_mib=OUTPUT_MIB,
        signal_after=signal_after,
        signal_number=signal_number,
    )
    stdout = (logs / "stdout").read_bytes().decode("utf-8", errors="replace")
    stderr = (logs / "stderr").read_bytes().decode("utf-8", errors="replace")
    problems = _judge_outcome(outcome, expected, seconds)
    for stream, text in (("stdout", stdout), ("stderr", stderr)):
        if "Traceback (most recent call last)" in text:
            problems.append(f"a traceback on {stream}: {_last_lines(text)}")
        elif "internal error" in text.lower():
            problems.append(f"an internal error on {stream}: {_last_lines(text)}")
    for stream, text in (("stderr", stderr), ("stdout", stdout if terminal else "")):
        control = _CONTROL.search(text)
        if control:
            problems.append(
                f"a raw control character {control.group()!r} on {stream}: "
                f"{text[max(0, control.start() - 60) : control.end() + 20]!r}"
            )
    if outcome.exit_code in (0, 1) and stdout and not signal_after:
        problems += _well_formed(report, stdout)
    problems += _outputs(out, kept)
    if _snapshot(folder) != before:
        problems.append("the input was changed")
    after = _files_in(out)
    changed = sorted(name for name, was in kept.items() if after.get(name) != was)
    if changed:
        problems.append(f"files that were in the output folder changed or gone: {changed[:5]}")
    strays = sorted(p.name for p in cwd.iterdir() if p.name != "out")
    strays += sorted(p.name for p in temporary.iterdir())
    if strays and not outcome.timed_out:  # SIGKILL leaves no chance to clean up
        problems.append(f"files left outside the output folder: {strays[:5]}")
    if problems:
        problems.append(f"[{outcome.describe()}; stderr: {_last_lines(stderr)}]")
    return problems


def _judge_outcome(
    outcome: Outcome, expected: tuple[int, ...], seconds: float = SECONDS
) -> list[str]:
    if outcome.timed_out:
        return [f"still running after {seconds:.0f} s ({outcome.peak_mib:.0f} MiB by then)"]
    problems = []
    if outcome.signal == signal.SIGXFSZ:
        problems.append(f"wrote more than {OUTPUT_MIB} MiB to one file (killed by SIGXFSZ)")
    elif outcome.signal is not None:
        problems.append(f"killed by {signal.Signals(outcome.signal).name}")
    elif outcome.exit_code not in expected:
        problems.append(f"exit {outcome.exit_code}, expected one of {expected}")
    if outcome.peak_mib > PEAK_MIB:
        problems.append(f"peak memory {outcome.peak_mib:.0f} MiB > {PEAK_MIB} MiB")
    return problems


def _well_formed(report: str, stdout: str) -> list[str]:
    try:
        if report == "json":
            json.loads(stdout)
        elif report == "jsonl":
            for line in stdout.splitlines():
                json.loads(line)
        elif report == "junit":
            ET.fromstring(stdout.split("\n", 1)[1] if stdout.startswith("<?xml") else stdout)
        elif report == "csv":
            rows = list(csv.reader(io.StringIO(stdout, newline="")))
            widths = {len(row) for row in rows}
            if len(widths) > 1:
                raise ValueError(f"rows of {sorted(widths)} cells")
            formulas = [cell for row in rows for cell in row if _formula(cell)]
            if formulas:
                raise ValueError(f"cells a spreadsheet runs as formulas: {formulas[:3]}")
    except (ValueError, ET.ParseError, csv.Error) as error:
        return [f"the {report} report is not well-formed: {error}"]
    return []


def _formula(cell: str) -> bool:
    """Whether a spreadsheet takes ``cell`` for a formula (OWASP's list);
    a number (``-12``) is a number."""
    return cell.startswith(("=", "+", "-", "@", "\t", "\r")) and not re.fullmatch(
        r"-?[0-9]+(\.[0-9]+)?", cell
    )


def _outputs(out: Path, kept: dict[str, tuple]) -> list[str]:
    """Files a command wrote: each new one with the mode the umask gives (as
    every program makes files: the writer's promise), SVG and HTML without
    raw control characters."""
    problems = []
    if not out.exists():
        return problems
    problems += _modes(out, kept)
    for written in sorted(out.rglob("*")):
        if written.suffix not in (".svg", ".html", ".json", ".xml") or written.is_symlink():
            continue
        text = written.read_bytes().decode("utf-8", errors="replace")
        control = _XML_CONTROL.search(text)
        if control:
            problems.append(f"{written.name} holds a raw control character {control.group()!r}")
    return problems


def _modes(out: Path, kept: dict[str, tuple]) -> list[str]:
    """New files under ``out`` whose mode is not 0666 less the umask."""
    mask = os.umask(0)
    os.umask(mask)
    wanted = 0o666 & ~mask
    return [
        f"{name} was made with mode {oct(info[0] & 0o7777)}, not {oct(wanted)} (the umask's)"
        for name, info in _files_in(out).items()
        if name not in kept and stat.S_ISREG(info[0]) and info[0] & 0o7777 != wanted
    ]


def _snapshot(folder: Path) -> dict[bytes, tuple]:
    """Everything about the files under ``folder`` that a command could change."""
    seen: dict[bytes, tuple] = {}
    for where, dirs, files in os.walk(os.fsencode(folder)):
        for name in dirs + files:
            full = os.path.join(where, name)
            info = os.lstat(full)
            digest = b""
            if stat.S_ISREG(info.st_mode):
                with open(full, "rb") as handle:
                    digest = hashlib.file_digest(handle, "sha256").digest()
            seen[full] = (info.st_mode, info.st_size, info.st_mtime_ns, info.st_rdev, digest)
    return seen


def _files_in(out: Path) -> dict[str, tuple]:
    """Every file and link under ``out`` (not folders, which gain entries):
    its kind, bytes or target, size and time."""
    seen: dict[str, tuple] = {}
    for where, _, files in os.walk(out):
        for name in files:
            full = os.path.join(where, name)
            info = os.lstat(full)
            if stat.S_ISLNK(info.st_mode):
                content = os.readlink(full)
            else:
                with open(full, "rb") as handle:
                    content = hashlib.file_digest(handle, "sha256").hexdigest()
            seen[os.path.relpath(full, out)] = (
                info.st_mode,
                info.st_size,
                info.st_mtime_ns,
                content,
            )
    return seen


def _last_lines(text: str, count: int = 3) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return " | ".join(line[:200] for line in lines[-count:]) or "(nothing)"
