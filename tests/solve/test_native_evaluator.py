"""The search's evaluator on both engine cores: the same values, and soft states copied whole.

The solver evaluates plans on the native core when it is built (authoring/_native.py compiles
``authoring/engine/odds/evaluator.py`` with the game); the pure-Python evaluator is the reference.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from authoring import _native
from authoring.engine import Plan, initial_state, parse_plan
from authoring.engine.cores import NATIVE, available
from authoring.engine.odds.evaluator import SoftState
from authoring.mission import load_mission
from authoring.simulation.moves import Mover
from authoring.solve import Evaluator, prepare

REPO = Path(__file__).resolve().parents[2]

needs_native = pytest.mark.skipif(NATIVE not in available(),
                                  reason=f"native engine core {_native.status()}")


def _random_plans(count: int, seed: int) -> list[list[list[int]]]:
    rng = random.Random(seed)
    mover = Mover(range(5), True, rng)
    plan = [[0] * 12 for _ in range(5)]
    plans = []
    for _ in range(count):
        plan = mover.propose(plan)
        plans.append(plan)
    return plans


@needs_native
@pytest.mark.parametrize(("number", "budget", "soft"), [(1, 0, True), (7, 0, True),
                                                       (3, 0, False), (1, 200, False)])
def test_the_native_evaluator_values_plans_as_the_reference(number: int, budget: int,
                                                            soft: bool) -> None:
    problem = prepare(load_mission(REPO / "missions" / "official" / f"mission-{number}.yaml"),
                      seed=1)
    plans = _random_plans(150, number)
    if budget:  # each plan over 200 sampled games, the reference in pure Python: every third
        plans = plans[2::3]  # step of the walk keeps its spread (later plans play longer)
    native = Evaluator(problem.setup, problem.labels, budget=budget, sample_seed=1, soft=soft)
    python = Evaluator(problem.setup, problem.labels, budget=budget, sample_seed=1, soft=soft,
                       native=False)
    assert type(native.engine).__module__.startswith("authoring._engine_native")
    assert type(python.engine).__module__ == "authoring.engine.odds.evaluator"
    assert native.evaluate_many(plans) == [python.evaluate(plan) for plan in plans]


def test_a_soft_state_copies_every_field_of_a_state() -> None:
    setup = load_mission(REPO / "missions" / "official" / "mission-1.yaml")
    problem = prepare(setup, seed=1)
    blank: Plan = parse_plan("\n".join(f"{label}: -" for label in problem.labels))
    state = initial_state(problem.setup, blank)
    soft = SoftState.of(state)
    soft.overflow, soft.hits = 2, {0: 1}
    copy = soft.copy()
    fields = set(vars(state))
    assert set(vars(copy)) == fields | {"overflow", "hits"}
    for name in fields:
        mine, theirs = getattr(copy, name), getattr(state, name)
        assert mine == theirs, name
        if isinstance(mine, list | set | dict) and name not in ("crew", "threats"):
            assert mine is not getattr(soft, name), f"{name} is shared with the original"
    assert (copy.overflow, copy.hits) == (2, {0: 1})
