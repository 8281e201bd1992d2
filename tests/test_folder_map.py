"""The folder → package map is written once, in pyproject.toml.

setup.py, messages/catalogue.py, .ci/typecheck, the import-graph test and
benchmarks/build_cython.py read it from there (through
:func:`hexhop.messages.catalogue.package_dir`); a list of every source folder
written out anywhere else in the project's code fails here.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from hexhop.messages.catalogue import package_dir, source_folders

ROOT = Path(__file__).resolve().parent.parent
TABLE = package_dir(ROOT / "pyproject.toml")
# the folders that install as hexhop.<name>: "api" (hexhop itself) is too
# common a word to tell a map by
NAMES = sorted(folder for package, folder in TABLE.items() if package != "hexhop")
# a folder's name as a word of code: quoted, or in a regular expression's \(a\|b\)
WORD = re.compile(r"""(?<=["'|(])(""" + "|".join(NAMES) + r""")(?=["'|)\\])""")
WINDOW = 400  # characters that one written map spans at the most


def written_maps(text: str) -> list[int]:
    """The offsets where every folder of :data:`NAMES` is written as a word
    within :data:`WINDOW` characters."""
    found = [(m.start(), m.group(1)) for m in WORD.finditer(text)]
    starts = []
    for i, (start, _) in enumerate(found):
        near = {name for offset, name in found[i:] if offset - start <= WINDOW}
        if near == set(NAMES) and (not starts or start - starts[-1] > WINDOW):
            starts.append(start)
    return starts


def test_the_map_is_read_from_pyproject() -> None:
    expected = {"hexhop": "api", **{f"hexhop.{name}": name for name in NAMES}}
    assert package_dir(ROOT / "pyproject.toml") == expected
    assert NAMES == [
        "archive",
        "cli",
        "engine",
        "messages",
        "notation",
        "records",
        "render",
        "serve",
    ]
    assert source_folders(ROOT) == ["api", *NAMES]


def test_the_finder_sees_a_map_in_each_spelling() -> None:
    python = (
        'FOLDERS = ("notation", "engine", "render", "records", "cli", "messages", "archive", '
        '"serve")'
    )
    shell = r"s#hexhop/\(notation\|engine\|render\|records\|cli\|messages\|archive\|serve\)/#\1/#"
    split = "\n".join(f"    '{name}'," for name in NAMES)
    assert [written_maps(text) for text in (python, shell, split)] == [[12], [11], [5]]
    assert written_maps('LAYERS = ("notation", "engine", "render", "records", "cli", "api")') == []


def test_no_other_file_writes_the_map() -> None:
    files = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    kinds = (".py", ".sh", ".toml", ".cfg", ".yaml", ".yml")
    code = [
        name
        for name in files
        if name not in ("pyproject.toml", "tests/test_folder_map.py")  # (its examples)
        and not name.startswith("tests/corpus/")
        and (name.endswith(kinds) or name.startswith(".ci/") or "/" not in name)
    ]
    assert "setup.py" in code and ".ci/typecheck" in code
    maps = {
        name: offsets
        for name in code
        if (ROOT / name).is_file()
        and (offsets := written_maps((ROOT / name).read_text("utf-8", errors="replace")))
    }
    assert maps == {}
