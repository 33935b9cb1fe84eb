"""What makes a mission hard: the rating crew next to free play and to the informed crew.

A rating is one number, but three things make up a simulated crew's losses: the mission, the
action cards the rules deal (docs/rules.md §16.1), and what the crew does not know yet (the
threats announced later, the damage tokens). ``breakdown`` plays the **same games** (the first
``games`` of the rating's run: the same threats, trajectories, hands and damage tokens) four
ways and puts the figures side by side:

- the rating's crew with the dealt hands (the rating itself, on those games);
- the same crew in free play (any action in any turn): the difference is what the cards cost;
- the informed crew (the planner's plan improved knowing the whole draw,
  authoring/simulation/informed.py) with the hands, and in free play: the difference to the
  planner is what the information costs.

None of them is a bound: a long ``solve`` of a single draw can still do better
(``bench/bound.py`` measures by how much; docs/simulation.md). Each figure comes with the
threats most often blamed for its losses (``simulate --explain``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from authoring.mission.model import Mission
from authoring.simulation.montecarlo import ALIASES, SimulationStats, simulate_with
from authoring.simulation.rating import wilson

#: Games each comparison plays: the first ones of the rating's run (about ± 9 points of
#: survival at 95 %; a fifth of a 500-game rating's cost for the planner, and the informed
#: crew costs about seven planners).
COMPARE_GAMES = 100
#: The crew that knows the whole draw (docs/simulation.md).
INFORMED = "informed"


@dataclass(frozen=True)
class Figure:
    """One crew and way of play on the breakdown's games."""

    crew: str
    hands: bool
    games: int
    survival: float
    survival_interval: tuple[float, float]
    difficulty: float
    killers: tuple[tuple[str, int], ...]  # threat label, games lost to it; most often first

    @property
    def play(self) -> str:
        """How the crew plays its cards: "dealt hands" or "free play"."""
        return "dealt hands" if self.hands else "free play"

    def to_mapping(self) -> dict[str, Any]:
        """The figure as JSON-ready data."""
        return {"crew": self.crew, "hands": self.hands, "games": self.games,
                "survival": round(self.survival, 3),
                "survival_interval": [round(x, 3) for x in self.survival_interval],
                "difficulty": round(self.difficulty, 1), "killers": dict(self.killers)}


@dataclass(frozen=True)
class Breakdown:
    """The same games played four ways (see the module's docstring)."""

    mission: str
    seed: int
    games: int
    figures: tuple[Figure, ...]  # rating crew with hands, free; informed with hands, free

    def figure(self, crew: str, hands: bool) -> Figure | None:
        """Returns the figure of a crew and way of play, if played."""
        return next((f for f in self.figures if f.crew == crew and f.hands == hands), None)

    def lines(self, *, explain: bool = False, top: int = 3) -> list[str]:
        """Text lines for ``simulate``: one per figure (``explain``: with its killers)."""
        out = [f"what makes it hard (the same {self.games} games, seed {self.seed}):"]
        for f in self.figures:
            low, high = f.survival_interval
            out.append(f"  {f.crew:<10} {f.play:<12} survived {f.survival:>4.0%} "
                       f"({low:.0%}-{high:.0%})  difficulty {f.difficulty:5.1f}")
            if explain:
                killers = ", ".join(f"{name} {count}" for name, count in f.killers[:top])
                out.append(f"  {'':<10} {'':<12} lost to: {killers or 'nothing'}")
        return out

    def to_mapping(self) -> dict[str, Any]:
        """The breakdown as JSON-ready data."""
        return {"games": self.games, "seed": self.seed,
                "figures": [f.to_mapping() for f in self.figures]}


def figure_of(stats: SimulationStats, hands: bool, games: int) -> Figure:
    """The figure of a run's first ``games`` games."""
    played = SimulationStats(stats.mission, stats.crew, games, stats.seed,
                             outcomes=stats.outcomes[:games], labels=stats.labels)
    survived = sum(o.survived for o in played.outcomes)
    return Figure(stats.crew, hands, len(played.outcomes), played.survival_rate,
                  wilson(survived, len(played.outcomes)), played.difficulty(),
                  tuple(played.killers().most_common()))


def breakdown(mission: Mission, settings: Mapping[str, Any], *, games: int = COMPARE_GAMES,
              jobs: int = 0) -> Breakdown:
    """Plays the first ``games`` games of a rating's run (``settings``: G-rule style, as for
    ``simulate_with``) four ways; returns the figures side by side. The rating's own run is
    reused (``simulate_with`` keeps the last few), so its figure costs nothing more."""
    rated = ALIASES.get(str(settings["crew"]), str(settings["crew"]))
    count = min(games, int(settings["games"]))
    figures = []
    rating_hands = bool(settings.get("hands", True))
    for crew in dict.fromkeys((rated, INFORMED)):
        for hands in (True, False):
            if crew == rated and hands == rating_hands:
                stats = simulate_with(mission, settings, jobs=jobs)  # the rating's run
            else:
                # the rating's options for its crew; the informed crew's calibrated ones
                options: dict[str, Any] = dict(settings) if crew == rated else {}
                options.update(crew=crew, games=count, seed=settings["seed"], hands=hands)
                stats = simulate_with(mission, options, jobs=jobs)
            figures.append(figure_of(stats, hands, count))
    return Breakdown(mission.id, int(settings["seed"]), count, tuple(figures))
