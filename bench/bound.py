"""Measures how far the informed crew is from the best plan a long ``solve`` finds.

The informed crew knows the whole draw, damage tokens too, but searches only a few hundred
plans per game: it is no upper bound, and this script measures by how much, game by game
(docs/simulation.md "The gap to a long solve"). For ``--games`` games of a mission
(the games ``simulate --seed S`` plays, numbered as there: the same threats, trajectories,
dealt hands and damage-token seed), it plans the game with the informed crew (its
calibrated settings) and runs ``solve`` on the same draw and the same hands with a long
budget (``--iterations``, the CLI's default, on ``--jobs`` cores). Both plans are resolved
with the game's real damage-token seed. A game's **points** are its score when the ship
survives and 0 when it is lost; the solver *beats* the crew when its plan survives where the
crew's is lost, or scores more.

Each game prints one line; the last line is ``bound gap: X points, beaten in K of N games``
with X the mean over the games of max(0, solve - crew) in points. ``--no-hands`` plays free
(any action in any turn, docs/rules.md §16.1). Run from the repository root::

    python bench/bound.py missions/official/mission-1.yaml --games 30
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

from authoring.engine import Plan  # noqa: E402
from authoring.engine.cores import resolve_batch  # noqa: E402
from authoring.engine.rules.levels import get_level  # noqa: E402
from authoring.engine.rules.log import Result  # noqa: E402
from authoring.mission import load_mission  # noqa: E402
from authoring.simulation.calibration import CREW_SETTINGS  # noqa: E402
from authoring.simulation.dealing import crew_labels  # noqa: E402
from authoring.simulation.localsearch import to_plan  # noqa: E402
from authoring.simulation.montecarlo import (  # noqa: E402
    CREW_OPTIONS,
    draw_game,
    make_crew,
    plan_drawn,
)
from authoring.solve import default_jobs, solve  # noqa: E402
from authoring.solve.search import Request  # noqa: E402

#: The CLI's default search budget (authoring/cli/solve.py).
ITERATIONS = 100000


def points(result: Result) -> int:
    """A game's points: its score when the ship survived, 0 when it was lost."""
    return result.score.total if result.survived and result.score is not None else 0


def describe(result: Result) -> str:
    if result.survived:
        return f"survived {points(result):>3}"
    return f"lost T{result.turn:<2}     "


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mission", type=Path, nargs="?",
                        default=ROOT / "missions" / "official" / "mission-1.yaml")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0, help="simulate's seed (default 0)")
    parser.add_argument("--first", type=int, default=0, help="the first game's index")
    parser.add_argument("--iterations", type=int, default=ITERATIONS)
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--no-hands", dest="hands", action="store_false")
    args = parser.parse_args()

    mission = load_mission(args.mission)
    options = {name: int(CREW_SETTINGS["informed"][name])
               for name in CREW_OPTIONS["informed"]}
    crew = make_crew("informed", **options)
    print(f"{mission.id}: informed crew {options} against solve --iterations "
          f"{args.iterations}, {'dealt hands' if args.hands else 'free play'}, seed {args.seed}")
    gaps, beaten, crew_seconds, solve_seconds = [], 0, [], []
    for index in range(args.first, args.first + args.games):
        game = draw_game(mission, random.Random(f"{args.seed}:{index}"), hands=args.hands)
        began = time.process_time()
        crew_plan = plan_drawn(mission, crew, game)
        crew_seconds.append(time.process_time() - began)
        rules = get_level(game.setup.level)
        labels = tuple(crew_labels(mission.players, game.figures))
        request = Request(game.setup, labels, seed=game.plan_seed, iterations=args.iterations,
                          jobs=args.jobs, heroics=rules.heroics, turns=rules.turns,
                          hands=game.hands)
        began = time.perf_counter()
        solution = solve(request)
        solve_seconds.append(time.perf_counter() - began)
        solved: Plan = to_plan(solution.slots)
        ours, theirs = resolve_batch([(game.setup, crew_plan), (game.setup, solved)],
                                     [game.damage_seed, game.damage_seed])
        gap = max(0, points(theirs) - points(ours))
        lost = (theirs.survived, points(theirs)) > (ours.survived, points(ours))
        gaps.append(gap)
        beaten += lost
        print(f"game {index:>3}: crew {describe(ours)}  solve {describe(theirs)}  "
              f"(expected {solution.value.expected:5.1f}, survival "
              f"{100 * solution.value.survival:5.1f} %)  gap {gap:>3}"
              + ("  BEATEN" if lost else ""), flush=True)
    print(f"crew {statistics.median(crew_seconds):.2f} s CPU per game (median), solve "
          f"{statistics.median(solve_seconds):.1f} s wall per game (median)")
    print(f"bound gap: {statistics.fmean(gaps):.2f} points, beaten in {beaten} of "
          f"{len(gaps)} games")


if __name__ == "__main__":
    main()
