"""Coverage-guided fuzzing of hexhop's readers, for N minutes.

    python benchmarks/fuzz.py --target NAME --minutes N --corpus DIR

NAME is reader, position, archive, fmt, convert, index, roundtrip or editor.

Targets (each takes the fuzzer's bytes):

- ``reader``: ``read_archive`` on the bytes (as .hxl, .trg or .hpf, by the
  first byte), and every game replayed;
- ``position``: the bytes as the text of a Position tag, of ``find
  --position`` or of the web app's ``board`` parameter, for a game and board
  the first byte chooses (``hexhop.position``), and as ``--board``; a
  ``HeaderError`` or ``QueryError`` is the clean answer;
- ``archive``: the bytes written to a temporary .zip, .tar.gz or .tar (by
  their magic number) and read with ``iter_sources``, every member parsed;
- ``fmt``: parse, format, parse the result again: a record without errors
  formats to text without errors, and formatting is idempotent;
- ``convert``: the bytes as JSON to a record (``convert --to record``), and
  as a record to JSON and back;
- ``index``: an index made by ``hexhop index`` from the samples, changed by
  SQL the bytes choose (values of every type and size in every column,
  views, triggers, other tables, pragmas) and by bytes written over the
  file; then ``find``, ``stats``, ``dupes`` and ``index`` on it: each ends
  with exit 0, 1 or 2, never an exception;
- ``roundtrip``: the bytes as a record file (by the first byte); ``merge``
  and ``split`` of it must write exactly the games ``check`` reads, with the
  same main-line actions, or refuse (exit 2) and write nothing;
- ``editor``: the bytes as a request to ``hexhop serve``'s editor (every
  ``/api/editor/...`` call, with the bytes spread over its JSON fields or
  sent as the body itself) or as the query of a page (``/``, ``/editor``,
  ``/search``), through Starlette's TestClient with a valid CSRF token:
  never a 500, and nothing written outside the served folder.

An input is a *finding* when a target raises anything but its documented
clean errors (``NotationError``; ``CodecError`` for convert),
breaks an assertion, or runs longer than ``--seconds`` (default 2).  Each
finding is written to ``tests/corpus/fuzz/`` (``<target>-<hash>.<ext>``),
one per kind (exception type and place), and the fuzzer goes on; the
corpus test (``tests/test_fuzz_corpus.py``) replays that folder through
every command on every test run.

``DIR`` is the working corpus: it is seeded from ``samples/`` and
``tests/corpus/`` when empty and grows with the inputs that reach new
code; keep it between runs (it is not committed).  With atheris
(``pip install -e .[fuzz]``) the search is libFuzzer's, guided by
coverage of the instrumented hexhop modules; without it, a small loop
mutates the corpus and keeps inputs that run new lines (``sys.settrace``),
which is about ten times slower.  Each finding is printed (``FOUND``) as
it is found; at the end libFuzzer prints its statistics
(``stat::number_of_executed_units``, ``stat::average_exec_per_sec``), the
other loop its own summary.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import os
import random
import resource
import signal
import sys
import tarfile
import tempfile
import time
import traceback
import zipfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FINDINGS = ROOT / "tests" / "corpus" / "fuzz"
EXTENSIONS = {
    "reader": ".hxl",
    "position": ".txt",
    "editor": ".bin",
    "fmt": ".hxl",
    "convert": ".json",
    "archive": ".bin",
    "index": ".bin",
    "roundtrip": ".hxl",
}


class Slow(Exception):
    """An input ran longer than the per-input bound."""


# ---------------------------------------------------------------- targets

_GAMES = (("Hexalit", None), ("Trigeo", None), ("Hüpfer", "6x6"), ("Hüpfer", "8x8"))


def _game_name(data: bytes) -> str:
    return ("game.hxl", "game.trg", "game.hpf")[data[0] % 3 if data else 0]


def target_reader(data: bytes) -> None:
    from hexhop.engine.replay import replay_game
    from hexhop.notation import NotationError, read_archive

    try:
        for parsed in read_archive(data, path=_game_name(data)):
            replay_game(parsed)
    except NotationError:
        pass


def target_position(data: bytes) -> None:
    import hexhop
    from hexhop.archive.query import QueryError, board_size
    from hexhop.engine.base import HeaderError

    game, board = _GAMES[data[0] % len(_GAMES) if data else 0]
    text = data[1:].decode("utf-8", "replace")
    with contextlib.suppress(HeaderError):
        position = hexhop.position(game, text, board=board)
        again = hexhop.position(game, position.text(), board=board)
        assert again.text() == position.text(), "a position's text reads back as another"
    with contextlib.suppress(QueryError):
        board_size(text)


def archive_suffix(data: bytes) -> str:
    """The archive type the bytes claim by their magic number."""
    if data.startswith(b"PK"):
        return ".zip"
    if data.startswith(b"\x1f\x8b"):
        return ".tar.gz"
    return ".tar"


def target_archive(data: bytes) -> None:
    from hexhop.notation import NotationError, read_archive
    from hexhop.records.sources import iter_sources

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "fuzz" + archive_suffix(data))
        with open(path, "wb") as handle:
            handle.write(data)
        for source in iter_sources([path]):
            if source.data is not None:
                with contextlib.suppress(NotationError):
                    list(read_archive(source.data, path=source.path))


def target_fmt(data: bytes) -> None:
    from hexhop.notation import NotationError, format_archive, read_archive

    name = _game_name(data)
    try:
        games = list(read_archive(data, path=name))
    except NotationError:
        return
    if not games or any(f.severity == "error" for g in games for f in g.findings):
        return
    text = format_archive(games)
    again = list(read_archive(text.encode("utf-8"), path=name))
    errors = [f for g in again for f in g.findings if f.severity == "error"]
    assert not errors, f"the formatted text does not parse: {errors[0]}"
    assert format_archive(again) == text, "formatting is not idempotent"


def target_convert(data: bytes) -> None:
    from hexhop.notation import NotationError
    from hexhop.records.codec import to_json, to_record
    from hexhop.records.errors import CodecError

    with contextlib.suppress(CodecError):
        to_record(data, "fuzz.json")
    try:
        document = to_json(data, _game_name(data), None)
    except NotationError:
        return
    try:
        record = to_record(document.encode("utf-8"), "fuzz.json")
    except CodecError:
        return
    to_json(record.encode("utf-8"), _game_name(data), None)


def _cli(*args: object) -> int:
    """Run one hexhop command in this process; its exit status, or what it raised."""
    from click.testing import CliRunner

    from hexhop.cli.main import cli

    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "Traceback" not in result.output, result.output[-2000:]
    return result.exit_code


_TEMPLATE: list[bytes] = []


def _index_template() -> bytes:
    """An index of the samples, made once."""
    if not _TEMPLATE:
        with tempfile.TemporaryDirectory() as folder:
            db = os.path.join(folder, "t.sqlite")
            _cli("index", ROOT / "samples", "--db", db, "-q")
            _TEMPLATE.append(Path(db).read_bytes())
    return _TEMPLATE[0]


_VALUES = (
    "NULL",
    "0",
    "-1",
    "9223372036854775807",
    "1e308",
    "'abc'",
    "''",
    "char(0)||'zz'",
    "x'00ff'",
    "zeroblob(100000)",
    "'%'",
    "'..'",
    "'/etc/passwd'",
    "printf('%.*c', 5000, 'x')",
)
_CHANGES = (
    "UPDATE {table} SET {column} = {value}",
    "UPDATE {table} SET {column} = {value} WHERE rowid = 1",
    "DELETE FROM {table} WHERE rowid % 2 = 0",
    "DROP TABLE IF EXISTS {table}",
    "ALTER TABLE {table} RENAME TO old_{table}",
    "CREATE VIEW v_{table} AS SELECT * FROM {table}",
    "ALTER TABLE {table} RENAME TO t_{table}; CREATE VIEW {table} AS WITH RECURSIVE r(n) AS "
    "(SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT * FROM t_{table}, r",
    "CREATE TRIGGER tr_{table} AFTER INSERT ON {table} BEGIN "
    "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r; END",
    "CREATE TABLE extra_{table} (a)",
    "INSERT INTO {table} DEFAULT VALUES",
    "PRAGMA user_version = {value}",
    "PRAGMA application_id = 0",
)


def target_index(data: bytes) -> None:
    import sqlite3

    rng = random.Random(data)
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "fuzz.sqlite")
        with open(db, "wb") as handle:
            handle.write(_index_template())
        connection = sqlite3.connect(db)
        tables = [
            row[0]
            for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        ]
        for _ in range(1 + (data[0] % 4 if data else 0)):
            table = rng.choice(tables)
            columns = [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
            change = rng.choice(_CHANGES).format(
                table=table, column=rng.choice(columns or ["rowid"]), value=rng.choice(_VALUES)
            )
            with contextlib.suppress(sqlite3.Error):
                connection.executescript(change)
        connection.commit()
        connection.close()
        if len(data) > 8 and data[1] % 5 == 0:  # bytes written over the file itself
            raw = bytearray(Path(db).read_bytes())
            for i in range(2, min(len(data) - 4, 40), 4):
                at = int.from_bytes(data[i : i + 3], "big") % len(raw)
                raw[at] = data[i + 3]
            Path(db).write_bytes(bytes(raw))
        for args in (
            ("find", "--db", db, "--format", "jsonl"),
            ("find", "--db", db, "--player", "a*", "--export", os.path.join(folder, "f.hxl")),
            ("stats", "--db", db, "--format", "json"),
            ("dupes", "--db", db),
            ("index", ROOT / "samples" / "good", "--db", db, "-q"),
        ):
            assert _cli(*args) in (0, 1, 2), args


def target_roundtrip(data: bytes) -> None:
    from hexhop.engine.replay import replay_game
    from hexhop.notation import read_archive

    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, _game_name(data))
        with open(source, "wb") as handle:
            handle.write(data)
        if _cli("check", "-q", source) == 2 and not data.strip():
            return  # no game at all

        def main_lines(path: str) -> list[list[str]]:
            with open(path, "rb") as handle:
                games = list(read_archive(handle.read(), path=path))
            return [[str(n.item) for n in replay_game(g).nodes] for g in games]

        expected = main_lines(source)
        merged = os.path.join(folder, "merged" + Path(source).suffix)
        status = _cli("merge", source, "--out", merged)
        if os.path.exists(merged):  # exit 2 may leave out games it names (no header, say)
            written = main_lines(merged)
            assert status != 0 or written == expected, "merge wrote other games than check reads"
            assert _in_order(written, expected), "merge wrote games check does not read"
        out = os.path.join(folder, "split")
        if _cli("split", source, "--out", out) == 0:
            files = sorted(Path(out).rglob("*.*"))
            assert len(files) == len(expected), "split wrote another number of games"


_EDITOR_CALLS = ("state", "new", "play", "takeback", "variation", "comment", "tags", "save")
_PAGES = ("/", "/editor", "/search")
_SERVED: list[tuple[object, Path, dict[str, str]]] = []


def _served() -> tuple[object, Path, dict[str, str]]:
    """A client of the app serving an indexed copy of the samples, made once,
    and the folder all of it lives in."""
    if not _SERVED:
        import shutil

        from starlette.testclient import TestClient

        from hexhop.serve.app import create_app
        from hexhop.serve.settings import Settings

        root = Path(tempfile.mkdtemp(prefix="fuzz-editor-"))
        arch = root / "archive"
        shutil.copytree(ROOT / "samples" / "good", arch)
        db = root / "archive.sqlite"
        _cli("index", arch, "--db", db, "-q")
        settings = Settings(db=db, folders=(arch.resolve(),))
        app = TestClient(create_app(settings), base_url="http://127.0.0.1:8000")
        app.get("/editor")
        _SERVED.append((app, root, {"X-CSRF-Token": app.cookies["hexhop_csrf"]}))
    return _SERVED[0]


def _files(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file() and not p.name.startswith("archive.sqlite")}


def target_editor(data: bytes) -> None:
    app, root, token = _served()
    rng = random.Random(data)
    text = data[2:].decode("utf-8", "replace") if len(data) > 2 else ""
    parts = text.split("\x00") + [""] * 6
    before = _files(root)
    choice = data[0] % (len(_EDITOR_CALLS) + len(_PAGES)) if data else 0
    if choice >= len(_EDITOR_CALLS):
        page = _PAGES[choice - len(_EDITOR_CALLS)]
        key = ("board", "from", "player", "page", "game", "q")[data[1] % 6 if len(data) > 1 else 0]
        response = app.get(page, params={key: parts[0]})  # type: ignore[attr-defined]
    else:
        name = _EDITOR_CALLS[choice]
        if len(data) > 1 and data[1] % 4 == 0:
            body: dict[str, object] = {"content": data[2:]}
        else:
            payload = {
                "text": parts[0],
                "cursor": [b % 4 for b in data[2:6]][: rng.randrange(5)],
                "action": parts[1],
                "comment": parts[2],
                "tags": {parts[3][:40]: parts[4]},
                "name": parts[5],
                "game": rng.choice(("Hexalit", "Trigeo", "Hüpfer", parts[4], None)),
                "board": parts[3],
                "at": rng.choice(("end", "start", parts[2])),
            }
            body = {"json": {k: v for k, v in payload.items() if rng.random() < 0.8}}
        response = app.post(f"/api/editor/{name}", headers=token, **body)  # type: ignore[attr-defined]
    assert response.status_code < 500, f"{response.status_code}: {response.text[:500]}"
    served = root / "archive"
    for path in _files(root) - before:
        assert path.is_relative_to(served), f"written outside the served folder: {path}"
        path.unlink()  # keep the folder small across a long run


def _in_order(part: list[list[str]], whole: list[list[str]]) -> bool:
    """Whether ``part`` is ``whole`` with some games left out."""
    rest = iter(whole)
    return all(any(game == other for other in rest) for game in part)


TARGETS: dict[str, Callable[[bytes], None]] = {
    "reader": target_reader,
    "position": target_position,
    "archive": target_archive,
    "fmt": target_fmt,
    "convert": target_convert,
    "index": target_index,
    "roundtrip": target_roundtrip,
    "editor": target_editor,
}


# ---------------------------------------------------------------- seeds


def seeds(target: str) -> list[bytes]:
    """Inputs to start from: the samples and the corpus, shaped for ``target``."""
    records = [
        p.read_bytes()
        for p in sorted((ROOT / "samples").rglob("*"))
        if p.suffix in (".hxl", ".trg", ".hpf")
    ]
    records += [
        p.read_bytes()
        for p in sorted((ROOT / "tests" / "corpus").rglob("*"))
        if p.is_file() and p.suffix != ".json"
    ]
    if target == "archive":
        return [_zip(records[i : i + 3]) for i in range(0, 12, 3)] + [
            _tar(records[i : i + 3], "w:gz" if i % 2 else "w") for i in range(0, 12, 3)
        ]
    if target == "position":
        import re

        found = {m.group(1) for r in records for m in re.finditer(rb'\[Position "([^"]*)"\]', r)}
        return [bytes([i % len(_GAMES)]) + text for i, text in enumerate(sorted(found))] + [
            b"\x00N: A7=1 C7=2; S: F7=1 D6=2; turn: N; cube: 2",
            b"\x01N: C7=1 E6=3; S: B7=4; turn: S",
            b"\x02R: a1 a3 b2; T: d6 e5 f6; reserve: 1/0; turn: R",
        ]
    if target == "editor":
        return [bytes([i % 11, i]) + r[:4000] for i, r in enumerate(records[:24])]
    if target == "index":
        return [bytes([i, i * 7 % 256]) + os.urandom(32) for i in range(24)]
    if target == "convert":
        from hexhop.records.codec import to_json

        made = [
            to_json(r, "game.hxl" if b"Hexalit" in r else "game.hpf", None).encode()
            for r in records[:20]
        ]
        made += [p.read_bytes() for p in sorted((ROOT / "tests" / "corpus").rglob("*.json"))]
        return made + records[:10]
    return records


def _zip(records: list[bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for i, data in enumerate(records):
            archive.writestr(f"d/g{i}.hxl", data)
    return buffer.getvalue()


def _tar(records: list[bytes], mode: str) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode) as archive:  # type: ignore[call-overload]
        for i, data in enumerate(records):
            info = tarfile.TarInfo(f"d/g{i}.hpf")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


# ---------------------------------------------------------------- one input


class Fuzzer:
    """Runs inputs through a target, bounded in time, and keeps the findings."""

    def __init__(self, target: str, seconds: float, out: Path) -> None:
        self.name = target
        self.target = TARGETS[target]
        self.seconds = seconds
        self.out = out
        self.executions = 0
        self.kinds: dict[str, Path] = {}

    def one(self, data: bytes) -> None:
        self.executions += 1
        previous = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)
        try:
            self.target(data)
        except (Slow, Exception, RecursionError) as error:
            signal.setitimer(signal.ITIMER_REAL, 0)
            self._found(data, error)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    def _found(self, data: bytes, error: BaseException) -> None:
        frames = traceback.extract_tb(error.__traceback__)
        ours = [
            f
            for f in frames
            if "hexhop" in f.filename
            or "/cli/" in f.filename
            or "/records/" in f.filename
            or "/notation/" in f.filename
            or "/engine/" in f.filename
        ]
        place = ours[-1] if ours else (frames[-1] if frames else None)
        where = f"{Path(place.filename).name}:{place.lineno}" if place else "?"
        kind = "slow" if isinstance(error, Slow) else f"{type(error).__name__} at {where}"
        if kind in self.kinds:
            return
        digest = hashlib.sha1(data).hexdigest()[:12]
        suffix = archive_suffix(data) if self.name == "archive" else EXTENSIONS[self.name]
        path = self.out / f"{self.name}-{digest}{suffix}"
        self.out.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        self.kinds[kind] = path
        print(f"\nFOUND {kind}: {error!r:.200} -> {_shown(path)}", flush=True)


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


def _alarm(signum: int, frame: object) -> None:
    raise Slow("took longer than the per-input bound")


# ---------------------------------------------------------------- engines


def instrument() -> None:
    """Import hexhop with atheris's coverage instrumentation (before anything
    else imports it)."""
    import atheris

    with atheris.instrument_imports(include=["hexhop"]):
        import hexhop.engine.replay  # noqa: F401
        import hexhop.notation  # noqa: F401
        import hexhop.records.codec  # noqa: F401
        import hexhop.records.editing  # noqa: F401
        import hexhop.records.sources  # noqa: F401


def run_atheris(fuzzer: Fuzzer, minutes: float, corpus: Path) -> None:
    import atheris

    args = [
        sys.argv[0],
        f"-max_total_time={max(1, round(minutes * 60))}",
        "-max_len=65536",
        "-rss_limit_mb=2048",
        "-print_final_stats=1",
        f"-artifact_prefix={tempfile.gettempdir()}{os.sep}",
        str(corpus),
    ]
    atheris.Setup(args, fuzzer.one)
    atheris.Fuzz()  # ends the process; the summary is printed by atexit


def run_traced(fuzzer: Fuzzer, minutes: float, corpus: Path) -> None:
    """Without atheris: mutate, and keep inputs that run lines never run before."""
    rng = random.Random()
    pool = [p.read_bytes() for p in sorted(corpus.iterdir()) if p.is_file()]
    seen: set[tuple[str, int]] = set()
    for data in pool:
        seen |= _lines(fuzzer, data)
    end = time.monotonic() + minutes * 60
    while time.monotonic() < end:
        data = _mutate(rng.choice(pool), rng, pool)
        new = _lines(fuzzer, data) - seen
        if new:
            seen |= new
            pool.append(data)
            (corpus / hashlib.sha1(data).hexdigest()).write_bytes(data)


_SOURCES = str(ROOT) + os.sep


def _lines(fuzzer: Fuzzer, data: bytes) -> set[tuple[str, int]]:
    lines: set[tuple[str, int]] = set()

    def tracer(frame, event, arg):  # type: ignore[no-untyped-def]
        name = frame.f_code.co_filename
        if not name.startswith(_SOURCES):
            return None
        if event == "line":
            lines.add((name, frame.f_lineno))
        return tracer

    sys.settrace(tracer)
    try:
        fuzzer.one(data)
    finally:
        sys.settrace(None)
    return lines


def _mutate(data: bytes, rng: random.Random, pool: list[bytes]) -> bytes:
    buf = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        how = rng.randrange(6)
        at = rng.randrange(len(buf) + 1)
        if how == 0 and buf:
            buf[min(at, len(buf) - 1)] = rng.randrange(256)
        elif how == 1:
            buf[at:at] = bytes([rng.randrange(256)]) * rng.choice((1, 2, 40, 1000))
        elif how == 2:
            del buf[at : at + rng.randint(1, 64)]
        elif how == 3:
            other = rng.choice(pool)
            start = rng.randrange(len(other) + 1)
            buf[at:at] = other[start : start + rng.randint(1, 256)]
        elif how == 4:
            buf[at:at] = rng.choice(
                (
                    b" ",
                    b"\n",
                    b"{",
                    b"}",
                    b";",
                    b"(",
                    b")",
                    b"[",
                    b"]",
                    b'"',
                    b"\\",
                    b"9" * 30,
                    b"\r",
                    b"\xff",
                    b"\x00",
                )
            )
        else:
            start = rng.randrange(len(buf) + 1)
            buf[at:at] = buf[start : start + rng.randint(1, 128)]
    return bytes(buf)


# ---------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", choices=sorted(TARGETS), required=True)
    parser.add_argument("--minutes", type=float, default=2.0)
    parser.add_argument("--corpus", type=Path, required=True, help="the working corpus folder")
    parser.add_argument("--seconds", type=float, default=2.0, help="bound for one input")
    parser.add_argument("--out", type=Path, default=FINDINGS, help="where findings go")
    parser.add_argument("--engine", choices=("atheris", "traced"), default=None)
    options = parser.parse_args()

    engine = options.engine
    if engine is None:
        try:
            import atheris  # noqa: F401

            engine = "atheris"
        except ImportError:
            engine = "traced"
    if engine == "atheris":
        instrument()
    limit = 3 << 30  # a blow-up becomes a MemoryError (a finding), not a dead machine
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    options.corpus.mkdir(parents=True, exist_ok=True)
    if not any(options.corpus.iterdir()):
        for data in seeds(options.target):
            (options.corpus / hashlib.sha1(data).hexdigest()).write_bytes(data)
    if options.target == "editor":
        _served()  # made once before the clock runs: its start is not an input's time
    fuzzer = Fuzzer(options.target, options.seconds, options.out)
    started = time.monotonic()

    def summary() -> None:
        elapsed = time.monotonic() - started
        print(
            f"\n{options.target}: {fuzzer.executions} executions in {elapsed:.0f} s "
            f"({fuzzer.executions / max(elapsed, 1e-9):.0f}/s); "
            f"{len(fuzzer.kinds)} finding(s)",
            flush=True,
        )
        for kind, path in fuzzer.kinds.items():
            print(f"  {kind}: {_shown(path)}")

    import atexit

    atexit.register(summary)
    (run_atheris if engine == "atheris" else run_traced)(fuzzer, options.minutes, options.corpus)


if __name__ == "__main__":
    main()
