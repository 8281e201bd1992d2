"""``hexhop serve``'s editor through Starlette's TestClient: every endpoint,
bad and hostile input (4xx with a message, never a 500), CSRF, sizes, and
saving (file names, never over a file, indexed, strict and formatted)."""

from __future__ import annotations

import json
import os
import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from serve_helpers import BASE, client, index_into, indexed_archive
from test_html import HOSTILE

import hexhop
from hexhop.cli.main import cli
from hexhop.serve.editor import checked_name
from hexhop.serve.security import CSP, MAX_BODY

STATE = re.compile(r'<script type="application/json" id="editor-state">(.*?)</script>', re.S)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    return indexed_archive(tmp_path_factory.mktemp("editor"))


@pytest.fixture
def app(served):
    arch, db = served
    return client(db, (Path(os.path.realpath(arch)),))


def _token(app) -> dict[str, str]:
    app.get("/editor")
    return {"X-CSRF-Token": app.cookies["hexhop_csrf"]}


def _state_of(page: str) -> dict:
    found = STATE.search(page)
    assert found, "the page has no editor state"
    return json.loads(found.group(1))


def _post(app, name: str, payload: object, **headers: str):
    return app.post(f"/api/editor/{name}", json=payload, headers={**_token(app), **headers})


def _new(app, game: str = "Hexalit", **tags: str) -> dict:
    response = _post(app, "new", {"game": game, "tags": tags})
    assert response.status_code == 200, response.text
    return response.json()


def _play(app, state: dict, *actions: str) -> dict:
    for action in actions:
        response = _post(
            app, "play", {"text": state["text"], "cursor": state["cursor"], "action": action}
        )
        assert response.status_code == 200, response.text
        state = response.json()
    return state


# -- the page -------------------------------------------------------------------------


def test_the_editor_page(app) -> None:
    response = app.get("/editor")
    assert response.status_code == 200
    assert response.headers["content-security-policy"] == CSP
    page = response.text
    # no inline script: the one script comes from /static, data from JSON blocks
    scripts = re.findall(r"<script([^>]*)>", page)
    assert scripts == [
        ' type="application/json" id="editor-state"',
        ' type="application/json" id="editor-words"',
        ' src="/static/editor.js"',
    ]
    assert " style=" not in page and "<style" not in page
    stylesheets = re.findall(r'<link rel="stylesheet" href="([^"]+)">', page)
    assert stylesheets == ["/static/serve.css", "/static/editor.css"]
    state = _state_of(page)
    assert state["game"] == "Hexalit" and state["cursor"] == []
    assert state["status"] == "North to move"
    assert state["cube"] == {"offer": "double 2", "answers": []}
    assert set(state["clicks"]["dice"]) >= {"A6", "B4", "C7"}
    assert state["svg"].startswith("<svg") and "<style" not in state["svg"]
    assert 'data-cell="A7"' in state["svg"]
    assert app.get("/static/editor.js").status_code == 200
    assert app.get("/static/editor.css").status_code == 200


def test_the_page_in_german(app) -> None:
    page = app.get("/editor?lang=de").text
    assert "Zurücknehmen" in page and "Variante beginnen" in page
    assert _state_of(page)["status"] == "Nord am Zug"
    words = re.search(r'id="editor-words">(.*?)</script>', page, re.S)
    assert words and "Würfel" in json.loads(words.group(1))["pickDie"]


def test_a_new_huepfer_game_on_a_board_of_8(app) -> None:
    page = app.get("/editor?game=Hüpfer").text
    assert _state_of(page)["family"] == "huepfer"
    state = _new(app, "Hüpfer", Board="8x8", Red="Mira Hansen")
    assert state["tags"] == {"Game": "Hüpfer", "Red": "Mira Hansen", "Board": "8x8", "Result": "*"}
    assert state["svg"].count('class="hit ') == 64
    assert state["clicks"]["pieces"]["a1"]["hops"]["c1"]["births"] == {
        "d1": "a1-c1@d1",
        "c2": "a1-c1@c2",
    }


def test_opening_a_game_of_the_archive(app, served) -> None:
    _arch, db = served
    with sqlite3.connect(db) as connection:
        game_id, length = connection.execute(
            "SELECT id, plies FROM games WHERE game = 'Trigeo' AND valid = 1 ORDER BY id LIMIT 1"
        ).fetchone()
    page = app.get(f"/editor?from={game_id}")
    assert page.status_code == 200
    state = _state_of(page.text)
    assert state["game"] == "Trigeo"
    assert sum(1 for token in state["moves"] if token["kind"] == "move") >= length
    main_line = [t["address"] for t in state["moves"] if len(t.get("address", ())) == 1]
    assert state["cursor"] == main_line[-1]  # at the end of the main line
    assert state["findings"] == []
    for missing in ("999999", "abc", "-1", "1" * 40):
        response = app.get(f"/editor?from={missing}")
        assert response.status_code == 404
        assert "The archive has no game with that number." in response.text


