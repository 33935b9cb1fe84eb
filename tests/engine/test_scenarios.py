"""Runs the hand-checked golden scenarios of ``tests/engine/scenarios/*.txt``."""

from __future__ import annotations

import pytest

from authoring.engine.cores import C, available
from tests.engine.golden import compare, compare_campaign, divide, load_scenarios

SCENARIOS = load_scenarios()
# Every scenario on every core this process has: the Python reference and, once built, the
# native (mypyc) and C cores (python -m authoring._native build).
CORES = available()


def test_scenario_ids_are_unique() -> None:
    ids = [s.id for s in SCENARIOS]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_scenario(scenario, core: str) -> None:  # type: ignore[no-untyped-def]
    if scenario.following:  # a campaign: several missions in a row
        if core == C:
            pytest.skip("the C core plays single missions; campaigns run on the Python modules")
        played = scenario.run_campaign(core)
        problems = compare_campaign(scenario, played)
        if problems:
            pytest.fail(f"{scenario.source} {scenario.id}:\n  " + "\n  ".join(problems)
                        + "".join(f"\nmission {m.number} per-turn changes:\n"
                                  + divide(m.result) for m in played.missions), pytrace=False)
        return
    result = scenario.run(core)
    problems = compare(scenario, result)
    if problems:
        pytest.fail(f"{core} core: {scenario.source} {scenario.id}:\n  " + "\n  ".join(problems)
                    + "\nper-turn changes:\n" + divide(result), pytrace=False)


def test_every_card_the_engine_plays_has_a_scenario() -> None:
    from authoring.engine.rules.threats.cards import load_cards

    used = {t[2] for s in SCENARIOS for m in [s, *s.following] for t in m.threats}
    played = {c.id for c in load_cards().values() if c.playable}  # base and expansion
    assert len(played) > 55
    assert sorted(played - used) == []


def test_a_wrong_expectation_is_reported_with_the_turn() -> None:
    from tests.engine.golden import Scenario

    scenario = Scenario(id="x", source="inline", trajectories="T1 T2 T3 T4",
                        threats=[(1, "white", "E1-10")], plan_lines=["P1: A"],
                        expect={"score": "5"}, after={1: "re=2.3.2"})
    problems = compare(scenario, scenario.run())
    assert problems == ["after turn 1: re expected 2.3.2, got 2.2.2",
                        "score: expected 5, got 4"]


def test_divide_shows_what_changed_each_turn() -> None:
    from tests.engine.golden import Scenario

    scenario = Scenario(id="x", source="inline", trajectories="T1 T2 T3 T4",
                        threats=[(1, "white", "E1-10")], plan_lines=["P1: A"])
    lines = divide(scenario.run()).splitlines()
    assert lines[0].startswith("  start: t=0 ")
    assert lines[1] == "  turn  1: re 2.3.2 -> 2.2.2; thr E1-10#1w- -> E1-10#1wx1/d5"
    assert lines[2] == "  turn  2: no change"
