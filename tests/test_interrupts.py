"""Ctrl-C and SIGTERM in the middle of a run: no half-written file, no
temporary file left, a word on how far the run got, exit 130 or 143; and
inputs are never changed by the commands that only read them."""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexhop.cli.main import cli
from hexhop.engine.generate import random_archive
from hexhop.notation import format_archive

ROOT = Path(__file__).resolve().parent.parent
EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143}


def start(*args: str, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "hexhop.cli", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,
    )


def wait_for(condition, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "the run never got going"
        time.sleep(0.02)


def stop(process: subprocess.Popen, signum: int) -> tuple[str, str]:
    process.send_signal(signum)
    out, err = process.communicate(timeout=60)
    assert process.returncode == EXIT[signum], err.decode()
    assert b"Traceback" not in err, err.decode()
    return out.decode(), err.decode()


def stray_temporaries(folder: Path) -> list[Path]:
    return list(folder.rglob(".hexhop-*"))


@pytest.fixture(scope="module")
def long_game(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("records") / "long.hpf"
    path.write_text(
        format_archive(random_archive("Hüpfer", 1, 3, board=10, max_plies=400)), "utf-8"
    )
    return path


#: one signal in the quick tier, both in the whole suite
ONE_SIGNAL_QUICK = [signal.SIGTERM, pytest.param(signal.SIGINT, marks=pytest.mark.slow)]


@pytest.mark.parametrize("signum", ONE_SIGNAL_QUICK)
def test_render_interrupted_leaves_only_whole_pictures(tmp_path, long_game, signum):
    out = tmp_path / "pictures"
    process = start(
        "render", str(long_game), "--format", "png", "--out-dir", str(out), cwd=tmp_path
    )
    wait_for(lambda: out.is_dir() and len(list(out.glob("*.png"))) >= 3)
    _, err = stop(process, signum)
    written = sorted(out.glob("*.png"))
    assert f"interrupted after {len(written)} of " in err
    assert not stray_temporaries(tmp_path)
    from PIL import Image

    for picture in written:
        with Image.open(picture) as image:
            image.load()  # a truncated PNG fails here


@pytest.mark.parametrize(
    "signum", [signal.SIGINT, pytest.param(signal.SIGTERM, marks=pytest.mark.slow)]
)
def test_fmt_in_place_interrupted_leaves_each_file_old_or_new(tmp_path, signum):
    text = format_archive(random_archive("Hexalit", 20, 1, max_plies=60))
    messy = text.replace("\n", "\r\n").replace("X", "x")
    files = []
    for i in range(400):
        path = tmp_path / f"{i:03d}.hxl"
        path.write_text(messy, "utf-8", newline="")
        files.append(str(path.name))
    process = start("fmt", "--in-place", *files, cwd=tmp_path)
    wait_for(lambda: any(p.read_bytes() != messy.encode() for p in tmp_path.glob("*.hxl")))
    _, err = stop(process, signum)
    assert "interrupted after " in err and " of 400 files" in err
    contents = {p.read_bytes() for p in tmp_path.glob("*.hxl")}
    assert contents <= {messy.encode(), text.encode()}
    assert not stray_temporaries(tmp_path)


@pytest.mark.parametrize(
    "signum, jobs",
    [
        (signal.SIGTERM, "1"),
        (signal.SIGINT, "2"),  # the quick tier: each signal, each way of checking
        pytest.param(signal.SIGINT, "1", marks=pytest.mark.slow),
        pytest.param(signal.SIGTERM, "2", marks=pytest.mark.slow),
    ],
)
def test_check_interrupted_prints_the_report_so_far(tmp_path, signum, jobs):
    text = format_archive(random_archive("Trigeo", 10, 2, max_plies=80))
    for i in range(600):
        (tmp_path / f"{i:03d}.trg").write_text(text, "utf-8")
    process = start("check", ".", "--format", "jsonl", "-j", jobs, cwd=tmp_path)
    assert process.stdout is not None
    first = process.stdout.readline()
    assert first
    out, err = stop(process, signum)
    lines = [json.loads(line) for line in (first.decode() + out).splitlines()]
    summary = lines[-1]["summary"]
    assert 0 < summary["files"] < 600
    assert summary["games"] == len(lines) - 1
    files = summary["files"]
    assert f"interrupted after {files} file{'s' * (files != 1)}\n" in err


def test_generate_interrupted_writes_nothing(tmp_path):
    out = tmp_path / "many.hxl"
    process = start(
        "generate", "--game", "Hexalit", "--count", "100000", "--out", str(out), cwd=tmp_path
    )
    # starting takes a fifth of a second of processor time (a tenth when the
    # bytecode is kept), whatever the load: past half a second it generates
    wait_for(lambda: process.poll() is not None or cpu_seconds(process.pid) > 0.5)
    _, err = stop(process, signal.SIGTERM)
    assert re.fullmatch(r"interrupted after \d+ of 100000 games; nothing written\n", err), err
    assert not out.exists() and not stray_temporaries(tmp_path)


def test_a_write_interrupted_by_an_exception_leaves_no_temporary(tmp_path, monkeypatch):
    from hexhop.cli import safe_write

    target = tmp_path / "out.svg"
    target.write_bytes(b"old")

    def broken_replace(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(safe_write.os, "replace", broken_replace)
    with pytest.raises(KeyboardInterrupt):
        safe_write.write_atomically(str(target), b"new", overwrite=True)
    assert target.read_bytes() == b"old" and not stray_temporaries(tmp_path)


def digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        + oct(p.stat().st_mode)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_check_convert_and_render_never_change_their_inputs(tmp_path):
    inputs = tmp_path / "inputs"
    for folder in ("good", "broken"):
        for path in (ROOT / "samples" / folder).iterdir():
            (inputs / folder).mkdir(parents=True, exist_ok=True)
            (inputs / folder / path.name).write_bytes(path.read_bytes())
    before = digest(inputs)
    runner = CliRunner()
    runner.invoke(cli, ["check", str(inputs), "--format", "json"])
    runner.invoke(cli, ["check", str(inputs), "-j", "2"])
    for path in sorted(inputs.rglob("*.*")):
        runner.invoke(
            cli,
            [
                "convert",
                str(path),
                "--to",
                "json",
                "--out",
                str(tmp_path / "out" / f"{path.name}.json"),
            ],
        )
        runner.invoke(
            cli,
            [
                "render",
                str(path),
                "--plies",
                "0,last",
                "--out-dir",
                str(tmp_path / "pictures" / path.name),
            ],
        )
    assert (tmp_path / "pictures").is_dir()
    assert digest(inputs) == before


# -- at random moments, from the very first one --------------------------------


def caught_signals(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("SigCgt:"):
                return int(line.split()[1], 16)
    return 0


def cpu_seconds(pid: int) -> float:
    """The processor time process ``pid`` has used."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def started(process: subprocess.Popen) -> None:
    """Wait until hexhop's own code runs: it catches SIGTERM from its first
    line on (before that, the interpreter is still starting)."""
    wait_for(
        lambda: (
            process.poll() is not None or caught_signals(process.pid) & (1 << (signal.SIGTERM - 1))
        ),
        timeout=30,
    )


def interrupt_at_random(
    args: list[str], cwd: Path, rng: random.Random, latest: float, finished: int = 0
) -> tuple[int, str, str]:
    """Run hexhop, send SIGINT or SIGTERM after a random delay; the run ends
    with 130 or 143 (or ``finished``, the command's own exit status, when
    its work was done first), never with a traceback."""
    process = start(*args, cwd=cwd)
    started(process)
    time.sleep(rng.uniform(0, latest))
    signum = rng.choice([signal.SIGINT, signal.SIGTERM])
    if process.poll() is None:
        process.send_signal(signum)
    out, err = process.communicate(timeout=60)
    text = err.decode("utf-8", "replace")
    assert process.returncode in (finished, EXIT[signum]), (args, process.returncode, text)
    assert "Traceback" not in text and "Error" not in text, (args, text)
    assert not stray_temporaries(cwd), args
    return process.returncode, out.decode("utf-8", "replace"), text


@pytest.mark.parametrize("seed", [17, pytest.param(18, marks=pytest.mark.slow)])
def test_ctrl_c_in_the_first_moments_is_quiet(seed):
    """Four random moments in the quick tier, eight in the whole suite."""
    rng = random.Random(seed)
    for _ in range(4):
        # samples/broken holds invalid games: a check that finished exits 1
        code, out, err = interrupt_at_random(
            ["check", str(ROOT / "samples")], ROOT, rng, 0.15, finished=1
        )
        if code == 1:
            assert err == "" and "Checked" in out, (out, err)
        else:
            assert err in ("", "interrupted\n") or err.startswith("interrupted after"), err


@pytest.fixture(scope="module")
def three_games(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("records") / "three.hpf"
    path.write_text(format_archive(random_archive("Hüpfer", 3, 5, board=8, max_plies=300)), "utf-8")
    return path


@pytest.mark.slow
@pytest.mark.parametrize("fmt, trials", [("png", 5), ("gif", 3), ("sheet", 3)])
def test_render_stopped_at_random_moments_leaves_what_it_says(tmp_path, three_games, fmt, trials):
    """Ctrl-C or SIGTERM while cairo draws used to land in a cairocffi callback:
    an OSError traceback and exit 1, or the interrupt lost."""
    rng = random.Random(f"render-{fmt}")
    for trial in range(trials):
        out = tmp_path / f"out{trial}"
        code, _, err = interrupt_at_random(
            ["render", str(three_games), "--format", fmt, "--out-dir", str(out)], tmp_path, rng, 1.5
        )
        written = sorted(out.glob("*")) if out.exists() else []
        if code:  # quiet or a bare "interrupted" before the command began
            match = re.fullmatch(
                r"(?:interrupted(?: after (\d+) of \d+ files; (?:kept: .*|nothing written)"
                r"| before any file was written)?\n)?",
                err,
            )
            assert match, err
            assert len(written) == int(match.group(1) or 0), err
        else:
            assert f"wrote {len(written)} files" in err
        from PIL import Image

        for picture in written:
            with Image.open(picture) as image:
                image.load()


@pytest.mark.slow
def test_check_and_convert_stopped_at_random_moments(tmp_path):
    text = format_archive(random_archive("Trigeo", 40, 3, max_plies=80))
    for i in range(40):
        (tmp_path / f"{i:02d}.trg").write_text(text, "utf-8")
    rng = random.Random("check-convert")
    for trial in range(4):
        code, out, err = interrupt_at_random(
            ["check", ".", "--format", "jsonl"], tmp_path, rng, 1.5
        )
        lines = [json.loads(line) for line in out.splitlines()]
        assert not lines or lines[-1]["summary"]["games"] == len(lines) - 1
        if code and lines:
            files = lines[-1]["summary"]["files"]
            assert f"interrupted after {files} file{'s' * (files != 1)}" in err
        target = tmp_path / f"out{trial}.json"
        code, _, err = interrupt_at_random(
            ["convert", "00.trg", "--to", "json", "--out", target.name], tmp_path, rng, 1.5
        )
        if code:
            assert err in (
                "",
                "interrupted\n",
                "interrupted before anything was written\n",
            ) or re.fullmatch(r"interrupted after \d+ of 40 games; nothing written\n", err), err
            assert not target.exists()
        else:
            assert len(json.loads(target.read_text("utf-8"))["games"]) == 40


# -- where an interrupt may be raised ----------------------------------------


def run_script(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``script`` run by a Python of its own, with ``args``."""
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


WEAKREF_CALLBACK = """
import os, signal, weakref
from hexhop.cli import interrupt

class Thing:
    pass

def stop_me(ref):  # runs inside a weakref callback, like importlib's
    os.kill(os.getpid(), signal.SIGTERM)
    for _ in range(10000):
        pass

@interrupt.catches_interrupts
def run():
    try:
        thing = Thing()
        ref = weakref.ref(thing, stop_me)
        del thing
        print("callback done", flush=True)
        interrupt.checkpoint()
        print("not stopped")
    except interrupt.Terminated:
        print("stopped at the checkpoint")

interrupt.watch_signals()
run()
"""


def test_a_signal_inside_a_weakref_callback_waits_for_a_checkpoint():
    """Raised in a weakref callback, the interrupt was printed as "Exception
    ignored in ..." and lost."""
    done = run_script(WEAKREF_CALLBACK)
    assert (done.stdout, done.stderr) == ("callback done\nstopped at the checkpoint\n", "")


HELD_THEN_NO_CHECKPOINT = """
import os, signal
from hexhop.cli import interrupt
from hexhop.engine.generate import random_archive

@interrupt.catches_interrupts
def run():
    try:
        with interrupt.signals_held():
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(100000):
                pass
            print("held block done", flush=True)
        while True:  # hexhop's work with no checkpoint in it, as after a command's last held block
            random_archive("Trigeo", 1, 1, max_plies=40)
    except interrupt.Terminated:
        print("stopped after the block")

interrupt.watch_signals()
run()
"""


def test_a_signal_held_back_is_raised_after_the_block_without_a_checkpoint():
    """A signal that came while a file's notes were printed whole was lost
    when no checkpoint followed: the run went on to its end and exited 0."""
    done = run_script(HELD_THEN_NO_CHECKPOINT)
    assert (done.stdout, done.stderr) == ("held block done\nstopped after the block\n", "")


SIGNAL_WHILE_THE_LANGUAGE_IS_SET = """
import os, signal, sys
from hexhop.cli import main

# a stand-in for hexhop's own code that the program runs first: the signal
# is taken in a frame of hexhop, called by the catcher of the program
code = "def stop_here(name=None):\\n    os.kill(os.getpid(), signal.SIGTERM)\\n    return 'en'\\n"
space = {"__name__": "hexhop.messages", "os": os, "signal": signal}
exec(code, space)
main.set_language = space["stop_here"]
sys.argv = ["hexhop", "check", sys.argv[1]]
main.main()
"""


def test_a_signal_while_the_program_sets_its_language_is_quiet():
    """A SIGTERM in the program's first moments, while the language of the
    environment was looked up, ended in click's "Aborted!" and exit 1."""
    done = run_script(SIGNAL_WHILE_THE_LANGUAGE_IS_SET, str(ROOT / "samples" / "good"))
    assert (done.returncode, done.stdout, done.stderr) == (143, "", "interrupted\n")


def _catcher(action):
    return action()


def test_can_raise_only_in_code_that_lets_it_through_down_to_a_catcher(monkeypatch):
    from hexhop.cli import interrupt

    catchers = {_catcher.__code__}

    def here():
        return sys._getframe(1)  # the frame calling it

    assert not interrupt.can_raise(_catcher(here), catchers)  # this module: not known
    monkeypatch.setattr(interrupt, "_PROPAGATING", interrupt._PROPAGATING | {__name__})
    assert interrupt.can_raise(_catcher(lambda: here()), catchers)
    assert not interrupt.can_raise(_catcher(lambda: here()), set()), "no catcher below"
    assert not interrupt.can_raise(_catcher(sys._getframe), catchers), "in the catcher"

    seen = {}

    class Finalized:
        def __del__(self):
            seen["__del__"] = interrupt.can_raise(sys._getframe(), catchers)

    def closed():
        try:
            yield
        finally:
            seen["generator closed"] = interrupt.can_raise(sys._getframe(), catchers)

    def finalize():
        Finalized()
        generator = closed()
        next(generator)
        generator.close()

    _catcher(finalize)
    assert seen == {"__del__": False, "generator closed": False}


# ---------------------------------------------------------------- a PDF being laid out


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # it ended meanwhile
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _pdf_crosstable(folder: Path, out: Path) -> list[str]:
    """The crosstable of 2,000 players (cairosvg: pages of a listing, seconds)."""
    from test_crosstable_bounds import ring

    (folder / "ring.hxl").write_text(ring(2_000), "utf-8")
    return ["crosstable", str(folder / "ring.hxl"), "--scan", "--format", "pdf"] + [
        *("--out", str(out), "-q")
    ]


def _pdf_article(folder: Path, out: Path) -> list[str]:
    """The article of a long game with 16 diagrams (WeasyPrint, seconds)."""
    game = folder / "long.hpf"
    game.write_text(
        format_archive(random_archive("Hüpfer", 1, 3, board=10, max_plies=400)), "utf-8"
    )
    return ["render", str(game), "--format", "article", "--plies", "0-150", "-q"] + [
        *("--out-dir", str(out.parent))
    ]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("signum", ONE_SIGNAL_QUICK)
@pytest.mark.parametrize("make", [_pdf_crosstable, _pdf_article], ids=["crosstable", "article"])
def test_a_pdf_being_laid_out_stops_at_once(tmp_path, make, signum):
    """The layout runs in a child process (render.isolated.in_child): a
    signal stops the command with 130 or 143 long before the layout would
    have ended, and leaves no PDF, no temporary file and no process."""
    out = tmp_path / "out" / "x.pdf"
    out.parent.mkdir()
    process = start(*make(tmp_path, out), cwd=tmp_path)
    layout: list[int] = []
    wait_for(lambda: layout.extend(children_of(process.pid)) or layout)
    _, err = stop(process, signum)
    told = {
        "crosstable": f"interrupted while laying out {out}; nothing written",
        "article": "interrupted before any file was written",
    }
    assert err.splitlines()[-1] == told[make.__name__.split("_")[2]]
    assert list(out.parent.iterdir()) == []  # no PDF, whole or half, and no temporary
    assert stray_temporaries(tmp_path) == []
    assert [pid for pid in layout if Path(f"/proc/{pid}").exists()] == []
