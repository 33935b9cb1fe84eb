"""Hypothesis attacks every reader: mutants of each kind of input, and missions built from
scratch. The property: an input is accepted, or refused with the toolkit's own error that says
where; never another exception. Deterministic (``derandomize``) and bounded (a few hundred
examples in all); ``bench/fuzz.py`` runs the same mutations by the hundred thousand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.harness import HOSTILE, KINDS, mutate, run, seeds

PROFILE = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                   suppress_health_check=[HealthCheck.function_scoped_fixture,
                                          HealthCheck.too_slow, HealthCheck.data_too_large])

OPS = st.lists(st.tuples(st.integers(0, 63), st.integers(0, 1 << 20), st.integers(0, 1 << 20)),
               min_size=1, max_size=4)


@pytest.mark.parametrize("kind", KINDS)
@PROFILE
@given(index=st.integers(0, 1000), ops=OPS)
def test_mutants_are_accepted_or_refused_with_a_location(kind: str, index: int,
                                                         ops: list[tuple[int, int, int]],
                                                         tmp_path: Path) -> None:
    choices = seeds()[kind]
    run(kind, mutate(choices[index % len(choices)].text, ops), tmp_path)


# Values of every JSON type plus the hostile scalars, for documents built from scratch.
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(10**30), 10**30),
                    st.floats(allow_nan=True), st.text(max_size=30),
                    st.sampled_from(["0:10", "3:45", "59:59", "red", "internal", "base"]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
EVENT_KINDS = ["threat", "incoming_data", "data_transfer", "comms_down", "announcement"]
EVENT = st.fixed_dictionaries(
    {"at": st.one_of(st.sampled_from(["0:10", "1:00", "3:44", "9:59"]), VALUES)},
    optional={kind: st.one_of(st.fixed_dictionaries(
        {}, optional={"turn": st.integers(0, 9), "zone": st.sampled_from(
            ["red", "white", "blue", "internal", "green"]), "serious": st.booleans(),
            "unconfirmed": st.booleans(), "seconds": st.integers(-1, 200),
            "text": st.text(max_size=20)}), VALUES) for kind in EVENT_KINDS})
MISSION = st.fixed_dictionaries(
    {"format": st.one_of(st.just(1), VALUES), "id": st.one_of(st.just("built"), VALUES),
     "title": st.one_of(st.just("Built"), VALUES),
     "profile": st.sampled_from(["base", "test-run", "double-action", "x"]),
     "phases": st.one_of(st.just(["3:45", "7:30", "10:00"]), st.lists(VALUES, max_size=4)),
     "events": st.lists(EVENT, max_size=12)},
    optional={"players": st.integers(0, 7), "language": st.sampled_from(["en", "de", "xx"]),
              "tags": VALUES, "author": VALUES, "description": VALUES})


def _as_yaml(data: Any, style: int) -> str:
    """JSON is YAML 1.2; a hostile scalar may replace the first value to mix in YAML forms."""
    text = json.dumps(data, allow_nan=True, indent=None if style % 2 else 2)
    if style % 3 == 0:
        text = text.replace('"at": "0:10"', f'"at": {HOSTILE[style % len(HOSTILE)]}', 1)
    return text


@PROFILE
@given(mission=MISSION, style=st.integers(0, 1000))
def test_built_missions_are_accepted_or_refused_with_a_location(mission: dict[str, Any],
                                                                style: int,
                                                                tmp_path: Path) -> None:
    run("mission", _as_yaml(mission, style), tmp_path)


PS_EVENT = st.fixed_dictionaries(
    {"time": st.one_of(st.integers(-5, 4000), VALUES),
     "event": st.sampled_from(["threat", "incoming_data", "data_transfer",
                               "communications_down", "end_phase", "x"])},
    optional={"t": st.integers(0, 9), "zone": st.sampled_from(["red", "white", "blue",
                                                                 "internal", "x"]),
              "serious": VALUES, "unconfirmed": st.booleans(), "duration": VALUES,
              "phase": st.integers(-1, 5)})


@PROFILE
@given(events=st.lists(PS_EVENT, max_size=25))
def test_built_ps_json_is_accepted_or_refused_with_a_location(events: list[dict[str, Any]],
                                                              tmp_path: Path) -> None:
    run("ps-json", json.dumps(events, allow_nan=True), tmp_path)


ACTION = st.sampled_from(["-", "A", "B", "C", "r", "b", "l", "R", "A+", "B+", "R+", ">LW",
                          "A!", "x", "", "AA"])
PLAN = st.fixed_dictionaries(
    {"format": st.one_of(st.just(1), VALUES), "mission": st.just("cd-mission-1"),
     "seed": st.one_of(st.integers(-5, 2**70), VALUES),
     "crew": st.lists(st.fixed_dictionaries(
         {"label": st.text(max_size=4),
          "actions": st.one_of(st.lists(ACTION, max_size=14).map(" ".join),
                               st.lists(ACTION, max_size=14), VALUES)}), max_size=7)},
    optional={"draw": st.one_of(VALUES, st.fixed_dictionaries(
        {"threats": st.lists(st.sampled_from(["SE1-01", "E1-07", "I1-06", "-", "Z9-99"]),
                             max_size=9)}))})


@PROFILE
@given(plan=PLAN)
def test_built_plans_are_accepted_or_refused_with_a_location(plan: dict[str, Any],
                                                             tmp_path: Path) -> None:
    run("plan", json.dumps(plan, allow_nan=True), tmp_path)


SELECTORS = st.sampled_from(["S", "M", "T", "T106", "overlapping-announcements", "ALL", "Q9",
                             "", "T1", "G"])
LINT_CONFIG = st.fixed_dictionaries(
    {}, optional={"select": st.lists(SELECTORS, max_size=3),
                  "ignore": st.one_of(st.lists(SELECTORS, max_size=3), VALUES),
                  "severity": st.dictionaries(SELECTORS, st.sampled_from(
                      ["info", "warning", "error", "fatal"]), max_size=2),
                  "rules": st.dictionaries(SELECTORS, st.one_of(
                      st.dictionaries(st.sampled_from(["gap_ms", "min_gap", "x"]), VALUES,
                                      max_size=2), VALUES), max_size=2),
                  "profiles": st.dictionaries(st.sampled_from(["base", "test-run", "x"]),
                                              VALUES, max_size=2)})


@PROFILE
@given(config=LINT_CONFIG)
def test_built_lint_configs_are_accepted_or_refused_with_a_location(
        config: dict[str, Any], tmp_path: Path) -> None:
    if {"G", "ALL"} & set(config.get("select", [])):
        config["select"] = ["S"]  # the game rules simulate hundreds of games: too slow here
    run("lint-config", json.dumps(config, allow_nan=True), tmp_path)


FLASH_TOKEN = st.tuples(st.integers(0, 99999), st.sampled_from(
    ["AL2STW", "UR3IT", "AL9TW", "ID", "DT", "CS10", "CS", "PE1", "PE2", "PE3", "PE", "X",
     "AL1SITR", "UR8T", ""])).map(lambda t: f"{t[0]:03d}{t[1]}")


@PROFILE
@given(tokens=st.lists(FLASH_TOKEN, max_size=30), separator=st.sampled_from([",", ", ", ",\n"]))
def test_built_flash_code_is_accepted_or_refused_with_a_location(tokens: list[str],
                                                                 separator: str,
                                                                 tmp_path: Path) -> None:
    run("flash-code", separator.join(tokens), tmp_path)
