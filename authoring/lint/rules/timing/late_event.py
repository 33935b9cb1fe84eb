"""Reports events that start in the protected windows around a phase end.

**What it does.** For each phase ending at ``E`` (lint checklist item 7) it flags an event
that starts

* in the last ``closing - 1`` seconds of the phase (after ``E - closing``): there it would
  collide with the twenty-second warning or the countdown;
* less than ``after_end`` seconds after a phase end, while "… phase has ended. Please begin
  … phase." is spoken;
* inside the one-minute warning, from ``E - 60 s`` to before ``E - 55 s``
  (``warning_window``).

An "ambush" at exactly ``E - 55 s`` is allowed (three official phases have one).

**Why it matters.** Published generators lose or overlap the fixed announcements this way
(docs/soundtrack.md §6.2: 54 % of JSAMG missions overlap the final countdown).

**Options.**

* ``closing`` — seconds before the end after which nothing may start: ``40``
  (double-action ``35``).
* ``after_end`` — seconds after a phase end before the next event: ``5``.
* ``warning_window`` — ``[from, to]`` seconds before the end covered by the one-minute
  warning: ``[60, 55]``.

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "2:50", threat: {turn: 3, zone: red}}
      - {at: "3:05", incoming_data: {}}
      - {at: "3:50", incoming_data: {}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "2:45", threat: {turn: 3, zone: red}}  # <- T105
      - {at: "3:10", incoming_data: {}}  # <- T105
      - {at: "3:47", incoming_data: {}}  # <- T105
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext, clock, event_path
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import event_label, indexed

CODE = "T105"
NAME = "late-event"
SEVERITY = "error"
DEFAULTS: dict[str, object] = {"closing": 40, "after_end": 5, "warning_window": [60, 55]}
PROFILES = {"double-action": {"closing": 35}}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields a finding for each event in a protected window."""
    closing = int(options["closing"])
    after_end = int(options["after_end"])
    warn_from, warn_to = options["warning_window"]
    for index, event in indexed(ctx):
        phase = ctx.mission.phase_of(event.at)
        end = ctx.mission.phases[phase - 1]
        label = f"{event_label(event)} at {clock(event.at)}"
        where = event_path(index, "at")
        if event.at >= end:  # after the mission end: the validator's M003
            continue
        left = end - event.at
        if left < closing:
            yield Finding(where, f"{label} starts {left} s before phase {phase} ends: expected "
                          f"at least {closing} s", hint="nothing may start once the "
                          "twenty-second warning and the countdown are near")
        elif warn_to < left <= warn_from:
            yield Finding(where, f"{label} starts during the one-minute warning of phase "
                          f"{phase} ({clock(end - warn_from)}-{clock(end - warn_to)})",
                          hint=f"start it at {clock(end - warn_to)} or earlier than "
                               f"{clock(end - warn_from)}")
        start = ctx.phase_start(phase)
        if phase > 1 and event.at - start < after_end:
            yield Finding(where, f"{label} starts {event.at - start} s after phase {phase - 1} "
                          f"ends: expected at least {after_end} s",
                          hint="the closing line of the phase is still being spoken")
