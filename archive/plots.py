"""Charts of :func:`.stats.collect`'s counts, drawn with matplotlib (the
``hexhop[plot]`` extra): who won, by the side that moved first, and how
long the games were. Drawn on matplotlib's Agg canvas, without pyplot, so
no display is needed and nothing global changes.
"""

from __future__ import annotations

import io
from typing import Any

from hexhop.messages import _
from hexhop.records.errors import RecordsError
from hexhop.records.text import counted

FORMATS = ("svg", "png")
COLOURS = ("#2b6cb0", "#c05621", "#a0aec0")  # moved first, moved second, open


class PlotUnavailable(RecordsError):
    """matplotlib is not installed."""

    exit_code = 2


def require() -> None:
    """:class:`PlotUnavailable` unless matplotlib can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise PlotUnavailable(
            _("--plot needs matplotlib, which is not installed: pip install 'hexhop[plot]'")
        ) from None


def chart(counts: dict[str, Any], fmt: str) -> bytes:
    """The charts as an SVG or PNG file's bytes; the same counts give the same bytes."""
    require()
    from matplotlib.figure import Figure

    kinds = [_label(item) for item in counts["by_game"]]
    figure = Figure(figsize=(10, 4.5), layout="constrained")
    bars, lengths = figure.subplots(1, 2, width_ratios=(2, 3))
    _results(bars, counts["by_game"], kinds)
    _lengths(lengths, counts["lengths"])
    figure.suptitle(counted(counts["games"], "game"))
    out = io.BytesIO()
    if fmt == "svg":
        # a fixed id salt and no date: the same counts give the same file
        import matplotlib

        with matplotlib.rc_context({"svg.hashsalt": "hexhop"}):
            figure.savefig(out, format="svg", metadata={"Date": None})
    else:
        figure.savefig(out, format="png", dpi=120, metadata={"Software": None})
    return out.getvalue()


def _label(item: dict[str, Any]) -> str:
    game = item["game"] or _("unknown game")
    return f"{game} {item['board']}" if item["board"] else game


def _results(axes: Any, by_game: list[dict[str, Any]], kinds: list[str]) -> None:
    """Stacked bars per game: won by the side that moved first, by the other, open."""
    from matplotlib.ticker import MaxNLocator

    parts = [
        (_("won by the side moving first"), [g["first_mover_won"] for g in by_game]),
        (
            _("won by the other side"),
            [g["second_mover_won"] + g["won_mover_unknown"] for g in by_game],
        ),
        (_("open"), [g["open"] for g in by_game]),
    ]
    bottom = [0] * len(by_game)
    for (label, values), colour in zip(parts, COLOURS):
        axes.bar(kinds, values, bottom=bottom, label=label, color=colour)
        bottom = [b + v for b, v in zip(bottom, values)]
    # room above the bars for the legend
    axes.set_ylim(0, max(bottom, default=0) * 1.3 or 1)
    axes.set_title(_("Results"))
    axes.set_ylabel(_("games"))
    axes.tick_params(axis="x", labelrotation=30)
    for label in axes.get_xticklabels():
        label.set_horizontalalignment("right")
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.legend(fontsize="small")


def _lengths(axes: Any, lengths: list[dict[str, Any]]) -> None:
    """Each game's length histogram, their bars side by side in each range of plies
    (every game has bins of the same width)."""
    from matplotlib.ticker import MaxNLocator

    share = 0.9 / max(len(lengths), 1)
    for number, item in enumerate(lengths):
        bins = item["bins"]
        width = bins[0]["to"] - bins[0]["from"] + 1
        left = [b["from"] + width * (0.05 + number * share) for b in bins]
        games = [b["games"] for b in bins]
        axes.bar(left, games, width=width * share, align="edge", label=_label(item))
    axes.set_title(_("Length"))
    axes.set_xlabel(_("plies"))
    axes.set_ylabel(_("games"))
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    if lengths:
        axes.legend(fontsize="small")
