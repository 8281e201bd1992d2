"""Record data in output: escaped in SVG, HTML and JUnit; never a file name
outside the output folder; PNG rendering fetches nothing."""

from __future__ import annotations

import builtins
import io
import json
import os
import subprocess
import urllib.request
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from click.testing import CliRunner
from safety_runner import shared

from hexhop.cli.main import cli
from hexhop.render.png import svg_to_png

SVG_NS = "{http://www.w3.org/2000/svg}"
IMAGE = '<image href="file:///etc/passwd" width="100" height="100"/>'
ENTITY = '<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>&xxe;'


def quoted(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


HOSTILE = (
    '[Game "Hexalit"]\n'
    f'[North "{quoted(IMAGE)}"]\n'
    f'[South "{quoted(ENTITY)}"]\n'
    '[Event "<script>alert(1)</script>\x01\x0b"]\n'
    '[Site "]]>\\"&amp;"]\n'
    "\n"
    "1. B6XC6 {</span><script>alert(2)</script>} E8XD8 *\n"
)


def invoke(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


@pytest.fixture
def record(tmp_path) -> Path:
    path = tmp_path / "hostile.hxl"
    path.write_text(HOSTILE, "utf-8")
    return path


class Spy:
    """Records every file opened and every URL fetched."""

    def __init__(self, monkeypatch):
        self.opened: list[str] = []
        real_open = builtins.open

        def spy_open(file, *args, **kwargs):
            self.opened.append(str(file))
            return real_open(file, *args, **kwargs)

        def refuse_urlopen(url, *args, **kwargs):
            self.opened.append(str(getattr(url, "full_url", url)))
            raise AssertionError(f"fetched {url}")

        monkeypatch.setattr(builtins, "open", spy_open)
        monkeypatch.setattr(io, "open", spy_open)
        monkeypatch.setattr(urllib.request, "urlopen", refuse_urlopen)

    def touched_passwd(self) -> bool:
        return any("passwd" in name for name in self.opened)


def test_png_of_a_hostile_record_renders_and_reads_no_file(record, tmp_path, monkeypatch):
    out = tmp_path / "png"
    spy = Spy(monkeypatch)
    result = invoke(
        "render", str(record), "--format", "png", "--plies", "0,2", "--out-dir", str(out)
    )
    assert result.exit_code == 0, result.output
    assert not spy.touched_passwd()
    passwd = Path("/etc/passwd").read_bytes()[:32]
    for picture in sorted(out.glob("*.png")):
        data = picture.read_bytes()
        assert data.startswith(b"\x89PNG") and passwd not in data


@pytest.mark.parametrize(
    "payload",
    [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">{IMAGE}</svg>',
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="10" height="10"><image xlink:href="file:///etc/passwd"/>'
        '<use xlink:href="file:///etc/passwd#x"/>'
        '<style>@import url("file:///etc/passwd");</style></svg>',
        '<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&xxe;</text></svg>',
    ],
)
def test_cairosvg_is_never_allowed_to_load_anything(payload, monkeypatch):
    spy = Spy(monkeypatch)
    try:
        png = svg_to_png(payload)
    except Exception as error:  # refusing the entity outright is fine too
        assert "passwd" not in str(error).lower() or "entit" in str(error).lower()
    else:
        assert png.startswith(b"\x89PNG")
    assert not spy.touched_passwd()


def test_svg_holds_record_text_as_text_only(record, tmp_path):
    out = tmp_path / "svg"
    invoke("render", str(record), "--plies", "0,1", "--out-dir", str(out))
    for picture in sorted(out.glob("*.svg")):
        root = ET.parse(picture).getroot()
        tags = {node.tag.removeprefix(SVG_NS) for node in root.iter()}
        assert not tags & {"image", "script", "use", "foreignObject"}
        title = root.find(f"{SVG_NS}title")
        assert title is not None and IMAGE in title.text


def test_html_page_escapes_every_record_text(record, tmp_path):
    out = tmp_path / "html"
    invoke("render", str(record), "--format", "html", "--out-dir", str(out))
    page = (out / "game001.html").read_text("utf-8")
    assert "<image" not in page and "<script>alert" not in page
    assert "&lt;image href=" in page
    assert "<!ENTITY" not in page and "<!DOCTYPE svg" not in page


def test_junit_report_escapes_every_record_text(record):
    result = invoke("check", str(record), "--format", "junit", "--strict")
    root = ET.fromstring(result.stdout.split("\n", 1)[1])
    names = [case.get("name") for case in root.iter("testcase")]
    assert any(IMAGE in name for name in names)
    assert not [node for node in root.iter() if node.tag in ("image", "script")]


def test_output_names_never_leave_the_output_folder(tmp_path):
    archive = tmp_path / "evil.zip"
    game = '[Game "Hexalit"]\n\n1. B6XC6 *\n'
    with zipfile.ZipFile(archive, "w") as out:
        for name in (
            "../../../escaped.hxl",
            "/abs/rooted.hxl",
            "a/../../up.hxl",
            "..\\..\\win.hxl",
            "ok.hxl",
        ):
            out.writestr(name, game)
    out_dir = tmp_path / "deep" / "out"
    for fmt in ("svg", "html"):
        invoke(
            "render",
            str(archive),
            "--format",
            fmt,
            "--plies",
            "0",
            "--out-dir",
            str(out_dir),
            "--force",
        )
    written = [p for p in tmp_path.rglob("*") if p.is_file() and p != archive]
    assert written
    for path in written:
        assert out_dir.resolve() in path.resolve().parents


# -- names that are not UTF-8, and terminal escapes ----------------------------

ESCAPES = "\x1b]0;pwned\x07\x1b[2J"
NOISY = f'[Game "Hexalit"]\n[North "{ESCAPES}"]\n\n1. B4W2 {{\x1b[31m}} D7W4 9. B8W6 \x1b[2J *\n'


def hexhop(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """The program (forked from the session's server), its output as
    bytes: what a terminal would get."""
    return shared().complete(list(args), cwd=cwd, env={"PYTHONIOENCODING": "utf-8"})


@pytest.fixture
def bad_names(tmp_path) -> Path:
    folder = tmp_path / "names"
    folder.mkdir()
    os.mkdir(os.fsencode(folder) + b"/d\xe9j\xe0")  # Latin-1 bytes: not UTF-8
    game = NOISY.encode("utf-8")
    (Path(os.fsdecode(os.fsencode(folder) + b"/d\xe9j\xe0/caf\xe9\x1b[2J.hxl")).write_bytes(game))
    with zipfile.ZipFile(folder / "club.zip", "w") as archive:
        archive.writestr("m\u00e9\x1b]0;x\x07.hxl", game)
    return folder


def test_names_that_are_not_utf8_are_shown_escaped_in_the_text_report(bad_names):
    run = hexhop("check", ".", "--color", "never", cwd=bad_names)
    assert run.returncode == 1, run.stderr
    assert b"Traceback" not in run.stderr and b"\x1b" not in run.stdout
    lines = run.stdout.decode("utf-8").splitlines()
    assert (
        "./d\\xe9j\\xe0/caf\\xe9\\x1b[2J.hxl:4:30: error SY01 unexpected '\\x1b': expected an "
        "action, a move number, a comment, a variation or the result" in lines
    )
    assert "    | 1. B4W2 {\\x1b[31m} D7W4 9. B8W6 \\x1b[2J *" in lines
    assert "    | " + " " * 32 + "^^^^" in lines
    assert any(
        line.startswith("./club.zip:mé\\x1b]0;x\\x07.hxl:4:30: error SY01") for line in lines
    )


@pytest.mark.parametrize("fmt", ["json", "jsonl", "junit"])
def test_names_that_are_not_utf8_are_replaced_in_the_machine_reports(bad_names, fmt):
    run = hexhop("check", ".", "--format", fmt, cwd=bad_names)
    assert run.returncode == 1 and b"Traceback" not in run.stderr, run.stderr
    text = run.stdout.decode("utf-8")  # valid UTF-8
    if fmt == "junit":
        root = ET.fromstring(text.split("\n", 1)[1])
        paths = [suite.get("name") for suite in root.iter("testsuite")]
    elif fmt == "json":
        paths = [file["path"] for file in json.loads(text)["files"]]
    else:
        paths = [json.loads(line).get("path") for line in text.splitlines()][:-1]
    expected = ["./club.zip:mé\x1b]0;x\x07.hxl", "./d\ufffdj\ufffd/caf\ufffd\x1b[2J.hxl"]
    if fmt == "junit":  # XML cannot hold ESC or BEL either
        expected = [path.replace("\x1b", "\ufffd").replace("\x07", "\ufffd") for path in expected]
    assert sorted(paths) == expected


def test_fmt_messages_show_control_characters_escaped(tmp_path):
    (tmp_path / "noisy\x1b[2J.hxl").write_text(NOISY, "utf-8")
    run = hexhop("fmt", "noisy\x1b[2J.hxl", cwd=tmp_path)
    assert run.returncode == 2
    assert b"\x1b" not in run.stderr and b"\x07" not in run.stderr
    assert run.stderr.decode("utf-8").splitlines() == [
        "noisy\\x1b[2J.hxl:4:30: error SY01 unexpected '\\x1b': expected an action, a move number, "
        "a comment, a variation or the result",
        "noisy\\x1b[2J.hxl: not formatted (fix the errors above first)",
    ]


def test_error_messages_of_every_command_show_control_characters_escaped(tmp_path):
    (tmp_path / "noisy\x1b[2J.hxl").write_text(NOISY, "utf-8")
    for args in (
        ["show", "noisy\x1b[2J.hxl"],
        ["moves", "noisy\x1b[2J.hxl"],
        ["show", "missing\x1b]0;x\x07.hxl"],
        ["convert", "noisy\x1b[2J.hxl", "--to", "json", "--out", "noisy\x1b[2J.hxl"],
    ):
        run = hexhop(*args, cwd=tmp_path)
        # show and moves show the position before the syntax error, with a note
        assert run.returncode in (
            (0,) if args[1] == "noisy\x1b[2J.hxl" and args[0] != "convert" else (1, 2)
        ), (
            args,
            run.stderr,
        )
        assert b"\x1b" not in run.stderr and b"\x07" not in run.stderr, (args, run.stderr)
        assert b"Traceback" not in run.stderr and b"\\x1b" in run.stderr, (args, run.stderr)


def test_printable_escapes_what_a_terminal_would_act_on():
    from hexhop.records.text import printable

    assert printable("a\x1b[2Jb\x07\x9b\u202eé棋\t\n") == "a\\x1b[2Jb\\x07\\x9b\\u202eé棋\\x09\\x0a"
    assert printable(os.fsdecode(b"caf\xe9")) == "caf\\xe9"
    assert printable("\ud800") == "\\ud800"
