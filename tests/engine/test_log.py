"""Tests the resolution output: the log, the JSON mapping and the text report."""

from __future__ import annotations

import json

from authoring.engine import format_result, make_setup, parse_plan, resolve

SETUP = make_setup([(1, "white", "E1-05")], "T1 T2 T3 T4")
PLAN = parse_plan("P1: C - A A\ntokens: white=structural")


def test_log_names_actions_hits_moves_and_tokens() -> None:
    result = resolve(SETUP, PLAN)
    lines = [(e.turn, e.step, e.text) for e in result.log]
    assert (1, "appear", "E1-05 Gunship appears in white (square 11)") in lines
    assert (1, "action", "P1 maintains the computer") in lines
    assert (2, "threat", "Gunship reaches X") in lines
    assert (2, "threat", "white damage token: structural") in lines
    assert (3, "damage", "the white heavy laser targets Gunship (5)") in lines
    assert (4, "damage", "Gunship is destroyed") in lines


def test_to_dict_is_json_ready_and_stable() -> None:
    data = resolve(SETUP, PLAN, trace=True).to_dict()
    assert list(data) == ["outcome", "score", "damage", "threats", "log", "trace"]
    assert data["outcome"] == {"survived": True, "turn": 13, "cause": ""}
    assert data["score"]["total"] == 2
    assert data["damage"] == {"red": [], "white": ["structural"], "blue": []}
    assert data["threats"][0]["fate"] == "destroyed"
    assert len(data["trace"]) == 14
    json.dumps(data)


def test_text_report() -> None:
    text = format_result(resolve(SETUP, PLAN))
    assert "Turn 3\n  [action] P1 fires the heavy laser at UW\n" in text
    assert "Outcome: the ship survived" in text
    assert "  T+1 white E1-05 Gunship: destroyed in turn 4, 4 points" in text
    assert text.rstrip().endswith(
        "Score 2 = threats 4 + visual confirmation 0 - damage 1 - worst zone 1"
        " - knocked out 0 - disabled squads 0")


def test_a_lost_mission_has_no_score() -> None:
    setup = make_setup([(1, "white", "SE2-05")], "T1 T3 T2 T4")
    result = resolve(setup, parse_plan("P1:"))
    assert (result.survived, result.turn, result.score) == (False, 4, None)
    assert result.cause == "Nemesis reached Z"
    assert "Outcome: the ship was destroyed in turn 4 (Nemesis reached Z)" in format_result(result)


def test_the_seed_argument_overrides_the_plan_seed() -> None:
    setup = make_setup([(1, "red", "E1-01")], "T3 T1 T2 T4")
    plan = parse_plan("P1:")
    draws = {resolve(setup, plan, seed=s).damage["red"] for s in range(20)}
    assert len(draws) > 1
    assert resolve(setup, plan, seed=3) == resolve(setup, plan, seed=3)
