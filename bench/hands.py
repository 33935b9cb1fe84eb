"""Action-card hands (docs/rules.md §16.1): what dealing and checking cost, and what they change.

``python bench/hands.py`` prints, on one core:

* projections per second of random plans onto dealt hands (the solver's ``--hands`` pays one
  per candidate plan), median of five rounds, for each build of the projection: the Python
  reference, the mypyc build, the C one through ``chands.project_codes`` (one foreign call per
  plan, as ``playable_for`` makes them) and the C one alone (``sa_deal_project_many``: one
  call for all the plans, what ``search.c`` pays);
* for official missions 1-8 (``--games`` each, default 200) the heuristic crew with and without
  hands side by side: survival, mean score of the survived games, difficulty and games/s;
* with ``--solve N``, ``solve`` on mission N (seed 1, ``--iterations``) with and without
  ``--hands``: expected score and evaluations per second.
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

from array import array  # noqa: E402
from collections.abc import Callable  # noqa: E402

from authoring.engine import make_crew_plan  # noqa: E402
from authoring.engine.cores import NATIVE, available, chands, module  # noqa: E402
from authoring.engine.rules import hands as reference  # noqa: E402
from authoring.engine.rules.hands import Hands, mission_events  # noqa: E402
from authoring.engine.rules.plan import CrewPlan  # noqa: E402
from authoring.mission import load_mission  # noqa: E402
from authoring.simulation.montecarlo import simulate  # noqa: E402

TOKENS = ["-", "-", "-", "r", "b", "l", "A", "A", "B", "C", "R"]
LABELS = ("P1", "P2", "P3", "P4", "P5")


def _mission(number: int):  # type: ignore[no-untyped-def]
    return load_mission(ROOT / "missions" / "official" / f"mission-{number}.yaml")


#: Projects the plans onto the hands; returns the seconds the projections took.
Timed = Callable[[Hands, list[tuple[CrewPlan, ...]]], float]


def _python(hands: Hands, plans: list[tuple[CrewPlan, ...]]) -> float:
    began = time.perf_counter()
    for crew in plans:
        reference.project(hands, crew)
    return time.perf_counter() - began


def _native(hands: Hands, plans: list[tuple[CrewPlan, ...]]) -> float:
    project = module(NATIVE, "hands").project
    began = time.perf_counter()
    for crew in plans:
        project(hands, crew)
    return time.perf_counter() - began


def _c_calls(hands: Hands, plans: list[tuple[CrewPlan, ...]]) -> float:
    rows = [[list(row.codes) for row in crew] for crew in plans]  # the solver's form
    began = time.perf_counter()  # the C deal is built in the first call
    for plan in rows:
        chands.project_codes(hands, plan)
    return time.perf_counter() - began


def _c_batch(hands: Hands, plans: list[tuple[CrewPlan, ...]]) -> float:
    library = chands._library()
    assert library is not None
    deal = chands._deal(library, hands)
    flat = array("i", [code for crew in plans for row in crew for code in row.codes])
    blanked = array("i", [0] * len(plans))
    began = time.perf_counter()
    library.deal_project_many(deal, flat.buffer_info()[0], len(LABELS), len(plans),
                              blanked.buffer_info()[0])
    return time.perf_counter() - began


def projections_per_second(timed: Timed = _python, count: int = 300) -> float:
    """Median over five rounds of random 5-player plans projected onto fresh deals (the
    deal's network or C deal built in the round, as a game builds it once; the C batch
    builds it before the clock starts)."""
    events = mission_events(_mission(1))
    rates = []
    native = timed is _native
    for round_ in range(5):
        rng = random.Random(round_)
        deal = module(NATIVE, "hands").deal if native else reference.deal
        hands = deal(LABELS, events, rng)
        plans = [tuple(make_crew_plan(label, [rng.choice(TOKENS) for _ in range(12)])
                       for label in LABELS) for _ in range(count)]
        rates.append(count / timed(hands, plans))
    return statistics.median(rates)


def projection_table() -> None:
    """Projections per second of each build available."""
    print("| projection | projections/s (5 players, random plans) |")
    print("|---|---|")
    builds: list[tuple[str, Timed]] = [("Python reference", _python)]
    if NATIVE in available():
        builds.append(("mypyc", _native))
    if chands.available():
        builds += [("C, a call per plan (chands)", _c_calls),
                   ("C alone (one call, all plans)", _c_batch)]
    for name, timed in builds:
        count = 3000 if timed is _c_batch else 300
        print(f"| {name} | {projections_per_second(timed, count):,.0f} |", flush=True)


def crews(games: int) -> None:
    """The heuristic crew on missions 1-8 with and without hands."""
    print("| mission | hands | survival | mean score (survived) | difficulty | games/s |")
    print("|---|---|---|---|---|---|")
    for number in range(1, 9):
        mission = _mission(number)
        for hands in (False, True):
            began = time.perf_counter()
            stats = simulate(mission, games=games, seed=0, hands=hands)
            seconds = time.perf_counter() - began
            mean = statistics.mean(stats.scores) if stats.scores else 0.0
            print(f"| {number} | {'yes' if hands else 'no'} | {stats.survival_rate:.1%} "
                  f"| {mean:.1f} | {stats.difficulty():.1f} | {games / seconds:.0f} |",
                  flush=True)


def solves(number: int, iterations: int) -> None:
    """``solve`` on one mission with and without hands (one job, deterministic)."""
    from authoring.solve import prepare, solve

    for hands in (False, True):
        problem = prepare(_mission(number), seed=1, hands=hands)
        solution = solve(problem.request(iterations=iterations, jobs=1))
        print(f"mission {number} seed 1, {iterations} iterations, hands {hands}: expected "
              f"score {solution.value.expected:.2f}, survival {solution.value.survival:.1%}, "
              f"{solution.eval_rate:.0f} evaluations/s, {solution.seconds:.1f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per mission (0: none)")
    parser.add_argument("--solve", type=int, default=0, help="also solve this mission")
    parser.add_argument("--iterations", type=int, default=40000)
    args = parser.parse_args()
    projection_table()
    if args.games:
        crews(args.games)
    if args.solve:
        solves(args.solve, args.iterations)


if __name__ == "__main__":
    main()
