"""``hexhop serve``: the application's frame (headers, language, errors, refusals)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from serve_helpers import BASE, client, csrf_of, indexed_archive

from hexhop.messages.catalogue import read_po
from hexhop.serve.security import CSP, MAX_BODY

ROOT = Path(__file__).resolve().parent.parent
GERMAN = read_po((ROOT / "messages/gettext-catalogues/de/LC_MESSAGES/hexhop.po").read_text("utf-8"))
TEMPLATE_IDS = re.compile(r"""_\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\s*\)""")
TEMPLATE_PLURALS = re.compile(r'ngettext\(\s*"((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)"')


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    return indexed_archive(tmp_path_factory.mktemp("serve"))


@pytest.fixture
def app(served):
    arch, db = served
    return client(db, (arch,))


def test_every_response_has_the_security_headers(app):
    for url in ("/", "/static/serve.css", "/no/such/page"):
        response = app.get(url)
        assert response.headers["content-security-policy"] == CSP
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"
        assert response.headers["x-frame-options"] == "DENY"


def test_the_page_sets_a_csrf_cookie_and_tells_it_in_a_meta(app):
    response = app.get("/")
    cookie = response.cookies["hexhop_csrf"]
    assert csrf_of(response.text) == cookie
    assert "SameSite=Strict" in response.headers["set-cookie"]
    again = app.get("/")  # the client keeps the cookie: no new one
    assert "hexhop_csrf" not in again.headers.get("set-cookie", "")
    assert csrf_of(again.text) == cookie


def test_a_write_without_the_token_is_refused(app):
    app.get("/")
    token = app.cookies["hexhop_csrf"]
    assert app.post("/").status_code == 403
    assert app.post("/", headers={"X-CSRF-Token": "x" * 43}).status_code == 403
    refused = app.post("/", headers={"X-CSRF-Token": token, "Origin": "http://evil.example"})
    assert refused.status_code == 403
    assert "another site" in refused.text
    # with the token and the server's own origin, the write reaches the app
    # (which has no POST for /)
    allowed = app.post("/", headers={"X-CSRF-Token": token, "Origin": BASE})
    assert allowed.status_code == 405
    form = app.post(
        "/",
        content=f"csrf_token={token}",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert form.status_code == 405


def test_read_only_refuses_every_write(served):
    arch, db = served
    app = client(db, (arch,), read_only=True)
    app.get("/")
    refused = app.post("/", headers={"X-CSRF-Token": app.cookies["hexhop_csrf"]})
    assert refused.status_code == 403
    assert "read-only" in refused.text


def test_a_body_over_the_cap_is_refused(app):
    app.get("/")
    token = app.cookies["hexhop_csrf"]
    response = app.post("/", content=b"x" * (MAX_BODY + 1), headers={"X-CSRF-Token": token})
    assert response.status_code == 413
    assert response.headers["content-security-policy"] == CSP


def test_a_foreign_host_name_is_refused(app):
    response = app.get("/", headers={"Host": "rebound.example:8000"})
    assert response.status_code == 400


def test_the_token_once_in_the_address_then_from_the_cookie(served):
    arch, db = served
    token = "t0ken-of-the-club-2026"
    app = client(db, (arch,), token=token)
    assert app.get("/").status_code == 401
    assert app.get("/?token=wrong").status_code == 401
    assert app.get(f"/?token={token}").status_code == 200
    assert app.get("/").status_code == 200  # the cookie now
    bare = client(db, (arch,), token=token)
    assert bare.get("/", headers={"Authorization": f"Bearer {token}"}).status_code == 200


def test_language_from_the_browser_the_switch_and_the_cookie(app):
    assert '<html lang="de">' in app.get("/", headers={"Accept-Language": "de-DE,de;q=0.9"}).text
    assert '<html lang="en">' in app.get("/", headers={"Accept-Language": "fr, en;q=0.5"}).text
    switched = app.get("/?lang=de")
    assert ">Archiv<" in switched.text and switched.cookies["hexhop_lang"] == "de"
    assert '<html lang="de">' in app.get("/").text  # kept
    assert '<html lang="en">' in app.get("/?lang=en").text


def test_unknown_page_is_a_translated_404(app):
    response = app.get("/no/such/page?lang=de")
    assert response.status_code == 404
    assert "Nicht gefunden" in response.text


def test_every_template_string_has_a_german_translation():
    missing = []
    for template in sorted((ROOT / "serve" / "templates").glob("*.html")):
        for found in TEMPLATE_IDS.finditer(template.read_text("utf-8")):
            msgid = found.group(1) if found.group(1) is not None else found.group(2)
            if msgid not in GERMAN:
                missing.append((template.name, msgid))
        for found in TEMPLATE_PLURALS.finditer(template.read_text("utf-8")):
            if f"{found.group(1)}\0{found.group(2)}" not in GERMAN:
                missing.append((template.name, found.group(1)))
    assert missing == []


def test_the_template_scan_finds_the_strings():
    text = (ROOT / "serve" / "templates" / "game.html").read_text("utf-8")
    assert "Open in the editor" in [m.group(1) for m in TEMPLATE_IDS.finditer(text)]
    events = (ROOT / "serve" / "templates" / "events.html").read_text("utf-8")
    assert [m.groups() for m in TEMPLATE_PLURALS.finditer(events)] == [("{n} event", "{n} events")]
