"""Message catalogues: read ``.po`` files, write ``.mo`` files, list the
message ids the package's source uses.

The message ids are looked for in the source folders of pyproject.toml's
``package-dir`` (:func:`package_dir`, which setup.py and the type check read
too: the folder map is written only there).

``python -m hexhop.messages`` compiles every
``gettext-catalogues/<lang>/LC_MESSAGES/hexhop.po`` to the ``.mo`` file gettext reads
(GNU ``msgfmt`` gives the same result); ``--pot FILE`` writes a template of
every message id, to start a new language from.  Standard library only.
"""

from __future__ import annotations

import ast
import re
import struct
import sys
from collections.abc import Iterator
from pathlib import Path

# a folder name no Python package can have, so that setuptools packs the
# catalogues as data and does not ask whether they are a package
LOCALE_DIR = Path(__file__).parent / "gettext-catalogues"
DOMAIN = "hexhop"
PACKAGE_ROOT = Path(__file__).resolve().parent.parent
# functions whose first argument is a message id (a string written in place)
MARKERS = frozenset({"_", "N_", "words", "ngettext"})
_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def package_dir(pyproject: Path) -> dict[str, str]:
    """The folders of a checkout by the package each installs as (the
    ``[tool.setuptools] package-dir`` table of ``pyproject``):
    ``{"hexhop": "api", "hexhop.notation": "notation", …}``."""
    text = pyproject.read_text("utf-8")
    if sys.version_info >= (3, 11):
        import tomllib

        table: dict[str, str] = tomllib.loads(text)["tool"]["setuptools"]["package-dir"]
        return table
    # Python 3.10 has no tomllib: the table is one inline line of "a" = "b" pairs
    line = re.search(r"^package-dir\s*=\s*\{(.*)\}\s*$", text, re.MULTILINE)
    if line is None:
        raise ValueError(f"{pyproject}: no package-dir line in [tool.setuptools]")
    return dict(re.findall(r'"([^"]+)"\s*=\s*"([^"]+)"', line.group(1)))


def source_folders(root: Path) -> list[str]:
    """The folders below ``root`` that hold the package's modules: those of
    ``root/pyproject.toml`` in a checkout, else (an installed copy) ``root``
    itself."""
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        return sorted(package_dir(pyproject).values())
    return ["."]


def po_files() -> Iterator[Path]:
    """Every catalogue source of the package."""
    yield from sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def read_po(text: str) -> dict[str, str]:
    """The translations of a ``.po`` file: message id → text (the header
    under ``""``; plural forms joined with NUL, as in a ``.mo`` file).
    Entries marked fuzzy or left empty are not translations."""
    entries: dict[str, str] = {}
    fields: dict[str, str] = {}
    current = ""
    fuzzy = False

    def flush() -> None:
        nonlocal fuzzy
        if "msgid" in fields:
            msgid = fields["msgid"]
            if "msgid_plural" in fields:
                msgid += "\0" + fields["msgid_plural"]
                forms = sorted(k for k in fields if k.startswith("msgstr["))
                text = "\0".join(fields[k] for k in forms)
            else:
                text = fields.get("msgstr", "")
            if text.strip("\0") and not (fuzzy and msgid):
                entries[msgid] = text
        fields.clear()
        fuzzy = False

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                flush()
                fuzzy = True
            continue
        if line.startswith('"'):
            fields[current] += _unquote(line, number)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword == "msgid" and "msgid" in fields:  # the next entry, with no comment between
            flush()
        current = keyword
        fields[current] = _unquote(rest.strip(), number)
    flush()
    return entries


def _unquote(token: str, number: int) -> str:
    if len(token) < 2 or token[0] != '"' or token[-1] != '"':
        raise ValueError(f"line {number}: expected a quoted string, found {token!r}")
    out = []
    chars = iter(token[1:-1])
    for char in chars:
        if char == "\\":
            escaped = next(chars, "\\")
            out.append(_ESCAPES.get(escaped, "\\" + escaped))
        else:
            out.append(char)
    return "".join(out)


def write_mo(entries: dict[str, str]) -> bytes:
    """The ``.mo`` file of ``entries`` (GNU format, little endian, no hash table)."""
    keys = sorted(entries)
    ids = [k.encode("utf-8") for k in keys]
    texts = [entries[k].encode("utf-8") for k in keys]
    count = len(keys)
    start = 7 * 4 + 16 * count  # the header, then both tables of (length, offset)
    table: list[int] = []
    offset = start
    blob = b""
    for data in ids:
        table += [len(data), offset]
        blob += data + b"\0"
        offset += len(data) + 1
    for data in texts:
        table += [len(data), offset]
        blob += data + b"\0"
        offset += len(data) + 1
    head = struct.pack("<7I", 0x950412DE, 0, count, 28, 28 + 8 * count, 0, start)
    return head + struct.pack(f"<{len(table)}I", *table) + blob


def compile_po(po: Path) -> bytes:
    return write_mo(read_po(po.read_text("utf-8")))


def source_ids(root: Path = PACKAGE_ROOT) -> dict[str, str]:
    """Every message id the package's source writes (as the first argument
    of ``_``, ``N_``, ``words`` or ``ngettext``, or a finding template),
    with where it is first written. A plural id is both forms joined with
    NUL (``{n} file\0{n} files``), as :func:`read_po` keys it."""
    found: dict[str, str] = {}
    paths = [
        path for folder in source_folders(root) for path in sorted(root.glob(f"{folder}/**/*.py"))
    ]
    for path in paths:
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            first = node.args[0]
            if name in MARKERS and isinstance(first, ast.Constant) and isinstance(first.value, str):
                msgid = first.value
                second = node.args[1] if len(node.args) > 1 else None
                if name == "ngettext" and isinstance(second, ast.Constant):
                    msgid += "\0" + str(second.value)  # as read_po keys a plural entry
                found.setdefault(msgid, _where(path, root, node.lineno))
            if name == "Entry" and len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
                value = node.args[1].value
                if isinstance(value, str):
                    found.setdefault(value, _where(path, root, node.lineno))
    return dict(sorted(found.items(), key=lambda item: _place(item[1])))


def _place(where: str) -> tuple[str, int]:
    path, _, line = where.rpartition(":")
    return path, int(line)


def _where(path: Path, root: Path, line: int) -> str:
    return f"{path.relative_to(root).as_posix()}:{line}"


def pot(ids: dict[str, str]) -> str:
    """A catalogue template of ``ids``, to translate into a new language."""
    parts = [
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n'
    ]
    for msgid, where in ids.items():
        singular, plural = msgid.partition("\0")[::2]
        if plural:
            parts.append(
                f"#: {where}\nmsgid {_quote(singular)}\nmsgid_plural {_quote(plural)}\n"
                'msgstr[0] ""\nmsgstr[1] ""\n'
            )
        else:
            parts.append(f'#: {where}\nmsgid {_quote(msgid)}\nmsgstr ""\n')
    return "\n".join(parts)


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def main(argv: list[str]) -> int:
    if argv[:1] == ["--pot"] and len(argv) == 2:
        Path(argv[1]).write_text(pot(source_ids()), "utf-8")
        return 0
    if argv:
        print("usage: python -m hexhop.messages [--pot FILE]", file=sys.stderr)
        return 2
    for po in po_files():
        po.with_suffix(".mo").write_bytes(compile_po(po))
        print(f"wrote {po.with_suffix('.mo')}")
    return 0
