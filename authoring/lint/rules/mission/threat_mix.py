"""Reports a threat mix outside the profile's norm: count, serious, internal.

**What it does.** Counts threats, serious threats, internal threats and internal threat
points (unconfirmed reports included) and compares each with the profile's range (lint
checklist item 14). Each count out of range is one finding.

**Why it matters.** The official missions keep 5-7 threats with 1-3 serious and 1-2 internal
ones worth 1-3 points; a mission outside these ranges plays very differently from the
missions the crew knows.

**Options** (``[min, max]``; ``null`` for no bound):

* ``threats`` — base ``[5, 7]``, training ``[4, 5]``, test-run ``[3, 3]``, double-action
  ``[7, 10]``.
* ``serious`` — base and training ``[1, 3]``, test-run ``[0, 0]``, double-action ``[1, 5]``
  (the 18 official double-action tracks have 1-4; two easier ones have a single one).
* ``internal`` — base ``[1, 2]``, training ``[0, 2]`` (simulations have none, advanced
  simulations one or two), test-run ``[0, 0]``, double-action ``[1, 3]`` (easier mission 1
  has one).
* ``internal_points`` — base ``[1, 3]``, training ``[0, 3]``, test-run ``[0, 0]``,
  double-action ``[2, 5]``.

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
    events:  # <- M107, M107, M107, M107
      - {at: "0:10", threat: {turn: 1, zone: red}}
      - {at: "0:40", threat: {turn: 2, zone: white}}
      - {at: "1:10", threat: {turn: 3, zone: blue}}
      - {at: "1:40", threat: {turn: 4, zone: blue, unconfirmed: true}}
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import EVENTS_KEY, describe_range, in_range, threats

CODE = "M107"
NAME = "threat-mix"
SEVERITY = "warning"
DEFAULTS: dict[str, object] = {"threats": [5, 7], "serious": [1, 3], "internal": [1, 2],
                               "internal_points": [1, 3]}
PROFILES = {
    "training": {"threats": [4, 5], "internal": [0, 2], "internal_points": [0, 3]},
    "test-run": {"threats": [3, 3], "serious": [0, 0], "internal": [0, 0],
                 "internal_points": [0, 0]},
    "double-action": {"threats": [7, 10], "serious": [1, 5], "internal": [1, 3],
                      "internal_points": [2, 5]},
}
_LABELS = {"threats": "threats", "serious": "serious threats", "internal": "internal threats",
           "internal_points": "internal threat points"}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields one finding per count outside its range."""
    found = [t for _, t in threats(ctx)]
    counts = {
        "threats": len(found),
        "serious": sum(1 for t in found if t.serious),
        "internal": sum(1 for t in found if t.internal),
        "internal_points": sum(t.points for t in found if t.internal),
    }
    for name, value in counts.items():
        bounds = options[name]
        if not in_range(value, bounds):
            label = _LABELS[name][:-1] if value == 1 else _LABELS[name]  # "1 serious threat"
            yield Finding(EVENTS_KEY, f"{value} {label}: expected "
                          f"{describe_range(bounds)} for the {ctx.profile} profile", key=True)
