"""Reports communications-down periods that cross a phase end or silence an announcement.

**What it does.** Flags a communications-down that is still on at a phase end, one whose
static covers the start of a threat announcement, and (with ``protect_fixed``) one that
covers a warning or a countdown (lint checklist item 25).

**Why it matters.** A threat announced while nobody may talk cannot be discussed before it
strikes; a warning buried under static is the JSAMG seed-7 bug (a comms-down over "Operation
ends in twenty seconds", docs/soundtrack.md §6.2). No official comms-down crosses a phase end.

**Options.**

* ``protect_fixed`` — also protect the one-minute and twenty-second warnings and the
  countdowns: ``true``.

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "1:00", comms_down: {seconds: 20}}
      - {at: "1:25", threat: {turn: 3, zone: red}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "1:00", comms_down: {seconds: 30}}  # <- T112
      - {at: "1:20", threat: {turn: 3, zone: red}}
      - {at: "2:40", comms_down: {seconds: 30}}  # <- T112
      - {at: "7:00", comms_down: {seconds: 40}}  # <- T112, T112, T112
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext, clock, event_path
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import comms_downs
from authoring.lint.rules.timing.overlapping import cue_label
from authoring.mission.timecode import format_ms

CODE = "T112"
NAME = "comms-down-conflict"
SEVERITY = "error"
DEFAULTS: dict[str, object] = {"protect_fixed": True}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields findings for communications-downs that cross phase ends or cover announcements."""
    protected = {"threat"} | ({"warning", "countdown"} if options["protect_fixed"] else set())
    cues = ctx.full_timeline.cues
    for index, down in comms_downs(ctx):
        where = event_path(index, "comms_down", "seconds")
        for phase, end in enumerate(ctx.mission.phases, start=1):
            if down.at < end < down.end:
                yield Finding(where, f"communications down from {clock(down.at)} to "
                              f"{clock(down.end)} crosses the end of phase {phase} at "
                              f"{clock(end)}", hint="end it before the phase ends")
        start_ms, end_ms = down.at * 1000, down.end * 1000
        for cue in cues:
            if cue.kind in protected and start_ms < cue.start_ms < end_ms:
                yield Finding(where, f"communications down from {clock(down.at)} to "
                              f"{clock(down.end)} covers {cue_label(cue)} at "
                              f"{format_ms(cue.start_ms)}",
                              hint="nobody may talk about it: shorten or move the silence")
