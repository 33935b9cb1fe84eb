"""Reports a campaign mission that the ship rarely survives with the damage carried into it.

**What it does.** Plays the whole campaign ``games`` times with the heuristic crew and the
stated repair policy (as ``spacealert simulate CAMPAIGN`` does, seeded ``seed``), and plays
each mission after the first ``games`` times on its own, undamaged, with the campaign's
decks. For each later mission it compares the survival of the campaigns that reached it
(with the damage typically carried into it, docs/rules.md §18) with its survival played
fresh, and warns when the first is below ``threshold`` times the second. The comparison needs
at least ``min_reached`` campaigns reaching the mission; a mission the ship never survives
even fresh is left to ``G101``.

**Why it matters.** Unrepaired structural damage doubles every hit in its zone and reactor or
shield tokens cost energy: a mission that is fair on its own may be hopeless as the second or
third of a campaign. The comparison is relative because the heuristic crew is weak (it loses
about half of the official simulations) and plans as if the ship were undamaged.

**Options.** ``games`` (50 campaigns, and as many fresh games per mission), ``seed`` (0),
``threshold`` (0.5: survival with carried damage below half the fresh survival),
``min_reached`` (10 campaigns), ``jobs`` (worker processes, 1).

This rule is opt-in (``--select C103``): it simulates.

Passes (simulation 2 after simulation 1, white decks: about 0.7 of its fresh survival)::

    missions:
      - mission: ../official/simulation-1.yaml
        decks: {common: white, serious: white}
      - mission: ../official/simulation-2.yaml
        decks: {common: white, serious: white}

Fails (simulation 3 with mixed common threats after two simulations: none came through)::

    # options: {min_reached: 5}
    missions:
      - mission: ../official/simulation-1.yaml
        decks: {common: white, serious: white}
      - mission: ../official/simulation-2.yaml
        decks: {common: white, serious: white}
      - mission: ../official/simulation-3.yaml  # <- C103
        decks: {common: mixed, serious: white}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from authoring.engine import EngineError
from authoring.lint.campaign_context import CampaignContext
from authoring.lint.rule import Finding, Options
from authoring.simulation.campaign import CampaignStats, simulate_campaign

CODE = "C103"
NAME = "damaged-unsurvivable"
SEVERITY = "warning"
NEEDS = "campaign"
DEFAULTS: dict[str, object] = {"games": 50, "seed": 0, "threshold": 0.5, "min_reached": 10,
                               "jobs": 1}


def _simulated(ctx: CampaignContext, options: Options) -> CampaignStats:
    key = ("campaign-simulation", int(options["games"]), int(options["seed"]))
    if key not in ctx.cache:
        ctx.cache[key] = simulate_campaign(ctx.campaign, games=int(options["games"]),
                                           seed=int(options["seed"]),
                                           jobs=int(options["jobs"]))
    stats: CampaignStats = ctx.cache[key]
    return stats


def check(ctx: CampaignContext, options: Options) -> Iterator[Finding]:
    """Yields a finding for each later mission much deadlier with carried damage than fresh."""
    missions = ctx.campaign.missions
    if len(missions) < 2:
        return
    try:
        stats = _simulated(ctx, options)
    except EngineError as error:
        yield Finding(("missions",), f"cannot simulate the campaign: {error}", key=True)
        return
    carried = stats.mean_carried()
    for index in range(1, len(missions)):
        number = index + 1
        reached = stats.reached(number)
        if reached < int(options["min_reached"]):
            continue
        damaged = stats.came_through(number) / reached
        alone = dataclasses.replace(ctx.campaign, missions=(missions[index],))
        fresh = simulate_campaign(alone, games=int(options["games"]),
                                  seed=int(options["seed"]),
                                  jobs=int(options["jobs"])).survival_rate
        if fresh > 0 and damaged < float(options["threshold"]) * fresh:
            yield Finding(
                ("missions", index),
                f"mission {number} ({missions[index].reference}) was survived by "
                f"{damaged:.0%} of the {reached} campaigns that reached it (carrying "
                f"{carried[index - 1]:.1f} damage tokens on average) against {fresh:.0%} "
                f"played fresh: below {options['threshold']} x the fresh survival "
                f"({stats.games} games, heuristic crew, seed {stats.seed})",
                hint="put it earlier, choose easier decks for it, or a lighter mission "
                     "before it")
