"""Runs the hand-checked golden scenarios of ``tests/engine/scenarios/*.txt``."""

from __future__ import annotations

import pytest
from golden import compare, divide, load_scenarios

SCENARIOS = load_scenarios()


def test_scenario_ids_are_unique() -> None:
    ids = [s.id for s in SCENARIOS]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_scenario(scenario) -> None:  # type: ignore[no-untyped-def]
    result = scenario.run()
    problems = compare(scenario, result)
    if problems:
        pytest.fail(f"{scenario.source} {scenario.id}:\n  " + "\n  ".join(problems)
                    + "\nper-turn notation:\n" + divide(result), pytrace=False)
