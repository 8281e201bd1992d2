"""``hexhop serve``: the archive as a local web application (the serve extra)."""

from __future__ import annotations

import errno
import os
import socket
import sys
import threading
from pathlib import Path
from typing import Any

import click

from hexhop.archive.index import default_path
from hexhop.messages import _
from hexhop.records.text import counted

from .command_output import tell
from .help import Translated
from .interrupt import checkpoint, stoppable
from .options import Count, jobs_option, quiet_option, shared
from .progress import ProgressBar

EXAMPLE = """
\b
Examples:
  hexhop serve club/                         # http://127.0.0.1:8000/
  hexhop serve club/ club-2.zip --db club.sqlite --open
  hexhop serve club/ --host 0.0.0.0 --read-only --port 8080
"""
EXTRA = "pip install 'hexhop[serve]'"
# the modules of the extra and of what it needs
EXTRA_MODULES = ("starlette", "uvicorn", "jinja2", "markupsafe", "anyio", "h11", "sniffio")


@click.command(cls=Translated, epilog=EXAMPLE)
@click.argument("paths", nargs=-1, required=True, metavar="ARCHIVE...")
@shared(
    "--db",
    metavar="FILE",
    default=None,
    help="The index file (default: hexhop.sqlite in the first ARCHIVE folder, or beside it).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to listen on; another than this machine's needs --read-only or --token.",
)
@click.option(
    "--port",
    type=Count(0, 65535),
    default=8000,
    show_default=True,
    help="The port to listen on (0: a free one).",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the archive in the browser.")
@click.option(
    "--read-only",
    is_flag=True,
    help="Refuse every change: nothing is saved into the archive.",
)
@click.option(
    "--token",
    metavar="TOKEN",
    default=None,
    help="Every request must carry this access token (once as ?token=, then a cookie; or "
    "Authorization: Bearer). 'new': a random one, printed with the address.",
)
@jobs_option(
    "Index in this many processes, 0: one per core (as hexhop index).",
    default=None,
)
@quiet_option("No progress bar while indexing, no address printed.")
def serve(
    paths: tuple[str, ...],
    db: str | None,
    host: str,
    port: int,
    open_browser: bool,
    read_only: bool,
    token: str | None,
    jobs: int | None,
    quiet: bool,
) -> None:
    """Serve the ARCHIVE paths as a web application on this machine: search
    the archive, view games with their findings, players, events and their
    crosstables, and enter games by clicking in the editor.

    What is not indexed yet (or changed) is indexed first into --db, as
    `hexhop index` does. The server listens on 127.0.0.1 (this machine
    only) unless --host says otherwise; another address is refused
    without --read-only or --token. Ctrl-C stops it.

    Needs the serve extra: pip install 'hexhop[serve]'.

    Exit status: 0 when stopped, 2 on a usage error, an index that cannot
    be used, a port that is taken, or without the serve extra.
    """
    from .serve_start import check_host, check_token

    check_host(host, read_only, token)
    token = check_token(token)
    try:
        import uvicorn  # noqa: F401

        from hexhop.serve.app import create_app
        from hexhop.serve.settings import Settings
    except ModuleNotFoundError as error:
        if (error.name or "").partition(".")[0] not in EXTRA_MODULES:
            raise  # not the extra: a fault to see, not to explain away
        tell(_("hexhop serve needs the serve extra: {command}").format(command=EXTRA))
        sys.exit(2)
    from hexhop.archive.index import container

    for given in paths:  # before an index is made beside a folder that is not there
        if not os.path.exists(container(given)):
            raise click.UsageError(
                _("ARCHIVE {path}: there is no such file or folder").format(path=given)
            )
    path = db or default_path(paths[0])
    games = _index(paths, path, jobs, quiet)
    folders = tuple(dict.fromkeys(Path(os.path.realpath(p)) for p in paths if os.path.isdir(p)))
    from hexhop.archive.service import light

    light(path)  # the search table, made before the first request
    listening = _bind(host, port)
    port = listening.getsockname()[1]
    settings = Settings(
        db=Path(path),
        folders=folders,
        read_only=read_only,
        token=token,
        host=host,
        port=port,
    )
    url = _address(host, port, token)
    if not quiet:
        tell(
            _("Serving {games} at {url} (Ctrl-C stops)").format(
                games=counted(games, "game"), url=url
            )
        )
    _run(create_app(settings), listening, url if open_browser else None)
    if not quiet:
        tell(_("stopped"))


def _index(paths: tuple[str, ...], path: str, jobs: int | None, quiet: bool) -> int:
    """Index what is not indexed yet; the games the index holds."""
    from hexhop.archive.index import Indexer, open_index
    from hexhop.archive.players import NamesFileError, load_names
    from hexhop.records.checking import CheckOptions
    from hexhop.records.counting import count_files
    from hexhop.records.jobs import cores, default_jobs

    options = CheckOptions()
    if jobs is None:
        jobs = default_jobs(paths, (), options.limits)
    elif jobs == 0:
        jobs = cores()
    try:  # the club's names file beside the archive, as hexhop index reads it
        names = load_names(None, paths[:1])
    except NamesFileError as error:
        raise click.ClickException(str(error)) from None
    connection = open_index(path, create=True)
    try:
        indexer = Indexer(connection, path, options, jobs, names=names)
        progress = ProgressBar(None, "file", quiet=quiet)
        if progress.enabled:
            progress.total = count_files(paths)
        summary = indexer.summary

        def so_far() -> str:
            progress.done()
            return _("after indexing {files} (each written whole)").format(
                files=counted(summary.indexed + summary.unchanged, "file")
            )

        with stoppable(so_far):
            for summary in indexer.run(list(paths), ()):
                checkpoint()
                progress.update(summary.files)
        progress.done()
    finally:
        connection.close()
    for problem in summary.problems:
        tell(problem)
    if not quiet and summary.indexed:
        tell(
            _("Indexed {indexed} of {files} into {path}").format(
                indexed=summary.indexed, files=counted(summary.files, "file"), path=path
            )
        )
    from hexhop.archive.service import games_in_index

    return games_in_index(path)  # as find reads it: a crafted index is refused here


def _bind(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port``; a clear usage error when it cannot."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        raise click.UsageError(
            _("--host {host}: not an address of this machine ({reason})").format(
                host=host, reason=error
            )
        ) from None
    family, kind, proto, _name, address = infos[0]
    listening = socket.socket(family, kind, proto)
    try:
        if os.name != "nt":
            listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(address)
        listening.listen(128)
    except OSError as error:
        listening.close()
        if error.errno == errno.EADDRINUSE:
            message = _(
                "port {port} on {host} is taken (another server runs there): choose "
                "another with --port"
            )
        elif error.errno in (errno.EACCES, errno.EPERM):
            message = _("port {port} on {host} needs more rights: choose one above 1023")
        else:
            message = _("cannot listen on {host} port {port}: {reason}")
        click.echo(
            _("Error: {message}").format(
                message=message.format(port=port, host=host, reason=error.strerror)
            ),
            err=True,
        )
        sys.exit(2)
    return listening


def _address(host: str, port: int, token: str | None) -> str:
    shown = host if host not in ("0.0.0.0", "::", "") else socket.gethostname()
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


def _run(app: Any, listening: socket.socket, url: str | None) -> None:
    """Serve ``app`` on ``listening`` until Ctrl-C (or SIGTERM); with
    ``url``, open it in the browser once the server answers."""
    import uvicorn

    from hexhop.serve.connections import server_config

    server = uvicorn.Server(server_config(app))
    if url is not None:
        threading.Thread(target=_open_when_up, args=(server, url), daemon=True).start()
    try:
        server.run(sockets=[listening])
    finally:
        listening.close()


def _open_when_up(server: Any, url: str) -> None:
    import time
    import webbrowser

    for _step in range(200):
        if server.started:
            webbrowser.open(url)
            return
        time.sleep(0.05)
