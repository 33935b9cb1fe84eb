"""Linting by simulation: crew models, Monte Carlo play and the official calibration."""

from __future__ import annotations

from authoring.lint.sim.heuristic import HeuristicCrew
from authoring.lint.sim.montecarlo import (
    CREW_SIMPLIFICATION,
    CREWS,
    GameOutcome,
    SimulationStats,
    make_crew,
    simulate,
)
from authoring.lint.sim.planner import PlanningCrew

__all__ = [
    "CREWS",
    "CREW_SIMPLIFICATION",
    "GameOutcome",
    "HeuristicCrew",
    "PlanningCrew",
    "SimulationStats",
    "make_crew",
    "simulate",
]
