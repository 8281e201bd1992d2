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

import hashlib
import json
import os
import re
import signal
import stat
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
from safety_runner import Outcome, Runner

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # tab and newline are fine
_XML_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


@pytest.fixture(scope="module")
def runner():
    client = Runner()
    yield client
    client.close()


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
    "blank-run-stdin",
    "fifo-record",
    "control-characters",
    "long-move-number",
    "huge-tag-value",
    "corrupt-zip",
    "huge-player-name",
}  # and every json-* case


# known failures of code this suite's authors may not change: the mark goes
# when the fix is in (strict: a fix that lands makes the mark fail)
def _params():
    for case in CASES:
        for command in case.commands:
            quick = case.name in QUICK or case.name.startswith("json-")
            marks = [] if quick else [pytest.mark.slow]
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
    )
    assert not problems, f"hexhop {command} on {case.name} ({case.notes}):\n" + "\n".join(problems)


# ---------------------------------------------------------------- signals

_BUSY = [
    (
        "render-png",
        ["render", "{in}", "--format", "png", "--out", "{out}"],
        "good/huepfer-10x10-bremen-2003.hpf",
    ),
    ("render-svg", ["render", "{in}", "--format", "svg", "--out", "{out}"], "good"),
    ("check", ["check", "{in}"], "."),
    (
        "convert",
        ["convert", "--to", "json", "{in}", "--out", "{out}/x.json"],
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
) -> list[str]:
    """Run one command and return every promise it broke."""
    cwd, out, temporary, logs = work / "cwd", work / "cwd" / "out", work / "tmp", work / "logs"
    for made in (cwd, out, temporary, logs):  # out: as a user gives one that exists
        made.mkdir()
    args = [a.replace("{in}", path).replace("{out}", str(out)) for a in template]
    before = _snapshot(folder)
    outcome = runner.run(
        args,
        cwd=str(cwd),
        stdin=stdin,
        stdout=str(logs / "stdout"),
        stderr=str(logs / "stderr"),
        env={"TMPDIR": str(temporary)},
        seconds=SECONDS,
        output_mib=OUTPUT_MIB,
        signal_after=signal_after,
        signal_number=signal_number,
    )
    stdout = (logs / "stdout").read_bytes().decode("utf-8", errors="replace")
    stderr = (logs / "stderr").read_bytes().decode("utf-8", errors="replace")
    problems = _judge_outcome(outcome, expected)
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
    problems += _outputs(out)
    if _snapshot(folder) != before:
        problems.append("the input was changed")
    strays = sorted(p.name for p in cwd.iterdir() if p.name != "out")
    strays += sorted(p.name for p in temporary.iterdir())
    if strays and not outcome.timed_out:  # SIGKILL leaves no chance to clean up
        problems.append(f"files left outside the output folder: {strays[:5]}")
    if problems:
        problems.append(f"[{outcome.describe()}; stderr: {_last_lines(stderr)}]")
    return problems


def _judge_outcome(outcome: Outcome, expected: tuple[int, ...]) -> list[str]:
    if outcome.timed_out:
        return [f"still running after {SECONDS:.0f} s ({outcome.peak_mib:.0f} MiB by then)"]
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
        elif report == "junit":
            ET.fromstring(stdout.split("\n", 1)[1] if stdout.startswith("<?xml") else stdout)
    except (ValueError, ET.ParseError) as error:
        return [f"the {report} report is not well-formed: {error}"]
    return []


def _outputs(out: Path) -> list[str]:
    """Files a command wrote: SVG and HTML without raw control characters."""
    problems = []
    if not out.exists():
        return problems
    for written in sorted(out.rglob("*")):
        if written.suffix not in (".svg", ".html", ".json", ".xml"):
            continue
        text = written.read_bytes().decode("utf-8", errors="replace")
        control = _XML_CONTROL.search(text)
        if control:
            problems.append(f"{written.name} holds a raw control character {control.group()!r}")
    return problems


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


def _last_lines(text: str, count: int = 3) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return " | ".join(line[:200] for line in lines[-count:]) or "(nothing)"
