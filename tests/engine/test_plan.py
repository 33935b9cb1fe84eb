"""Tests the crew plan model, its one-line-per-player notation and the plan-file mapping."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from ruamel.yaml import YAML

from authoring.engine import Plan, PlanError, make_setup, parse_plan, resolve
from authoring.engine.rules.plan import (
    BLANK,
    BOTS,
    DOUBLE_PAIRS,
    HMOVE,
    LIFT,
    RED,
    A,
    decode,
    encode,
    parse_action,
)

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "plan.schema.json").read_text(encoding="utf-8"))


def test_tokens_parse() -> None:
    assert parse_action("-").kind == BLANK
    assert parse_action("l").kind == LIFT
    assert parse_action("A+").heroic and parse_action("A+").kind == A
    assert parse_action("R").kind == BOTS
    move = parse_action(">LW!")
    assert (move.kind, move.target, move.tripped) == (HMOVE, 4, True)


@pytest.mark.parametrize("token", ["X", "a", "C+", ">XX", "-!", "ABC", "A+B", "rA+"])
def test_unknown_token_is_rejected(token: str) -> None:
    with pytest.raises(PlanError, match=r"^expected an action|^expected a card"):
        parse_action(token)


def test_double_actions_are_the_36_faces_in_order() -> None:
    # docs/rules.md §19.2: the first half first; the deck's 36 faces, each tripped too
    assert len(DOUBLE_PAIRS) == len(set(DOUBLE_PAIRS)) == 36
    action = parse_action("rA!")
    assert (action.kind, action.second, action.tripped, action.heroic) == (RED, A, True, False)
    assert action.token() == "rA!" and decode(encode(action)) == action
    for pair in DOUBLE_PAIRS:
        assert parse_action(pair).token() == pair
    refused = [a + b for a in "rblABCR" for b in "rblABCR" if a + b not in DOUBLE_PAIRS]
    assert sorted(refused) == sorted(["AA", "BB", "CC", "RR", "ll", "AR", "BR", "CR", "CB", "lr",
                                      "lb", "rb", "br"])
    for pair in refused:
        with pytest.raises(PlanError, match="expected a double action of the expansion's cards"):
            parse_action(pair)


def test_double_actions_play_only_on_double_action_tracks() -> None:
    plan = parse_plan("P1: rA\nP2: -")
    with pytest.raises(PlanError, match=r"double-action cards are played only on double-action "
                                        r"tracks .*'rA' for P1 in turn 1"):
        resolve(make_setup([], "T1 T2 T3 T4"), plan)
    assert resolve(make_setup([], "T1 T2 T3 T4", double_actions=True), plan).survived
    assert parse_plan(plan.text()) == plan


def test_thirteen_slots_are_rejected() -> None:
    with pytest.raises(PlanError, match="expected at most 12 actions for P1, got 13"):
        parse_plan("P1: " + "A " * 13)


def test_two_heroic_cards_are_rejected() -> None:
    with pytest.raises(PlanError, match="at most 1 heroic card"):
        parse_plan("P1: A+ B+")


def test_android_cannot_trip() -> None:
    with pytest.raises(PlanError, match="no tripped card for android A1"):
        parse_plan("A1: A!")


def test_wrong_crew_size_for_players_is_rejected() -> None:
    setup = make_setup([], "T1 T2 T3 T4", players=4)
    with pytest.raises(ValueError, match=r"expected 4 or 5 crew members .* for 4 players, got 3"):
        resolve(setup, parse_plan("P1:\nP2:\nP3:"))


def test_text_round_trip() -> None:
    text = "P1: r A l B - C\nP2: >LW A - R!\nA1:\nseed: 7\ndraw: E1-07 - SE2-03\n" \
           "trajectories: T1 T2 T3 T4\ntokens: white=shield,structural\n"
    plan = parse_plan(text)
    assert parse_plan(plan.text()) == plan
    assert plan.crew[0].line() == "P1: r A l B - C"


def test_mapping_round_trip_and_schema() -> None:
    plan = parse_plan("P1: r A l B - C\nP2: >LW A\nA1:\nseed: 3\ntrajectories: T7 T6 T4 T3")
    data = plan.to_mapping()
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    assert Plan.from_mapping(data) == plan


def test_the_schema_takes_exactly_the_double_action_faces() -> None:
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for pair in DOUBLE_PAIRS:
        data = parse_plan(f"P1: {pair} {pair}! -\nP2: -").to_mapping()
        validator.validate(data)
        data["crew"][1] = [pair, pair + "!"]  # the list form too
        validator.validate(data)
    for refused in ("AA", "CB", "rA+", "ABC"):
        assert not validator.is_valid({"format": 1, "crew": [f"- {refused}"]}), refused
        assert not validator.is_valid({"format": 1, "crew": [["-", refused]]}), refused


def test_plan_schema_is_valid_and_described() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$id"].startswith("https://spacealert.invalid/schemas/")


def test_example_plan_file_validates_and_resolves() -> None:
    path = ROOT / "tests" / "engine" / "plans" / "example-4p.yaml"
    data = YAML(typ="safe").load(path.read_text())
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    plan = Plan.from_mapping(data)
    setup = make_setup([(1, "blue", "E1-09"), (3, "red", "SE2-03"), (4, "internal", "SI2-01"),
                        (5, "white", "E1-06"), (7, "red", "E1-01"), (8, "white", "E2-02")],
                       "T7 T6 T4 T3", players=4)
    result = resolve(setup, plan)
    assert result.score is not None and result.score.total == 41


def test_from_mapping_rejects_bad_input() -> None:
    with pytest.raises(PlanError, match="expected keys"):
        Plan.from_mapping({"crew": ["A"], "colour": 1})
    with pytest.raises(PlanError, match="expected an integer seed"):
        Plan.from_mapping({"crew": ["A"], "seed": "x"})
    with pytest.raises(PlanError, match="expected 1 to 5 crew members, got 6"):
        Plan.from_mapping({"crew": ["A"] * 6})
    with pytest.raises(PlanError, match="expected four different trajectories"):
        Plan.from_mapping({"crew": ["A"], "draw": {"trajectories": {
            "red": "T1", "white": "T1", "blue": "T2", "internal": "T3"}}})
