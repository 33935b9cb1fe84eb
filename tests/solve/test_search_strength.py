"""What the search reaches on a fixed evaluation budget (no timing), and what it never does.

Mission 7 of the base game with the seed-1 draw holds a Fissure (SI1-04): only the interceptor
pilot can damage it (docs/rules.md §8.6), so some crew member must fetch a battlebot squad,
walk to upper red and launch, several cards in the right order, or the ship is destroyed. A
search of single-card changes never found it (0 % survival at 100,000 iterations); errands
(``moves.errand``) do.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from authoring.engine import resolve
from authoring.engine.rules.plan import SLOTS, STATIONS, Action, encode
from authoring.mission import load_mission
from authoring.simulation.moves import EMPTY, errand, stations, walk
from authoring.solve import Evaluator, prepare, solve, to_plan
from authoring.solve.search import FINAL_BUDGET, FINAL_RUNS, heuristic_start

REPO = Path(__file__).resolve().parents[2]
OFFICIAL = REPO / "missions" / "official"


def test_a_fixed_budget_survives_the_fissure_of_mission_7() -> None:
    problem = prepare(load_mission(OFFICIAL / "mission-7.yaml"), seed=1)
    assert "SI1-04" in problem.draw
    solution = solve(problem.request(iterations=20000, jobs=1, restarts=4))
    assert solution.value.survival == pytest.approx(1.0)
    assert solution.value.exact
    result = resolve(problem.setup, to_plan(problem, solution.slots), record=False)
    fissure = next(t for t in result.threats if t.card == "SI1-04")
    assert result.survived and fissure.fate == "destroyed"


@pytest.mark.parametrize("number", [1, 4, 6])
def test_the_search_never_returns_a_plan_worse_than_its_start(number: int) -> None:
    problem = prepare(load_mission(OFFICIAL / f"mission-{number}.yaml"), seed=1)
    request = problem.request(iterations=40, jobs=1, restarts=2)
    start = heuristic_start(request, Evaluator(problem.setup, problem.labels, budget=0,
                                               sample_seed=problem.seed, soft=True))
    final = Evaluator(problem.setup, problem.labels, budget=FINAL_BUDGET,
                      sample_seed=problem.seed, max_runs=FINAL_RUNS)
    solution = solve(request)
    assert solution.value.objective >= final.evaluate(start).objective - 1e-9


def test_an_errand_walks_there_acts_and_rejoins_the_row() -> None:
    c_card, a_card = encode(Action(6)), encode(Action(4))
    rng = random.Random(7)
    for _ in range(300):
        row = [rng.choice([EMPTY, a_card, c_card, *walk(0, 5), *walk(5, 1)])
               for _ in range(SLOTS)]
        before = stations(row)
        slot, station = rng.randrange(SLOTS), rng.randrange(len(STATIONS))
        changed = row[:]
        if not errand(changed, slot, station, c_card, SLOTS, insert=False):
            assert slot + len(walk(before[slot], station)) + 1 > SLOTS
            continue
        after = stations(changed)
        assert changed[:slot] == row[:slot]
        acted = slot + len(walk(before[slot], station))
        assert changed[acted] == c_card and after[acted] == station
        # Past the walk back, every card plays where it played before.
        rejoin = next((t for t in range(acted + 1, SLOTS + 1) if after[t:] == before[t:]
                       and changed[t:] == row[t:]), None)
        if rejoin is not None:
            assert len(changed) == SLOTS
        else:  # no room to walk back before the end: the errand ends the row's plan there
            assert after[acted] == station


def test_an_inserted_errand_delays_the_rest_of_the_row_at_its_stations() -> None:
    c_card, a_card = encode(Action(6)), encode(Action(4))
    row = [a_card, *walk(1, 3), a_card] + [EMPTY] * (SLOTS - 4)
    changed = row[:]
    assert errand(changed, 1, 2, c_card, SLOTS, insert=True)
    trip = len(walk(1, 2)) + 1 + len(walk(2, 1))
    assert changed[1 + trip:1 + trip + 3] == row[1:4]  # the old cards, later, same stations
    assert stations(changed)[1 + trip:1 + trip + 4] == stations(row)[1:5]
    assert len(changed) == SLOTS
