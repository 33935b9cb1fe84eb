"""Plays 100,000 random games through both engine cores and compares them
(``python bench/differential.py [GAMES] [SEED]``).

The full run of tests/engine/test_differential.py's seeded loop (the default test run plays
fewer; see GAMES there): generated missions of the base-game profiles with 4 and 5 players,
random legal plans, seeds and forced damage tokens, pinned and drawn cards. Prints the games
compared and the time; on a mismatch the first differing turn, with a reproducing mission and
plan under ``differential-failures/``. Exit code 1 when any game differs.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from authoring._native import describe  # noqa: E402
from authoring.engine.cores import NATIVE, PYTHON, available, get_core  # noqa: E402
from tests.engine.differential import compare_cases, random_case  # noqa: E402

CHUNK = 1000


def main(games: int = 100_000, seed: int = 13) -> int:
    """Runs the comparison; returns the exit code."""
    print(describe())
    if NATIVE not in available():
        print("differential: no native core to compare (build it first)", file=sys.stderr)
        return 3
    python, native = get_core(PYTHON), get_core(NATIVE)
    rng = random.Random(seed)
    failures = Path("differential-failures")
    start = time.monotonic()
    cpu = time.process_time()
    played = differing = 0
    while played < games:
        cases = [random_case(rng) for _ in range(min(CHUNK, games - played))]
        reports = compare_cases(cases, python, native, failures / f"chunk-{played}")
        if reports and not differing:
            print(f"first mismatch (game {played}..{played + len(cases) - 1}):\n{reports[0]}")
        differing += len(reports)
        played += len(cases)
        if played % 10_000 == 0:
            print(f"  {played} games, {differing} differ ({time.monotonic() - start:.0f} s)",
                  flush=True)
    print(f"differential: {played} games, {differing} differ; "
          f"{time.monotonic() - start:.0f} s wall, {time.process_time() - cpu:.0f} s CPU")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main(*(int(a) for a in sys.argv[1:3])))
