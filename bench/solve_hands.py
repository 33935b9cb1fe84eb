"""Solves the official double-action tracks with dealt hands; reports survival and time.

``python bench/solve_hands.py`` solves each of the 18 double-action tracks of
``missions/official`` with the seed-0 threat draw and the seed-0 dealt hands (docs/rules.md
§16), as ``spacealert solve --hands`` does, and prints per track the survival of the plan found,
its expected score, wall and CPU seconds, and at the end how many plans survive. Each plan is
checked against the hands (``hands.playable``, the reference's exact check).

``--reference`` makes the search's playability checks (``authoring/solve/hands.py``) project
through the Python reference (``hands_module()``, compiled when built) instead of C: the same
plans, so the two runs time the same work and their ratio is the C check's gain.
``--iterations`` (default 20,000) and ``--jobs`` set the search;
``python bench/solve_hands.py double-action-7`` solves the named tracks only.
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

from authoring.engine.cores import hands_module  # noqa: E402
from authoring.engine.rules.hands import decode_rows, playable  # noqa: E402
from authoring.mission import load_mission  # noqa: E402
from authoring.solve import default_jobs, prepare, solve  # noqa: E402
from authoring.solve import hands as solve_hands  # noqa: E402

OFFICIAL = ROOT / "missions" / "official"


def _cpu() -> float:
    own = time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tracks", nargs="*", help="track names (default: all 18)")
    parser.add_argument("--iterations", type=int, default=20000, help="search budget")
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="worker processes")
    parser.add_argument("--reference", action="store_true",
                        help="playability checks through the Python reference, not C")
    args = parser.parse_args()
    if args.reference:
        # the workers fork from this process, so they inherit the patch (the start method
        # ``authoring._workers`` picks on Linux)
        solve_hands.hands_projection = lambda: hands_module().project_codes  # type: ignore
    names = args.tracks or sorted(path.stem for path in OFFICIAL.glob("double-action-*.yaml"))
    print(f"{args.iterations} iterations, {args.jobs} jobs, playability checks through "
          f"{'the Python reference' if args.reference else 'C'}")
    print("| track | survival | expected score | wall (s) | CPU (s) | playable |")
    print("|---|---|---|---|---|---|")
    walls, survived = [], 0
    for name in names:
        problem = prepare(load_mission(OFFICIAL / f"{name}.yaml"), seed=0, hands=True)
        assert problem.hands is not None
        cpu, wall = _cpu(), time.perf_counter()
        solution = solve(problem.request(iterations=args.iterations, jobs=args.jobs))
        walls.append(time.perf_counter() - wall)
        legal = playable(problem.hands, decode_rows(problem.hands, solution.slots))
        survived += solution.value.survival > 0
        print(f"| {name} | {solution.value.survival:.1%} | {solution.value.expected:.2f} "
              f"| {walls[-1]:.1f} | {_cpu() - cpu:.1f} | {'yes' if legal else 'NO'} |",
              flush=True)
    print(f"\n{survived} of {len(names)} plans survive some damage draw; median "
          f"{statistics.median(walls):.1f} s wall per track, {sum(walls):.0f} s in all")


if __name__ == "__main__":
    main()
