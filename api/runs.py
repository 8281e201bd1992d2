"""``hexhop check`` as a library call: :func:`check_paths` checks record
files, folders and archives and yields each file's result, keeping the
summary and the exit code the command prints.

A thin layer over :mod:`hexhop.records.jobs` (the worker processes and the
time limit) and :mod:`hexhop.records.checking` (the check of one file);
the command line only formats what it yields.
"""

from __future__ import annotations

import os
from collections.abc import Generator, Iterable, Iterator
from contextlib import closing
from typing import TYPE_CHECKING

from hexhop.records.checking import CheckOptions, FileResult, merge
from hexhop.records.sources import Limits, Source, iter_sources

if TYPE_CHECKING:
    from hexhop.records.report import Summary

Paths = str | os.PathLike[str] | Iterable[str | os.PathLike[str]]


class CheckRun:
    """The check of some paths, run as it is iterated.

    Iterating gives the :class:`~hexhop.FileResult` of each record file in
    the order ``hexhop check`` reports them (a file's games as the JSON game
    objects of ``docs/check-report.schema.json``, or its ``error``);
    :meth:`by_file` gives them in pieces instead, as the command reads them
    (a large file's games a part at a time). Either way ``summary`` counts
    what was checked so far, and once the run is through, ``exit_code`` is
    the command's: 0 when every game is valid, 1 when some game is invalid,
    2 when some file could not be read or no game was found. ``empty`` lists
    the paths (folders, archives) that held no record file.

    >>> run = hexhop.check_paths("samples/good")
    >>> [(os.path.basename(r.path), len(r.games)) for r in run][:2]
    [('hexalit-kassel-1998.hxl', 1), ('hexalit-newsletter-study.hxl', 1)]
    >>> run.summary.files, run.summary.games, run.summary.invalid, run.exit_code
    (6, 6, 0, 0)
    """

    def __init__(
        self,
        paths: list[str],
        options: CheckOptions,
        *,
        globs: tuple[str, ...],
        jobs: int | None,
        seconds: float,
        dask: str | None,
    ):
        from hexhop.records.report import Summary

        self.paths = paths
        self.options = options
        self.globs = globs
        self.jobs = jobs
        self.seconds = seconds
        self.dask = dask
        self.summary: Summary = Summary()
        self.empty: list[str] = []
        self._started = False
        self._finished = False

    @property
    def exit_code(self) -> int | None:
        """The exit status of ``hexhop check`` for what was checked; None
        until the run is through."""
        if not self._finished:
            return None
        summary = self.summary
        if summary.unreadable or summary.games == 0:
            return 2
        return 1 if summary.invalid else 0

    def __iter__(self) -> Iterator[FileResult]:
        for pieces in self.by_file():
            parts = list(pieces)
            yield merge(parts) if len(parts) > 1 else parts[0]

    def by_file(self) -> Generator[Iterator[FileResult], None, None]:
        """Each file's result as an iterator of pieces (read each to its end
        before asking for the next file); a piece with ``replaces`` set
        stands for the whole file (it ran out of time). Reading the run again
        checks the paths again, with a new summary."""
        from hexhop.records.report import Summary

        self.summary, self.empty = Summary(), []
        self._started, self._finished = True, False
        results = self._results()
        with closing(results):
            for pieces in results:
                yield self._counted(pieces)
        self._finished = True

    def _results(self) -> Generator[Iterable[FileResult], None, None]:
        from hexhop.records.jobs import check_results, cores, default_jobs, whole_files

        limits = self.options.limits
        jobs = self.jobs
        if jobs is None:
            jobs = 1 if self.dask else default_jobs(self.paths, self.globs, limits)
        jobs = jobs or cores()
        sources = self._sources()
        if self.dask:
            from hexhop.archive.scale_out import check_with_dask

            yield from whole_files(
                check_with_dask(sources, self.options, self.dask, jobs, self.seconds)
            )
            return
        yield from check_results(sources, self.options, jobs, self.seconds)

    def _sources(self) -> Iterator[Source]:
        """The sources of every path, noting in ``empty`` the paths that hold none."""
        limits = self.options.limits
        for path in self.paths:
            found = False
            for source in iter_sources([path], globs=self.globs, limits=limits, blocks=True):
                found = True
                yield source
                del source  # not held while the next file is read
            if not found:
                self.empty.append(path)

    def _counted(self, pieces: Iterable[FileResult]) -> Iterator[FileResult]:
        """The pieces of one file, counted into the summary as they pass."""
        summary = self.summary
        error = None
        games = 0
        for piece in pieces:
            if piece.replaces:  # stands for the whole file: what came before is not counted
                games = 0
            error = error or piece.error
            if not piece.replaces:
                summary.add_games(
                    piece.path, piece.games, several=games > 0 or len(piece.games) > 1
                )
            games += len(piece.games)
            yield piece
        summary.add_file(error)

    def __repr__(self) -> str:
        state = "done" if self._finished else "running" if self._started else "not started"
        return f"<CheckRun {len(self.paths)} path(s), {self.summary.files} file(s) {state}>"


def check_paths(
    paths: Paths,
    *,
    game: str | None = None,
    strict: bool = False,
    globs: Iterable[str] = (),
    limits: Limits = Limits(),
    jobs: int | None = 1,
    seconds: float = 60.0,
    dask: str | None = None,
) -> CheckRun:
    """Check every game of ``paths`` as ``hexhop check`` does: record files
    (also compressed), folders, zip and tar archives, members
    (``club.zip:games/a.hxl``), ``-`` for standard input.

    ``game`` is the game of records without a Game tag (``--game``),
    ``strict`` makes warnings count against a game, ``globs`` choose the
    files of folders and archives (default: the record extensions),
    ``limits`` bound hostile input (``--max-...``). ``jobs`` is the number of
    worker processes (0: one per core; None: as ``check`` decides by the
    input's size), ``seconds`` the time one file (or one part of a large
    file) may take, ``dask`` a Dask scheduler's address. Nothing runs until
    the returned :class:`CheckRun` is iterated.

    >>> run = hexhop.check_paths(["samples/good", "samples/broken/illegal-trigeo-roll.trg"])
    >>> for result in run:
    ...     for game in result.games:
    ...         if not game["valid"]:
    ...             print(os.path.basename(result.path), [f["code"] for f in game["findings"]])
    illegal-trigeo-roll.trg ['IL01']
    >>> run.summary.files, run.summary.games, run.summary.invalid, run.exit_code
    (7, 7, 1, 1)
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    names = [os.fspath(path) for path in paths]
    options = CheckOptions(game=game, strict=strict, limits=limits)
    return CheckRun(names, options, globs=tuple(globs), jobs=jobs, seconds=seconds, dask=dask)
