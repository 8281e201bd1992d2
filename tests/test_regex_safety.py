"""Every regular expression of hexhop runs in linear time and bounded memory.

``(?:\\s+|...)*`` backtracked exponentially on 40 blanks,
and TAG_VALUE cost ~220 bytes per character.  The patterns are found here
by themselves, so that a new one is tested without anyone naming it:

- every ``re.Pattern`` at module level of every hexhop module, and every
  regex literal passed to a ``re`` function in the source (found with
  ``ast``), each tested with the methods the code calls on it;
- every terminal of the lark grammars and the scanners' patterns, which
  are only ever matched at a position (``match``).

Each runs against adversarial strings of 10^5 characters made of the
pattern's own characters (runs, repeated fragments, blank runs, unclosed
brackets, each also followed by a character that does not fit) within a
bound of processor time (this process's own, which a busy machine does not
change), and its peak memory is measured with tracemalloc.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import pkgutil
import re
import signal
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hexhop.notation import parser as notation_parser

PACKAGES = ("hexhop.notation", "hexhop.engine", "hexhop.render", "hexhop.cli", "hexhop.records")
N = 100_000
SECONDS = 2.0  # of processor time per call; a linear pass over 10^5 characters takes milliseconds
# Patterns used on whole texts must not cost memory per character.  Grammar
# terminals are matched in windows no longer than the limits (about 10^5
# characters), so a small cost per character is bounded there.
BYTES_WHOLE_TEXT = 1_000_000
BYTES_PER_CHAR_TERMINAL = 100  # a repeated group costs ~50 per step, the old TAG_VALUE 131
SEARCHING = {"search", "finditer", "findall", "sub", "subn", "split"}
MATCHING = {"match", "fullmatch"}
BASE = " \t\n\r\x0b\x0c\u2028a1AxX9{}[]()\"';\\-.@°=^+!?$*:/_é"


# ---------------------------------------------------------------- finding them


def _modules() -> Iterator[object]:
    for name in PACKAGES:
        package = importlib.import_module(name)
        yield package
        for info in pkgutil.iter_modules(package.__path__):  # type: ignore[attr-defined]
            if info.name != "__main__":
                yield importlib.import_module(f"{name}.{info.name}")


def _methods_used(tree: ast.AST, name: str) -> set[str]:
    """The methods the source calls on the module attribute ``name``."""
    used = {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == name
    }
    return used & (SEARCHING | MATCHING) or {"match", "search"}


def _flags(call: ast.Call) -> int:
    flags = 0
    for arg in [*call.args[1:], *(k.value for k in call.keywords if k.arg == "flags")]:
        for node in ast.walk(arg):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "re"
                and isinstance(getattr(re, node.attr), int)
            ):
                flags |= getattr(re, node.attr)
    return flags


def collect() -> list[tuple[str, re.Pattern, set[str], int]]:
    """(name, pattern, methods to test, memory bound) of every regex: the bound
    is in bytes, or in bytes per character of the text when negative."""
    found: dict[str, tuple[str, re.Pattern, set[str], int]] = {}
    for module in _modules():
        path = Path(module.__file__)  # type: ignore[attr-defined]
        tree = ast.parse(path.read_text("utf-8"))
        for attr, value in vars(module).items():
            if isinstance(value, re.Pattern):
                key = f"{module.__name__}.{attr}"
                found[key] = (key, value, _methods_used(tree, attr), BYTES_WHOLE_TEXT)
        compiled = {
            value.pattern for value in vars(module).values() if isinstance(value, re.Pattern)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "re"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                key = f"{path.name}:{node.lineno}"
                method = node.func.attr
                if method == "compile" and node.args[0].value in compiled:
                    continue  # a module attribute: tested with the methods used on it
                methods = {"match", "search"} if method == "compile" else {method}
                pattern = re.compile(node.args[0].value, _flags(node))
                found[key] = (key, pattern, methods, BYTES_WHOLE_TEXT)
    terminal_bound = -BYTES_PER_CHAR_TERMINAL  # negative: bytes per character
    for grammar in ("header", *notation_parser.GRAMMAR_FILES):
        built = notation_parser._parser(grammar)
        for terminal in built.lark.terminals:
            key = f"{grammar}.lark:{terminal.name}"
            pattern = re.compile(terminal.pattern.to_regexp())
            found[key] = (key, pattern, {"match"}, terminal_bound)
        for attr, value in vars(built.scanner).items():
            if isinstance(value, re.Pattern):
                key = f"{grammar} scanner.{attr}"
                found[key] = (key, value, {"match"}, terminal_bound)
    return sorted(found.values(), key=lambda entry: entry[0])


PATTERNS = collect()


# ---------------------------------------------------------------- attacking them

_META = re.compile(r"\\[A-Za-z]|\\.|[\[\](){}*+?|^$.]|\{\d*,?\d*\}|\(\?P?<?[A-Za-z_=!:]*>?")


def _literals(source: str) -> str:
    """The characters a pattern's source writes literally, in order."""
    escapes = {"\\n": "\n", "\\t": "\t", "\\s": " ", "\\d": "7", "\\w": "w"}
    out = []
    pos = 0
    for m in _META.finditer(source):
        out.append(source[pos : m.start()])
        token = m.group()
        if token in escapes:
            out.append(escapes[token])
        elif len(token) == 2 and token[0] == "\\" and not token[1].isalnum():
            out.append(token[1])
        pos = m.end()
    out.append(source[pos:])
    return "".join(out)


