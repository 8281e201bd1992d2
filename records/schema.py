"""Check a JSON document against hexhop's published schemas.

Only the JSON Schema keywords those schemas use are understood; any other
keyword is refused, so that a schema that grows one cannot be checked
less than it says.
"""

from __future__ import annotations

import functools
import json
import re
from importlib import resources
from typing import Any

from hexhop.notation.errors import Error

_ANNOTATIONS = {"$schema", "$id", "title", "description", "$defs"}
_TYPES: dict[str, type] = {
    "object": dict,
    "array": list,
    "string": str,
    "null": type(None),
    "boolean": bool,
}

#: A JSON Schema, or a part of one, as json.loads gives it.
Schema = dict[str, Any]


class SchemaError(Error, ValueError):
    """Where (a JSON path such as ``$.games[0].tags``) and how a document
    breaks its schema."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where


@functools.cache
def load(name: str) -> Schema:
    """A schema shipped with hexhop, e.g. ``record.schema.json``."""
    schema: Schema = json.loads(resources.files("hexhop.records").joinpath(name).read_text("utf-8"))
    return schema


def validate(doc: Any, name: str) -> None:
    """Raise :class:`SchemaError` for the first place where ``doc`` breaks
    the shipped schema ``name``."""
    schema = load(name)
    _check(doc, schema, "$", schema)


def _check(value: Any, schema: Schema, where: str, root: Schema) -> None:
    for key, rule in schema.items():
        if key in _ANNOTATIONS:
            continue
        check = _KEYWORDS.get(key)
        if check is None:
            raise NotImplementedError(f"the JSON Schema keyword {key!r} is not supported")
        check(value, rule, schema, where, root)


def _is(value: Any, kind: str) -> bool:
    if isinstance(value, bool):  # in Python, True is also an int
        return kind == "boolean"
    if kind == "integer":
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if kind == "number":
        return isinstance(value, (int, float))
    return isinstance(value, _TYPES[kind])


def _type(value: Any, rule: Any, schema: Schema, where: str, root: Schema) -> None:
    kinds = [rule] if isinstance(rule, str) else rule
    if not any(_is(value, kind) for kind in kinds):
        raise SchemaError(where, f"{_show(value)} is not of type {' or '.join(kinds)}")


def _const(value: Any, rule: Any, schema: Schema, where: str, root: Schema) -> None:
    if not _same(value, rule):
        raise SchemaError(where, f"{_show(value)} is not {json.dumps(rule)}")


def _enum(value: Any, rule: list[Any], schema: Schema, where: str, root: Schema) -> None:
    if not any(_same(value, choice) for choice in rule):
        shown = ", ".join(json.dumps(choice, ensure_ascii=False) for choice in rule)
        raise SchemaError(where, f"{_show(value)} is not one of {shown}")


def _same(value: Any, expected: Any) -> bool:
    return value == expected and isinstance(value, bool) == isinstance(expected, bool)


def _required(value: Any, rule: list[Any], schema: Schema, where: str, root: Schema) -> None:
    if isinstance(value, dict):
        for name in rule:
            if name not in value:
                raise SchemaError(where, f"{name!r} is missing")


def _properties(value: Any, rule: Schema, schema: Schema, where: str, root: Schema) -> None:
    if isinstance(value, dict):
        for name, sub in rule.items():
            if name in value:
                _check(value[name], sub, f"{where}.{name}", root)


def _additional(value: Any, rule: Any, schema: Schema, where: str, root: Schema) -> None:
    if not isinstance(value, dict):
        return
    for name in value:
        if name in schema.get("properties", {}):
            continue
        if rule is False:
            raise SchemaError(where, f"{name!r} is not expected here")
        if isinstance(rule, dict):
            _check(value[name], rule, f"{where}.{name}", root)


def _items(value: Any, rule: Schema, schema: Schema, where: str, root: Schema) -> None:
    if isinstance(value, list):
        first = len(schema.get("prefixItems", ()))
        for index in range(first, len(value)):
            _check(value[index], rule, f"{where}[{index}]", root)


def _prefix_items(value: Any, rule: list[Any], schema: Schema, where: str, root: Schema) -> None:
    if isinstance(value, list):
        for index, (item, sub) in enumerate(zip(value, rule, strict=False)):
            _check(item, sub, f"{where}[{index}]", root)


def _min_items(value: Any, rule: int, schema: Schema, where: str, root: Schema) -> None:
    if isinstance(value, list) and len(value) < rule:
        raise SchemaError(where, f"has {len(value)} items, fewer than {rule}")


def _max_items(value: Any, rule: int, schema: Schema, where: str, root: Schema) -> None:
    if isinstance(value, list) and len(value) > rule:
        raise SchemaError(where, f"has {len(value)} items, more than {rule}")


def _minimum(value: Any, rule: int, schema: Schema, where: str, root: Schema) -> None:
    if _is(value, "number") and value < rule:
        raise SchemaError(where, f"{_show(value)} is less than {rule}")


def _pattern(value: Any, rule: str, schema: Schema, where: str, root: Schema) -> None:
    if isinstance(value, str) and not re.search(rule, value):
        raise SchemaError(where, f"{_show(value)} does not match {rule}")


def _one_of(value: Any, rule: list[Any], schema: Schema, where: str, root: Schema) -> None:
    passed = 0
    for sub in rule:
        try:
            _check(value, sub, where, root)
        except SchemaError:
            continue
        passed += 1
    if passed != 1:
        raise SchemaError(where, f"{_show(value)} matches {passed} of the allowed forms, not 1")


def _ref(value: Any, rule: str, schema: Schema, where: str, root: Schema) -> None:
    document, _, pointer = rule.partition("#")
    if document:
        root = load(document)
    target: Any = root
    for part in pointer.strip("/").split("/") if pointer.strip("/") else ():
        target = target[part]
    _check(value, target, where, root)


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


_KEYWORDS = {
    "type": _type,
    "const": _const,
    "enum": _enum,
    "required": _required,
    "properties": _properties,
    "additionalProperties": _additional,
    "items": _items,
    "prefixItems": _prefix_items,
    "minItems": _min_items,
    "maxItems": _max_items,
    "minimum": _minimum,
    "pattern": _pattern,
    "oneOf": _one_of,
    "$ref": _ref,
}
