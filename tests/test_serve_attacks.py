"""``hexhop serve`` against the attacks an outside review tried: a page
under a name of its own (DNS rebinding), a redirect to another site,
a NUL in a tag, file names other systems cannot hold, the mode of a saved
file, and large editor requests. Each case is the attack as it was made;
nothing of it may reach the served folders."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from serve_helpers import client, indexed_archive

from hexhop.serve.settings import answers_to, is_loopback


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    arch, db = indexed_archive(tmp_path_factory.mktemp("attacks"))
    return Path(os.path.realpath(arch)), db


@pytest.fixture
def app(served):
    arch, db = served
    return client(db, (arch,))


def files_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def post_json(app, endpoint: str, payload: object, token: str):
    """A POST to the editor's ``endpoint``, its JSON in ASCII (``\\ud800`` as an escape)."""
    return app.post(
        f"/api/editor/{endpoint}",
        content=json.dumps(payload),
        headers={"X-CSRF-Token": token, "Content-Type": "application/json"},
    )


def csrf(app) -> str:
    app.get("/editor")
    return str(app.cookies["hexhop_csrf"])


NEW_RECORD = '[Game "Hexalit"]\n[Result "*"]\n\n1. B4W3 *\n'


# -- the Host header: loopback addresses, localhost and --host; nothing else ---------------

REBOUND = (
    "127.attacker.example",
    "127.attacker.example:8000",
    "127.0.0.1.attacker.example",
    "127.0.0.1.nip.io:8000",
    "localhost.attacker.example",
    "localhost.",
    "testserver",
    "127.1",
    "0x7f.0.0.1",
    "2130706433",
    "0127.0.0.1",
    "[::ffff:127.0.0.1]",
    "[::1]evil.example",
    "[::1]:8000:1",
    "127.0.0.1:80:80",
    "attacker.example",
    "",
)
LOOPBACK = ("127.0.0.1:8000", "127.0.0.1", "127.0.0.2", "127.255.255.254:1", "localhost")
LOOPBACK += ("LOCALHOST:8000", "[::1]", "[::1]:8000", "[0:0:0:0:0:0:0:1]:8000")


@pytest.mark.parametrize("host", REBOUND)
def test_a_page_under_a_name_of_its_own_gets_nothing(app, host) -> None:
    response = app.get("/", headers={"Host": host})
    assert response.status_code == 400, host
    assert "This server does not answer to that host name." in response.text
    assert "hexhop_csrf" not in response.text


@pytest.mark.parametrize("host", ["127.attacker.example", "127.attacker.example:8000"])
def test_a_rebound_page_cannot_save(app, served, host) -> None:
    """The attack as made: a page of http://127.attacker.example:8000/ (its
    DNS pointed at 127.0.0.1) reads the CSRF cookie and posts a save."""
    arch, _db = served
    token = csrf(app)
    before = files_under(arch)
    origin = "http://" + (host if ":" in host else host + ":8000")
    for headers in ({"Host": host, "Origin": origin}, {"Host": host}):
        response = app.post(
            "/api/editor/save",
            json={"text": NEW_RECORD, "folder": 0, "name": "rebound"},
            headers={**headers, "X-CSRF-Token": token},
        )
        assert response.status_code == 400, response.text
        assert response.json()["error"] == "This server does not answer to that host name."
    assert files_under(arch) == before


@pytest.mark.parametrize("host", LOOPBACK)
def test_the_loopback_names_are_answered(app, host) -> None:
    assert app.get("/", headers={"Host": host}).status_code == 200, host


def test_a_foreign_origin_under_a_loopback_host_is_refused(app, served) -> None:
    arch, _db = served
    token = csrf(app)
    before = files_under(arch)
    for origin in ("http://127.attacker.example:8000", "http://testserver", "http://127.1:8000"):
        response = app.post(
            "/api/editor/save",
            json={"text": NEW_RECORD, "folder": 0, "name": "foreign"},
            headers={"X-CSRF-Token": token, "Origin": origin},
        )
        assert response.status_code == 403, origin
    assert files_under(arch) == before


