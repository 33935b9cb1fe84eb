"""Reports threat points split unevenly between the two halves of the mission.

**What it does.** Adds the threat points of turns T+1-4 and of T+5-8 (unconfirmed reports
included) and reports, in one finding, when the halves are more than ``max_difference``
apart or either half is outside ``half_points`` (lint checklist item 18).

**Why it matters.** The official missions split their 8 points 4:4, 3:5 or 5:3; a lopsided
mission is idle for one half and swamped in the other.

**Options.**

* ``max_difference`` — base and training ``2``, double-action ``4``; ``null`` to skip.
* ``half_points`` — ``[min, max]`` points per half: base ``[3, 5]``, training ``[2, 4]``,
  double-action ``[4, 8]``.
* Test runs (one to three threats in turns 1-7) skip the rule: both options ``null``.

**Official tracks.** Advanced simulation 2 splits its 6 points 5:1 and gets this warning.

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", threat: {turn: 1, zone: red}}
      - {at: "0:40", threat: {turn: 2, zone: white, serious: true}}
      - {at: "3:55", threat: {turn: 5, zone: red, serious: true}}
      - {at: "4:30", threat: {turn: 7, zone: white}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:  # <- M111
      - {at: "0:10", threat: {turn: 1, zone: red, serious: true}}
      - {at: "0:40", threat: {turn: 2, zone: white, serious: true}}
      - {at: "1:10", threat: {turn: 4, zone: blue}}
      - {at: "3:55", threat: {turn: 5, zone: red}}
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import EVENTS_KEY, describe_range, in_range, threats

CODE = "M111"
NAME = "unbalanced-threat-halves"
SEVERITY = "warning"
DEFAULTS: dict[str, object] = {"max_difference": 2, "half_points": [3, 5]}
PROFILES = {"training": {"half_points": [2, 4]},
            "test-run": {"max_difference": None, "half_points": None},
            "double-action": {"max_difference": 4, "half_points": [4, 8]}}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields one finding when the halves are unbalanced."""
    first = sum(t.points for _, t in threats(ctx) if t.turn <= 4)
    second = sum(t.points for _, t in threats(ctx) if t.turn >= 5)
    wrong: list[str] = []
    limit = options["max_difference"]
    if limit is not None and abs(first - second) > limit:
        wrong.append(f"at most {limit} apart")
    bounds = options["half_points"]
    if bounds is not None and not (in_range(first, bounds) and in_range(second, bounds)):
        wrong.append(f"{describe_range(bounds)} per half")
    if wrong:
        yield Finding(EVENTS_KEY, f"threat points split {first}:{second} between T+1-4 and "
                      f"T+5-8: expected {' and '.join(wrong)}", key=True)
