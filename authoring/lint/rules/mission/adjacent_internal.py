"""Reports internal threats on turns too close together.

**What it does.** Flags an internal threat whose turn is less than ``min_turn_gap`` after the
previous internal threat's (lint checklist item 17: never on adjacent turns in the official
tracks, nor in the JSAMG and MA generators). Two stricter JSAMG checks are available as
options. MA's "at most one internal threat per phase" is deliberately not offered: official
mission 3 breaks it.

**Why it matters.** Internal threats pull crew members away from the guns; two of them in a
row leave the ship defenceless in a way no official mission does.

**Options.**

* ``min_turn_gap`` — smallest turn difference between consecutive internal threats: ``2``
  (double-action ``1``, where shared turns put internals close together).
* ``external_between`` — require an external threat on a turn strictly between any two
  internal ones (JSAMG): ``false``.
* ``serious_gap`` — smallest turn difference between two serious internal threats (JSAMG
  uses 3): ``0`` (off).

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", threat: {turn: 2, zone: internal}}
      - {at: "0:40", threat: {turn: 4, zone: internal}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", threat: {turn: 2, zone: internal}}
      - {at: "0:40", threat: {turn: 3, zone: internal}}  # <- M110

Fails (with the JSAMG options)::

    # options: {external_between: true, serious_gap: 3}
    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", threat: {turn: 2, zone: internal, serious: true}}
      - {at: "0:40", threat: {turn: 4, zone: internal, serious: true}}  # <- M110, M110
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext, event_path
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import threats

CODE = "M110"
NAME = "adjacent-internal-threats"
SEVERITY = "warning"
DEFAULTS: dict[str, object] = {"min_turn_gap": 2, "external_between": False, "serious_gap": 0}
PROFILES = {"double-action": {"min_turn_gap": 1}}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields findings for internal threats too close to the previous (serious) internal."""
    found = threats(ctx)
    external_turns = {t.turn for _, t in found if not t.internal}
    previous = None
    previous_serious = None
    for index, threat in found:
        if not threat.internal:
            continue
        where = event_path(index, "threat", "turn")
        if previous is not None:
            gap = threat.turn - previous.turn
            if gap < int(options["min_turn_gap"]):
                yield Finding(where, f"internal threats on T+{previous.turn} and T+{threat.turn}: "
                              f"expected turns at least {options['min_turn_gap']} apart")
            elif options["external_between"] and not any(
                    previous.turn < turn < threat.turn for turn in external_turns):
                yield Finding(where, f"no external threat between the internal threats on "
                              f"T+{previous.turn} and T+{threat.turn}")
        if threat.serious:
            gap_needed = int(options["serious_gap"])
            if previous_serious is not None and threat.turn - previous_serious.turn < gap_needed:
                yield Finding(where, f"serious internal threats on T+{previous_serious.turn} and "
                              f"T+{threat.turn}: expected turns at least {gap_needed} apart")
            previous_serious = threat
        previous = threat
