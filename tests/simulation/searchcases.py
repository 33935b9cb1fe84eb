"""Random plan searches for comparing the C search with the Python reference.

A case is a generated mission's board (the differential test's missions, every profile, 4 or
5 figures, with pinned expansion cards in some), a phase to search (turn 1, 4 or 8, the
earlier turns fixed from a heuristic plan), dealt hands in most boards where the rules deal
them (every plan projected onto them), and a search: seeds, heuristic styles and the
cap on plans rated per descent (small caps cut descents short, large ones let them end at a
local optimum). Shared by tests/simulation/test_native_search.py.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from authoring.engine import Setup
from authoring.engine.rules.hands import Hands
from authoring.engine.rules.levels import get_level
from authoring.simulation.dealing import crew_labels, deal_for, playable_for
from authoring.simulation.heuristic import HeuristicCrew
from authoring.simulation.localsearch import PlanSearch
from tests.engine.differential import random_case


@dataclass(frozen=True)
class SearchCase:
    """One search: a board and the search's settings."""

    setup: Setup
    figures: int
    first_turn: int
    fixed: tuple[tuple[str, ...], ...]
    seeds: tuple[int, ...]
    styles: int
    cap: int
    style_seed: int
    hands: Hands | None = None  # dealt hands: every plan is projected onto them

    def search(self) -> PlanSearch:
        playable = None if self.hands is None else playable_for(self.hands)
        return PlanSearch(self.setup, self.figures, self.seeds,
                          fixed=[list(row) for row in self.fixed], first_turn=self.first_turn,
                          playable=playable, hands=self.hands)

    def run(self, *, native: bool) -> tuple[list[list[int]], int, int]:
        """Runs the search; returns the plan, its value and the plans rated."""
        search = self.search()
        rows = search.run(self.styles, self.style_seed, cap=self.cap, native=native)
        return [list(row) for row in rows], search.value, search.evaluations


def random_search_case(rng: random.Random) -> SearchCase:
    """Returns one random search (a board of the engine's differential test)."""
    case = random_case(rng)
    setup = case.setup()
    figures = case.players
    mission = case.mission()
    hands = None
    if rng.random() < 0.6:
        hands = deal_for(mission, crew_labels(mission.players, figures),
                         rng.randrange(1 << 30), setup.level)
    turns = min(12, get_level(setup.level).turns)
    first_turn = rng.choice([t for t in (1, 4, 8) if t <= turns])
    fixed: tuple[tuple[str, ...], ...] = ()
    if first_turn > 1 or rng.random() < 0.3:  # played turns, or a sketch to start from
        plan = HeuristicCrew().plan(setup, figures, seed=rng.randrange(1 << 20), hands=hands)
        fixed = tuple(tuple(a.token() for a in member.actions) for member in plan.crew)
    return SearchCase(
        setup=setup, figures=figures, first_turn=first_turn, fixed=fixed,
        seeds=tuple(rng.randrange(1 << 30) for _ in range(rng.choice((1, 2, 3)))),
        styles=rng.choice((1, 2, 3)), cap=rng.choice((0, 5, 60, 400, 100000)),
        style_seed=rng.randrange(1 << 20), hands=hands)
