"""Measures a difficulty rating: ``lint --select G103`` on Mission 1 with its default settings.

Run ``python bench/rating.py`` from the repository root. The goal (issue 35, ratings that
converge): G103 rates Mission 1 from 500 games in <= 45 s on 2 cores, with a 95 % interval,
with the crews' search run to local optima. Each run lints
the mission file from scratch (a new simulation: the cache of recent runs is cleared) through
the linter the CLI uses, with G103's defaults (the default crew, every core: ``--jobs``
overrides). Figures are medians of ``--repeat`` runs: wall-clock seconds and CPU seconds of
this process and its workers (the machine may be shared: CPU time says what the work costs).
``--crew`` measures another crew with its calibrated settings.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from authoring.engine.cores import fastest  # noqa: E402
from authoring.lint.linter import lint_mission  # noqa: E402
from authoring.simulation.calibration import DEFAULT_CREW, SIMULATION_OPTIONS  # noqa: E402
from authoring.simulation.montecarlo import _simulated  # noqa: E402


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mission", type=Path,
                        default=ROOT / "missions" / "official" / "mission-1.yaml")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=int(SIMULATION_OPTIONS["jobs"]))
    parser.add_argument("--crew", default=DEFAULT_CREW)
    parser.add_argument("--games", type=int, default=int(SIMULATION_OPTIONS["games"]))
    args = parser.parse_args()
    options = {"crew": args.crew, "jobs": args.jobs, "games": args.games}
    config = {"select": ["G103"], "rules": {"G103": options}}
    walls, cpus, message = [], [], ""
    for _ in range(args.repeat):
        _simulated.cache_clear()
        began, cpu = time.perf_counter(), _cpu()
        problems = lint_mission(args.mission, config=config)
        walls.append(time.perf_counter() - began)
        cpus.append(_cpu() - cpu)
        message = next(p.message for p in problems if p.code == "G103")
    print(f"G103 on {args.mission.name}, {args.games} games, {args.crew} crew, jobs "
          f"{args.jobs or 'all'} ({fastest()} engine core), median of {args.repeat} runs:")
    print(f"  wall {statistics.median(walls):6.2f} s   cpu {statistics.median(cpus):6.2f} s "
          f"(runs: {', '.join(f'{w:.2f}' for w in walls)})")
    print(f"  {message}")


if __name__ == "__main__":
    main()
