"""The Monte Carlo layer plays its games through any ``concurrent.futures.Executor``, with the
same results as in one process (docs/simulation.md "Beyond one machine")."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

from authoring.mission import load_mission
from authoring.simulation.montecarlo import simulate

MISSION = Path(__file__).resolve().parents[2] / "missions" / "official" / "mission-1.yaml"
OPTIONS = {"styles": 1, "iterations": 200, "seeds": 1}


def test_a_thread_and_a_process_executor_play_the_same_games_as_one_process() -> None:
    mission = load_mission(MISSION)
    alone = simulate(mission, games=12, crew="planner", seed=3, crew_options=OPTIONS)
    with ThreadPoolExecutor(max_workers=3) as threads:
        threaded = simulate(mission, games=12, crew="planner", seed=3, crew_options=OPTIONS,
                            executor=threads)
    with ProcessPoolExecutor(max_workers=2,
                             mp_context=multiprocessing.get_context("spawn")) as processes:
        spread = simulate(mission, games=12, crew="planner", seed=3, crew_options=OPTIONS,
                          executor=processes)
    assert alone.outcomes == threaded.outcomes == spread.outcomes
    assert len(alone.outcomes) == 12
    other = simulate(mission, games=12, crew="planner", seed=4, crew_options=OPTIONS)
    assert other.outcomes != alone.outcomes  # the seed matters, so equality above means something
