"""Reports phase lengths outside the profile's norm.

**What it does.** Compares each phase's length (from the previous phase end, or 0:00, to its
own end) with the profile's range for that phase (lint checklist item 4).

**Why it matters.** The crew needs time to plan each phase; the official missions give
phase 1 205-240 s, phase 2 215-235 s and phase 3 140-155 s.

**Options.**

* ``phases`` — ``[min, max]`` seconds per phase: base ``[[205, 240], [215, 235], [140, 155]]``;
  training ``[[205, 250], [200, 235], [140, 155]]`` (the official simulations run phase 1 up
  to 250 s and phase 2 down to 200 s); test-run ``[[220, 250], [170, 200]]``; double-action
  ``[[280, 310], [250, 290], [210, 270]]``.

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events: []

Fails::

    phases: ["3:00", "7:30", "10:00"]  # <- T102, T102
    events: []
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext, phase_path
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import describe_range, in_range

CODE = "T102"
NAME = "phase-length"
SEVERITY = "warning"
DEFAULTS: dict[str, object] = {"phases": [[205, 240], [215, 235], [140, 155]]}
PROFILES = {
    "training": {"phases": [[205, 250], [200, 235], [140, 155]]},
    "test-run": {"phases": [[220, 250], [170, 200]]},
    "double-action": {"phases": [[280, 310], [250, 290], [210, 270]]},
}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields a finding for each phase whose length is outside its range."""
    table = options["phases"]
    for phase, end in enumerate(ctx.mission.phases, start=1):
        if phase > len(table) or table[phase - 1] is None:
            continue
        length = end - ctx.phase_start(phase)
        if not in_range(length, table[phase - 1]):
            yield Finding(phase_path(phase), f"phase {phase} lasts {length} s: expected "
                          f"{describe_range(table[phase - 1], ' s')}")
