"""Hypothesis strategies for random legal setups and plans (shared by tests and the bench)."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from authoring.engine import Plan, Setup, make_setup
from authoring.engine.rules.plan import DOUBLE_PAIRS, make_crew_plan
from authoring.engine.rules.threats.cards import load_cards

SIMPLE = ["-", "-", "r", "b", "l", "A", "A", "B", "C", "R"]
HEROIC = ["A+", "B+", "R+", ">UR", ">UW", ">UB", ">LR", ">LW", ">LB"]
BASE = sorted(c.id for c in load_cards().values() if c.set == "base")
EXTERNAL = [c for c in BASE if "E" in c.split("-")[0]]
INTERNAL = [c for c in BASE if "I" in c.split("-")[0]]


def random_setup(rng: random.Random, threats: int = 6, doubles: bool = False) -> Setup:
    """Returns a random legal setup: distinct cards, turns 1-8, four different boards (on a
    double-action track with ``doubles``)."""
    cards = rng.sample(BASE, threats)
    events = []
    for card in cards:
        zone = "internal" if card in INTERNAL else rng.choice(["red", "white", "blue"])
        events.append((rng.randint(1, 8), zone, card))
    tracks = rng.sample([f"T{n}" for n in range(1, 8)], 4)
    return make_setup(events, " ".join(tracks), double_actions=doubles)


def random_plan(rng: random.Random, crew: int = 4, doubles: bool = False) -> Plan:
    """Returns a random legal plan: 12 slots each, at most one heroic card per member; with
    ``doubles`` half the cards are double actions (docs/rules.md §19.2)."""
    members = []
    for index in range(crew):
        tokens = [rng.choice(DOUBLE_PAIRS) if doubles and rng.random() < 0.5
                  else rng.choice(SIMPLE) for _ in range(12)]
        if rng.random() < 0.5:
            tokens[rng.randrange(12)] = rng.choice(HEROIC)
        members.append(make_crew_plan(f"P{index + 1}", tokens))
    return Plan(tuple(members), seed=rng.randrange(2**32))


seeds = st.integers(min_value=0, max_value=2**32 - 1)
