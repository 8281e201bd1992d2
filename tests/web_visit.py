"""Every page and editor call of ``hexhop serve`` on one input, for the safety suite.

The fork server of ``safety_runner.py`` runs :func:`visit` in a child in
place of a ``hexhop`` command when the arguments start with :data:`WEB`,
so that the suite's bounds on time, memory and output, and its rule
against tracebacks, hold for the web app as they do for the commands: the
input is indexed as ``hexhop index`` would, then each page of the index is
asked for (the archive, its search, its pages, each game, its record, its
editor, each player and event) and the editor is given each game's record.
A 500 ends the visit with exit 3, which the suite counts as a failure.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

WEB = "@web-pages"  # the first argument that asks for a visit instead of a command
EACH = 12  # games, players and events visited: the first this many of each kind
BASE = "http://127.0.0.1:8000"


def _names(db: Path) -> tuple[list[int], list[str], list[str]]:
    connection = sqlite3.connect(db)
    try:
        ids = [
            row[0]
            for row in connection.execute("SELECT id FROM games ORDER BY id LIMIT ?", (EACH,))
        ]
        names: set[str] = set()
        for first, second in connection.execute("SELECT first, second FROM games LIMIT 1000"):
            names.update(n for n in (first, second) if isinstance(n, str) and n != "?")
        events = {
            row[0]
            for row in connection.execute("SELECT event FROM games LIMIT 1000")
            if isinstance(row[0], str) and row[0]
        }
    finally:
        connection.close()
    return ids, sorted(names)[:EACH], sorted(events)[:EACH]


def _pages(db: Path) -> list[str]:
    ids, players, events = _names(db)
    pages = ["/", "/players", "/events", "/editor", "/?lang=de", "/?page=2"]
    pages += ["/?" + urlencode({"player": p}) for p in players[:2]]
    pages += ["/?" + urlencode({"board": "6x6"}), "/?" + urlencode({"sort": "plies"})]
    for game in ids:
        pages += [f"/games/{game}", f"/games/{game}/record", f"/editor?from={game}"]
    pages += ["/players/" + quote(p, safe="") for p in players]
    pages += ["/events/" + quote(e, safe="") for e in events]
    return pages


def visit(args: list[str]) -> None:
    """``@web-pages INPUT OUT``: index INPUT into OUT, serve it, ask for everything."""
    from starlette.testclient import TestClient

    import hexhop
    from hexhop.records.errors import RecordsError
    from hexhop.serve.app import create_app
    from hexhop.serve.security import MAX_BODY
    from hexhop.serve.settings import Settings

    source, out = args
    db = Path(out) / "web.sqlite"
    served = Path(out) / "served"
    served.mkdir(parents=True, exist_ok=True)
    try:
        hexhop.index_paths(source, db=db, jobs=1)
    except RecordsError as error:
        print(f"not indexed: {error}", file=sys.stderr)
        if not db.exists():
            raise SystemExit(2) from None
    settings = Settings(db=db, folders=(served.resolve(),))

    def small(response: Any) -> bool:
        return len(response.content) < MAX_BODY // 2

    with TestClient(create_app(settings), base_url=BASE, follow_redirects=False) as app:
        failures = 0
        saved = False  # one save, named from the tags, by the library's writer
        for page in _pages(db):
            response = app.get(page)
            print(f"GET {page[:80]!r} {response.status_code} {len(response.content)} bytes")
            failures += _judge("GET", page, response.status_code)
            # a body over MAX_BODY is refused before it is read (test_serve_safety):
            # building it here would only weigh on this visit's own memory
            if page.endswith("/record") and response.status_code == 200 and small(response):
                token = {"X-CSRF-Token": app.cookies.get("hexhop_csrf") or ""}
                payload = {"text": response.text, "cursor": [], "at": "end"}
                answer = app.post("/api/editor/state", json=payload, headers=token)
                print(f"POST state {page!r} {answer.status_code} {len(answer.content)} bytes")
                failures += _judge("POST /api/editor/state with", page, answer.status_code)
                if not saved and answer.status_code == 200 and answer.json().get("ok"):
                    payload = {"text": answer.json()["text"], "folder": 0, "name": ""}
                    answer = app.post("/api/editor/save", json=payload, headers=token)
                    print(f"POST save {page!r} {answer.status_code} {answer.text[:200]!r}")
                    failures += _judge("POST /api/editor/save with", page, answer.status_code)
                    saved = True
    if failures:
        raise SystemExit(3)


def _judge(method: str, page: str, status: int) -> int:
    if status < 500:
        return 0
    print(f"internal error: {method} {page[:200]!r} answered {status}", file=sys.stderr)
    return 1