def test_the_name_given_with_host_is_answered(served) -> None:
    arch, db = served
    named = client(db, (arch,), host="club.example", read_only=True)
    assert named.get("/", headers={"Host": "club.example:8000"}).status_code == 200
    assert named.get("/", headers={"Host": "127.0.0.1:8000"}).status_code == 200
    for host in ("127.attacker.example", "other.example", "192.168.1.20", "club.example.evil"):
        assert named.get("/", headers={"Host": host}).status_code == 400, host


def test_every_address_answers_addresses_and_the_machine_name(served) -> None:
    import socket

    arch, db = served
    everywhere = client(db, (arch,), host="0.0.0.0", read_only=True)
    for host in ("192.168.1.20:8000", "[fe80::1]:8000", socket.gethostname(), "localhost"):
        assert everywhere.get("/", headers={"Host": host}).status_code == 200, host
    for host in ("127.attacker.example", "attacker.example", "testserver"):
        assert everywhere.get("/", headers={"Host": host}).status_code == 400, host


def test_loopback_is_exactly_the_loopback_addresses_and_localhost() -> None:
    assert [h for h in ("127.0.0.1", "127.9.8.7", "::1", "[::1]", "localhost") if is_loopback(h)]
    for name in ("127.attacker.example", "127.1", "127.0.0.1.", "::ffff:127.0.0.1", "::1%1"):
        assert not is_loopback(name), name
    for name in ("128.0.0.1", "0.0.0.0", "::", "localhost.localdomain", "testserver", ""):
        assert not is_loopback(name), name
    assert answers_to("127.0.0.3", "127.0.0.1") and answers_to("[::1]", "localhost")
    assert not answers_to("10.0.0.1", "127.0.0.1") and not answers_to("", "0.0.0.0")


def test_serve_refuses_to_listen_on_a_name_that_only_looks_like_loopback(tmp_path) -> None:
    from click.testing import CliRunner

    from hexhop.cli.main import cli

    done = CliRunner().invoke(cli, ["serve", str(tmp_path), "--host", "127.attacker.example"])
    assert done.exit_code == 2
    assert "--host 127.attacker.example lets other machines reach the archive" in done.output


# -- the token's hand-off redirects to this server only -----------------------------------

TOKEN = "t0ken-of-the-club-2026"


@pytest.mark.parametrize(
    "path, location",
    [
        ("//evil.example/x", "/evil.example/x"),
        ("/%2F%2Fevil.example", "/%2F%2Fevil.example"),
        ("///evil.example", "/evil.example"),
        ("/\\evil.example", "/%5Cevil.example"),
        ("/%5C%5Cevil.example", "/%5C%5Cevil.example"),
        ("/%09/evil.example", "/%09/evil.example"),
        ("/players", "/players"),
        ("/players/M%C3%BCller", "/players/M%C3%BCller"),
    ],
)
def test_the_token_hand_off_stays_on_this_server(served, path, location) -> None:
    arch, db = served
    app = client(db, (arch,), token=TOKEN)
    moved = app.get(f"http://127.0.0.1:8000{path}?token={TOKEN}&q=a")
    assert moved.status_code == 303, path
    assert moved.headers["location"] == location + "?q=a"
    bare = client(db, (arch,), token=TOKEN).get(f"http://127.0.0.1:8000{path}?token={TOKEN}")
    assert bare.headers["location"] == location
    assert not bare.headers["location"].startswith(("//", "/\\"))


# -- a saved file has the mode the umask gives, as every other file hexhop writes ---------


def save(app, text: str, name: str, token: str | None = None):
    return app.post(
        "/api/editor/save",
        json={"text": text, "folder": 0, "name": name},
        headers={"X-CSRF-Token": token or csrf(app)},
    )


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600)])
def test_a_saved_file_has_the_mode_of_the_umask(app, served, umask, mode) -> None:
    arch, _db = served
    old = os.umask(umask)
    try:
        named = save(app, NEW_RECORD, f"umask-{umask:03o}")
        free = save(app, NEW_RECORD, "")
    finally:
        os.umask(old)
    assert named.status_code == free.status_code == 201, (named.text, free.text)
    for response in (named, free):
        saved = Path(response.json()["saved"])
        assert saved.parent == arch
        assert saved.stat().st_mode & 0o7777 == mode, (saved, oct(saved.stat().st_mode))
    assert not [p for p in arch.iterdir() if p.name.startswith(".hexhop-")]


