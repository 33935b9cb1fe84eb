"""Simulation: crew models, Monte Carlo play, ratings and the official calibration.

Above the engine and under everything that shows a simulated figure (lint's G rules,
``simulate``, ``sheets --rate``, pack pages). The names below load on first use, so that a
module that only holds a ``Rating`` (the site's model) does not load the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from authoring.simulation.heuristic import HeuristicCrew
    from authoring.simulation.montecarlo import (
        CREW_SIMPLIFICATION,
        CREWS,
        GameOutcome,
        SimulationStats,
        make_crew,
        simulate,
    )
    from authoring.simulation.planner import PlanningCrew
    from authoring.simulation.rating import Rating, rate, rate_mission

_LAZY = {
    "HeuristicCrew": "heuristic", "PlanningCrew": "planner", "CREW_SIMPLIFICATION": "montecarlo",
    "CREWS": "montecarlo", "GameOutcome": "montecarlo", "SimulationStats": "montecarlo",
    "make_crew": "montecarlo", "simulate": "montecarlo", "Rating": "rating", "rate": "rating",
    "rate_mission": "rating",
}

__all__ = [
    "CREWS",
    "CREW_SIMPLIFICATION",
    "GameOutcome",
    "HeuristicCrew",
    "PlanningCrew",
    "Rating",
    "SimulationStats",
    "make_crew",
    "rate",
    "rate_mission",
    "simulate",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