# -- the API ---------------------------------------------------------------------------


def test_play_take_back_variation_comment_and_tags(app) -> None:
    state = _new(app, "Trigeo", North="Ute Sommer")
    state = _play(app, state, "C7°D7", "E6°D7", "B7°D7")
    assert state["text"].splitlines()[-1] == "1. C7°D7 E6°D7 2. B7°D7 *"
    assert state["cursor"] == [2] and state["previous"] == [1] and state["next"] is None
    back = _post(app, "takeback", {"text": state["text"], "cursor": [2]}).json()
    assert back["text"].splitlines()[-1] == "1. C7°D7 E6°D7 *" and back["cursor"] == [1]
    branch = _post(app, "variation", {"text": state["text"], "cursor": [2]}).json()
    assert branch["cursor"] == [1] and branch["branch"] is True
    varied = _post(
        app, "play", {"text": branch["text"], "cursor": [1], "action": "A6XC6", "branch": True}
    ).json()
    assert varied["text"].splitlines()[-1] == "1. C7°D7 E6°D7 2. B7°D7 (2. A6XC6) *"
    assert varied["cursor"] == [2, 0, 0]
    noted = _post(
        app, "comment", {"text": varied["text"], "cursor": [1], "comment": "Straight in."}
    ).json()
    assert "E6°D7 {Straight in.}" in noted["text"] and noted["comment"] == "Straight in."
    tagged = _post(
        app,
        "tags",
        {"text": noted["text"], "cursor": [1], "tags": {"Event": "Göttingen", "North": ""}},
    ).json()
    assert tagged["tags"]["Event"] == "Göttingen" and "North" not in tagged["tags"]
    moved = _post(app, "state", {"text": tagged["text"], "cursor": [2, 0, 0]}).json()
    assert moved["cursor"] == [2, 0, 0] and moved["previous"] == [1]
    end = _post(app, "state", {"text": tagged["text"], "cursor": [], "at": "end"}).json()
    assert end["cursor"] == [2]


def test_a_roll_the_cube_and_its_answers(app) -> None:
    state = _play(app, _new(app), "double 2")
    assert state["cube"] == {"offer": None, "answers": ["take", "drop"]}
    assert state["clicks"] == {"dice": {}}
    dropped = _play(app, state, "drop")
    assert dropped["winner"] == "North" and dropped["tags"]["Result"] == "1-0"
    taken = _play(app, state, "take", "B4W3")
    assert taken["text"].splitlines()[-1] == "1. double 2 take B4W3 *"
    faceless = _post(app, "play", {"text": taken["text"], "cursor": [2], "action": "D7W"})
    assert faceless.status_code == 422
    assert "the face the die shows" in faceless.json()["detail"]


def test_an_illegal_action_is_refused_with_the_rules_reason(app) -> None:
    state = _new(app)
    response = _post(app, "play", {"text": state["text"], "cursor": [], "action": "B4XA3"})
    assert response.status_code == 422
    assert response.json()["error"] == "This cannot be done."
    assert response.json()["detail"].startswith("B4XA3 is not legal: ")
    german = _post(
        app,
        "play",
        {"text": state["text"], "cursor": [], "action": "B4XA3"},
        **{"Accept-Language": "de"},
    )
    assert german.json()["error"] == "Das geht nicht."
    assert "ist nicht erlaubt" in german.json()["detail"]


def test_typed_text_gives_findings_at_line_and_column(app) -> None:
    text = '[Game "Hexalit"]\n\n1. B4W3 D7W1 2. B4XA3 *\n'
    state = _post(app, "state", {"text": text, "cursor": [], "at": "end"}).json()
    assert state["ok"] is True and state["cursor"] == [1] and state["text"] == text
    [finding] = state["findings"]
    assert (finding["code"], finding["line"], finding["column"]) == ("IL01", 3, 17)
    broken = _post(app, "state", {"text": '[Game "Hexalit"]\n\n1. B4W3 (D7W1 *\n'}).json()
    assert broken["ok"] is False
    # the variation read before the error is checked too: D7W1 is South's
    assert [(f["code"], f["line"], f["column"]) for f in broken["findings"]] == [
        ("IL01", 3, 10),
        ("SY01", 3, 15),
    ]
    # an edit of text that cannot be read is refused with the findings
    refused = _post(app, "play", {"text": "1. B4W3 (", "cursor": [], "action": "D7W1"})
    assert refused.status_code == 422 and refused.json()["findings"]
    no_game = _post(app, "state", {"text": "1. B4W3 *", "game": "Hexalit"}).json()
    assert no_game["ok"] is True and no_game["game"] == "Hexalit"


