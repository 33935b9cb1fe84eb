"""Deals a simulated crew its action cards and keeps every crew's plan within them.

The engine's ``authoring/engine/hands.py`` knows no missions: this module reads a mission's
incoming data and data transfers (by phase, in time order) and deals with a seed derived from
the game's plan seed, so that a game's threat draw and damage seed are the same with and
without hands (the two figures compare game by game). A crew that plans from its hands (its
``plays_hands``) gets them; any plan is then projected onto the hands, which leaves a playable
plan unchanged and blanks the slots of any other crew's plan that find no card
(docs/rules.md §16).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from authoring.engine import Plan
from authoring.engine.hands import Hands, deal, mission_events, project
from authoring.engine.levels import get_level
from authoring.engine.plan import BLANK_ACTION, CrewPlan
from authoring.mission.model import Mission


def deal_for(mission: Mission, labels: Sequence[str], seed: int, level: int) -> Hands:
    """Deals the crew's hands for a game (its own generator, seeded from ``seed``)."""
    return deal(labels, mission_events(mission), random.Random(f"hands:{seed}"),
                heroics=get_level(level).heroics)


def within_hands(plan: Plan, hands: Hands, turns: int = 12) -> Plan:
    """Keeps the first ``turns`` turns of the plan, projected onto the hands."""
    crew = tuple(CrewPlan(row.label, row.actions[:turns]
                          + (BLANK_ACTION,) * (len(row.actions) - turns)) for row in plan.crew)
    return Plan(project(hands, crew), plan.draw, plan.trajectories, plan.seed, plan.tokens)


def crew_plan(crew: Any, hands: Hands | None, *args: Any, **options: Any) -> Plan:
    """Calls ``crew.plan``; with hands, gives them to a crew that uses them and projects."""
    if hands is None:
        plan: Plan = crew.plan(*args, **options)
        return plan
    if getattr(crew, "plays_hands", False):
        options["hands"] = hands
    plan = crew.plan(*args, **options)
    return within_hands(plan, hands, options.get("last_turn", 12))
