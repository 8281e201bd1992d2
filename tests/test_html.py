"""The HTML viewer without a browser: page data from the replay, escaping,
the Content-Security-Policy, no URLs, the archive index."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexhop.cli.main import cli
from hexhop.engine.games import rules_for
from hexhop.engine.replay import replay_game
from hexhop.notation import read_archive
from hexhop.records.viewer import page_data
from hexhop.render.html import Drawings, changes, game_page, shared_file

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
GOOD = sorted((SAMPLES / "good").iterdir())

#: A record that tries to run code from a tag, a comment and a variation.
HOSTILE = """[Game "Trigeo"]
[Event "<script>window.__pwned = 1</script>"]
[North "<img src=x onerror=\\"window.__pwned = 2\\">"]
[South "Karl & \\"Co\\" </script><b>bold</b>"]
[Result "*"]

{<script>window.__pwned = 3</script>} 1. C7°D7 {<img src=x onerror="window.__pwned = 4">}
E6°D7 (1... E6XD6 {</script><script>window.__pwned = 5</script>}) 2. B7°D7 *
"""


def report_of(path_or_text: Path | str, index: int = 1, name: str = "x.trg"):
    if isinstance(path_or_text, Path):
        data, name = path_or_text.read_bytes(), str(path_or_text)
    else:
        data = path_or_text.encode("utf-8")
    parsed = [g for g in read_archive(data, path=name) if g.index == index][0]
    return replay_game(parsed)


def expand(data: dict) -> dict:
    """The viewer script's reading of the data, in Python: the pieces, the
    frames' parts, the flipped ones by ``mirror``, their places in their
    lines, their labels."""

    def apply(codes: list[int], before: list[int]) -> list[int]:
        parts, i = [], 0
        for code in codes:
            if code >= 0:
                parts.append(code)
            elif -code % 2:
                i += -code // 2
            else:
                parts += before[i : i - code // 2]
                i += -code // 2
        return parts

    data["pieces"] = [
        piece if isinstance(piece, str) else piece[0] + data["bodies"][piece[1]]
        for piece in data["pieces"]
    ]
    frames = data["frames"]
    before: list[int] = []
    for frame in frames:
        frame["s"] = before = apply(frame["s"], before)
        mirrored = [data["mirror"][part] for part in frame["s"]]
        frame["v"] = apply(frame["v"], mirrored) if "v" in frame else mirrored
    for number, line in enumerate(data["lines"]):
        for index, frame in enumerate(line["f"]):
            if frames[frame]["l"] == number:
                frames[frame]["i"] = index

    def label(line: dict) -> None:
        for entry in line["e"]:
            frame = frames[entry["f"]] if "f" in entry else None
            if frame is not None and "s" not in entry and "t" not in frame:
                ply = frame["p"]
                number = f"{(ply - 1) // 2 + 1}" + ("." if ply % 2 else "...")
                frame["t"] = f"{number} {entry['t']}"
            for variation in entry.get("v", ()):
                label(variation)

    label(data["moves"])
    return data


def test_changes_take_and_pass_over_parts():
    assert changes([1, 2, 3], []) == [1, 2, 3]
    assert changes([1, 2, 3], [1, 2, 3]) == [-6]
    assert changes([1, 9, 3, 4], [1, 2, 3, 4]) == [-2, 9, -3, -4]
    assert changes([4, 1], [1, 2, 3, 4]) == [-7, -2, 1]


def draw(data: dict, frame: dict, key: str) -> str:
    """The viewer script's drawing of a frame, in Python."""
    head = data["head"]
    root = head.index(">")
    attrs = f' data-ply="{frame["p"]}" data-position="{frame["x"]}"'
    body = "".join(data["pieces"][part] for part in frame[key])
    return head[:root] + attrs + head[root:] + body + "</svg>"


def packed(page: str) -> str:
    match = re.search(r'<script type="application/gzip" id="hexhop-data">(.*?)</script>', page)
    assert match
    return match.group(1)


def embedded(page: str) -> dict:
    return expand(json.loads(gzip.decompress(base64.b64decode(packed(page)))))


# ---------------------------------------------------------------------------
# Page data


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.name)
def test_main_line_frames_are_the_replayed_positions(path):
    report = report_of(path)
    page = page_data(report)
    main = [page.frames[i] for i in page.lines[0].frames]
    assert [f.ply for f in main] == [p.ply for p in report.positions]
    for frame, position in zip(main, report.positions, strict=True):
        assert f'data-position="{_attr(position.text())}"' in page.svg(frame)
        assert f'data-ply="{position.ply}"' in page.svg(frame, flipped=True)


