"""Reports threats that a crew could not destroy even with the whole ship against them.

**What it does.** For each threat of the mission, draws ``games`` cards for it (from the
mission's decks) and trajectories, and searches a plan against that threat alone — the
heuristic crew's plan improved by local search with the engine, rewarded only for
destroying it. A threat destroyed in none of the draws is reported: given its turn and zone
(a late turn on a short trajectory, an internal threat too late to reach), the crew never
gets it.

**Why it matters.** An undestroyable threat only scores its "survived" points and reads as
a mistake in the mission; the official missions have none.

**Options.** ``games`` (draws per threat, 6), ``iterations`` (search steps, 80), ``seed``.

**Limits.** The search is local (one slot changed at a time), so it can miss plans that need
several coordinated steps, typically fetching battlebots in advance for a late intruder: the
rule may report a threat that a skilled table would destroy. Treat a report as "check this
threat", not as proof.

This rule is opt-in (``--select G``).

Passes::

    # options: {games: 2, iterations: 10}
    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", threat: {turn: 1, zone: red}}

Fails (without search, the heuristic crew does not get a squad to a T+8 saboteur in time)::

    # options: {games: 1, iterations: 0}
    trajectories: {red: T1, white: T2, blue: T3, internal: T4}
    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "4:00", threat: {turn: 8, zone: internal, card: I1-03}}  # <- G102
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from authoring.engine import EngineError, Plan, make_crew_plan, resolve
from authoring.engine.setup import Setup, setup_from_mission
from authoring.lint.context import LintContext, event_path
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import threats
from authoring.lint.sim.heuristic import HeuristicCrew
from authoring.lint.sim.montecarlo import figures_for
from authoring.lint.sim.planner import TOKENS

CODE = "G102"
NAME = "undestroyable-threat"
SEVERITY = "warning"
NEEDS = "simulation"
DEFAULTS: dict[str, object] = {"games": 6, "iterations": 80, "seed": 0}


def _destroyed(setup: Setup, slots: list[list[str]], seed: int) -> bool:
    plan = Plan(tuple(make_crew_plan(f"P{i + 1}", s) for i, s in enumerate(slots)))
    result = resolve(setup, plan, seed=seed, record=False)
    return any(t.fate == "destroyed" for t in result.threats)


def can_destroy(ctx: LintContext, index: int, games: int, iterations: int, seed: int) -> bool:
    """Tells whether a searched plan destroys threat ``index`` (alone) in some draw."""
    figures = figures_for(ctx.mission)
    threat = ctx.mission.threats()[index]
    for game in range(games):
        rng = random.Random(f"{seed}:{index}:{game}")
        blank = Plan(tuple(make_crew_plan(f"P{i + 1}", "") for i in range(figures)),
                     seed=rng.randrange(1 << 30))
        full = setup_from_mission(ctx.mission, blank, figures=5)
        event = next((e for e in full.threats if (e.turn, e.zone) == (threat.turn, threat.zone)),
                     None)
        if event is None or event.turn > 12:
            continue
        setup = Setup((event,), full.trajectories, None)
        plan = HeuristicCrew().plan(setup, figures, seed=game)
        slots = [[a.token() for a in m.actions] for m in plan.crew]
        damage_seed = rng.randrange(1 << 30)
        if _destroyed(setup, slots, damage_seed):
            return True
        for _ in range(iterations):
            member, slot = rng.randrange(figures), rng.randrange(12)
            old = slots[member][slot]
            slots[member][slot] = rng.choice(TOKENS)
            if _destroyed(setup, slots, damage_seed):
                return True
            if rng.random() < 0.5:
                slots[member][slot] = old
    return False


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields a finding for each threat no searched plan destroys."""
    games, iterations = int(options["games"]), int(options["iterations"])
    for position, (index, threat) in enumerate(threats(ctx)):
        if threat.unconfirmed and ctx.mission.players < 5:
            continue
        try:
            destroyable = can_destroy(ctx, position, games, iterations, int(options["seed"]))
        except EngineError as error:
            yield Finding(event_path(index, "threat"), f"cannot simulate the threat: {error}")
            continue
        if not destroyable:
            yield Finding(event_path(index, "threat"),
                          f"T+{threat.turn} {threat.zone} threat was destroyed in none of "
                          f"{games} draws, even by a crew with nothing else to do",
                          hint="announce it earlier or in another zone")
