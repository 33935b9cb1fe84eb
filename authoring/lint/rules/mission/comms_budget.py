"""Reports communications-down periods outside the profile's norm.

**What it does.** Checks the number of communications-down periods, the length of each, their
total and the seconds that fall in the last phase (lint checklist item 24).

**Why it matters.** Silence is a difficulty knob as strong as threats; the official
missions hold 45-65 s of it in 2-5 pieces of 5-30 s, 20-40 s of them in phase 3 (when the
crew checks its plans).

**Options** (``[min, max]``, ``null`` to skip):

* ``count`` — base ``[2, 5]``, training ``[2, 4]``, test-run ``[0, 0]``, double-action
  ``[3, 6]``.
* ``length`` — seconds per period: ``[5, 30]``.
* ``total`` — base ``[45, 65]``, training ``[25, 55]``, test-run ``[0, 0]``, double-action
  ``[45, 95]``.
* ``last_phase`` — seconds starting in the last phase: base ``[20, 40]``, training
  ``[10, 30]``, test-run and double-action ``null``.

Training figures come from the six official simulations (docs/soundtrack.md §5.2 gives none).

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "1:00", comms_down: {seconds: 10}}
      - {at: "5:00", comms_down: {seconds: 15}}
      - {at: "8:00", comms_down: {seconds: 20}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:  # <- M114, M114, M114
      - {at: "1:00", comms_down: {seconds: 40}}  # <- M114
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext, clock, event_path
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import (
    EVENTS_KEY,
    comms_downs,
    describe_range,
    in_range,
    plural,
)

CODE = "M114"
NAME = "comms-down-budget"
SEVERITY = "warning"
DEFAULTS: dict[str, object] = {"count": [2, 5], "length": [5, 30], "total": [45, 65],
                               "last_phase": [20, 40]}
PROFILES = {
    "training": {"count": [2, 4], "total": [25, 55], "last_phase": [10, 30]},
    "test-run": {"count": [0, 0], "total": [0, 0], "last_phase": None},
    "double-action": {"count": [3, 6], "total": [45, 95], "last_phase": None},
}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields findings for the count, each length, the total and the last phase's share."""
    found = comms_downs(ctx)
    if not in_range(len(found), options["count"]):
        yield Finding(EVENTS_KEY, f"{plural(len(found), 'communications-down period')}: expected "
                      f"{describe_range(options['count'])} for the {ctx.profile} profile",
                      key=True)
    for index, down in found:
        if not in_range(down.seconds, options["length"]):
            yield Finding(event_path(index, "comms_down", "seconds"),
                          f"communications down for {down.seconds} s at {clock(down.at)}: "
                          f"expected {describe_range(options['length'], ' s')}")
    total = sum(d.seconds for _, d in found)
    if not in_range(total, options["total"]):
        yield Finding(EVENTS_KEY, f"communications down for {total} s in all: expected "
                      f"{describe_range(options['total'], ' s')}", key=True)
    last = len(ctx.mission.phases)
    in_last = sum(d.seconds for _, d in found if ctx.mission.phase_of(d.at) == last)
    if not in_range(in_last, options["last_phase"]):
        yield Finding(EVENTS_KEY, f"communications down for {in_last} s in phase {last}: "
                      f"expected {describe_range(options['last_phase'], ' s')}", key=True)
