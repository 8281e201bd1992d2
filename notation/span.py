"""Where something was written in a record: below the model and the findings,
which both point into the source."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Span:
    """Where something was written: 1-based line and column of its start."""

    line: int
    column: int
    end_line: int = 0
    end_column: int = 0


NO_SPAN = Span(0, 0)
