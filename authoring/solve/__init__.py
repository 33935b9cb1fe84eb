"""The plan solver: the best crew plan for a mission and a threat draw.

A plan is valued by its **expected** score over the damage-token draws, computed exactly by
branching the draw tree (``evaluate``); the search starts from a greedy plan and runs seeded
annealing restarts in parallel (``search``). Typical use::

    from authoring.mission import load_mission
    from authoring.solve import prepare, solve, to_plan

    problem = prepare(load_mission("missions/official/mission-1.yaml"), seed=1)
    solution = solve(problem.request(iterations=20000, jobs=2))
    print(to_plan(problem, solution.slots).text(), solution.value.expected)
"""

from __future__ import annotations

from authoring._workers import default_jobs
from authoring.solve.evaluate import Evaluator, Value, encode_plan
from authoring.solve.problem import (
    Draw,
    Problem,
    crew_labels,
    load_draw,
    load_plan,
    prepare,
    resolved_expectation,
    to_plan,
)
from authoring.solve.report import json_report, plan_table, text_report
from authoring.solve.search import Progress, Request, Solution, solve

__all__ = [
    "Draw",
    "Evaluator",
    "Problem",
    "Progress",
    "Request",
    "Solution",
    "Value",
    "crew_labels",
    "default_jobs",
    "encode_plan",
    "json_report",
    "load_draw",
    "load_plan",
    "plan_table",
    "prepare",
    "resolved_expectation",
    "solve",
    "text_report",
    "to_plan",
]
