"""Reports events that start too soon after the previous one.

**What it does.** Flags an event that starts less than ``min_gap`` seconds after the
previous event's start (lint checklist item 9), whatever their kinds.

**Why it matters.** The smallest start-to-start gap in the official tracks is 10 s; closer
events crowd the officers, and two events on one second are the classic "lost announcement"
of published generators.

**Options.**

* ``min_gap`` — seconds: ``10``.

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", incoming_data: {}}
      - {at: "0:20", incoming_data: {}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", incoming_data: {}}
      - {at: "0:15", incoming_data: {}}  # <- T108
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

from authoring.lint.context import LintContext, clock, event_path
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import event_label, indexed

CODE = "T108"
NAME = "close-events"
SEVERITY = "warning"
DEFAULTS: dict[str, object] = {"min_gap": 10}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields a finding for each event less than ``min_gap`` s after the previous one."""
    min_gap = int(options["min_gap"])
    ordered = sorted(indexed(ctx), key=lambda pair: (pair[1].at, pair[0]))
    for (_, before), (index, event) in pairwise(ordered):
        gap = event.at - before.at
        if gap < min_gap:
            yield Finding(event_path(index, "at"),
                          f"{event_label(event)} at {clock(event.at)} starts {gap} s after "
                          f"the {event_label(before)} at {clock(before.at)}: expected at "
                          f"least {min_gap} s")
