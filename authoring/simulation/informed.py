"""The informed crew: the planner's game, then the planner's search with the whole draw known.

It knows everything before turn 1: every threat card with its trajectory and the damage-token
seed the game will be resolved with, so it rates each candidate plan on the one real future
(exact, no expectation) and never has to guess what the soundtrack will announce. It starts
from the plan the planning crew makes for the same game, phase by phase (``builds_on``), and
only keeps a plan that does at least as well on the real draw: on every game it is never worse
than the planner. What it adds is information, not a perfect search: the planner's plan and a
few heuristic styles, each descended to a local optimum on the real draw. It is **not an upper
bound** —
``bench/bound.py`` measures how often a long ``solve`` of the same draw beats it, and by how
much (docs/simulation.md). It was called ``omniscient`` before; that name still selects it.
"""

from __future__ import annotations

from collections.abc import Sequence

from authoring.engine import Plan
from authoring.engine.rules.hands import Hands
from authoring.engine.rules.setup import Setup
from authoring.simulation.heuristic import SLOTS
from authoring.simulation.horizon import Playable
from authoring.simulation.localsearch import DEFAULT_CAP, PlanSearch, to_plan
from authoring.simulation.planner import PlanningCrew


class InformedCrew:
    """Plans all 12 turns once, knowing the threats and the damage tokens, from the
    planner's plan of the same game."""

    name = "informed"
    omniscient = True

    def __init__(self, iterations: int = DEFAULT_CAP, styles: int = 16) -> None:
        self.iterations = iterations  # plans rated per descent at most (a guard)
        self.styles = styles
        # the calibrated planner (its defaults are its calibrated settings)
        self.builds_on = PlanningCrew()

    def plan(self, setup: Setup, figures: int, *, fixed: Sequence[Sequence[str]] = (),
             first_turn: int = 1, seed: int = 0, last_turn: int = SLOTS,
             playable: Playable | None = None, damage_seed: int | None = None,
             hands: Hands | None = None) -> Plan:
        """Returns the best plan found for the real draw (``damage_seed`` is required);
        ``fixed`` with ``first_turn`` 1 is a plan to start from (the planner's)."""
        if damage_seed is None:
            raise ValueError("the informed crew plans with the real damage-token seed")
        search = PlanSearch(setup, figures, [damage_seed], fixed=fixed,
                            first_turn=first_turn, playable=playable, hands=hands)
        return to_plan(search.run(self.styles, seed, cap=self.iterations))
