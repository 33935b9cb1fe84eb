"""Reports unconfirmed reports that depart from the profile's norm.

**What it does.** Counts unconfirmed reports and checks that they are normal (not serious)
threats where the profile expects that (lint checklist item 15): base and training tracks
have exactly one, always a normal threat; test runs have none; double-action tracks have
1-3 and they may be serious.

**Why it matters.** An unconfirmed report is how a track scales between 4 and 5 players (it
is played only with 5 figures); the norm keeps that difference at one point.

**Options.**

* ``count`` — ``[min, max]``: base and training ``[1, 1]``, test-run ``[0, 0]``,
  double-action ``[1, 3]``.
* ``serious`` — whether an unconfirmed report may be serious: ``false`` except
  double-action ``true``.

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", threat: {turn: 1, zone: red, unconfirmed: true}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:  # <- M108
      - {at: "0:10", threat: {turn: 1, zone: red, unconfirmed: true}}
      - {at: "0:40", threat: {turn: 2, zone: blue, serious: true, unconfirmed: true}}  # <- M108
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext, clock, event_path
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import EVENTS_KEY, describe_range, in_range, plural, threats

CODE = "M108"
NAME = "unconfirmed-reports"
SEVERITY = "warning"
DEFAULTS: dict[str, object] = {"count": [1, 1], "serious": False}
PROFILES = {"test-run": {"count": [0, 0]},
            "double-action": {"count": [1, 3], "serious": True}}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields findings for the count of unconfirmed reports and for serious ones."""
    reports = [(i, t) for i, t in threats(ctx) if t.unconfirmed]
    if not in_range(len(reports), options["count"]):
        yield Finding(EVENTS_KEY, f"{plural(len(reports), 'unconfirmed report')}: expected "
                      f"{describe_range(options['count'])} for the {ctx.profile} profile",
                      key=True)
    if not options["serious"]:
        for index, threat in reports:
            if threat.serious:
                yield Finding(event_path(index, "threat", "serious"),
                              f"serious unconfirmed report at {clock(threat.at)}: expected a "
                              "normal threat", hint="official unconfirmed reports are always "
                              "normal threats (1 point)")
