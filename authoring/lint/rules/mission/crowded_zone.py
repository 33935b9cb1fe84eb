"""Reports zones with too many external threats, and one zone hit twice in a row.

**What it does.** Counts the external threats of each zone (more than ``max_per_zone`` is
reported at the extra threat) and, with ``repeated_zone``, reports an external threat in the
same zone as the external threat announced just before it (lint checklist item 19). This
is a style hint: the official missions break the second check twice.

**Why it matters.** Spreading threats over the zones makes the crew use the whole ship;
stacking them makes one gunner's plan the whole game.

**Options.**

* ``max_per_zone`` — ``3`` (double-action ``4``).
* ``repeated_zone`` — report consecutive external threats in one zone: ``true``.

**Official tracks.** Mission 1 (T+4 and T+6 in zone blue, with an internal threat between)
and mission 5 (T+4 and T+6 in zone red, across the phase boundary) repeat a zone: two infos.

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", threat: {turn: 1, zone: red}}
      - {at: "0:40", threat: {turn: 2, zone: white}}
      - {at: "1:10", threat: {turn: 3, zone: red}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", threat: {turn: 1, zone: red}}
      - {at: "0:40", threat: {turn: 2, zone: red}}  # <- M112
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from authoring.lint.context import LintContext, clock, event_path
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import threats
from authoring.mission.model import Threat

CODE = "M112"
NAME = "crowded-zone"
SEVERITY = "info"
DEFAULTS: dict[str, object] = {"max_per_zone": 3, "repeated_zone": True}
PROFILES = {"double-action": {"max_per_zone": 4}}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields findings for crowded zones and repeated consecutive zones."""
    counts: Counter[str] = Counter()
    previous: Threat | None = None
    limit = int(options["max_per_zone"])
    for index, threat in threats(ctx):
        if threat.internal:
            continue
        counts[threat.zone] += 1
        where = event_path(index, "threat", "zone")
        if counts[threat.zone] == limit + 1:
            yield Finding(where, f"external threat number {counts[threat.zone]} in zone "
                          f"{threat.zone}: expected at most {limit} per zone")
        elif options["repeated_zone"] and previous is not None and previous.zone == threat.zone:
            yield Finding(where, f"zone {threat.zone} again (T+{previous.turn} at "
                          f"{clock(previous.at)}, T+{threat.turn} at {clock(threat.at)})",
                          hint="consecutive external threats usually go to different zones")
        previous = threat