def test_without_hard_links_the_file_has_the_mode_of_the_umask_too(app, served, monkeypatch):
    arch, _db = served

    def no_links(*args, **kwargs):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    old = os.umask(0o027)
    try:
        response = save(app, NEW_RECORD, "no-links")
    finally:
        os.umask(old)
    assert response.status_code == 201, response.text
    assert (arch / "no-links.hxl").stat().st_mode & 0o7777 == 0o640
    assert (arch / "no-links.hxl").read_text("utf-8") == NEW_RECORD


# -- file names every system can hold, that no shell reads as an option ---------------------

SLASH = "A file name cannot hold {}: it looks like a slash between folders."
WINDOWS = (
    "A file name cannot hold {}: Windows cannot store it, and archives are shared between systems."
)
DEVICE = (
    "{} is the name of a device on Windows (CON, PRN, AUX, NUL, COM0 to COM9, LPT0 to LPT9), "
    "whatever its extension: choose another name."
)
DASH = "A file name cannot begin with '-': a command line would read it as an option."
DOT = "A file name cannot end with a dot: Windows drops it."
FOLDERS = (
    "A file name without folders, '..', control characters or a leading dot, of at most 200 bytes."
)


@pytest.mark.parametrize(
    "name, message",
    [
        ("a\u2215b", SLASH.format("'\u2215' (U+2215 DIVISION SLASH)")),
        ("a\u2044b.hxl", SLASH.format("'\u2044' (U+2044 FRACTION SLASH)")),
        ("a\u29f8b", SLASH.format("'\u29f8' (U+29F8 BIG SOLIDUS)")),
        ("a\u2216b", SLASH.format("'\u2216' (U+2216 SET MINUS)")),
        (
            "a\u2571b",
            SLASH.format("'\u2571' (U+2571 BOX DRAWINGS LIGHT DIAGONAL UPPER RIGHT TO LOWER LEFT)"),
        ),
        ("a\ufe68b", FOLDERS),  # small reverse solidus: '\' in NFKC
        ("CON.hxl", DEVICE.format("CON")),
        ("con", DEVICE.format("con")),
        ("nul.hxl", DEVICE.format("nul")),
        ("Nul.trg", DEVICE.format("Nul")),
        ("aux.tar.hxl", DEVICE.format("aux")),
        ("PRN .hxl", DEVICE.format("PRN")),
        ("com1.hxl", DEVICE.format("com1")),
        ("LPT9.hxl", DEVICE.format("LPT9")),
        ("COM\u00b9.hxl", DEVICE.format("COM\u00b9")),
        ("lpt\u00b3.hxl", DEVICE.format("lpt\u00b3")),
        ("conout$.hxl", DEVICE.format("conout$")),
        ("*.hxl", WINDOWS.format("'*' (U+002A ASTERISK)")),
        ("a?b", WINDOWS.format("'?' (U+003F QUESTION MARK)")),
        ("a<b", WINDOWS.format("'<' (U+003C LESS-THAN SIGN)")),
        ("a>b", WINDOWS.format("'>' (U+003E GREATER-THAN SIGN)")),
        ('a"b', WINDOWS.format("'\"' (U+0022 QUOTATION MARK)")),
        ("a|b", WINDOWS.format("'|' (U+007C VERTICAL LINE)")),
        ("a\uff0ab", WINDOWS.format("'\uff0a' (U+FF0A FULLWIDTH ASTERISK)")),
        ("a:b", FOLDERS),
        ("a\x01b", FOLDERS),
        ("a\x7fb", FOLDERS),
        ("-rf.hxl", DASH),
        ("-rf", DASH),
        ("\uff0drf", DASH),  # a fullwidth hyphen-minus: '-' in NFKC
        ("game.", DOT),
        ("game. ", DOT),
    ],
)
def test_names_other_systems_cannot_hold_are_refused(app, served, name, message) -> None:
    arch, _db = served
    before = files_under(arch)
    response = save(app, NEW_RECORD, name)
    assert response.status_code == 400, (name, response.text)
    assert response.json()["error"] == message
    assert files_under(arch) == before


def test_the_name_rule_speaks_german(app) -> None:
    token = csrf(app)
    response = app.post(
        "/api/editor/save?lang=de",
        json={"text": NEW_RECORD, "folder": 0, "name": "CON.hxl"},
        headers={"X-CSRF-Token": token},
    )
    assert response.status_code == 400
    assert response.json()["error"].startswith("CON ist unter Windows der Name eines Geräts")


