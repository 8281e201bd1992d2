"""Every input that ever broke hexhop (``tests/corpus/``), replayed."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from fuzz_support import (
    corpus_files,
    corpus_name,
    exercise,
    exercise_archive,
    is_archive,
    time_bound,
)

from hexhop.cli.main import cli


@pytest.mark.parametrize(
    "path",
    corpus_files(),
    ids=lambda p: f"{p.parent.name}/{p.name}" if p.parent.name == "fuzz" else p.name,
)
def test_corpus_input(path, tmp_path):
    if is_archive(path):
        exercise_archive(path, tmp_path)
        return
    if path.suffix == ".json":
        with time_bound():
            result = CliRunner().invoke(cli, ["convert", str(path), "--to", "record"])
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert result.exit_code in (0, 1)
        if path.parent.name != "fuzz":  # the convert fuzzer reads its input as a record too
            return
    exercise(path.read_bytes(), corpus_name(path))
    with time_bound():  # and as a picture, for the inputs that broke the drawings
        drawn = CliRunner().invoke(
            cli,
            [
                "render",
                str(path),
                "--format",
                "png",
                "--index",
                "1",
                "--plies",
                "0",
                "--out-dir",
                str(tmp_path / "png"),
            ],
        )
    assert drawn.exception is None or isinstance(drawn.exception, SystemExit), drawn.output


def test_the_corpus_is_there():
    assert len(corpus_files()) >= 5
