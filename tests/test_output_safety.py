"""Record data in output: escaped in SVG, HTML and JUnit; never a file name
outside the output folder; PNG rendering fetches nothing."""

from __future__ import annotations

import builtins
import io
import urllib.request
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from click.testing import CliRunner

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
    '\n'
    '1. B6XC6 {</span><script>alert(2)</script>} E8XD8 *\n'
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
    result = invoke("render", str(record), "--format", "png", "--plies", "0,2",
                    "--out", str(out))
    assert result.exit_code == 0, result.output
    assert not spy.touched_passwd()
    passwd = Path("/etc/passwd").read_bytes()[:32]
    for picture in sorted(out.glob("*.png")):
        data = picture.read_bytes()
        assert data.startswith(b"\x89PNG") and passwd not in data


@pytest.mark.parametrize("payload", [
    f'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">{IMAGE}</svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
    'width="10" height="10"><image xlink:href="file:///etc/passwd"/>'
    '<use xlink:href="file:///etc/passwd#x"/>'
    '<style>@import url("file:///etc/passwd");</style></svg>',
    '<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&xxe;</text></svg>',
])
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
    invoke("render", str(record), "--plies", "0,1", "--out", str(out))
    for picture in sorted(out.glob("*.svg")):
        root = ET.parse(picture).getroot()
        tags = {node.tag.removeprefix(SVG_NS) for node in root.iter()}
        assert not tags & {"image", "script", "use", "foreignObject"}
        title = root.find(f"{SVG_NS}title")
        assert title is not None and IMAGE in title.text


def test_html_page_escapes_every_record_text(record, tmp_path):
    out = tmp_path / "html"
    invoke("render", str(record), "--format", "html", "--out", str(out))
    page = (out / "game1.html").read_text("utf-8")
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
        for name in ("../../../escaped.hxl", "/abs/rooted.hxl", "a/../../up.hxl",
                     "..\\..\\win.hxl", "ok.hxl"):
            out.writestr(name, game)
    out_dir = tmp_path / "deep" / "out"
    for fmt in ("svg", "html"):
        invoke("render", str(archive), "--format", fmt, "--plies", "0", "--out", str(out_dir),
               "--force")
    written = [p for p in tmp_path.rglob("*") if p.is_file() and p != archive]
    assert written
    for path in written:
        assert out_dir.resolve() in path.resolve().parents