@pytest.mark.parametrize(
    "name, saved",
    [
        ("COM10", "COM10.hxl"),
        ("console.hxl", "console.hxl"),
        ("nullify", "nullify.hxl"),
        ("con-game", "con-game.hxl"),
        ("a-b.c", None),
        ("x-", "x-.hxl"),
        ("  spaced  ", "spaced.hxl"),
        ("Runde 3 (Finale)", "Runde 3 (Finale).hxl"),
    ],
)
def test_ordinary_names_pass(name, saved) -> None:
    from hexhop.serve.editor import Refused, checked_name

    if saved is None:  # an extension of another kind
        with pytest.raises(Refused):
            checked_name(name, "Hexalit")
        return
    assert checked_name(name, "Hexalit") == saved


# -- a record file holds no NUL: refused at the API, and the read-back reads the file -------

TAG_NUL = "The tag Event cannot hold U+0000: a record holds no control characters."


@pytest.mark.parametrize(
    "character, shown",
    [("\x00", "U+0000"), ("\x01", "U+0001"), ("\x1b", "U+001B"), ("\x7f", "U+007F")]
    + [("\x85", "U+0085"), ("\ud800", "U+D800")],
)
def test_a_control_character_in_a_tag_is_refused(app, served, character, shown) -> None:
    arch, _db = served
    before = files_under(arch)
    message = f"The tag Event cannot hold {shown}: a record holds no control characters."
    token = csrf(app)
    for endpoint, payload in (
        ("tags", {"text": NEW_RECORD, "cursor": [], "tags": {"Event": f"a{character}b"}}),
        ("new", {"game": "Hexalit", "tags": {"Event": f"a{character}b"}}),
    ):
        response = post_json(app, endpoint, payload, token)
        assert response.status_code == 400, (endpoint, response.text)
        assert response.json()["error"] == message
    assert files_under(arch) == before


def test_the_nul_of_the_attack_never_reaches_a_file(app, served) -> None:
    """The attack as made: tags with "\\u0000" set through the API, then saved."""
    arch, _db = served
    before = files_under(arch)
    token = csrf(app)
    headers = {"X-CSRF-Token": token}
    payload = {"text": NEW_RECORD, "cursor": [1], "tags": {"Event": "\u0000"}}
    tagged = app.post("/api/editor/tags", json=payload, headers=headers)
    assert tagged.status_code == 400 and tagged.json()["error"] == TAG_NUL
    nul_text = NEW_RECORD.replace("[Result", '[Event "a\u0000b"]\n[Result')
    for endpoint in ("state", "save"):
        response = app.post(
            f"/api/editor/{endpoint}",
            json={"text": nul_text, "cursor": [], "folder": 0, "name": "nul-tag"},
            headers=headers,
        )
        assert response.status_code == 400, response.text
        assert response.json()["error"] == (
            "The record text holds U+0000, which no record file can hold."
        )
    assert files_under(arch) == before


def test_tabs_and_line_breaks_in_a_tag_become_spaces(app) -> None:
    response = app.post(
        "/api/editor/tags",
        json={"text": NEW_RECORD, "cursor": [], "tags": {"Event": "Club\tcup\r\n2026"}},
        headers={"X-CSRF-Token": csrf(app)},
    )
    assert response.status_code == 200, response.text
    assert response.json()["tags"]["Event"] == "Club cup 2026"


def test_a_control_character_in_a_comment_is_refused(app) -> None:
    response = app.post(
        "/api/editor/comment",
        json={"text": NEW_RECORD, "cursor": [1], "comment": "zero\x00here"},
        headers={"X-CSRF-Token": csrf(app)},
    )
    assert response.status_code == 400
    assert response.json()["error"] == (
        "A comment cannot hold U+0000: a record holds no control characters."
    )


