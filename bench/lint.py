"""Measures the linter: structural lint of 1,000 missions, and simulation.

Run ``python bench/lint.py`` from the repository root (``--simulate`` adds
``simulate --games 1000`` on Mission 1 with each crew; ``--jobs`` sets the processes). The
1,000 missions are the 16 official tracks with event times jittered by a seeded generator
(same seed, same missions), written as YAML text so that parsing and schema validation are
part of the measured work, as in ``spacealert lint``. Figures are medians of ``--repeat`` runs.
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

from authoring.lint import Linter  # noqa: E402
from authoring.mission.load import parse_document  # noqa: E402


def _jitter(text: str, rng: random.Random) -> str:
    """Shifts each event time of a mission text by -10..+10 s on the 5 s grid."""
    out = []
    for line in text.splitlines():
        marker = '{at: "'
        if marker in line:
            start = line.index(marker) + len(marker)
            end = line.index('"', start)
            minutes, seconds = line[start:end].split(":")
            at = max(10, int(minutes) * 60 + int(seconds) + rng.choice((-10, -5, 0, 5, 10)))
            line = f"{line[:start]}{at // 60}:{at % 60:02d}{line[end:]}"
        out.append(line)
    return "\n".join(out) + "\n"


def corpus(count: int, seed: int) -> list[tuple[str, str]]:
    """Returns ``count`` (name, YAML text) missions derived from the official tracks."""
    rng = random.Random(seed)
    sources = sorted((ROOT / "missions" / "official").glob("*.yaml"))
    texts = [p.read_text("utf-8") for p in sources]
    return [(f"bench-{i}.yaml", _jitter(texts[i % len(texts)], rng)) for i in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--missions", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--simulate", action="store_true")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    missions = corpus(args.missions, args.seed)
    linter = Linter()
    parse_times, lint_times = [], []
    problems = 0
    for _ in range(args.repeat):
        start = time.perf_counter()
        docs = [parse_document(text, name) for name, text in missions]
        parsed = time.perf_counter()
        problems = sum(len(linter.lint_document(doc)) for doc in docs)
        parse_times.append(parsed - start)
        lint_times.append(time.perf_counter() - parsed)
    parse, lint = statistics.median(parse_times), statistics.median(lint_times)
    per = 1000 / args.missions
    print(f"{args.missions} missions, median of {args.repeat} runs:")
    print(f"  parse (YAML, the mission layer)      {parse:6.2f} s  ({parse * per:.2f} ms/mission)")
    print(f"  lint (schema + build + S/M/T rules)  {lint:6.2f} s  ({lint * per:.2f} ms/mission)")
    print(f"  total                                {parse + lint:6.2f} s; {problems} problems")
    if args.simulate:
        simulation(args.games, args.jobs)


def simulation(games: int, jobs: int) -> None:
    """Times ``simulate`` on Mission 1 with each crew's calibrated settings.

    The official missions' ratings are ``python -m authoring.simulation.calibration``'s; the
    G103 timing goal is ``bench/rating.py``'s.
    """
    from authoring.mission import load_mission
    from authoring.simulation.calibration import CREW_SETTINGS
    from authoring.simulation.montecarlo import simulate_with
    from authoring.simulation.rating import rate

    mission = load_mission(ROOT / "missions" / "official" / "mission-1.yaml")
    for crew, settings in CREW_SETTINGS.items():
        start = time.perf_counter()
        stats = simulate_with(mission, {**settings, "games": games, "seed": 1}, jobs=jobs)
        elapsed = time.perf_counter() - start
        rated = rate(stats)
        print(f"simulate mission-1 --games {games} --crew {crew} --jobs {jobs}: "
              f"{elapsed:.1f} s wall ({elapsed / games * 1000:.1f} ms/game); survival "
              f"{stats.survival_rate:.1%}, difficulty {rated.value} ± {rated.margin}")


if __name__ == "__main__":
    main()
