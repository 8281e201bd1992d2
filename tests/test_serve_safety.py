"""``hexhop serve`` is safe by default: record text that
strangers wrote never becomes markup or script, every write is protected,
requests are bounded, unknown names are 404, and the server refuses to
start where it would be unsafe."""

from __future__ import annotations

import socket
import sqlite3
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from serve_helpers import (
    BASE,
    HOSTILE_EVENTS,
    HOSTILE_NAMES,
    client,
    every_page,
    hostile_archive,
    index_into,
)

from hexhop.cli.main import cli
from hexhop.serve.security import CSP, MAX_BODY

SCRIPTS = {
    "/static/viewer.js",
    "/static/setup.js",
}  # the project's own scripts the archive's pages load
DATA_TYPES = {"application/json", "application/gzip"}
URL_ATTRIBUTES = ("href", "src", "action", "formaction")
DANGEROUS = {"iframe", "object", "embed", "base", "style", "frame", "frameset", "applet"}


class Markup(HTMLParser):
    """What a page's HTML makes: problems with scripts, handlers, styles, URLs."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self.scripts: list[dict[str, str | None]] = []
        self._tag: str | None = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "script":
            self.scripts.append(attributes)
            if attributes.get("src") not in SCRIPTS and attributes.get("type") not in DATA_TYPES:
                self.problems.append(f"script {attributes}")
            if attributes.get("src") and attributes.get("type"):
                self.problems.append(f"script with src and type {attributes}")
        if tag in DANGEROUS:
            self.problems.append(f"<{tag}>")
        if tag == "meta" and "http-equiv" in attributes:
            self.problems.append(f"meta {attributes}")
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}>")
            if name == "style":
                self.problems.append(f"<{tag} style>")
            unsafe = ("javascript:", "data:text", "vbscript:")
            if name in URL_ATTRIBUTES and value and value.strip().lower().startswith(unsafe):
                self.problems.append(f"<{tag} {name}={value!r}>")
            if name == "rel" and value and "import" in value:
                self.problems.append(f"<{tag} rel=import>")


def problems_of(html: str) -> list[str]:
    parser = Markup()
    parser.feed(html)
    parser.close()
    return parser.problems


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    return hostile_archive(tmp_path_factory.mktemp("serve-hostile"))


@pytest.fixture
def app(hostile):
    arch, db = hostile
    return client(db, (arch,))


def test_the_checker_of_markup_finds_what_it_should():
    bad = (
        '<script>x()</script><img src=x onerror="y()"><a href=" JavaScript:z()">a</a>'
        '<p style="color:red"></p><style>p{}</style><script src="/other.js"></script>'
    )
    assert problems_of(bad) == [
        "script {}",
        "<img onerror>",
        "<a href=' JavaScript:z()'>",
        "<p style>",
        "<style>",
        "script {'src': '/other.js'}",
    ]
    good = '<script type="application/json" id="d">{"a":"\\u003c/script\\u003e"}</script>'
    assert problems_of(good + '<script src="/static/viewer.js"></script>') == []


def test_no_page_of_a_hostile_archive_holds_executable_markup(app, hostile):
    _arch, db = hostile
    pages = every_page(db)
    assert len(pages) > 20
    for url in pages:
        response = app.get(url)
        assert response.status_code in (200, 400), url
        assert response.headers["content-security-policy"] == CSP, url
        text = response.text
        assert problems_of(text) == [], url
        for raw in ("\u202e", "\u2066", "\u2028", "\u061c"):  # bidi controls shown as escapes
            assert raw not in text, (url, raw)


def test_hostile_text_is_shown_as_text(app, hostile):
    listing = app.get("/").text
    assert "&lt;script&gt;window.__pwned = 1&lt;/script&gt;" in listing
    assert "Eve \\u202e\\u2066\\u2069\\u200f\\u061c\\u2028evil" in listing
    _arch, db = hostile
    connection = sqlite3.connect(db)
    (number,) = connection.execute(
        "SELECT id FROM games WHERE game = 'Trigeo' AND event LIKE '<script>%'"
    ).fetchone()
    connection.close()
    page = app.get(f"/games/{number}").text
    assert "{&lt;script&gt;window.__pwned = 3&lt;/script&gt;} 1. C7°D7" in page
    assert "Kassel\\u202e&lt;b&gt;evil&lt;/b&gt;" in page


def test_hostile_player_and_event_pages(app):
    from urllib.parse import quote

    for name in HOSTILE_NAMES:
        response = app.get("/players/" + quote(name, safe=""))
        assert response.status_code == 200, name
        assert problems_of(response.text) == []
    for name in HOSTILE_EVENTS:
        response = app.get("/events/" + quote(name, safe=""))
        assert response.status_code == 200, name
        assert problems_of(response.text) == []


WRITES = ("/", "/games/1", "/games/1/record", "/players", "/events", "/api/editor/save", "/editor")


@pytest.mark.parametrize("url", WRITES)
def test_every_write_needs_the_csrf_token_and_the_own_origin(app, url):
    app.get("/")
    token = app.cookies["hexhop_csrf"]
    for method in ("post", "put", "delete", "patch"):
        bare = getattr(app, method)(url)
        assert bare.status_code == 403, (method, url)
        assert bare.headers["content-security-policy"] == CSP
        wrong = getattr(app, method)(url, headers={"X-CSRF-Token": token[::-1]})
        assert wrong.status_code == 403, (method, url)
        foreign = getattr(app, method)(
            url, headers={"X-CSRF-Token": token, "Origin": "http://evil.example:8000"}
        )
        assert foreign.status_code == 403, (method, url)
        other_port = getattr(app, method)(
            url, headers={"X-CSRF-Token": token, "Origin": "http://127.0.0.1:9999"}
        )
        assert other_port.status_code == 403, (method, url)
        null = getattr(app, method)(url, headers={"X-CSRF-Token": token, "Origin": "null"})
        assert null.status_code == 403, (method, url)
        passed = getattr(app, method)(url, headers={"X-CSRF-Token": token, "Origin": BASE})
        assert passed.status_code not in (401, 403, 413), (method, url)


def test_a_cookie_from_another_token_does_not_pass(app):
    app.get("/")
    other = client(app.app.state.settings.db)
    other.get("/")
    response = app.post("/", headers={"X-CSRF-Token": other.cookies["hexhop_csrf"]})
    assert response.status_code == 403


def test_read_only_refuses_every_write_even_with_the_token(hostile):
    arch, db = hostile
    app = client(db, (arch,), read_only=True)
    app.get("/")
    for url in WRITES:
        response = app.post(
            url, headers={"X-CSRF-Token": app.cookies["hexhop_csrf"], "Origin": BASE}
        )
        assert response.status_code == 403, url
        assert "read-only" in response.text
    assert app.get("/").status_code == 200


def test_bodies_are_bounded(app):
    app.get("/")
    token = app.cookies["hexhop_csrf"]
    headers = {"X-CSRF-Token": token}
    assert (
        app.post("/api/editor/save", content=b"x" * (MAX_BODY + 1), headers=headers).status_code
        == 413
    )

    def chunks():  # no Content-Length: counted as it comes
        for _ in range(MAX_BODY // 65536 + 2):
            yield b"y" * 65536

    assert app.post("/api/editor/save", content=chunks(), headers=headers).status_code == 413
    lying = app.post("/", content=b"z" * 10, headers={**headers, "Content-Length": "99999999999"})
    assert lying.status_code == 413


def test_a_request_for_another_host_name_is_refused(app):
    assert app.get("/", headers={"Host": "attacker.example"}).status_code == 400
    assert app.get("/", headers={"Host": "localhost:8000"}).status_code == 200
    assert app.get("/", headers={"Host": "[::1]:8000"}).status_code == 200


@pytest.mark.parametrize(
    "url",
    [
        "/static/../pages.py",
        "/static/..%2f..%2fpages.py",
        "/static/%2e%2e/%2e%2e/etc/passwd",
        "/static//etc/passwd",
        "/static/..\\..\\pages.py",
        "/games/1%2F..%2F..%2Fetc",
        "/games/..%2F1",
        "/players/%00",
        "/boards/..%2F..%2Fpages.css",
        "/static/templates/base.html",
        "/static/%c0%ae%c0%ae/x",
        "/games/1/record/../../../etc/passwd",
        "/templates/base.html",
        "/serve/app.py",
    ],
)
def test_traversal_in_a_path_is_404(app, url):
    response = app.get(url)
    assert response.status_code == 404, url
    assert response.headers["content-security-policy"] == CSP


def test_an_unknown_game_or_name_is_404(app):
    for url in ("/games/424242", "/games/424242/record", "/players/Niemand", "/events/Nirgends"):
        assert app.get(url).status_code == 404, url


# -- the command refuses to start where it would be unsafe -------------------------


def run(*args: str):
    return CliRunner().invoke(cli, [str(a) for a in args])


def crafted(tmp_path: Path, *statements: str) -> Path:
    games = tmp_path / "games"
    games.mkdir(exist_ok=True)
    (games / "a.hxl").write_text('[Game "Hexalit"]\n[Result "*"]\n\n1. B4W3 D7W1 *\n', "utf-8")
    db = tmp_path / "x.sqlite"
    index_into(db, games)
    connection = sqlite3.connect(db, isolation_level=None)
    for statement in statements:
        connection.execute(statement)
    connection.close()
    return db


@pytest.mark.parametrize(
    "statements, message",
    [
        (("PRAGMA application_id = 1",), "is an SQLite database but not a hexhop index"),
        (("PRAGMA user_version = 99",), "was written by a newer hexhop (index schema 99"),
        (
            ("CREATE TABLE extra (x)",),
            "is damaged or was not made by hexhop (its schema is not the one hexhop makes: extra)",
        ),
    ],
)
def test_a_crafted_index_is_refused_before_serving(tmp_path, statements, message):
    db = crafted(tmp_path, *statements)
    before = db.read_bytes()
    done = run("serve", tmp_path / "games", "--db", db, "--port", "0", "-q")
    assert done.exit_code == 2
    assert message in done.output
    assert "Traceback" not in done.output
    assert db.read_bytes() == before


def test_a_file_that_is_no_database_is_refused(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    (games / "a.hxl").write_text('[Game "Hexalit"]\n[Result "*"]\n\n1. B4W3 D7W1 *\n', "utf-8")
    db = tmp_path / "x.sqlite"
    db.write_bytes(b"not a database at all" * 100)
    done = run("serve", games, "--db", db, "--port", "0", "-q")
    assert done.exit_code == 2 and "Traceback" not in done.output


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20", "::", "example.org"])
def test_another_host_needs_read_only_or_a_token(tmp_path, host):
    done = run("serve", tmp_path, "--host", host)
    assert done.exit_code == 2
    assert (
        f"--host {host} lets other machines reach the archive: add --read-only, or --token"
        in done.output
    )


def test_the_host_check_lets_loopback_and_guarded_hosts_through():
    from hexhop.cli.serve_start import check_host

    for host in ("127.0.0.1", "localhost", "::1", "127.0.0.2", "[::1]"):
        check_host(host, False, None)
    check_host("0.0.0.0", True, None)
    check_host("0.0.0.0", False, "a-long-enough-token")


@pytest.mark.parametrize("token", ["short", "has spaces in it, too", "x" * 15])
def test_a_weak_token_is_refused(tmp_path, token):
    done = run("serve", tmp_path, "--token", token)
    assert done.exit_code == 2
    assert "--token: give at least 16 letters, digits" in done.output


def test_a_busy_port_is_a_clear_error(tmp_path):
    arch = tmp_path / "games"
    arch.mkdir()
    (arch / "a.hxl").write_text('[Game "Hexalit"]\n[Result "*"]\n\n1. B4W3 D7W1 *\n', "utf-8")
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    try:
        done = run("serve", arch, "--db", tmp_path / "x.sqlite", "--port", port, "-q")
    finally:
        taken.close()
    assert done.exit_code == 2
    assert (
        f"Error: port {port} on 127.0.0.1 is taken (another server runs there): choose another with --port"
        in done.output
    )


def test_without_the_serve_extra_the_command_says_how_to_get_it(tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn: ImportError
    done = run("serve", tmp_path)
    assert done.exit_code == 2
    assert "hexhop serve needs the serve extra: pip install 'hexhop[serve]'" in done.output


def test_the_command_line_does_not_import_the_extra():
    import subprocess
    import sys

    code = (
        "import sys, hexhop.cli.main, hexhop.cli.serve_cmd, hexhop.cli.serve_start;"
        "print(sorted(m for m in ('starlette', 'uvicorn', 'jinja2') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_open_opens_the_address_once_the_server_answers(monkeypatch):
    import webbrowser

    from hexhop.cli.serve_cmd import _open_when_up

    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", opened.append)

    class Server:
        started = True

    _open_when_up(Server(), "http://127.0.0.1:8000/")
    assert opened == ["http://127.0.0.1:8000/"]


def test_an_archive_that_is_not_there_is_a_usage_error(tmp_path):
    done = run("serve", tmp_path / "nowhere", "--port", "0")
    assert done.exit_code == 2
    assert f"ARCHIVE {tmp_path / 'nowhere'}: there is no such file or folder" in done.output
    assert not (tmp_path / "hexhop.sqlite").exists()
