"""The official missions' difficulty under the G rules' default simulation settings.

Linting by simulation compares a mission with the official ones *under the same crew
model*, which makes the comparison meaningful even though the crews are far from perfect.
``python -m authoring.simulation.calibration`` recomputes ``calibration.json`` (about a minute
on two cores); the G rules read it.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

from authoring._files import write_atomic

CALIBRATION = Path(__file__).with_name("calibration.json")
#: The settings the G rules use by default and the calibration was computed with.
DEFAULT_SETTINGS: dict[str, Any] = {"crew": "planner", "games": 20, "seed": 0,
                                    "iterations": 60, "styles": 40, "hands": True}


@cache
def load() -> dict[str, Any]:
    """Returns the stored calibration (settings and the official missions' ratings)."""
    data: dict[str, Any] = json.loads(CALIBRATION.read_text("utf-8"))
    return data


def official_range() -> tuple[float, float]:
    """Returns the lowest and highest difficulty of official missions 1-8."""
    ratings = list(load()["ratings"].values())
    return min(ratings), max(ratings)


def compute(jobs: int = 2) -> dict[str, Any]:
    """Simulates official missions 1-8 with the default settings and returns the table.

    ``ratings`` is the scale the G rules read; ``intervals`` holds, per mission, the rating's
    95 % margin and the survival rate with its 95 % interval (``rating.py``), for the README.
    """
    from authoring._resources import data_dir
    from authoring.mission import load_mission
    from authoring.simulation.montecarlo import simulate_with
    from authoring.simulation.rating import rate

    ratings: dict[str, float] = {}
    intervals: dict[str, dict[str, Any]] = {}
    for number in range(1, 9):
        mission = load_mission(data_dir("missions") / "official" / f"mission-{number}.yaml")
        stats = simulate_with(mission, DEFAULT_SETTINGS, jobs=jobs)
        rating = rate(stats)
        ratings[f"mission-{number}"] = rating.value
        intervals[f"mission-{number}"] = {
            "margin": rating.margin, "survival": round(rating.survival, 3),
            "survival_interval": [round(x, 3) for x in rating.survival_interval]}
    return {"settings": DEFAULT_SETTINGS, "ratings": ratings, "intervals": intervals}


def markdown(data: dict[str, Any]) -> str:
    """The table of official ratings the README shows."""
    settings = data["settings"]
    lines = ["| mission | difficulty (95 %) | survival (95 %) |", "|---|---|---|"]
    for name, value in data["ratings"].items():
        spread = data["intervals"][name]
        low, high = spread["survival_interval"]
        lines.append(f"| {name} | {value:.1f} ± {spread['margin']:.1f} | "
                     f"{spread['survival']:.0%} ({low:.0%}-{high:.0%}) |")
    lines.append(f"\n{settings['crew']} crew, {settings['games']} games per mission, "
                 f"seed {settings['seed']}")
    return "\n".join(lines)


def main() -> None:
    """Recomputes ``calibration.json`` (written atomically) and prints the README's table."""
    data = compute(jobs=int(sys.argv[1]) if len(sys.argv) > 1 else 2)
    write_atomic(CALIBRATION, json.dumps(data, indent=2) + "\n")
    print(markdown(data))


if __name__ == "__main__":
    main()
