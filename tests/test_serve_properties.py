"""A property of the whole web app: random requests to every endpoint,
with hostile text in every query parameter, path segment and JSON field
(Hypothesis), never answer 500 and never write outside the served
folder; what they write into it is a record under a name the editor's
rule allows. Each test counts its requests and prints the count (``-s``).

The budget is ``fuzz_support.examples``: the quick tier runs a few
requests, the full run (``HEXHOP_FUZZ_SCALE=1``, the default) about
2,000, in well under a minute."""

from __future__ import annotations

import json
import os
import string
import subprocess
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
from fuzz_support import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from serve_helpers import client, indexed_archive

from hexhop.serve.editor import Refused, checked_name
from hexhop.serve.search import FIELDS

ROOT = Path(__file__).resolve().parent.parent
REQUESTS = {"count": 0}

# -- hostile text -----------------------------------------------------------------------------

HOSTILE = [
    "",
    " ",
    "0",
    "-1",
    "1e309",
    "99999999999999999999999",
    "\u00b2",  # a superscript two: a digit to isdigit(), not to int()
    "\u0663",  # Arabic-Indic three
    "\u2167",  # Roman numeral eight
    "\x00",
    "\ud800",  # a lone surrogate (JSON can carry one)
    "\u202e\u2066",
    "../../etc/passwd",
    "..%2f..%2fetc",
    "//evil.example/x",
    "/\\evil.example",
    "C:\\Windows",
    "CON",
    "nul.hxl",
    "a\u2215b.hxl",
    "-rf.hxl",
    "*.hxl",
    "<script>alert(1)</script>",
    "'; DROP TABLE games; --",
    "%s%n%x",
    "{}",
    "[]",
    "NaN",
    "8x8",
    "99x99",
    "Hexalit",
    "H\u00fcpfer",
    "Trigeo",
    "B4W3",
    "double 2",
    "a1-c1@d1",
    "N: B4=1; S: E4=1; cube: \u00b2",
    '[Game "Hexalit"]\n\n1. B4W3 *\n',
    '[Game "Hexalit"]\n[Event "\x00"]\n\n1. B4W3 D7W1 *\n',
    "x" * 5000,
    "(1. B4W3) " * 300,
]
# controls, format characters, lone surrogates and digits of every kind, often
odd = st.characters(categories=["Cs", "Cc", "Cf", "Nd", "No", "Nl", "Zs", "Zl", "Po", "Sm"])
text = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(max_size=40),
    st.text(odd, max_size=20),
    st.text(st.characters(codec="utf-8"), max_size=200),
    st.builds(lambda a, b: a + b, st.sampled_from(HOSTILE), st.text(odd, max_size=10)),
)
json_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    text,
)
json_value = st.recursive(
    json_scalar,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=12,
)
cursor = st.one_of(st.lists(st.integers(min_value=-2, max_value=12), max_size=5), json_value)
RECORDS = [
    '[Game "Hexalit"]\n[Result "*"]\n\n1. B4W3 *\n',
    '[Game "Hexalit"]\n[Result "*"]\n\n1. B4W3 D7W1 (1... D7W2) 2. B5W5 *\n',
    '[Game "Trigeo"]\n[Result "*"]\n\n1. C7\u00b0D7 *\n',
    '[Game "H\u00fcpfer"]\n[Board "8x8"]\n[Result "*"]\n\n*\n',
]
record_text = st.one_of(st.sampled_from(RECORDS), text)

# -- the app, and what it may write ----------------------------------------------------------


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """The served archive, its index, and a folder beside it that nothing may touch."""
    root = tmp_path_factory.mktemp("properties")
    arch, db = indexed_archive(root)
    outside = root / "outside"
    outside.mkdir()
    (outside / "keep.hxl").write_text(RECORDS[0], "utf-8")
    return root, Path(os.path.realpath(arch)), db


@pytest.fixture(scope="module")
def app(world):
    _root, arch, db = world
    served = client(db, (arch,))
    served.get("/")
    return served


