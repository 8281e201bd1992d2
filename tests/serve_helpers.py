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


def indexed_archive(root: Path) -> tuple[Path, Path]:
    """The archive of :func:`archive_helpers.make_archive` under ``root``, and its index."""
    arch = make_archive(root)
    db = root / "arch.sqlite"
    index_into(db, arch)
    return arch, db


def client(db: Path, folders: tuple[Path, ...] = (), **options) -> TestClient:
    """A client of the app serving ``db``, at the address of a real run."""
    settings = Settings(db=db, folders=folders, **options)
    return TestClient(create_app(settings), base_url=BASE, follow_redirects=False)


def csrf_of(page: str) -> str:
    """The token of a page's ``<meta name="csrf-token">``."""
    found = re.search(r'<meta name="csrf-token" content="([^"]*)">', page)
    assert found, "the page has no csrf-token"
    return found.group(1)
