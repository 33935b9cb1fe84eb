"""Reports a campaign mission that plays easier decks than the mission before it.

**What it does.** Ranks each mission's chosen decks (white 0, mixed 1, yellow 2, common plus
serious) and warns on a mission whose rank is lower than the previous mission's.

**Why it matters.** Carried-over damage (docs/rules.md §18) already makes later missions
harder, but a campaign whose threat cards get easier plays as an anticlimax: the last mission
is the one a group remembers.

This rule has no options.

Passes::

    missions:
      - mission: ../official/simulation-1.yaml
        decks: {common: white, serious: white}
      - mission: ../official/simulation-2.yaml
        decks: {common: mixed, serious: white}

Fails::

    missions:
      - mission: ../official/simulation-1.yaml
        decks: {common: yellow, serious: white}
      - mission: ../official/simulation-2.yaml  # <- C101
        decks: {common: white, serious: white}
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.campaign_context import CampaignContext
from authoring.lint.rule import Finding, Options
from authoring.lint.rules.campaign._ranks import deck_rank

CODE = "C101"
NAME = "difficulty-falls-off"
SEVERITY = "warning"
NEEDS = "campaign"


def check(ctx: CampaignContext, options: Options) -> Iterator[Finding]:
    """Yields a finding for each mission with easier decks than the one before."""
    missions = ctx.campaign.missions
    for index in range(1, len(missions)):
        decks = missions[index].mission.decks
        if deck_rank(decks) < deck_rank(missions[index - 1].mission.decks):
            yield Finding(("missions", index),
                          f"mission {index + 1} ({missions[index].reference}) plays easier "
                          f"decks ({decks.common}/{decks.serious}) than mission {index}",
                          hint="choose the same or harder decks for later missions")
