"""A result followed on its line by the next game's tags.

Old tools glue games together: ``… 100. C7W4 D7XE7 * [Game "Hexalit"]``.
The result ends its game; what follows is the next game, tags and all.
Every reader cuts the two games at the ``[``: check, the streaming
splitter, and the archive tools that copy each game's bytes (split, the
index's export).
"""

from __future__ import annotations

import json
from pathlib import Path

from archive_helpers import run

from hexhop.notation.reader import game_chunks
from hexhop.notation.streaming import stream_chunks

GLUED = (
    '[Game "Hexalit"]\n[North "Anna"]\n\n'
    '1. B4W3 D7W1 {not here: * [A "b"]} 2. A5XB2^ D7XD5 * [Game "Hexalit"] [Round "2"]\n'
    '[North "Jürgen"]\n\n1. B4W3 D7W1 1-0 [Game "Trigeo"]\n\n1. C7°D7 *\n'
)


def _games(path: Path) -> list[dict]:
    result = run("check", "--format", "json", path)
    return [game for file in json.loads(result.stdout)["files"] for game in file["games"]]


def test_the_result_ends_its_game_and_the_tags_begin_the_next(tmp_path: Path) -> None:
    path = tmp_path / "glued.txt"  # no extension to take the game from: the tags say it
    path.write_text(GLUED, "utf-8")
    games = _games(path)
    assert [(g["game"], g["plies"], g["result"], g["players"][0]) for g in games] == [
        ("Hexalit", 4, "*", "Anna"),
        ("Hexalit", 2, "1-0", "Jürgen"),
        ("Trigeo", 1, "*", "?"),
    ]
    assert [g["findings"] for g in games] == [[], [], []]


def test_the_next_games_tags_keep_their_columns() -> None:
    [_one, (index, line, chunk), _three] = list(game_chunks(GLUED))
    assert (index, line) == (2, 4)
    assert chunk.index("[Game") == GLUED.split("\n")[3].index("[Game")


def test_the_streaming_splitter_cuts_where_the_reader_cuts() -> None:
    text = (GLUED + "\n") * 40
    data = text.encode("utf-8")
    expected = list(game_chunks(text))
    for block in (7, 64, 1000):
        chunks, _cp1252 = stream_chunks(data, block=block)
        assert list(chunks) == expected, block


def test_split_and_export_copy_each_game_from_its_first_to_its_last_byte(
    tmp_path: Path,
) -> None:
    path = tmp_path / "glued.hxl"
    path.write_bytes(GLUED.encode("cp1252"))  # an old tool's file: the cut counts bytes
    out = tmp_path / "split"
    run("split", path, "--out-dir", out)
    written = sorted(p.read_text("cp1252") for p in out.iterdir())  # copied as read
    assert [text.splitlines()[0] for text in written] == [
        '[Game "Hexalit"]',
        '[Game "Hexalit"] [Round "2"]',
        '[Game "Trigeo"]',
    ]
    assert any(text.endswith("2. A5XB2^ D7XD5 *\n") for text in written)
    assert any('[Game "Hexalit"] [Round "2"]\n[North "Jürgen"]' in text for text in written)
    db = tmp_path / "i.sqlite"
    run("index", path, "--db", db)
    exported = tmp_path / "all.hxl"
    run("find", "--db", db, "--export", exported)
    # the game with Jürgen is Windows-1252, copied as its bytes (never a guess
    # written as UTF-8), and told as such where it is read again
    assert [(g["plies"], [f["code"] for f in g["findings"]]) for g in _games(exported)] == [
        (4, []),
        (2, ["NT03"]),
        (1, []),
    ]
    # each game exported from its first to its last byte
    assert b"2. A5XB2^ D7XD5 *\n" in exported.read_bytes()
    assert "Jürgen".encode("cp1252") in exported.read_bytes()


def test_the_web_game_page_of_a_glued_game_shows_it(tmp_path: Path) -> None:
    from serve_helpers import client, game_id, index_into

    arch = tmp_path / "arch"
    arch.mkdir()
    (arch / "glued.hxl").write_text(GLUED, "utf-8")
    db = tmp_path / "arch.sqlite"
    index_into(db, arch)
    app = client(db, (arch,))
    first = app.get(f"/games/{game_id(db, 'glued.hxl', 1)}")
    second = app.get(f"/games/{game_id(db, 'glued.hxl', 2)}")
    assert first.status_code == second.status_code == 200
    assert 'id="hexhop-data"' in first.text and 'id="hexhop-data"' in second.text
    assert '<li class="error">' not in first.text + second.text
    assert "Jürgen" in second.text and "Jürgen" not in first.text
