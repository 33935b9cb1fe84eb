"""Reports threats that a crew could not destroy even with the whole ship against them.

**What it does.** For each threat of the mission, draws ``games`` cards for it (from the
mission's decks) and trajectories, and searches a plan against that threat alone — the
heuristic crew's plan, for an internal threat also a plan that sends the whole crew at it,
then local search with the engine (heroic actions allowed, one per crew member), rewarded
only for destroying it. A threat destroyed in none of the draws is reported: given its turn and zone
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

A Contamination on T+8 spreads over four stations; no plan the search finds clears it
before it leaves.

Fails::

    # options: {games: 1, iterations: 20}
    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "4:00", threat: {turn: 8, zone: internal, serious: true, card: SI2-04}}  # <- G102
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from authoring.engine import EngineError, Plan, make_crew_plan, resolve
from authoring.engine.rules.setup import Setup, setup_from_mission
from authoring.engine.rules.state import start_stations
from authoring.engine.rules.threats.cards import get_card
from authoring.lint.context import LintContext, event_path
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import threats
from authoring.simulation.heuristic import HeuristicCrew, path
from authoring.simulation.montecarlo import figures_for
from authoring.simulation.planner import TOKENS

CODE = "G102"
NAME = "undestroyable-threat"
SEVERITY = "warning"
NEEDS = "simulation"
DEFAULTS: dict[str, object] = {"games": 6, "iterations": 80, "seed": 0}
#: The search may use each crew member's heroic card (battlebots that are not disabled).
SEARCH_TOKENS = (*TOKENS, "A+", "B+", "R+")


def _destroyed(setup: Setup, slots: list[list[str]], seed: int) -> bool:
    plan = Plan(tuple(make_crew_plan(f"P{i + 1}", s) for i, s in enumerate(slots)))
    result = resolve(setup, plan, seed=seed, record=False)
    return any(t.fate == "destroyed" for t in result.threats)


def swarm_plan(event_turn: int, stations: tuple[int, ...], system: str | None,
               figures: int) -> list[list[str]]:
    """Returns a plan sending the whole crew at one internal threat.

    Malfunctions: every crew member walks to one of its stations (spread over them) before
    it appears and hits it with the system's letter every turn. Intruders: the first two crew
    members take the squads at upper blue and lower red, everyone walks to the intruder's
    station and fights (the first blow heroic, so the squad is not disabled).
    """
    slots = [["-"] * 12 for _ in range(figures)]
    if not stations:
        return slots
    for member in range(figures):
        row = slots[member]
        station = stations[member % len(stations)]
        if system in ("A", "B", "C"):
            moves = path(1, station)
            start = max(0, event_turn - 1 - len(moves))
            for offset, move in enumerate(moves):
                row[start + offset] = move
            for turn in range(start + len(moves), 12):
                row[turn] = system
            continue
        pickup = (2, 3)[member] if member < 2 else None  # upper blue, lower red
        turn = 0
        if pickup is not None:
            for move in path(1, pickup):
                row[turn] = move
                turn += 1
            row[turn] = "C"
            turn += 1
            here = pickup
        else:
            here = 1
        for move in path(here, station):
            row[turn] = move
            turn += 1
        first = True
        for later in range(max(turn, event_turn - 1), 12):
            row[later] = "R+" if first and pickup is not None else "R"
            first = False
    return slots


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
        card = get_card(event.card)
        if not card.external:
            slots = swarm_plan(event.turn, tuple(start_stations(card, event.turn)), card.system,
                               figures)
            if _destroyed(setup, slots, damage_seed):
                return True
        for _ in range(iterations):
            member, slot = rng.randrange(figures), rng.randrange(12)
            old = slots[member][slot]
            slots[member][slot] = rng.choice(SEARCH_TOKENS)
            if any(t.endswith("+") for t in slots[member]) and sum(
                    t.endswith("+") for t in slots[member]) > 1:
                slots[member][slot] = old  # one heroic card per crew member
                continue
            if _destroyed(setup, slots, damage_seed):
                return True
            if rng.random() < 0.5:
                slots[member][slot] = old
    return False


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields a finding for each threat no searched plan destroys."""
    games, iterations = int(options["games"]), int(options["iterations"])
    for position, (index, threat) in enumerate(threats(ctx)):
        if threat.unconfirmed and not ctx.mission.crew.plays_unconfirmed:
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
