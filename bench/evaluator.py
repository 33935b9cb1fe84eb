"""Times the plan evaluator: the solver's evaluations per second and ``resolve --exact``.

Two figures, medians of ``--repeat`` rounds on one core:

- the solver's search evaluator (budget 0, soft rules, as inside ``solve``) on docs/rules.md §21
  L5 with seeded random plans: evaluations per second; and the final evaluation (the full draw
  tree, ``FINAL_BUDGET``) of the L5 reference plan: milliseconds;
- ``exact_outcome`` (what ``spacealert resolve --exact`` runs) on plans for official missions,
  made by a short seeded solve: seconds each, and whether the answer was exact, sampled or
  refused (the engine before the one evaluator refused plans past its budget).

``python bench/evaluator.py`` (about a minute).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from authoring.engine import exact_outcome  # noqa: E402
from authoring.mission import load_mission  # noqa: E402
from authoring.solve import Evaluator, encode_plan, prepare, solve, to_plan  # noqa: E402
from authoring.solve.search import FINAL_BUDGET, FINAL_RUNS  # noqa: E402
from bench.engine import L5_PLAN, L5_SETUP  # noqa: E402  (docs/rules.md §21 L5, once)
from tests.engine.strategies import random_plan  # noqa: E402

LABELS = ("P1", "P2", "P3", "P4")


def search_rate(plans: int, repeat: int) -> float:
    """Returns the median evaluations per second of the search's evaluator on L5."""
    rng = random.Random(5)
    slots = [encode_plan(random_plan(rng)) for _ in range(plans)]
    rates = []
    for _ in range(repeat):
        evaluator = Evaluator(L5_SETUP, LABELS, budget=0, sample_seed=1, soft=True)
        began = time.perf_counter()
        for row in slots:
            evaluator.evaluate(row)
        rates.append(plans / (time.perf_counter() - began))
    return statistics.median(rates)


def final_time(repeat: int) -> tuple[float, float]:
    """Returns the median milliseconds of the L5 reference plan's full evaluation, its value."""
    times = []
    expected = 0.0
    for _ in range(repeat):
        evaluator = Evaluator(L5_SETUP, LABELS, budget=FINAL_BUDGET, sample_seed=1,
                              max_runs=FINAL_RUNS)
        began = time.perf_counter()
        expected = evaluator.evaluate(encode_plan(L5_PLAN)).expected
        times.append(1000 * (time.perf_counter() - began))
    return statistics.median(times), expected


def exact_times(numbers: list[int], iterations: int, repeat: int) -> None:
    """Prints the median time of ``exact_outcome`` on a solved plan per official mission."""
    for number in numbers:
        mission = load_mission(ROOT / "missions" / "official" / f"mission-{number}.yaml")
        problem = prepare(mission, seed=1)
        solution = solve(problem.request(iterations=iterations, jobs=1, restarts=1))
        plan = to_plan(problem, solution.slots)
        times = []
        answer = ""
        for _ in range(repeat):
            began = time.perf_counter()
            try:
                odds = exact_outcome(problem.setup, plan)
                method = getattr(odds, "method", "exact")
                answer = f"{method}: win {float(odds.win):.3f}"
            except ValueError:
                answer = "refused (too many to follow exactly)"
            times.append(time.perf_counter() - began)
        print(f"mission {number}: resolve --exact {statistics.median(times):.2f} s "
              f"(median of {repeat}), {answer}", flush=True)


def main() -> None:
    """Parses the command line and prints the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plans", type=int, default=400, help="random L5 plans per round")
    parser.add_argument("--repeat", type=int, default=5, help="rounds (medians)")
    parser.add_argument("--missions", type=int, nargs="*", default=[1, 3, 5, 8])
    parser.add_argument("--iterations", type=int, default=1500, help="solve budget per mission")
    args = parser.parse_args()
    rate = search_rate(args.plans, args.repeat)
    print(f"L5 search evaluator (budget 0, soft): {rate:.0f} evaluations/s (median of "
          f"{args.repeat})", flush=True)
    millis, expected = final_time(args.repeat)
    print(f"L5 reference plan, full draw tree: {millis:.1f} ms, expected score {expected:.4f}",
          flush=True)
    exact_times(args.missions, args.iterations, 3)


if __name__ == "__main__":
    main()
