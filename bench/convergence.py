"""Does a rating converge? Survival and difficulty of the planner crew as its budget grows.

The planner crew improves each of its start plans by descent until no single change helps
(authoring/simulation/localsearch.py), so the plans rated per descent stop by themselves; what
grows a search is its number of starts (``styles``: heuristic crews of different styles, each
descended to a local optimum, the best kept). This script plays the same ``--games`` games
(seed 0: the same draws, hands and damage tokens in every column, so the columns compare game
by game) of each mission at the budgets b, 2b, 4b, 8b and 16b starts (``--budget b``), and
prints per budget the survival with its 95 % interval, the difficulty ± its 95 % interval
and the CPU seconds per game; then, per mission, the change from b to 16b, paired game by
game (games won and lost by the larger budget), and last the line

    converged: budget B; 16x moves survival by at most D points

when 16 times the budget moves survival by at most ``--tolerance`` points (5) on every
mission, else ``not converged: budget B; 16x moves survival by D points on MISSION``.
``--cap`` is the guard on plans rated per descent (the calibrated one by default), and
``--caps`` instead varies that guard at the default number of starts. Run from the
repository root::

    python bench/convergence.py                       # missions 1, 4 and 7, 100 games
    python bench/convergence.py --budget 2 --no-hands missions/official/mission-1.yaml
"""

from __future__ import annotations

import argparse
import resource
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from authoring.mission import load_mission  # noqa: E402
from authoring.simulation.calibration import CREW_SETTINGS  # noqa: E402
from authoring.simulation.montecarlo import SimulationStats, simulate  # noqa: E402
from authoring.simulation.rating import rate  # noqa: E402

MISSIONS = [ROOT / "missions" / "official" / f"mission-{n}.yaml" for n in (1, 4, 7)]


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run(mission_path: Path, options: dict[str, int], games: int, hands: bool,
        jobs: int) -> tuple[SimulationStats, float]:
    mission = load_mission(mission_path)
    began = _cpu()
    stats = simulate(mission, games=games, crew="planner", seed=0, jobs=jobs,
                     crew_options=options, hands=hands)
    return stats, (_cpu() - began) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("missions", type=Path, nargs="*", default=MISSIONS)
    parser.add_argument("--budget", type=int, default=int(CREW_SETTINGS["planner"]["styles"]),
                        help="b: the smallest number of starts (default: the calibrated one)")
    parser.add_argument("--cap", type=int,
                        default=int(CREW_SETTINGS["planner"]["iterations"]))
    parser.add_argument("--caps", action="store_true",
                        help="vary the cap on plans rated per descent instead (b = --cap)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--tolerance", type=float, default=5.0)
    parser.add_argument("--no-hands", dest="hands", action="store_false")
    args = parser.parse_args()
    seeds = int(CREW_SETTINGS["planner"]["seeds"])
    base = args.cap if args.caps else args.budget
    budgets = [base * 2 ** k for k in range(5)]
    what = "plans rated per descent" if args.caps else "starts"
    play = "dealt hands" if args.hands else "free play"
    print(f"planner crew, {args.games} games (seed 0), {play}, budget = {what}")
    worst: tuple[float, str] = (-1.0, "")
    for path in args.missions:
        print(f"\n{path.stem}")
        print(f"  {'budget':>8}  {'survival (95 %)':<22} {'difficulty':<14} cpu s/game")
        columns: list[SimulationStats] = []
        for budget in budgets:
            options = {"styles": args.budget, "iterations": budget, "seeds": seeds} \
                if args.caps else {"styles": budget, "iterations": args.cap, "seeds": seeds}
            stats, cpu = run(path, options, args.games, args.hands, args.jobs)
            rating = rate(stats, calibrated=False)
            low, high = rating.survival_interval
            columns.append(stats)
            survival = f"{100 * rating.survival:5.1f} % ({100 * low:4.1f}-{100 * high:4.1f})"
            print(f"  {budget:>8}  {survival}     {rating.value:5.1f} ± {rating.margin:3.1f}"
                  f"   {cpu:7.3f}", flush=True)
        first, last = columns[0], columns[-1]
        moved = 100 * (last.survival_rate - first.survival_rate)
        pairs = list(zip(first.outcomes, last.outcomes, strict=True))
        won = sum(b.survived and not a.survived for a, b in pairs)
        lost = sum(a.survived and not b.survived for a, b in pairs)
        print(f"  16x: survival {moved:+.1f} points (paired: {won} games won, {lost} lost), "
              f"difficulty {last.difficulty() - first.difficulty():+.1f}")
        if abs(moved) > worst[0]:
            worst = (abs(moved), path.stem)
    verdict = "converged" if worst[0] <= args.tolerance else "not converged"
    if verdict == "converged":
        print(f"\nconverged: budget {base}; 16x moves survival by at most {worst[0]:.1f} points")
    else:
        print(f"\nnot converged: budget {base}; 16x moves survival by {worst[0]:.1f} points "
              f"on {worst[1]}")


if __name__ == "__main__":
    main()
