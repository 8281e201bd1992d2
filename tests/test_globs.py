"""Globs as fnmatch reads them, matched in linear time (records/globs.py)."""

from __future__ import annotations

import fnmatch
import subprocess
import sys

import pytest
from fuzz_support import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from hexhop.records.globs import matches
from hexhop.records.sources import wanted

PATTERN_CHARS = st.sampled_from(list("ab*?[]!-^\\"))
TEXT_CHARS = st.sampled_from(list("ab]-![^\\"))


@settings(max_examples=examples(3000), deadline=None)  # the quick tier: fewer
@given(st.text(PATTERN_CHARS, max_size=12), st.text(TEXT_CHARS, max_size=10))
def test_the_same_answers_as_fnmatch(pattern: str, text: str) -> None:
    assert matches(pattern, text) == fnmatch.fnmatchcase(text, pattern)


@pytest.mark.parametrize(
    "pattern, text, expected",
    [
        ("*.hxl", "a.hxl", True),
        ("*.hxl", "a.hxl.bak", False),
        ("*kassel*", "open kassel 1998", True),
        ("a*b*c", "aXbYbZc", True),
        ("a*b*c", "aXcYb", False),
        ("[!a]*", "b", True),
        ("[!a]*", "a", False),
        ("[]]", "]", True),
        ("[a-", "[a-", True),
        ("[z-a]", "m", False),
        ("?", "", False),
        ("", "", True),
        ("müller*", "müller, jürgen", True),
    ],
)
def test_examples(pattern: str, text: str, expected: bool) -> None:
    assert matches(pattern, text) is expected
    assert fnmatch.fnmatchcase(text, pattern) is expected


@pytest.mark.slow
@pytest.mark.parametrize(
    "pattern",
    ["[a-" * 20000, "*a" * 20000 + "b", "[" * 60000, "*?" * 30000 + "]"],
)
def test_long_patterns_take_little_time(pattern: str) -> None:
    """Patterns that make fnmatch take time quadratic in their length (in C,
    where no signal stops it): a child process must answer in seconds."""
    code = (
        "import sys\nfrom hexhop.records.sources import wanted\n"
        "p = sys.stdin.read()\n"
        "print(wanted('dir/' + 'a' * 3000 + '.hxl', (p,)), wanted('x', (p,)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], input=pattern, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False"]


def test_wanted_uses_the_globs() -> None:
    assert wanted("sub/a.hxl", ("*.hxl",))
    assert wanted("sub/a.hxl", ("sub/*",))
    assert not wanted("sub/a.hxl", ("*.trg",))
