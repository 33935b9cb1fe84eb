"""bench/bound.py: the informed crew against a long solve on the same draws (docs/simulation.md).

A benchmark is run by hand, but its arithmetic is checked here on a tiny budget: one line per
game, the gap as the mean of max(0, solve - crew) in points, and "beaten" when the solve's plan
survives where the crew's is lost or scores more.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAME = re.compile(r"game +(\d+): crew (survived +(\d+)|lost T\d+) +solve (survived +(\d+)|"
                  r"lost T\d+) .* gap +(\d+)( +BEATEN)?$")


def test_the_bound_bench_prints_each_game_and_the_gap() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bound.py"), "--games", "3", "--iterations",
         "400", "--jobs", "1"], capture_output=True, text=True, timeout=600, cwd=ROOT,
        check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    games = [GAME.match(line) for line in lines if line.startswith("game ")]
    assert len(games) == 3 and all(games), lines
    gaps, beaten = [], 0
    for match in games:
        assert match is not None
        crew = int(match.group(3)) if match.group(3) else 0
        solved = int(match.group(5)) if match.group(5) else 0
        assert int(match.group(6)) == max(0, solved - crew)
        crew_key = (match.group(3) is not None, crew)
        solve_key = (match.group(5) is not None, solved)
        assert (match.group(7) is not None) == (solve_key > crew_key)
        gaps.append(max(0, solved - crew))
        beaten += solve_key > crew_key
    assert lines[-1] == (f"bound gap: {sum(gaps) / len(gaps):.2f} points, beaten in {beaten} "
                         f"of 3 games")
