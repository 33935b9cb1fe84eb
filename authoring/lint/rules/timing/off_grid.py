"""Reports times and durations that are not on the 5-second grid.

**What it does.** Checks phase ends, event times and communications-down lengths against a
grid of ``grid`` seconds (lint checklist item 5).

**Why it matters.** Every official time and duration is a multiple of 5 s; an off-grid time
is usually a typo, and the grid keeps hand-written missions easy to check.

**Options.**

* ``grid`` — seconds: ``5``.

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", comms_down: {seconds: 15}}

Fails::

    phases: ["3:47", "7:30", "10:00"]  # <- T103
    events:
      - {at: "0:12", comms_down: {seconds: 14}}  # <- T103, T103
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext, clock, event_path, phase_path
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import indexed
from authoring.mission.model import CommsDown

CODE = "T103"
NAME = "off-grid-time"
SEVERITY = "info"
DEFAULTS: dict[str, object] = {"grid": 5}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields a finding for each time or duration off the grid."""
    grid = int(options["grid"])
    if grid <= 1:
        return
    for phase, end in enumerate(ctx.mission.phases, start=1):
        if end % grid:
            yield Finding(phase_path(phase), f"phase {phase} ends at {clock(end)}: expected a "
                          f"multiple of {grid} s")
    for index, event in indexed(ctx):
        if event.at % grid:
            yield Finding(event_path(index, "at"), f"event at {clock(event.at)}: expected a "
                          f"multiple of {grid} s")
        if isinstance(event, CommsDown) and event.seconds % grid:
            yield Finding(event_path(index, "comms_down", "seconds"),
                          f"communications down for {event.seconds} s: expected a multiple "
                          f"of {grid} s")
