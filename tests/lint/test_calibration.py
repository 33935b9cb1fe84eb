"""The stored calibration is what the current engine and crews give (a stale one fails).

The G rules and the pack ratings place a mission on the scale of official missions 1-8 read
from ``authoring/lint/sim/calibration.json``. A change to the engine, a crew or the default
settings changes those figures; this test replays two of the eight (the simulation is
deterministic for a seed, so the figures must match to the digit) and tells how to recompute.
"""

from __future__ import annotations

import pytest

from authoring._resources import data_dir
from authoring.lint.sim.calibration import DEFAULT_SETTINGS, load
from authoring.lint.sim.montecarlo import simulate_with
from authoring.mission import load_mission

RECOMPUTE = "stale calibration: recompute with `python -m authoring.lint.sim.calibration`"


def test_the_stored_settings_are_the_defaults_the_rules_use() -> None:
    assert load()["settings"] == DEFAULT_SETTINGS, RECOMPUTE
    assert sorted(load()["ratings"]) == [f"mission-{n}" for n in range(1, 9)]


@pytest.mark.parametrize("number", [1, 3])
def test_official_missions_rate_as_stored(number: int) -> None:
    mission = load_mission(data_dir("missions") / "official" / f"mission-{number}.yaml")
    rated = round(simulate_with(mission, DEFAULT_SETTINGS).difficulty(), 1)
    assert rated == load()["ratings"][f"mission-{number}"], RECOMPUTE
