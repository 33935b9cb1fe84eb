"""Reports threat announcements too close together.

**What it does.** Flags a threat that starts less than ``min_gap`` seconds after the
previous threat's start (lint checklist item 21).

**Why it matters.** Each threat makes an officer draw and place a card and the crew re-plan;
official tracks keep threats at least 25 s apart (median 55 s).

**Options.**

* ``min_gap`` — seconds: ``25`` (double-action ``20``; JSAMG allows 20).

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", threat: {turn: 1, zone: red}}
      - {at: "0:35", threat: {turn: 2, zone: blue}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", threat: {turn: 1, zone: red}}
      - {at: "0:30", threat: {turn: 2, zone: blue}}  # <- T110
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

from authoring.lint.context import LintContext, clock, event_path
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import threats

CODE = "T110"
NAME = "close-threats"
SEVERITY = "warning"
DEFAULTS: dict[str, object] = {"min_gap": 25}
PROFILES = {"double-action": {"min_gap": 20}}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields a finding for each threat less than ``min_gap`` s after the previous one."""
    min_gap = int(options["min_gap"])
    found = sorted(threats(ctx), key=lambda pair: (pair[1].at, pair[0]))
    for (_, before), (index, threat) in pairwise(found):
        if threat.at - before.at < min_gap:
            yield Finding(event_path(index, "at"),
                          f"threat T+{threat.turn} at {clock(threat.at)} starts "
                          f"{threat.at - before.at} s after T+{before.turn} at "
                          f"{clock(before.at)}: expected at least {min_gap} s")
