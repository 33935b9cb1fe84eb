"""The expected-score evaluator: exact against brute force through the engine's resolve."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import pytest

from authoring.engine import Plan, Setup, exact_outcome, make_setup, parse_plan, resolve
from authoring.engine.rules.plan import TOKEN_KINDS
from authoring.mission import load_mission
from authoring.solve import Evaluator, encode_plan, prepare, resolved_expectation, solve, to_plan

REPO = Path(__file__).resolve().parents[2]

# A Fighter (E1-07: attacks 1, 2, 3) in the white zone that nobody shoots: its X and Y hit
# the ship while a heavy laser keeps firing (the upper-cannon token changes the laser).
SETUP = make_setup([(1, "white", "E1-07")], "T1 T2 T3 T4")
PLAN = parse_plan("P1: - - - - - - A A A\nP2: -\nP3: -\nP4: -")


def _brute_force(setup: Setup, plan: Plan, zone: str, draws: int) -> tuple[float, float]:
    """Averages ``resolve`` over every ordered choice of ``draws`` tokens in one zone."""
    total = survived = 0.0
    orders = list(itertools.permutations(TOKEN_KINDS, draws))
    for order in orders:
        result = resolve(setup, dataclasses.replace(plan, tokens={zone: order}), record=False)
        assert sum(len(t) for t in result.damage.values()) == draws  # the order is all used
        if result.survived:
            survived += 1
            total += result.score.total  # type: ignore[union-attr]
    return total / len(orders), survived / len(orders)


# Plans that take 2-4 white damage, in attacks of several tokens, where which tokens come up
# changes the score (a damaged gravolift delays, a damaged cannon or reactor weakens shots).
CASES = [
    ([(1, "white", "E1-07")], "- - - - - - A A A", "-"),
    ([(2, "white", "E1-06"), (1, "white", "E1-02")], "- A A A l - - - C B - -",
     "C - l l C C l C B B - B"),
    ([(2, "white", "E1-07"), (1, "white", "E1-06")], "B - - B - - C B C - A C",
     "- - l l - l l C - l C B"),
    ([(3, "white", "E1-06"), (2, "white", "E1-07")], "A l B l - - C - l C A B",
     "B - C A l A B A C - - C"),
]


@pytest.mark.parametrize(("events", "first", "second"), CASES)
def test_exact_value_matches_brute_force_over_every_token_order(
        events: list[tuple[int, str, str]], first: str, second: str) -> None:
    setup = make_setup(events, "T1 T2 T3 T4")
    plan = parse_plan(f"P1: {first}\nP2: {second}\nP3: -\nP4: -")
    once = resolve(setup, plan, record=False)
    draws = len(once.damage["white"])
    assert draws >= 2 and not once.damage["red"] and not once.damage["blue"]
    expected, survival = _brute_force(setup, plan, "white", draws)
    value = Evaluator(setup, ("P1", "P2", "P3", "P4"), budget=5000).evaluate(encode_plan(plan))
    assert value.exact
    assert value.expected == pytest.approx(expected, abs=1e-9)
    assert value.survival == pytest.approx(survival, abs=1e-9)
    odds = exact_outcome(setup, plan)  # the engine's exact odds agree
    assert odds.expected_score is not None
    assert float(odds.win * odds.expected_score) == pytest.approx(expected, abs=1e-9)
    # drawn sets instead of orders, and merged equivalent outcomes: fewer sequences
    assert value.leaves < len(list(itertools.permutations(TOKEN_KINDS, draws)))


def test_budget_zero_samples_one_sequence_and_says_so() -> None:
    value = Evaluator(SETUP, ("P1", "P2", "P3", "P4"), budget=0).evaluate(encode_plan(PLAN))
    assert value.leaves == 1 and not value.exact


def test_plan_without_damage_is_exact_with_one_sequence() -> None:
    plan = parse_plan("P1: A A\nP2: -\nP3: -\nP4: -")
    value = Evaluator(SETUP, ("P1", "P2", "P3", "P4"), budget=0).evaluate(encode_plan(plan))
    result = resolve(SETUP, plan, record=False)
    assert value.exact and value.leaves == 1
    assert result.survived and value.expected == result.score.total  # type: ignore[union-attr]


def test_solved_official_plan_resolves_to_the_same_expected_score() -> None:
    """Every draw sequence of the solver's plan, forced into the engine's resolve, averages
    to the solver's expected score (mission 3, seeded draw)."""
    problem = prepare(load_mission(REPO / "missions/official/mission-3.yaml"), seed=5)
    solution = solve(problem.request(iterations=300, jobs=1, restarts=1))
    plan = to_plan(problem, solution.slots)
    assert resolved_expectation(problem, plan) == pytest.approx(solution.value.expected,
                                                                abs=1e-9)
    if solution.value.exact:  # the engine's own exact odds (an independent implementation)
        odds = exact_outcome(problem.setup, plan)
        assert float(odds.win) == pytest.approx(solution.value.survival, abs=1e-9)
        won = float(odds.win * odds.expected_score) if odds.expected_score is not None else 0.0
        assert won == pytest.approx(solution.value.expected, abs=1e-9)
    if solution.value.leaves == 1:  # no damage: any seed resolves to the same score
        result = resolve(problem.setup, plan, record=False)
        assert result.score is not None and result.score.total == solution.value.expected
