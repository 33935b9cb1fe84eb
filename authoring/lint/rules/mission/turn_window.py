"""Reports threats on turns outside the window official tracks use for their kind.

**What it does.** Checks the turn of each threat against the window for its kind (lint
checklist item 16): serious external T+2-7, normal internal T+2-7, serious internal T+3-6;
normal external threats may come on any turn T+1-8.

**Why it matters.** A serious threat on T+1 reaches the ship before the crew can act in
phase 1; on T+8 it often leaves the board unresolved; internal threats on T+1 strike before
anyone can move.

**Options** (``[first, last]`` turn for each kind): ``normal_external`` ``[1, 8]``,
``serious_external`` ``[2, 7]``, ``normal_internal`` ``[2, 7]``, ``serious_internal``
``[3, 6]``. The double-action profile widens three of them by a turn, as its 18 official
tracks do: ``serious_external`` ``[2, 8]``, ``normal_internal`` ``[2, 8]``,
``serious_internal`` ``[3, 7]`` (a double-action track has 12 turns, so T+8 still leaves four
to deal with it).

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", threat: {turn: 1, zone: red}}
      - {at: "0:40", threat: {turn: 2, zone: internal}}
      - {at: "1:10", threat: {turn: 3, zone: internal, serious: true}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", threat: {turn: 1, zone: red, serious: true}}  # <- M109
      - {at: "0:40", threat: {turn: 2, zone: internal, serious: true}}  # <- M109
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext, clock, event_path
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import describe_range, in_range, threats

CODE = "M109"
NAME = "threat-outside-turn-window"
SEVERITY = "warning"
DEFAULTS: dict[str, object] = {"normal_external": [1, 8], "serious_external": [2, 7],
                               "normal_internal": [2, 7], "serious_internal": [3, 6]}
PROFILES = {"double-action": {"serious_external": [2, 8], "normal_internal": [2, 8],
                              "serious_internal": [3, 7]}}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields a finding for each threat whose turn is outside its kind's window."""
    for index, threat in threats(ctx):
        kind = ("serious" if threat.serious else "normal") + (
            "_internal" if threat.internal else "_external")
        window = options[kind]
        if not in_range(threat.turn, window):
            label = kind.replace("_", " ")
            yield Finding(event_path(index, "threat", "turn"),
                          f"{label} threat on T+{threat.turn} at {clock(threat.at)}: expected "
                          f"T+{describe_range(window)}")
