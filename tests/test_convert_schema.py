"""``convert --to record`` checks its JSON against the published schema
first: a wrong type is a message naming the JSON path,
never a traceback."""

from __future__ import annotations

import copy
import json
import os
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_commands import record_validator

from hexhop.cli.main import cli
from hexhop.records.schema import SchemaError, validate

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "good" / "hexalit-kassel-1998.hxl"


@pytest.fixture(scope="module")
def doc() -> dict:
    result = CliRunner().invoke(cli, ["convert", str(SAMPLE), "--to", "json"])
    return json.loads(result.output)


def _back(doc: dict):
    return CliRunner().invoke(cli, ["convert", "-", "--to", "record"], input=json.dumps(doc))


@pytest.mark.parametrize(
    "where,path",
    [
        (lambda d: d["games"][0]["moves"][1], "$.games[0].moves[1].comments[0]"),
        (lambda d: d["games"][0], "$.games[0].comments[0]"),
    ],
)
def test_a_comment_that_is_not_a_string(doc, where, path):
    bad = copy.deepcopy(doc)
    where(bad)["comments"] = [5]
    result = _back(bad)
    assert (result.exit_code, result.output) == (
        1,
        f"Error: -: not a hexhop record JSON document: {path}: 5 is not of type string\n",
    )


def test_the_shipped_schemas_are_the_published_ones():
    """Each schema is one file, shipped in hexhop.records; docs/ links to it."""
    for name in ("record.schema.json", "check-report.schema.json"):
        published = ROOT / "docs" / name
        assert published.is_symlink() and os.readlink(published) == f"../records/{name}"
        assert published.read_bytes() == (ROOT / "records" / name).read_bytes()


def test_a_keyword_the_checker_does_not_know_is_refused(monkeypatch):
    from hexhop.records import schema as json_schema

    monkeypatch.setattr(json_schema, "load", lambda name: {"uniqueItems": True})
    with pytest.raises(NotImplementedError, match="uniqueItems"):
        validate([], "any")


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, path + (index,))


def test_the_checker_agrees_with_jsonschema_on_mutated_documents(doc):
    """Seeded mutations of a real document: both checkers accept or refuse."""
    reference = record_validator()
    small = copy.deepcopy(doc)
    small["games"][0]["moves"] = small["games"][0]["moves"][:6]
    paths = [p for p in _paths(small) if p]
    values = [5, -1, 0, 1.5, 2.0, "x", "", None, True, [], {}, ["a", "b"], [5], {"x": 1}]
    rng = random.Random(12)
    refused = 0
    for _ in range(400):
        mutated = copy.deepcopy(small)
        path = rng.choice(paths)
        parent = mutated
        for part in path[:-1]:
            parent = parent[part]
        if rng.random() < 0.15 and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = copy.deepcopy(rng.choice(values))
        expected = next(iter(reference.iter_errors(mutated)), None)
        try:
            validate(mutated, "record.schema.json")
        except SchemaError:
            refused += 1
            assert expected is not None, path
        else:
            assert expected is None, (path, expected.message)
    assert refused > 100
