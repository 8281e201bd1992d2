"""``hexhop convert``: a record as JSON (the full replay) and back.

The JSON document is described by ``records/record.schema.json``; the
codec is :mod:`hexhop.records.codec`.
"""

from __future__ import annotations

import click

from hexhop.messages import _
from hexhop.notation.model import ParsedGame, Record
from hexhop.records.codec import records_of, to_json
from hexhop.records.counting import games_in
from hexhop.records.sources import read_record

from . import progress
from .command_output import emit, force_out_option, out_option
from .help import Translated
from .interrupt import stoppable
from .options import encoding_option, game_option, quiet_option
from .progress import ProgressBar
from .safe_write import refuse_inputs

EXAMPLE = """
\b
Examples:
  hexhop convert samples/good/hexalit-kassel-1998.hxl --to json > game.json
  hexhop convert game.json --to record > game.hxl
"""


@click.command(cls=Translated, epilog=EXAMPLE)
@click.argument("source")
@click.option(
    "--to",
    "target",
    type=click.Choice(["json", "record"]),
    required=True,
    help="json: the full replay; record: a record archive from such JSON.",
)
@game_option
@out_option
@force_out_option
@quiet_option("No progress bar; say nothing on standard error but problems.")
@encoding_option()
def convert(
    source: str, target: str, game: str | None, out: str | None, force: bool, quiet: bool
) -> None:
    """Convert SOURCE (a record file, - for standard input, or a member of
    a .zip or .tar(.gz) archive: club.zip:games/a.hxl) to JSON with
    every action, comment, glyph, variation, the position after each ply and
    the findings; or convert such JSON back to a record."""
    if out is not None:
        refuse_inputs([out], [source])
    bar = ProgressBar(None, "game", quiet=quiet)

    def so_far() -> str:
        if not bar.count:
            return _("before anything was written")
        return progress.so_far(bar.count, bar.total, "game", progress.Kept())

    with stoppable(so_far):
        source, data = read_record(source)
        _check_kind(source, data, target)
        if target == "json":
            bar.total = games_in(data)
            text = to_json(data, source, game, bar.update)
            bar.done()
            emit(text, out, force, inputs=[source])
        else:
            _emit_records(records_of(data, source), out, force, source)


def _emit_records(records: list[Record], out: str | None, force: bool, source: str) -> None:
    """The records as a record archive; a file is read back as these games
    before it is kept."""
    from hexhop.archive.verify import Written, verify
    from hexhop.notation import format_archive

    written = Written()
    for number, record in enumerate(records, 1):
        written.add(ParsedGame(number, record, ()))

    def check(temporary: str) -> None:
        verify(temporary, written, shown=out)

    emit(format_archive(records), out, force, check, inputs=[source])


def _check_kind(source: str, data: bytes, target: str) -> None:
    """A usage error when SOURCE is already what --to asks for: a JSON
    document for --to json, a record for --to record. JSON starts with
    ``{`` or ``[`` and a value; a record with a comment, a move or a tag
    (``[Game``)."""
    start = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:2]
    looks_json = start[:1] == b"{" or start[:1] == b"[" and not start[1:].isalpha()
    # ``{`` also opens a record's comment: only a document that parses is JSON
    if target == "json" and looks_json and _parses_as_json(data):
        raise click.UsageError(
            _(
                "{source} is a JSON document, not a record: --to record turns hexhop JSON "
                "back into a record"
            ).format(source=source)
        )
    if target == "record" and not looks_json and data.strip():
        raise click.UsageError(
            _(
                "{source} is not a JSON document: --to record reads the JSON that --to json "
                "writes (hexhop fmt rewrites a record in canonical form)"
            ).format(source=source)
        )


def _parses_as_json(data: bytes) -> bool:
    import json

    try:
        return isinstance(json.loads(data), (dict, list))
    except (ValueError, RecursionError):
        return False
