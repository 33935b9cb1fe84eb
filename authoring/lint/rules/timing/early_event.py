"""Reports events that start before the mission start announcement is over.

**What it does.** Flags any event that starts before ``earliest`` seconds (lint checklist
item 6).

**Why it matters.** The start clip (chirp, pause and "Alert. Enemy activity detected. Please
begin first phase.") lasts about 6.6 s; every official track's first event is at 0:10.

**Options.**

* ``earliest`` — seconds: ``10``.

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", incoming_data: {}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:05", incoming_data: {}}  # <- T104
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext, clock, event_path
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import event_label, indexed

CODE = "T104"
NAME = "early-event"
SEVERITY = "error"
DEFAULTS: dict[str, object] = {"earliest": 10}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields a finding for each event before ``earliest``."""
    earliest = int(options["earliest"])
    for index, event in indexed(ctx):
        if event.at < earliest:
            yield Finding(event_path(index, "at"), f"{event_label(event)} at {clock(event.at)}: "
                          f"expected no event before {clock(earliest)}",
                          hint="the start announcement lasts about 6.6 s")
