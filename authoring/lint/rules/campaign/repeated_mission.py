"""Reports a mission file that a campaign plays twice.

**What it does.** Warns on a campaign entry that names the same mission file as an earlier
entry (by path or by id: both resolve to a file).

**Why it matters.** A campaign (docs/rules.md §18) is up to three different missions flown
with one ship; replaying a mission whose threats the crew has just heard gives it away. The
rule is a warning, not an error: a group may want exactly that rematch.

This rule has no options.

Passes::

    missions:
      - mission: ../official/simulation-1.yaml
      - mission: ../official/simulation-2.yaml

Fails::

    missions:
      - mission: ../official/simulation-1.yaml
      - mission: ../official/simulation-1.yaml  # <- C102
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from authoring.lint.campaign_context import CampaignContext
from authoring.lint.rule import Finding, Options

CODE = "C102"
NAME = "repeated-mission"
SEVERITY = "warning"
NEEDS = "campaign"


def check(ctx: CampaignContext, options: Options) -> Iterator[Finding]:
    """Yields a finding for each entry naming a mission file already in the campaign."""
    seen: dict[str, int] = {}
    for index, entry in enumerate(ctx.campaign.missions):
        key = str(Path(entry.file))
        if key in seen:
            yield Finding(("missions", index, "mission"),
                          f"mission {entry.reference!r} is already mission {seen[key] + 1} "
                          "of the campaign")
        else:
            seen[key] = index
