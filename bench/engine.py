"""Measures full-game resolutions per second on one core (``python bench/engine.py``).

A 4-player, 6-threat mission with random legal plans; logging and tracing off, as a plan
search would run it. Prints each round's rate and the median, then the same for the
13-turn four-player mission of docs/rules.md §21 (L5), which always plays to the end, and for
random plans on double-action tracks, half their cards double actions (docs/rules.md §19).
Times are CPU times of this process, so a busy machine disturbs them less, and the cores take
turns round by round, so a change of load hits them alike.

Every available engine core runs side by side, each through its batch call: the pure-Python
reference and the mypyc build (``resolve_batch``: a ``Result`` per game), and the C core
(``ccore.play``: one foreign call filling the compact output -- outcome, turn, score
breakdown, damage tokens, threat fates -- which is what a plan search reads; ``c+results``
is the same call with a ``Result`` object built per game). The last lines give the medians
and the ratios to the Python core.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from authoring._native import describe  # noqa: E402
from authoring.engine import Plan, Setup, make_setup, parse_plan, resolve  # noqa: E402
from authoring.engine.cores import PYTHON, C, available, ccore, get_core  # noqa: E402
from tests.engine.strategies import random_plan, random_setup  # noqa: E402

L5_SETUP = make_setup([(1, "blue", "E1-09"), (3, "red", "SE2-03"), (4, "internal", "SI2-01"),
                       (5, "white", "E1-06"), (7, "red", "E1-01"), (8, "white", "E2-02")],
                      "T7 T6 T4 T3")
L5_PLAN = parse_plan("P1: l C B b C C b - C r - C\nP2: B R - C r A A - l - b C\n"
                     "P3: C b A A - - r B l - - C\nP4: b - C R C R r R A l C -")


Run = Callable[[list[tuple[Setup, Plan]]], object]


def runners() -> dict[str, Run]:
    """Returns the batch call of every available core, by the name printed."""
    found: dict[str, Run] = {}
    for name in available():
        if name == C:
            found["c"] = ccore.play  # the compact output
            found["c+results"] = ccore.resolve_batch
        else:
            found[name] = get_core(name).resolve_batch
    return found


def measure(run: Run, work: list[tuple[Setup, Plan]]) -> float:
    """Returns the games/s of one batch call over the work list, in CPU time."""
    start = time.process_time()  # CPU time: fair on a shared, busy machine
    run(work)
    return len(work) / (time.process_time() - start)


def main(rounds: int = 7, games: int = 2000) -> float:
    """Runs both measurements on every available core, the cores taking turns; returns the
    fastest core's median of the random-plan one."""
    rng = random.Random(2026)
    work = [(random_setup(rng, threats=6), random_plan(rng, crew=4)) for _ in range(games)]
    turns = statistics.mean(resolve(s, p, record=False).turn for s, p in work)
    print(f"random plans: the games last {turns:.1f} turns on average")
    print(describe())
    doubles = [(random_setup(rng, threats=6, doubles=True), random_plan(rng, crew=4, doubles=True))
               for _ in range(games)]
    loads = {"random plans": work, "L5": [(L5_SETUP, L5_PLAN)] * games, "double": doubles}
    cores = runners()
    rates: dict[tuple[str, str], list[float]] = {(c, w): [] for c in cores for w in loads}
    for run in cores.values():  # warm up: caches, encodings, the library
        run(work[:50])
    for index in range(rounds):
        line = []
        for load, games_list in loads.items():
            for name, run in cores.items():
                rate = measure(run, games_list)
                rates[name, load].append(rate)
                line.append(f"{name} {load}: {rate:8.0f}")
        print(f"round {index + 1}: " + ", ".join(line))
    medians = {key: statistics.median(values) for key, values in rates.items()}
    print(f"{'core':10} {'random plans':>14} {'L5':>10} {'double':>10}  (median games/s on one "
          f"core, CPU time; {rounds} rounds of {games} games; double: random double-action plans)")
    for name in cores:
        print(f"{name:10} {medians[name, 'random plans']:14.0f} {medians[name, 'L5']:10.0f} "
              f"{medians[name, 'double']:10.0f}")
    for name in cores:
        if name != PYTHON:
            ratios = [medians[name, load] / medians[PYTHON, load] for load in loads]
            print(f"{name + '/python':16} {ratios[0]:8.1f}× {ratios[1]:9.1f}× {ratios[2]:9.1f}×")
    if "c" in cores:
        print("c: one foreign call per batch, compact output (no Result objects); "
              "c+results: the same with a Result per game")
    return max(medians[name, "random plans"] for name in cores)


if __name__ == "__main__":
    main()
