"""An indexed archive and a client of ``hexhop serve``'s app, for the tests of serve."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from archive_helpers import make_archive

from hexhop.archive.index import Indexer, open_index
from hexhop.records.checking import CheckOptions

pytest.importorskip("starlette", reason="the serve extra: pip install 'hexhop[serve]'")
from starlette.testclient import TestClient  # noqa: E402

from hexhop.serve.app import create_app  # noqa: E402
from hexhop.serve.settings import Settings  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BASE = "http://127.0.0.1:8000"


def index_into(db: Path, *paths: Path) -> None:
    """Index ``paths`` into ``db`` as ``hexhop index`` does."""
    connection = open_index(str(db), create=True)
    try:
        for _summary in Indexer(connection, str(db), CheckOptions(), 1).run(
            [str(p) for p in paths], ()
        ):
            pass
    finally:
        connection.close()


BROKEN = ROOT / "samples" / "broken" / "illegal-hexalit-pawn-capture.hxl"


def indexed_archive(root: Path) -> tuple[Path, Path]:
    """The archive of :func:`archive_helpers.make_archive` under ``root``
    (and ``broken/illegal.hxl``, a game with a refused action), and its index."""
    arch = make_archive(root)
    (arch / "broken").mkdir()
    (arch / "broken" / "illegal.hxl").write_bytes(BROKEN.read_bytes())
    db = root / "arch.sqlite"
    index_into(db, arch)
    return arch, db


def client(db: Path, folders: tuple[Path, ...] = (), **options) -> TestClient:
    """A client of the app serving ``db``, at the address of a real run."""
    settings = Settings(db=db, folders=folders, **options)
    return TestClient(create_app(settings), base_url=BASE, follow_redirects=False)


def game_id(db: Path, path_end: str, number: int = 1) -> int:
    """The index's id of game ``number`` of the file whose path ends with ``path_end``."""
    import sqlite3

    connection = sqlite3.connect(db)
    try:
        rows = connection.execute(
            "SELECT g.id, f.path FROM games g JOIN files f ON f.id = g.file WHERE g.number = ?",
            (number,),
        ).fetchall()
    finally:
        connection.close()
    found = [row[0] for row in rows if row[1].endswith(path_end)]
    assert len(found) == 1, (path_end, rows)
    return int(found[0])


def csrf_of(page: str) -> str:
    """The token of a page's ``<meta name="csrf-token">``."""
    found = re.search(r'<meta name="csrf-token" content="([^"]*)">', page)
    assert found, "the page has no csrf-token"
    return found.group(1)


# -- a hostile archive: tags, comments and names that try to run code or break the page

BIDI = "\u202e\u2066\u2069\u200f\u061c\u2028"
LONG = "Lorem-ipsum-" * 8_500  # 100 kB without a space: a line the layout must wrap
HOSTILE_TRIGEO = """[Game "Trigeo"]
[Event "<script>window.__pwned = 1</script>"]
[Site "Kassel\u202e<b>evil</b>"]
[Date "2001.01.01"]
[North "<img src=x onerror=\\"window.__pwned = 2\\">"]
[South "Karl & \\"Co\\" </script><b>bold</b>"]
[Result "*"]

{<script>window.__pwned = 3</script>} 1. C7°D7 {<img src=x onerror="window.__pwned = 4">}
E6°D7 (1... E6XD6 {</script><script>window.__pwned = 5</script>}) 2. B7°D7 *
"""
HOSTILE_HEXALIT = (
    '[Game "Hexalit"]\n'
    '[Event "\\"><svg onload=window.__pwned=6>"]\n'
    '[Site "</style><style>body{display:none}</style>"]\n'
    '[Date "2002.02.02"]\n'
    '[North "javascript:window.__pwned=7"]\n'
    f'[South "Eve {BIDI}evil"]\n'
    '[First "North"]\n'
    f'[Annotator "{LONG[:9_000]}"]\n'
    '[Result "*"]\n\n'
    f"{{{LONG} <script>window.__pwned = 9</script>}} 1. B4W3 E6°D5 *\n"
)
HOSTILE_SYNTAX = (
    '[Game "Hexalit"]\n[Event "</title><script>window.__pwned=10</script>"]\n'
    '[North "<a href=javascript:window.__pwned=11>x</a>"]\n[South "S"]\n[Result "*"]\n\n'
    "1. B4W3 <script>window.__pwned=8</script> *\n"
)
HOSTILE_NAMES = (
    '<img src=x onerror="window.__pwned = 2">',
    "javascript:window.__pwned=7",
    f"Eve {BIDI}evil",
    "<a href=javascript:window.__pwned=11>x</a>",
)
HOSTILE_EVENTS = (
    "<script>window.__pwned = 1</script>",
    '"><svg onload=window.__pwned=6>',
    "</title><script>window.__pwned=10</script>",
)


def hostile_archive(root: Path) -> tuple[Path, Path]:
    """Three hostile records beside the good samples, and their index."""
    arch = root / "hostile"
    arch.mkdir()
    (arch / "trigeo.trg").write_text(HOSTILE_TRIGEO, "utf-8")
    (arch / "hexalit.hxl").write_text(HOSTILE_HEXALIT, "utf-8")
    (arch / "syntax.hxl").write_text(HOSTILE_SYNTAX, "utf-8")
    for sample in sorted((ROOT / "samples" / "good").iterdir()):
        (arch / sample.name).write_bytes(sample.read_bytes())
    db = root / "hostile.sqlite"
    index_into(db, arch)
    return arch, db


def every_page(db: Path) -> list[str]:
    """The address of every page of an index: the archive (searched too),
    each game, players and events and each of them."""
    import sqlite3
    from urllib.parse import quote, urlencode

    connection = sqlite3.connect(db)
    try:
        ids = [row[0] for row in connection.execute("SELECT id FROM games ORDER BY id")]
        names = {n for row in connection.execute("SELECT first, second FROM games") for n in row}
        events = {row[0] for row in connection.execute("SELECT event FROM games") if row[0]}
    finally:
        connection.close()
    pages = ["/", "/?" + urlencode({"player": "<script>"}), "/players", "/events", "/?lang=de"]
    pages += [f"/games/{i}" for i in ids]
    pages += ["/players/" + quote(n, safe="") for n in sorted(names) if n != "?"]
    pages += ["/events/" + quote(e, safe="") for e in sorted(events)]
    pages += ["/?" + urlencode({"board": "<script>window.__pwned=12</script>"})]
    return pages
