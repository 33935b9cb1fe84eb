"""Reports a phase whose first threat comes unusually early or late.

**What it does.** Measures the first threat of phase 1 from the mission start and the first
threat of phase 2 from the end of phase 1, and compares them with ranges (lint checklist
item 20). A phase without threats is not this rule's concern.

**Why it matters.** Official missions open phase 1 with a threat at 0:10-0:20 and phase 2
within 5-40 s; a late first threat leaves the crew planning in the dark.

**Options.**

* ``first_phase`` — ``[min, max]`` seconds after the start: ``[10, 20]`` (double-action
  ``[10, 40]``: three of its 18 official tracks open at 0:25 or 0:40).
* ``second_phase`` — ``[min, max]`` seconds after phase 1 ends: ``[5, 40]``
  (double-action ``[5, 65]``).

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", threat: {turn: 1, zone: red}}
      - {at: "4:00", threat: {turn: 5, zone: blue}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:45", threat: {turn: 1, zone: red}}  # <- T109
      - {at: "5:00", threat: {turn: 5, zone: blue}}  # <- T109
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext, clock, event_path
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import describe_range, in_range, threats

CODE = "T109"
NAME = "first-threat-timing"
SEVERITY = "warning"
DEFAULTS: dict[str, object] = {"first_phase": [10, 20], "second_phase": [5, 40]}
PROFILES = {"double-action": {"first_phase": [10, 40], "second_phase": [5, 65]}}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields a finding for each of phases 1 and 2 whose first threat is out of range."""
    for phase, key in ((1, "first_phase"), (2, "second_phase")):
        if phase > len(ctx.mission.phases):
            break
        found = [(i, t) for i, t in threats(ctx) if ctx.mission.phase_of(t.at) == phase]
        if not found:
            continue
        index, threat = found[0]
        start = ctx.phase_start(phase)
        after = threat.at - start
        if not in_range(after, options[key]):
            yield Finding(event_path(index, "at"),
                          f"the first threat of phase {phase} comes {after} s after the phase "
                          f"starts ({clock(threat.at)}): expected "
                          f"{describe_range(options[key], ' s')}")