def _attr(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def test_variation_frames_come_from_the_rules():
    report = report_of(SAMPLES / "good" / "hexalit-kassel-1998.hxl")
    page = page_data(report)
    assert len(page.lines) == 2
    variation = page.lines[1]
    base = page.frames[variation.base]
    assert (base.line, base.ply) == (0, 6)
    rules = rules_for("Hexalit")
    node = report.nodes[6]  # 4. B8°C7, whose variation is 4. E10XD7+
    alternative = node.variations[0].nodes[0]
    after = rules.play(report.positions[6], alternative.item).position
    frame = page.frames[variation.frames[1]]
    assert frame.ply == 7 and frame.line == 1 and frame.index == 1
    assert f'data-position="{after.text()}"' in page.svg(frame)
    assert frame.comments == alternative.comments


def test_move_numbers_follow_plies_and_interruptions():
    page = page_data(report_of(SAMPLES / "good" / "hexalit-kassel-1998.hxl"))
    numbers = [(e.number, e.text) for e in page.main.entries[:12]]
    assert numbers[:4] == [("1.", "B4W3"), ("1...", "D7W1"), ("2.", "A5XB2^"), ("2...", "D7XD5")]
    assert ("3.", "double 2") in numbers and ("", "take") in numbers
    assert ("", "B2°E10") in numbers
    assert ("4...", "E5W6") in numbers  # after the variation
    branch = next(e for e in page.main.entries if e.text == "B8°C7")
    assert branch.variations[0].entries[0].number == "4."


def test_illegal_action_is_marked_with_its_message():
    page = page_data(report_of(SAMPLES / "broken" / "illegal-huepfer-revisit.hpf"))
    entry = page.main.entries[0]
    assert entry.state == "illegal" and entry.frame is None
    note = page.notes[entry.notes[0]]
    assert note.code == "IL01" and note.severity == "error" and note.frame == 0
    assert "may not revisit" in note.message
    assert page.frames[0].ahead == entry.notes
    assert not page.valid


def test_actions_after_a_refused_one_are_unplayed():
    report = report_of(SAMPLES / "broken" / "illegal-hexalit-pawn-capture.hxl")
    page = page_data(report)
    states = [e.state for e in page.main.entries]
    refused = states.index("illegal")
    assert refused == len(report.positions) - 1
    assert set(states[refused + 1 :]) <= {"unplayed"}


def test_findings_without_an_action_are_listed_by_ply():
    page = page_data(report_of(SAMPLES / "broken" / "result-contradicts-board.trg"))
    codes = {n.code: n for n in page.notes}
    assert "ST02" in codes and page.frames[codes["ST02"].frame].ply == 40


def test_warnings_stay_with_their_action():
    page = page_data(report_of(SAMPLES / "broken" / "annotation-missing-threat.hxl"))
    marked = [e for e in page.main.entries if e.notes]
    assert [e.text for e in marked] == ["A5XB2"]
    assert page.notes[marked[0].notes[0]].severity == "warning" and page.valid


# ---------------------------------------------------------------------------
# The page


@pytest.fixture(scope="module")
def kassel_page() -> str:
    return game_page(page_data(report_of(SAMPLES / "good" / "hexalit-kassel-1998.hxl")))


def test_page_has_a_restrictive_csp_matching_its_one_script(kassel_page):
    csp = re.search(
        r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', kassel_page
    ).group(1)
    assert "default-src 'none'" in csp and "'unsafe-eval'" not in csp
    scripts = re.findall(r"<script>(.*?)</script>", kassel_page, re.S)
    assert len(scripts) == 1
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in csp


def test_page_refers_to_nothing_outside(kassel_page):
    assert "http://" not in kassel_page and "https://" not in kassel_page
    assert not re.search(r"\b(src|href)\s*=", kassel_page.replace('href="#', ""))
    assert "@import" not in kassel_page and "url(" not in kassel_page


def test_frames_decode_to_the_drawn_svgs():
    report = report_of(SAMPLES / "good" / "trigeo-goettingen-1999.trg")
    page = page_data(report)
    html = game_page(page)
    raw = json.loads(gzip.decompress(base64.b64decode(packed(html))))
    # only what the script cannot work out is in the data
    assert all("v" not in f and "i" not in f for f in raw["frames"])
    # a die's pips are kept once, not on every cell and both ways up
    dice = [p for p in raw["pieces"] if isinstance(p, list) and 'class="die ' in p[0]]
    assert len(dice) > 50 and len({p[1] for p in dice}) < len(dice) / 3
    assert [f["t"] for f in raw["frames"] if "t" in f] == ["start"]
    data = embedded(html)
    assert len(data["frames"]) == len(page.frames)
    for frame, packed_frame in zip(page.frames, data["frames"], strict=True):
        # the script works out what the data leaves out
        assert (packed_frame["t"], packed_frame["i"]) == (frame.label, frame.index)
        assert (packed_frame.get("c", []), packed_frame.get("n", [])) == (
            list(frame.comments),
            list(frame.notes),
        )
        for key, flipped in (("s", False), ("v", True)):
            drawing = draw(data, packed_frame, key)
            assert drawing.startswith("<svg version=")  # no namespace URL inline
            assert f'data-ply="{frame.ply}"' in drawing
            assert drawing == page.svg(frame, flipped=flipped)
            svg = drawing.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
            ET.fromstring(svg)  # well-formed


def test_page_size_stays_reasonable():
    """A page holds the parts of its pictures once (it was
    about 15 kB per position, both orientations)."""
    page = game_page(page_data(report_of(SAMPLES / "good" / "huepfer-10x10-bremen-2003.hpf")))
    assert len(page.encode()) < 60_000  # 75 positions, both orientations


def test_equal_parts_are_kept_once():
    drawings = Drawings('<svg xmlns="http://www.w3.org/2000/svg" class="b"><style/>')
    first = drawings.add("<a/>")
    assert drawings.add("<a/>") == first and drawings.add("<b/>") != first
    assert drawings.svg([first, first + 1], 3, 'N: A7=1; "x"') == (
        '<svg class="b" data-ply="3" data-position="N: A7=1; &quot;x&quot;"><style/><a/><b/></svg>'
    )


def test_hostile_record_is_text_only():
    page = game_page(page_data(report_of(HOSTILE)))
    body = page.split("<body>", 1)[1]
    assert "<script>window" not in body and "<img" not in body and "<b>" not in body
    assert "&lt;script&gt;window.__pwned = 1&lt;/script&gt;" in body
    moves = json.dumps(embedded(page)["moves"])  # the script builds the move list as text
    assert 'onerror=\\"window.__pwned = 4\\"' in moves
    assert re.fullmatch(r"[A-Za-z0-9+/=]*", packed(page))
    assert "</script><script>window.__pwned = 5" in json.dumps(embedded(page))
    # the viewer's words, the data and the viewer
    assert len(re.findall(r"<script\b", page)) == 3


# ---------------------------------------------------------------------------
# The command


def test_render_html_writes_one_page_and_no_index_for_one_game(tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli,
        [
            "render",
            str(SAMPLES / "good" / "trigeo-goettingen-1999.trg"),
            "--format",
            "html",
            "--out-dir",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["game001.html"]


def test_render_html_archive_writes_an_index(tmp_path):
    archive = tmp_path / "club.trg"
    good = (SAMPLES / "good" / "trigeo-goettingen-1999.trg").read_text(encoding="utf-8")
    broken = (SAMPLES / "broken" / "syntax-stray-paren.trg").read_text(encoding="utf-8")
    archive.write_text(good + "\n" + HOSTILE + "\n" + broken, encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["render", str(archive), "--format", "html", "--out-dir", str(out)]
    )
    assert result.exit_code == 1, result.output  # game 3 has an error
    # game 3 is drawn up to its syntax error, which its page and the index tell
    assert sorted(p.name for p in out.iterdir()) == [
        "game001.html",
        "game002.html",
        "game003.html",
        "index.html",
        "viewer.css",
        "viewer.js",
    ]
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="game001.html"' in index and 'href="game002.html"' in index
    assert 'href="game003.html"' in index and "invalid: 1 error" in index
    assert index.count("<tr>") == 4  # head and three games
    assert "Ute Sommer – Karl Brandt" in index and "1999.11.06" in index
    assert "&lt;img src=x" in index and "<img" not in index
    # one script, the sorting and filtering one, allowed by its hash alone
    scripts = re.findall(r"<script>(.*?)</script>", index, re.S)
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    assert len(scripts) == 1 and f"script-src 'sha256-{digest}'" in index
    assert 'id="filter"' in index and index.count('<button type="button" data-column=') == 8
    # every game page leads back to the index
    for name in ("game001.html", "game002.html"):
        page = (out / name).read_text(encoding="utf-8")
        assert '<nav class="site-nav"><a href="index.html">' in page
        # the pages share the style and script beside the index
        assert '<link rel="stylesheet" href="viewer.css">' in page
        assert '<script src="viewer.js"></script>' in page and "<style>" not in page
        assert "script-src 'self';" in page and "sha256" not in page
    assert (out / "viewer.js").read_text(encoding="utf-8") == shared_file("viewer.js")
    assert ".moves" in (out / "viewer.css").read_text(encoding="utf-8")


def test_pages_of_a_folder_link_to_the_index_above_them(tmp_path):
    """Pages in a folder per file link to ../index.html; a
    lone game's page has no index to link to."""
    folder = tmp_path / "club"
    folder.mkdir()
    for name in ("trigeo-goettingen-1999.trg", "huepfer-6x6-bremen-2003.hpf"):
        (folder / name).write_bytes((SAMPLES / "good" / name).read_bytes())
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["render", str(folder), "--format", "html", "--out-dir", str(out)]
    )
    assert result.exit_code == 0, result.output
    page = (out / "trigeo-goettingen-1999" / "game001.html").read_text(encoding="utf-8")
    assert '<a href="../index.html">' in page
    assert '<script src="../viewer.js">' in page and 'href="../viewer.css"' in page
    assert (out / "viewer.js").is_file() and not (
        out / "trigeo-goettingen-1999" / "viewer.js"
    ).exists()
    alone = game_page(page_data(report_of(SAMPLES / "good" / "trigeo-goettingen-1999.trg")))
    assert "<nav" not in alone and "index.html" not in alone


def test_page_carries_its_record_for_download():
    """The button "Download this record" saves the record's text."""
    from hexhop.notation.writer import format_record

    report = report_of(SAMPLES / "good" / "hexalit-kassel-1998.hxl")
    page = game_page(page_data(report))
    data = embedded(page)
    assert data["record"] == {"text": format_record(report.record), "name": "game1.hxl"}
    assert 'id="download"' in page and 'id="copy"' in page
    assert [f["x"] for f in data["frames"][:2]] == [p.text() for p in report.positions[:2]]


def test_page_styles_name_no_class_of_the_board():
    """A class the page's stylesheet styles must not be one
    the board drawings use (``.icon`` painted the Hüpfer reserves black)."""
    from importlib import resources

    css = resources.files("hexhop.render").joinpath("viewer.css").read_text(encoding="utf-8")
    selectors = re.sub(r"\{[^}]*\}", "{}", css)
    # each run of classes (".move.cube") matches only elements with all of them
    compounds = [set(m.split(".")[1:]) for m in re.findall(r"(?:\.[A-Za-z][\w-]*)+", selectors)]
    drawn: set[str] = set()
    for path in GOOD:
        page = page_data(report_of(path))
        for frame in page.frames[:30]:
            for flipped in (False, True):
                for value in re.findall(r' class="([^"]*)"', page.svg(frame, flipped=flipped)):
                    drawn.update(value.split())
    assert {"icon", "reserve", "piece", "die"} <= drawn
    assert [c for c in compounds if c <= drawn] == []


def test_no_folder_takes_the_name_of_a_shared_file(tmp_path):
    """A member whose folder would be named viewer.js gets
    another name, so that the shared script can be written beside the index."""
    import tarfile

    archive = tmp_path / "club.tar"
    with tarfile.open(archive, "w") as handle:
        handle.add(SAMPLES / "good" / "trigeo-goettingen-1999.trg", "viewer.js.trg")
        handle.add(SAMPLES / "good" / "trigeo-goettingen-1999.trg", "x/viewer.js.trg")
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["render", str(archive), "--format", "html", "--out-dir", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert (out / "viewer.js").is_file() and (out / "viewer.js-2" / "game001.html").is_file()
    assert '<script src="../viewer.js">' in (out / "viewer.js-2" / "game001.html").read_text(
        "utf-8"
    )


@pytest.mark.parametrize("name", ["hexalit-kassel-1998.hxl", "huepfer-6x6-bremen-2003.hpf"])
def test_page_from_the_replays_walk_is_the_same(name, monkeypatch):
    """The page is made from the walk its replay recorded,
    without walking the record again, and is the same page."""
    from hexhop.records import viewer
    from hexhop.records.viewer import Recording

    path = SAMPLES / "good" / name
    alone = game_page(page_data(report_of(path)))
    parsed = next(iter(read_archive(path.read_bytes(), path=str(path))))
    walked = Recording()
    report = replay_game(parsed, walked)

    def no_walk(*args: object) -> None:
        raise AssertionError("walked again")

    monkeypatch.setattr(viewer, "walk", no_walk)
    assert game_page(page_data(report, walked=walked)) == alone


def test_packed_data_holds_no_control_character_but_keeps_written_backslashes():
    """The last guard of the page data: a control character becomes U+FFFD,
    while the text "\\u001b" (an escaped backslash, then u001b) stays."""
    from hexhop.render.html import _packed_script

    value = {"a": "bell\x07", "b": "\\u001b", "c": "\\\x1b", "d": "\\\\u0007"}
    script = _packed_script("x", value)
    data = re.search(r">([^<]*)</script>", script)[1]
    text = gzip.decompress(base64.b64decode(data)).decode("utf-8")
    assert json.loads(text) == {
        "a": "bell\ufffd",
        "b": "\\u001b",
        "c": "\\\ufffd",
        "d": "\\\\u0007",
    }