def test_the_read_back_reads_the_file_as_every_reader_does(app, served, monkeypatch) -> None:
    """Were a NUL to pass the API, the read-back would find it: it reads
    the written file as check reads it (binary data: IO02), not the text
    the editor held; nothing is left behind."""
    from hexhop.serve import editor

    arch, _db = served
    before = files_under(arch)
    monkeypatch.setattr(editor, "_UNWRITABLE", editor.re.compile("(?!)"))  # lets all through
    nul_text = NEW_RECORD.replace("[Result", '[Event "a\u0000b"]\n[Result')
    response = save(app, nul_text, "nul-read-back")
    assert response.status_code == 500, response.text
    assert response.json()["error"] == "The file could not be written."
    assert response.json()["detail"] == (
        f"{arch / 'nul-read-back.hxl'} is not a text file (it contains binary data)"
    )
    assert files_under(arch) == before


def test_a_file_that_reads_as_another_record_is_not_kept(app, served, monkeypatch) -> None:
    """The digest of game and main line is the same, a comment differs: the
    read-back compares the whole record a reader sees."""
    from hexhop.serve import editor

    arch, _db = served
    before = files_under(arch)
    real = editor.write_new

    def altered(target, data, check=None):
        return real(target, data.replace(b"1. B4W3", b"1. B4W3 {altered}"), check)

    monkeypatch.setattr(editor, "write_new", altered)
    response = save(app, NEW_RECORD, "altered")
    assert response.status_code == 500, response.text
    assert response.json()["detail"] == (
        f"{arch / 'altered.hxl'} does not read back as the record written: nothing was written."
    )
    assert files_under(arch) == before


# -- large editor requests: bounded work that grows with the record, and no wait for others --

EDITOR_ENDPOINTS = {
    "state": {"at": "end"},
    "play": {"action": "D7W1", "cursor": [0]},
    "takeback": {"cursor": [0]},
    "variation": {"cursor": [0]},
    "comment": {"comment": "c", "cursor": [0]},
    "tags": {"tags": {"Event": "E"}},
    "save": {"folder": 0, "name": "siblings"},
}


def siblings(count: int) -> str:
    """One action and ``count`` variations beside it (the attack: 80,000, 800 KB)."""
    return '[Game "Hexalit"]\n\n1. B4W3 ' + "(1. B4W3) " * count + "*\n"


def test_the_editor_reads_no_further_than_its_limit(app, served, monkeypatch) -> None:
    """800 KB, one action and 80,000 variations beside it: every endpoint
    answers the limit's finding, having read at most 10,001 actions of
    it each time it reads it (not 80,001)."""
    from hexhop.notation import accumulator
    from hexhop.serve.editor import MAX_ACTIONS

    arch, _db = served
    before = files_under(arch)
    text = siblings(80_000)
    assert 800_000 < len(text.encode()) < 1024 * 1024
    read = []
    real = accumulator.LineAccumulator.action

    def counted(self, *args, **kwargs):
        read.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(accumulator.LineAccumulator, "action", counted)
    token = csrf(app)
    limit = "the game has more than 10000 actions: it is not replayed"
    for endpoint, extra in EDITOR_ENDPOINTS.items():
        read.clear()
        response = post_json(app, endpoint, {"text": text, "cursor": [], **extra}, token)
        findings = response.json()["findings"]
        assert [f["code"] for f in findings] == ["IO05"], endpoint
        assert findings[0]["message"] == limit, endpoint
        assert response.status_code == (200 if endpoint == "state" else 422), endpoint
        assert 0 < len(read) <= MAX_ACTIONS + 1, (endpoint, len(read))
        assert len(response.content) < 1000
    assert files_under(arch) == before


def calls_of(work, *args) -> int:
    """The Python function calls ``work(*args)`` makes: a measure of its work
    that does not depend on the machine's speed."""
    import sys

    calls = 0

    def profile(frame, event, arg):
        nonlocal calls
        if event == "call":
            calls += 1

    sys.setprofile(profile)
    try:
        work(*args)
    finally:
        sys.setprofile(None)
    return calls


