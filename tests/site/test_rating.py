"""Difficulty by simulation: labels against the official range, failures become notes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from authoring.mission import load_mission
from authoring.mission.model import Threat
from authoring.simulation.calibration import DEFAULT_CREW, official_range
from authoring.simulation.rating import Rating, rate_mission, wilson
from tests.site.helpers import DATA


@pytest.mark.parametrize(("value", "label"), [(49.9, "easy"), (50.0, "moderate"),
                                              (60.0, "hard"), (70.0, "hard"),
                                              (70.1, "extreme")])
def test_labels_follow_the_official_range(value: float, label: str) -> None:
    assert Rating(value, 5.0, 60.0, 70.0, 0.5, (0.3, 0.7), 20, "planner").label == label


def test_a_mission_is_rated_on_the_official_scale(fewer_games: Callable[[int], None]) -> None:
    # the default crew and scale, fewer games (500 take seconds: bench/rating.py)
    fewer_games(40)
    mission = load_mission(DATA / "first-watch.yaml")
    rating, note = rate_mission(mission)
    assert note == ""
    assert rating is not None
    assert 0 <= rating.value <= 100
    assert (rating.low, rating.high) == official_range(DEFAULT_CREW)
    assert (rating.games, rating.crew) == (40, DEFAULT_CREW)
    assert 0 <= rating.survival <= 1
    low, high = rating.survival_interval
    assert low <= rating.survival <= high
    # an interval that says how far 40 games can be trusted
    assert 2 < rating.margin < 30


def test_missions_that_cannot_be_simulated_get_a_note() -> None:
    mission = load_mission(DATA / "first-watch.yaml")
    assert rate_mission(replace(mission, events=())) == (None, "no threats to rate")

    # a test run plays at rule level 1, which has no serious threats: the engine refuses it
    serious_test_run = replace(mission, profile="test-run", phases=(220, 420),
                               events=(Threat(10, 1, "red", serious=True),))
    rating, why = rate_mission(serious_test_run)
    assert rating is None
    assert why.startswith("cannot simulate the mission: expected no serious threat at rule "
                          "level 1")


@pytest.mark.parametrize(("successes", "trials", "expected"), [
    (0, 20, (0.0, 0.1611)), (10, 20, (0.2993, 0.7007)), (20, 20, (0.8389, 1.0)),
    (1, 1, (0.2065, 1.0)), (0, 0, (0.0, 1.0)),
])
def test_survival_intervals_are_wilson_intervals(successes: int, trials: int,
                                                 expected: tuple[float, float]) -> None:
    # reference values: Wilson's score interval at z = 1.96, worked by hand
    low, high = wilson(successes, trials)
    assert (round(low, 4), round(high, 4)) == expected
