"""Every packaged JSON Schema is itself a valid Draft 2020-12 schema.

``authoring.mission.schema.validator`` trusts the packaged schemas (it no longer checks them
against the meta-schema on every run), so this is where a broken schema is caught.
"""

from __future__ import annotations

import json

import jsonschema
import pytest

from authoring._resources import data_dir
from authoring.mission.schema import load_schema, validator

NAMES = sorted(p.name.removesuffix(".schema.json")
               for p in data_dir("schemas").glob("*.schema.json"))


def test_the_schemas_are_found() -> None:
    assert {"mission", "voice", "campaign", "plan", "pack"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_each_packaged_schema_is_a_valid_draft_2020_12_schema(name: str) -> None:
    schema = load_schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert validator(name).schema == schema


def test_a_broken_schema_would_be_caught() -> None:
    broken = {**json.loads(json.dumps(load_schema("mission"))), "type": "mapping"}
    with pytest.raises(jsonschema.SchemaError):
        jsonschema.Draft202012Validator.check_schema(broken)
