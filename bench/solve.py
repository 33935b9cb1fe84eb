"""Solves the official base missions and reports time-to-plan, scores and search speed.

``python bench/solve.py --all`` solves missions 1-8 (seeded draws, 5 players) with a fixed
iteration budget on all cores, checks that each plan resolves to the same expected score
through the engine's ``resolve`` (every evaluated draw sequence forced into the plan), and
prints a table plus the median engine evaluations per second inside the search.
``python bench/solve.py 3`` solves one mission.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from authoring.engine import exact_outcome  # noqa: E402
from authoring.mission import load_mission  # noqa: E402
from authoring.solve import (  # noqa: E402
    default_jobs,
    prepare,
    resolved_expectation,
    solve,
    to_plan,
)


def run(numbers: list[int], seed: int, iterations: int, jobs: int) -> list[float]:
    """Solves each mission; prints one table row per mission; returns the search rates."""
    print("| mission | seed | draw | iterations | time to plan (s) | expected score "
          "| survival | exact | resolve check | engine exact_outcome (score / win) "
          "| evals/s (median per restart) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    rates: list[float] = []
    for number in numbers:
        mission = load_mission(ROOT / "missions" / "official" / f"mission-{number}.yaml")
        problem = prepare(mission, seed=seed)
        began = time.perf_counter()
        solution = solve(problem.request(iterations=iterations, jobs=jobs))
        seconds = time.perf_counter() - began
        plan = to_plan(problem, solution.slots)
        check = resolved_expectation(problem, plan)
        same = abs(check - solution.value.expected) < 1e-9
        try:
            odds = exact_outcome(problem.setup, plan)
            engine = float(odds.win * (odds.expected_score or 0))
            exact_text = f"{engine:.2f} / {float(odds.win):.1%}"
        except ValueError:
            exact_text = "too many states"
        rates.append(solution.eval_rate)
        draw = " ".join(card or "-" for card in problem.draw)
        print(f"| {number} | {seed} | {draw} | {solution.iterations} | {seconds:.1f} "
              f"| {solution.value.expected:.2f} | {solution.value.survival:.1%} "
              f"| {'yes' if solution.value.exact else 'sampled'} "
              f"| {'same' if same else f'DIFFERS ({check:.2f})'} | {exact_text} "
              f"| {solution.eval_rate:.0f} |",
              flush=True)
        print("  " + plan.text().replace("\n", "\n  ").rstrip(), file=sys.stderr)
    print(f"\nmedian evaluations per second inside the search (per restart, one core each): "
          f"{statistics.median(rates):.0f}")
    return rates


def main() -> None:
    """Parses the command line and runs the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("missions", nargs="*", type=int, help="mission numbers 1-8")
    parser.add_argument("--all", action="store_true", help="solve missions 1-8")
    parser.add_argument("--seed", type=int, default=1, help="draw and search seed")
    parser.add_argument("--iterations", type=int, default=100000, help="search budget")
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="worker processes")
    args = parser.parse_args()
    numbers = list(range(1, 9)) if args.all or not args.missions else args.missions
    run(numbers, args.seed, args.iterations, args.jobs)


if __name__ == "__main__":
    main()
