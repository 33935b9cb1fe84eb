"""The planning crew: descent to local optima, phase by phase, on the crew's own picture.

A table that thinks ahead: at the end of each phase (``horizon.plan_by_phase``) it pictures
the board with the threats announced so far, lets ``styles`` heuristic crews plan it, and
improves each of those plans (and the previous phase's sketch) until no single change helps
(``localsearch.PlanSearch.run``, in C when it is built); the best of them is its plan. Plans
are rated by the engine on ``seeds`` damage-token seeds of the crew's own (a table cannot
know the real draw). Heroic actions are allowed where the rule level has them.

``styles`` is the search's budget: more starts find better plans (bench/convergence.py);
``iterations`` only guards each descent. The calibrated 4 starts rate a mission from 500
games in about 43 s on two cores (bench/rating.py). It models foresight and a shared plan,
not a crew's mistakes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from authoring.engine import Plan
from authoring.engine.rules.hands import Hands
from authoring.engine.rules.setup import Setup
from authoring.simulation.heuristic import SLOTS
from authoring.simulation.horizon import Playable
from authoring.simulation.localsearch import DEFAULT_CAP, PlanSearch, objective, to_plan

__all__ = ["TOKENS", "PlanningCrew", "objective"]

#: The plain actions (the rules' action-card halves without heroics), for callers that
#: enumerate a slot's choices.
TOKENS = ("-", "r", "b", "l", "A", "B", "C", "R")


class PlanningCrew:
    """Plans each phase by local search from the best heuristic style."""

    name = "planner"
    omniscient = False
    builds_on = None

    def __init__(self, iterations: int = DEFAULT_CAP, seeds: int = 2, styles: int = 8) -> None:
        self.iterations = iterations  # plans rated per descent at most (a guard, not a budget)
        self.seeds = seeds
        self.styles = styles

    def _seeds(self, seed: int) -> list[int]:
        """Returns the damage-token seeds the crew plans with (not the real draw's)."""
        rng = random.Random(f"planner-seeds:{seed}")
        return [rng.randrange(1 << 30) for _ in range(max(1, self.seeds))]

    def plan(self, setup: Setup, figures: int, *, fixed: Sequence[Sequence[str]] = (),
             first_turn: int = 1, seed: int = 0, last_turn: int = SLOTS,
             playable: Playable | None = None, damage_seed: int | None = None,
             hands: Hands | None = None) -> Plan:
        """Returns a searched plan for the board ``setup``; slots before ``first_turn`` stay
        as ``fixed``. ``last_turn`` (the phase's end) is kept by the caller; the later turns
        are searched too, as the sketch the phase's cards are chosen for."""
        search = PlanSearch(setup, figures, self._seeds(seed), fixed=fixed,
                            first_turn=first_turn, playable=playable, hands=hands)
        return to_plan(search.run(self.styles, seed, cap=self.iterations))