def tree(root: Path, arch: Path, db: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``root`` but the served folder and the index (which
    a save brings up to date): its size and modification time."""
    found = {}
    for path in root.rglob("*"):
        if path.is_relative_to(arch) or path.name.startswith(db.name):
            continue
        info = path.lstat()
        found[str(path.relative_to(root))] = (info.st_size, info.st_mtime_ns)
    return found


def worktree_changes() -> str:
    done = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout


@pytest.fixture(scope="module")
def guarded(world):
    """The tree outside the served folder (and the checkout) before the
    requests, compared after all of them."""
    root, arch, db = world
    before, checkout = tree(root, arch, db), worktree_changes()
    served = {str(p) for p in arch.rglob("*")}
    yield
    assert tree(root, arch, db) == before
    assert worktree_changes() == checkout
    games = {".hxl": "Hexalit", ".trg": "Trigeo", ".hpf": "Hüpfer"}
    written = sorted(p for p in arch.rglob("*") if str(p) not in served)
    print(f"\nthe saves wrote {len(written)} files into the served folder")
    for path in written:  # records, in the folder itself, under names the rule allows
        assert path.parent == arch and path.is_file() and path.suffix in games, path
        try:
            assert checked_name(path.name, games[path.suffix]) == path.name
        except Refused as refused:
            pytest.fail(f"{path.name}: {refused.message}")


def answer(app, method: str, url: str, **kwargs) -> None:
    """One request: never a 500, never a traceback in the answer."""
    REQUESTS["count"] += 1
    response = app.request(method, url, **kwargs)
    assert response.status_code < 500, (method, url, kwargs, response.text[:500])
    assert "Traceback" not in response.text, (method, url)


def report(name: str, before: int) -> None:
    print(f"\n{name}: {REQUESTS['count'] - before} requests, {REQUESTS['count']} in all")


# -- the endpoints --------------------------------------------------------------------------

PAGES = ["/players/{}", "/events/{}", "/games/{}", "/games/{}/record", "/boards/{}.css"]
PAGES += ["/static/{}", "/{}", "/players/{}/{}", "/games/1/{}"]
QUERY_NAMES = [*FIELDS, "sort", "page", "lang", "q", "token"]
segment = st.one_of(text, st.integers(min_value=-5, max_value=10**20).map(str))


@given(
    page=st.sampled_from(["/", "/players", "/events", "/editor"]),
    query=st.dictionaries(st.sampled_from(QUERY_NAMES + ["from", "game", "board"]), text),
)
def _query_pages(app, page, query) -> None:
    answer(app, "GET", page + "?" + urlencode(query, errors="surrogatepass"))


@given(template=st.sampled_from(PAGES), values=st.lists(segment, min_size=2, max_size=2))
def _path_pages(app, template, values) -> None:
    parts = [quote(v, safe="", errors="surrogatepass") for v in values]
    answer(app, "GET", template.format(*parts[: template.count("{}")]))


SETUP = ["game", "board", "position", "cell", "piece", "turn", "start", "lang"]


@given(query=st.dictionaries(st.sampled_from(SETUP), text))
def _position_setup(app, query) -> None:
    answer(app, "GET", "/api/position/setup?" + urlencode(query, errors="surrogatepass"))


EDITOR = ["state", "new", "play", "takeback", "variation", "comment", "tags", "save"]
FIELD_VALUES = {
    "text": record_text,
    "cursor": cursor,
    "action": st.one_of(st.sampled_from(["B4W3", "D7W1", "double 2", "take", "a1-c1"]), text),
    "comment": text,
    "tags": st.one_of(st.dictionaries(text, text, max_size=3), json_value),
    "game": st.one_of(st.sampled_from(["Hexalit", "Trigeo", "Hüpfer"]), text),
    "folder": st.one_of(st.sampled_from([0, "0", 1, -1]), json_value),
    "name": st.one_of(st.sampled_from(HOSTILE), text),
    "branch": json_value,
    "at": st.one_of(st.just("end"), json_value),
}


@st.composite
def editor_body(draw) -> dict:
    names = draw(st.lists(st.sampled_from(sorted(FIELD_VALUES)), unique=True, max_size=6))
    body = {name: draw(FIELD_VALUES[name]) for name in names}
    if draw(st.booleans()):  # most requests carry the fields the endpoint reads
        body.setdefault("text", draw(record_text))
        body.setdefault("cursor", [0])
    return body


@given(endpoint=st.sampled_from(EDITOR), body=st.one_of(editor_body(), json_value))
def _editor_api(app, endpoint, body) -> None:
    content = json.dumps(body)  # ASCII: a lone surrogate travels as its escape
    headers = {"X-CSRF-Token": app.cookies["hexhop_csrf"], "Content-Type": "application/json"}
    answer(app, "POST", f"/api/editor/{endpoint}", content=content, headers=headers)


@given(
    tags=st.dictionaries(st.sampled_from(["Event", "Site", "Date", "North", "South"]), text),
    name=st.one_of(st.sampled_from(HOSTILE), text, st.just("")),
    record=st.sampled_from(RECORDS),
    folder=st.sampled_from([0, "0", 0, 1]),
)
def _editor_save(app, tags, name, record, folder) -> None:
    """Saves that may well pass: a good record, a tag set, a hostile name."""
    headers = {"X-CSRF-Token": app.cookies["hexhop_csrf"], "Content-Type": "application/json"}
    state = {"text": record, "cursor": [], "tags": tags}
    tagged = app.post("/api/editor/tags", content=json.dumps(state), headers=headers)
    REQUESTS["count"] += 1
    assert tagged.status_code < 500, tagged.text[:500]
    text = tagged.json().get("text", record) if tagged.status_code == 200 else record
    body = json.dumps({"text": text, "folder": folder, "name": name})
    answer(app, "POST", "/api/editor/save", content=body, headers=headers)


@given(endpoint=st.sampled_from(EDITOR), raw=st.binary(max_size=300))
def _editor_bytes(app, endpoint, raw) -> None:
    headers = {"X-CSRF-Token": app.cookies["hexhop_csrf"], "Content-Type": "application/json"}
    answer(app, "POST", f"/api/editor/{endpoint}", content=raw, headers=headers)


@given(
    method=st.sampled_from(["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]),
    url=st.sampled_from(["/", "/games/1", "/api/editor/save", "/editor", "/players"]),
    headers=st.dictionaries(
        st.sampled_from(["Origin", "Host", "X-CSRF-Token", "Content-Type", "Cookie"]),
        st.text(st.sampled_from(string.printable.strip() + " "), max_size=40),
    ),
)
def _any_method(app, method, url, headers) -> None:
    answer(app, method, url, headers=headers)


CASES = {
    "query parameters of the pages": (_query_pages, 400),
    "path segments": (_path_pages, 400),
    "the position set up by clicks": (_position_setup, 200),
    "the editor's JSON": (_editor_api, 1200),
    "the editor's saves": (_editor_save, 300),
    "the editor's bytes": (_editor_bytes, 150),
    "methods and headers": (_any_method, 150),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_random_requests_never_answer_500_nor_write_outside(app, guarded, case) -> None:
    work, budget = CASES[case]
    before = REQUESTS["count"]
    settings(max_examples=examples(budget))(work)(app)
    report(case, before)
    assert REQUESTS["count"] - before >= examples(budget) // 2
