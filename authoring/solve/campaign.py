"""Plans a whole exploration campaign (docs/rules.md §18): each mission's plan and the repairs.

Each mission is solved on its own (the plan search knows nothing of carried damage: the same
limitation as the simulated crews). Then, mission by mission, the ship is flown with the
mission's plan and its seed; the repairs after it are chosen among every legal set of repairs
(as many as there are conscious crew members, at most two tokens a zone) by the value of the
rest of the campaign: the remaining missions are resolved from the repaired ship over
``samples`` damage-token seeds (later repairs by the stated policy), a lost campaign counting
``LOST``. The policy's own choice is always a candidate, so the search never does worse than
the policy under that estimate.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from authoring.engine import Plan, Setup
from authoring.engine.rules.campaign import (
    REPAIRS_PER_ZONE,
    SQUAD,
    CarryOver,
    Wreck,
    play_mission,
    policy_repairs,
    repair,
    wreck_of,
)
from authoring.engine.rules.plan import TOKEN_KINDS
from authoring.engine.rules.ship import ZONE_NAMES
from authoring.mission.campaign import Campaign
from authoring.solve.problem import prepare, to_plan
from authoring.solve.search import solve

#: The value of a campaign lost in the look-ahead (far below any score).
LOST = -100.0
#: At most this many repair sets are compared after a mission (policy-ordered first).
MAX_CANDIDATES = 300


@dataclass(frozen=True)
class CampaignPlan:
    """The plans of every mission, the repairs between them and their estimated values."""

    campaign: Campaign
    plans: tuple[Plan, ...]
    repairs: tuple[dict[str, str], ...]
    values: tuple[float, ...]  # estimated value of the rest of the campaign after each repair

    def to_mapping(self) -> dict[str, Any]:
        """Returns a campaign plan file (``schemas/campaign-plan.schema.json``)."""
        missions: list[dict[str, Any]] = []
        for index, plan in enumerate(self.plans):
            entry: dict[str, Any] = {"plan": plan.to_mapping()}
            if index < len(self.repairs):
                entry["repairs"] = dict(self.repairs[index])
            missions.append(entry)
        return {"campaign_plan": 1, "campaign": self.campaign.id,
                "description": "found by spacealert solve: each mission solved, repairs "
                               "chosen by look-ahead over the rest of the campaign",
                "missions": missions}


def _items(wreck: Wreck) -> list[str]:
    """Every single repair possible, in the policy's order of preference."""
    order = {kind: rank for rank, kind in enumerate(
        ("structural", "reactor", "shield", SQUAD, "upper-cannon", "lower-cannon",
         "gravolift"))}
    items = [f"{ZONE_NAMES[z]}:{TOKEN_KINDS[k]}" for z in range(3) for k in wreck.tokens[z]]
    items += [SQUAD] * wreck.squads
    return sorted(items, key=lambda item: order[item.partition(":")[2] or SQUAD])


def candidate_repairs(wreck: Wreck) -> list[dict[str, str]]:
    """Returns the legal repair choices worth comparing, the policy's first.

    Repairing never hurts, so every candidate repairs as much as the crew can.
    """
    crew = [label for label in wreck.crew if label not in wreck.knocked_out]
    items = _items(wreck)
    size = min(len(crew), len(items))
    found: list[dict[str, str]] = [policy_repairs(wreck)]
    seen = {tuple(sorted(found[0].values()))}
    for combo in itertools.combinations(items, size):
        key = tuple(sorted(combo))
        if key in seen:
            continue
        per_zone = [sum(1 for c in combo if c.startswith(z + ":")) for z in ZONE_NAMES[:3]]
        if max(per_zone, default=0) > REPAIRS_PER_ZONE:
            continue
        seen.add(key)
        found.append(dict(zip(crew, combo, strict=False)))
        if len(found) >= MAX_CANDIDATES:
            break
    return found


def rest_value(setups: Sequence[Setup], plans: Sequence[Plan], carry: CarryOver,
               seeds: Sequence[int]) -> float:
    """Returns the mean value of flying ``setups`` from ``carry`` over the damage seeds.

    A survived rest is worth its threat points and confirmation share minus the last
    mission's penalties; a loss is worth ``LOST``.
    """
    total = 0.0
    for seed in seeds:
        state_carry = carry
        value = 0.0
        for index, (setup, plan) in enumerate(zip(setups, plans, strict=True)):
            result, state = play_mission(setup, plan, state_carry, seed=seed + index,
                                         record=False)
            if not result.survived or result.score is None:
                value = LOST
                break
            score = result.score
            value += score.threats + score.visual_confirmation / len(setups)
            if index == len(setups) - 1:
                value -= (score.damage + score.worst_zone + score.knocked_out
                          + score.disabled_squads + state_carry.squads)
            else:
                state_carry, _ = repair(wreck_of(state, state_carry.squads),
                                        policy_repairs(wreck_of(state, state_carry.squads)))
        total += value
    return total / max(1, len(seeds))


def plan_repairs(setups: Sequence[Setup], plans: Sequence[Plan], *, samples: int = 16,
                 seed: int = 0) -> tuple[list[dict[str, str]], list[float]]:
    """Chooses the repairs after each mission but the last (see the module docstring)."""
    seeds = [seed * 1_000_003 + 7919 * k for k in range(samples)]
    carry = CarryOver()
    chosen: list[dict[str, str]] = []
    values: list[float] = []
    for index in range(len(setups) - 1):
        result, state = play_mission(setups[index], plans[index], carry, record=False)
        if not result.survived:
            break
        wreck = wreck_of(state, carry.squads)
        best: tuple[float, int, dict[str, str], CarryOver] | None = None
        for number, choices in enumerate(candidate_repairs(wreck)):
            after, _ = repair(wreck, choices)
            value = rest_value(setups[index + 1:], plans[index + 1:], after, seeds)
            if best is None or value > best[0]:
                best = (value, number, choices, after)
        assert best is not None
        chosen.append(best[2])
        values.append(best[0])
        carry = best[3]
    return chosen, values


def solve_campaign(campaign: Campaign, *, seed: int = 0, iterations: int = 2000,
                   jobs: int = 1, restarts: int = 2, heroics: bool = True,
                   samples: int = 16, progress: Callable[[str], None] | None = None
                   ) -> CampaignPlan:
    """Solves every mission (threat draws seeded ``seed``, ``seed + 1`` …), then the repairs."""
    plans: list[Plan] = []
    setups: list[Setup] = []
    for index, entry in enumerate(campaign.missions):
        if progress is not None:
            progress(f"solving mission {index + 1}: {entry.mission.id}")
        crew = entry.crew
        problem = prepare(entry.mission, seed=seed + index, players=crew.players,
                          figures=crew.figures)
        request = problem.request(iterations=iterations, time_limit=None, jobs=jobs,
                                  restarts=restarts, heroics=heroics)
        plans.append(to_plan(problem, solve(request).slots))
        setups.append(problem.setup)
    if progress is not None:
        progress("choosing the repairs")
    repairs, values = plan_repairs(setups, plans, samples=samples, seed=seed)
    return CampaignPlan(campaign, tuple(plans), tuple(repairs), tuple(values))
