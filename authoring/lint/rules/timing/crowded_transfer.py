"""Reports announcements that start before a data transfer has finished.

**What it does.** A data transfer counts down to its exchange beep 10 s after it starts and
then says "Data transfer complete." (about 13 s in all). This rule flags the next event when
it starts less than ``room`` seconds after a transfer start: the beep collides with it, and
the compiled timeline leaves the closing line out (lint checklist item 8: "a 10 s schedule
gap is only a warning"; an actual overlap of spoken lines is ``T106``'s error).

**Why it matters.** The beep is the moment cards must have changed hands; an announcement on
top of it makes the exchange moment ambiguous.

**Options.**

* ``room`` — seconds a transfer needs before the next event: ``13``.

**Official tracks.** Mission 3 puts a communications-down 10 s after its phase-3 transfer
(8:05 and 8:15) and gets this warning.

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "1:00", data_transfer: {}}
      - {at: "1:15", incoming_data: {}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "1:00", data_transfer: {}}
      - {at: "1:10", comms_down: {seconds: 10}}  # <- T107
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext, clock, event_path
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import event_label, indexed
from authoring.mission.model import DataTransfer

CODE = "T107"
NAME = "crowded-transfer"
SEVERITY = "warning"
DEFAULTS: dict[str, object] = {"room": 13}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields a finding for each event that starts within ``room`` s of a transfer start."""
    room = int(options["room"])
    events = list(indexed(ctx))
    for index, event in events:
        if not isinstance(event, DataTransfer):
            continue
        for later_index, later in events:
            if later_index != index and event.at <= later.at < event.at + room:
                yield Finding(event_path(later_index, "at"),
                              f"{event_label(later)} at {clock(later.at)} starts "
                              f"{later.at - event.at} s after the data transfer at "
                              f"{clock(event.at)}: expected at least {room} s",
                              hint="the exchange beep comes 10 s in and 'data transfer "
                                   "complete' ends about 13 s in")
