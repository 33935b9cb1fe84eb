"""Reports "ambush" threats beyond the official pattern.

**What it does.** An ambush is a threat announced after a phase's one-minute warning has
begun (later than ``E - 60 s``). At most ``max_per_phase`` ambushes are allowed per phase,
each starting ``window`` seconds before the phase end (lint checklist item 22). Starts in
the one-minute warning itself or after ``E - 40 s`` are also ``T105`` errors; this rule adds
the stricter window of the profile.

**Why it matters.** An ambush is a deliberate shock: the crew must re-plan with less than a
minute left. The official tracks do it in 3 of 16 threat phases, always exactly 55 s before
the end; more than one per phase is not Space Alert pacing.

**Options.**

* ``max_per_phase`` — ``1``.
* ``window`` — ``[min, max]`` seconds before the phase end: ``[40, 55]`` (double-action
  ``[45, 55]``; JSAMG uses 25-59 and MA 40-50).

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "2:50", threat: {turn: 3, zone: red}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "2:50", threat: {turn: 3, zone: red}}
      - {at: "3:05", threat: {turn: 4, zone: blue}}  # <- T111
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from authoring.lint.context import LintContext, clock, event_path
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import describe_range, in_range, threats

CODE = "T111"
NAME = "ambush-threat"
SEVERITY = "warning"
DEFAULTS: dict[str, object] = {"max_per_phase": 1, "window": [40, 55]}
PROFILES = {"double-action": {"window": [45, 55]}}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields findings for ambushes outside the window or beyond the count per phase."""
    per_phase: dict[int, int] = defaultdict(int)
    for index, threat in threats(ctx):
        phase = ctx.mission.phase_of(threat.at)
        end = ctx.mission.phases[phase - 1]
        left = end - threat.at
        if not 0 < left < 60:
            continue
        per_phase[phase] += 1
        where = event_path(index, "at")
        if per_phase[phase] > int(options["max_per_phase"]):
            yield Finding(where, f"threat at {clock(threat.at)} is ambush number "
                          f"{per_phase[phase]} after the one-minute warning of phase {phase}: "
                          f"expected at most {options['max_per_phase']}")
        elif not in_range(left, options["window"]):
            yield Finding(where, f"ambush threat at {clock(threat.at)} starts {left} s before "
                          f"phase {phase} ends: expected "
                          f"{describe_range(options['window'], ' s')} before the end")
