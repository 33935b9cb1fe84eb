"""Reports a mission length outside the profile's norm.

**What it does.** Compares the mission end (the last phase end) with the profile's range
(lint checklist item 3).

**Why it matters.** The official missions last 9:40-10:20; published generators drifted
shorter (JSAMG's mean 9:33 is below every official mission) and crews noticed.

**Options.**

* ``length`` — ``[min, max]`` seconds: base and training ``[580, 620]``, test-run
  ``[400, 440]``, double-action ``[750, 840]``.

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events: []

Fails::

    phases: ["3:30", "6:45", "9:00"]  # <- T101
    events: []
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext, clock, phase_path
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import in_range

CODE = "T101"
NAME = "mission-length"
SEVERITY = "warning"
DEFAULTS: dict[str, object] = {"length": [580, 620]}
PROFILES = {"test-run": {"length": [400, 440]}, "double-action": {"length": [750, 840]}}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields a finding when the mission end is outside the range."""
    bounds = options["length"]
    length = ctx.mission.length
    if not in_range(length, bounds):
        low, high = bounds
        yield Finding(phase_path(len(ctx.mission.phases)),
                      f"the mission lasts {clock(length)}: expected "
                      f"{clock(low) if low is not None else '…'}-"
                      f"{clock(high) if high is not None else '…'} for the {ctx.profile} profile")