@pytest.mark.parametrize(
    "payload",
    [
        [],
        "text",
        {"cursor": []},
        {"text": 7, "cursor": []},
        {"text": "", "cursor": "0"},
        {"text": "", "cursor": [True]},
        {"text": "", "cursor": [-1]},
        {"text": "", "cursor": [1.5]},
        {"text": "", "cursor": [0] * 200},
        {"text": "", "cursor": [10**12]},
        {"text": "*", "game": "Schach"},
        {"text": "*", "game": 3},
    ],
)
def test_bad_requests_are_400_with_a_message(app, payload) -> None:
    response = _post(app, "state", payload)
    assert response.status_code == 400
    assert response.json()["error"] == "The request is not what the editor sends."


def test_bad_bodies_and_bad_edits_are_4xx_never_500(app) -> None:
    headers = {**_token(app), "Content-Type": "application/json"}
    for body in (b"", b"{", b"\xff\xfe", b"[" * 100_000, b'{"text": "\xed\xa0\x80"}'):
        response = app.post("/api/editor/state", content=body, headers=headers)
        assert response.status_code == 400, body[:20]
    state = _play(app, _new(app), "B4W3")
    for name, extra in [
        ("play", {"cursor": [5], "action": "D7W1"}),
        ("play", {"cursor": [0, 0], "action": "D7W1"}),
        ("play", {"cursor": [0], "action": "x" * 2000}),
        ("play", {"cursor": [0], "action": "nonsense"}),
        ("play", {"cursor": [0]}),
        ("takeback", {"cursor": []}),
        ("takeback", {"cursor": [3]}),
        ("variation", {"cursor": []}),
        ("comment", {"cursor": [7], "comment": "x"}),
        ("comment", {"cursor": [0], "comment": 5}),
        ("tags", {"cursor": [0], "tags": {"Result": "2-0"}}),
        ("tags", {"cursor": [0], "tags": {"bad name": "x"}}),
        ("tags", {"cursor": [0], "tags": {"Event": 5}}),
        ("tags", {"cursor": [0], "tags": ["Event"]}),
        ("new", {"game": "Schach"}),
        ("new", {"game": "Hüpfer", "tags": {"Board": "7x7"}}),
    ]:
        response = _post(app, name, {"text": state["text"], **extra})
        assert 400 <= response.status_code < 500, (name, extra, response.text)
        assert response.json()["error"], (name, extra)


def test_every_write_needs_the_csrf_token(app) -> None:
    app.get("/editor")
    for name in ("state", "new", "play", "takeback", "variation", "comment", "tags", "save"):
        response = app.post(f"/api/editor/{name}", json={"text": "", "cursor": []})
        assert response.status_code == 403, name
        foreign = app.post(
            f"/api/editor/{name}",
            json={"text": "", "cursor": []},
            headers={**_token(app), "Origin": "http://evil.example"},
        )
        assert foreign.status_code == 403, name


def test_sizes_over_the_limits(app) -> None:
    headers = {**_token(app), "Content-Type": "application/json"}
    big = json.dumps({"text": "x" * MAX_BODY, "cursor": []})
    assert app.post("/api/editor/state", content=big, headers=headers).status_code == 413
    # the record limits of hexhop check apply to every posted record
    long_comment = '[Game "Hexalit"]\n\n1. B4W3 {' + "x" * 100_001 + "} *\n"
    response = _post(app, "state", {"text": long_comment, "cursor": []}).json()
    assert response["ok"] is False and [f["code"] for f in response["findings"]] == ["IO06"]
    response = _post(app, "new", {"game": "Hexalit", "tags": {"Event": "x" * 10_001}})
    assert response.status_code == 413


# -- saving ------------------------------------------------------------------------------


