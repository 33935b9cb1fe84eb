"""Reports a threat-point total that differs from the profile's norm.

**What it does.** Adds the threat points of all threats as written (normal 1, serious 2,
unconfirmed reports included) and compares the total with the profile's (lint checklist
item 13). A 4-player table plays one point less (the unconfirmed report is ignored); the
total is about the mission as written, which is for 5 players.

**Why it matters.** Threat points are the main difficulty knob; every official track of a
kind has the same total.

**Options.**

* ``points`` — the allowed totals: base ``[8]`` (7 confirmed + 1 unconfirmed), training
  ``[6]`` (5 + 1), test-run ``[3]``, double-action ``[10, 12]`` (easier 8 + 2, standard
  10 + 2).

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", threat: {turn: 1, zone: red}}
      - {at: "0:40", threat: {turn: 2, zone: white, serious: true}}
      - {at: "1:10", threat: {turn: 3, zone: internal}}
      - {at: "1:40", threat: {turn: 4, zone: blue, unconfirmed: true}}
      - {at: "3:55", threat: {turn: 5, zone: red, serious: true}}
      - {at: "4:30", threat: {turn: 7, zone: white}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:  # <- M106
      - {at: "0:10", threat: {turn: 1, zone: red}}
      - {at: "3:55", threat: {turn: 5, zone: red, serious: true}}
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import EVENTS_KEY, threats

CODE = "M106"
NAME = "threat-points"
SEVERITY = "warning"
DEFAULTS: dict[str, object] = {"points": [8]}
PROFILES = {"training": {"points": [6]}, "test-run": {"points": [3]},
            "double-action": {"points": [10, 12]}}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields a finding when the total threat points are not among the allowed totals."""
    allowed = list(options["points"])
    confirmed = sum(t.points for _, t in threats(ctx) if not t.unconfirmed)
    unconfirmed = sum(t.points for _, t in threats(ctx) if t.unconfirmed)
    total = confirmed + unconfirmed
    if allowed and total not in allowed:
        expected = " or ".join(str(p) for p in allowed)
        yield Finding(EVENTS_KEY, f"threats add up to {total} threat points ({confirmed} "
                      f"confirmed + {unconfirmed} unconfirmed): expected {expected} for the "
                      f"{ctx.profile} profile", key=True,
                      hint="a normal threat is 1 point, a serious one 2")