def test_the_editors_work_grows_linearly_with_the_record(served) -> None:
    """Four times the variations, at most 4.4 times the calls, for every
    endpoint (a quadratic step would make it 16)."""
    from types import SimpleNamespace

    from hexhop.serve import editor

    arch, db = served
    settings = editor.Settings(db=db, folders=(arch,))
    request = SimpleNamespace(app=SimpleNamespace(state=SimpleNamespace(settings=settings)))
    work = {
        name: getattr(editor, f"api_{name}".replace("takeback", "take_back"))
        for name in EDITOR_ENDPOINTS
    }
    for endpoint, extra in EDITOR_ENDPOINTS.items():
        counts = []
        warm = {"text": siblings(10), "cursor": [], **extra, "name": "warm-up"}
        work[endpoint](request, warm, "en")  # imports and caches on the first call
        for size in (400, 1600):
            data = {"text": siblings(size), "cursor": [], **extra}
            if endpoint == "save":
                data["name"] = f"linear-{size}"
            counts.append(calls_of(work[endpoint], request, data, "en"))
        assert counts[1] < 4.4 * counts[0], (endpoint, counts)


def test_a_long_editor_request_keeps_no_one_waiting(served, monkeypatch) -> None:
    """While one editor request works (here: held until told to go on), in
    German, the archive's pages and another editor request are answered,
    each in its own language."""
    import threading

    from hexhop.records import editing

    arch, db = served
    entered, release = threading.Event(), threading.Event()
    real = editing.read_text

    def held(text, *args, **kwargs):
        if "{hold}" in text:
            entered.set()
            release.wait(60)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(editing, "read_text", held)
    slow_app, other = client(db, (arch,)), client(db, (arch,))
    token = csrf(slow_app)
    answers: dict[str, object] = {}

    def slow() -> None:
        payload = {"text": NEW_RECORD.replace("*\n", "{hold} *\n"), "cursor": [], "at": "end"}
        answers["slow"] = slow_app.post(
            "/api/editor/state?lang=de", json=payload, headers={"X-CSRF-Token": token}
        )

    def others() -> None:
        answers["archive"] = other.get("/?lang=en")
        answers["game"] = other.get("/games/1")
        answers["play"] = post_json(
            other, "play", {"text": NEW_RECORD, "cursor": [0], "action": "D7W1"}, csrf(other)
        )

    worker = threading.Thread(target=slow, daemon=True)
    worker.start()
    try:
        assert entered.wait(30), "the slow request never started"
        meanwhile = threading.Thread(target=others, daemon=True)
        meanwhile.start()
        meanwhile.join(30)
        assert not meanwhile.is_alive(), "the other requests waited for the slow one"
        assert "slow" not in answers  # still held: the others did not wait for it
    finally:
        release.set()
        worker.join(30)
    assert answers["archive"].status_code == 200 and ">Archive<" in answers["archive"].text
    assert answers["game"].status_code == 200
    assert answers["play"].status_code == 200 and "1. B4W3 D7W1 *" in answers["play"].json()["text"]
    assert answers["slow"].status_code == 200


def test_a_lone_surrogate_given_back_in_a_refusal_is_escaped(app) -> None:
    """Found by the property test: JSON carries "\\ud800", which no UTF-8
    holds; the refusal that names it answers it as its escape (not 500)."""
    token = csrf(app)
    response = post_json(app, "new", {"game": "\ud800x"}, token)
    assert response.status_code == 400
    assert response.content == (
        b'{"error":"The request is not what the editor sends.","detail":"game: \\ud800x"}'
    )
    assert response.json()["detail"] == "game: \ud800x"
    ordinary = post_json(app, "new", {"game": "Sch\u00e4ch"}, token)
    assert ordinary.content.decode("utf-8").endswith('"detail":"game: Sch\u00e4ch"}')


def test_each_thread_speaks_its_own_language_at_once() -> None:
    """What lets requests in German and English run together: the language
    of a thread, findings too, for a while; the process keeps its own."""
    import threading

    from hexhop.messages import _, language, speaking_here
    from hexhop.notation.findings import make

    inside, done = threading.Event(), threading.Event()
    said: dict[str, str] = {}

    def german() -> None:
        with speaking_here("de"):
            inside.set()
            done.wait(30)
            said["de"] = make("IO02", None, path="x.hxl").message + " | " + _("Event")

    worker = threading.Thread(target=german)
    worker.start()
    assert inside.wait(30)
    with speaking_here("en"):
        said["en"] = make("IO02", None, path="x.hxl").message + " | " + _("Event")
    done.set()
    worker.join(30)
    assert said == {
        "en": "x.hxl is not a text file (it contains binary data) | Event",
        "de": "x.hxl ist keine Textdatei (sie enthält Binärdaten) | Turnier",
    }
    assert language() == "en"
