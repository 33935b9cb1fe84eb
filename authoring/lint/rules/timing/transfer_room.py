"""Suggests more room after a data transfer.

**What it does.** Flags the next event when it starts less than ``min_room`` seconds after a
data transfer's start but not so close that ``T107`` already warns (``T107``'s ``room``, 13 s
by default; lint checklist item 26).

**Why it matters.** A transfer's exchange moment is its beep ≈10-11 s in; the official tracks
typically leave 15 s before the next announcement so the crew can finish handing cards over.

**Options.**

* ``min_room`` — seconds: ``15``.
* ``warned_below`` — gaps below this many seconds are left to ``T107``: ``13``.

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "1:00", data_transfer: {}}
      - {at: "1:15", threat: {turn: 3, zone: red}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "1:00", data_transfer: {}}
      - {at: "1:14", threat: {turn: 3, zone: red}}  # <- T113
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext, clock, event_path
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import event_label, indexed
from authoring.mission.model import DataTransfer

CODE = "T113"
NAME = "transfer-room"
SEVERITY = "info"
DEFAULTS: dict[str, object] = {"min_room": 15, "warned_below": 13}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields a finding for each event between ``warned_below`` and ``min_room`` s after a
    transfer."""
    low, high = int(options["warned_below"]), int(options["min_room"])
    events = list(indexed(ctx))
    for index, event in events:
        if not isinstance(event, DataTransfer):
            continue
        for later_index, later in events:
            if later_index != index and event.at + low <= later.at < event.at + high:
                yield Finding(event_path(later_index, "at"),
                              f"{event_label(later)} at {clock(later.at)} starts "
                              f"{later.at - event.at} s after the data transfer at "
                              f"{clock(event.at)}: {high} s is the usual room",
                              hint="the crew is still handing cards over")