def test_save_writes_a_new_file_that_is_indexed_strict_and_formatted(app, served) -> None:
    arch, db = served
    state = _new(app, "Hexalit", North="Grete Saveling", South="Jonas Keller")
    state = _play(app, state, "double 2", "take", "B4W3", "D7W1")
    response = _post(app, "save", {"text": state["text"], "folder": 0, "name": "saved-1"})
    assert response.status_code == 201, response.text
    saved = Path(response.json()["saved"])
    assert saved == Path(os.path.realpath(arch)) / "saved-1.hxl"
    assert response.json()["indexed"] is True
    game_page = app.get(f"/games/{response.json()['game']}")
    assert game_page.status_code == 200 and "Grete Saveling" in game_page.text
    assert saved.read_text("utf-8") == state["text"]
    runner = CliRunner()
    assert runner.invoke(cli, ["check", "--strict", str(saved)]).exit_code == 0
    assert runner.invoke(cli, ["fmt", "--check", str(saved)]).exit_code == 0
    with hexhop.open_index(db) as index:
        assert [Path(h.path).name for h in index.find(player="Grete Saveling")] == ["saved-1.hxl"]
    # never over an existing file
    again = _post(app, "save", {"text": "*", "game": "Hexalit", "folder": 0, "name": "saved-1.hxl"})
    assert again.status_code == 409
    assert saved.read_text("utf-8") == state["text"]
    # a name made from the tags, and the next free one after it
    first = _post(app, "save", {"text": state["text"], "folder": 0, "name": ""}).json()
    second = _post(app, "save", {"text": state["text"], "folder": "0", "name": " "}).json()
    assert Path(first["saved"]).name == "Saveling-Keller.hxl"
    assert Path(second["saved"]).name == "Saveling-Keller_2.hxl"
    assert not [p for p in Path(arch).iterdir() if p.name.startswith(".hexhop-")]


def test_a_name_from_the_tags_is_split_s_name(app, served) -> None:
    """The editor names a file by the rule of ``hexhop split``: readable,
    the umlauts written out in the case of their word."""
    state = _new(app, "Hexalit", North="MÜLLER", South="Bäcker", Date="2026.12.01", Round="4")
    state = _play(app, state, "B4W3")
    response = _post(app, "save", {"text": state["text"], "folder": 0, "name": ""})
    assert response.status_code == 201, response.text
    assert Path(response.json()["saved"]).name == "2026-12-01_Mueller-Baecker_r4.hxl"


def test_a_save_that_does_not_read_back_leaves_nothing(app, served, monkeypatch) -> None:
    """The file is read back before it takes its name: a file that does not
    hold the game written (here: the reader sees another game) is not kept."""
    from hexhop.archive import verify

    arch, _db = served
    state = _play(app, _new(app, "Hexalit"), "B4W3")
    before = sorted(p.name for p in Path(arch).iterdir())
    read = []

    def other_game(path: str, fallback: str | None):
        read.append((Path(path).parent, fallback))
        yield 1, b"\1" * verify.DIGEST

    monkeypatch.setattr(verify, "read_back", other_game)
    for name in ("unread", ""):
        response = _post(app, "save", {"text": state["text"], "folder": 0, "name": name})
        assert response.status_code == 500, response.text
        assert "does not read back as written" in response.text
    # read from the served folder (the temporary file), as a Hexalit record
    assert set(read) == {(Path(os.path.realpath(arch)), "Hexalit")} and len(read) >= 2
    assert sorted(p.name for p in Path(arch).iterdir()) == before


@pytest.mark.parametrize(
    "name",
    [
        "../escape.hxl",
        "../../etc/passwd",
        "/tmp/absolute.hxl",
        "sub/dir.hxl",
        "back\\slash.hxl",
        "..",
        ".",
        ".hidden.hxl",
        "..\uff0fwide.hxl",  # a fullwidth solidus: '/' in NFKC
        "\u2025.hxl",  # two-dot leader: '..' in NFKC
        "C:drive.hxl",
        "club.zip:member.hxl",
        "nul\x00byte.hxl",
        "line\nbreak.hxl",
        "bidi\u202etxt.hxl",
        "zero\u200bwidth.hxl",
        "x" * 201,
        "ü" * 120,
        "wrong.trg",
        "wrong.hxl.txt",
        ".hxl",
    ],
)
def test_hostile_file_names_are_refused(app, served, name) -> None:
    arch, _db = served
    before = sorted(p.name for p in Path(arch).iterdir())
    state = _new(app)
    response = _post(app, "save", {"text": state["text"], "folder": 0, "name": name})
    assert response.status_code == 400, name
    assert response.json()["error"]
    assert sorted(p.name for p in Path(arch).iterdir()) == before


def test_the_name_is_normalised_and_gets_its_extension() -> None:
    assert checked_name("Partie-Mu\u0308ller", "Hexalit") == "Partie-M\u00fcller.hxl"
    assert checked_name("abend.HPF", "Hüpfer") == "abend.HPF"
    assert checked_name("  runde 3 ", "Trigeo") == "runde 3.trg"


