"""Simulation: crew models, Monte Carlo play, ratings and the official calibration.

Above the engine and under everything that shows a simulated figure (lint's G rules,
``simulate``, ``sheets --rate``, pack pages). The names below load on first use, so that a
module that only holds a ``Rating`` (the site's model) does not load the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from authoring._lazy import lazy_attributes

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


__getattr__ = lazy_attributes(__name__, _LAZY, globals())
