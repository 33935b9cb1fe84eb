"""Measures full-game resolutions per second on one core (``python bench/engine.py``).

A 4-player, 6-threat mission with random legal plans; logging and tracing off, as a plan
search would run it. Prints each round's rate and the median, then the same for the
13-turn four-player mission of docs/rules.md §21 (L5), which always plays to the end.
Times are CPU times of this process, so a busy machine disturbs them less.

Both engine cores run side by side (the pure-Python reference and, once built with
``python -m authoring._native build``, the native one), each through its batch call
``resolve_batch``; the last lines give their medians and the ratio.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from authoring._native import describe  # noqa: E402
from authoring.engine import Plan, Setup, make_setup, parse_plan, resolve  # noqa: E402
from authoring.engine.cores import Core, available, get_core  # noqa: E402
from tests.engine.strategies import random_plan, random_setup  # noqa: E402

L5_SETUP = make_setup([(1, "blue", "E1-09"), (3, "red", "SE2-03"), (4, "internal", "SI2-01"),
                       (5, "white", "E1-06"), (7, "red", "E1-01"), (8, "white", "E2-02")],
                      "T7 T6 T4 T3")
L5_PLAN = parse_plan("P1: l C B b C C b - C r - C\nP2: B R - C r A A - l - b C\n"
                     "P3: C b A A - - r B l - - C\nP4: b - C R C R r R A l C -")


def measure(core: Core, work: list[tuple[Setup, Plan]], rounds: int, label: str) -> float:
    """Resolves the work list ``rounds`` times in one batch call each; prints and returns the
    median games/s."""
    rates = []
    for index in range(rounds):
        start = time.process_time()  # CPU time: fair on a shared, busy machine
        core.resolve_batch(work)
        elapsed = time.process_time() - start
        rates.append(len(work) / elapsed)
        print(f"round {index + 1}: {rates[-1]:8.0f} games/s")
    median = statistics.median(rates)
    print(f"median: {median:.0f} games/s ({label}, one core)")
    return median


def main(rounds: int = 7, games: int = 2000) -> float:
    """Runs both measurements on every available core; returns the fastest core's median of
    the random-plan one."""
    rng = random.Random(2026)
    work = [(random_setup(rng, threats=6), random_plan(rng, crew=4)) for _ in range(games)]
    turns = statistics.mean(resolve(s, p, record=False).turn for s, p in work)
    print(f"random plans: the games last {turns:.1f} turns on average")
    print(describe())
    medians: dict[str, tuple[float, float]] = {}
    for name in available():
        print(f"--- {name} core")
        core = get_core(name)
        medians[name] = (
            measure(core, work, rounds, f"{name}: 4 players, 6 threats, random plans"),
            measure(core, [(L5_SETUP, L5_PLAN)] * games, rounds,
                    f"{name}: L5 of docs/rules.md §21, 13 turns every game"))
    print(f"{'core':8} {'random plans':>14} {'L5':>10}  (median games/s, one core)")
    for name, (random_rate, l5_rate) in medians.items():
        print(f"{name:8} {random_rate:14.0f} {l5_rate:10.0f}")
    if len(medians) == 2:
        (py_random, py_l5), (native_random, native_l5) = medians["python"], medians["native"]
        print(f"{'ratio':8} {native_random / py_random:13.2f}× {native_l5 / py_l5:9.2f}×")
    return max(m[0] for m in medians.values())


if __name__ == "__main__":
    main()
