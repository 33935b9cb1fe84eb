"""Reports threats announced in the wrong phase for their turn.

**What it does.** Threats for T+1 … T+4 are announced in phase 1 and T+5 … T+8 in phase 2;
nothing is announced in phase 3 (lint checklist item 10). Under the ``test-run`` profile the
second phase holds turns 4-7 (the first-game level plays turns 1-7), so T+4 may open phase 2
as in the second official test run. A threat at exactly a phase end belongs to the next
phase.

**Why it matters.** The crew plans a phase's turns during that phase; a T+3 threat heard in
phase 2 arrives after the crew has locked its turn-3 actions.

**Options.**

* ``phase_turns`` — the allowed ``[first, last]`` turns per phase (``[]`` for none).
  base, training, double-action ``[[1, 4], [5, 8], []]``; test-run ``[[1, 4], [4, 7]]``.

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", threat: {turn: 1, zone: red}}
      - {at: "3:50", threat: {turn: 5, zone: blue}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "3:50", threat: {turn: 4, zone: red}}  # <- M103
      - {at: "7:40", threat: {turn: 8, zone: blue}}  # <- M103
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext, clock, event_path
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import threats

CODE = "M103"
NAME = "threat-in-wrong-phase"
SEVERITY = "error"
DEFAULTS: dict[str, object] = {"phase_turns": [[1, 4], [5, 8], []]}
PROFILES = {"test-run": {"phase_turns": [[1, 4], [4, 7]]}}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields a finding for each threat whose turn does not belong to its phase."""
    table = options["phase_turns"]
    for index, threat in threats(ctx):
        phase = ctx.mission.phase_of(threat.at)
        allowed = table[phase - 1] if phase - 1 < len(table) else []
        if allowed and allowed[0] <= threat.turn <= allowed[1]:
            continue
        expected = (f"T+{allowed[0]}-T+{allowed[1]}" if allowed
                    else "no threats")
        home = [p for p, rng in enumerate(table, start=1)
                if rng and rng[0] <= threat.turn <= rng[1]]
        hint = (f"announce T+{threat.turn} in phase {home[0]}" if home
                else f"turn T+{threat.turn} is not played under the {ctx.profile} profile")
        yield Finding(event_path(index, "threat", "turn"),
                      f"T+{threat.turn} announced at {clock(threat.at)} in phase {phase}: "
                      f"expected {expected} in phase {phase}", hint=hint)
