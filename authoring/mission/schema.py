"""Validates parsed documents against the packaged JSON Schemas and locates each error.

jsonschema knows JSON paths only; positions come from the ruamel containers through
``Document.locate``. Each error becomes one ``Problem`` of the ``S1`` family, with a message
that says what was expected and, for unknown keys, a pointer at the key itself.

jsonschema is imported by the first validation, not with this module: it is the slowest import
of the mission package, and ``spacealert render`` starts its encoder before it validates.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Iterator, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from authoring._resources import data_dir
from authoring.mission.load import Document
from authoring.mission.problem import Problem
from authoring.mission.timecode import CLOCK_PATTERN, format_clock

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError
    from referencing import Resource

SCHEMA_BASE = "https://spacealert.invalid/schemas/"


def _retrieve(uri: str) -> Resource:
    from referencing import Resource
    from referencing.exceptions import NoSuchResource
    from referencing.jsonschema import DRAFT202012

    # Only our own schemas resolve; nothing ever touches the network.
    if not uri.startswith(SCHEMA_BASE):
        raise NoSuchResource(ref=uri)  # type: ignore[call-arg]
    path = data_dir("schemas") / uri.removeprefix(SCHEMA_BASE)
    if not path.is_file():
        raise NoSuchResource(ref=uri)  # type: ignore[call-arg]
    return Resource.from_contents(json.loads(path.read_text("utf-8")),
                                  default_specification=DRAFT202012)


@cache
def load_schema(name: str) -> dict[str, Any]:
    """Returns the packaged schema ``schemas/<name>.schema.json`` as data."""
    text = (data_dir("schemas") / f"{name}.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def validator(name: str) -> Draft202012Validator:
    """Returns a Draft 2020-12 validator for the packaged schema ``name``.

    The packaged schemas are not checked against the meta-schema here (that took a tenth of
    the validation's time in every command): tests/mission/test_schemas.py checks each one.
    """
    from jsonschema import Draft202012Validator
    from jsonschema.validators import extend
    from referencing import Registry

    schema = load_schema(name)
    registry: Registry[Any] = Registry(retrieve=_retrieve)  # type: ignore[call-arg]
    ecma = extend(Draft202012Validator, {"pattern": _ecma_pattern})  # type: ignore[no-untyped-call]
    validator: Draft202012Validator = ecma(
        schema, registry=registry, format_checker=Draft202012Validator.FORMAT_CHECKER)
    return validator


@cache
def _ecma_regex(pattern: str) -> re.Pattern[str]:
    """``pattern`` with ECMA-262's ``$`` (the end of the string, never before a final newline),
    the regex dialect JSON Schema specifies; Python's ``$`` also matches before a final ``\n``,
    so ``id: "x\n"`` passed ``^[a-z0-9-]+$`` and named a rendered file ``x\n.wav``."""
    out: list[str] = []
    escaped = in_class = False
    for char in pattern:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "[":
            in_class = True
        elif char == "]":
            in_class = False
        elif char == "$" and not in_class:
            out.append(r"\Z")
            continue
        out.append(char)
    return re.compile("".join(out))


def _ecma_pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if isinstance(instance, str) and not _ecma_regex(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, datetime.date):
        return f"date {value.isoformat()}"
    if value is None:
        return "nothing (null)"
    if isinstance(value, int):
        return f"integer {value}"
    if isinstance(value, float):
        return f"number {value}"
    if isinstance(value, str):
        return f"string {value!r}" if len(value) <= 40 else f"string {value[:37]!r}…"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


_TYPE_WORDS = {
    "object": "a mapping", "array": "a list", "string": "a string", "integer": "an integer",
    "number": "a number", "boolean": "true or false", "null": "nothing",
}


def _expected_type(schema_type: Any) -> str:
    types = schema_type if isinstance(schema_type, list) else [schema_type]
    return " or ".join(_TYPE_WORDS.get(str(t), str(t)) for t in types)


def _json_path(path: Sequence[str | int]) -> str:
    out = "$"
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else f".{step}"
    return out


def _leaf_errors(error: ValidationError) -> Iterator[ValidationError]:
    """Descends into anyOf/oneOf contexts to the most relevant concrete error."""
    from jsonschema.exceptions import relevance

    if error.context:
        best = sorted(error.context, key=relevance)[-1]
        yield from _leaf_errors(best)
    else:
        yield error


def _problem_for(doc: Document, error: ValidationError) -> Problem:
    path = list(error.absolute_path)
    kind = error.validator
    instance = error.instance
    hint: str | None = None
    description = (error.schema.get("description")
                   if isinstance(error.schema, dict) else None)
    where = _json_path(path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    if kind in ("additionalProperties", "unevaluatedProperties") and isinstance(instance, dict):
        allowed = set((schema.get("properties") or {}).keys())
        unknown = sorted((str(k) for k in instance if k not in allowed), key=str)
        name = unknown[0] if unknown else "?"
        line, col = doc.locate([*path, name], key=True)
        valid = ", ".join(sorted(allowed - {"$schema"}))
        return Problem(doc.file, line, col, "S101", "unknown-key",
                       f"unknown key {name!r} in {where}: expected one of {valid}",
                       path=_json_path([*path, name]))
    line, col = doc.locate(path)
    if kind == "required":
        missing = re.findall(r"'([^']+)' is a required property", error.message)
        key = missing[0] if missing else "?"
        return Problem(doc.file, line, col, "S103", "missing-key",
                       f"missing key {key!r} in {where}", path=where,
                       hint=_property_help(error.schema, key))
    if kind == "dependentRequired":  # a key that needs another (a bonus its card)
        found = re.findall(r"'([^']+)' is a dependency of '([^']+)'", error.message)
        key, by = found[0] if found else ("?", "?")
        return Problem(doc.file, line, col, "S103", "missing-key",
                       f"missing key {key!r} in {where}: {by!r} needs it", path=where,
                       hint=_property_help(error.schema, key))
    if kind == "type":
        if isinstance(instance, datetime.date):
            hint = f"quote the value: '{instance.isoformat()}'"
        elif schema.get("pattern") == CLOCK_PATTERN and isinstance(instance, int):
            hint = f'write times as quoted m:ss strings, e.g. "{format_clock(instance)}"'
        return Problem(doc.file, line, col, "S102", "wrong-type",
                       f"expected {_expected_type(error.validator_value)} at {where}, "
                       f"got {_describe(instance)}", path=where, hint=hint)
    if kind in ("minProperties", "maxProperties") and path and path[0] == "events":
        keys = [k for k in instance if k != "at"] if isinstance(instance, dict) else []
        got = ", ".join(map(str, keys)) or "none"
        return Problem(doc.file, line, col, "S104", "invalid-value",
                       f"expected exactly one event kind at {where} (threat, incoming_data, "
                       f"data_transfer, comms_down or announcement), got {got}", path=where)
    if kind == "pattern" and error.validator_value == CLOCK_PATTERN:
        return Problem(doc.file, line, col, "S104", "invalid-value",
                       f"invalid time {instance!r} at {where}: expected m:ss such as \"2:05\" "
                       "(minutes 0-59, seconds 00-59)", path=where)
    if kind == "pattern" and isinstance(instance, str):
        expected = description or f"a value matching {error.validator_value}"
        return Problem(doc.file, line, col, "S104", "invalid-value",
                       f"invalid value {instance!r} at {where}: expected {_lower(expected)}",
                       path=where)
    if kind == "enum":
        choices = ", ".join(str(v) for v in list(error.validator_value))  # type: ignore[arg-type]
        return Problem(doc.file, line, col, "S104", "invalid-value",
                       f"invalid value {_describe(instance)} at {where}: expected one of {choices}",
                       path=where)
    if kind in ("minimum", "maximum"):
        bound = "at least" if kind == "minimum" else "at most"
        return Problem(doc.file, line, col, "S104", "invalid-value",
                       f"{_describe(instance)} is out of range at {where}: expected {bound} "
                       f"{error.validator_value}", path=where,
                       hint=description if isinstance(description, str) else None)
    if kind == "const":
        return Problem(doc.file, line, col, "S104", "invalid-value",
                       f"invalid value {_describe(instance)} at {where}: expected "
                       f"{error.validator_value!r}", path=where)
    return Problem(doc.file, line, col, "S100", "schema",
                   f"{_lower(error.message)} at {where}", path=where)


def _lower(text: str) -> str:
    text = text.rstrip(".")
    return text[:1].lower() + text[1:]


def _property_help(schema: Any, key: str) -> str | None:
    prop = (schema.get("properties") or {}).get(key) if isinstance(schema, dict) else None
    text = prop.get("description") if isinstance(prop, dict) else None
    return f"{key}: {text}" if isinstance(text, str) else None


def schema_problems(doc: Document, name: str) -> list[Problem]:
    """Validates ``doc.data`` against schema ``name``; returns every problem, sorted."""
    found: dict[tuple[int, int, str, str], Problem] = {}
    for error in validator(name).iter_errors(doc.data):
        for leaf in _leaf_errors(error):
            problem = _problem_for(doc, leaf)
            found.setdefault((problem.line, problem.col, problem.code, problem.message), problem)
    return sorted(found.values())
