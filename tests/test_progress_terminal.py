"""Every long command shows a progress bar at a terminal, and on Ctrl-C
says what it finished and what it kept, run in a
pseudo-terminal as a user would run it.

Each run is stopped as soon as its bar shows work done, so the inputs are
large (the work they would take is bounded by the stop, not by a clock).
The bar shows after a second: a run takes at least that, and the runs
but one are in the slow tier.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from pty_run import BAR, Terminal, interrupted

from hexhop.engine.generate import random_archive
from hexhop.notation import format_archive, read_archive

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples" / "good"
KASSEL = SAMPLES / "hexalit-kassel-1998.hxl"
WORKING = re.compile(r"\[[#.]{30}\] [1-9]\d*/\d+ ")  # the bar, with something done
SEVERAL = re.compile(r"\[[#.]{30}\] ([3-9]|\d\d+)/\d+ ")  # several things done
KEPT = re.compile(r"kept: (\S+) … (\S+) \((\d+) files\)")


def repeated(folder: Path, sample: Path, games: int, name: str | None = None) -> Path:
    """An archive of ``games`` copies of the game of ``sample``."""
    text = sample.read_text("utf-8").strip() + "\n"
    path = folder / (name or sample.name)
    path.write_text("\n".join([text] * games), "utf-8")
    return path


def games_in(path: Path) -> int:
    return sum(1 for _ in read_archive(path.read_bytes(), path=str(path)))


def bar_shape(run_text: str, total: int, what: str) -> None:
    """The bar drawn: done/total, the rate and the time left."""
    drawn = re.search(r"\[[#.]{30}\] (\d+)/(\d+) (\w+), [\d.]+/s, [\d:]+ left", run_text)
    assert drawn, run_text
    assert int(drawn.group(2)) == total and drawn.group(3) == what, drawn.group(0)
    assert int(drawn.group(1)) <= total


def last_word(text: str) -> str:
    """The last line the terminal shows (Ctrl-C's word, after the bar was cleared)."""
    lines = [re.split(r"\r|\x1b\[K", line)[-1] for line in text.replace("\r\n", "\n").split("\n")]
    return [line for line in lines if line.strip()][-1].strip()


# -- the commands that write nothing, or one file at the end ----------------


@pytest.mark.slow  # as every test here: a command run in a pseudo-terminal until it shows work
def test_analyse_shows_the_games_and_tells_where_it_stopped(tmp_path):
    """A long analyse shows its progress, and on Ctrl-C says more than
    "interrupted": it must not say nothing for minutes."""
    record = repeated(tmp_path, KASSEL, 2000)
    run = interrupted("analyse", record.name, "--depth", "1", cwd=tmp_path, at=WORKING)
    bar_shape(run.text, 2000, "games")
    said = re.fullmatch(
        r"interrupted at game (\d+) of 2000 \((\d+) analysed, their notes printed\)",
        last_word(run.text),
    )
    assert said and int(said.group(1)) == int(said.group(2)) + 1 >= 2, run.text
    # the notes of the games done, and their summary
    done = int(said.group(2))
    assert run.text.count("missed a win at once with 4. B7°C7") == done, run.text
    assert f"analysed {done} games, {42 * done} plies" in run.text


@pytest.mark.slow
def test_analyse_annotate_names_the_copy_not_written(tmp_path):
    record = repeated(tmp_path, KASSEL, 2000)
    run = interrupted(
        *("analyse", record.name, "--depth", "1", "--annotate", "copy.hxl"),
        cwd=tmp_path,
        at=WORKING,
    )
    assert re.fullmatch(
        r"interrupted at game \d+ of 2000 \(\d+ analysed, copy.hxl not written\)",
        last_word(run.text),
    ), run.text
    assert not (tmp_path / "copy.hxl").exists()


@pytest.mark.slow
def test_check_shows_the_games_of_a_folder(tmp_path):
    folder = tmp_path / "club"
    folder.mkdir()
    for number in range(40):
        repeated(folder, KASSEL, 200, f"{number:02d}.hxl")
    run = interrupted("check", "club", cwd=tmp_path, at=WORKING)
    bar_shape(run.text, 8000, "games")
    said = re.fullmatch(r"interrupted after (\d+) files?", last_word(run.text))
    assert said, run.text
    checked = re.search(r"Checked (\d+) files?, (\d+) games", run.text)
    assert checked and checked.group(1) == said.group(1), run.text


@pytest.mark.slow
def test_the_report_beside_the_bar_starts_on_a_line_of_its_own(tmp_path):
    folder = tmp_path / "club"
    folder.mkdir()
    broken = (ROOT / "samples" / "broken" / "syntax-stray-result.hxl").read_text("utf-8")
    for number in range(40):
        repeated(folder, KASSEL, 100, f"{number:02d}.hxl")
        (folder / f"{number:02d}-broken.hxl").write_text(broken, "utf-8")
    terminal = Terminal("check", "club", "-j", "1", "--color", "never", cwd=tmp_path)
    terminal.wait_for(re.compile(r"games, [\s\S]*error SY01[\s\S]*games, [\s\S]*error SY01"))
    run = terminal.finish(signal.SIGINT)
    lines = run.text.replace("\r\n", "\n").split("\n")
    errors = [line.rsplit("\r", 1)[-1] for line in lines if "error SY01" in line]
    assert len(errors) >= 2
    for shown in errors:
        assert re.fullmatch(r"(\x1b\[K)?club/\d\d-broken.hxl:6:30: error SY01 .*", shown), shown


@pytest.mark.slow
def test_index_shows_the_files_and_keeps_those_indexed(tmp_path):
    folder = tmp_path / "club"
    folder.mkdir()
    for number in range(300):
        repeated(folder, KASSEL, 30, f"{number:03d}.hxl")
    run = interrupted("index", "club", "--db", "x.sqlite", "-j", "1", cwd=tmp_path, at=WORKING)
    bar_shape(run.text, 300, "files")
    said = re.fullmatch(
        r"interrupted after (\d+) files? \(each written whole; run again to go on\)",
        last_word(run.text),
    )
    assert said, run.text
    import sqlite3

    with sqlite3.connect(tmp_path / "x.sqlite") as db:
        (files,) = db.execute("SELECT count(*) FROM files").fetchone()
    assert files == int(said.group(1))


@pytest.mark.slow
@pytest.mark.parametrize(
    "args, said",
    [
        (("find", "--scan", "--player", "nobody"), r"after reading \d+ of 6000 games, 0 found"),
        (("stats", "--scan"), r"after reading \d+ of 6000 games"),
        (("dupes", "--scan"), r"after reading \d+ of 6000 games; nothing written"),
    ],
    ids=["find", "stats", "dupes"],
)
def test_the_scans_show_the_games_read(tmp_path, args, said):
    record = repeated(tmp_path, KASSEL, 6000)
    run = interrupted(*args, record.name, cwd=tmp_path, at=WORKING)
    bar_shape(run.text, 6000, "games")
    assert re.fullmatch("interrupted " + said, last_word(run.text)), run.text


@pytest.mark.slow
def test_merge_reads_and_writes_nothing_when_stopped(tmp_path):
    record = repeated(tmp_path, KASSEL, 6000)
    run = interrupted("merge", record.name, "--out", "all.hxl", cwd=tmp_path, at=WORKING)
    bar_shape(run.text, 6000, "games")
    assert re.fullmatch(
        r"interrupted after \d+ of 6000 games; nothing written", last_word(run.text)
    ), run.text
    assert sorted(p.name for p in tmp_path.iterdir()) == [record.name]


@pytest.mark.slow
def test_generate_writes_nothing_when_stopped(tmp_path):
    run = interrupted(
        *("generate", "--game", "Trigeo", "--count", "100000", "--out", "many.trg"),
        cwd=tmp_path,
        at=WORKING,
    )
    bar_shape(run.text, 100000, "games")
    assert re.fullmatch(
        r"interrupted after \d+ of 100000 games; nothing written", last_word(run.text)
    ), run.text
    assert not list(tmp_path.iterdir())


@pytest.mark.slow
def test_convert_writes_nothing_when_stopped(tmp_path):
    record = repeated(tmp_path, KASSEL, 6000)
    run = interrupted(
        "convert", record.name, "--to", "json", "--out", "x.json", cwd=tmp_path, at=WORKING
    )
    bar_shape(run.text, 6000, "games")
    assert re.fullmatch(
        r"interrupted after \d+ of 6000 games; nothing written", last_word(run.text)
    ), run.text
    assert not (tmp_path / "x.json").exists()


# -- the commands that write file after file: what they kept ----------------


def kept_files(text: str) -> tuple[str, str, int]:
    said = KEPT.search(last_word(text))
    assert said, text
    return said.group(1), said.group(2), int(said.group(3))


@pytest.mark.slow
def test_split_keeps_whole_games(tmp_path):
    record = repeated(tmp_path, KASSEL, 6000)
    run = interrupted("split", record.name, "--out-dir", "games", cwd=tmp_path, at=WORKING)
    bar_shape(run.text, 6000, "games")
    said = re.fullmatch(r"interrupted after (\d+) of 6000 games; .*", last_word(run.text))
    assert said, run.text
    first, last, count = kept_files(run.text)
    written = sorted((tmp_path / "games").iterdir())
    assert count == len(written) == int(said.group(1))
    assert {first, last} <= {f"games/{p.name}" for p in written}
    for path in written:
        assert games_in(path) == 1, path


@pytest.mark.slow
def test_render_keeps_whole_pictures(tmp_path):
    record = tmp_path / "long.hpf"
    record.write_text(format_archive(random_archive("Hüpfer", 1, 3, board=10, max_plies=400)))
    run = interrupted(
        "render", record.name, "--format", "png", "--out-dir", "pictures", cwd=tmp_path, at=SEVERAL
    )
    assert BAR.search(run.text).group(3) == "files"
    said = re.fullmatch(r"interrupted after (\d+) of (\d+) files; .*", last_word(run.text))
    assert said, run.text
    first, last, count = kept_files(run.text)
    written = sorted((tmp_path / "pictures").iterdir())
    assert count == len(written) == int(said.group(1))
    assert (first, last) == (f"pictures/{written[0].name}", f"pictures/{written[-1].name}")
    from PIL import Image

    for picture in written:
        with Image.open(picture) as image:
            image.load()  # a truncated PNG fails here


@pytest.mark.slow
def test_puzzles_tell_the_games_searched_then_the_puzzles_kept(tmp_path):
    record = repeated(tmp_path, KASSEL, 3000)
    run = interrupted("puzzles", record.name, "--out-dir", "p", cwd=tmp_path, at=WORKING)
    bar_shape(run.text, 3000, "games")
    assert re.fullmatch(
        r"interrupted at game \d+ of 3000 \(\d+ searched, nothing written\)", last_word(run.text)
    ), run.text
    assert not (tmp_path / "p").exists() or not list((tmp_path / "p").iterdir())

    games = tmp_path / "games.trg"
    games.write_text(format_archive(random_archive("Trigeo", 40, 3, max_plies=80)), "utf-8")
    run = interrupted(
        # every puzzle of every game: enough pictures to be written for a while
        *("puzzles", games.name, "--depth", "1", "--per-game", "0", "--format", "png"),
        *("--out-dir", "q"),
        cwd=tmp_path,
        at=re.compile(r"\] ([2-9]|\d\d+)/\d+ puzzles"),
    )
    said = re.fullmatch(r"interrupted after (\d+) of (\d+) puzzles; .*", last_word(run.text))
    assert said, run.text
    _, _, count = kept_files(run.text)
    written = sorted((tmp_path / "q").iterdir())
    assert count == len(written) == 2 * int(said.group(1))  # a record and its picture


@pytest.mark.slow
def test_fmt_in_place_keeps_the_files_rewritten(tmp_path):
    folder = tmp_path / "club"
    folder.mkdir()
    messy = "\n".join([KASSEL.read_text("utf-8").replace("X", "x")] * 20)  # fmt writes X
    for number in range(300):
        (folder / f"{number:03d}.hxl").write_text(messy, "utf-8")
    run = interrupted("fmt", "--in-place", "club", cwd=tmp_path, at=WORKING)
    bar_shape(run.text, 300, "files")
    said = re.fullmatch(r"interrupted after (\d+) of 300 files; .*", last_word(run.text))
    assert said, run.text
    _, _, count = kept_files(run.text)
    rewritten = [p for p in folder.iterdir() if p.read_text("utf-8") != messy]
    assert count == len(rewritten) == int(said.group(1))


# -- no bar off a terminal, nor with -q --------------------------------------


def written_beyond(folder: Path, count: int, process: subprocess.Popen) -> None:
    """Wait until ``folder`` holds more than ``count`` files (or the run ended)."""
    while process.poll() is None and (
        not folder.is_dir() or sum(1 for _ in folder.iterdir()) <= count
    ):
        time.sleep(0.02)


@pytest.mark.slow
def test_no_bar_in_a_pipe_nor_with_quiet(tmp_path):
    """Each run is stopped once it has written more files than the run at
    the terminal had when its bar showed: by then a bar would be there."""
    record = repeated(tmp_path, KASSEL, 6000)
    shown = Terminal("split", record.name, "--out-dir", "a", cwd=tmp_path)
    before_the_bar = int(shown.wait_for(BAR).group(1))
    assert shown.finish(signal.SIGINT).code == 130
    quiet = Terminal("split", record.name, "--out-dir", "b", "-q", cwd=tmp_path)
    written_beyond(tmp_path / "b", 2 * before_the_bar + 10, quiet.process)
    run = quiet.finish(signal.SIGINT)
    assert run.code == 130 and "[" not in run.text, run.text
    # not counted first when no bar shows the total
    assert re.fullmatch(r"interrupted after \d+ games; kept: .*", last_word(run.text))
    piped = subprocess.Popen(
        [sys.executable, "-m", "hexhop.cli", "split", record.name, "--out-dir", "c"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    written_beyond(tmp_path / "c", 2 * before_the_bar + 10, piped)
    piped.send_signal(signal.SIGINT)
    _, err = piped.communicate(timeout=60)
    assert piped.returncode == 130
    assert re.fullmatch(r"interrupted after \d+ games; kept: .*\n", err), err


@pytest.mark.slow
def test_sigterm_tells_the_same_and_exits_143(tmp_path):
    record = repeated(tmp_path, KASSEL, 6000)
    run = interrupted(
        "split", record.name, "--out-dir", "games", cwd=tmp_path, at=WORKING, signum=signal.SIGTERM
    )
    assert re.fullmatch(r"interrupted after \d+ of 6000 games; kept: .*", last_word(run.text))


def test_a_zip_is_counted_as_it_is_read(tmp_path):
    """The total of a bar over an archive's members is their games."""
    from hexhop.records.counting import count_games

    with zipfile.ZipFile(tmp_path / "club.zip", "w") as archive:
        archive.writestr("a.hxl", "\n".join([KASSEL.read_text("utf-8")] * 3))
        archive.writestr("b.hxl", KASSEL.read_text("utf-8"))
        archive.writestr("notes.txt", "no record")
    assert count_games([str(tmp_path / "club.zip")]) == 4
