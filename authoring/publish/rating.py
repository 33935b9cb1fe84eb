"""Rates a mission's difficulty with the linter's simulation (the ``G103`` rule's settings).

The rating is on the scale of the official missions 1-8 played by the same simulated crew,
so it says "harder than the base game" rather than an absolute truth. The simulation is
deterministic (fixed seed) and takes a few seconds per mission, hence opt-in (``--rate``).
"""

from __future__ import annotations

from authoring.engine import EngineError
from authoring.lint.sim.calibration import DEFAULT_SETTINGS, official_range
from authoring.lint.sim.montecarlo import simulate_with
from authoring.mission.model import Mission
from authoring.render.site import Rating


def rate_mission(mission: Mission) -> tuple[Rating | None, str]:
    """Returns the mission's simulated rating, or ``None`` and why it could not be rated."""
    if not mission.threats():
        return None, "no threats to rate"
    try:
        stats = simulate_with(mission, DEFAULT_SETTINGS)
    except EngineError as error:
        return None, f"cannot simulate the mission: {error}"
    low, high = official_range()
    return Rating(round(stats.difficulty(), 1), low, high, stats.survival_rate,
                  stats.games, stats.crew), ""
