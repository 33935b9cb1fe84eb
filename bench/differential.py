"""Plays 100,000 random games through the Python reference and every other engine core built
(mypyc, C) and compares them (``python bench/differential.py [GAMES] [SEED]``).

The full run of tests/engine/test_differential.py's seeded loop (the default test run plays
fewer; see GAMES there): generated missions of the base-game profiles with 4 and 5 players,
random legal plans, seeds and forced damage tokens, pinned and drawn cards. Prints the games
compared and the time; on a mismatch the first differing turn, with a reproducing mission and
plan under ``differential-failures/``, and the games compared per second of CPU. Exit code 1
when any game differs.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from authoring._native import describe  # noqa: E402
from authoring.engine.cores import PYTHON, available, get_core  # noqa: E402
from tests.engine.differential import compare_cores, random_case  # noqa: E402

CHUNK = 1000


def main(games: int = 100_000, seed: int = 13) -> int:
    """Runs the comparison; returns the exit code."""
    print(describe())
    others = {name: get_core(name) for name in available() if name != PYTHON}
    if not others:
        print("differential: no native or C core to compare (build them first)",
              file=sys.stderr)
        return 3
    python = get_core(PYTHON)
    rng = random.Random(seed)
    failures = Path("differential-failures")
    start = time.monotonic()
    cpu = time.process_time()
    played = differing = 0
    while played < games:
        cases = [random_case(rng) for _ in range(min(CHUNK, games - played))]
        reports = compare_cores(cases, python, others, failures / f"chunk-{played}")
        if reports and not differing:
            print(f"first mismatch (game {played}..{played + len(cases) - 1}):\n{reports[0]}")
        differing += len(reports)
        played += len(cases)
        if played % 10_000 == 0:
            print(f"  {played} games, {differing} differ ({time.monotonic() - start:.0f} s)",
                  flush=True)
    seconds = time.process_time() - cpu
    print(f"differential: {played} games, python against {', '.join(others)}, {differing} "
          f"differ; {time.monotonic() - start:.0f} s wall, {seconds:.0f} s CPU "
          f"({played / seconds:.0f} games/s compared)")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main(*(int(a) for a in sys.argv[1:3])))
