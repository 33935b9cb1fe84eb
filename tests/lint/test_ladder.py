"""The sanity ladder every rating must climb (docs/simulation.md "The sanity ladder").

A rating is only worth showing if it orders missions the way the game does. These checks read
the stored calibration (``authoring/simulation/calibration.json``: every crew, the tutorial
simulations and missions 1-8, with dealt hands, in free play and on a second seed) and play a
few controlled variants of Mission 1:

1. the tutorial simulations rate easier than every mission 1-8, for every crew;
2. a mission with more serious threats rates harder (the same mission with a normal threat
   made serious), for every crew;
3. the informed crew is never worse than the planner on the same games: it survives at least
   as often on every track and in every variant, and rates no harder;
4. a rating is stable across seeds: seed 0 and seed 1 agree within their two margins.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from authoring._resources import data_dir
from authoring.mission import load_mission
from authoring.mission.model import Threat
from authoring.simulation.calibration import (
    CREW_SETTINGS,
    OFFICIAL,
    TRACKS,
    TUTORIALS,
    VARIANTS,
    load,
)
from authoring.simulation.montecarlo import simulate_with
from authoring.simulation.rating import rate

CREWS = tuple(CREW_SETTINGS)


def _tracks(crew: str) -> dict[str, dict[str, Any]]:
    tracks: dict[str, dict[str, Any]] = load()["crews"][crew]["tracks"]
    return tracks


@pytest.mark.parametrize("crew", CREWS)
def test_the_tutorial_simulations_rate_easier_than_every_mission(crew: str) -> None:
    tracks = _tracks(crew)
    hardest_tutorial = max(TUTORIALS, key=lambda n: tracks[n]["hands"]["difficulty"])
    easiest_mission = min(OFFICIAL, key=lambda n: tracks[n]["hands"]["difficulty"])
    assert tracks[hardest_tutorial]["hands"]["difficulty"] < \
        tracks[easiest_mission]["hands"]["difficulty"], (hardest_tutorial, easiest_mission)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_informed_crew_is_never_worse_than_the_planner(variant: str) -> None:
    planner, informed = _tracks("planner"), _tracks("informed")
    for name in TRACKS:
        table, knowing = planner[name][variant], informed[name][variant]
        assert knowing["survival"] >= table["survival"], name
        assert knowing["difficulty"] <= table["difficulty"], name


@pytest.mark.parametrize("crew", CREWS)
def test_ratings_are_stable_across_seeds(crew: str) -> None:
    for name, track in _tracks(crew).items():
        zero, one = track["hands"], track["seed 1"]
        assert abs(zero["difficulty"] - one["difficulty"]) <= zero["margin"] + one["margin"], \
            name


#: Games per crew for the controlled variants (the informed crew costs about four planners).
#: Measured on Mission 1 and its variant: planner 32.3 and 42.3 ± 3.2 with 200 games, 32.8
#: and 43.9 ± 5.0 with 80; informed 18.8 and 32.3 ± 6.2 with 60, 17.5 and 41.3 ± 9.8 with 24.
#: The gap (10-24 points) stays over the margin with the smaller counts, which are these.
GAMES = {"heuristic": 300, "planner": 80, "informed": 24}


@pytest.mark.parametrize("crew", CREWS)
def test_a_serious_threat_more_rates_harder(crew: str) -> None:
    mission = load_mission(data_dir("missions") / "official" / "mission-1.yaml")
    events = list(mission.events)
    normal = next(i for i, e in enumerate(events) if isinstance(e, Threat)
                  and not e.serious and not e.unconfirmed and not e.internal)
    events[normal] = dataclasses.replace(events[normal], serious=True)
    harder = dataclasses.replace(mission, id="mission-1-serious", events=tuple(events))
    settings = {**CREW_SETTINGS[crew], "games": GAMES[crew]}
    base = rate(simulate_with(mission, settings, jobs=0), calibrated=False)
    more = rate(simulate_with(harder, settings, jobs=0), calibrated=False)
    assert more.value - more.margin > base.value, (base, more)
