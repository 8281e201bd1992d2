"""The library under the command line: ``hexhop.records``
and the other packages work without click; only ``cli/`` uses it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from hexhop.cli.main import cli
from hexhop.records.text import style

ROOT = Path(__file__).resolve().parents[1]
BROKEN = ROOT / "samples" / "broken"


def _package_folders() -> list[Path]:
    """Every folder of the project installed as a package, but the command line."""
    return sorted(
        p.parent
        for p in ROOT.glob("*/__init__.py")
        if p.parent.name not in ("cli", "tests", "benchmarks")
    )


def _imports_click(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import) and any(
            a.name.partition(".")[0] == "click" for a in node.names
        ):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").partition(".")[0] == "click":
            return True
    return False


def test_no_package_but_cli_imports_click():
    folders = _package_folders()
    assert {"records", "notation", "engine", "render"} <= {f.name for f in folders}
    offenders = [
        str(p.relative_to(ROOT))
        for folder in folders
        for p in folder.rglob("*.py")
        if _imports_click(p)
    ]
    assert offenders == []


def test_the_library_imports_without_click():
    """Every module of hexhop.records, imported in a fresh interpreter,
    leaves click unloaded."""
    code = (
        "import importlib, pkgutil, sys\n"
        "import hexhop.records as package\n"
        "for info in pkgutil.iter_modules(package.__path__):\n"
        "    importlib.import_module('hexhop.records.' + info.name)\n"
        "print(sorted(m for m in sys.modules if m.startswith('hexhop.records.')))\n"
        "print('click' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT / "tests", timeout=60
    )
    assert done.returncode == 0, done.stderr
    modules, click_loaded = done.stdout.splitlines()
    assert "hexhop.records.report" in modules and "hexhop.records.codec" in modules
    assert click_loaded == "False"


@pytest.mark.parametrize(
    "styles",
    [
        {"fg": "red", "bold": True},
        {"fg": "yellow", "bold": True},
        {"fg": "green", "bold": True},
        {"bold": True},
    ],
)
def test_the_text_report_colours_as_click_did(styles):
    assert style("E101", **styles) == click.style("E101", **styles)


def test_library_errors_keep_their_messages_and_exit_codes(tmp_path):
    missing = tmp_path / "missing.hxl"
    result = CliRunner().invoke(cli, ["convert", str(missing), "--to", "json"])
    assert (result.exit_code, result.output) == (
        2,
        f"Error: cannot read {missing}: No such file or directory\n",
    )
    result = CliRunner().invoke(cli, ["convert", "-", "--to", "record"], input="[]")
    assert (result.exit_code, result.output) == (
        1,
        "Error: -: not a hexhop record JSON document: $: [] is not of type object\n",
    )
    result = CliRunner().invoke(cli, ["show", str(missing)])
    assert result.exit_code == 2
    assert result.output == f"Error: cannot read {missing}: No such file or directory\n"


def test_a_write_error_exits_with_2(tmp_path):
    """An output folder that is a file: ``cannot write``, status 2."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    record = ROOT / "samples" / "good" / "hexalit-kassel-1998.hxl"
    result = CliRunner().invoke(cli, ["render", str(record), "--out-dir", str(blocker / "pics")])
    assert result.exit_code == 2
    assert result.output.startswith(f"Error: cannot create the folder {blocker / 'pics'}: ")
