"""The omniscient crew: the solver's search with the whole draw known, an upper bound.

It sees everything before turn 1: every threat card with its trajectory and the damage-token
seed the game will be resolved with. Its plan is therefore rated on the one real future
(exact, no expectation), and it never has to guess what the soundtrack will announce. No
table plays like this: its difficulty is an estimate of how hard the mission is for a crew
that makes no mistake of information. The search is the planning crew's
(``localsearch.PlanSearch``) with a larger budget; it finds a good plan, not a proven best, so
the bound is an estimate from below.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from authoring.engine import Plan
from authoring.engine.hands import Hands
from authoring.engine.setup import Setup
from authoring.simulation.heuristic import SLOTS
from authoring.simulation.horizon import Playable
from authoring.simulation.localsearch import PlanSearch, to_plan

#: Neighbours evaluated per round of the search (one engine batch call).
BATCH = 16


class OmniscientCrew:
    """Plans all 12 turns once, knowing the threats and the damage tokens."""

    name = "omniscient"
    omniscient = True

    def __init__(self, iterations: int = 160, styles: int = 16, sweeps: int = 1) -> None:
        self.iterations = iterations
        self.styles = styles
        self.sweeps = sweeps

    def plan(self, setup: Setup, figures: int, *, fixed: Sequence[Sequence[str]] = (),
             first_turn: int = 1, seed: int = 0, last_turn: int = SLOTS,
             playable: Playable | None = None, damage_seed: int | None = None,
             hands: Hands | None = None) -> Plan:
        """Returns the best plan found for the real draw (``damage_seed`` is required)."""
        if damage_seed is None:
            raise ValueError("the omniscient crew plans with the real damage-token seed")
        search = PlanSearch(setup, figures, [damage_seed], fixed=fixed,
                            first_turn=first_turn, playable=playable, hands=hands)
        start, value = search.best_start(self.styles, seed)
        for _ in range(self.sweeps):
            start, value = search.sweep(start, value)
        rounds = -(-self.iterations // BATCH)
        best, _ = search.climb(start, value, rounds=rounds, batch=BATCH,
                               rng=random.Random(f"omniscient:{seed}"))
        return to_plan(best)