def test_a_link_in_the_way_is_never_followed(app, served, tmp_path) -> None:
    arch, _db = served
    outside = tmp_path / "outside.hxl"
    link = Path(arch) / "dangling.hxl"
    link.symlink_to(outside)
    state = _new(app)
    response = _post(app, "save", {"text": state["text"], "folder": 0, "name": "dangling.hxl"})
    assert response.status_code == 409
    assert not outside.exists() and link.is_symlink()
    link.unlink()


def test_folders_that_are_not_served_are_refused(app, served) -> None:
    state = _new(app)
    for folder in (1, -1, "x", None, 1.0, True, "../"):
        response = _post(app, "save", {"text": state["text"], "folder": folder, "name": "f"})
        assert response.status_code == 400, folder
        assert response.json()["error"] == "There is no such folder to save into."


def test_a_record_with_errors_is_not_saved(app) -> None:
    text = '[Game "Hexalit"]\n\n1. B4W3 D7W1 2. B4XA3 *\n'
    response = _post(app, "save", {"text": text, "folder": 0, "name": "broken"})
    assert response.status_code == 422
    assert [f["code"] for f in response.json()["findings"]] == ["IL01"]


def test_read_only_enters_games_but_refuses_to_save(served) -> None:
    arch, db = served
    folder = Path(os.path.realpath(arch))
    app = client(db, (folder,), read_only=True)
    page = app.get("/editor")
    assert page.status_code == 200
    assert "read-only" in page.text and 'id="save"' not in page.text
    before = sorted(p.name for p in folder.iterdir())
    state = _play(app, _new(app), "B4W3")  # the editor's steps change no file
    assert "1. B4W3" in state["text"]
    headers = {"X-CSRF-Token": app.cookies["hexhop_csrf"], "Origin": BASE}
    text = '[Game "Hexalit"]\n\n1. B4W3 *\n'
    response = app.post(
        "/api/editor/save", json={"text": text, "folder": 0, "name": "x"}, headers=headers
    )
    assert response.status_code == 403 and "read-only" in response.text
    bare = app.post("/api/editor/play", json={"text": "*"}, headers={"Origin": BASE})
    assert bare.status_code == 403  # still no step without the CSRF token
    assert sorted(p.name for p in folder.iterdir()) == before


def test_a_hostile_record_in_the_editor_stays_text(app, served) -> None:
    arch, db = served
    (Path(arch) / "hostile-editor.trg").write_text(HOSTILE, "utf-8")
    index_into(db, Path(arch))
    with sqlite3.connect(db) as connection:
        [(game_id,)] = connection.execute(
            "SELECT g.id FROM games g JOIN files f ON f.id = g.file"
            " WHERE f.path LIKE '%hostile-editor%'"
        ).fetchall()
    page = app.get(f"/editor?from={game_id}").text
    assert "__pwned" in page  # the record is there, as JSON text only
    assert "<script>window" not in page and "<img src=x" not in page
    assert "</script><script>" not in page and "<b>bold" not in page
    state = _state_of(page)
    assert state["tags"]["Event"] == "<script>window.__pwned = 1</script>"
    assert state["moves"][0] == {"kind": "comment", "text": "<script>window.__pwned = 3</script>"}
    assert "__pwned" not in state["svg"]  # the board shows no record text


def test_a_game_larger_than_the_editor_takes_is_told_not_opened(tmp_path) -> None:
    """The blank lines before a game are not the game's; a game of more than
    MAX_BODY bytes (which the page could never send back) is refused with
    413 and a message, not opened as a page of twice its size."""
    from serve_helpers import game_id

    arch = tmp_path / "arch"
    arch.mkdir()
    game = '[Game "Hexalit"]\n[Result "*"]\n\n1. B4W3 *\n'
    (arch / "late.hxl").write_text("\n" * (2 * MAX_BODY) + game, "utf-8")
    (arch / "huge.hxl").write_text(game.replace("*\n", "{" + "x" * MAX_BODY + "} *\n"), "utf-8")
    db = tmp_path / "arch.sqlite"
    index_into(db, arch)
    app = client(db, (arch,))
    late = app.get(f"/editor?from={game_id(db, 'late.hxl')}")
    assert late.status_code == 200 and len(late.content) < MAX_BODY
    assert _state_of(late.text)["text"].startswith('[Game "Hexalit"]')
    huge = app.get(f"/editor?from={game_id(db, 'huge.hxl')}")
    assert huge.status_code == 413 and len(huge.content) < MAX_BODY
    assert "This game is larger than the editor takes (1024 KiB)" in huge.text