def attacks(pattern: re.Pattern) -> Iterator[str]:
    """Strings of about N characters built from what ``pattern`` accepts."""
    source = pattern.pattern  # a pattern over bytes is read as Latin-1 text
    literal = _literals(source if isinstance(source, str) else source.decode("latin-1"))
    alphabet = sorted(set(literal + BASE))
    fragments = {literal[i : i + k] for k in (2, 3, 4) for i in range(len(literal) - k + 1)}
    fragments = set(sorted(fragments)[:: max(1, len(fragments) // 60)])
    runs = [c * N for c in alphabet] + [f * (N // len(f)) for f in sorted(fragments)]
    runs += [opener + filler * N for opener in "{[(\"';" for filler in ("a", " ", "\n", '\\"')]
    runs += [
        "a1" + "-c1" * (N // 3),
        "B6" + " " * N + "X",
        "double" + " " * N + "4",
        '[a "' + "x" * N,
        '"' + "\\\\" * (N // 2) + '"',
        "1" * N + ".",
        "$" + "1" * N,
    ]
    for run in runs:
        yield run
        yield run + "\x00"


@contextlib.contextmanager
def _alarm() -> Iterator[None]:
    """TimeoutError when a :func:`_bounded` call's timer runs out."""

    def stop(signum: int, frame: object) -> None:
        raise TimeoutError

    previous = signal.signal(signal.SIGPROF, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGPROF, previous)


def _bounded(call: Callable[[], object], trace: bool) -> tuple[float, int]:
    """Processor seconds and (when tracing) peak bytes of ``call``; within
    :func:`_alarm`, TimeoutError past SECONDS of processor time.  Processor
    time, not the clock's: what other processes on a busy machine take does
    not count."""
    signal.setitimer(signal.ITIMER_PROF, SECONDS)
    if trace:
        tracemalloc.start()
    started = time.process_time()
    try:
        call()
        return time.process_time() - started, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        signal.setitimer(signal.ITIMER_PROF, 0)


def _calls(
    pattern: re.Pattern, methods: set[str], given: str, whole: bool
) -> Iterator[Callable[[], object]]:
    """The calls the code makes with ``pattern``; ``whole``: every match of a
    search (for time), else only the first (memory is spent within one match).
    A pattern over bytes is given the text's UTF-8."""
    text: str | bytes = given
    if isinstance(pattern.pattern, bytes):
        text = given.encode("utf-8", errors="surrogatepass")
    if methods & MATCHING:
        yield lambda: pattern.match(text)
        yield lambda: pattern.fullmatch(text)
    if methods & SEARCHING:
        yield (
            (lambda: sum(1 for _ in pattern.finditer(text)))
            if whole
            else (lambda: pattern.search(text))
        )


def _run(
    name: str, pattern: re.Pattern, methods: set[str], trace: bool
) -> Iterator[tuple[str, float, int]]:
    with _alarm():
        for text in attacks(pattern):
            for call in _calls(pattern, methods, text, not trace):
                try:
                    seconds, peak = _bounded(call, trace)
                except TimeoutError:
                    pytest.fail(
                        f"{name} ({pattern.pattern!r}) took more than {SECONDS} s "
                        f"on {text[:30]!r}… ({len(text)} characters)"
                    )
                yield text, seconds, peak


def test_the_patterns_are_found():
    names = {name for name, *_ in PATTERNS}
    assert {
        "hexhop.notation.reader._GAP",
        "hexhop.notation.reader._SALVAGE_TAG",
        "header.lark:TAG_VALUE",
        "Hüpfer.lark:HOP",
        "Hexalit scanner.regex",
        "header scanner.value",
    } <= names
    assert any(name.startswith("render_cmd.py:") for name in names)  # an inline literal
    assert len(PATTERNS) > 40


def _distinct(
    entries: list[tuple[str, re.Pattern, set[str], int]],
) -> list[tuple[str, re.Pattern, set[str], int]]:
    """One entry for each distinct regex, tested once: the same terminal in
    each game's grammar (``Hexalit.lark:WS = Hüpfer.lark:WS = ...``) is one."""
    found: dict[tuple[str, int, frozenset[str], int], tuple[str, re.Pattern, set[str], int]] = {}
    for name, pattern, methods, bound in entries:
        key = (pattern.pattern, pattern.flags, frozenset(methods), bound)
        if key in found:
            found[key] = (f"{found[key][0]} = {name}", pattern, methods, bound)
        else:
            found[key] = (name, pattern, methods, bound)
    return list(found.values())


DISTINCT = _distinct(PATTERNS)
IDS = [entry[0].split(" = ")[0] for entry in DISTINCT]
# the patterns of the source modules take most of the time: full run only
TIERED = [
    pytest.param(*entry, marks=pytest.mark.slow)
    if all(name.startswith("hexhop.") or ".py:" in name for name in entry[0].split(" = "))
    else entry
    for entry in DISTINCT
]


@pytest.mark.parametrize("name, pattern, methods, bound", TIERED, ids=IDS)
def test_linear_time(name, pattern, methods, bound):
    for text, seconds, _ in _run(name, pattern, methods, trace=False):
        assert seconds < SECONDS / 4, f"{name} took {seconds:.2f} s on {text[:30]!r}…"


@pytest.mark.parametrize("name, pattern, methods, bound", TIERED, ids=IDS)
def test_bounded_memory(name, pattern, methods, bound):
    for text, _, peak in _run(name, pattern, methods, trace=True):
        limit = bound if bound > 0 else -bound * len(text)
        assert peak < limit, f"{name} took {peak} bytes on {text[:30]!r}…"


@pytest.mark.slow
def test_the_old_patterns_would_have_been_caught():
    """The two old patterns named at the top fail this test's bounds."""
    only_comments = re.compile(r"(?:\s+|\{[^}]*\}|;[^\n]*)*")
    with _alarm(), pytest.raises(TimeoutError):
        _bounded(lambda: only_comments.fullmatch(" " * 40 + "1"), False)
    tag_value = re.compile(r'"(?:[^"\\\n]|\\[^\n])*"')
    _, peak = _bounded(lambda: tag_value.match('"' + "x" * N), True)
    assert peak > BYTES_PER_CHAR_TERMINAL * N
