"""One difficulty rating, with its uncertainty, for every place that shows one.

``lint`` (G103), ``sheets --rate``, pack pages and ``simulate`` all rate a mission through
``rate``: the simulation's difficulty (0-100, see ``SimulationStats.difficulty``) next to the
official missions 1-8 rated by the same crew (``calibration.json``), with 95 % intervals, so
that a figure is not read as more exact than it is. By default all of them simulate with
``calibration.DEFAULT_SETTINGS`` (``rate_mission``), so one mission gets one answer.

* The difficulty's interval is the mean's normal interval: ``1.96 x s / sqrt(n)`` over the
  games' progress values (``s`` their sample standard deviation).
* Survival's interval is Wilson's score interval, which stays inside 0-1 and behaves for rates
  near 0 or 1 and for few games.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from authoring.simulation.calibration import DEFAULT_SETTINGS, official_range

if TYPE_CHECKING:  # the site's model holds ratings without loading the engine
    from authoring.mission.model import Mission
    from authoring.simulation.montecarlo import SimulationStats

__all__ = ["CREW_WORDS", "DEFAULT_SETTINGS", "Z95", "Rating", "rate", "rate_mission",
           "rating_json", "wilson"]

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959964
#: Each crew model as a player would describe it (docs/simulation.md): what the ratings say
#: at the table, where "crew model: planner" means nothing.
CREW_WORDS = {
    "planner": "a careful crew",
    "heuristic": "a crew that plays by rules of thumb",
    "informed": "a crew that knows every threat in advance",
}


@dataclass(frozen=True)
class Rating:
    """A difficulty rating by simulation, next to the official missions' range."""

    value: float  # 0 (a walk-over) … 100 (a ship lost in turn 1)
    margin: float  # half the width of the value's 95 % interval
    low: float  # the easiest official mission 1-8 under the same simulation
    high: float  # the hardest one
    survival: float  # share of simulated games the ship survived
    survival_interval: tuple[float, float]  # its 95 % interval
    games: int
    crew: str
    #: the deck the crew's hands came from ("base", "double-action"); "" in free play
    dealt: str = "base"

    @property
    def label(self) -> str:
        """Returns easy, moderate, hard (the official range) or extreme."""
        if self.value < self.low - 10:
            return "easy"
        if self.value < self.low:
            return "moderate"
        if self.value <= self.high:
            return "hard"
        return "extreme"

    @property
    def survived(self) -> int:
        """Returns how many of the games the ship survived."""
        return round(self.survival * self.games)

    def in_words(self) -> str:
        """What the rating means at the table, without the model's figures: "A careful crew
        survived 38 of 100 games"."""
        crew = CREW_WORDS.get(self.crew, f"the {self.crew} crew")
        return f"{crew[0].upper()}{crew[1:]} survived {self.survived} of {self.games} games"

    def play(self) -> str:
        """How the crew played, in words: with the action cards the rules deal (which deck)
        or in free play, so that a reader knows what was rated (docs/simulation.md)."""
        if not self.dealt:
            return "in free play (any action in any turn, no hands dealt)"
        deck = "double-action cards" if self.dealt == "double-action" else "action cards"
        return f"with the {deck} the rules deal"

    def compared(self) -> str:
        """The rating against the official missions 1-8, in words (not easy/moderate/hard/
        extreme: the pack index's threat-load badge has words of its own)."""
        if self.value < self.low:
            return "easier than every official mission 1-8"
        if self.value > self.high:
            return "harder than every official mission 1-8"
        return "as hard as the official missions 1-8"

    def describe(self) -> str:
        """One line: "40.5 ± 2.1 (95 %, 500 games of the planner crew; official missions
        1-8: 33.0-56.7)"."""
        return (f"{self.value:.1f} ± {self.margin:.1f} (95 %, {self.games} games of the "
                f"{self.crew} crew; official missions 1-8: {self.low:.1f}-{self.high:.1f})")


def rating_json(rating: Rating) -> dict[str, Any]:
    """The one JSON form of a rating: ``simulate --json`` (at its top level) and the studio's
    Rate (its ``rating`` object) both write this, so the two never drift apart. A new field
    (say, the crew's search settings) is added here, once, and both show it.
    """
    return {
        "difficulty": rating.value,
        "margin": rating.margin,
        "label": rating.label,
        "official_low": rating.low,
        "official_high": rating.high,
        "survival": rating.survival,
        "survival_interval": list(rating.survival_interval),
        "games": rating.games,
        "crew": rating.crew,
        "dealt": rating.dealt or None,
        "play": rating.play(),
        "in_words": rating.in_words(),
        "compared": rating.compared(),
    }


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """Wilson's 95 % score interval of a rate (0-1 for no trials)."""
    if trials <= 0:
        return 0.0, 1.0
    rate = successes / trials
    z2 = Z95 * Z95
    centre = (rate + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(rate * (1 - rate) / trials + z2 / (4 * trials * trials)) \
        / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(stats: SimulationStats, *, calibrated: bool = True) -> Rating:
    """The rating of a finished simulation on the calibrated scale of its crew.

    ``calibrated=False`` leaves the official range out (0-100): the calibration itself.
    """
    progress = stats.progress()
    n = len(progress)
    # one game says nothing about the spread
    margin = 100.0 * Z95 * statistics.stdev(progress) / math.sqrt(n) if n >= 2 else 100.0
    low, high = official_range(stats.crew) if calibrated else (0.0, 100.0)
    return Rating(round(stats.difficulty(), 1), round(margin, 1), low, high,
                  stats.survival_rate, wilson(round(stats.survival_rate * n), n), n,
                  stats.crew, stats.dealt)


def rate_mission(mission: Mission, *, jobs: int = 0) -> tuple[Rating | None, str]:
    """Rates ``mission`` with the G rules' default settings (``jobs`` 0: every core);
    ``None`` and why when it cannot be."""
    from authoring.engine import EngineError
    from authoring.simulation.montecarlo import simulate_with

    if not mission.threats():
        return None, "no threats to rate"
    try:
        stats = simulate_with(mission, DEFAULT_SETTINGS, jobs=jobs)
    except EngineError as error:
        return None, f"cannot simulate the mission: {error}"
    return rate(stats), ""
