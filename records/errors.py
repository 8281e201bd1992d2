"""What the library raises when it must stop and tell the user why."""

from __future__ import annotations

from hexhop.notation.errors import Error


class RecordsError(Error):
    """A problem with what the user gave (a file that cannot be read or
    written, a document that is not what it should be): the message says
    which and why, ready to show. ``exit_code`` is the status a command line
    exits with when it stops on it."""

    exit_code = 1


class ReadError(RecordsError):
    """A file (or standard input) could not be read: exit status 2, as for
    every input that cannot be read."""

    exit_code = 2


class CodecError(RecordsError, ValueError):
    """A JSON document is not a hexhop record document."""


class TooLargeToShow(RecordsError):
    """A game of more actions than a viewer page or a JSON document holds
    (:data:`~.limits.MAX_SHOWN_ACTIONS`): exit status 2, as for input
    beyond a limit."""

    exit_code = 2
