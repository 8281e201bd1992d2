"""check and index hold one file's bytes at a time: the file before is let
go before the next one is read (a folder of large files costs what its
largest file costs, not two of them)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexhop import runs
from hexhop.archive import index as index_module
from hexhop.cli.main import cli
from hexhop.records import sources as sources_module
from hexhop.records.sources import Source

GOOD = Path(__file__).resolve().parent.parent / "samples" / "good"


class _Watched(Source):
    """A source that can be watched for being let go."""


def _reading(held: list[int]) -> object:
    """An iter_sources that notes, as it reads each file, how many of the
    files read before are still held somewhere."""
    real = sources_module.iter_sources

    def iter_sources(*args: object, **kwargs: object) -> Iterator[Source]:
        refs: list[weakref.ref[Source]] = []
        for source in real(*args, **kwargs):  # type: ignore[arg-type]
            gc.collect()
            held.append(sum(ref() is not None for ref in refs))
            watched = _Watched(source.path, source.data, source.error, source.too_large)
            del source
            refs.append(weakref.ref(watched))
            yield watched
            del watched

    return iter_sources


def test_check_lets_a_file_go_before_it_reads_the_next(monkeypatch: pytest.MonkeyPatch) -> None:
    held: list[int] = []
    monkeypatch.setattr(runs, "iter_sources", _reading(held))  # as hexhop.check_paths reads
    result = CliRunner().invoke(cli, ["check", "-q", "-j", "1", str(GOOD)])
    assert result.exit_code == 0, result.output
    assert held == [0] * 6


@pytest.mark.slow  # the quick tier checks it for check, whose reading index shares
def test_index_lets_a_file_go_before_it_reads_the_next(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    held: list[int] = []
    monkeypatch.setattr(sources_module, "iter_sources", _reading(held))
    db = tmp_path / "x.sqlite"
    connection = index_module.open_index(str(db), create=True)
    from hexhop.records.checking import CheckOptions

    indexer = index_module.Indexer(connection, str(db), CheckOptions())
    for _summary in indexer.run([str(GOOD)]):
        pass
    connection.close()
    assert indexer.summary.games == 6
    assert held == [0] * 6
