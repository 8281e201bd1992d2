"""Fuzzing: arbitrary bytes and text, and hostile text in tags and comments,
through every reader and command (see ``fuzz_support.exercise``)."""

from __future__ import annotations

from fuzz_support import NAMES, examples, exercise, hostile_texts
from hypothesis import given, settings
from hypothesis import strategies as st


@settings(max_examples=examples(1500))
@given(st.binary(max_size=2000), st.sampled_from(NAMES))
def test_arbitrary_bytes_are_read_or_reported(data, name):
    exercise(data, name, commands=False)


@settings(max_examples=examples(800))
@given(st.text(max_size=600), st.sampled_from(NAMES))
def test_arbitrary_text_is_read_or_reported(text, name):
    exercise(text.encode("utf-8", errors="surrogatepass"), name, commands=False)


@settings(max_examples=examples(800))
@given(hostile_texts())
def test_hostile_text_goes_through_every_command(case):
    data, name = case
    exercise(data, name)
