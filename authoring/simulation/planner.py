"""The planning crew: local search over plans with the engine, seeded by the heuristic crew.

It first lets the heuristic crew plan with ``styles`` styles (40 by default: who answers
internal threats, how energy is spent, home posts) and keeps the plan the engine rates best
on the crew's own damage-token seeds (the crew cannot know the real draw). From there it
mutates one slot at a time (a random action for one crew member in one turn, or a swap of
two neighbouring slots) and keeps a change when the engine scores the plan at least as well;
simulated annealing lets it accept a slightly worse plan early on. Given dealt hands
(docs/rules.md §16.1), the styles plan from them and every candidate is projected onto them
before the engine rates it, so the search only keeps plans the crew can play.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence

from authoring.engine import Plan, make_crew_plan
from authoring.engine.cores import resolve_batch
from authoring.engine.hands import Hands
from authoring.engine.levels import get_level
from authoring.engine.log import Result
from authoring.engine.plan import CrewPlan, parse_action
from authoring.engine.setup import Setup
from authoring.simulation.heuristic import SLOTS, HeuristicCrew, styles

TOKENS = ("-", "r", "b", "l", "A", "B", "C", "R")


def objective(result: Result) -> float:
    """Rates a resolution: survival first, then the score; a loss is better the later it is."""
    if result.survived and result.score is not None:
        return 1000.0 + result.score.total
    destroyed = sum(t.points for t in result.threats if t.fate == "destroyed")
    damage = sum(len(tokens) for tokens in result.damage.values())
    return 40.0 * result.turn + destroyed - damage


def evaluate(setup: Setup, slots: Sequence[Sequence[str]], seeds: Sequence[int]) -> float:
    """Returns the mean objective of a plan over the planning seeds."""
    plan = Plan(tuple(make_crew_plan(f"P{i + 1}", s) for i, s in enumerate(slots)))
    # One batch call: the native engine core when it is built (the same results, faster).
    results = resolve_batch([(setup, plan)] * len(seeds), seeds)
    return sum(objective(result) for result in results) / len(seeds)


def within_hands(hands: Hands, slots: Sequence[Sequence[str]]) -> list[list[str]]:
    """The token rows projected onto the hands (``authoring/engine/hands.py``)."""
    from authoring.engine.hands import project

    crew = tuple(CrewPlan(f"P{i + 1}", tuple(_action(t) for t in row))
                 for i, row in enumerate(slots))
    projected = project(hands, crew)
    if projected is crew:  # playable: unchanged
        return [list(row) for row in slots]
    return [[a.token() for a in member.actions] for member in projected]


_action = functools.cache(parse_action)


def _tokens(plan: Plan) -> list[list[str]]:
    return [[a.token() for a in member.actions] for member in plan.crew]


class PlanningCrew:
    """Improves the heuristic plan by annealed local search with the engine."""

    name = "planner"
    #: Plans from dealt hands when given them: the start and every candidate fit the cards.
    plays_hands = True

    def __init__(self, iterations: int = 300, seeds: int = 2, styles: int = 40) -> None:
        self.iterations = iterations
        self.seeds = seeds
        self.styles = styles
        self.heuristic = HeuristicCrew()

    def _seeds(self, seed: int) -> list[int]:
        """Returns the damage-token seeds the crew plans with (not the real draw's)."""
        rng = random.Random(f"planner-seeds:{seed}")
        return [rng.randrange(1 << 30) for _ in range(self.seeds)]

    def plan(self, setup: Setup, figures: int, *, fixed: Sequence[Sequence[str]] = (),
             first_turn: int = 1, seed: int = 0, last_turn: int = SLOTS,
             hands: Hands | None = None) -> Plan:
        """Returns a searched plan; slots before ``first_turn`` stay as ``fixed``.

        Only turns ``first_turn`` … ``last_turn`` are searched (the crew plans one phase at a
        time); the later turns keep the heuristic's plan.
        """
        rng = random.Random(f"planner:{seed}")
        seeds = self._seeds(seed)
        start, score = None, -math.inf
        for style in styles(random.Random(f"styles:{seed}"), max(1, self.styles)):
            candidate_plan = HeuristicCrew(style=style).plan(
                setup, figures, fixed=fixed, first_turn=first_turn, seed=seed, hands=hands)
            value = evaluate(setup, _tokens(candidate_plan), seeds)
            if value > score:
                start, score = candidate_plan, value
        assert start is not None
        current = _tokens(start)
        best, best_score = [m[:] for m in current], score
        # rule level 1 (test runs) plays fewer turns: later slots must stay blank
        span = range(first_turn - 1, min(last_turn, SLOTS, get_level(setup.level).turns))
        if not span:
            return start
        for step in range(self.iterations):
            temperature = 20.0 * (1 - step / self.iterations)
            candidate = [m[:] for m in current]
            member = rng.randrange(figures)
            slot = rng.choice(span)
            if rng.random() < 0.25 and slot + 1 in span:
                row = candidate[member]
                row[slot], row[slot + 1] = row[slot + 1], row[slot]
            else:
                candidate[member][slot] = rng.choice(TOKENS)
            if hands is not None:  # the slots that find no card become blank
                candidate = within_hands(hands, candidate)
            value = evaluate(setup, candidate, seeds)
            if value >= score or (temperature > 0 and rng.random() < math.exp(
                    (value - score) / temperature)):
                current, score = candidate, value
                if value > best_score:
                    best, best_score = [m[:] for m in candidate], value
        return Plan(tuple(make_crew_plan(f"P{i + 1}", s) for i, s in enumerate(best)))
