"""Measures full-game resolutions per second on one core (``python bench/engine.py``).

A 4-player, 6-threat mission with random legal plans; logging and tracing off, as a plan
search would run it. Prints each round's rate and the median.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "engine"))

from strategies import random_plan, random_setup  # noqa: E402

from authoring.engine import resolve  # noqa: E402


def main(rounds: int = 7, games: int = 2000) -> float:
    """Runs ``rounds`` rounds of ``games`` resolutions; returns the median games per second."""
    rng = random.Random(2026)
    work = [(random_setup(rng, threats=6), random_plan(rng, crew=4)) for _ in range(games)]
    rates = []
    for index in range(rounds):
        start = time.perf_counter()
        for setup, plan in work:
            resolve(setup, plan, record=False)
        elapsed = time.perf_counter() - start
        rates.append(games / elapsed)
        print(f"round {index + 1}: {rates[-1]:8.0f} games/s")
    median = statistics.median(rates)
    print(f"median: {median:.0f} games/s (4 players, 6 threats, random plans, one core)")
    return median


if __name__ == "__main__":
    main()
